"""One stored value per object (issue 32 item 3): an import keeps each object's glTF physics as the one text
``Object.gltf_physics.values_json``; the property groups are ``get`` / ``set`` views of it (panels, scripts), the
export reads the text (real files, real bpy, JSON read back)."""

from __future__ import annotations

import json

import bpy
import pytest

from blenderkit import submodule
from export_helpers import export, last_export
from joint_helpers import import_gltf
from testkit import fixture, import_fixtures

KHR = "KHR_physics_rigid_bodies"


def _id_keys(group, path=()) -> list[tuple[str, ...]]:
    """The paths of every ID property stored below ``group`` (nested groups walked)."""
    out = []
    for key, value in group.items():
        out.append((*path, key))
        if hasattr(value, "items") and hasattr(value, "to_dict"):
            out.extend(_id_keys(value, (*path, key)))
    return out


@pytest.mark.parametrize("path", import_fixtures(), ids=lambda p: p.name)
def test_an_import_stores_one_value_per_object(clean, path):
    """No value of the body, collider, trigger and joint groups, nor of a joint's limits and drives, is an ID property
    of its own: the text holds them all (a limit or drive row of the collection holds nothing)."""
    stored_values = submodule(clean, "io.mapping.stored_values")
    tables = [*stored_values.FIELDS.values(), *stored_values.ROWS.values()]
    stored_names = {key for names in tables for key in names}
    import_gltf(clean, path)
    checked = 0
    for ob in bpy.data.objects:
        pg = ob.gltf_physics
        keys = _id_keys(pg.id_properties_ensure())
        leaked = [k for k in keys if k[-1] in stored_names]
        assert not leaked, (ob.name, leaked)
        for rows in (pg.joint.limits, pg.joint.drives):
            assert all(not row.id_properties_ensure().keys() for row in rows), ob.name
        if pg.values_json:
            checked += 1
            data = json.loads(pg.values_json)
            assert data["layout"] == 1
            assert pg.role == data.get("role", "NONE")
            joint = data.get("joint", {})
            assert pg.joint.role == joint.get("role", "NONE")
            assert (len(pg.joint.limits), len(pg.joint.drives)) == tuple(
                len(joint.get(name, [])) for name in ("limits", "drives")
            )
    assert checked


def test_limits_and_drives_are_views_of_the_stored_rows(clean, tmp_path):
    """A joint's limit and drive rows read and write the stored rows at their position; the list operators add and
    remove stored rows; the export writes what the text holds."""
    import_gltf(clean, fixture("joints/hinge_x_limited.gltf"))
    ob = next(o for o in bpy.data.objects if o.gltf_physics.joint.role == "JOINT" and len(o.gltf_physics.joint.limits))
    pj = ob.gltf_physics.joint
    stored = json.loads(ob.gltf_physics.values_json)["joint"]
    assert len(pj.limits) == len(stored["limits"]) and len(pj.drives) == len(stored.get("drives", []))
    pj.limits[0].has_stiffness = True
    pj.limits[0].stiffness = -5.0  # clamped to min 0 as Blender would
    pj.limits[0].stiffness = 12.5
    row = json.loads(ob.gltf_physics.values_json)["joint"]["limits"][0]
    assert (row["has_stiffness"], row["stiffness"]) == (True, 12.5)
    bpy.context.view_layer.objects.active = ob
    count = len(pj.limits)
    assert bpy.ops.gltf_physics.add_joint_item(kind="LIMIT") == {"FINISHED"}
    assert len(pj.limits) == count + 1 and tuple(pj.limits[count].axes) == (True, False, False)
    assert len(json.loads(ob.gltf_physics.values_json)["joint"]["limits"]) == count + 1
    ob.gltf_physics.active_limit_index = 0
    assert bpy.ops.gltf_physics.remove_joint_item(kind="LIMIT") == {"FINISHED"}
    rows = json.loads(ob.gltf_physics.values_json)["joint"]["limits"]
    assert len(pj.limits) == len(rows) == count and tuple(pj.limits[-1].axes) == (True, False, False)
    written = export(tmp_path / "out.gltf", "2026")
    limits = [lim for j in written["extensions"][KHR]["physicsJoints"] for lim in j.get("limits", [])]
    assert sum(1 for lim in limits if lim.get("linearAxes") == [0] and lim.get("min") == 0.0) >= 1


def test_a_script_that_writes_the_text_gets_matching_rows(clean):
    """A text a script writes (with more or fewer stored rows) is what the rows show once the mirror has run."""
    stored_values = submodule(clean, "io.mapping.stored_values")
    mirror = submodule(clean, "ui.filters.filter_mirror")
    ob = bpy.data.objects.new("Scripted", None)
    bpy.context.scene.collection.objects.link(ob)
    values = {"joint": {"role": "JOINT", "drives": [{"velocity_target": 2.0}, {"type": "linear"}]}}
    ob.gltf_physics.values_json = stored_values.dumps(values)
    assert not mirror.joint_rows_in_step(ob.gltf_physics)
    mirror.rebuild_all()
    drives = ob.gltf_physics.joint.drives
    assert [(d.type, d.velocity_target) for d in drives] == [("angular", 2.0), ("linear", 0.0)]


def test_views_read_and_write_the_text_and_run_their_update(clean, tmp_path):
    import_gltf(clean, fixture("import/materials_mass.gltf"))
    full = bpy.data.objects["Full"]
    pm = full.gltf_physics.motion
    text = full.gltf_physics.values_json
    assert json.loads(text)["motion"]["gravity_factor"] == pytest.approx(pm.gravity_factor)
    pm.mass = 7.5
    assert json.loads(full.gltf_physics.values_json)["motion"]["mass"] == pytest.approx(7.5)
    assert full.rigid_body.mass == pytest.approx(7.5)  # the property's update still syncs Blender
    pm.kind = "kinematic"  # an enum view: identifiers in the text, item numbers for Blender
    assert json.loads(full.gltf_physics.values_json)["motion"]["kind"] == "kinematic"
    assert pm.kind == "kinematic"
    pm.mass = -3.0  # Blender hands a Python set the value unclamped: the view clamps to min=0
    assert pm.mass == 0.0
    pm.mass = 2.0
    gltf = export(tmp_path / "edited.gltf", "2026")
    node = next(n for n in gltf["nodes"] if n.get("name") == "Full")["extensions"][KHR]
    assert node["motion"]["mass"] == pytest.approx(2.0) and node["motion"]["isKinematic"] is True


def test_a_name_blender_cannot_hold_reads_escaped(clean):
    ob = bpy.data.objects.new("names", None)
    ob.gltf_physics.collider.material.name = "ok"
    with submodule(clean, "io.mapping.stored_values").editing(ob) as view:
        view.collider.material.name = "lone \ud800"
    assert ob.gltf_physics.collider.material.name == "lone \\ud800"  # printable, never a crash
    assert ob.gltf_physics.values_json.isascii()


def test_an_unreadable_text_is_reported_on_export_not_fatal(clean, tmp_path):
    import_gltf(clean, fixture("import/materials_mass.gltf"))
    bpy.data.objects["Full"].gltf_physics.values_json = "{not json"
    export(tmp_path / "broken.gltf", "2026")
    codes = [(d.code, d.severity.name) for d in last_export(clean).diagnostics]
    assert ("GLTF_PHYSICS_EXPORT_STORED_UNREADABLE", "WARNING") in codes
    assert not any(code.endswith(("INTERNAL_ERROR", "EXPORT_FAILED")) for code, _ in codes)


def test_trigger_and_collider_groups_are_separate_views(clean):
    ob = bpy.data.objects.new("both", None)
    ob.gltf_physics.collider.geometry.kind = "SHAPE"
    ob.gltf_physics.trigger.geometry.kind = "MESH"
    ob.gltf_physics.trigger.filter.name = "volume"
    data = json.loads(ob.gltf_physics.values_json)
    assert data["collider"]["geometry"] == {"kind": "SHAPE"}
    assert data["trigger"] == {"geometry": {"kind": "MESH"}, "filter": {"name": "volume"}}
    assert ob.gltf_physics.collider.filter.name == ""
