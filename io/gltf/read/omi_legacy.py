"""Legacy OMI pieces: body ``type`` enum, ``inertiaTensor``, and ``{constraints, nodeA, nodeB}`` joints (bpy-free).

Legacy joint semantics (seed 003): the joint node's transform is the pivot for both bodies; each constraint limits
its listed axes to ``[lowerLimit, upperLimit]`` (default 0/0 = locked), ``stiffness`` absent = infinitely stiff,
``damping`` default 1.  Listed axes are limited one by one, so a multi-axis constraint with a non-zero range is split
into one 1-D limit per axis (KHR multi-axis limits measure a distance to a line/point instead); a locked range is the
same either way and stays grouped.  Bodies connected by a legacy joint do not collide.
"""

from __future__ import annotations

import math

import numpy as np

from ...diagnostics import Severity
from ..extensions import OMI_JOINT as JOINT
from ..extensions import REV_OMI_2024_11
from ..model import (
    DYNAMIC,
    KINEMATIC,
    STATIC,
    Frame,
    JointDescription,
    JointLimit,
    LegacyPivot,
    Motion,
    NodeJoint,
    PhysicsDocument,
)
from ..nodes import parent_map, relative_frame
from ..transforms import matrix_to_quat
from .common import (
    CONVERTED,
    FLOAT32_MAX,
    FLOAT32_TINY,
    OUT_OF_RANGE,
    DropUnitError,
    ReadContext,
    fits_float32,
    pointer_join,
)

LEGACY_BODY_KINDS = {
    "rigid": DYNAMIC,
    "dynamic": DYNAMIC,
    "vehicle": DYNAMIC,
    "character": KINEMATIC,
    "kinematic": KINEMATIC,
    "static": STATIC,
    "trigger": STATIC,
}


def read_legacy_inertia(ctx: ReadContext, d: dict, ptr: str, motion: Motion) -> None:
    """Legacy ``inertiaTensor`` float[9] -> principal moments + orientation (all-zero = automatic).

    The tensor is divided by its largest magnitude before the eigen-decomposition (so ``1e308`` entries cannot
    overflow into NaN) and the moments are scaled back; a tensor that is not positive definite or whose moments a
    32-bit float cannot hold is reported at its pointer and ignored (the inertia is then computed automatically).
    """
    values = ctx.numbers(d, "inertiaTensor", ptr)
    if values is None or len(values) != 9 or not any(values):
        return
    here = pointer_join(ptr, "inertiaTensor")
    tensor = np.array(values).reshape(3, 3)
    scale = float(np.max(np.abs(tensor)))
    unit = tensor / scale
    moments, axes = np.linalg.eigh((unit + unit.T) / 2)
    if np.linalg.det(axes) < 0:
        axes[:, 0] = -axes[:, 0]
    if np.any(moments <= 0):
        ctx.report(Severity.WARNING, OUT_OF_RANGE, here, "legacy inertiaTensor is not positive definite: ignored")
        return
    with np.errstate(over="ignore"):
        moments = moments * scale
    if not all(FLOAT32_TINY <= v <= FLOAT32_MAX for v in moments):
        ctx.report(
            Severity.WARNING,
            OUT_OF_RANGE,
            here,
            f"legacy inertiaTensor has principal moments {[float(v) for v in moments]} that a 32-bit float cannot "
            "hold: ignored (inertia computed automatically)",
        )
        return
    motion.inertia_diagonal = tuple(float(v) for v in moments)
    motion.inertia_orientation = tuple(matrix_to_quat(axes).tolist())
    ctx.report(
        Severity.INFO, CONVERTED, here, "legacy inertiaTensor diagonalized into inertiaDiagonal + inertiaOrientation"
    )


def _legacy_limits(ctx: ReadContext, c: dict, ptr: str) -> list[JointLimit]:
    lower = ctx.number(c, "lowerLimit", ptr, 0.0)
    upper = ctx.number(c, "upperLimit", ptr, 0.0)
    stiffness = ctx.number(c, "stiffness", ptr)
    damping = ctx.number(c, "damping", ptr, 1.0)
    out: list[JointLimit] = []
    for key, attr in (("linearAxes", "linear_axes"), ("angularAxes", "angular_axes")):
        axes = ctx.indices(c, key, ptr)
        if not axes:
            continue
        groups = [axes] if lower == upper == 0.0 or len(axes) == 1 else [(a,) for a in axes]
        if len(groups) > 1:
            ctx.report(
                Severity.INFO, CONVERTED, pointer_join(ptr, key), "legacy per-axis range split into one limit per axis"
            )
        for group in groups:
            out.append(JointLimit(**{attr: tuple(group)}, min=lower, max=upper, stiffness=stiffness, damping=damping))
    return out


def _description(ctx: ReadContext, refs: list, ptr: str, root: list | None) -> JointDescription:
    desc = JointDescription(source=REV_OMI_2024_11)
    for i, ref in enumerate(refs):
        if isinstance(ref, int) and not isinstance(ref, bool):
            item_ptr = pointer_join("", "extensions", JOINT, "constraints", ref)
            if root is None or not 0 <= ref < len(root):
                ctx.fail(
                    "PHYSICS_PARSE_UNRESOLVED_REFERENCE",
                    pointer_join(ptr, "constraints", i),
                    f"legacy constraint {ref} does not exist",
                )
            if ctx.is_dropped(item_ptr):
                raise DropUnitError(item_ptr)
            desc.limits.extend(_legacy_limits(ctx, ctx.obj(root[ref], item_ptr), item_ptr))
        else:
            item_ptr = pointer_join(ptr, "constraints", i)
            desc.limits.extend(_legacy_limits(ctx, ctx.obj(ref, item_ptr), item_ptr))
    return desc


def _frame(ctx: ReadContext, found, ptr: str, key: str, body: int) -> Frame | None:
    """The pivot in body ``body``'s space, or None (reported at ``ptr/key``) when it is singular, not finite or does
    not fit the 32-bit floats of a glTF node; the rotation is normalised (a sheared base leaves it non-unit)."""
    if found is not None:
        translation, rotation, scale = found
        norm = math.sqrt(math.fsum(v * v for v in rotation))
        if all(fits_float32(v) and abs(v) >= FLOAT32_TINY for v in scale) and all(map(fits_float32, translation)):
            return Frame(translation=translation, rotation=tuple(v / norm for v in rotation), scale=scale)
    ctx.report(
        Severity.WARNING,
        OUT_OF_RANGE,
        pointer_join(ptr, key),
        f"the joint's pivot cannot be expressed in node {body}'s space as 32-bit floats (singular, huge or tiny "
        "transforms)",
    )
    return None


def read_legacy_joints(ctx: ReadContext, doc: PhysicsDocument, exts: dict) -> None:
    """Every node-level legacy ``OMI_physics_joint`` -> a NodeJoint with a ``LegacyPivot``."""
    root_ext = exts.get(JOINT)
    root = root_ext.get("constraints") if isinstance(root_ext, dict) else None
    root = root if isinstance(root, list) else None
    parents = None
    descriptions: dict[str, int] = {}
    for index, node_exts in ctx.physics_nodes():
        ext = node_exts.get(JOINT)
        if not isinstance(ext, dict) or "connectedNode" in ext or "nodeA" not in ext:
            continue
        ptr = pointer_join("", "nodes", index, "extensions", JOINT)
        if ctx.is_dropped(ptr):
            continue
        try:
            body_a = ctx.required_index(ext, "nodeA", ptr)
            body_b = ctx.required_index(ext, "nodeB", ptr)
            ctx.check_node(body_a, ptr, "nodeA")
            ctx.check_node(body_b, ptr, "nodeB")
            refs = ctx.array(ext.get("constraints", []), pointer_join(ptr, "constraints"))
            desc = _description(ctx, refs, ptr, root)
        except DropUnitError:
            continue
        key = repr(desc)
        if key not in descriptions:
            descriptions[key] = len(doc.joints)
            doc.joints.append(desc)
        parents = parents if parents is not None else parent_map(ctx.nodes)
        pivot = LegacyPivot(
            body_a=body_a,
            body_b=body_b,
            frame_a=_frame(ctx, relative_frame(index, body_a, ctx.nodes, parents), ptr, "nodeA", body_a),
            frame_b=_frame(ctx, relative_frame(index, body_b, ctx.nodes, parents), ptr, "nodeB", body_b),
        )
        joint = NodeJoint(connected_node=body_b, joint=descriptions[key], legacy_pivot=pivot)
        ctx.passthrough(ext, ptr, {"constraints", "nodeA", "nodeB"}, joint)
        node = doc.node(index)
        node.joint = joint
        node.source = node.source or REV_OMI_2024_11
        doc.revisions.add(REV_OMI_2024_11)
