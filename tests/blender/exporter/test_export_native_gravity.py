"""The rigid-body world's gravity weight (Field Weights > Gravity × All) is baked into every native dynamic body's
``gravityFactor`` (issue 33 item 1 (b)): a body falling freely in Blender falls as the file's ``gravityFactor`` says."""

from __future__ import annotations

import bpy
import pytest

from export_helpers import export
from scene_helpers import rigid_body_world, rigid_box

RB = "KHR_physics_rigid_bodies"
G = 9.81


def _motion(gltf: dict, name: str) -> dict:
    (node,) = [n for n in gltf["nodes"] if n.get("name") == name]
    return node["extensions"][RB]["motion"]


@pytest.mark.parametrize("gravity, everything", [(0.5, 1.0), (1.0, 0.5), (0.5, 0.5), (1.0, 1.0)])
def test_the_world_gravity_weight_becomes_each_dynamic_bodys_gravity_factor(clean, tmp_path, gravity, everything):
    rbw = rigid_body_world(bpy.context.scene)
    faller = rigid_box(rbw, "Faller")
    faller.rigid_body.linear_damping = 0.0
    lift = rigid_box(rbw, "Lift", location=(3, 0, 0))
    lift.rigid_body.kinematic = True  # animated: gravity does not move it
    rbw.effector_weights.gravity, rbw.effector_weights.all = gravity, everything
    gltf = export(tmp_path / "weight.gltf", "2026")
    factor = _motion(gltf, "Faller").get("gravityFactor", 1.0)
    assert factor == pytest.approx(gravity * everything)
    assert "gravityFactor" not in _motion(gltf, "Lift")
    rbw.point_cache.frame_end = 30
    for frame in range(1, 26):  # one second at 24 frames per second
        bpy.context.scene.frame_set(frame)
    fallen = -faller.matrix_world.translation.z
    assert fallen == pytest.approx(0.5 * G * factor, rel=0.03)  # what an engine plays from the file
