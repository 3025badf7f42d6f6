"""Collision filters drawn as real UI lists: the rows are a view rebuilt from the stored JSON text (the one source
export and the checks read), by the text's update callback, a load handler and a timer after an out-of-step draw."""

from __future__ import annotations

import json

import bpy

from blenderkit import submodule
from export_helpers import export
from joint_helpers import import_gltf
from testkit import fixture
from ui_helpers import FakeLayout, draw_list_item, draw_panel

FIELDS = ("collision_systems", "collide_with_systems", "not_collide_with_systems")


def _rows(pflt, field: str) -> list[str]:
    return [row.name for row in getattr(pflt, f"{field}_rows")]


def _texts(pflt, field: str) -> list[str]:
    return json.loads(getattr(pflt, field) or "[]")


def _run(operator: str, ob, **props) -> set:
    with bpy.context.temp_override(object=ob, active_object=ob):
        return getattr(bpy.ops.gltf_physics, operator)(**props)


def test_imported_filters_fill_the_rows_and_the_panel_draws_ui_lists(clean):
    import_gltf(clean, fixture("joints/filters.gltf"))  # the importer writes the text with the sync paused
    filtered = [ob for ob in bpy.context.scene.objects if ob.gltf_physics.collider.filter.has_filter]
    assert len(filtered) >= 4
    panels = submodule(clean, "ui.body.panels_body").CLASSES
    panel = next(c for c in panels if c.bl_idname == "GLTF_PHYSICS_PT_collider")
    for ob in filtered:
        pflt = ob.gltf_physics.collider.filter
        for field in FIELDS:
            assert _rows(pflt, field) == _texts(pflt, field), (ob.name, field)
        drawn = draw_panel(panel, ob)
        lists = [c for c in drawn.calls("template_list") if c["list"] == "GLTF_PHYSICS_UL_filter_systems"]
        assert [c["items"] for c in lists] == [len(_texts(pflt, f)) for f in FIELDS]
        adds = [c["props"].values for c in drawn.calls("operator") if c["idname"] == "gltf_physics.filter_add_system"]
        assert [v["field"] for v in adds] == list(FIELDS)
    ghost = bpy.data.objects["Ghost"].gltf_physics.collider.filter
    item = draw_list_item(bpy.types.GLTF_PHYSICS_UL_filter_systems, ghost, ghost.collision_systems_rows[0])
    assert item.texts() == [ghost.collision_systems_rows[0].name]


def test_list_operators_and_text_edits_keep_rows_in_step_and_export_the_text(clean, tmp_path):
    import_gltf(clean, fixture("joints/filters.gltf"))
    ghost = bpy.data.objects["Ghost"]
    pflt = ghost.gltf_physics.collider.filter
    field = "collide_with_systems"
    assert _run("filter_add_system", ghost, target="COLLIDER", field=field, name="team") == {"FINISHED"}
    assert _run("filter_add_system", ghost, target="COLLIDER", field=field, existing="world") == {"FINISHED"}
    assert _rows(pflt, field) == ["team", "world"] == _texts(pflt, field)
    pflt.collide_with_systems_active = 1  # the UI list's selected row: the − button removes it
    panels = submodule(clean, "ui.body.panels_body").CLASSES
    panel = next(c for c in panels if c.bl_idname == "GLTF_PHYSICS_PT_collider")
    removes = [
        c["props"].values
        for c in draw_panel(panel, ghost).calls("operator")
        if c["idname"] == "gltf_physics.filter_remove_system" and c["props"].values["field"] == field
    ]
    row = next(v["index"] for v in removes if v["index"] >= 0)
    assert row == 1
    assert _run("filter_remove_system", ghost, target="COLLIDER", field=field, index=row) == {"FINISHED"}
    assert _rows(pflt, field) == ["team"] == _texts(pflt, field)
    assert pflt.collide_with_systems_active == 0  # clamped to the remaining rows
    pflt.not_collide_with_systems = '["a", "b"]'  # a script writing the text: the rows follow
    assert _rows(pflt, "not_collide_with_systems") == ["a", "b"]
    pflt.not_collide_with_systems = "[oops"  # malformed: no rows (the panel shows the text with an error)
    assert _rows(pflt, "not_collide_with_systems") == []
    pflt.not_collide_with_systems = ""  # absent
    assert _rows(pflt, "not_collide_with_systems") == []
    gltf = export(tmp_path / "lists.gltf", "2026")
    written = gltf["extensions"]["KHR_physics_rigid_bodies"]["collisionFilters"]
    assert {"collisionSystems": ["ghost"], "collideWithSystems": ["team"]} in written
    assert not any("rows" in key or "active" in key for flt in written for key in flt)


def test_rows_out_of_step_are_drawn_from_the_text_and_rebuilt(clean):
    import_gltf(clean, fixture("joints/filters.gltf"))
    mirror = submodule(clean, "ui.filters.filter_mirror")
    rows = submodule(clean, "io.mapping.filter_rows")
    lists = submodule(clean, "ui.filters.filter_lists")
    ghost = bpy.data.objects["Ghost"]
    pflt = ghost.gltf_physics.collider.filter
    names = _texts(pflt, "collision_systems")
    pflt.collision_systems_rows.clear()  # e.g. a file saved before the rows existed
    assert not rows.in_step(pflt)
    layout = FakeLayout()
    lists.draw_filter_lists(layout, ghost, pflt, "COLLIDER")
    assert set(names) <= set(layout.texts())  # drawn from the text, not from the stale rows
    assert bpy.app.timers.is_registered(mirror._tick)  # rebuilt right after the draw
    bpy.app.timers.unregister(mirror._tick)
    assert mirror.rebuild_all in bpy.app.handlers.load_post
    assert mirror.rebuild_all() == 1
    assert _rows(pflt, "collision_systems") == names and rows.in_step(pflt)
    try:
        clean.unregister()
        assert mirror.rebuild_all not in bpy.app.handlers.load_post
        assert not hasattr(bpy.types, "GLTF_PHYSICS_UL_filter_systems")
    finally:
        clean.register()


def test_a_file_saved_with_stale_rows_is_rebuilt_on_load(clean, tmp_path):
    import_gltf(clean, fixture("joints/filters.gltf"))
    ghost = bpy.data.objects["Ghost"].gltf_physics.collider.filter
    names = _texts(ghost, "collision_systems")
    ghost.collision_systems_rows.clear()  # as a file saved before the rows existed
    path = str(tmp_path / "stale.blend")
    bpy.ops.wm.save_as_mainfile(filepath=path)
    bpy.ops.wm.open_mainfile(filepath=path)  # the persistent load_post handler rebuilds the rows
    ghost = bpy.data.objects["Ghost"].gltf_physics.collider.filter
    assert _rows(ghost, "collision_systems") == names
