"""Blender settings glTF cannot hold are listed in the export summary (issue 12 item 3): one line per setting not
at Blender's default — damping whenever it is not 0, Blender's own default 0.04 / 0.1 included."""

from __future__ import annotations

import bpy

from blenderkit import submodule
from export_helpers import export, last_export
from scene_helpers import constraint, rigid_body_world, rigid_box

CODE = "GLTF_PHYSICS_EXPORT_NOT_WRITTEN"


def _summary(addon) -> list[str]:
    lines = submodule(addon, "io.exporter.pipeline").export_summary_lines(last_export(addon), "2026")
    return [text for level, text in lines if level == "INFO" and "not written" in text]


def _notes(addon) -> list[str]:
    return [d.message for d in last_export(addon).diagnostics if d.code == CODE]


def test_default_damping_is_listed_and_zero_damping_is_not(clean, tmp_path):
    rbw = rigid_body_world(bpy.context.scene)
    rigid_box(rbw, "Damped")
    still = rigid_box(rbw, "Undamped", location=(3, 0, 0))
    still.rigid_body.linear_damping = still.rigid_body.angular_damping = 0.0
    rigid_box(rbw, "Ground", kind="PASSIVE", location=(0, 0, -3))  # static: damping does not matter
    export(tmp_path / "damping.gltf", "2026")
    (line,) = _summary(clean)
    assert "damping" in line and "'Damped'" in line
    assert "Undamped" not in line and "Ground" not in line


def test_each_unwritten_setting_gets_one_line(clean, tmp_path):
    rbw = rigid_body_world(bpy.context.scene)
    a = rigid_box(rbw, "A")
    b = rigid_box(rbw, "B", location=(3, 0, 0), shape="CONVEX_HULL")
    for ob in (a, b):
        ob.rigid_body.linear_damping = ob.rigid_body.angular_damping = 0.0
    a.rigid_body.use_margin, a.rigid_body.collision_margin = True, 0.1
    b.rigid_body.use_deactivation = True  # off for new bodies
    b.rigid_body.mesh_source = "FINAL"
    b.modifiers.new("Bevel", "BEVEL")
    a.rigid_body.enabled = False
    joint = constraint(rbw, "Joint", a, b, "FIXED")
    joint.use_override_solver_iterations = True
    export(tmp_path / "settings.gltf", "2026")
    notes = _notes(clean)
    assert len(notes) == 5 and len(_summary(clean)) == 5
    expected = {
        "collision margin": "'A'",
        "Dynamic off": "'A'",
        "deactivation": "'B'",
        "collision source": "'B'",
        "solver": "'Joint'",
    }
    for key, name in expected.items():
        (note,) = [n for n in notes if key in n]
        assert name in note


def test_many_bodies_are_counted_not_all_named(clean, tmp_path):
    rbw = rigid_body_world(bpy.context.scene)
    for i in range(5):
        rigid_box(rbw, f"Box{i}", location=(2 * i, 0, 0))
    export(tmp_path / "many.gltf", "2026")
    (line,) = _summary(clean)
    assert line.endswith("and 2 more")
