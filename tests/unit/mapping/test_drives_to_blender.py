"""Velocity drives → one MOTOR per driven degree of freedom (issue 11 item 3): the combined motor is the sum of the
drives' forces, checked against the drive law of ``sim.drives``; a joint's MOTOR count does not grow with its drives."""

from __future__ import annotations

import math

import numpy as np
import pytest

from testkit import submodule

dm = submodule("io.mapping.drives_to_blender")
jm = submodule("io.mapping.joints_to_blender")
model = submodule("io.gltf.model")
sim_drives = submodule("sim.drives")


def velocity(axis=0, kind="angular", target=1.0, damping=1.0, max_force=None, mode="force"):
    return model.JointDrive(
        type=kind, mode=mode, axis=axis, velocity_target=target, damping=damping, max_force=max_force
    )


def test_the_combined_motor_is_the_sum_of_the_drive_forces():
    rng = np.random.default_rng(7)
    targets, dampings = rng.uniform(-5, 5, 40), rng.uniform(0.1, 9, 40)
    drives = [
        (n, velocity(target=float(u), damping=float(d))) for n, (u, d) in enumerate(zip(targets, dampings, strict=True))
    ]
    motor = dm.velocity_motor("ANGULAR", 0, (0, 1, 2), drives)
    speeds = np.linspace(-10, 10, 101)
    total = sum(sim_drives.drive_force(0.0, speeds, **sim_drives.drive_kwargs(_json(d))) for _, d in drives)
    one = sim_drives.drive_force(0.0, speeds, damping=float(dampings.sum()), velocity_target=-motor.target_velocity)
    np.testing.assert_allclose(one, total, rtol=1e-9, atol=1e-9)
    assert motor.drives == tuple(range(40)) and motor.max_impulse == dm.UNLIMITED_IMPULSE


def _json(drive) -> dict:
    return {"velocityTarget": drive.velocity_target, "damping": drive.damping, "mode": drive.mode}


def test_a_single_drive_keeps_its_own_values_and_note():
    motor = dm.velocity_motor("LINEAR", 2, (2, 0, 1), [(7, velocity(2, "linear", 1.5, 2.0, 7.0))])
    assert (motor.target_velocity, motor.max_impulse) == (-1.5, 7.0)
    assert motor.note.startswith("drive 7: velocity drive → MOTOR")


def test_max_impulse_is_the_sum_and_unlimited_when_one_drive_has_none():
    limited = [(0, velocity(max_force=4.0)), (1, velocity(max_force=6.0))]
    assert dm.velocity_motor("ANGULAR", 0, (0, 1, 2), limited).max_impulse == 10.0
    unlimited = [*limited, (2, velocity())]
    assert dm.velocity_motor("ANGULAR", 0, (0, 1, 2), unlimited).max_impulse == dm.UNLIMITED_IMPULSE


def test_huge_values_give_finite_motors():
    drives = [(n, velocity(target=1e308 * (-1) ** n, damping=1e308, max_force=1e308)) for n in range(3)]
    motor = dm.velocity_motor("ANGULAR", 0, (0, 1, 2), drives)
    assert math.isfinite(motor.target_velocity) and math.isfinite(motor.max_impulse)
    assert motor.target_velocity == pytest.approx(-1e308 / 3)


def test_a_joint_has_at_most_six_motors_and_a_bounded_note_per_motor():
    drives = [velocity(i % 3, ("angular", "linear")[i // 3 % 2], 1.0 + i % 7, 2.0) for i in range(6000)]
    drives.append(model.JointDrive(type="angular", mode="force", axis=1, position_target=1.0, stiffness=5.0))
    plan = jm.plan_joint(jm_desc(drives))
    assert sorted((m.kind, m.axis) for m in plan.motors) == [(k, a) for k in ("ANGULAR", "LINEAR") for a in range(3)]
    assert sum(len(m.drives) for m in plan.motors) == 6000
    assert len(plan.notes) == 7 and max(len(n) for n in plan.notes) < 300
    assert any(n.startswith("drive 6000: angular drive not representable") for n in plan.notes)
    assert plan.motors[0].note.startswith("drives 0, 6, 12, 18, 24 and 995 more: 1,000 velocity drives")


def jm_desc(drives):
    lock = model.JointLimit(linear_axes=(0, 1, 2), angular_axes=None, min=0.0, max=0.0)
    return model.JointDescription(limits=[lock], drives=drives)
