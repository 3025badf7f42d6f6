"""A leaf joint node carries its own constraint in Blender, turned to the constraint's axes (C·A·P); export writes
the node back at the file's transform (``exporter.joints.restore_nodes``), also after a Joint-panel edit turned it
again, and at the scene root."""

from __future__ import annotations

import json
import math

import bpy
import numpy as np
import pytest

from export_helpers import export
from joint_helpers import constraints, import_gltf
from testkit import FIXTURES

RB = "KHR_physics_rigid_bodies"
TURN = (0.1, 0.2, 0.3, math.sqrt(1.0 - 0.14))  # frame A turned so that no axis lies on another
TRS = {"translation": [0.1, 0.2, 0.3], "rotation": list(TURN), "scale": [1.0, 2.0, 0.5]}


def _file(tmp_path, root: bool = False):
    gltf = json.loads((FIXTURES / "joints/hinge_x_limited.gltf").read_text(encoding="utf-8"))
    gltf["nodes"][1].update(TRS)
    gltf["nodes"][3].update(translation=[0.1, 0.2, -0.7], rotation=list(TURN))  # frame B on frame A (no offset)
    if root:  # FrameA leaves BodyA for the scene root: body A's side of the joint is the world
        gltf["nodes"][0].pop("children")
        gltf["scenes"][0]["nodes"].append(1)
    path = tmp_path / "turned.gltf"
    path.write_text(json.dumps(gltf), encoding="utf-8")
    return path


def _node(out, name):
    return next(n for n in out["nodes"] if n.get("name") == name)


def _assert_file_transform(node) -> None:
    for key, value in TRS.items():
        np.testing.assert_allclose(node[key], value, atol=2e-6, err_msg=key)


@pytest.mark.parametrize("root", [False, True], ids=["under_body", "scene_root"])
def test_a_turned_joint_node_exports_at_its_file_transform(clean, tmp_path, root):
    import_gltf(clean, _file(tmp_path, root))
    (joint,) = constraints("JOINT")
    assert joint.name == "FrameA" and joint.gltf_physics.joint.is_node
    out = export(tmp_path / "out.gltf", "2026")
    frame_a = _node(out, "FrameA")
    _assert_file_transform(frame_a)
    written = frame_a["extensions"][RB]["joint"]
    assert out["nodes"][written["connectedNode"]]["name"] == "FrameB"
    assert not any(n.get("name", "").endswith((".joint", ".frameA")) for n in out["nodes"])


def test_a_panel_edit_that_turns_the_joint_node_still_exports_its_file_transform(clean, tmp_path):
    import_gltf(clean, _file(tmp_path))
    (joint,) = constraints("JOINT")
    pj = joint.gltf_physics.joint
    before = np.array(joint.matrix_world)
    locked = next(limit for limit in pj.limits if limit.kind == "ANGULAR" and limit.axes[1] and limit.axes[2])
    free = next(limit for limit in pj.limits if limit.kind == "ANGULAR" and limit.axes[0])
    assert joint.rigid_body_constraint.type == "HINGE" and pj.planned_axis == 1  # about glTF X: the Empty's Z
    locked.axes, free.axes = (True, True, False), (False, False, True)  # the hinge goes from glTF X to glTF Z
    assert joint.rigid_body_constraint.type == "HINGE" and pj.planned_axis == 0
    bpy.context.view_layer.update()
    assert not np.allclose(np.array(joint.matrix_world)[:3, :3], before[:3, :3], atol=1e-3)  # the Empty turned
    np.testing.assert_allclose(np.array(joint.matrix_world)[:3, 3], before[:3, 3], atol=1e-6)  # about its origin
    out = export(tmp_path / "edited.gltf", "2026")
    _assert_file_transform(_node(out, "FrameA"))
    joint_json = _node(out, "FrameA")["extensions"][RB]["joint"]
    description = out["extensions"][RB]["physicsJoints"][joint_json["joint"]]
    free_axes = [lim for lim in description["limits"] if lim.get("angularAxes") == [2]]
    assert free_axes and free_axes[0]["max"] == pytest.approx(0.4)


def test_physics_export_off_writes_the_turned_node_as_blender_holds_it(clean, tmp_path):
    """Without physics export nothing is restored: the node is written as the Empty stands (documented)."""
    import_gltf(clean, _file(tmp_path))
    out = export(tmp_path / "plain.gltf", "2026", physics=False)
    rotation = _node(out, "FrameA").get("rotation")
    assert rotation is not None and not np.allclose(rotation, TRS["rotation"], atol=1e-3)


def test_a_joint_node_without_permutation_turns_from_the_identity_on_a_panel_edit(clean, tmp_path):
    """A hinge about glTF Z needs no permutation: nothing is stored for it; editing it into a hinge about glTF X
    turns the node from there, and export still writes the file's transform."""
    gltf = json.loads((FIXTURES / "joints/hinge_z.gltf").read_text(encoding="utf-8"))
    gltf["nodes"][1].update(TRS)
    gltf["nodes"][3].update(translation=[-0.9, 0.2, 0.3], rotation=list(TURN))  # frame B on frame A
    path = tmp_path / "hinge_z.gltf"
    path.write_text(json.dumps(gltf), encoding="utf-8")
    import_gltf(clean, path)
    (joint,) = constraints("JOINT")
    pj = joint.gltf_physics.joint
    assert joint.rigid_body_constraint.type == "HINGE" and pj.is_node and pj.planned_axis == -1
    hinge_before = np.array(joint.matrix_world)[:3, 2].copy()  # Blender's hinge turns about the Empty's Z
    locked = next(limit for limit in pj.limits if limit.kind == "ANGULAR")
    locked.axes = (False, True, True)  # lock Y and Z …
    item = pj.limits.add()
    item.kind, item.axes = "ANGULAR", (True, False, False)  # … and leave X free: a hinge about glTF X
    bpy.context.view_layer.update()
    assert joint.rigid_body_constraint.type == "HINGE" and pj.planned_axis == 1
    hinge_after = np.array(joint.matrix_world)[:3, 2]
    assert (
        abs(float(np.dot(hinge_before / np.linalg.norm(hinge_before), hinge_after / np.linalg.norm(hinge_after))))
        < 1e-3
    )
    out = export(tmp_path / "edited.gltf", "2026")
    _assert_file_transform(_node(out, "FrameA"))
