"""Collision filters as lists in the Collider & Material and Trigger panels, and the two scene buttons.

The stored filter keeps each list as JSON text (``ui/body/properties.py``; '' = the list is absent), which is what the
exporter writes: the operators here rewrite that text, and the ``UIList`` (``GLTF_PHYSICS_UL_filter_systems``) draws
its rows, a view rebuilt from the text (``filter_mirror``; one source of truth). Editing a collider's filter
re-solves the scene's collision collections (``sync_filters.filter_changed``).

* ``gltf_physics.filter_add_system`` — add a system name (one used in the scene, or a new one) to a list;
* ``gltf_physics.filter_remove_system`` — remove one name (``index``), or make the whole list absent (``index`` −1);
* ``gltf_physics.filters_from_collections`` — *Filters from Collision Collections* (exact encoding);
* ``gltf_physics.collections_from_filters`` — *Collision Collections from Filters* (the importer's solver).
"""

from __future__ import annotations

import json

import bpy
from bpy.app.translations import pgettext_iface as iface_
from bpy.props import EnumProperty, IntProperty, StringProperty

from ...io.mapping import filter_rows
from ..lists import GLTF_PHYSICS_UL_filter_systems
from ..panels import label
from . import filter_mirror, sync_filters

UNDO = {"REGISTER", "UNDO"}
TARGETS = (("COLLIDER", "Collider", "The collider's filter"), ("TRIGGER", "Trigger", "The trigger's filter"))
FIELD_ITEMS = (
    ("collision_systems", "Collision Systems", "collisionSystems: the systems this object belongs to"),
    ("collide_with_systems", "Collide With", "collideWithSystems: collide only with these (absent = all)"),
    ("not_collide_with_systems", "Not Collide With", "notCollideWithSystems: never collide with these"),
)
NEW = "__NEW__"
SHOWN_NAMES = 12  # the "collides with" read-out lists at most this many names
_ITEMS: list = []  # keeps the dynamic enum items alive (Blender does not copy the strings)


def filter_group(ob, target: str):
    pg = ob.gltf_physics
    return pg.collider.filter if target == "COLLIDER" else pg.trigger.filter


def _existing(self, context):
    names = sync_filters.scene_system_names(context.scene) if context.scene is not None else []
    _ITEMS[:] = [(NEW, "New Name", "Type a new system name")] + [(n, n, "") for n in names]
    return _ITEMS


class _FilterListOperator:
    target: EnumProperty(name="Filter", items=TARGETS, default="COLLIDER")
    field: EnumProperty(name="List", items=FIELD_ITEMS, default="collision_systems")

    @classmethod
    def poll(cls, context) -> bool:
        return context.object is not None and hasattr(context.object, "gltf_physics")

    def names(self, context) -> list[str] | None:
        """The list's names, or None (with an error report) when its text is not a JSON list of names."""
        try:
            return list(sync_filters.names_of(getattr(filter_group(context.object, self.target), self.field)) or ())
        except ValueError:
            self.report({"ERROR"}, f"{self.field} is not a JSON list of names: fix or clear it first")
            return None

    def store(self, context, names: list[str] | None) -> None:
        pflt = filter_group(context.object, self.target)
        if not pflt.has_filter:
            pflt.has_filter = True
        setattr(pflt, self.field, "" if names is None else json.dumps(names))


class GLTF_PHYSICS_OT_filter_add_system(_FilterListOperator, bpy.types.Operator):
    """Add a collision system name to a list of the active object's glTF collision filter"""

    bl_idname = "gltf_physics.filter_add_system"
    bl_label = "Add System"
    bl_options = UNDO

    existing: EnumProperty(name="System", items=_existing, description="A system name used in the scene")
    name: StringProperty(name="New Name", default="", description="A new system name (used when not empty)")

    def invoke(self, context, event):
        return context.window_manager.invoke_props_dialog(self)

    def draw(self, context) -> None:
        self.layout.prop(self, "existing")
        self.layout.prop(self, "name")

    def execute(self, context):
        chosen = self.name.strip() or ("" if self.existing == NEW else self.existing)
        if not chosen:
            self.report({"WARNING"}, "No system name given")
            return {"CANCELLED"}
        names = self.names(context)
        if names is None:
            return {"CANCELLED"}
        if chosen not in names:
            names.append(chosen)
        self.store(context, names)
        return {"FINISHED"}


class GLTF_PHYSICS_OT_filter_remove_system(_FilterListOperator, bpy.types.Operator):
    """Remove a system name from a list of the glTF collision filter (index −1: the whole list becomes absent)"""

    bl_idname = "gltf_physics.filter_remove_system"
    bl_label = "Remove System"
    bl_options = UNDO

    index: IntProperty(name="Index", default=-1, min=-1, description="Row to remove; −1 = make the list absent")

    def execute(self, context):
        if self.index < 0:
            self.store(context, None)
            return {"FINISHED"}
        names = self.names(context)
        if names is None:
            return {"CANCELLED"}
        if self.index >= len(names):
            self.report({"WARNING"}, f"No system at row {self.index}")
            return {"CANCELLED"}
        del names[self.index]
        self.store(context, names)
        return {"FINISHED"}


class _NeedsRigidBodyWorld:
    """Poll of the scene-wide filter ⇄ collection operators: the scene has a rigid-body world."""

    @classmethod
    def poll(cls, context) -> bool:
        return context.scene is not None and context.scene.rigidbody_world is not None


class GLTF_PHYSICS_OT_filters_from_collections(_NeedsRigidBodyWorld, bpy.types.Operator):
    """Store on every rigid body of the scene the glTF collision filter that encodes its collision collections
    exactly (two bodies collide iff they share a collection)"""

    bl_idname = "gltf_physics.filters_from_collections"
    bl_label = "Filters from Collision Collections"
    bl_options = UNDO

    def execute(self, context):
        given = sync_filters.filters_from_collections(context.scene)
        self.report({"INFO"}, f"Collision filters from collision collections: {given} bodies filtered")
        return {"FINISHED"}


class GLTF_PHYSICS_OT_collections_from_filters(_NeedsRigidBodyWorld, bpy.types.Operator):
    """Set every rigid body's collision collections from the scene's glTF collision filters (the importer's solver;
    a relation that needs more than 20 collections is approximated and reported)"""

    bl_idname = "gltf_physics.collections_from_filters"
    bl_label = "Collision Collections from Filters"
    bl_options = UNDO

    def execute(self, context):
        try:
            result = sync_filters.collections_from_filters(context.scene)
        except ValueError as error:
            self.report({"ERROR"}, f"A stored filter is not readable: {error}")
            return {"CANCELLED"}
        if result is None:
            self.report({"INFO"}, "No collision filters in the scene: collections unchanged")
        elif result.exact:
            used = len({c for cols in result.collections.values() for c in cols})
            self.report({"INFO"}, f"Collision collections from filters: exact, {used} collections")
        else:
            self.report(
                {"WARNING"}, f"Collision collections approximate the filters: {result.wrong_pairs} pairs differ"
            )
        return {"FINISHED"}


def draw_filter_lists(layout, ob, flt, target: str) -> None:
    """The three lists of a stored filter as UI lists with add / remove (and make-absent) buttons."""
    for field, title, _ in FIELD_ITEMS:
        box = layout.box()
        head = box.row(align=True)
        text = getattr(flt, field)
        try:
            names = sync_filters.names_of(text)
        except ValueError:
            row = box.row()
            row.alert = True
            label(row, "{}: not a JSON list of names", iface_(title), icon="ERROR")
            box.prop(flt, field, text="")
            continue
        state = iface_("absent") if names is None else str(len(names))
        label(head, "{} ({})", iface_(title), state, icon="GROUP")
        if names is not None:
            clear = head.operator(GLTF_PHYSICS_OT_filter_remove_system.bl_idname, text="", icon="X")
            clear.target, clear.field, clear.index = target, field, -1
        row = box.row()
        if filter_rows.row_names(flt, field) == filter_rows.text_names(flt, field):
            row.template_list(
                GLTF_PHYSICS_UL_filter_systems.__name__,
                f"{target}.{field}",
                flt,
                filter_rows.rows_name(field),
                flt,
                filter_rows.active_name(field),
                rows=2,
            )
        else:  # rows out of step with the text (an ID-property write): draw the text, rebuild after this draw
            filter_mirror.rebuild_later()
            col = row.column()
            for name in filter_rows.text_names(flt, field):
                col.label(text=name, icon="DOT", translate=False)
        side = row.column(align=True)
        add = side.operator(GLTF_PHYSICS_OT_filter_add_system.bl_idname, text="", icon="ADD")
        add.target, add.field = target, field
        sub = side.column(align=True)
        sub.enabled = bool(names)
        remove = sub.operator(GLTF_PHYSICS_OT_filter_remove_system.bl_idname, text="", icon="REMOVE")
        active = getattr(flt, filter_rows.active_name(field))
        remove.target, remove.field, remove.index = target, field, min(active, max(len(names or ()) - 1, 0))


def draw_collides_with(layout, ob, target: str = "COLLIDER") -> None:
    """The read-out "Collides with: …" of a collider, "Overlaps with: …" of a trigger (bodies of the scene, spec
    subset rule on the filters export writes)."""
    trigger = target == "TRIGGER"
    hits = sync_filters.overlaps_with(ob) if trigger else sync_filters.collides_with(ob)
    if hits is None:
        return
    shown = ", ".join(hits[:SHOWN_NAMES]) or iface_("nothing")
    more = iface_(" … {} more").format(len(hits) - SHOWN_NAMES) if len(hits) > SHOWN_NAMES else ""
    if trigger:
        label(layout, "Overlaps with: {}{}", shown, more, icon="MOD_WIREFRAME")
    else:
        label(layout, "Collides with: {}{}", shown, more, icon="PHYSICS")


def draw_scene_buttons(layout) -> None:
    row = layout.row(align=True)
    row.operator(GLTF_PHYSICS_OT_filters_from_collections.bl_idname, icon="IMPORT")
    row.operator(GLTF_PHYSICS_OT_collections_from_filters.bl_idname, icon="EXPORT")


HANDLERS = ("depsgraph_update_post", "load_post", "undo_post", "redo_post")


def register_module() -> None:
    """The "collides with" cache is dropped on every depsgraph update, file load, undo and redo."""
    for name in HANDLERS:
        getattr(bpy.app.handlers, name).append(sync_filters.invalidate)
    filter_mirror.register_module()


def unregister_module() -> None:
    filter_mirror.unregister_module()
    for name in HANDLERS:
        handlers = getattr(bpy.app.handlers, name)
        while sync_filters.invalidate in handlers:
            handlers.remove(sync_filters.invalidate)


CLASSES = (
    GLTF_PHYSICS_OT_filter_add_system,
    GLTF_PHYSICS_OT_filter_remove_system,
    GLTF_PHYSICS_OT_filters_from_collections,
    GLTF_PHYSICS_OT_collections_from_filters,
)
