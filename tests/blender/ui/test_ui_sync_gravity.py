"""An edited gravityFactor redoes the import's world gravity weight rule (``mapping.gravity_weight``): the shared
factor becomes the world's gravity weight (the body then floats, measured), mixed factors take the most common one
and the others are marked "stored only"; export writes the edited factors."""

from __future__ import annotations

import bpy
import pytest

from blenderkit import submodule
from export_helpers import export
from scene_helpers import rigid_body_world, rigid_box

KHR = "KHR_physics_rigid_bodies"


def _step(frames: int) -> None:
    scene = bpy.context.scene
    for frame in range(scene.frame_start, scene.frame_start + frames):  # consecutive: jumping does not simulate
        scene.frame_set(frame)


def _bodies():
    rbw = rigid_body_world()
    out = []
    for n, name in enumerate(("A", "B")):
        ob = rigid_box(rbw, name, location=(3.0 * n, 0.0, 3.0))
        ob.gltf_physics.motion.has_motion = True  # glTF motion present: takes Blender's settings
        out.append(ob)
    return out


def test_shared_gravity_factor_sets_the_world_weight_and_the_body_floats(clean, tmp_path):
    a, b = _bodies()
    world = bpy.context.scene.rigidbody_world
    sync = submodule(clean, "ui.body.sync_body")
    a.gltf_physics.motion.gravity_factor = 0.0  # mixed (0, 1): a tie goes to the factor nearest 1
    assert world.effector_weights.gravity == 1.0
    assert sync.motion_status(a, "gravity_factor") == sync.STORED
    b.gltf_physics.motion.gravity_factor = 0.0  # shared: reproduced exactly
    assert world.effector_weights.gravity == 0.0
    assert sync.motion_status(a, "gravity_factor") == sync.REPRODUCED
    _step(30)
    assert a.matrix_world.translation.z == pytest.approx(3.0, abs=1e-3)
    gltf = export(tmp_path / "gravity.gltf", "2026")
    factors = {n["name"]: n["extensions"][KHR]["motion"].get("gravityFactor") for n in gltf["nodes"]}
    assert factors == {"A": 0.0, "B": 0.0}
    b.gltf_physics.motion.gravity_factor = 1.0  # mixed (0, 1) again: the tie goes to 1
    assert world.effector_weights.gravity == 1.0
    a.gltf_physics.motion.gravity_factor = 1.0  # every factor 1: weight 1
    assert world.effector_weights.gravity == 1.0


def test_most_common_factor_wins_and_option_off_or_gate_leaves_the_world(clean):
    a, b = _bodies()
    c = rigid_box(rigid_body_world(), "C", location=(6.0, 0.0, 3.0))
    c.gltf_physics.motion.has_motion = True
    world = bpy.context.scene.rigidbody_world
    for ob, factor in ((a, 0.5), (b, 0.5), (c, 2.0)):
        ob.gltf_physics.motion.gravity_factor = factor
    assert world.effector_weights.gravity == 0.5
    c.rigid_body.kinematic = True  # an animated body is not dynamic: it does not count
    a.gltf_physics.motion.gravity_factor = 0.25  # (0.25, 0.5) tie → 0.5 (nearest 1)
    assert world.effector_weights.gravity == 0.5
    bpy.context.scene.gltf_physics.import_reproduce = False  # the import option is off: nothing reproduced
    b.gltf_physics.motion.gravity_factor = 0.25
    assert world.effector_weights.gravity == 0.5
    bpy.context.scene.gltf_physics.import_reproduce = True
    with submodule(clean, "io.mapping.sync_gate").paused():
        a.gltf_physics.motion.gravity_factor = 0.75
    assert world.effector_weights.gravity == 0.5
    b.gltf_physics.motion.gravity_factor = 0.75  # (0.75, 0.75): shared
    assert world.effector_weights.gravity == 0.75
