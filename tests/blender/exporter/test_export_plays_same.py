"""Scenes authored in Blender play the same after export and import (issue 12, "Done when").

Each scene is built natively, played in Blender, exported (KHR 2026, default options), imported into an empty scene
and played again: every body ends within 0.05 m / 5° of where it ended the first time. Blender re-simulates the
file, so this checks that everything Blender simulated reached the file: collision collections (disjoint, nested,
overlapping, chains: bodies that must fall through the ground really do, both times), an off-centre triangle mesh,
and a capsule spun about each of its axes by a torque-limited motor (the spin rate depends on its inertia).
"""

from __future__ import annotations

import math

import bpy
import pytest

from blenderkit import empty_scene
from export_helpers import export
from scene_helpers import box_object, constraint, rigid_body_world, rigid_box

FRAMES = 50
GROUND = {"size": (14, 14, 1), "location": (0, 0, -0.5)}

# name → (collision collections, location); the ground is always "Ground".
COLLECTION_SCENES = {
    "disjoint": {
        "Ground": ({0}, None),
        "Rests": ({0}, (-3, 0, 1.0)),
        "Falls": ({1}, (3, 0, 1.0)),
        "FallsToo": ({1}, (3, 0, 2.5)),  # meets "Falls" (same collection): both fall through the ground together
    },
    "nested": {
        "Ground": ({0}, None),
        "Outer": ({0, 1}, (0, 0, 1.0)),
        "Inner": ({1}, (0, 0, 2.5)),  # rests on "Outer", not on the ground
        "Falls": ({1}, (4, 0, 1.0)),
    },
    "overlapping": {
        "Ground": ({1}, None),
        "Box": ({1, 3}, (0, 0, 1.0)),
        "BoxesA": ({3}, (4, 0, 1.0)),
        "BoxesB": ({3}, (-4, 0, 1.0)),
    },
    "chain": {
        "Ground": ({0}, None),
        "A": ({0, 1}, (0, 0, 1.0)),
        "B": ({1, 2}, (0, 0, 2.5)),
        "C": ({2, 3}, (0, 0, 4.0)),
        "D": ({3}, (4, 0, 1.0)),  # shares nothing with the ground: falls
    },
}


def _collection_scene(kind: str) -> tuple[str, ...]:
    rbw = rigid_body_world()
    names = []
    for name, (collections, location) in COLLECTION_SCENES[kind].items():
        if location is None:
            ob = rigid_box(rbw, name, GROUND["size"], kind="PASSIVE", location=GROUND["location"])
        else:
            ob = rigid_box(rbw, name, (1, 1, 1), location=location)
            names.append(name)
        ob.rigid_body.collision_collections = [i in collections for i in range(20)]
    _no_damping(rbw)
    return tuple(names)


def _off_centre_mesh_scene() -> tuple[str, ...]:
    rbw = rigid_body_world()
    rigid_box(rbw, "Ground", GROUND["size"], kind="PASSIVE", location=GROUND["location"])
    ob = box_object("OffMesh", (0.5, 0.5, 1.2), offset=(0.45, 0, 0), location=(0, 0, 0.65))
    rbw.collection.objects.link(ob)
    ob.rigid_body.collision_shape = "MESH"
    _no_damping(rbw)
    return ("OffMesh",)


def _spun_capsule_scene(axis: int) -> tuple[str, ...]:
    """A capsule in zero gravity torqued about one of its axes through a MOTOR (max impulse 0.25)."""
    scene = bpy.context.scene
    scene.gravity = (0.0, 0.0, 0.0)
    rbw = rigid_body_world(scene)
    anchor = rigid_box(rbw, "Anchor", (0.2, 0.2, 0.2), kind="PASSIVE", location=(0, 0, 8))
    anchor.rigid_body.collision_collections = [i == 19 for i in range(20)]
    capsule = rigid_box(rbw, "Capsule", (0.6, 0.6, 2.0), shape="CAPSULE", mass=2.0)
    rotation = [(0, 0, 0), (0, 0, math.pi / 2), (0, -math.pi / 2, 0)][axis]  # the motor turns about its X
    motor = constraint(rbw, "Motor", anchor, capsule, "MOTOR", rotation=rotation)
    motor.use_motor_ang = True
    motor.motor_ang_target_velocity = 50.0
    motor.motor_ang_max_impulse = 0.25
    _no_damping(rbw)
    return ("Capsule",)


def _no_damping(rbw) -> None:
    """glTF has no damping and the import sets none: the native scene must not damp either (docs/export.md)."""
    for ob in rbw.collection.objects:
        ob.rigid_body.linear_damping = ob.rigid_body.angular_damping = 0.0
        ob.rigid_body.use_deactivation = False


def _play(names) -> dict:
    scene = bpy.context.scene
    scene.frame_end = scene.rigidbody_world.point_cache.frame_end = FRAMES
    for frame in range(1, FRAMES + 1):
        scene.frame_set(frame)
    return {n: bpy.data.objects[n].matrix_world.copy() for n in names}


def _play_export_import_play(tmp_path, names) -> tuple[dict, dict, dict]:
    scene = bpy.context.scene
    scene.frame_set(1)
    before = _play(names)
    scene.frame_set(1)
    gltf = export(tmp_path / "scene.gltf", "2026")
    gravity = tuple(scene.gravity)
    empty_scene()
    bpy.context.scene.gravity = gravity  # glTF has no world gravity: the test keeps Blender's
    assert bpy.ops.import_scene.gltf(filepath=str(tmp_path / "scene.gltf")) == {"FINISHED"}
    return before, _play(names), gltf


def _assert_same_end(before: dict, after: dict) -> None:
    for name, a in before.items():
        b = after[name]
        assert (a.translation - b.translation).length < 0.05, (name, a.translation, b.translation)
        angle = a.to_quaternion().rotation_difference(b.to_quaternion()).angle
        assert math.degrees(min(angle, 2 * math.pi - angle)) < 5.0, (name, math.degrees(angle))


FALLS = {"disjoint": ("Falls", "FallsToo"), "nested": ("Falls",), "overlapping": ("BoxesA", "BoxesB"), "chain": ("D",)}


@pytest.mark.parametrize("kind", sorted(COLLECTION_SCENES))
def test_collision_collections_play_the_same(clean, tmp_path, kind):
    names = _collection_scene(kind)
    before, after, _ = _play_export_import_play(tmp_path, names)
    for name in names:  # the scene really separates bodies: some fall through the ground, the others stay above
        falls = name in FALLS[kind]
        assert (before[name].translation.z < -1.0) == falls, (kind, name, before[name].translation.z)
    _assert_same_end(before, after)


def test_off_centre_mesh_tips_over_the_same(clean, tmp_path):
    before, after, gltf = _play_export_import_play(tmp_path, _off_centre_mesh_scene())
    node = next(n for n in gltf["nodes"] if n.get("name") == "OffMesh")
    assert node["extensions"]["KHR_physics_rigid_bodies"]["motion"]["centerOfMass"] == [0, 0, 0]
    assert before["OffMesh"].to_quaternion().angle > math.radians(30)  # it really tipped over
    _assert_same_end(before, after)


@pytest.mark.parametrize("axis", [0, 1, 2], ids=["x", "y", "z"])
def test_capsule_spun_about_each_axis_turns_the_same(clean, tmp_path, axis):
    before, after, _ = _play_export_import_play(tmp_path, _spun_capsule_scene(axis))
    turned = before["Capsule"].to_quaternion().angle
    assert math.radians(20) < turned, math.degrees(turned)  # torque-limited: far below 50 rad/s
    _assert_same_end(before, after)


def _inverted_limit_scene(kind: str) -> tuple[str, ...]:
    """A box beside a passive anchor on a ``kind`` constraint whose one limited axis has lower > upper: Bullet
    leaves such an axis free (the box falls or swings through), the other axes stay held."""
    rbw = rigid_body_world()
    anchor = rigid_box(rbw, "Anchor", (0.2, 0.2, 0.2), kind="PASSIVE", location=(0, 0, 0))
    box = rigid_box(rbw, "Box", (0.4, 0.4, 0.4), location=(1.0, 0, 0))
    for ob in (anchor, box):
        ob.rigid_body.collision_collections = [False] * 20
    if kind == "HINGE":  # hinge axis (the Empty's Z) along world Y: the box swings down about it
        c = constraint(rbw, "Joint", anchor, box, kind, location=(0.5, 0, 0), rotation=(math.pi / 2, 0, 0))
        c.use_limit_ang_z, c.limit_ang_z_lower, c.limit_ang_z_upper = True, 0.3, -0.3
    elif kind == "SLIDER":  # slide axis (the Empty's X) along world Z: the box falls along it
        c = constraint(rbw, "Joint", anchor, box, kind, location=(0.5, 0, 0), rotation=(0, math.pi / 2, 0))
        c.use_limit_lin_x, c.limit_lin_x_lower, c.limit_lin_x_upper = True, 0.3, -0.3
    else:
        c = constraint(rbw, "Joint", anchor, box, kind, location=(0.5, 0, 0))
        for axis in "xyz":
            for part in ("lin", "ang"):
                setattr(c, f"use_limit_{part}_{axis}", True)
                setattr(c, f"limit_{part}_{axis}_lower", 0.0)
                setattr(c, f"limit_{part}_{axis}_upper", 0.0)
        c.limit_lin_z_lower, c.limit_lin_z_upper = 0.3, -0.3
    _no_damping(rbw)
    return ("Box",)


@pytest.mark.parametrize("kind", ["GENERIC", "HINGE", "SLIDER"])
def test_inverted_limits_are_free_axes_both_times(clean, tmp_path, kind):
    """Found by a sweep of odd native scenes: a limit with lower > upper was written as ``min > max`` (an invalid
    file, KHR_RIGID_BODIES_JOINT_INVALID_RANGE). Blender simulates such an axis as free: it is written free."""
    names = _inverted_limit_scene(kind)
    before, after, gltf = _play_export_import_play(tmp_path, names)
    # past where a ±0.3 limit stops it (a hinge at 0.5 m: z >= -0.5 sin 0.3 = -0.15; a slide: z >= -0.3)
    assert before["Box"].translation.z < -0.31, before["Box"].translation
    for joint in gltf["extensions"]["KHR_physics_rigid_bodies"]["physicsJoints"]:
        for limit in joint.get("limits", []):
            assert limit.get("min", -math.inf) <= limit.get("max", math.inf), limit
    _assert_same_end(before, after)
