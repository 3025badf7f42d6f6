"""Validation of rigid bodies: KHR_physics_rigid_bodies node objects (motion, collider, trigger) of every KHR
revision, and the materials / collision filters shared with OMI_physics_body."""

from __future__ import annotations

import math

from ..extensions import KHR_COLLISION_SHAPES, KHR_IMPLICIT_SHAPES
from ..extensions import KHR_RIGID_BODIES as KHR_RB
from .codes import (
    COLLIDER_ZERO_SCALE,
    FILTER_INVALID_SET,
    GEOMETRY_NODE_WITHOUT_MESH,
    GEOMETRY_NOT_EXACTLY_ONE,
    INFINITE_INERTIA,
    INFINITE_MASS,
    LEGACY_COLLIDER_SHAPE,
    MOTION_IN_SKIN_JOINTS,
    ONE_OF_MISMATCH,
    ROTATION_NON_UNIT,
    TRIGGER_NODE_NOT_DESCENDANT,
    TRIGGER_NODES_INVALID,
)
from .common import (
    Ctx,
    check_members,
    get_bool,
    get_doc_ref,
    get_enum,
    get_index,
    get_index_list,
    get_number,
    get_number_array,
    get_object,
    get_object_list,
    get_string_list,
    pointer_join,
)
from .joints import validate_joint_descriptions, validate_node_joint

COMBINE_MODES = ("average", "minimum", "maximum", "multiply")
MATERIAL_MEMBERS = ("staticFriction", "dynamicFriction", "restitution", "frictionCombine", "restitutionCombine")
FILTER_MEMBERS = ("collisionSystems", "collideWithSystems", "notCollideWithSystems")
VECTOR_MEMBERS = ("centerOfMass", "inertiaDiagonal", "inertiaOrientation", "linearVelocity", "angularVelocity")
MOTION_MEMBERS = ("isKinematic", "mass", *VECTOR_MEMBERS, "gravityFactor")
NODE_MEMBERS = ("motion", "collider", "trigger", "joint")
#: Tolerance on |1 - ‖q‖| for unit quaternions (the reference validator's value).
UNIT_LENGTH_THRESHOLD = 0.00769


# ------------------------------------------------------------------------------------------ document level


def validate_khr_root(ctx: Ctx) -> None:
    """``/extensions/KHR_physics_rigid_bodies``: materials, filters and joint descriptions (each minItems 1)."""
    root = get_object(ctx, ctx.root_ext, KHR_RB, "/extensions")
    if root is None:
        return
    ptr = pointer_join("/extensions", KHR_RB)
    check_members(ctx, root, ("physicsMaterials", "collisionFilters", "physicsJoints"), ptr)
    validate_materials(ctx, root, ptr, min_items=1)
    validate_filters(ctx, root, ptr, min_items=1)
    validate_joint_descriptions(ctx, root, ptr, "physicsJoints", omi=False)


def validate_materials(ctx: Ctx, root: dict, ptr: str, min_items: int) -> None:
    """``physicsMaterials[]``: friction and restitution ≥ 0, combine modes from the enum."""
    for _, material, item_ptr in get_object_list(ctx, root, "physicsMaterials", ptr, min_items=min_items) or ():
        check_members(ctx, material, MATERIAL_MEMBERS, item_ptr, named=True)
        for key in MATERIAL_MEMBERS[:3]:
            get_number(ctx, material, key, item_ptr, minimum=0)
        for key in MATERIAL_MEMBERS[3:]:
            get_enum(ctx, material, key, item_ptr, COMBINE_MODES)


def validate_filters(ctx: Ctx, root: dict, ptr: str, min_items: int) -> None:
    """``collisionFilters[]``: string arrays, never both collideWith and notCollideWith."""
    for _, flt, item_ptr in get_object_list(ctx, root, "collisionFilters", ptr, min_items=min_items) or ():
        check_members(ctx, flt, FILTER_MEMBERS, item_ptr, named=True)
        if "collideWithSystems" in flt and "notCollideWithSystems" in flt:
            ctx.error(FILTER_INVALID_SET, item_ptr, "Only one of collide-with and not-collide-with should be provided.")
        for key in FILTER_MEMBERS:
            get_string_list(ctx, flt, key, item_ptr)


# ----------------------------------------------------------------------------------------------- node level


def validate_khr_node(ctx: Ctx, index: int, ext: dict, ptr: str) -> None:
    """``/nodes/i/extensions/KHR_physics_rigid_bodies`` of any KHR revision."""
    check_members(ctx, ext, NODE_MEMBERS, ptr)
    motion = get_object(ctx, ext, "motion", ptr)
    if motion is not None:
        motion_ptr = pointer_join(ptr, "motion")
        ctx.guard(motion_ptr, validate_motion, ctx, motion, motion_ptr, False)
        check_motion_placement(ctx, index, motion_ptr)
    collider = get_object(ctx, ext, "collider", ptr)
    if collider is not None:
        collider_ptr = pointer_join(ptr, "collider")
        ctx.guard(collider_ptr, _collider, ctx, collider, collider_ptr)
        check_zero_scale(ctx, index, collider_ptr)
    trigger = get_object(ctx, ext, "trigger", ptr)
    if trigger is not None:
        trigger_ptr = pointer_join(ptr, "trigger")
        ctx.guard(trigger_ptr, _trigger, ctx, index, trigger, trigger_ptr)
        check_zero_scale(ctx, index, trigger_ptr)
    joint = get_object(ctx, ext, "joint", ptr)
    if joint is not None:
        joint_ptr = pointer_join(ptr, "joint")
        ctx.guard(joint_ptr, validate_node_joint, ctx, index, joint, joint_ptr, KHR_RB)


def is_legacy_khr(ctx: Ctx) -> bool:
    """True for a KHR 2024-07 document (collider.shape indexes KHR_collision_shapes); once per document."""
    if ctx.legacy_khr is None:
        used = ctx.doc.get("extensionsUsed")
        declared = isinstance(used, list) and KHR_COLLISION_SHAPES in used
        ctx.legacy_khr = KHR_COLLISION_SHAPES in ctx.root_ext or (declared and KHR_IMPLICIT_SHAPES not in ctx.root_ext)
    return ctx.legacy_khr


def validate_motion(ctx: Ctx, motion: dict, ptr: str, omi: bool) -> None:
    """KHR or OMI ``motion``: mass ≥ 0 (0 = infinite), float3 vectors, unit ``inertiaOrientation``."""
    if not omi:
        check_members(ctx, motion, MOTION_MEMBERS, ptr)
        get_bool(ctx, motion, "isKinematic", ptr)
    mass = get_number(ctx, motion, "mass", ptr, minimum=0)
    if mass == 0:
        ctx.info(INFINITE_MASS, pointer_join(ptr, "mass"), "mass 0 means infinite mass (KHR README).")
    for key in ("centerOfMass", "linearVelocity", "angularVelocity"):
        get_number_array(ctx, motion, key, ptr, length=3)
    diagonal = get_number_array(ctx, motion, "inertiaDiagonal", ptr, length=3, minimum=0)
    for i, value in enumerate(diagonal or ()):
        if value == 0 and not omi:
            ctx.info(
                INFINITE_INERTIA,
                pointer_join(ptr, "inertiaDiagonal", i),
                "A zero inertia component means that axis cannot rotate (KHR README).",
            )
    quat = get_number_array(ctx, motion, "inertiaOrientation", ptr, length=4)
    if quat is not None and None not in quat:
        length = math.sqrt(sum(q * q for q in quat))
        if abs(1.0 - length) > UNIT_LENGTH_THRESHOLD:
            ctx.error(
                ROTATION_NON_UNIT, pointer_join(ptr, "inertiaOrientation"), "Rotation quaternion must be normalized."
            )
    get_number(ctx, motion, "gravityFactor", ptr)


def _collider(ctx: Ctx, collider: dict, ptr: str) -> None:
    legacy = is_legacy_khr(ctx)
    geometry_key = "shape" if legacy or ("shape" in collider and "geometry" not in collider) else "geometry"
    check_members(ctx, collider, (geometry_key, "physicsMaterial", "collisionFilter"), ptr)
    _geometry_member(ctx, collider, ptr, geometry_key, legacy, required=True)
    get_doc_ref(ctx, collider, "physicsMaterial", ptr, KHR_RB, "physicsMaterials")
    get_doc_ref(ctx, collider, "collisionFilter", ptr, KHR_RB, "collisionFilters")


def _geometry_member(ctx: Ctx, obj: dict, ptr: str, key: str, legacy: bool, required: bool) -> bool:
    """Validate ``geometry`` (2024-10 on) or ``shape`` (2024-07) of a collider or trigger; True when present."""
    if key == "shape":
        if not legacy and "shape" in obj:
            ctx.info(
                LEGACY_COLLIDER_SHAPE,
                pointer_join(ptr, "shape"),
                "'shape' (2024-07 form) used where 'geometry' is expected; read as geometry.shape.",
            )
        shapes_root = KHR_COLLISION_SHAPES if KHR_COLLISION_SHAPES in ctx.root_ext or legacy else KHR_IMPLICIT_SHAPES
        if "shape" not in obj:
            if required:
                get_index(ctx, obj, "shape", ptr, None, required=True)
            return False
        get_doc_ref(ctx, obj, "shape", ptr, shapes_root, "shapes")
        return True
    geometry = get_object(ctx, obj, "geometry", ptr, required=required)
    if geometry is not None:
        geometry_ptr = pointer_join(ptr, "geometry")
        _geometry(ctx, geometry, geometry_ptr)
    return "geometry" in obj


def _geometry(ctx: Ctx, geometry: dict, ptr: str) -> None:
    """``{shape | node | mesh, convexHull}``: exactly one reference."""
    check_members(ctx, geometry, ("shape", "node", "mesh", "convexHull"), ptr)
    present = [key for key in ("shape", "node", "mesh") if key in geometry]
    if len(present) != 1:
        found = ", ".join(present) or "none"
        ctx.error(GEOMETRY_NOT_EXACTLY_ONE, ptr, f"Geometry needs exactly one of shape, node, mesh (found: {found}).")
    get_doc_ref(ctx, geometry, "shape", ptr, KHR_IMPLICIT_SHAPES, "shapes")
    node = get_index(ctx, geometry, "node", ptr, len(ctx.nodes))
    if node is not None and not ctx.subtree_has_mesh(node):
        ctx.warning(
            GEOMETRY_NODE_WITHOUT_MESH,
            pointer_join(ptr, "node"),
            f"Node {node} has no mesh in its subtree: the collider has no geometry.",
        )
    get_index(ctx, geometry, "mesh", ptr, len(ctx.meshes))
    get_bool(ctx, geometry, "convexHull", ptr)


def _trigger(ctx: Ctx, index: int, trigger: dict, ptr: str) -> None:
    legacy = is_legacy_khr(ctx)
    geometry_key = "shape" if legacy or ("shape" in trigger and "geometry" not in trigger) else "geometry"
    check_members(ctx, trigger, (geometry_key, "nodes", "collisionFilter"), ptr)
    has_geometry = _geometry_member(ctx, trigger, ptr, geometry_key, legacy, required=False)
    nodes = get_index_list(ctx, trigger, "nodes", ptr, len(ctx.nodes))
    if (nodes is not None) == has_geometry:
        ctx.error(ONE_OF_MISMATCH, ptr, f"Exactly one of ('nodes', '{geometry_key}') properties must be defined.")
    if "nodes" in trigger and "collisionFilter" in trigger:
        ctx.error(ONE_OF_MISMATCH, ptr, "Exactly one of ('nodes', 'collisionFilter') properties must be defined.")
    get_doc_ref(ctx, trigger, "collisionFilter", ptr, KHR_RB, "collisionFilters")
    check_trigger_nodes(ctx, index, nodes or (), ptr, KHR_RB)


def is_simple_trigger(ctx: Ctx, node_index: int, ext_name: str) -> bool:
    """True when the node carries a trigger with geometry (or a shape) and no ``nodes``."""
    node = ctx.node(node_index)
    extensions = node.get("extensions") if node else None
    ext = extensions.get(ext_name) if isinstance(extensions, dict) else None
    trigger = ext.get("trigger") if isinstance(ext, dict) else None
    if not isinstance(trigger, dict) or "nodes" in trigger:
        return False
    return "geometry" in trigger or "shape" in trigger


def check_trigger_nodes(ctx: Ctx, index: int, nodes: object, ptr: str, ext_name: str) -> None:
    """Each ``trigger.nodes`` entry must be a descendant carrying a simple trigger."""
    for position, target in nodes:
        here = pointer_join(ptr, "nodes", position)
        if not is_simple_trigger(ctx, target, ext_name):
            ctx.error(TRIGGER_NODES_INVALID, here, "Trigger nodes should be simple triggers.")
        if not ctx.is_descendant(target, index):
            ctx.warning(TRIGGER_NODE_NOT_DESCENDANT, here, f"Node {target} is not a descendant of node {index}.")


def check_zero_scale(ctx: Ctx, index: int, ptr: str) -> None:
    """A collider or trigger under an all-zero scale (on its node or an ancestor) is disabled."""
    node_index = ctx.nearest("zero scale", _zero_scale, index)
    if node_index is not None:
        ctx.warning(COLLIDER_ZERO_SCALE, ptr, f"Node {node_index} has scale [0, 0, 0]: this shape is disabled.")


def _zero_scale(index: int, node: dict) -> bool:
    scale = node.get("scale")
    return isinstance(scale, list) and len(scale) == 3 and all(s == 0 for s in scale)


def check_motion_placement(ctx: Ctx, index: int, ptr: str) -> None:
    """A motion on a skin joint (or below one) fights the skeleton animation."""
    joints = ctx.skin_joints()
    if not joints:  # no skin: no node is a joint
        return
    hit = ctx.nearest("skin joint", lambda i, _node: i in joints, index)
    if hit is not None:
        ctx.warning(MOTION_IN_SKIN_JOINTS, ptr, f"Node {hit} is a skin joint: a simulated body inside a skeleton.")
