"""Simulated checks: import, step consecutive frames headless, measure the glTF joint frames on the moving bodies."""

from __future__ import annotations

import math

import bpy
import pytest
from mathutils import Matrix, Vector

from joint_helpers import constraints, import_gltf, step
from testkit import CORPUS, fixture

FRAMES = 60


def body(node_index: int):
    """The Blender object carrying the rigid body of glTF node ``node_index``."""
    (ob,) = [o for o in bpy.context.scene.objects if o.rigid_body and o.gltf_physics.node_index == node_index]
    return ob


def world(ob) -> Matrix:
    return ob.evaluated_get(bpy.context.evaluated_depsgraph_get()).matrix_world.copy()


def to_gltf(v: Vector) -> Vector:
    """Blender world (x, y, z) → glTF world (x, z, −y)."""
    return Vector((v.x, v.z, -v.y))


class Tracker:
    """A point rigidly attached to a body at load time, followed through the simulation."""

    def __init__(self, ob, point_world: Vector):
        self.ob = ob
        self.local = world(ob).inverted() @ point_world

    def now(self) -> Vector:
        return world(self.ob) @ self.local


def frame_points():
    """Trackers for glTF frame A (on object1) and frame B (on object2) of the scene's joint."""
    c = constraints("JOINT")[0]
    pj = c.gltf_physics.joint
    a = Tracker(c.rigid_body_constraint.object1, pj.node_a.matrix_world.translation.copy())
    b = Tracker(c.rigid_body_constraint.object2, pj.node_b.matrix_world.translation.copy())
    return a, b


def test_fixed_joint_keeps_frames_together_while_both_bodies_fall(clean):
    import_gltf(clean, fixture("joints/welded_falling.gltf"))
    scene = bpy.context.scene
    a, b = frame_points()
    start = a.now().copy()
    gaps = []
    for frame in range(scene.frame_start, scene.frame_start + FRAMES):
        scene.frame_set(frame)
        gaps.append((a.now() - b.now()).length)
    assert max(gaps) < 1e-3
    assert (start - a.now()).length > 1.0  # both bodies really fell (free fall ≈ 6 m in 60 frames)


@pytest.mark.corpus
def test_conformance_fixed_joint_holds_the_box(clean):
    import_gltf(clean, CORPUS / "glTF_Physics/tests/RigidBodies_Joint/RigidBodies_Joint_00.gltf")
    scene = bpy.context.scene
    a, b = frame_points()
    for frame in range(scene.frame_start, scene.frame_start + FRAMES):
        scene.frame_set(frame)
        assert (a.now() - b.now()).length < 1e-3


def test_non_coincident_fixed_frames_are_pulled_together_as_the_file_says(clean):
    report = import_gltf(clean, fixture("joints/offset_fixed.gltf"))
    empty = constraints("JOINT")[0]
    c = empty.rigid_body_constraint
    # locked at the load-time offset (frame B 0.1 m along glTF Z), so Bullet closes the gap
    assert c.type == "SLIDER" and c.use_limit_lin_x
    assert (c.limit_lin_x_lower, c.limit_lin_x_upper) == pytest.approx((-0.1, -0.1), abs=1e-6)
    assert tuple(to_gltf(empty.matrix_world.to_3x3().col[0])) == pytest.approx((0, 0, 1), abs=1e-6)
    a, b = frame_points()
    assert (a.now() - b.now()).length == pytest.approx(0.1, abs=1e-6)
    step(bpy.context.scene, FRAMES)
    assert (a.now() - b.now()).length < 1e-3
    assert not [d for d in report.diagnostics if d.severity >= 2]


def _twist_about_gltf_x(ob, pivot: Vector) -> float:
    r = to_gltf(world(ob).translation - pivot)
    return math.atan2(-r.y, r.z)  # body starts on +Z (glTF); a positive turn about +X moves it to −Y


def test_hinge_turns_about_its_axis(clean):
    import_gltf(clean, fixture("joints/hinge_x.gltf"))  # static pivot, body 1 m along +Z, hinge about glTF X
    scene = bpy.context.scene
    box = body(2)
    pivot = constraints("JOINT")[0].matrix_world.translation.copy()
    start = to_gltf(world(box).translation - pivot)
    twists = []
    for frame in range(scene.frame_start, scene.frame_start + FRAMES):
        scene.frame_set(frame)
        now = to_gltf(world(box).translation - pivot)
        assert now.x == pytest.approx(start.x, abs=1e-3)  # stays in the plane normal to the hinge axis
        assert math.hypot(now.y, now.z) == pytest.approx(math.hypot(start.y, start.z), abs=2e-3)
        rot_axis, angle = world(box).to_quaternion().to_axis_angle()
        if angle > 0.1:
            assert abs(to_gltf(rot_axis).x) == pytest.approx(1.0, abs=1e-3)  # it turns about glTF X only
        twists.append(_twist_about_gltf_x(box, pivot))
    assert max(twists) > 1.4  # gravity (−Y) swings the pendulum down: a positive twist about +X


def test_limited_hinge_stops_at_the_files_maximum(clean):
    import_gltf(clean, fixture("joints/hinge_x_limited.gltf"))
    c = constraints("JOINT")[0].rigid_body_constraint
    assert c.type == "HINGE" and c.use_limit_ang_z
    assert (c.limit_ang_z_lower, c.limit_ang_z_upper) == pytest.approx((-0.4, 0.2))  # glTF [-0.2, 0.4] negated
    pivot = constraints("JOINT")[0].matrix_world.translation.copy()
    step(bpy.context.scene, 90)
    assert _twist_about_gltf_x(body(2), pivot) == pytest.approx(0.4, abs=0.06)


def test_angular_motor_spins_in_the_drives_direction(clean):
    import_gltf(clean, fixture("joints/motor_y.gltf"))  # hinge about glTF Y, velocity target +1 rad/s
    scene = bpy.context.scene
    box = body(2)
    pivot = constraints("JOINT")[0].matrix_world.translation.copy()
    step(scene, 48)  # 2 s at 24 fps
    r = to_gltf(world(box).translation - pivot)
    angle = math.atan2(-r.z, r.x)  # body starts on +X; a positive turn about +Y moves it to −Z
    assert 1.5 < angle < 2.1


def test_linear_motor_pushes_along_the_drive_axis(clean):
    import_gltf(clean, fixture("joints/motor_linear_x.gltf"))  # slider along glTF X, velocity target +0.5 m/s
    box = body(2)
    start = to_gltf(world(box).translation)
    step(bpy.context.scene, 48)
    moved = to_gltf(world(box).translation) - start
    assert moved.x == pytest.approx(1.0, abs=0.15)
    assert abs(moved.y) < 1e-2 and abs(moved.z) < 1e-2


def test_slider_range_holds_in_the_files_frame(clean):
    import_gltf(clean, fixture("joints/slider_y.gltf"))  # glTF Y ∈ [-0.5, 0.25]: gravity pulls B to −0.5
    c = constraints("JOINT")[0].rigid_body_constraint
    assert c.type == "SLIDER"
    a, b = frame_points()
    step(bpy.context.scene, FRAMES)
    d = to_gltf(b.now() - a.now())
    assert d.y == pytest.approx(-0.5, abs=0.03)
    assert abs(d.x) < 1e-3 and abs(d.z) < 1e-3


def test_filters_simulate_ghost_passes_through_ground(clean):
    import_gltf(clean, fixture("joints/filters.gltf"))
    step(bpy.context.scene, FRAMES)
    ghost, plain = body(1), body(5)
    assert world(ghost).translation.z < -1.0  # notCollideWith 'world': falls through the ground
    assert world(plain).translation.z == pytest.approx(0.25, abs=0.08)  # rests on the 0.2 m ground slab
