"""Messages a user can act on (issue 34, item 7): no Python exception text in a diagnostic. A stored collision
filter a script broke (not JSON) used to drop the whole collider with ``collider failed: JSONDecodeError: …``; the
collider is now written without its filter, with a sentence at the filter's pointer. A step that raises (a bug) is
one sentence naming what was left out; the exception itself goes to the console."""

from __future__ import annotations

import re

import bpy

from blenderkit import submodule
from export_helpers import export, last_export
from joint_helpers import import_gltf
from testkit import FIXTURES

RB = "KHR_physics_rigid_bodies"
PYTHON_TEXT = re.compile(r"\b\w*(Error|Exception)\b:|Traceback|line \d+ column \d+")


def _python_text(diagnostics) -> list[str]:
    return [str(d) for d in diagnostics if PYTHON_TEXT.search(d.message)]


def test_an_unreadable_stored_filter_keeps_the_collider(clean, tmp_path):
    import_gltf(clean, FIXTURES / "joints" / "filters.gltf")
    bpy.data.objects["TeamA"].gltf_physics.collider.filter.collision_systems = "{not json"
    written = export(tmp_path / "out.gltf", "2026")
    report = last_export(clean)
    assert not _python_text(report.diagnostics)
    assert not [
        d for d in report.diagnostics if d.code in ("GLTF_PHYSICS_EXPORT_FAILED", "GLTF_PHYSICS_INTERNAL_ERROR")
    ]
    team_a = next(n for n in written["nodes"] if n.get("name") == "TeamA")
    collider = team_a["extensions"][RB]["collider"]
    assert "geometry" in collider and "collisionFilter" not in collider  # kept, without the broken filter
    (said,) = [d for d in report.diagnostics if d.pointer.endswith("/collider/collisionFilter")]
    assert (said.code, said.severity.name) == ("GLTF_PHYSICS_EXPORT_STORED_UNREADABLE", "WARNING")
    assert "TeamA" in said.message and "not readable" in said.message and "without its filter" in said.message


def test_a_failing_step_is_one_sentence_without_the_exception(clean, tmp_path, monkeypatch):
    import_gltf(clean, FIXTURES / "joints" / "filters.gltf")
    bodies = submodule(clean, "io.exporter.bodies")

    def broken(*args):
        raise KeyError("internal detail")

    monkeypatch.setattr(bodies, "assign_native_filters", broken)
    export(tmp_path / "out.gltf", "2026")
    report = last_export(clean)
    (failed,) = [d for d in report.diagnostics if d.code == "GLTF_PHYSICS_EXPORT_FAILED"]
    assert "internal detail" not in failed.message and "KeyError" not in failed.message
    assert failed.message.startswith("collision filters") and "console" in failed.message
