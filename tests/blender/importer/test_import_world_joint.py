"""A joint whose two sides are the world (no body at or above either node: valid physics that constrains nothing,
as the validator corpus's ``joint_custom_property.gltf``) is kept on its node's Empty and written back on export, so
glTF → glTF loses nothing and ``convert --strict`` passes it (issue 34; before: skipped, a loss)."""

from __future__ import annotations

import bpy

from export_helpers import export
from reproduce_kit import RB, import_file, write

DESCRIPTION = {"limits": [{"linearAxes": [0]}], "name": "Slide"}


def _file(tmp_path):
    nodes = [
        {
            "name": "Frame",
            "translation": [1.0, 2.0, 3.0],
            "extensions": {RB: {"joint": {"connectedNode": 1, "joint": 0}}},
        },
        {"name": "Other", "translation": [1.0, 2.0, 3.5]},
    ]
    return write(tmp_path, "world_joint", nodes, physicsJoints=[DESCRIPTION])


def test_a_joint_of_the_world_to_the_world_is_kept_and_written_back(clean, tmp_path):
    import_file(_file(tmp_path))
    frame = bpy.data.objects["Frame"]
    assert frame.gltf_physics.joint.role == "JOINT" and frame.rigid_body_constraint is None  # nothing simulated
    written = export(tmp_path / "back.gltf", "2026")
    nodes = {n["name"]: n for n in written["nodes"]}
    joint = nodes["Frame"]["extensions"][RB]["joint"]
    assert written["nodes"][joint["connectedNode"]]["name"] == "Other"
    limits = [{"damping": 0, "linearAxes": [0]}]  # the writer always writes a limit's damping (default 0)
    assert written["extensions"][RB]["physicsJoints"][joint["joint"]] == {**DESCRIPTION, "limits": limits}
    assert nodes["Frame"]["translation"] == [1, 2, 3] and "rotation" not in nodes["Frame"]  # turned back
    assert "extensions" not in nodes["Other"]
