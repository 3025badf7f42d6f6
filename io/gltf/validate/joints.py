"""Validation of joints: KHR / current OMI joint descriptions (limits, drives), node-level joint objects, and
the legacy OMI_physics_joint form (root ``constraints``, node ``{constraints, nodeA, nodeB}``)."""

from __future__ import annotations

from ..extensions import OMI_JOINT as OMI_PHYSICS_JOINT
from .codes import (
    DRIVE_TARGET_WITHOUT_GAIN,
    DUPLICATE_ELEMENTS,
    EMPTY_ENTITY,
    INVALID_INDEX,
    JOINT_INVALID_RANGE,
    JOINT_LIMITS_INCORRECT_SIZE,
    JOINT_LIMITS_INVALID_AXIS,
    JOINT_SELF_CONNECTED,
    OMI_LIMIT_BOTH_AXES,
    ONE_OF_MISMATCH,
)
from .common import (
    Ctx,
    check_index,
    check_members,
    get_bool,
    get_doc_ref,
    get_enum,
    get_index,
    get_number,
    get_object_list,
    is_int,
    mismatch,
    pointer_join,
)

LIMIT_MEMBERS = ("min", "max", "stiffness", "damping", "linearAxes", "angularAxes")
LEGACY_LIMIT_MEMBERS = ("lowerLimit", "upperLimit", "stiffness", "damping", "linearAxes", "angularAxes")
DRIVE_MEMBERS = ("type", "mode", "axis", "maxForce", "positionTarget", "velocityTarget", "stiffness", "damping")


def validate_joint_descriptions(ctx: Ctx, root: dict, ptr: str, key: str, omi: bool) -> None:
    """``physicsJoints[]`` = ``{limits[], drives[]}`` (KHR and current OMI)."""
    for _, joint, joint_ptr in get_object_list(ctx, root, key, ptr) or ():
        check_members(ctx, joint, ("limits", "drives"), joint_ptr, named=True)
        for _, limit, limit_ptr in get_object_list(ctx, joint, "limits", joint_ptr) or ():
            ctx.guard(limit_ptr, _limit, ctx, limit, limit_ptr, omi)
        for _, drive, drive_ptr in get_object_list(ctx, joint, "drives", joint_ptr) or ():
            ctx.guard(drive_ptr, _drive, ctx, drive, drive_ptr)


def _limit(ctx: Ctx, limit: dict, ptr: str, omi: bool) -> None:
    """One limit: linearAxes XOR angularAxes (OMI: both allowed with a warning), min ≤ max, gains ≥ 0."""
    check_members(ctx, limit, LIMIT_MEMBERS, ptr)
    linear = _axes(ctx, limit, "linearAxes", ptr, allow_empty=omi)
    angular = _axes(ctx, limit, "angularAxes", ptr, allow_empty=omi)
    if omi and linear and angular:
        ctx.warning(OMI_LIMIT_BOTH_AXES, ptr, "Limit has both linearAxes and angularAxes; read as two limits.")
    elif linear == angular:
        ctx.error(ONE_OF_MISMATCH, ptr, "Exactly one of ('linearAxes', 'angularAxes') properties must be defined.")
    _range(ctx, limit, ptr, "min", "max")
    get_number(ctx, limit, "stiffness", ptr, minimum=0)
    get_number(ctx, limit, "damping", ptr, minimum=0)


def _range(ctx: Ctx, limit: dict, ptr: str, low_key: str, high_key: str) -> None:
    low = get_number(ctx, limit, low_key, ptr)
    high = get_number(ctx, limit, high_key, ptr)
    if low is not None and high is not None and low > high:
        ctx.error(
            JOINT_INVALID_RANGE, ptr, f"Joint limit {low_key} ({low}) should be less or equal to {high_key} ({high})."
        )


def _axes(ctx: Ctx, limit: dict, key: str, ptr: str, allow_empty: bool) -> bool:
    """Validate an axes array; True when it is present (an empty KHR array counts as absent, as in the validator)."""
    if key not in limit:
        return False
    value = limit[key]  # pointers below are built only for a problem (most limits have none)
    if not isinstance(value, list):
        mismatch(ctx, pointer_join(ptr, key), value, "array")
        return True
    if not value and not allow_empty:
        ctx.error(EMPTY_ENTITY, pointer_join(ptr, key), "Entity cannot be empty.")
        return False
    seen: set[int] = set()
    for j, axis in enumerate(value):
        if not is_int(axis):
            mismatch(ctx, pointer_join(ptr, key, j), axis, "integer")
            continue
        if axis < 0:
            ctx.error(INVALID_INDEX, pointer_join(ptr, key, j), "Index must be a non-negative integer.")
        if not 0 <= axis <= 2:
            ctx.error(
                JOINT_LIMITS_INVALID_AXIS,
                pointer_join(ptr, key, j),
                "Indices of limited axes should be in range [0,3).",
            )
        elif axis in seen:
            ctx.error(DUPLICATE_ELEMENTS, pointer_join(ptr, key, j), "Duplicate element.")
        seen.add(axis)
    if len(value) > 3:
        ctx.error(
            JOINT_LIMITS_INCORRECT_SIZE, pointer_join(ptr, key), "Length of limited axes should be in range [1,3]."
        )
    return True


def _drive(ctx: Ctx, drive: dict, ptr: str) -> None:
    """One drive: type, mode and axis are required; gains and maxForce ≥ 0."""
    check_members(ctx, drive, DRIVE_MEMBERS, ptr)
    get_enum(ctx, drive, "type", ptr, ("linear", "angular"), required=True, unusable=True)
    get_enum(ctx, drive, "mode", ptr, ("force", "acceleration"), required=True, unusable=True)
    get_number(ctx, drive, "axis", ptr, minimum=0, maximum=2, required=True)
    if "axis" in drive and not is_int(drive["axis"]) and isinstance(drive["axis"], float):
        mismatch(ctx, pointer_join(ptr, "axis"), drive["axis"], "integer")
    for key in ("maxForce", "stiffness", "damping"):
        get_number(ctx, drive, key, ptr, minimum=0)
    for key in ("positionTarget", "velocityTarget"):
        get_number(ctx, drive, key, ptr)
    for target, gain in (("positionTarget", "stiffness"), ("velocityTarget", "damping")):
        for present, missing in ((target, gain), (gain, target)):
            if present in drive and missing not in drive:
                ctx.info(
                    DRIVE_TARGET_WITHOUT_GAIN,
                    pointer_join(ptr, present),
                    f"'{present}' without '{missing}' (the schema requires both): this part of the drive "
                    "has no effect or an implicit target of 0.",
                )


def validate_node_joint(ctx: Ctx, index: int, joint: dict, ptr: str, root_name: str) -> None:
    """Node-level ``{connectedNode, joint, enableCollision}`` (KHR ``joint`` or the OMI_physics_joint node object)."""
    check_members(ctx, joint, ("connectedNode", "joint", "enableCollision"), ptr)
    mark = ctx.mark()
    if "joint" in joint:
        get_doc_ref(ctx, joint, "joint", ptr, root_name, "physicsJoints")
    else:
        get_index(ctx, joint, "joint", ptr, None, required=True)
    # A joint already rejected for its description is not reported again for a missing connectedNode (the
    # reference validator stops at the first failure of the unit too); a present connectedNode is still checked.
    rejected = ctx.errors_since(mark)
    connected = get_index(ctx, joint, "connectedNode", ptr, len(ctx.nodes), required=not rejected)
    get_bool(ctx, joint, "enableCollision", ptr)
    if connected is not None and connected == index:
        ctx.error(JOINT_SELF_CONNECTED, pointer_join(ptr, "connectedNode"), "A joint cannot connect a node to itself.")


# ------------------------------------------------------------------------------------------- legacy OMI joints


def validate_legacy_constraints(ctx: Ctx, root: dict, ptr: str) -> None:
    """Root ``OMI_physics_joint.constraints[]`` (before 2024-11): both axis kinds allowed, limits default locked."""
    for _, constraint, item_ptr in get_object_list(ctx, root, "constraints", ptr) or ():
        ctx.guard(item_ptr, _legacy_constraint, ctx, constraint, item_ptr)


def _legacy_constraint(ctx: Ctx, constraint: dict, ptr: str) -> None:
    check_members(ctx, constraint, LEGACY_LIMIT_MEMBERS, ptr, named=True)
    _axes(ctx, constraint, "linearAxes", ptr, allow_empty=True)
    _axes(ctx, constraint, "angularAxes", ptr, allow_empty=True)
    _range(ctx, constraint, ptr, "lowerLimit", "upperLimit")
    get_number(ctx, constraint, "stiffness", ptr, minimum=0)
    get_number(ctx, constraint, "damping", ptr, minimum=0)


def validate_legacy_node_joint(ctx: Ctx, index: int, joint: dict, ptr: str) -> None:
    """Legacy node ``{constraints: [index | object], nodeA, nodeB}``."""
    check_members(ctx, joint, ("constraints", "nodeA", "nodeB"), ptr)
    node_a = get_index(ctx, joint, "nodeA", ptr, len(ctx.nodes), required=True)
    node_b = get_index(ctx, joint, "nodeB", ptr, len(ctx.nodes), required=True)
    if node_a is not None and node_a == node_b:
        ctx.error(JOINT_SELF_CONNECTED, pointer_join(ptr, "nodeB"), "nodeA and nodeB are the same node.")
    if "constraints" not in joint:
        return
    items = joint["constraints"]
    here = pointer_join(ptr, "constraints")
    if not isinstance(items, list):
        mismatch(ctx, here, items, "array")
        return
    root = ctx.root(OMI_PHYSICS_JOINT)
    count = len(root["constraints"]) if root and isinstance(root.get("constraints"), list) else 0
    for j, item in enumerate(items):
        item_ptr = pointer_join(here, j)
        if isinstance(item, dict):
            _legacy_constraint(ctx, item, item_ptr)
        else:
            check_index(ctx, item, item_ptr, count)
