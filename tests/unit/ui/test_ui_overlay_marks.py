"""Viewport overlay marks (ui/overlay/overlay_marks.py, bpy-free): limit ranges, cones, drive targets, arrows,
placement."""

from __future__ import annotations

import math

import numpy as np
import pytest
from numpy.testing import assert_allclose

from testkit import submodule

om = submodule("ui.overlay.overlay_marks")
model = submodule("io.gltf.model")
JointLimit, JointDrive = model.JointLimit, model.JointDrive


def _angles_about(v: np.ndarray, axis: int) -> np.ndarray:
    """Angle of each point about ``axis``, 0 on the next axis (as ``om.arc``)."""
    u, w = (axis + 1) % 3, (axis + 2) % 3
    return np.arctan2(v[:, w], v[:, u])


def test_locked_limits_draw_nothing():
    assert len(om.limit_lines(JointLimit(linear_axes=(0, 1, 2), min=0.0, max=0.0))) == 0
    assert len(om.limit_lines(JointLimit(angular_axes=(0, 1, 2), min=0.0, max=0.0))) == 0
    assert len(om.limit_lines(JointLimit(angular_axes=(0, 1, 2), min=0.0))) == 0  # no max: every rotation


@pytest.mark.parametrize(("low", "high"), [(0.0, 0.3), (0.2, 0.6)])
def test_three_axis_angular_limit_draws_a_cone_about_each_axis(low, high):
    """The rotation angle is at most ``high``: no axis of frame B leaves the cone of that half-angle about its own
    frame-A axis; a positive ``low`` adds the inner cones."""
    n = 32
    v = om.limit_lines(JointLimit(angular_axes=(0, 1, 2), min=low, max=high), n=n).astype(np.float64)
    one_cone = len(om.cone_lines(0, high, n))
    angles = [a for a in (low, high) if a > 0.0]
    assert len(v) == 3 * len(angles) * one_cone
    for k, half in enumerate(angles):
        for axis in range(3):
            start = (3 * k + axis) * one_cone
            cone = v[start : start + one_cone]
            tips = cone[np.linalg.norm(cone, axis=1) > 1e-6]
            cos = tips[:, axis] / np.linalg.norm(tips, axis=1)
            assert_allclose(np.arccos(np.clip(cos, -1, 1)), half, atol=1e-6)


def test_linear_one_axis_segment_spans_min_to_max_with_bound_squares():
    v = om.limit_lines(JointLimit(linear_axes=(1,), min=-0.2, max=0.5))
    assert_allclose(v[:2], [[0, -0.2, 0], [0, 0.5, 0]], atol=1e-7)
    assert v.shape == (2 + 2 * 8, 3)
    assert_allclose(sorted(set(np.round(v[2:, 1], 6))), [-0.2, 0.5])


def test_unbounded_linear_side_is_drawn_at_the_unbounded_length():
    v = om.limit_lines(JointLimit(linear_axes=(2,), min=None, max=0.1))
    assert_allclose(v[0, 2], -om.UNBOUNDED)
    assert_allclose(v[1, 2], 0.1, rtol=1e-6)


def test_linear_two_axes_circles_about_the_remaining_axis():
    v = om.limit_lines(JointLimit(linear_axes=(0, 2), min=0.1, max=0.4), n=16)
    assert_allclose(v[:, 1], 0.0, atol=1e-7)  # in the XZ plane (remaining axis Y)
    radii = np.linalg.norm(v.astype(np.float64), axis=1)
    assert_allclose(sorted({round(float(r), 5) for r in radii}), [0.1, 0.4])


def test_linear_three_axes_rope_is_a_sphere_of_max_radius():
    v = om.limit_lines(JointLimit(linear_axes=(0, 1, 2), min=None, max=0.7), n=16)
    assert v.shape == (3 * 16 * 2, 3)
    assert_allclose(np.linalg.norm(v, axis=1), 0.7, rtol=1e-6)


@pytest.mark.parametrize("axis", [0, 1, 2])
def test_angular_arc_covers_exactly_min_to_max_about_its_axis(axis):
    v = om.limit_lines(JointLimit(angular_axes=(axis,), min=-0.5, max=1.2), n=64)
    arc = v[:-4]
    assert_allclose(arc[:, axis], 0.0, atol=1e-7)
    assert_allclose(np.linalg.norm(arc, axis=1), om.MARK_RADIUS, rtol=1e-6)
    a = _angles_about(arc.astype(np.float64), axis)
    assert_allclose([a.min(), a.max()], [-0.5, 1.2], atol=1e-6)
    ends = v[-4:]
    assert_allclose(ends[0], 0.0) and assert_allclose(ends[2], 0.0)


def test_angular_arc_without_bounds_is_a_full_turn_and_reversed_bounds_draw_nothing():
    v = om.limit_lines(JointLimit(angular_axes=(2,)), n=32)
    a = _angles_about(v[:-4].astype(np.float64), 2)
    assert a.max() - a.min() > 2 * math.pi - 0.01
    assert len(om.limit_lines(JointLimit(angular_axes=(2,), min=0.5, max=0.1))) == 0


def test_cone_half_angle_about_the_remaining_axis():
    half = 0.4
    v = om.limit_lines(JointLimit(angular_axes=(0, 2), min=0.0, max=half), n=32).astype(np.float64)
    tips = v[np.linalg.norm(v, axis=1) > 1e-6]
    cos = tips[:, 1] / np.linalg.norm(tips, axis=1)  # remaining axis Y
    assert_allclose(np.arccos(np.clip(cos, -1, 1)), half, atol=1e-6)
    assert len(om.cone_lines(1, None)) == 0 and len(om.cone_lines(1, math.pi)) == 0


def test_linear_drive_position_target_cross_sits_at_the_target():
    v = om.drive_lines(JointDrive(type="linear", mode="force", axis=0, position_target=0.3))
    assert v.shape == (4, 3)
    assert_allclose(v[:, 0], 0.3, rtol=1e-6)


def test_angular_drive_position_target_radius_points_at_the_target_angle():
    v = om.drive_lines(JointDrive(type="angular", mode="force", axis=1, position_target=0.7))
    a = _angles_about(v[1:2].astype(np.float64), 1)
    assert_allclose(a, [0.7], atol=1e-6)


def test_velocity_targets_arrow_along_axis_and_arc_turns_their_way():
    v = om.drive_lines(JointDrive(type="linear", mode="force", axis=2, velocity_target=-0.5))
    assert_allclose(v[1], [0, 0, -0.5 * om.VELOCITY_SECONDS], atol=1e-7)
    up = om.drive_lines(JointDrive(type="angular", mode="force", axis=2, velocity_target=2.0))
    down = om.drive_lines(JointDrive(type="angular", mode="force", axis=2, velocity_target=-2.0))
    assert _angles_about(up[:-4].astype(np.float64), 2).max() > 1.5
    assert _angles_about(down[:-4].astype(np.float64), 2).min() < -1.5
    assert len(om.drive_lines(JointDrive(type="angular", mode="force", axis=0))) == 0


def test_arrow_reaches_origin_plus_vector_and_zero_draws_nothing():
    v = om.arrow((1.0, 2.0, 3.0), (0.0, 0.0, 2.0))
    assert_allclose(v[:2], [[1, 2, 3], [1, 2, 5]])
    assert v.shape == (6, 3)
    assert len(om.arrow((0, 0, 0), (0, 0, 0))) == 0


def test_angular_velocity_arc_turns_right_handed_about_omega():
    v = om.angular_velocity_lines((0, 0, 0), (0.0, 0.0, 1.0)).astype(np.float64)
    assert_allclose(v[1], [0, 0, om.MARK_RADIUS], atol=1e-7)  # spin axis arrow
    arc = v[6:-4]
    assert_allclose(arc[:, 2], 0.0, atol=1e-7)
    pts = np.vstack([arc[::2], arc[-1:]])
    a = np.unwrap(np.arctan2(pts[:, 1], pts[:, 0]))
    assert np.all(np.diff(a) > 0)  # counter-clockwise seen from +Z: positive rotation about +Z
    assert_allclose(a[-1] - a[0], 1.0 * om.VELOCITY_SECONDS, atol=0.05)


def test_star_and_transform_place_marks():
    v = om.star((1.0, 0.0, 0.0), half=0.1)
    m = np.eye(4)
    m[:3, 3] = (0.0, 5.0, 0.0)
    m[:3, :3] = [[0, -1, 0], [1, 0, 0], [0, 0, 1]]  # +90° about Z
    placed = om.transformed(v, m)
    assert_allclose(placed.mean(axis=0), [0.0, 6.0, 0.0], atol=1e-6)
    assert len(om.transformed(om.empty(), m)) == 0


def test_frame_axes_are_unit_directions_times_length():
    x, y, z = om.frame_axes(0.5)
    assert_allclose(np.vstack([x[1], y[1], z[1]]), 0.5 * np.eye(3))
