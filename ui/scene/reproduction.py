"""Reproduction helpers in the UI: the *Remove Reproduction Helpers* operator (in the glTF Physics panel's
*Reproduction* sub-panel) and the registration of the persistent initial-velocity frame handler, both from
``io/importer/reproduce/`` (the one part of the importer ``ui`` may import)."""

from __future__ import annotations

import bpy

from ...io.importer.reproduce import cleanup, velocity
from ..panels import CLOSED, PARENT_ID, PhysicsPanel

UNDOABLE = {"REGISTER", "UNDO"}
HANDLERS = bpy.app.handlers.frame_change_pre


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


def register_module() -> None:
    if velocity.on_frame_change not in HANDLERS:
        HANDLERS.append(velocity.on_frame_change)


def unregister_module() -> None:
    while velocity.on_frame_change in HANDLERS:
        HANDLERS.remove(velocity.on_frame_change)
