"""Quaternion and transform kernels, vectorised over samples.

Quaternions are glTF ordered ``(x, y, z, w)`` in arrays of shape ``(..., 4)``; vectors are ``(..., 3)``. Every
function broadcasts, so a single ``(4,)`` quaternion combines with ``(N, 4)`` arrays. Products are Hamilton products,
``multiply(a, b)`` rotates by ``b`` first, then ``a`` (the convention of glTF node hierarchies). All arithmetic is
float64; inputs are converted, never modified. Quaternion ⇄ rotation matrix is not here: ``io/gltf/transforms.py``
(``quat_to_matrix``, ``matrix_to_quat``) is the one home of both conversions.
"""

from __future__ import annotations

import numpy as np

IDENTITY = np.array([0.0, 0.0, 0.0, 1.0])

# Angles below these use Taylor series instead of sin/cos quotients (error < 1e-16 relative).
_SMALL_ANGLE = 1e-2
_PARALLEL_EPS = 1e-12
# |û + v̂|² below this counts as antiparallel: either branch is then accurate to about 1e-7 rad.
_ANTIPARALLEL_EPS2 = 1e-14


def _f64(a) -> np.ndarray:
    return np.asarray(a, dtype=np.float64)


def _cross(a: np.ndarray, b: np.ndarray, out: np.ndarray | None = None) -> np.ndarray:
    """Cross product over the last axis, without ``np.cross``'s per-call overhead."""
    ax, ay, az = a[..., 0], a[..., 1], a[..., 2]
    bx, by, bz = b[..., 0], b[..., 1], b[..., 2]
    if out is None:
        out = np.empty(np.broadcast_shapes(a.shape, b.shape))
    np.multiply(ay, bz, out=out[..., 0])
    out[..., 0] -= az * by
    np.multiply(az, bx, out=out[..., 1])
    out[..., 1] -= ax * bz
    np.multiply(ax, by, out=out[..., 2])
    out[..., 2] -= ay * bx
    return out


def dot(a, b) -> np.ndarray:
    """Dot product over the last axis (4-D for quaternions, 3-D for vectors)."""
    a, b = np.broadcast_arrays(_f64(a), _f64(b))
    return np.einsum("...i,...i->...", a, b)


def norm(a) -> np.ndarray:
    return np.sqrt(dot(a, a))


def normalize(a) -> np.ndarray:
    """Unit-length copy; zero-length rows stay zero (no NaN)."""
    a = _f64(a)
    n = norm(a)[..., None]
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(n > 0.0, a / np.where(n > 0.0, n, 1.0), 0.0)


def conjugate(q) -> np.ndarray:
    """``(−x, −y, −z, w)``: the inverse of a unit quaternion."""
    out = _f64(q).copy()
    out[..., :3] *= -1.0
    return out


def multiply(a, b) -> np.ndarray:
    """Hamilton product ``a ⊗ b``: w = aw·bw − av·bv, v = aw·bv + bw·av + av × bv."""
    a, b = _f64(a), _f64(b)
    out = np.empty(np.broadcast_shapes(a.shape, b.shape))
    ax, ay, az, aw = (a[..., i] for i in range(4))
    bx, by, bz, bw = (b[..., i] for i in range(4))
    x, y, z, w = (out[..., i] for i in range(4))
    np.multiply(aw, bx, out=x)
    x += bw * ax
    x += ay * bz
    x -= az * by
    np.multiply(aw, by, out=y)
    y += bw * ay
    y += az * bx
    y -= ax * bz
    np.multiply(aw, bz, out=z)
    z += bw * az
    z += ax * by
    z -= ay * bx
    np.multiply(aw, bw, out=w)
    w -= ax * bx
    w -= ay * by
    w -= az * bz
    return out


def rotate(q, v) -> np.ndarray:
    """Rotate vectors by unit quaternions: t = 2 q_v × v, v' = v + w·t + q_v × t (about 30 flops)."""
    q, v = _f64(q), _f64(v)
    qv = q[..., :3]
    t = _cross(qv, v)
    t *= 2.0
    out = _cross(qv, t)
    out += v
    out += q[..., 3:4] * t
    return out


def rotate_inverse(q, v) -> np.ndarray:
    """Rotate vectors by the inverse of unit quaternions (``R(q)ᵀ v``)."""
    return rotate(conjugate(q), v)


def from_axis_angle(axis, angle) -> np.ndarray:
    """Rotation by ``angle`` radians about ``axis`` (normalised here)."""
    axis = normalize(axis)
    half = 0.5 * _f64(angle)[..., None]
    shape = (*np.broadcast_shapes(axis.shape[:-1], half.shape[:-1]), 4)
    out = np.empty(shape)
    out[..., :3] = axis * np.sin(half)
    out[..., 3] = np.cos(half[..., 0])
    return out


def _any_perpendicular(u: np.ndarray) -> np.ndarray:
    """A unit vector perpendicular to each unit ``u``: cross with the basis axis least aligned with it."""
    least = np.argmin(np.abs(u), axis=-1)
    basis = np.eye(3)[least]
    return normalize(_cross(u, basis))


def from_to(u, v) -> np.ndarray:
    """Shortest rotation taking direction ``u`` to direction ``v`` via the half-way vector h = û + v̂.

    ``q = (û × ĥ, û·ĥ)``. For (nearly) antiparallel directions h vanishes; the result is then a half turn about an
    axis perpendicular to ``u`` (any such axis is a shortest rotation). Zero vectors give the identity.
    """
    u, v = normalize(u), normalize(v)
    u, v = np.broadcast_arrays(u, v)
    h = u + v
    antiparallel = (dot(h, h) < _ANTIPARALLEL_EPS2) & (dot(u, u) > 0.5) & (dot(v, v) > 0.5)
    h = normalize(h)
    out = np.empty(u.shape[:-1] + (4,))
    _cross(u, h, out=out[..., :3])
    out[..., 3] = dot(u, h)
    if np.any(antiparallel):
        out[antiparallel, :3] = _any_perpendicular(u[antiparallel])
        out[antiparallel, 3] = 0.0
    degenerate = (dot(u, u) < 0.5) | (dot(v, v) < 0.5)
    if np.any(degenerate):
        out[degenerate] = IDENTITY
    return out


def nlerp(a, b, t) -> np.ndarray:
    """Normalised linear interpolation along the shorter arc (``b`` is negated where ``a·b < 0``)."""
    a, b = _f64(a), _f64(b)
    t = _f64(t)[..., None]
    sign = np.where(dot(a, b) < 0.0, -1.0, 1.0)[..., None]
    return normalize((1.0 - t) * a + (t * sign) * b)


def _sin_half_over_norm(theta: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``sin(θ/2)/θ`` and ``cos(θ/2)``: exact for large θ, Taylor series below ``_SMALL_ANGLE``."""
    small = theta < _SMALL_ANGLE
    t2 = theta * theta
    with np.errstate(invalid="ignore", divide="ignore"):
        exact_s = np.sin(0.5 * theta) / theta
    series_s = 0.5 - t2 / 48.0 + t2 * t2 / 3840.0
    series_c = 1.0 - t2 / 8.0 + t2 * t2 / 384.0
    s = np.where(small, series_s, exact_s)
    c = np.where(small, series_c, np.cos(0.5 * theta))
    return s, c


def exp_map(rotation_vector) -> np.ndarray:
    """Unit quaternion of a rotation vector (axis × angle), robust at and near zero."""
    r = _f64(rotation_vector)
    theta = norm(r)
    s, c = _sin_half_over_norm(theta)
    out = np.empty(r.shape[:-1] + (4,))
    np.multiply(r, s[..., None], out=out[..., :3])
    out[..., 3] = c
    return out


def integrate(q, angular_velocity, dt, *, frame: str = "world") -> np.ndarray:
    """Advance orientations by a constant angular velocity (rad/s) over ``dt``: exact, no renormalisation drift.

    ``frame="world"``: ω in world axes, q' = exp(ω·dt) ⊗ q. ``frame="body"``: ω in body axes, q' = q ⊗ exp(ω·dt).
    """
    if frame not in ("world", "body"):
        raise ValueError(f"frame must be 'world' or 'body', not {frame!r}")
    step = exp_map(_f64(angular_velocity) * _f64(dt)[..., None])
    return multiply(step, q) if frame == "world" else multiply(q, step)


def angle(q) -> np.ndarray:
    """Rotation angle in [0, π] of (not necessarily unit) quaternions: 2·atan2(|v|, |w|)."""
    q = _f64(q)
    return 2.0 * np.arctan2(norm(q[..., :3]), np.abs(q[..., 3]))


def twist_swing(q, axis) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Decompose ``q = swing ⊗ twist`` about a unit ``axis``; returns ``(swing, twist, signed_twist_angle)``.

    twist = normalize(w, (v·a)a) taken in the w ≥ 0 hemisphere, so the angle 2·atan2(v·a, w) lies in [−π, π].
    When the twist part vanishes (a half-turn swing), the twist is the identity and the angle 0.
    """
    q, axis = _f64(q), normalize(axis)
    proj = dot(q[..., :3], axis)
    w = q[..., 3]
    flip = np.where(w < 0.0, -1.0, 1.0)
    proj_h, w_h = proj * flip, w * flip
    length = np.hypot(proj_h, w_h)
    ok = length > _PARALLEL_EPS
    safe = np.where(ok, length, 1.0)
    shape = (*np.broadcast_shapes(q.shape[:-1], axis.shape[:-1]), 4)
    twist = np.empty(shape)
    twist[..., :3] = (np.where(ok, proj_h / safe, 0.0))[..., None] * axis
    twist[..., 3] = np.where(ok, w_h / safe, 1.0)
    swing = multiply(q, conjugate(twist))
    twist_angle = np.where(ok, 2.0 * np.arctan2(proj_h, w_h), 0.0)
    return swing, twist, twist_angle
