"""Blender-only settings read back from the file's ``extras`` (``mapping.blender_settings``, written by the
exporter): a body's damping, deactivation, margin, Dynamic flag and collision source, a joint's breaking, solver
and spring settings, the rigid-body world's speed and steps and the scene's gravity. Runs after the bodies and
joints exist, so these values win over the import's own defaults (damping 0, SPRING2).

A value of the wrong type, out of range or of an unknown name is a WARNING at its JSON pointer
(``GLTF_PHYSICS_BLENDER_SETTING_INVALID``) and left as the import made it; nothing here stops the import.
"""

from __future__ import annotations

from typing import Any

from ..diagnostics import pointer
from ..gltf.extensions import KHR_REVISIONS, KHR_RIGID_BODIES, OMI_BODY, OMI_JOINT, OMI_REVISIONS
from ..gltf.validate.codes import BLENDER_SETTING_INVALID
from ..mapping.blender_settings import (
    BODY,
    BODY_KEY,
    CONSTRAINT,
    CONSTRAINT_KEY,
    GRAVITY_SCENE_NAMES,
    WORLD,
    WORLD_KEY,
    Setting,
    entry_of,
    read_settings,
)
from .context import ImportContext


def apply(ctx: ImportContext) -> None:
    """Every kept body, joint and world setting of the document onto what the import built."""
    for index, physics in sorted(ctx.document.nodes.items()):
        entry = entry_of(physics.extras, BODY_KEY)
        if entry is not None:
            ptr = ctx.node_pointer(index, "extras", BODY_KEY)
            rb = _rigid_body(ctx, index)
            if rb is not None:
                _assign(ctx, rb, entry, BODY, ptr)
        joint = physics.joint
        entry = None if joint is None else entry_of(joint.extras, CONSTRAINT_KEY)
        if entry is not None:
            c = ctx.joint_constraints.get(index)
            if c is not None:
                _assign(ctx, c, entry, CONSTRAINT, _joint_pointer(physics, index) + pointer("extras", CONSTRAINT_KEY))
    root = ctx.document.root.get("bodies")
    entry = None if root is None else entry_of(root.extras, WORLD_KEY)
    if entry is not None:
        omi = not (ctx.document.revisions & set(KHR_REVISIONS))
        ptr = pointer("extensions", OMI_BODY if omi else KHR_RIGID_BODIES, "extras", WORLD_KEY)
        _apply_world(ctx, entry, ptr)


def _rigid_body(ctx: ImportContext, index: int):
    """The rigid body that realises node ``index``'s motion or collider (its body object, else its collider's)."""
    ob = ctx.body_objects.get(index)
    if ob is None:
        ob = next(iter(ctx.collider_objects.get(index) or ()), None)
    return None if ob is None else ob.rigid_body


def _joint_pointer(physics, index: int) -> str:
    if physics.source in OMI_REVISIONS:
        return pointer("nodes", index, "extensions", OMI_JOINT)
    return pointer("nodes", index, "extensions", KHR_RIGID_BODIES, "joint")


def _assign(ctx: ImportContext, target: Any, entry: Any, table: dict[str, Setting], ptr: str) -> None:
    values, problems = read_settings(entry, table, ptr)
    for at, message in problems:
        ctx.warn(BLENDER_SETTING_INVALID, at, message)
    for name, value in values.items():
        _set(ctx, target, name, value, ptr)


def _set(ctx: ImportContext, target: Any, name: str, value: Any, ptr: str) -> None:
    try:
        setattr(target, name, value)
    except (TypeError, ValueError, AttributeError) as exc:  # a Blender that lacks or refuses the setting
        ctx.warn(BLENDER_SETTING_INVALID, ptr + pointer(name), f"{name}: Blender refused {value!r} ({exc}): ignored")


def _apply_world(ctx: ImportContext, entry: Any, ptr: str) -> None:
    values, problems = read_settings(entry, WORLD, ptr)
    for at, message in problems:
        ctx.warn(BLENDER_SETTING_INVALID, at, message)
    scene = ctx.scene
    rbw = ctx.world if ctx.world is not None else scene.rigidbody_world
    for name, value in values.items():
        target = scene if name in GRAVITY_SCENE_NAMES else rbw
        if target is not None:
            _set(ctx, target, name, value, ptr)
