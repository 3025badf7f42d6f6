"""Hostile stored texts at export (issue 35, item 5): a diagnostic, never a ``RecursionError``.

Rule checked: a stored collision-filter text (``Object.gltf_physics.collider.filter``) that is JSON nested
thousands of levels deep, or not an array of names, leaves that filter out with a WARNING naming the object; a
passthrough text nested as deep is dropped; the export finishes, every other object is written as before and the
file is valid."""

from __future__ import annotations

import bpy
import pytest

from export_helpers import export, last_export
from joint_helpers import import_gltf
from testkit import FIXTURES

DEEP = "[" * 5000 + "]" * 5000
RB = "KHR_physics_rigid_bodies"


@pytest.mark.parametrize("text", [DEEP, '{"a": 1}', '[["world"]]', "not json"])
def test_unreadable_stored_filter_text_is_a_warning_and_the_export_goes_on(clean, tmp_path, text):
    import_gltf(clean, FIXTURES / "joints" / "filters.gltf")
    ghost = bpy.data.objects["Ghost"].gltf_physics.collider.filter
    assert ghost.has_filter and ghost.collision_systems
    ghost.collision_systems = text
    bpy.data.objects["TeamA"].gltf_physics.collider.passthrough = '{"extras": ' + DEEP + "}"
    document = export(tmp_path / "out.gltf", "2026")
    report = last_export(clean)
    assert not [d for d in report.diagnostics if "RecursionError" in d.message or "INTERNAL" in d.code], report
    (warning,) = [d for d in report.diagnostics if "stored collision filter of 'Ghost'" in d.message]
    assert warning.severity.label == "warning" and warning.pointer.endswith("/collider/collisionFilter")
    nodes = {node["name"]: node for node in document["nodes"]}
    assert "collisionFilter" not in nodes["Ghost"]["extensions"][RB]["collider"]
    assert "collisionFilter" in nodes["TeamA"]["extensions"][RB]["collider"]
    assert "extras" not in nodes["TeamA"]["extensions"][RB]["collider"]
