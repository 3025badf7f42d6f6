"""After import the scene simulates: stepping 60 consecutive frames moves dynamic bodies as the file says."""

from __future__ import annotations

import bpy
import pytest

from testkit import FIXTURES

IMPORT = FIXTURES / "import"


def _step(frames: int = 60) -> None:
    scene = bpy.context.scene
    for frame in range(scene.frame_start, scene.frame_start + frames):  # consecutive: jumping does not simulate
        scene.frame_set(frame)


def _z(name: str) -> float:
    return bpy.data.objects[name].matrix_world.translation.z


def test_dynamic_bodies_fall_and_land_on_static_colliders(clean):
    assert bpy.ops.import_scene.gltf(filepath=str(IMPORT / "rev_2024_10.gltf")) == {"FINISHED"}
    start = {name: _z(name) for name in ("Crate", "Rock", "Floor")}
    _step()
    assert _z("Floor") == pytest.approx(start["Floor"])  # passive
    assert _z("Crate") < start["Crate"] - 1.0  # fell from 2 m ...
    assert _z("Crate") == pytest.approx(0.5, abs=0.06)  # ... and rests on the plane quad (half its 1 m size)
    assert 0.0 < _z("Rock") < start["Rock"] - 1.0  # convex hull of the tetrahedron lands too


def test_bodies_on_empty_nodes_and_compounds_simulate(clean):
    assert bpy.ops.import_scene.gltf(filepath=str(IMPORT / "compound.gltf")) == {"FINISHED"}
    start = {name: _z(name) for name in ("Cart", "Passenger")}
    _step()
    for name, z in start.items():
        assert _z(name) < z - 5.0, name  # no ground: free fall (~ g t² / 2 = 15 m after 2.5 s)


def test_kinematic_and_animated_bodies_do_not_fall(clean):
    assert bpy.ops.import_scene.gltf(filepath=str(IMPORT / "animated.gltf")) == {"FINISHED"}
    _step()
    animated = bpy.data.objects["Animated"]
    assert animated.matrix_world.translation.z == pytest.approx(2.0, abs=1e-4)  # glTF y 2 -> Blender z 2
    assert animated.matrix_world.translation.x > 2.0  # keyed from x 0 to 3 over 1 s
    assert _z("Free") < 0.0
