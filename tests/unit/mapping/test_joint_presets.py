"""Add glTF Joint presets → glTF joint descriptions (limits and drives as the spec means them) and the Blender
constraint the importer's mapping plans for each."""

from __future__ import annotations

import math

import pytest

from testkit import submodule

presets = submodule("io.mapping.joint_presets")
jm = submodule("io.mapping.joints_to_blender")
model = submodule("io.gltf.model")
sim_limits = submodule("sim.limits")


def limits_of(description):
    return {
        ("lin" if lim.linear_axes else "ang", tuple(sorted(lim.linear_axes or lim.angular_axes))): (
            lim.min,
            lim.max,
            lim.stiffness,
        )
        for lim in description.limits
    }


def test_fixed_locks_every_axis():
    d = presets.describe("FIXED")
    assert limits_of(d) == {("lin", (0, 1, 2)): (0.0, 0.0, None), ("ang", (0, 1, 2)): (0.0, 0.0, None)}
    assert d.drives == []


def test_ball_locks_translation_only():
    assert limits_of(presets.describe("BALL")) == {("lin", (0, 1, 2)): (0.0, 0.0, None)}


@pytest.mark.parametrize("axis", [0, 1, 2])
def test_hinge_leaves_only_its_axis_free(axis):
    others = tuple(i for i in range(3) if i != axis)
    d = presets.describe("HINGE", presets.PresetParams(axis=axis))
    assert limits_of(d) == {("lin", (0, 1, 2)): (0.0, 0.0, None), ("ang", others): (0.0, 0.0, None)}


def test_hinge_range_bounds_the_twist():
    d = presets.describe("HINGE", presets.PresetParams(axis=2, use_range=True, lower=-0.5, upper=1.0))
    assert limits_of(d)[("ang", (2,))] == (-0.5, 1.0, None)


@pytest.mark.parametrize("axis", [0, 1, 2])
def test_slider_slides_along_its_axis(axis):
    others = tuple(i for i in range(3) if i != axis)
    d = presets.describe("SLIDER", presets.PresetParams(axis=axis, use_range=True, lower=-0.2, upper=0.3))
    assert limits_of(d) == {
        ("lin", others): (0.0, 0.0, None),
        ("ang", (0, 1, 2)): (0.0, 0.0, None),
        ("lin", (axis,)): (-0.2, 0.3, None),
    }


def test_cone_twist_is_a_cone_on_the_swing_axes_and_a_range_on_the_twist_axis():
    p = presets.PresetParams(axis=0, swing=0.6, twist_lower=-0.3, twist_upper=0.4)
    d = presets.describe("CONE_TWIST", p)
    assert limits_of(d) == {
        ("lin", (0, 1, 2)): (0.0, 0.0, None),
        ("ang", (1, 2)): (None, 0.6, None),
        ("ang", (0,)): (-0.3, 0.4, None),
    }
    # the spec's two-axis angular limit is the cone (sim.limits names it so)
    assert sim_limits.limit_kind(angular_axes=(1, 2)) == "angular-cone"


def test_distance_and_rope():
    d = presets.describe("DISTANCE", presets.PresetParams(min_distance=0.5, max_distance=2.0))
    assert limits_of(d) == {("lin", (0, 1, 2)): (0.5, 2.0, None)}
    rope = presets.describe("DISTANCE", presets.PresetParams(min_distance=None, max_distance=3.0))
    assert limits_of(rope) == {("lin", (0, 1, 2)): (None, 3.0, None)}


def test_spring_is_a_soft_limit_on_its_axis():
    d = presets.describe("SPRING", presets.PresetParams(axis=1, stiffness=50.0, damping=2.0))
    soft = [lim for lim in d.limits if lim.stiffness is not None]
    assert len(soft) == 1
    assert (soft[0].linear_axes, soft[0].min, soft[0].max, soft[0].stiffness, soft[0].damping) == (
        (1,),
        0.0,
        0.0,
        50.0,
        2.0,
    )


def test_velocity_motor_drive():
    d = presets.describe("VELOCITY_MOTOR", presets.PresetParams(axis=2, velocity=3.0, damping=5.0, max_force=20.0))
    (drive,) = d.drives
    assert (drive.type, drive.mode, drive.axis) == ("angular", "force", 2)
    assert (drive.velocity_target, drive.stiffness, drive.damping, drive.max_force) == (3.0, 0.0, 5.0, 20.0)
    assert drive.position_target is None


def test_position_servo_drive():
    d = presets.describe("POSITION_SERVO", presets.PresetParams(axis=0, position=0.25, stiffness=80.0, damping=4.0))
    (drive,) = d.drives
    assert (drive.type, drive.axis, drive.position_target, drive.stiffness, drive.damping) == (
        "angular",
        0,
        0.25,
        80.0,
        4.0,
    )
    assert drive.velocity_target == 0.0  # damping acts towards zero velocity (a PD servo)


@pytest.mark.parametrize(
    ("preset", "axis", "expected"),
    [
        ("FIXED", 0, "FIXED"),
        ("BALL", 0, "POINT"),
        ("HINGE", 1, "HINGE"),
        ("SLIDER", 2, "SLIDER"),
        ("CONE_TWIST", 0, "GENERIC"),
        ("DISTANCE", 0, "GENERIC"),
        ("SPRING", 0, "GENERIC_SPRING"),
        ("VELOCITY_MOTOR", 2, "HINGE"),
        ("POSITION_SERVO", 2, "GENERIC_SPRING"),
    ],
)
def test_each_preset_plans_the_constraint_that_simulates_it(preset, axis, expected):
    p = presets.PresetParams(axis=axis)
    plan = jm.plan_joint(presets.describe(preset, p))
    assert plan.type == expected
    if preset == "VELOCITY_MOTOR":
        assert len(plan.motors) == 1 and plan.motors[0].axis == axis
    if preset == "HINGE":
        assert plan.perm == jm.hinge_perm(axis)


def test_every_preset_is_described_and_unknown_ones_refused():
    for name in presets.PRESETS:
        assert isinstance(presets.describe(name), model.JointDescription)
    with pytest.raises(ValueError, match="unknown joint preset"):
        presets.describe("WELD")
    with pytest.raises(ValueError, match="axis"):
        presets.describe("HINGE", presets.PresetParams(axis=3))


def test_cone_default_is_a_shoulder():
    p = presets.PresetParams()
    assert 0 < p.swing < math.pi / 2 and p.twist_lower < 0 < p.twist_upper
