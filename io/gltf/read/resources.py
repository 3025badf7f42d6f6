"""Readers for the document-level resources shared by KHR and current OMI: physics materials, collision filters,
joint descriptions (limits, drives), and the node-level joint object (bpy-free)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from ...diagnostics import Severity
from ..model import (
    DRIVE_KEYS,
    FILTER_KEYS,
    LIMIT_KEYS,
    MATERIAL_KEYS,
    CollisionFilter,
    JointDescription,
    JointDrive,
    JointLimit,
    NodeJoint,
    PhysicsMaterial,
)
from .common import CONVERTED, DropUnitError, ReadContext, pointer_join, remap

# the members each object consumes (module constants: every object is checked against them)
_MATERIAL_MEMBERS = frozenset(MATERIAL_KEYS.values()) | {"name"}
_FILTER_MEMBERS = frozenset(FILTER_KEYS.values()) | {"name"}
_LIMIT_MEMBERS = frozenset(LIMIT_KEYS.values())
_DRIVE_MEMBERS = frozenset(DRIVE_KEYS.values())
_DESCRIPTION_MEMBERS = frozenset({"limits", "drives", "name"})
_NODE_JOINT_MEMBERS = frozenset({"connectedNode", "joint", "enableCollision"})


@dataclass
class IndexMap:
    """Source index -> model index for one document-level list; ``dropped`` holds dropped source indices."""

    what: str
    mapping: dict[int, int] = field(default_factory=dict)
    dropped: set[int] = field(default_factory=set)

    def resolve(self, ctx: ReadContext, value: int | None, ptr: str, key: str) -> int | None:
        """The model index of ``value``, the reference in member ``key`` of the object at ``ptr``."""
        return remap(ctx, value, self.mapping, self.dropped, ptr, key, self.what)


def read_list(
    ctx: ReadContext,
    container: dict,
    key: str,
    ptr: str,
    target: list,
    index_map: IndexMap,
    read_one: Callable[[ReadContext, dict, str], object],
) -> None:
    """Read ``container[key]`` item by item into ``target``; bad items are dropped and recorded in the map."""
    if key not in container:
        return
    list_ptr = pointer_join(ptr, key)
    try:
        items = ctx.array(container[key], list_ptr)
    except DropUnitError:
        return
    for i, item in enumerate(items):
        item_ptr = pointer_join(list_ptr, i)
        if ctx.is_dropped(item_ptr):
            index_map.dropped.add(i)
            continue
        try:
            value = read_one(ctx, ctx.obj(item, item_ptr), item_ptr)
        except DropUnitError:
            index_map.dropped.add(i)
            continue
        index_map.mapping[i] = len(target)
        target.append(value)


def read_material(ctx: ReadContext, d: dict, ptr: str) -> PhysicsMaterial:
    mat = PhysicsMaterial(
        static_friction=ctx.number(d, "staticFriction", ptr, 0.6),
        dynamic_friction=ctx.number(d, "dynamicFriction", ptr, 0.6),
        restitution=ctx.number(d, "restitution", ptr, 0.0),
        friction_combine=ctx.string(d, "frictionCombine", ptr),
        restitution_combine=ctx.string(d, "restitutionCombine", ptr),
        name=ctx.name(d, ptr),
    )
    ctx.passthrough(d, ptr, _MATERIAL_MEMBERS, mat)
    return mat


def read_filter(ctx: ReadContext, d: dict, ptr: str) -> CollisionFilter:
    filt = CollisionFilter(
        collision_systems=ctx.strings(d, "collisionSystems", ptr),
        collide_with_systems=ctx.strings(d, "collideWithSystems", ptr),
        not_collide_with_systems=ctx.strings(d, "notCollideWithSystems", ptr),
        name=ctx.name(d, ptr),
    )
    ctx.passthrough(d, ptr, _FILTER_MEMBERS, filt)
    return filt


def read_limit(ctx: ReadContext, d: dict, ptr: str) -> list[JointLimit]:
    """One limit; a limit carrying both axis arrays (OMI weld_joint) is split into a linear and an angular one."""
    linear = ctx.indices(d, "linearAxes", ptr)
    angular = ctx.indices(d, "angularAxes", ptr)
    common = dict(
        min=ctx.number(d, "min", ptr),
        max=ctx.number(d, "max", ptr),
        stiffness=ctx.number(d, "stiffness", ptr),
        damping=ctx.number(d, "damping", ptr, 0.0),
    )
    if common["stiffness"] is not None and common["stiffness"] < 0:
        # OMI README: negative stiffness = infinitely stiff.
        common["stiffness"] = None
    return _split_limit(ctx, d, ptr, linear, angular, common, _LIMIT_MEMBERS)


def _split_limit(
    ctx: ReadContext, d: dict, ptr: str, linear, angular, common: dict, known: frozenset[str]
) -> list[JointLimit]:
    linear = linear or None  # OMI allows empty arrays: an empty axis list limits nothing
    angular = angular or None
    if linear is None and angular is None:
        ctx.fail("PHYSICS_PARSE_MISSING_PROPERTY", ptr, "limit has neither linearAxes nor angularAxes")
    out = []
    if linear is not None:
        out.append(JointLimit(linear_axes=linear, **common))
    if angular is not None:
        out.append(JointLimit(angular_axes=angular, **common))
    if len(out) == 2:
        ctx.report(Severity.INFO, CONVERTED, ptr, "limit with linear and angular axes split into two limits")
    for limit in out:
        ctx.passthrough(d, ptr, known, limit)
    return out


def read_drive(ctx: ReadContext, d: dict, ptr: str) -> JointDrive:
    for key in ("type", "mode", "axis"):
        if key not in d:
            ctx.fail("PHYSICS_PARSE_MISSING_PROPERTY", ptr, f"required property '{key}' is missing")
    axis = ctx.index(d, "axis", ptr)
    drive = JointDrive(
        type=ctx.string(d, "type", ptr),
        mode=ctx.string(d, "mode", ptr),
        axis=axis,
        max_force=ctx.number(d, "maxForce", ptr),
        position_target=ctx.number(d, "positionTarget", ptr),
        velocity_target=ctx.number(d, "velocityTarget", ptr),
        stiffness=ctx.number(d, "stiffness", ptr, 0.0),
        damping=ctx.number(d, "damping", ptr, 0.0),
    )
    if drive.max_force is not None and drive.max_force < 0:
        drive.max_force = None  # OMI README: negative = not force-limited
    ctx.passthrough(d, ptr, _DRIVE_MEMBERS, drive)
    return drive


def read_joint_description(ctx: ReadContext, d: dict, ptr: str) -> JointDescription:
    desc = JointDescription(name=ctx.name(d, ptr))
    for key, reader in (("limits", read_limit), ("drives", read_drive)):
        if key not in d:
            continue
        items = ctx.array(d[key], pointer_join(ptr, key))
        for i, item in enumerate(items):
            item_ptr = pointer_join(ptr, key, i)
            if ctx.is_dropped(item_ptr):
                continue
            try:
                value = reader(ctx, ctx.obj(item, item_ptr), item_ptr)
            except DropUnitError:
                continue
            if key == "limits":
                desc.limits.extend(value)
            else:
                desc.drives.append(value)
    ctx.passthrough(d, ptr, _DESCRIPTION_MEMBERS, desc)
    return desc


def read_node_joint(ctx: ReadContext, d: dict, ptr: str, joints: IndexMap) -> NodeJoint:
    connected = ctx.required_index(d, "connectedNode", ptr)
    ctx.check_node(connected, ptr, "connectedNode")
    joint = joints.resolve(ctx, ctx.required_index(d, "joint", ptr), ptr, "joint")
    out = NodeJoint(connected_node=connected, joint=joint, enable_collision=ctx.boolean(d, "enableCollision", ptr))
    ctx.passthrough(d, ptr, _NODE_JOINT_MEMBERS, out)
    return out
