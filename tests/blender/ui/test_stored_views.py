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
    """No value of the body, collider and trigger groups is an ID property of its own: the text holds them all."""
    fields = submodule(clean, "io.mapping.stored_values").FIELDS
    stored_names = {key for names in fields.values() for key in names}
    import_gltf(clean, path)
    checked = 0
    for ob in bpy.data.objects:
        keys = _id_keys(ob.gltf_physics.id_properties_ensure())
        # the joint group keeps its limits and drives as collections (not views): outside the stored text
        leaked = [k for k in keys if k[-1] in stored_names and k[0] != "joint"]
        assert not leaked, (ob.name, leaked)
        if ob.gltf_physics.values_json:
            checked += 1
            data = json.loads(ob.gltf_physics.values_json)
            assert data["layout"] == 1
            assert ob.gltf_physics.role == data.get("role", "NONE")
    assert checked


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
