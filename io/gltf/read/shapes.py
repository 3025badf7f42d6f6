"""Reading shape parameter sub-objects of every family into the model's shape classes (bpy-free)."""

from __future__ import annotations

from ...diagnostics import Severity
from ..extensions import KHR_RIGID_BODIES
from ..model import (
    BOX,
    CAPSULE,
    CYLINDER,
    MESH,
    PARAM_KEYS,
    PLANE,
    SPHERE,
    BoxShape,
    CapsuleShape,
    CylinderShape,
    MeshShape,
    Passthrough,
    PlaneShape,
    SphereShape,
)
from .common import CONVERTED, ReadContext, pointer_join

# Defaults by family: {type: {attribute: default}} (KHR_collision_shapes == KHR_implicit_shapes).
KHR_DEFAULTS = {
    BOX: {"size": (1.0, 1.0, 1.0)},
    SPHERE: {"radius": 0.5},
    CAPSULE: {"height": 0.5, "radius_top": 0.25, "radius_bottom": 0.25},
    CYLINDER: {"height": 0.5, "radius_top": 0.25, "radius_bottom": 0.25},
    PLANE: {"size_x": None, "size_z": None, "double_sided": False},
}
OMI_DEFAULTS = {
    BOX: {"size": (1.0, 1.0, 1.0)},
    SPHERE: {"radius": 0.5},
    CAPSULE: {"height": 1.0, "radius_top": 0.5, "radius_bottom": 0.5},
    CYLINDER: {"height": 2.0, "radius_top": 0.5, "radius_bottom": 0.5},
}
#: The members each parameter object consumes, by shape type.
_PARAM_MEMBERS = {shape_type: frozenset(keys.values()) for shape_type, keys in PARAM_KEYS.items()}
LEGACY_RADIUS = 0.5
LEGACY_HEIGHT = 2.0  # OMI legacy capsule/cylinder: total height


def read_params(ctx: ReadContext, shape_type: str, sub: dict, ptr: str, defaults: dict):
    """Read an implicit shape's parameter object (``sub`` may be ``{}``: defaults apply)."""
    keys = PARAM_KEYS[shape_type]
    values = dict(defaults[shape_type])
    if shape_type == BOX:
        values["size"] = ctx.vector(sub, "size", ptr, 3, values["size"])
        params = BoxShape(**values)
    elif shape_type == SPHERE:
        values["radius"] = ctx.number(sub, "radius", ptr, values["radius"])
        params = SphereShape(**values)
    elif shape_type in (CAPSULE, CYLINDER):
        for attr, key in keys.items():
            values[attr] = ctx.number(sub, key, ptr, values[attr])
        params = (CapsuleShape if shape_type == CAPSULE else CylinderShape)(**values)
    else:  # PLANE
        values["size_x"] = ctx.number(sub, "sizeX", ptr)
        values["size_z"] = ctx.number(sub, "sizeZ", ptr)
        values["double_sided"] = ctx.boolean(sub, "doubleSided", ptr)
        params = PlaneShape(**values)
    ctx.passthrough(sub, ptr, _PARAM_MEMBERS[shape_type], params)
    return params


def read_mesh_params(ctx: ReadContext, sub: dict, ptr: str) -> MeshShape:
    """KHR 2024-07 ``mesh`` shape parameters (``mesh`` required)."""
    mesh = ctx.required_index(sub, "mesh", ptr)
    ctx.check_mesh(mesh, ptr, "mesh")
    params = MeshShape(
        mesh=mesh,
        skin=ctx.index(sub, "skin", ptr),
        weights=ctx.numbers(sub, "weights", ptr),
        use_node_weights=ctx.boolean(sub, "useNodeWeights", ptr),
    )
    ctx.passthrough(sub, ptr, _PARAM_MEMBERS[MESH], params)
    return params


def read_legacy_round(ctx: ReadContext, shape_type: str, d: dict, ptr: str, explicit_legacy: bool):
    """OMI legacy capsule/cylinder ``{radius, height}`` (height = total, tip to tip) -> model parameters.

    ``explicit_legacy`` is True for OMI_collider/2023 files; for current-form files a capsule sub-object carrying
    ``radius`` (and no radiusTop/radiusBottom) is read the legacy way too (Godot exports of that era).
    """
    radius = ctx.number(d, "radius", ptr, LEGACY_RADIUS)
    height = ctx.number(d, "height", ptr, LEGACY_HEIGHT)
    known = {"radius", "height"} | ({"type", "isTrigger", "name"} if explicit_legacy else set())
    if shape_type == CAPSULE:
        centre = height - 2.0 * radius
        if centre <= 0.0:
            ctx.report(  # the problem itself is the validator's OMI_LEGACY_CAPSULE_HEIGHT warning
                Severity.INFO,
                CONVERTED,
                pointer_join(ptr, "height"),
                f"legacy capsule total height {height} <= 2 * radius {radius}: kept as a sphere-like capsule",
            )
            centre = 0.0
        else:
            ctx.report(
                Severity.INFO,
                CONVERTED,
                pointer_join(ptr, "height"),
                f"legacy capsule total height {height} read as sphere-centre distance {centre}",
            )
        params = CapsuleShape(height=centre, radius_top=radius, radius_bottom=radius)
    else:
        params = CylinderShape(height=height, radius_top=radius, radius_bottom=radius)
    ctx.passthrough(d, ptr, known, params)
    return params


def split_hull_extension(ctx: ReadContext, shape_ext: dict, ptr: str) -> tuple[bool, Passthrough | None, dict]:
    """Pull the KHR 2024-07 shape-level ``KHR_physics_rigid_bodies {convexHull}`` out of a shape's extensions."""
    if KHR_RIGID_BODIES not in shape_ext:
        return False, None, shape_ext
    rest = {k: v for k, v in shape_ext.items() if k != KHR_RIGID_BODIES}
    hull_ptr = pointer_join(ptr, "extensions", KHR_RIGID_BODIES)
    hull_obj = ctx.obj(shape_ext[KHR_RIGID_BODIES], hull_ptr)
    convex = ctx.boolean(hull_obj, "convexHull", hull_ptr)
    keep = ctx.passthrough(hull_obj, hull_ptr, {"convexHull"})
    empty = keep.extras is None and not keep.extensions and not keep.unknown
    return convex, None if empty else keep, rest
