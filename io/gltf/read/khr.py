"""Reader for ``KHR_physics_rigid_bodies`` in all three revisions (2026, 2024-10..2025-10, 2024-07) with
``KHR_implicit_shapes`` / ``KHR_collision_shapes`` (bpy-free)."""

from __future__ import annotations

from ...diagnostics import Severity
from ..extensions import KHR_COLLISION_SHAPES as COLLISION
from ..extensions import KHR_IMPLICIT_SHAPES as IMPLICIT
from ..extensions import KHR_RIGID_BODIES as RB
from ..extensions import REV_KHR_2024_07, REV_KHR_2024_10, REV_KHR_2026
from ..model import (
    DYNAMIC,
    IMPLICIT_TYPES,
    KINEMATIC,
    MESH,
    MOTION_KEYS,
    Collider,
    Geometry,
    Motion,
    NodePhysics,
    PhysicsDocument,
    Shape,
    Trigger,
)
from .common import INVALID_TYPE, DropUnitError, ReadContext, pointer_join
from .resources import IndexMap, read_filter, read_joint_description, read_list, read_material, read_node_joint
from .shapes import KHR_DEFAULTS, read_mesh_params, read_params, split_hull_extension

REVISION_ORDER = (REV_KHR_2024_07, REV_KHR_2024_10, REV_KHR_2026)  # the node's source: the newest form it uses
# the members each object consumes (module constants: every node's objects are checked against them)
_NODE_UNITS = ("motion", "collider", "trigger", "joint")  # read in this order (the order of their diagnostics)
_NODE_MEMBERS = frozenset(_NODE_UNITS)
_MOTION_MEMBERS = frozenset(MOTION_KEYS.values()) | {"isKinematic"}
_GEOMETRY_REFS = frozenset({"shape", "mesh", "node"})
_GEOMETRY_MEMBERS = _GEOMETRY_REFS | {"convexHull"}
_COLLIDER_MEMBERS = frozenset({"geometry", "shape", "physicsMaterial", "collisionFilter"})
_TRIGGER_MEMBERS = frozenset({"geometry", "shape", "nodes", "collisionFilter"})
_ZERO = (0.0, 0.0, 0.0)


class KhrMaps:
    """Index maps for one file: implicit shapes, collision shapes, materials, filters, joints."""

    def __init__(self):
        self.implicit = IndexMap("shape")
        self.collision = IndexMap("shape")
        self.materials = IndexMap("physics material")
        self.filters = IndexMap("collision filter")
        self.joints = IndexMap("physics joint")
        self.has_implicit = False
        self.has_collision = False


def read_khr_shape(ctx: ReadContext, d: dict, ptr: str, source: str) -> Shape:
    """A ``KHR_implicit_shapes`` or ``KHR_collision_shapes`` shape; missing sub-objects take the defaults."""
    shape_type = ctx.string(d, "type", ptr)
    if shape_type is None:
        ctx.fail("PHYSICS_PARSE_MISSING_PROPERTY", ptr, "required property 'type' is missing")
    shape = Shape(type=shape_type, name=ctx.name(d, ptr), source=source)
    known = {"type", "name"}
    if shape_type in IMPLICIT_TYPES:
        sub_ptr = pointer_join(ptr, shape_type)
        sub = ctx.obj(d[shape_type], sub_ptr) if shape_type in d else {}
        shape.params = read_params(ctx, shape_type, sub, sub_ptr, KHR_DEFAULTS)
        known.add(shape_type)
    elif shape_type == MESH:
        sub_ptr = pointer_join(ptr, MESH)
        if MESH not in d:
            ctx.fail("PHYSICS_PARSE_MISSING_PROPERTY", ptr, "mesh shape without a 'mesh' object")
        shape.params = read_mesh_params(ctx, ctx.obj(d[MESH], sub_ptr), sub_ptr)
        known.add(MESH)
    ctx.passthrough(d, ptr, known, shape)
    if shape_type == MESH and shape.extensions:
        convex, hull_pt, rest = split_hull_extension(ctx, shape.extensions, ptr)
        shape.params.convex_hull, shape.params.hull_passthrough, shape.extensions = convex, hull_pt, rest
    return shape


def read_khr_root(ctx: ReadContext, doc: PhysicsDocument, exts: dict, maps: KhrMaps) -> None:
    """Document-level objects: shapes of both shape extensions (implicit first), materials, filters, joints."""
    for ext_name, index_map, source in (
        (IMPLICIT, maps.implicit, REV_KHR_2024_10),
        (COLLISION, maps.collision, REV_KHR_2024_07),
    ):
        if ext_name not in exts:
            continue
        ptr = pointer_join("", "extensions", ext_name)
        try:
            root = ctx.obj(exts[ext_name], ptr)
        except DropUnitError:
            continue
        if ext_name == IMPLICIT:
            maps.has_implicit = True
        else:
            maps.has_collision = True
        doc.revisions.add(source)
        doc.root.setdefault("shapes", ctx.passthrough(root, ptr, {"shapes"}))
        read_list(ctx, root, "shapes", ptr, doc.shapes, index_map, lambda c, d, p, s=source: read_khr_shape(c, d, p, s))
    if RB not in exts:
        return
    ptr = pointer_join("", "extensions", RB)
    try:
        root = ctx.obj(exts[RB], ptr)
    except DropUnitError:
        return
    doc.root["bodies"] = ctx.passthrough(root, ptr, {"physicsMaterials", "collisionFilters", "physicsJoints"})
    read_list(ctx, root, "physicsMaterials", ptr, doc.materials, maps.materials, read_material)
    read_list(ctx, root, "collisionFilters", ptr, doc.filters, maps.filters, read_filter)
    read_list(ctx, root, "physicsJoints", ptr, doc.joints, maps.joints, read_joint_description)


def read_motion(ctx: ReadContext, d: dict, ptr: str) -> Motion:
    motion = Motion(
        kind=KINEMATIC if ctx.boolean(d, "isKinematic", ptr) else DYNAMIC,
        mass=ctx.number(d, "mass", ptr),
        center_of_mass=ctx.vector(d, "centerOfMass", ptr, 3),
        inertia_diagonal=ctx.vector(d, "inertiaDiagonal", ptr, 3),
        inertia_orientation=ctx.vector(d, "inertiaOrientation", ptr, 4),
        linear_velocity=ctx.vector(d, "linearVelocity", ptr, 3, _ZERO),
        angular_velocity=ctx.vector(d, "angularVelocity", ptr, 3, _ZERO),
        gravity_factor=ctx.number(d, "gravityFactor", ptr, 1.0),
    )
    ctx.passthrough(d, ptr, _MOTION_MEMBERS, motion)
    return motion


def _shape_ref(ctx: ReadContext, maps: KhrMaps, value: int, ptr: str, legacy: bool) -> int:
    """``collider.shape`` (legacy) prefers KHR_collision_shapes; ``geometry.shape`` prefers KHR_implicit_shapes
    (``value`` is the ``shape`` member of the object at ``ptr``)."""
    use_collision = maps.has_collision and (legacy or not maps.has_implicit)
    index_map = maps.collision if use_collision else maps.implicit
    return index_map.resolve(ctx, value, ptr, "shape")


def read_geometry(ctx: ReadContext, d: dict, ptr: str, maps: KhrMaps, revs: set[str]) -> Geometry:
    geom = Geometry(convex_hull=ctx.boolean(d, "convexHull", ptr))
    present = _GEOMETRY_REFS.intersection(d)
    if len(present) != 1:
        ctx.fail("PHYSICS_PARSE_GEOMETRY", ptr, "geometry needs exactly one of shape, mesh, node")
    (key,) = present
    value = ctx.index(d, key, ptr)
    if key == "shape":
        geom.shape = _shape_ref(ctx, maps, value, ptr, legacy=False)
    elif key == "mesh":
        ctx.check_mesh(value, ptr, "mesh")
        geom.mesh = value
        revs.add(REV_KHR_2026)
    else:
        ctx.check_node(value, ptr, "node")
        geom.node = value
        revs.add(REV_KHR_2024_10)
    ctx.passthrough(d, ptr, _GEOMETRY_MEMBERS, geom)
    return geom


def _read_geometry_or_shape(ctx, d, ptr, maps, revs) -> Geometry | None:
    """``geometry`` (2024-10 on) or the 2024-07 ``shape`` index (also accepted in later files, specs §8.3)."""
    if "geometry" in d:
        gptr = pointer_join(ptr, "geometry")
        return read_geometry(ctx, ctx.obj(d["geometry"], gptr), gptr, maps, revs)
    if "shape" in d:
        revs.add(REV_KHR_2024_07)
        shape = _shape_ref(ctx, maps, ctx.index(d, "shape", ptr), ptr, legacy=True)
        return Geometry(shape=shape)
    return None


def _ref(ctx: ReadContext, d: dict, key: str, ptr: str, index_map: IndexMap) -> int | None:
    """The model index of the document-level item ``d[key]`` refers to (None when absent)."""
    if key not in d:
        return None
    return index_map.resolve(ctx, ctx.index(d, key, ptr), ptr, key)


def read_collider(ctx: ReadContext, d: dict, ptr: str, maps: KhrMaps, revs: set[str]) -> Collider:
    geometry = _read_geometry_or_shape(ctx, d, ptr, maps, revs)
    if geometry is None:
        ctx.fail("PHYSICS_PARSE_MISSING_PROPERTY", ptr, "collider without geometry")
    collider = Collider(geometry=geometry, material=_ref(ctx, d, "physicsMaterial", ptr, maps.materials))
    collider.filter = _ref(ctx, d, "collisionFilter", ptr, maps.filters)
    ctx.passthrough(d, ptr, _COLLIDER_MEMBERS, collider)
    return collider


def read_trigger(ctx: ReadContext, d: dict, ptr: str, maps: KhrMaps, revs: set[str]) -> Trigger:
    geometry = _read_geometry_or_shape(ctx, d, ptr, maps, revs)
    nodes = ctx.indices(d, "nodes", ptr)
    if (geometry is None) == (nodes is None):
        ctx.fail("PHYSICS_PARSE_TRIGGER", ptr, "trigger needs exactly one of geometry and nodes")
    for i, node in enumerate(nodes or ()):
        ctx.check_node(node, ptr, "nodes", i)
    trigger = Trigger(
        geometry=geometry,
        nodes=nodes,
        filter=_ref(ctx, d, "collisionFilter", ptr, maps.filters),
    )
    ctx.passthrough(d, ptr, _TRIGGER_MEMBERS, trigger)
    return trigger


def read_khr_node(ctx: ReadContext, doc: PhysicsDocument, index: int, ext: object, maps: KhrMaps) -> None:
    """The node-level ``KHR_physics_rigid_bodies`` object of node ``index``; each of motion / collider / trigger /
    joint is a unit of its own (an error drops it, not the node)."""
    ptr = pointer_join("", "nodes", index, "extensions", RB)
    if not isinstance(ext, dict):
        ctx.report(Severity.ERROR, INVALID_TYPE, ptr, "expected a JSON object")
        return
    revs: set[str] = set()
    node = NodePhysics(node=index)
    for key in _NODE_UNITS:
        if key not in ext:
            continue
        sub_ptr = pointer_join(ptr, key)
        if ctx.is_dropped(sub_ptr):
            continue
        try:
            d = ctx.obj(ext[key], sub_ptr)
            if key == "motion":
                node.motion = read_motion(ctx, d, sub_ptr)
            elif key == "collider":
                node.collider = read_collider(ctx, d, sub_ptr, maps, revs)
            elif key == "trigger":
                node.trigger = read_trigger(ctx, d, sub_ptr, maps, revs)
            else:
                node.joint = read_node_joint(ctx, d, sub_ptr, maps.joints)
        except DropUnitError:
            continue
    ctx.passthrough(ext, ptr, _NODE_MEMBERS, node)
    if revs:
        node.source = max(revs, key=REVISION_ORDER.index)
        doc.revisions.update(revs)
    else:  # no form-specific member: the revision the document's shape extensions say
        node.source = REV_KHR_2024_07 if maps.has_collision and not maps.has_implicit else REV_KHR_2024_10
        doc.revisions.add(node.source)
    doc.nodes[index] = node


def read_khr(ctx: ReadContext, doc: PhysicsDocument, exts: dict) -> None:
    """Read every KHR physics object of the file into ``doc``."""
    maps = KhrMaps()
    read_khr_root(ctx, doc, exts, maps)
    for index, node_exts in ctx.physics_nodes():
        if RB in node_exts:
            read_khr_node(ctx, doc, index, node_exts[RB], maps)
