"""Reproduction helpers in the UI: the *Remove Reproduction Helpers* operator (in the glTF Physics panel's
*Reproduction* sub-panel), and ``on_depsgraph_update``: a joint made after the import (Blender's own *Connect* or
*Add Rigid Body Constraint*, a joint panel edit) delays the drivers of the pre-rolled bodies it holds there and
then (``velocity.delay_held``), so the scene plays from its drivers alone: no frame handler, a ``.blend`` plays
without the extension. Both from ``io/importer/reproduce/`` (the one part of the importer ``ui`` may import)."""

from __future__ import annotations

import bpy
from bpy.app.handlers import persistent

from ...io.importer.reproduce import cleanup, velocity
from ..panels import CLOSED, PARENT_ID, PhysicsPanel

UNDOABLE = {"REGISTER", "UNDO"}
HANDLERS = bpy.app.handlers.depsgraph_update_post


class GLTF_PHYSICS_OT_remove_reproduction_helpers(bpy.types.Operator):
    """Remove what the import's Reproduce Motion option added (helper objects, the initial-velocity pre-roll, the
    world gravity weight): the scene as an import with the option off would have left it"""

    bl_idname = "gltf_physics.remove_reproduction_helpers"
    bl_label = "Remove Reproduction Helpers"
    bl_options = UNDOABLE

    @classmethod
    def poll(cls, context) -> bool:
        """Runs when the scene has reproduction helpers; says why not otherwise (a script gets that sentence
        instead of Blender's "context is incorrect")."""
        if context.scene is None:
            cls.poll_message_set("No scene: open or create a scene first")
            return False
        if not cleanup.has_reproduction(context.scene):
            cls.poll_message_set(
                "This scene has no reproduction helpers: they are added by the glTF import with Reproduce Motion on"
            )
            return False
        return True

    def execute(self, context):
        count = cleanup.remove_helpers(context.scene)
        self.report({"INFO"}, f"Removed {count} reproduction helper object(s)")
        return {"FINISHED"}


class GLTF_PHYSICS_PT_reproduction(PhysicsPanel, bpy.types.Panel):
    """What the import added so the scene moves as the file says."""

    bl_idname = "GLTF_PHYSICS_PT_reproduction"
    bl_label = "Reproduction"
    bl_parent_id = PARENT_ID
    bl_options = CLOSED
    bl_order = 90

    @classmethod
    def poll(cls, context) -> bool:
        return context.object is not None and hasattr(context.object, "gltf_physics")

    def draw(self, context) -> None:
        self.layout.operator(GLTF_PHYSICS_OT_remove_reproduction_helpers.bl_idname, icon="TRASH")


CLASSES = (GLTF_PHYSICS_OT_remove_reproduction_helpers, GLTF_PHYSICS_PT_reproduction)


def delay_new_joints(scene) -> list:
    """Delay the pre-roll drivers of the bodies a joint made after the import holds (``velocity.delay_held``): the
    bodies delayed. The *Add glTF Joint* operator calls it; ``on_depsgraph_update`` for the other ways."""
    rbw = scene.rigidbody_world if scene is not None else None
    if rbw is None or rbw.constraints is None:
        return []
    return velocity.delay_held(scene, rbw)


@persistent
def on_depsgraph_update(scene, depsgraph=None) -> None:
    """``depsgraph_update_post``, while editing: when a rigid-body constraint object changed (made, or its bodies
    edited), ``delay_new_joints``. The result is drivers (data Blender keeps); playing runs no Python."""
    try:
        updates = depsgraph.updates if depsgraph is not None else ()
        if any(getattr(u.id, "rigid_body_constraint", None) is not None for u in updates):
            delay_new_joints(scene)
    except (AttributeError, ReferenceError, RuntimeError) as exc:  # never a traceback per update
        print(f"glTF Physics: initial-velocity delay skipped: {exc}")


def register_module() -> None:
    if on_depsgraph_update not in HANDLERS:
        HANDLERS.append(on_depsgraph_update)


def unregister_module() -> None:
    while on_depsgraph_update in HANDLERS:
        HANDLERS.remove(on_depsgraph_update)
