"""io.mapping.axes: the one home of the glTF (+Y up) ↔ Blender (+Z up) swizzles."""

from __future__ import annotations

import math

import numpy as np
import pytest

from testkit import submodule

axes = submodule("io.mapping.axes")
quat_to_matrix = submodule("io.gltf.transforms").quat_to_matrix


def test_axis_conversions():
    assert axes.vec_to_blender((1.0, 2.0, 3.0)) == (1.0, -3.0, 2.0)
    assert axes.scale_to_blender((1.0, 2.0, 3.0)) == (1.0, 3.0, 2.0)
    assert axes.quat_to_blender((0.1, 0.2, 0.3, 0.9)) == (0.9, 0.1, -0.3, 0.2)
    m = np.eye(4)
    m[:3, 3] = (1.0, 2.0, 3.0)
    assert tuple(axes.matrix_to_blender(m)[:3, 3]) == (1.0, -3.0, 2.0)


def test_vector_swizzles_invert_the_import():
    for v in [(1.0, 2.0, 3.0), (-0.5, 0.25, 7.0)]:
        assert axes.vec_to_gltf(axes.vec_to_blender(v)) == pytest.approx(v)
        assert axes.scale_to_gltf(axes.scale_to_blender(v)) == pytest.approx(v)
    q = (0.1, 0.2, 0.3, 0.927362)
    assert axes.quat_to_gltf(axes.quat_to_blender(q)) == pytest.approx(q)
    assert axes.vec_to_gltf((0.0, -0.0, 0.0)) == (0.0, 0.0, 0.0)
    assert all(math.copysign(1.0, c) == 1.0 for c in axes.vec_to_gltf((0.0, 0.0, 0.0)))


def test_every_form_is_the_same_rotation_c():
    c = axes.AXIS_CHANGE[:3, :3]
    v = np.array([0.3, -1.2, 2.5])
    assert np.allclose(c @ v, axes.vec_to_blender(v))
    assert np.allclose(axes.BLENDER_TO_GLTF[:3, :3] @ c, np.eye(3))
    assert np.allclose(axes.axis_change(True), axes.BLENDER_TO_GLTF) and np.allclose(axes.axis_change(False), np.eye(4))
    assert np.allclose(quat_to_matrix(np.array(axes.SHAPE_TO_BLENDER)), c)
    q = np.array([0.1, 0.2, 0.3, 0.927362]) / np.linalg.norm([0.1, 0.2, 0.3, 0.927362])
    w, x, y, z = axes.quat_to_blender(q)
    assert np.allclose(quat_to_matrix(np.array([x, y, z, w])), c @ quat_to_matrix(q) @ c.T)


def test_shape_scale_is_the_unsigned_scale_in_shape_axes():
    assert axes.shape_scale((-1.0, 2.0, -3.0)) == (1.0, 3.0, 2.0)
    c = axes.AXIS_CHANGE[:3, :3]
    s = np.array([1.0, 2.0, 3.0])
    # diag(s_blender)·C = C·diag(shape_scale(s_blender)): the scale can be applied in shape space
    assert np.allclose(np.diag(s) @ c, c @ np.diag(axes.shape_scale(s)))


def test_points_to_blender_is_vec_to_blender_row_by_row():
    points = [(1.0, 2.0, 3.0), (-0.5, 0.0, 4.0)]
    got = axes.points_to_blender(points)
    assert [tuple(row) for row in got] == [axes.vec_to_blender(p) for p in points]
