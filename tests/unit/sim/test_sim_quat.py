"""sim.quat: every kernel against independent matrix / closed-form formulas, plus property tests."""

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from mathkit import rodrigues
from testkit import submodule

Q = submodule("sim.quat")
T = submodule("io.gltf.transforms")
RNG = np.random.default_rng(1234)

finite = st.floats(-1.0, 1.0, allow_nan=False, allow_infinity=False)
quats = arrays(np.float64, 4, elements=finite).filter(lambda q: np.linalg.norm(q) > 0.1)
vecs = arrays(np.float64, 3, elements=finite).filter(lambda v: np.linalg.norm(v) > 0.1)
angles = st.floats(-math.pi + 1e-6, math.pi - 1e-6, allow_nan=False)


def random_quats(n):
    q = RNG.normal(size=(n, 4))
    return q / np.linalg.norm(q, axis=1, keepdims=True)


def test_quat_to_matrix_matches_rodrigues():
    axis, ang = np.array([0.3, -0.5, 0.8]), 1.1
    np.testing.assert_allclose(T.quat_to_matrix(Q.from_axis_angle(axis, ang)), rodrigues(axis, ang), atol=1e-14)


def test_multiply_composes_matrices_and_broadcasts():
    a, b = random_quats(200), random_quats(200)
    expected = T.quat_to_matrix(a) @ T.quat_to_matrix(b)
    np.testing.assert_allclose(T.quat_to_matrix(Q.multiply(a, b)), expected, atol=1e-13)
    single = Q.multiply(a[7], b)  # (4,) ⊗ (N, 4)
    np.testing.assert_allclose(single[3], Q.multiply(a[7], b[3]), atol=1e-15)
    assert single.shape == (200, 4)


def test_multiply_known_values():
    # i ⊗ j = k, j ⊗ i = −k in x, y, z, w order
    i, j = np.array([1.0, 0, 0, 0]), np.array([0, 1.0, 0, 0])
    np.testing.assert_array_equal(Q.multiply(i, j), [0, 0, 1, 0])
    np.testing.assert_array_equal(Q.multiply(j, i), [0, 0, -1, 0])


def test_conjugate_is_inverse():
    q = random_quats(50)
    np.testing.assert_allclose(Q.multiply(q, Q.conjugate(q)), np.tile(Q.IDENTITY, (50, 1)), atol=1e-15)


def test_rotate_matches_matrix_and_broadcasts_single_vector():
    q, v = random_quats(300), RNG.normal(size=(300, 3))
    np.testing.assert_allclose(Q.rotate(q, v), np.einsum("nij,nj->ni", T.quat_to_matrix(q), v), atol=1e-13)
    np.testing.assert_allclose(Q.rotate(q, v[0]), T.quat_to_matrix(q) @ v[0], atol=1e-13)
    np.testing.assert_allclose(Q.rotate_inverse(q, Q.rotate(q, v)), v, atol=1e-13)


def test_rotate_single():
    out = Q.rotate(Q.from_axis_angle([0, 0, 1], math.pi / 2), [1.0, 0, 0])
    np.testing.assert_allclose(out, [0, 1, 0], atol=1e-15)
    assert out.shape == (3,)


@settings(max_examples=100, deadline=None)
@given(vecs, vecs)
def test_from_to_maps_direction(u, v):
    q = Q.from_to(u, v)
    np.testing.assert_allclose(np.linalg.norm(q), 1.0, atol=1e-12)
    np.testing.assert_allclose(Q.rotate(q, u / np.linalg.norm(u)), v / np.linalg.norm(v), atol=2e-7)
    # shortest arc: the rotation angle equals the angle between the directions
    cos = np.dot(u, v) / np.linalg.norm(u) / np.linalg.norm(v)
    np.testing.assert_allclose(Q.angle(q), math.acos(np.clip(cos, -1, 1)), atol=2e-7)


@pytest.mark.parametrize("u", [[1, 0, 0], [0, 1, 0], [0, 0, 1], [0.3, -0.4, 0.5], [1e-3, 1, 0]])
def test_from_to_antiparallel(u):
    u = np.asarray(u, float)
    q = Q.from_to(u, -u)
    np.testing.assert_allclose(Q.rotate(q, u), -u, atol=1e-12)
    assert abs(q[3]) < 1e-12 and abs(np.dot(q[:3], u)) < 1e-12  # half turn about a perpendicular axis


def test_from_to_vectorised_with_antiparallel_rows():
    u = RNG.normal(size=(20, 3))
    v = RNG.normal(size=(20, 3))
    v[::3] = -3.0 * u[::3]
    q = Q.from_to(u, v)
    unit = lambda a: a / np.linalg.norm(a, axis=1, keepdims=True)  # noqa: E731
    np.testing.assert_allclose(Q.rotate(q, unit(u)), unit(v), atol=1e-12)


def test_from_to_zero_vector_is_identity():
    np.testing.assert_array_equal(Q.from_to([0, 0, 0], [1, 0, 0]), Q.IDENTITY)


def test_nlerp_shortest_path_and_endpoints():
    a = Q.from_axis_angle([0, 0, 1], 0.2)
    b = -Q.from_axis_angle([0, 0, 1], 1.0)  # same rotation, opposite hemisphere
    mid = Q.nlerp(a, b, 0.5)
    np.testing.assert_allclose(Q.angle(mid), 0.6, atol=1e-12)  # not the long way round
    np.testing.assert_allclose(Q.nlerp(a, b, 0.0), a, atol=1e-15)
    np.testing.assert_allclose(np.abs(Q.dot(Q.nlerp(a, b, 1.0), b)), 1.0, atol=1e-15)
    ts = np.linspace(0, 1, 11)
    path = Q.nlerp(a, b, ts)
    assert path.shape == (11, 4)
    assert np.all(np.diff(2 * np.arctan2(path[:, 2], path[:, 3])) > 0)  # monotonic about +Z


@pytest.mark.parametrize("omega_mag", [0.0, 1e-9, 1e-4, 5e-3, 0.5, 3.0, 40.0])
def test_integrate_matches_axis_angle(omega_mag):
    axis = np.array([0.2, -0.6, 0.77])
    axis /= np.linalg.norm(axis)
    q0 = Q.from_axis_angle([1, 0, 0], 0.4)
    dt = 0.7
    world = Q.integrate(q0, axis * omega_mag, dt)
    body = Q.integrate(q0, axis * omega_mag, dt, frame="body")
    step = rodrigues(axis, omega_mag * dt)
    np.testing.assert_allclose(T.quat_to_matrix(world), step @ T.quat_to_matrix(q0), atol=1e-14)
    np.testing.assert_allclose(T.quat_to_matrix(body), T.quat_to_matrix(q0) @ step, atol=1e-14)
    np.testing.assert_allclose(np.linalg.norm(world), 1.0, atol=1e-15)


def test_integrate_small_angle_series_is_continuous():
    theta = np.array([Q._SMALL_ANGLE * (1 - 1e-9), Q._SMALL_ANGLE * (1 + 1e-9)])
    q = Q.exp_map(np.stack([theta, 0 * theta, 0 * theta], axis=1))
    np.testing.assert_allclose(q[:, 0], np.sin(theta / 2), rtol=1e-15)
    np.testing.assert_allclose(q[:, 3], np.cos(theta / 2), rtol=1e-15)


def test_integrate_rejects_bad_frame():
    with pytest.raises(ValueError):
        Q.integrate(Q.IDENTITY, [0, 0, 1], 1.0, frame="local")


def test_twist_swing_worked_example():
    qb = Q.multiply(Q.from_axis_angle([1, 0, 0], 0.3), Q.from_axis_angle([0, 0, 1], 0.5))
    np.testing.assert_allclose(qb, [0.144792, -0.036972, 0.244626, 0.958033], atol=1e-6)
    swing, twist, ang = Q.twist_swing(qb, [0, 0, 1])
    np.testing.assert_allclose(ang, 0.5, atol=1e-12)
    np.testing.assert_allclose(swing, Q.from_axis_angle([1, 0, 0], 0.3), atol=1e-12)
    np.testing.assert_allclose(Q.multiply(swing, twist), qb, atol=1e-15)


@settings(max_examples=100, deadline=None)
@given(quats, vecs)
def test_twist_swing_properties(q, axis):
    q = q / np.linalg.norm(q)
    unit_axis = axis / np.linalg.norm(axis)
    swing, twist, ang = Q.twist_swing(q, axis)
    recomposed = Q.multiply(swing, twist)
    assert min(np.abs(recomposed - q).max(), np.abs(recomposed + q).max()) < 1e-12
    assert abs(np.dot(swing[:3], unit_axis)) < 1e-12  # swing axis ⊥ twist axis
    np.testing.assert_allclose(np.cross(twist[:3], unit_axis), 0.0, atol=1e-12)  # twist about the axis
    assert -math.pi <= ang <= math.pi
    np.testing.assert_allclose(Q.angle(twist), abs(ang), atol=1e-9)


@settings(max_examples=100, deadline=None)
@given(vecs, angles)
def test_twist_of_pure_rotation_is_signed_angle(axis, ang):
    _, _, twist = Q.twist_swing(Q.from_axis_angle(axis, ang), axis)
    np.testing.assert_allclose(twist, ang, atol=1e-9)
