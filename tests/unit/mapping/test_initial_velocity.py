"""The initial-velocity pre-roll's driver expressions (``io/mapping/initial_velocity``), evaluated here the way
Blender's simple-expression driver evaluator does (Python syntax, ``frame`` and the driver variables)."""

from __future__ import annotations

import math

import pytest

from testkit import submodule

iv = submodule("io.mapping.initial_velocity")

NAMES = {"min": min, "max": max, "sin": math.sin, "cos": math.cos}


def _eval(expression: str, frame: float, start: int = 1, fps: int = 24, ts: float = 1.0) -> float:
    scope = {**NAMES, "frame": frame, "s": start, "fps": fps, "fpsb": 1.0, "ts": ts}
    return eval(expression, {"__builtins__": {}}, scope)


def test_location_follows_the_ballistic_path_during_the_pre_roll():
    velocity, gravity = (2.0, 0.0, 3.0), (0.0, 0.0, -9.81)
    exprs = iv.location_expressions(velocity, gravity)
    assert exprs[1] == "0.0"  # no motion on y: no driver
    for frame in range(1, 1 + iv.HOLD + 1):
        t = (frame - 1) / 24
        got = [_eval(e, frame) for e in exprs]
        assert got == pytest.approx(list(iv.path_at(t, velocity, gravity)))


def test_location_is_zero_outside_the_pre_roll():
    exprs = iv.location_expressions((2.0, 0.0, 3.0), (0.0, 0.0, -9.81))
    for frame in (0, -5, 1 + iv.HOLD + 1, 200):
        assert [_eval(e, frame) for e in exprs] == [0.0, 0.0, 0.0]


def test_time_scale_and_start_frame_come_from_the_variables():
    (x, _, _) = iv.location_expressions((1.0, 0.0, 0.0), (0.0, 0.0, 0.0))
    assert _eval(x, 12, start=10) == pytest.approx(2 / 24)
    assert _eval(x, 12, start=10, ts=0.5) == pytest.approx(1 / 24)  # half speed: half the path per frame


def test_rotation_is_a_unit_quaternion_about_the_spin_axis():
    omega = (0.0, 0.0, 2.0)
    exprs = iv.rotation_expressions(omega)
    frame = 1 + iv.HOLD
    w, x, y, z = (_eval(e, frame) for e in exprs)
    angle = 2.0 * iv.HOLD / 24
    assert (w, x, y, z) == pytest.approx((math.cos(angle / 2), 0.0, 0.0, math.sin(angle / 2)))
    assert [_eval(e, 1 + iv.HOLD + 1) for e in exprs] == [1.0, 0.0, 0.0, 0.0]  # identity after the pre-roll
    assert iv.rotation_expressions((0.0, 0.0, 0.0)) == ["1.0", "0.0", "0.0", "0.0"]


def test_release_frame():
    assert [iv.kinematic_at(f, 1) for f in range(0, 6)] == [True, True, True, True, False, False]
    assert iv.HOLD > iv.RELEASE  # the path goes on through the release step (measured: else the body stops)


@pytest.mark.parametrize("delay", [0, 1])
def test_the_release_driver_switches_animated_off_at_the_release_frame(delay):
    """The *Animated* switch is a driver (issue 34, item 6: no frame handler), the rule of ``kinematic_at``."""
    expression = iv.release_expression(delay)
    assert [bool(_eval(expression, f, start=5)) for f in range(0, 12)] == [
        iv.kinematic_at(f, 5, delay) for f in range(0, 12)
    ]
    assert "frame" in expression and "s" in expression


def test_the_exporter_recognises_pre_roll_drivers():
    (x, _, _) = iv.location_expressions((1.0, 0.0, 0.0), (0.0, 0.0, 0.0))
    assert iv.is_preroll_driver("delta_location", x)
    assert not iv.is_preroll_driver("location", x)
    assert not iv.is_preroll_driver("delta_location", "frame * 0.1")


def test_kinematic_bodies_keep_their_velocity_for_ever():
    (x, y, _) = iv.constant_expressions((2.0, 0.0, 0.0))
    assert y == "0.0"
    assert [_eval(x, f) for f in (0, 1, 25, 241)] == pytest.approx([0.0, 0.0, 2.0, 20.0])  # no window, no gravity
    w, _, _, z = iv.constant_rotation_expressions((0.0, 0.0, 1.0))
    assert (_eval(w, 241), _eval(z, 241)) == pytest.approx((math.cos(5.0), math.sin(5.0)))
    assert iv.is_preroll_driver("delta_location", x)  # recognised by the same marker


def test_a_body_on_the_ground_pre_rolls_without_gravity():
    body = ((-0.5, -0.5, 0.0), (0.5, 0.5, 1.0))
    ground = ((-2.0, -2.0, -1.0), (2.0, 2.0, 0.0))
    g, t = (0.0, 0.0, -9.81), 4 / 24
    assert iv.rests_on_something(body, [ground], (3.0, 0.0, 0.0), g, t)
    assert not iv.rests_on_something(body, [ground], (0.0, 0.0, 5.0), g, t)  # jumps off: out of reach
    aside = ((3.0, 3.0, -1.0), (5.0, 5.0, 0.0))
    assert not iv.rests_on_something(body, [aside], (3.0, 0.0, 0.0), g, t)  # not under its footprint
    high = ((-0.5, -0.5, 5.0), (0.5, 0.5, 6.0))
    assert not iv.rests_on_something(high, [ground], (3.0, 0.0, 0.0), g, t)  # in flight
    assert not iv.rests_on_something(body, [ground], (3.0, 0.0, 0.0), (0.0, 0.0, 0.0), t)  # no gravity


def test_a_body_a_joint_holds_keeps_the_files_pose_until_the_world_is_rebuilt():
    """Delayed by ``DELAY``: the start frame and the next (Blender builds the joints then) keep the file's pose, the
    path and the release come one frame late; without a delay the path starts at once."""
    velocity, gravity, d = (2.0, 0.0, 3.0), (0.0, 0.0, -9.81), iv.DELAY
    assert d == 1
    late = iv.location_expressions(velocity, gravity, d)
    assert [[_eval(e, frame) for e in late] for frame in (1, 2)] == [[0.0, 0.0, 0.0]] * 2
    for frame in range(2, 2 + iv.HOLD + 1):
        assert [_eval(e, frame) for e in late] == pytest.approx(list(iv.path_at((frame - 2) / 24, velocity, gravity)))
    assert [_eval(e, 2 + iv.HOLD + 1) for e in late] == [0.0, 0.0, 0.0]
    assert _eval(iv.location_expressions(velocity, gravity)[0], 2) == pytest.approx(2.0 / 24)
    w, _, _, z = iv.rotation_expressions((0.0, 0.0, 2.0), d)
    assert [(_eval(w, f), _eval(z, f)) for f in (1, 2)] == [(1.0, 0.0)] * 2
    assert _eval(z, 3) == pytest.approx(math.sin(1.0 / 24))
    (x, _, _) = iv.constant_expressions((2.0, 0.0, 0.0), d)
    assert [_eval(x, f) for f in (1, 2, 3, 26)] == pytest.approx([0.0, 0.0, 2.0 / 24, 2.0])
    w, _, _, z = iv.constant_rotation_expressions((0.0, 0.0, 1.0), d)
    assert (_eval(w, 2), _eval(z, 242)) == pytest.approx((1.0, math.sin(5.0)))
    assert [iv.kinematic_at(f, 1, d) for f in range(0, 7)] == [True] * 5 + [False] * 2


def test_delayed_turns_every_undelayed_expression_into_the_delayed_one():
    """A joint added after the import delays a pre-roll by rewriting its drivers' text (``delayed``)."""
    velocity, gravity, omega, d = (2.0, -1.0, 3.0), (0.0, 0.0, -9.81), (0.5, 0.0, 2.0), iv.DELAY
    pairs = [
        (iv.location_expressions(velocity, gravity), iv.location_expressions(velocity, gravity, d)),
        (iv.rotation_expressions(omega), iv.rotation_expressions(omega, d)),
        (iv.constant_expressions(velocity), iv.constant_expressions(velocity, d)),
        (iv.constant_rotation_expressions(omega), iv.constant_rotation_expressions(omega, d)),
    ]
    for undelayed, late in pairs:
        assert [iv.delayed(e) for e in undelayed] == late
        assert [iv.delayed(e) for e in late] == late  # once delayed, left alone
    assert iv.delayed("frame * 0.1") == "frame * 0.1"
