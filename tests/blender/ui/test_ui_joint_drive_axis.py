"""The joint panel's drive preview turns an angular drive about the glTF axis of frame A, whatever axis permutation
the import gave the constraint Empty (``joints_to_blender.empty_matrix``: Empty = C·A·P(perm))."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

from blenderkit import submodule
from joint_helpers import constraints, import_gltf
from testkit import fixture, read_json

ANGULAR_LOCKS = {  # limits besides the locked translation; the drive turns about ``axis``
    "hinge": lambda axis: [{"angularAxes": [a for a in range(3) if a != axis], "min": 0.0, "max": 0.0}],
    "generic": lambda axis: [],
}


def _joint_file(tmp_path, axis: int, locks: str, rotation) -> str:
    gltf = read_json(fixture("joints/motor_y.gltf"))
    description = gltf["extensions"]["KHR_physics_rigid_bodies"]["physicsJoints"][0]
    description["limits"] = [{"linearAxes": [0, 1, 2], "min": 0.0, "max": 0.0}, *ANGULAR_LOCKS[locks](axis)]
    description["drives"][0]["axis"] = axis
    gltf["nodes"][1]["rotation"] = list(rotation)  # frame A turned, so every glTF axis has its own direction
    path = tmp_path / "drive.gltf"
    path.write_text(json.dumps(gltf), encoding="utf-8")
    return path


@pytest.mark.parametrize("locks", sorted(ANGULAR_LOCKS))
@pytest.mark.parametrize("axis", [0, 1, 2])
def test_angular_drive_preview_uses_the_glTF_axis_of_frame_a(clean, tmp_path, monkeypatch, axis, locks):
    h = math.sqrt(0.5)
    import_gltf(clean, _joint_file(tmp_path, axis, locks, (0.0, 0.0, h, h)))  # +90° about glTF Z
    (empty,) = constraints("JOINT")
    pj = empty.gltf_physics.joint
    node_a = pj.node_a
    assert node_a is not None and node_a.name == "FrameA"
    # glTF axis k of frame A in Blender world, from the file: frame A = body A's node (Blender matrix C·W·Cᵀ) · the
    # joint node's rotation R, so C·W·R·e_k = M_body·C·R·e_k (the joint node's own Empty now carries the constraint)
    c = submodule(clean, "io.mapping.axes").AXIS_CHANGE[:3, :3]
    turn = np.array([[0.0, -1.0, 0.0], [1.0, 0.0, 0.0], [0.0, 0.0, 1.0]])  # +90° about glTF Z
    expected = np.array(node_a.parent.matrix_world.to_3x3()) @ c @ turn[:, axis]
    seen = []
    readout = submodule(clean, "ui.readout")
    monkeypatch.setattr(readout, "angular_effective_inertia", lambda a, inverse: seen.append(a) or 1.0)
    panels_joint = submodule(clean, "ui.joint.panels_joint")
    panels_joint.drive_effective_mass(empty, pj.drives[0], 1000.0)
    (axis_world,) = seen
    np.testing.assert_allclose(axis_world, expected / np.linalg.norm(expected), atol=1e-6)
