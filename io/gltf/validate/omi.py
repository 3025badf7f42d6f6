"""Validation of the OMI physics extensions: OMI_physics_body (current motion/collider/trigger and the 2023 ``type``
form), node-level OMI_physics_shape (2023-08) and OMI_collider (2023-05), OMI_physics_joint (current and legacy)."""

from __future__ import annotations

from ..extensions import OMI_BODY, OMI_COLLIDER, OMI_JOINT, OMI_SHAPE
from .bodies import (
    VECTOR_MEMBERS,
    check_motion_placement,
    check_trigger_nodes,
    check_zero_scale,
    validate_filters,
    validate_materials,
    validate_motion,
)
from .codes import OMI_EMPTY_TRIGGER, OMI_LEGACY_FORM, OMI_MOTION_TYPE_MISSING, OMI_NO_SHAPE, ONE_OF_MISMATCH
from .common import (
    Ctx,
    check_members,
    get_doc_ref,
    get_enum,
    get_index_list,
    get_number,
    get_number_array,
    get_object,
    pointer_join,
)
from .joints import (
    validate_joint_descriptions,
    validate_legacy_constraints,
    validate_legacy_node_joint,
    validate_node_joint,
)

MOTION_TYPES = ("static", "kinematic", "dynamic")
LEGACY_BODY_TYPES = ("static", "dynamic", "kinematic", "trigger", "rigid", "vehicle", "character")
LEGACY_BODY_MEMBERS = ("type", "mass", "linearVelocity", "angularVelocity", "centerOfMass", "inertiaTensor")


def validate_omi_roots(ctx: Ctx) -> None:
    """Document-level OMI_physics_body (materials, filters) and OMI_physics_joint (joints or legacy constraints)."""
    body = get_object(ctx, ctx.root_ext, OMI_BODY, "/extensions") if OMI_BODY in ctx.root_ext else None
    if body is not None:
        ptr = pointer_join("/extensions", OMI_BODY)
        check_members(ctx, body, ("physicsMaterials", "collisionFilters"), ptr)
        validate_materials(ctx, body, ptr, min_items=0)
        validate_filters(ctx, body, ptr, min_items=0)
    joint = get_object(ctx, ctx.root_ext, OMI_JOINT, "/extensions") if OMI_JOINT in ctx.root_ext else None
    if joint is not None:
        ptr = pointer_join("/extensions", OMI_JOINT)
        check_members(ctx, joint, ("physicsJoints", "constraints"), ptr)
        validate_joint_descriptions(ctx, joint, ptr, "physicsJoints", omi=True)
        validate_legacy_constraints(ctx, joint, ptr)


def validate_omi_node(ctx: Ctx, index: int, name: str, ext: dict, ptr: str) -> None:
    """Dispatch one node-level OMI extension object."""
    if name == OMI_BODY:
        if "type" in ext:
            _legacy_body(ctx, ext, ptr)
        else:
            _body(ctx, index, ext, ptr)
    elif name == OMI_SHAPE:
        check_members(ctx, ext, ("shape",), ptr)
        _legacy_note(ctx, ptr, "Node-level OMI_physics_shape (2023-08 form).")
        _shape_ref(ctx, ext, ptr)
        check_zero_scale(ctx, index, ptr)
    elif name == OMI_COLLIDER:
        check_members(ctx, ext, ("collider",), ptr)
        _legacy_note(ctx, ptr, "OMI_collider (2023-05 form).")
        if "collider" in ext:
            get_doc_ref(ctx, ext, "collider", ptr, OMI_COLLIDER, "colliders")
        else:
            get_number(ctx, ext, "collider", ptr, required=True)
        check_zero_scale(ctx, index, ptr)
    elif name == OMI_JOINT:
        if any(key in ext for key in ("constraints", "nodeA", "nodeB")):
            _legacy_note(ctx, ptr, "Legacy joint {constraints, nodeA, nodeB} (before 2024-11).")
            validate_legacy_node_joint(ctx, index, ext, ptr)
        else:
            validate_node_joint(ctx, index, ext, ptr, OMI_JOINT)


def _legacy_note(ctx: Ctx, ptr: str, message: str) -> None:
    """One INFO per document and legacy form, at its first occurrence."""
    if ctx.once(message):
        ctx.info(OMI_LEGACY_FORM, ptr, message + " Reported once per document.")


def _legacy_body(ctx: Ctx, body: dict, ptr: str) -> None:
    """2023 ``OMI_physics_body {type, mass, linearVelocity, angularVelocity, inertiaTensor}``."""
    check_members(ctx, body, LEGACY_BODY_MEMBERS, ptr)
    kind = get_enum(ctx, body, "type", ptr, LEGACY_BODY_TYPES, unusable=True)
    if kind is not None:
        _legacy_note(ctx, pointer_join(ptr, "type"), "Legacy OMI body 'type' (2023 form).")
    get_number(ctx, body, "mass", ptr, minimum=0)
    for key in ("linearVelocity", "angularVelocity", "centerOfMass"):
        get_number_array(ctx, body, key, ptr, length=3)
    get_number_array(ctx, body, "inertiaTensor", ptr, length=9)


def _body(ctx: Ctx, index: int, body: dict, ptr: str) -> None:
    """Current ``OMI_physics_body {motion, collider, trigger}``."""
    check_members(ctx, body, ("motion", "collider", "trigger"), ptr)
    motion = get_object(ctx, body, "motion", ptr)
    if motion is not None:
        here = pointer_join(ptr, "motion")
        check_members(ctx, motion, ("type", "mass", *VECTOR_MEMBERS, "gravityFactor"), here)
        if "type" in motion:
            get_enum(ctx, motion, "type", here, MOTION_TYPES, unusable=True)
        else:
            ctx.warning(OMI_MOTION_TYPE_MISSING, here, "Motion lacks the required 'type'; read as dynamic.")
        ctx.guard(here, validate_motion, ctx, motion, here, True)
        check_motion_placement(ctx, index, here)
    collider = get_object(ctx, body, "collider", ptr)
    if collider is not None:
        here = pointer_join(ptr, "collider")
        check_members(ctx, collider, ("shape", "physicsMaterial", "collisionFilter"), here)
        _shape_ref(ctx, collider, here)
        get_doc_ref(ctx, collider, "physicsMaterial", here, OMI_BODY, "physicsMaterials", none_value=-1)
        get_doc_ref(ctx, collider, "collisionFilter", here, OMI_BODY, "collisionFilters", none_value=-1)
        check_zero_scale(ctx, index, here)
    trigger = get_object(ctx, body, "trigger", ptr)
    if trigger is not None:
        here = pointer_join(ptr, "trigger")
        ctx.guard(here, _trigger, ctx, index, trigger, here)
        check_zero_scale(ctx, index, here)


def _trigger(ctx: Ctx, index: int, trigger: dict, ptr: str) -> None:
    """OMI ``trigger {shape | nodes, collisionFilter}``."""
    check_members(ctx, trigger, ("shape", "nodes", "collisionFilter"), ptr)
    has_shape = _shape_ref(ctx, trigger, ptr)
    nodes = get_index_list(ctx, trigger, "nodes", ptr, len(ctx.nodes))
    if nodes is not None and has_shape:
        ctx.error(ONE_OF_MISMATCH, ptr, "Exactly one of ('nodes', 'shape') properties must be defined.")
    elif nodes is None and not has_shape:
        ctx.warning(
            OMI_EMPTY_TRIGGER, ptr, "Trigger has neither shape nor nodes; read as grouping descendant triggers."
        )
    if "nodes" in trigger and "collisionFilter" in trigger:
        ctx.error(ONE_OF_MISMATCH, ptr, "Exactly one of ('nodes', 'collisionFilter') properties must be defined.")
    get_doc_ref(ctx, trigger, "collisionFilter", ptr, OMI_BODY, "collisionFilters", none_value=-1)
    check_trigger_nodes(ctx, index, nodes or (), ptr, OMI_BODY)


def _shape_ref(ctx: Ctx, obj: dict, ptr: str) -> bool:
    """An OMI ``shape`` index (-1 = none, the schema default); True when it names a shape.  An explicit -1 is
    legal but easy to miss, so it gets an INFO note."""
    value = obj.get("shape")
    if type(value) is int and value == -1:
        ctx.info(OMI_NO_SHAPE, pointer_join(ptr, "shape"), "Shape -1 (the default: no shape) is written explicitly.")
        return False
    get_doc_ref(ctx, obj, "shape", ptr, OMI_SHAPE, "shapes", none_value=-1)
    return "shape" in obj
