"""Reader for OMI physics: current ``OMI_physics_body`` / ``OMI_physics_shape`` / ``OMI_physics_joint`` and the
legacy forms (2023-05 ``OMI_collider`` + body ``type``, 2023-08 node-level ``OMI_physics_shape``, 2024-11
``{constraints, nodeA, nodeB}`` joints) into the normalized model (bpy-free).  Mapping: specs.md §5."""

from __future__ import annotations

from ...diagnostics import Severity
from ..extensions import OMI_BODY as BODY
from ..extensions import OMI_COLLIDER as COLLIDER
from ..extensions import OMI_JOINT as JOINT
from ..extensions import OMI_SHAPE as SHAPE
from ..extensions import REV_OMI, REV_OMI_2023_05, REV_OMI_2023_08
from ..model import (
    CAPSULE,
    CYLINDER,
    DYNAMIC,
    KINEMATIC,
    MOTION_KEYS,
    STATIC,
    Collider,
    Geometry,
    Motion,
    NodePhysics,
    PhysicsDocument,
    Shape,
    Trigger,
)
from ..nodes import nearest_marked, parent_map
from .common import CONVERTED, IGNORED, INVALID_TYPE, DropUnitError, ReadContext, pointer_join
from .omi_legacy import LEGACY_BODY_KINDS, read_legacy_inertia, read_legacy_joints
from .resources import IndexMap, read_filter, read_joint_description, read_list, read_material, read_node_joint
from .shapes import OMI_DEFAULTS, read_legacy_round, read_params

OMI_IMPLICIT = ("box", "sphere", "capsule", "cylinder")
MESH_TYPES = {"convex": True, "trimesh": False, "hull": True}


class OmiMaps:
    """OMI shape index -> model shape index or a mesh geometry; materials, filters, joints, legacy colliders."""

    def __init__(self):
        self.shapes = IndexMap("shape")
        self.mesh_shapes: dict[int, tuple[int, bool]] = {}
        self.colliders = IndexMap("collider")
        self.mesh_colliders: dict[int, tuple[int, bool]] = {}
        self.trigger_colliders: set[int] = set()
        self.materials = IndexMap("physics material")
        self.filters = IndexMap("collision filter")
        self.joints = IndexMap("physics joint")

    def geometry(
        self, ctx: ReadContext, value: int | None, ptr: str, key: str, legacy_collider: bool = False
    ) -> Geometry | None:
        """The geometry ``value`` (member ``key`` of the object at ``ptr``) names: a mesh or a model shape."""
        if value is None:
            return None
        meshes = self.mesh_colliders if legacy_collider else self.mesh_shapes
        if value in meshes:
            mesh, hull = meshes[value]
            return Geometry(mesh=mesh, convex_hull=hull)
        return Geometry(shape=(self.colliders if legacy_collider else self.shapes).resolve(ctx, value, ptr, key))


def _read_omi_shape(ctx: ReadContext, doc: PhysicsDocument, maps: OmiMaps, i: int, d: dict, ptr: str) -> None:
    """One ``OMI_physics_shape.shapes[i]``: implicit types into ``doc.shapes``, convex/trimesh into a mesh ref."""
    shape_type = ctx.string(d, "type", ptr)
    if shape_type in MESH_TYPES and shape_type != "hull":
        sub = ctx.obj(d.get(shape_type, {}), pointer_join(ptr, shape_type))
        mesh = ctx.required_index(sub, "mesh", pointer_join(ptr, shape_type))
        ctx.check_mesh(mesh, ptr, shape_type, "mesh")
        maps.mesh_shapes[i] = (mesh, MESH_TYPES[shape_type])
        return
    if shape_type not in OMI_IMPLICIT:
        ctx.fail(INVALID_TYPE, pointer_join(ptr, "type"), f"unknown OMI shape type {shape_type!r}")
    sub_ptr = pointer_join(ptr, shape_type)
    sub = ctx.obj(d.get(shape_type, {}), sub_ptr)
    shape = Shape(type=shape_type, name=ctx.name(d, ptr), source=REV_OMI)
    if shape_type in (CAPSULE, CYLINDER) and "radius" in sub and not {"radiusTop", "radiusBottom"} & set(sub):
        shape.params = read_legacy_round(ctx, shape_type, sub, sub_ptr, explicit_legacy=False)
    else:
        shape.params = read_params(ctx, shape_type, sub, sub_ptr, OMI_DEFAULTS)
    ctx.passthrough(d, ptr, {"type", "name", shape_type}, shape)
    maps.shapes.mapping[i] = len(doc.shapes)
    doc.shapes.append(shape)


def _read_legacy_collider(ctx: ReadContext, doc: PhysicsDocument, maps: OmiMaps, i: int, d: dict, ptr: str) -> None:
    """One 2023-05 ``OMI_collider.colliders[i]`` (flat fields, ``isTrigger``)."""
    shape_type = ctx.string(d, "type", ptr)
    if ctx.boolean(d, "isTrigger", ptr):
        maps.trigger_colliders.add(i)
    if shape_type in MESH_TYPES:
        mesh = ctx.required_index(d, "mesh", ptr)
        ctx.check_mesh(mesh, ptr, "mesh")
        maps.mesh_colliders[i] = (mesh, MESH_TYPES[shape_type])
        return
    if shape_type not in OMI_IMPLICIT:
        ctx.fail(INVALID_TYPE, pointer_join(ptr, "type"), f"unknown OMI_collider type {shape_type!r}")
    shape = Shape(type=shape_type, name=ctx.name(d, ptr), source=REV_OMI_2023_05)
    if shape_type in (CAPSULE, CYLINDER):
        shape.params = read_legacy_round(ctx, shape_type, d, ptr, explicit_legacy=True)
    else:
        flat = {k: v for k, v in d.items() if k in ("size", "radius")}
        shape.params = read_params(ctx, shape_type, flat, ptr, OMI_DEFAULTS)
        shape.params.unknown = {}
    ctx.passthrough(d, ptr, {"type", "name", "isTrigger", "size", "radius", "height", "mesh"}, shape)
    maps.colliders.mapping[i] = len(doc.shapes)
    doc.shapes.append(shape)


def _read_root_items(ctx, doc, maps, container: dict, key: str, ptr: str, reader, index_map: IndexMap) -> None:
    if key not in container:
        return
    try:
        items = ctx.array(container[key], pointer_join(ptr, key))
    except DropUnitError:
        return
    for i, item in enumerate(items):
        item_ptr = pointer_join(ptr, key, i)
        if ctx.is_dropped(item_ptr):
            index_map.dropped.add(i)
            continue
        try:
            reader(ctx, doc, maps, i, ctx.obj(item, item_ptr), item_ptr)
        except DropUnitError:
            index_map.dropped.add(i)


def read_omi_root(ctx: ReadContext, doc: PhysicsDocument, exts: dict, maps: OmiMaps) -> None:
    for ext_name, key, reader, index_map in (
        (SHAPE, "shapes", _read_omi_shape, maps.shapes),
        (COLLIDER, "colliders", _read_legacy_collider, maps.colliders),
    ):
        if isinstance(exts.get(ext_name), dict):
            ptr = pointer_join("", "extensions", ext_name)
            doc.root.setdefault("shapes", ctx.passthrough(exts[ext_name], ptr, {key}))
            _read_root_items(ctx, doc, maps, exts[ext_name], key, ptr, reader, index_map)
            doc.revisions.add(REV_OMI if ext_name == SHAPE else REV_OMI_2023_05)
    if isinstance(exts.get(BODY), dict):
        ptr = pointer_join("", "extensions", BODY)
        doc.root.setdefault("bodies", ctx.passthrough(exts[BODY], ptr, {"physicsMaterials", "collisionFilters"}))
        read_list(ctx, exts[BODY], "physicsMaterials", ptr, doc.materials, maps.materials, read_material)
        read_list(ctx, exts[BODY], "collisionFilters", ptr, doc.filters, maps.filters, read_filter)
    if isinstance(exts.get(JOINT), dict) and "physicsJoints" in exts[JOINT]:
        ptr = pointer_join("", "extensions", JOINT)
        doc.root["joints"] = ctx.passthrough(exts[JOINT], ptr, {"physicsJoints", "constraints"})
        read_list(ctx, exts[JOINT], "physicsJoints", ptr, doc.joints, maps.joints, read_joint_description)


def read_omi_motion(ctx: ReadContext, d: dict, ptr: str, legacy_kind: str | None = None) -> Motion:
    """Current ``motion`` (``type`` required) or a legacy body object (``legacy_kind`` from its ``type``)."""
    kind = legacy_kind
    if kind is None:
        kind = ctx.string(d, "type", ptr)
        if kind not in (DYNAMIC, KINEMATIC, STATIC):
            ctx.report(
                Severity.WARNING,
                IGNORED,
                pointer_join(ptr, "type"),
                f"motion type {kind!r} is not static/kinematic/dynamic: read as dynamic",
            )
            kind = DYNAMIC
    motion = Motion(
        kind=kind,
        mass=ctx.number(d, "mass", ptr, 1.0),  # OMI: absent = 1 kg
        center_of_mass=ctx.vector(d, "centerOfMass", ptr, 3, (0.0, 0.0, 0.0)),
        linear_velocity=ctx.vector(d, "linearVelocity", ptr, 3, (0.0, 0.0, 0.0)),
        angular_velocity=ctx.vector(d, "angularVelocity", ptr, 3, (0.0, 0.0, 0.0)),
        gravity_factor=ctx.number(d, "gravityFactor", ptr, 1.0),
    )
    diagonal = ctx.vector(d, "inertiaDiagonal", ptr, 3)
    orientation = ctx.vector(d, "inertiaOrientation", ptr, 4)
    if diagonal is not None and any(v == 0.0 for v in diagonal):
        if any(v != 0.0 for v in diagonal):
            ctx.report(
                Severity.INFO,
                CONVERTED,
                pointer_join(ptr, "inertiaDiagonal"),
                "OMI inertiaDiagonal with a 0 component means 'compute automatically': read as computed",
            )
        diagonal = None  # OMI 0 = automatic; never carry a 0 into KHR (where it means infinite)
    motion.inertia_diagonal = diagonal
    motion.inertia_orientation = orientation if diagonal is not None else None
    if legacy_kind is not None and "inertiaTensor" in d:
        read_legacy_inertia(ctx, d, ptr, motion)
    ctx.passthrough(d, ptr, set(MOTION_KEYS.values()) | {"type", "inertiaTensor"}, motion)
    return motion


def _read_collider(ctx: ReadContext, d: dict, ptr: str, maps: OmiMaps) -> Collider:
    collider = Collider(
        geometry=maps.geometry(ctx, ctx.index(d, "shape", ptr, none_value=-1), ptr, "shape"),
        material=maps.materials.resolve(
            ctx, ctx.index(d, "physicsMaterial", ptr, none_value=-1), ptr, "physicsMaterial"
        ),
        filter=maps.filters.resolve(ctx, ctx.index(d, "collisionFilter", ptr, none_value=-1), ptr, "collisionFilter"),
    )
    ctx.passthrough(d, ptr, {"shape", "physicsMaterial", "collisionFilter"}, collider)
    return collider


def _read_trigger(ctx: ReadContext, d: dict, ptr: str, maps: OmiMaps) -> Trigger:
    geometry = maps.geometry(ctx, ctx.index(d, "shape", ptr, none_value=-1), ptr, "shape")
    nodes = ctx.indices(d, "nodes", ptr)
    if geometry is not None and nodes is not None:
        ctx.fail("PHYSICS_PARSE_TRIGGER", ptr, "trigger needs exactly one of shape and nodes")
    if geometry is None and nodes is None:
        ctx.report(Severity.INFO, CONVERTED, ptr, "OMI trigger without shape: grouping trigger of its descendants")
    for i, node in enumerate(nodes or ()):
        ctx.check_node(node, ptr, "nodes", i)
    trigger = Trigger(
        geometry=geometry,
        nodes=nodes,
        filter=maps.filters.resolve(ctx, ctx.index(d, "collisionFilter", ptr, none_value=-1), ptr, "collisionFilter"),
    )
    ctx.passthrough(d, ptr, {"shape", "nodes", "collisionFilter"}, trigger)
    return trigger


def _unit(ctx: ReadContext, ptr: str, read):
    """Run ``read`` for one droppable unit; None when the unit is dropped."""
    if ctx.is_dropped(ptr):
        return None
    try:
        return read()
    except DropUnitError:
        return None


def read_omi_body(ctx: ReadContext, node: NodePhysics, ext: dict, ptr: str, maps: OmiMaps) -> str | None:
    """The node-level ``OMI_physics_body``; returns the legacy body kind ('trigger', 'static', …) when legacy."""
    if "type" in ext:  # legacy body (before 2023-09): type enum + flat motion fields
        legacy = ext.get("type")
        kind = LEGACY_BODY_KINDS.get(legacy) if isinstance(legacy, str) else None
        if kind is None:
            ctx.report(
                Severity.WARNING,
                IGNORED,
                pointer_join(ptr, "type"),
                f"unknown legacy body type {legacy!r}: ignored",
            )
            return None
        if legacy != "trigger":
            node.motion = _unit(ctx, ptr, lambda: read_omi_motion(ctx, ext, ptr, legacy_kind=kind))
            if node.motion is not None:  # the legacy object's passthrough belongs to the node
                node.motion.extras, node.motion.extensions, node.motion.unknown = None, {}, {}
        ctx.passthrough(ext, ptr, set(MOTION_KEYS.values()) | {"type", "inertiaTensor"}, node)
        return legacy
    readers = (
        ("motion", lambda d, p: read_omi_motion(ctx, d, p)),
        ("collider", lambda d, p: _read_collider(ctx, d, p, maps)),
        ("trigger", lambda d, p: _read_trigger(ctx, d, p, maps)),
    )
    for key, reader in readers:
        if key in ext:
            sub_ptr = pointer_join(ptr, key)
            setattr(node, key, _unit(ctx, sub_ptr, lambda r=reader, k=key, p=sub_ptr: r(ctx.obj(ext[k], p), p)))
    ctx.passthrough(ext, ptr, {"motion", "collider", "trigger"}, node)
    return None


def _node_shape_geometry(ctx, ext_name: str, ext: object, ptr: str, maps: OmiMaps) -> tuple[Geometry, bool] | None:
    """Legacy node-level ``OMI_physics_shape {shape}`` / ``OMI_collider {collider}``: (geometry, is trigger)."""
    key = "shape" if ext_name == SHAPE else "collider"

    def read():
        d = ctx.obj(ext, ptr)
        value = ctx.required_index(d, key, ptr)
        legacy_collider = ext_name == COLLIDER
        geometry = maps.geometry(ctx, value, ptr, key, legacy_collider=legacy_collider)
        return geometry, legacy_collider and value in maps.trigger_colliders

    return _unit(ctx, ptr, read)


_NODE_EXTENSIONS = frozenset({BODY, SHAPE, JOINT, COLLIDER})


def read_omi(ctx: ReadContext, doc: PhysicsDocument, exts: dict) -> None:
    """Read every OMI physics object of the file into ``doc`` (KHR data already read wins on the same node)."""
    maps = OmiMaps()
    read_omi_root(ctx, doc, exts, maps)
    legacy_kinds: dict[int, str] = {}
    shape_nodes: dict[int, tuple[Geometry, bool, str]] = {}
    for index, node_exts in ctx.physics_nodes():
        if node_exts.keys().isdisjoint(_NODE_EXTENSIONS):
            continue
        if index in doc.nodes:
            ctx.report(
                Severity.WARNING,
                "PHYSICS_PARSE_MIXED_FAMILIES",
                pointer_join("", "nodes", index),
                "node has KHR and OMI physics: the OMI part is ignored",
            )
            continue
        node = NodePhysics(node=index, source=REV_OMI)
        base = pointer_join("", "nodes", index, "extensions")
        if BODY in node_exts:
            ptr = pointer_join(base, BODY)
            if isinstance(node_exts[BODY], dict):
                legacy = read_omi_body(ctx, node, node_exts[BODY], ptr, maps)
                if legacy is not None:
                    legacy_kinds[index] = legacy
                    node.source = REV_OMI_2023_08
            else:
                ctx.report(Severity.ERROR, INVALID_TYPE, ptr, "expected a JSON object")
        for ext_name in (SHAPE, COLLIDER):
            if ext_name in node_exts:
                found = _node_shape_geometry(ctx, ext_name, node_exts[ext_name], pointer_join(base, ext_name), maps)
                if found is not None:
                    shape_nodes[index] = (*found, ext_name)
        if JOINT in node_exts:
            ptr = pointer_join(base, JOINT)
            joint_obj = node_exts[JOINT]
            if isinstance(joint_obj, dict) and "connectedNode" in joint_obj:
                node.joint = _unit(ctx, ptr, lambda d=joint_obj, p=ptr: read_node_joint(ctx, d, p, maps.joints))
        doc.nodes[index] = node
    _attach_legacy_shapes(ctx, doc, legacy_kinds, shape_nodes)
    read_legacy_joints(ctx, doc, exts)
    for index in [i for i, n in doc.nodes.items() if n.is_empty() and i not in legacy_kinds]:
        if not doc.nodes[index].unknown and not doc.nodes[index].extensions and doc.nodes[index].extras is None:
            del doc.nodes[index]
    for node in doc.nodes.values():
        if node.source in (REV_OMI, REV_OMI_2023_08) or node.source is None:
            doc.revisions.add(node.source or REV_OMI)


def _attach_legacy_shapes(
    ctx: ReadContext,
    doc: PhysicsDocument,
    legacy_kinds: dict[int, str],
    shape_nodes: dict[int, tuple[Geometry, bool, str]],
) -> None:
    """Legacy node-level shapes become colliders, or triggers under a legacy ``trigger`` body (or isTrigger)."""
    if not shape_nodes:
        return
    owners = nearest_marked(parent_map(ctx.nodes), legacy_kinds, shape_nodes)  # O(nodes), not O(nodes × depth)
    for index, (geometry, is_trigger, ext_name) in shape_nodes.items():
        owner = owners.get(index)
        if owner is not None and legacy_kinds[owner] == "trigger":
            is_trigger = True
        node = doc.node(index)
        if ext_name == COLLIDER:
            node.source = REV_OMI_2023_05
        elif node.source == REV_OMI:
            node.source = REV_OMI_2023_08
        if is_trigger:
            node.trigger = Trigger(geometry=geometry)
        else:
            node.collider = Collider(geometry=geometry)
