"""*Adopt Physics Settings* (``gltf_physics.adopt_settings``): scenes authored with the other Blender glTF-physics
add-on (settings kept as ``Object.khr_physics_extra_props`` / ``khr_physics_extra_constraint_props``) → this
extension's ``Object.gltf_physics`` (steps in ``adopt_steps.py``), and a check after each file load that offers it.

Entries: Object ▸ Rigid Body ▸ Adopt Physics Settings, and the 3D viewport's sidebar tab glTF Physics when the
loaded file has such settings. The check (a persistent ``load_post`` handler, removed on unregister) prints one line
and remembers the objects in ``PENDING``; with a window it also opens a small pop-up with the button.
"""

from __future__ import annotations

import bpy
from bpy.app.handlers import persistent
from bpy.props import BoolProperty

from ...io.diagnostics import printable
from ...io.mapping import sync_gate
from ...io.mapping.adopt_extra_props import BODY_PROPS, JOINT_PROPS
from ...io.mapping.object_tree import ObjectTree
from ..operators import UNDOABLE, _finish
from . import adopt_steps

PENDING: list[str] = []  # names of objects with the other add-on's settings not adopted yet (after the last load)
LAST_REPORT: dict[str, list[str]] = {"converted": [], "not_converted": []}


def pending_objects(objects) -> list:
    """Objects with the other add-on's settings and none of this extension's glTF data yet."""
    return [ob for ob in objects if adopt_steps.has_legacy(ob) and not adopt_steps.adopted(ob)]


class GLTF_PHYSICS_OT_adopt_settings(bpy.types.Operator):
    """Convert the settings of the other glTF-physics add-on (khr_physics_extra_props / _constraint_props) into this
    extension's glTF Physics data; the original properties are left as they are"""

    bl_idname = "gltf_physics.adopt_settings"
    bl_label = "Adopt Physics Settings"
    bl_description = (
        "Convert the settings of the other glTF-physics add-on (khr_physics_extra_props / _constraint_props) into "
        "glTF Physics data; the original properties are left as they are"
    )
    bl_options = UNDOABLE

    again: BoolProperty(
        name="Adopt Again",
        default=False,
        description="Also convert objects that already carry glTF Physics data (their stored values are replaced)",
    )

    whole_scene: BoolProperty(
        name="Whole Scene",
        default=True,
        description="Also adopt the scene's rigid bodies that have none of the other add-on's settings (they have "
        "its defaults, and its exporter wrote them so: friction without combine mode, filter System_<i>)",
    )

    @classmethod
    def poll(cls, context):
        """Runs when the scene has an object with the other add-on's settings; says why not otherwise (a script
        gets that sentence instead of Blender's "context is incorrect")."""
        if context.scene is None:
            cls.poll_message_set("No scene: open or create a scene first")
            return False
        if not any(adopt_steps.has_legacy(ob) for ob in context.scene.objects):
            cls.poll_message_set(
                "No object of this scene has settings of the other glTF-physics add-on "
                "(khr_physics_extra_props / khr_physics_extra_constraint_props): nothing to adopt"
            )
            return False
        return True

    def execute(self, context):
        objects = [ob for ob in context.scene.objects if adopt_steps.has_legacy(ob)]
        if not self.again:
            objects = [ob for ob in objects if not adopt_steps.adopted(ob)]
        if self.whole_scene:
            objects += [ob for ob in context.scene.objects if adopt_steps.plain_body(ob)]
        world = context.scene.rigidbody_world
        converted, not_converted, count = [], [], 0
        tree = ObjectTree(bpy.data.objects)  # children, one pass (a proxy this run makes is added by its body's step)
        with sync_gate.paused():  # adopt writes Blender's settings itself: the panels' sync must not redo them
            for ob in sorted(objects, key=lambda o: o.name):
                count += self._adopt_one(ob, world, tree, converted, not_converted)
        LAST_REPORT["converted"], LAST_REPORT["not_converted"] = converted, not_converted
        for line in converted:
            print(printable(f"glTF Physics adopt: {line}"))
        processed = {ob.name for ob in objects}  # tried, converted or not: no longer offered until the next load
        PENDING[:] = [ob.name for ob in pending_objects(context.scene.objects) if ob.name not in processed]
        summary = bpy.app.translations.pgettext_iface("Adopted the physics settings of {} object(s)").format(count)
        return _finish(self, "adopt_settings", summary, not_converted)

    @staticmethod
    def _adopt_one(ob, world, tree, converted: list, not_converted: list) -> bool:
        """Adopt one object's settings; True when something was converted."""
        done, skipped = [], []
        body = adopt_steps.stored_props(ob, BODY_PROPS)
        if body is None and adopt_steps.plain_body(ob):
            body = {}  # the other add-on's defaults
        if body is not None:
            d, s = adopt_steps.adopt_body(ob, body, world, tree)
            done += d
            skipped += s
        joint = adopt_steps.stored_props(ob, JOINT_PROPS)
        if joint is not None:
            d, s = adopt_steps.adopt_joint(ob, joint, world)
            done += d
            skipped += s
        converted += [f"{ob.name}: {line}" for line in done]
        not_converted += [f"{ob.name}: {line}" for line in skipped]
        return bool(done)


def _menu(self, context) -> None:
    self.layout.operator(GLTF_PHYSICS_OT_adopt_settings.bl_idname)


def _offer(objects: list[str]) -> None:
    """A pop-up with the button (only with a window; headless the console line is the report)."""
    manager = bpy.context.window_manager
    if bpy.app.background or manager is None or not manager.windows:
        return

    def draw(menu, _context):
        menu.layout.label(text=f"{len(objects)} object(s) have settings of the other glTF-physics add-on")
        menu.layout.operator(GLTF_PHYSICS_OT_adopt_settings.bl_idname)

    manager.popup_menu(draw, title="glTF Physics", icon="INFO")


@persistent
def check_on_load(_filepath) -> None:
    """After a file loads: remember (and offer) the objects whose other-add-on settings are not adopted yet."""
    scene = bpy.context.scene
    found = pending_objects(scene.objects) if scene is not None else []
    PENDING[:] = [ob.name for ob in found]
    if found:
        print(
            f"glTF Physics: {len(found)} object(s) have settings of the other glTF-physics add-on "
            "(khr_physics_extra_props): Object > Rigid Body > Adopt Physics Settings converts them"
        )
        bpy.app.timers.register(lambda: _offer(list(PENDING)), first_interval=0.1)


def register_module() -> None:
    if check_on_load not in bpy.app.handlers.load_post:
        bpy.app.handlers.load_post.append(check_on_load)
    bpy.types.VIEW3D_MT_object_rigid_body.append(_menu)


def unregister_module() -> None:
    bpy.types.VIEW3D_MT_object_rigid_body.remove(_menu)
    while check_on_load in bpy.app.handlers.load_post:
        bpy.app.handlers.load_post.remove(check_on_load)
    PENDING.clear()


CLASSES = (GLTF_PHYSICS_OT_adopt_settings,)
