"""Import of a file whose strings Blender cannot hold (issue 11, item 5): a lone UTF-16 surrogate ("\\ud800", valid
JSON, not encodable in UTF-8) in a node name, a shape type and a filter's collision system. The import finishes,
the report names the problems with the surrogate escaped visibly, and an export writes the original value back."""

from __future__ import annotations

import json

import bpy

from blenderkit import submodule
from export_helpers import export
from testkit import fixture

NODE = "Gh\ud800ost"
SHAPE_TYPE = "bo\ud800x"
SYSTEM = "gh\udc00ost"


def _hostile_file(tmp_path):
    doc = json.loads(fixture("joints/filters.gltf").read_text(encoding="utf-8"))
    doc["nodes"][1]["name"] = NODE
    doc["extensions"]["KHR_implicit_shapes"]["shapes"].append({"type": SHAPE_TYPE})
    doc["nodes"][5]["extensions"]["KHR_physics_rigid_bodies"]["collider"]["geometry"]["shape"] = 2
    doc["extensions"]["KHR_physics_rigid_bodies"]["collisionFilters"][1]["collisionSystems"] = [SYSTEM]
    doc["extensions"]["KHR_physics_rigid_bodies"]["collisionFilters"][1]["name"] = "filter\ud800\n"
    doc["scenes"][0]["name"] = "scene\udfff"
    path = tmp_path / "hostile.gltf"
    path.write_text(json.dumps(doc), encoding="utf-8")  # ensure_ascii: the surrogates are \\uXXXX escapes
    return path


def test_lone_surrogates_import_reports_and_export_keeps_them(clean, tmp_path):
    assert bpy.ops.import_scene.gltf(filepath=str(_hostile_file(tmp_path))) == {"FINISHED"}
    report = submodule(clean, "io.hooks").last_report("import")
    texts = [str(d) for d in report.diagnostics]
    assert any("\\ud800" in text and "GLTF_PHYSICS_UNKNOWN_SHAPE_TYPE" in text for text in texts), texts
    assert all(text.encode("utf-8") for text in texts)  # no lone surrogate left in what reaches the console
    assert not [text for text in texts if "IMPORT_FAILED" in text], texts  # names stored escaped, never a failure
    lines = submodule(clean, "io.importer.pipeline").summary_lines(report)
    assert lines and all(text.encode("utf-8") for _, text in lines)
    ghost = bpy.data.objects["Gh\\ud800ost"]  # the Blender name is escaped visibly
    assert ghost.rigid_body is not None and json.loads(ghost.gltf_physics.file_name) == NODE
    assert bpy.data.objects["Ghost2"].gltf_physics.collider.filter.name == "filter\\ud800\\n"
    assert bpy.data.objects["Ghost2"].rigid_body is not None
    written = export(tmp_path / "back.gltf", "2026")
    names = [node.get("name") for node in written["nodes"]]
    assert NODE in names, names
    systems = [
        system
        for flt in written["extensions"]["KHR_physics_rigid_bodies"].get("collisionFilters", [])
        for key in ("collisionSystems", "notCollideWithSystems", "collideWithSystems")
        for system in flt.get(key, [])
    ]
    assert SYSTEM in systems, systems


def test_renamed_object_exports_its_new_name(clean, tmp_path):
    assert bpy.ops.import_scene.gltf(filepath=str(_hostile_file(tmp_path))) == {"FINISHED"}
    bpy.data.objects["Gh\\ud800ost"].name = "Renamed"
    written = export(tmp_path / "renamed.gltf", "2026")
    names = [node.get("name") for node in written["nodes"]]
    assert "Renamed" in names and NODE not in names
