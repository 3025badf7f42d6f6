"""Pieces shared by the KHR and OMI writers: output container, passthrough, resources, shape parameters, mesh /
node geometry conversion and legacy-joint attachment nodes (bpy-free)."""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from ...diagnostics import Diagnostic, DiagnosticList, pointer
from ..model import (
    BOX,
    CAPSULE,
    COMBINE_MODES,
    CYLINDER,
    PLANE,
    SPHERE,
    CollisionFilter,
    Geometry,
    JointDescription,
    JointDrive,
    JointLimit,
    LegacyPivot,
    MeshShape,
    Passthrough,
    PhysicsDocument,
    PhysicsMaterial,
)
from ..nodes import parent_map
from ..read.common import FLOAT32_MAX, fits_float32

LOSSY = "PHYSICS_WRITE_LOSSY"  # a value the target cannot hold (WARNING)
CONVERTED = "PHYSICS_WRITE_CONVERTED"  # same meaning, different form (INFO)
SEMANTICS = "PHYSICS_WRITE_SEMANTICS"  # value kept, but the target may interpret it differently (WARNING)
INVALID_VALUE = "PHYSICS_WRITE_INVALID_VALUE"  # written as read, but the target schema forbids it (WARNING)


@dataclass
class WriteOutput:
    """What a writer produces; ``migrate.apply_output`` puts it into a glTF JSON document.

    ``new_nodes`` are appended to the glTF ``nodes`` array starting at ``node_base``; ``new_children`` are
    (parent, child) links to add; ``nodes`` maps node index -> {extension name: node-level object}.
    """

    node_base: int
    root: dict[str, dict] = field(default_factory=dict)
    nodes: dict[int, dict[str, dict]] = field(default_factory=dict)
    new_nodes: list[dict] = field(default_factory=list)
    new_children: list[tuple[int, int]] = field(default_factory=list)
    diags: DiagnosticList = field(default_factory=DiagnosticList)

    @property
    def diagnostics(self) -> list[Diagnostic]:
        return self.diags.items

    def add_node(self, node: dict, parent: int | None) -> int:
        index = self.node_base + len(self.new_nodes)
        self.new_nodes.append(node)
        if parent is not None:
            self.new_children.append((parent, index))
        return index


class WriteContext:
    """The document being written plus the (read-only) glTF JSON it belongs to."""

    def __init__(self, document: PhysicsDocument, gltf: dict | None):
        self.doc = document
        self.gltf = gltf if isinstance(gltf, dict) else {}
        nodes = self.gltf.get("nodes")
        self.nodes: list = nodes if isinstance(nodes, list) else []
        self.out = WriteOutput(node_base=len(self.nodes))
        self._mesh_nodes: dict[int, int] = {}
        self._parents: dict[int, int] | None = None
        self._meshes_reached: dict[int, list[int]] | None = None  # ``meshes_below``'s table, made on first use

    def lossy(self, ptr: str, message: str) -> None:
        self.out.diags.warning(LOSSY, ptr, message)

    def semantics(self, ptr: str, message: str) -> None:
        self.out.diags.warning(SEMANTICS, ptr, message)

    def invalid_value(self, ptr: str, message: str) -> None:
        self.out.diags.warning(INVALID_VALUE, ptr, message)

    def check_params(self, shape_type: str, params, ptr: str) -> None:
        """Report shape values the schemas forbid (degenerate shapes are kept: validators call them INFO)."""
        positive = {
            BOX: list(params.size) if shape_type == BOX else [],
            SPHERE: [getattr(params, "radius", 1.0)],
            CAPSULE: [getattr(params, "height", 1.0)],
            CYLINDER: [getattr(params, "height", 1.0)],
            PLANE: [v for v in (getattr(params, "size_x", None), getattr(params, "size_z", None)) if v is not None],
        }
        non_negative = [getattr(params, "radius_top", 0.0), getattr(params, "radius_bottom", 0.0)]
        if any(v <= 0 for v in positive.get(shape_type, [])) or any(v < 0 for v in non_negative):
            self.invalid_value(ptr, f"degenerate {shape_type} written as read; the schema requires sizes > 0")

    def combine(self, value: str | None, ptr: str) -> str | None:
        if value is None or value in COMBINE_MODES:
            return value
        self.lossy(ptr, f"combine mode {value!r} is not one of {COMBINE_MODES}: omitted")
        return None

    def converted(self, ptr: str, message: str) -> None:
        self.out.diags.info(CONVERTED, ptr, message)

    def gltf_node(self, index: int) -> dict:
        node = self.nodes[index] if 0 <= index < len(self.nodes) else None
        return node if isinstance(node, dict) else {}

    @property
    def parents(self) -> dict[int, int]:
        if self._parents is None:
            self._parents = parent_map(self.nodes)
        return self._parents

    def descendants(self, index: int) -> list[int]:
        out, stack, seen = [], [index], {index}
        while stack:
            children = self.gltf_node(stack.pop()).get("children")
            for child in children if isinstance(children, list) else []:
                if isinstance(child, int) and child not in seen and 0 <= child < len(self.nodes):
                    seen.add(child)
                    out.append(child)
                    stack.append(child)
        return sorted(out)

    def meshes_below(self, index: int) -> bool:
        """Whether a node below ``index`` (one of ``descendants(index)``) has a ``mesh``. Up to two of the mesh nodes
        each node reaches are found at once, on the first question (``_meshes_reached``): listing the subtree per
        question made a file whose colliders name the nodes of one long chain quadratic."""
        if self._meshes_reached is None:
            self._meshes_reached = _meshes_reached(self.nodes)
        reached = self._meshes_reached
        children = self.gltf_node(index).get("children")
        for child in children if isinstance(children, list) else []:
            valid = isinstance(child, int) and 0 <= child < len(self.nodes)
            if valid and any(mesh != index for mesh in reached.get(int(child), ())):
                return True
        return False

    # -- geometry conversions -------------------------------------------------------------------------------------
    def mesh_of_geometry(self, geometry: Geometry, ptr: str) -> tuple[int, bool, MeshShape | None] | None:
        """(mesh, convex hull, mesh shape) of a mesh-like geometry (shape->MeshShape, mesh, node); else None."""
        if geometry.mesh is not None:
            return geometry.mesh, geometry.convex_hull, None
        if geometry.node is not None:
            node = self.gltf_node(geometry.node)
            mesh = node.get("mesh")
            if not isinstance(mesh, int) or isinstance(mesh, bool):
                return None
            if self.meshes_below(geometry.node):
                self.lossy(ptr, f"geometry node {geometry.node} has child meshes: only its own mesh is kept")
            if "skin" in node or "weights" in node:
                self.lossy(ptr, f"skin/morph weights of geometry node {geometry.node} are not kept")
            return mesh, geometry.convex_hull, None
        if geometry.shape is not None and 0 <= geometry.shape < len(self.doc.shapes):
            params = self.doc.shapes[geometry.shape].params
            if isinstance(params, MeshShape):
                return params.mesh, params.convex_hull, params
        return None

    def node_for_mesh(self, mesh: int, own_node: int) -> int:
        """KHR 2024-10 ``geometry.node``: the collider's own node when it holds ``mesh``, else a new node outside
        every scene holding only that mesh (one per mesh)."""
        if self.gltf_node(own_node).get("mesh") == mesh and "skin" not in self.gltf_node(own_node):
            return own_node
        if mesh not in self._mesh_nodes:
            self._mesh_nodes[mesh] = self.out.add_node({"mesh": mesh, "name": f"physics_mesh_{mesh}"}, None)
        return self._mesh_nodes[mesh]

    def pivot_nodes(self, pivot: LegacyPivot, joint_node: int) -> tuple[int, int] | None:
        """Attachment nodes under both bodies at the legacy pivot; None when a frame is unknown."""
        if pivot.frame_a is None or pivot.frame_b is None:
            return None
        made = []
        for body, frame, tag in ((pivot.body_a, pivot.frame_a, "A"), (pivot.body_b, pivot.frame_b, "B")):
            node = {
                "name": f"joint_{joint_node}_frame_{tag}",
                "translation": list(frame.translation),
                "rotation": list(frame.rotation),
                "scale": list(frame.scale),
            }
            made.append(self.out.add_node(node, body))
        return made[0], made[1]


def put_passthrough(out: dict, obj: Passthrough) -> dict:
    """Write ``unknown`` keys, ``extensions`` and ``extras`` back; never overrides keys the writer set."""
    for key, value in obj.unknown.items():
        out.setdefault(key, value)
    if obj.extensions:
        out.setdefault("extensions", dict(obj.extensions))
    if obj.extras is not None:
        out.setdefault("extras", obj.extras)
    return out


def write_material(ctx: WriteContext, mat: PhysicsMaterial, ptr: str) -> dict:
    out = {
        "staticFriction": mat.static_friction,
        "dynamicFriction": mat.dynamic_friction,
        "restitution": mat.restitution,
    }
    for attr, key in (("friction_combine", "frictionCombine"), ("restitution_combine", "restitutionCombine")):
        value = ctx.combine(getattr(mat, attr), f"{ptr}/{key}")
        if value is not None:
            out[key] = value
    if mat.name is not None:
        out["name"] = mat.name
    return put_passthrough(out, mat)


def write_filter(filt: CollisionFilter) -> dict:
    out: dict = {}
    for attr, key in (
        ("collision_systems", "collisionSystems"),
        ("collide_with_systems", "collideWithSystems"),
        ("not_collide_with_systems", "notCollideWithSystems"),
    ):
        if getattr(filt, attr) is not None:
            out[key] = list(getattr(filt, attr))
    if filt.name is not None:
        out["name"] = filt.name
    return put_passthrough(out, filt)


def write_limit(limit: JointLimit) -> dict:
    out: dict = {}
    if limit.linear_axes is not None:
        out["linearAxes"] = list(limit.linear_axes)
    if limit.angular_axes is not None:
        out["angularAxes"] = list(limit.angular_axes)
    for attr in ("min", "max", "stiffness"):
        if getattr(limit, attr) is not None:
            out[attr] = getattr(limit, attr)
    out["damping"] = limit.damping
    return put_passthrough(out, limit)


def write_drive(ctx: WriteContext, drive: JointDrive, ptr: str, paired: bool) -> dict:
    """``paired``: the target needs ``positionTarget``<->``stiffness`` and ``velocityTarget``<->``damping``."""
    out: dict = {"type": drive.type, "mode": drive.mode, "axis": drive.axis}
    if drive.max_force is not None:
        out["maxForce"] = drive.max_force
    for target_attr, target_key, gain_attr in (
        ("position_target", "positionTarget", "stiffness"),
        ("velocity_target", "velocityTarget", "damping"),
    ):
        target, gain = getattr(drive, target_attr), getattr(drive, gain_attr)
        if target is not None:
            out[target_key] = target
            out[gain_attr] = gain
        elif gain != 0.0:
            if paired:
                ctx.lossy(ptr, f"drive {gain_attr} without {target_key} cannot be written in this revision")
            else:
                out[gain_attr] = gain
    return put_passthrough(out, drive)


def write_joint_description(ctx: WriteContext, desc: JointDescription, ptr: str, paired: bool) -> dict:
    out: dict = {}
    if desc.limits:
        out["limits"] = [write_limit(limit) for limit in desc.limits]
    if desc.drives:
        out["drives"] = [write_drive(ctx, d, f"{ptr}/drives/{i}", paired) for i, d in enumerate(desc.drives)]
    if desc.name is not None:
        out["name"] = desc.name
    return put_passthrough(out, desc)


def write_params(shape_type: str, params) -> dict:
    """Every parameter explicitly (defaults differ between revisions and families)."""
    if shape_type == BOX:
        out = {"size": list(params.size)}
    elif shape_type == SPHERE:
        out = {"radius": params.radius}
    elif shape_type in (CAPSULE, CYLINDER):
        out = {"height": params.height, "radiusTop": params.radius_top, "radiusBottom": params.radius_bottom}
    elif shape_type == PLANE:
        out = {"doubleSided": params.double_sided}
        if params.size_x is not None:
            out["sizeX"] = params.size_x
        if params.size_z is not None:
            out["sizeZ"] = params.size_z
    else:
        raise ValueError(shape_type)
    return put_passthrough(out, params)


def node_ptr(index: int, ext: str, *parts: object) -> str:
    """``pointer("nodes", index, "extensions", ext, *parts)`` (written for every node: kept cheap)."""
    return f"/nodes/{index}/extensions{pointer(ext, *parts)}"


# --- final guard: no number a 32-bit float (or JSON) cannot hold ------------------------------------------------


def _unstorable(value: object, in_extras: bool) -> bool:
    """A number JSON cannot hold (NaN, ±inf) or, outside ``extras``, one a glTF 32-bit float cannot hold."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return False
    try:
        number = float(value)
    except OverflowError:  # an int beyond the float64 range
        return True
    return not math.isfinite(number) if in_extras else not fits_float32(number)


def _clamped(value: object, in_extras: bool) -> float | None:
    """What an unstorable number is written as: a finite one beyond the float32 range (an int beyond float64 too)
    becomes ±``FLOAT32_MAX``, the nearest value a glTF float holds; NaN, ±inf and anything in ``extras`` (which
    only loses NaN and ±inf) have none (None: not written)."""
    if in_extras:
        return None
    try:
        number = float(value)
    except OverflowError:
        return FLOAT32_MAX if value > 0 else -FLOAT32_MAX
    return math.copysign(FLOAT32_MAX, number) if math.isfinite(number) else None


def _guard(value: object, ptr: str, diags: DiagnosticList, in_extras: bool = False) -> None:
    if isinstance(value, dict):
        for key in list(value):
            here = ptr + pointer(key)
            item = value[key]
            extras = in_extras or key == "extras"
            bad = [i for i, v in enumerate(item) if _unstorable(v, extras)] if isinstance(item, list) else []
            if _unstorable(item, extras):
                _fix(value, key, here, _clamped(item, extras), diags)
            elif bad:
                fixed = list(item)
                for i in bad:
                    fixed[i] = _clamped(item[i], extras)
                kept = all(fixed[i] is not None for i in bad)  # NaN / ±inf: the whole list goes
                _fix(value, key, f"{here}/{bad[0]}", fixed if kept else None, diags)
            else:
                _guard(item, here, diags, extras)
    elif isinstance(value, list):
        for i, item in enumerate(value):
            _guard(item, f"{ptr}/{i}", diags, in_extras)


def _fix(holder: dict, key: str, bad: str, replacement, diags: DiagnosticList) -> None:
    """Write ``replacement`` (clamped values) at ``holder[key]``, or remove the key when there is none."""
    name = bad.rsplit("/", 1)[-1]
    if replacement is None:
        del holder[key]
        diags.warning(LOSSY, bad, f"{name} does not fit a 32-bit float (or JSON): not written")
        return
    holder[key] = replacement
    diags.warning(LOSSY, bad, f"{name} does not fit a 32-bit float: written as ±{FLOAT32_MAX:.7g}, the largest one")


def _storable(value: object) -> bool:
    """Quick scan: no number anywhere in ``value`` that ``_guard`` could remove (the strict, outside-``extras`` rule;
    NaN fails every comparison). Types it does not know exactly are suspect: ``_guard`` then decides."""
    kind = type(value)
    if kind is float or kind is int:
        return -FLOAT32_MAX <= value <= FLOAT32_MAX
    if kind is dict:
        items = value.values()
    elif kind is list:
        items = value
    else:
        return kind is str or kind is bool or value is None or not isinstance(value, int | float | dict | list)
    for item in items:
        item_kind = type(item)
        if item_kind is float or item_kind is int:
            if not -FLOAT32_MAX <= item <= FLOAT32_MAX:
                return False
        elif item_kind is not str and item_kind is not bool and item is not None and not _storable(item):
            return False
    return True


def guard_numbers(out: WriteOutput) -> WriteOutput:
    """Remove (with a ``PHYSICS_WRITE_LOSSY`` warning at its pointer) every NaN, ±inf or value above the float32 range
    from a writer's output: the last line of defence for computed and Blender-side values. Objects the quick scan
    (``_storable``) passes are not walked again (no pointers built for values that are fine)."""
    for name, ext in out.root.items():
        if not _storable(ext):
            _guard(ext, pointer("extensions", name), out.diags)
    for index, exts in out.nodes.items():
        for name, ext in exts.items():
            if not _storable(ext):
                _guard(ext, node_ptr(index, name), out.diags)
    for offset, node in enumerate(out.new_nodes):
        if not _storable(node):
            _guard(node, pointer("nodes", out.node_base + offset), out.diags)
    return out


def _meshes_reached(nodes: list) -> dict[int, list[int]]:
    """Node index → up to two mesh nodes it reaches through ``children`` (itself included when it has a ``mesh``), for
    ``WriteContext.meshes_below``: a node has a mesh below it when a child reaches a mesh node other than the node
    itself, and two witnesses always hold one such node if there is one. Back from each mesh node to the nodes that
    list it; each node takes at most two witnesses, so every node and edge is visited a bounded number of times
    (cycles and nodes listed by several parents included)."""
    count = len(nodes)
    listed_by: dict[int, list[int]] = {}
    reached: dict[int, list[int]] = {}
    pending: list[tuple[int, int]] = []
    for index, node in enumerate(nodes):
        if not isinstance(node, dict):
            continue
        if "mesh" in node:
            reached[index] = [index]
            pending.append((index, index))
        children = node.get("children")
        for child in children if isinstance(children, list) else []:
            if isinstance(child, int) and 0 <= child < count:
                listed_by.setdefault(int(child), []).append(index)
    while pending:
        index, mesh = pending.pop()
        for parent in listed_by.get(index, ()):
            found = reached.setdefault(parent, [])
            if len(found) < 2 and mesh not in found:
                found.append(mesh)
                pending.append((parent, mesh))
    return reached
