"""Viewport overlay marks (bpy-free): joint frames, limit ranges, drive targets, centre of mass, velocity arrows.

Everything is built as line segments (an ``(N, 3)`` float32 array, rows pairing up into segments) in the local
coordinates of a frame; the caller places it with a 4×4 matrix (:func:`transformed`). Joint marks use the glTF axes
of the joint's attachment frame A (the axes the file's limits and drives name: 0 = X, 1 = Y, 2 = Z); body marks use
the Blender object frame (the stored Blender-frame values of ``Object.gltf_physics.motion``).

Sizes are in metres of the frame: ``FRAME_AXIS`` for the frame axes, ``MARK_RADIUS`` for angular arcs and cones,
``UNBOUNDED`` for the drawn part of a range without ``min`` or ``max``.
"""

from __future__ import annotations

import math

import numpy as np

from ...io.gltf.model import JointDrive, JointLimit

SEGMENTS = 32  # segments per full circle
FRAME_AXIS = 0.3  # m, length of a frame's axis lines
MARK_RADIUS = 0.25  # m, radius of angular arcs and cones
UNBOUNDED = 1.0  # m, drawn half-length of an unbounded linear range
PLANE_HALF = 0.15  # m, half size of the square marking a 1D linear bound
STAR = 0.08  # m, half size of the centre-of-mass star
HEAD = 0.2  # arrow head length as a fraction of the arrow (at most 0.1 m)
VELOCITY_SECONDS = 1.0  # a linear velocity arrow is the distance travelled in this time


def _segments(points: np.ndarray) -> np.ndarray:
    """A polyline (M points) as M − 1 segments (2(M − 1) rows)."""
    p = np.asarray(points, dtype=np.float64)
    return np.stack([p[:-1], p[1:]], axis=1).reshape(-1, 3)


def _lines(rows) -> np.ndarray:
    return np.asarray(rows, dtype=np.float32).reshape(-1, 3)


def empty() -> np.ndarray:
    return np.zeros((0, 3), dtype=np.float32)


def transformed(lines: np.ndarray, matrix) -> np.ndarray:
    """Segments placed by a 4×4 matrix (row-major, column vectors: p' = M·p)."""
    if len(lines) == 0:
        return empty()
    m = np.asarray(matrix, dtype=np.float64).reshape(4, 4)
    p = np.asarray(lines, dtype=np.float64)
    return (p @ m[:3, :3].T + m[:3, 3]).astype(np.float32)


def _basis(axis: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(e_axis, e_next, e_after): a right-handed cyclic basis, so a positive rotation about e_axis turns e_next
    towards e_after."""
    eye = np.eye(3)
    return eye[axis], eye[(axis + 1) % 3], eye[(axis + 2) % 3]


def arc(axis: int, lo: float, hi: float, radius: float = MARK_RADIUS, n: int = SEGMENTS) -> np.ndarray:
    """The arc of angles [lo, hi] (rad) about ``axis``, angle 0 on the next axis (X → Y, Y → Z, Z → X)."""
    _, u, v = _basis(axis)
    steps = max(2, math.ceil(n * abs(hi - lo) / (2.0 * math.pi)) + 1)
    a = np.linspace(lo, hi, steps)
    return _segments(radius * (np.cos(a)[:, None] * u + np.sin(a)[:, None] * v))


def ring(axis: int, radius: float, offset: float = 0.0, n: int = SEGMENTS) -> np.ndarray:
    """A full circle of ``radius`` about ``axis``, centred ``offset`` along it."""
    return arc(axis, 0.0, 2.0 * math.pi, radius, n) + np.eye(3)[axis] * offset


def frame_axes(length: float = FRAME_AXIS) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The three axis lines of a frame (X, Y, Z) from its origin."""
    eye = np.eye(3)
    return tuple(_lines([(0.0, 0.0, 0.0), length * eye[i]]) for i in range(3))


def _bounded(value: float | None, sign: float) -> float:
    return sign * UNBOUNDED if value is None or not math.isfinite(value) else float(value)


def _square(axis: int, at: float, half: float = PLANE_HALF) -> np.ndarray:
    e, u, v = _basis(axis)
    corners = [e * at + half * (su * u + sv * v) for su, sv in ((-1, -1), (1, -1), (1, 1), (-1, 1), (-1, -1))]
    return _segments(np.array(corners))


def locked(limit: JointLimit) -> bool:
    """min = max = 0: the axes are held (drawn as nothing: the frames coincide there)."""
    return limit.min == 0.0 and limit.max == 0.0


def limit_lines(limit: JointLimit, n: int = SEGMENTS) -> np.ndarray:
    """A limit's allowed range in frame-A axes (``docs/ui.md``, Viewport overlay):

    * linear, 1 axis: the segment [min, max] along it and a square (the bounding plane) at each bound;
    * linear, 2 axes: circles of radius min and max about the remaining axis (distance from the line along it);
    * linear, 3 axes: spheres (three great circles) of radius min and max;
    * angular, 1 axis: the arc [min, max] about it, with its two end radii;
    * angular, 2 axes: the cone of half-angle max about the remaining axis (a ring and four generators);
    * angular, 3 axes (the rotation angle in [min, max]): a cone of half-angle max about each of X, Y and Z (no axis
      of frame B leaves it), and of half-angle min when min > 0;
    * locked limits (min = max = 0): nothing.
    An absent bound is drawn at ``UNBOUNDED`` (linear) or as the full turn (angular)."""
    if locked(limit):
        return empty()
    axes = tuple(limit.linear_axes or limit.angular_axes or ())
    if limit.linear_axes:
        if len(axes) == 1:
            lo, hi = _bounded(limit.min, -1.0), _bounded(limit.max, 1.0)
            e = np.eye(3)[axes[0]]
            return _lines(np.concatenate([_lines([lo * e, hi * e]), _square(axes[0], lo), _square(axes[0], hi)]))
        radii = [r for r in (limit.min, _bounded(limit.max, 1.0)) if r is not None and r > 0.0]
        if len(axes) == 2:
            rest = ({0, 1, 2} - set(axes)).pop()
            return _lines(np.concatenate([ring(rest, r, 0.0, n) for r in radii] or [empty()]))
        return _lines(np.concatenate([ring(i, r, 0.0, n) for r in radii for i in range(3)] or [empty()]))
    if len(axes) == 1:
        lo = -math.pi if limit.min is None else max(float(limit.min), -math.pi)
        hi = math.pi if limit.max is None else min(float(limit.max), math.pi)
        if hi < lo:
            return empty()
        _, u, v = _basis(axes[0])
        ends = [p for a in (lo, hi) for p in ((0.0, 0.0, 0.0), MARK_RADIUS * (math.cos(a) * u + math.sin(a) * v))]
        return _lines(np.concatenate([arc(axes[0], lo, hi, MARK_RADIUS, n), _lines(ends)]))
    if len(axes) == 2:
        return cone_lines(({0, 1, 2} - set(axes)).pop(), limit.max, n)
    angles = [a for a in (limit.min, limit.max) if a is not None and a > 0.0]
    return _lines(np.concatenate([cone_lines(axis, a, n) for a in angles for axis in range(3)] or [empty()]))


def cone_lines(axis: int, half_angle: float | None, n: int = SEGMENTS) -> np.ndarray:
    """A cone about ``axis`` with its apex at the origin; ``None`` (no max) or ≥ π draws nothing."""
    if half_angle is None or not 0.0 < half_angle < math.pi:
        return empty()
    e, u, v = _basis(axis)
    h, r = MARK_RADIUS * math.cos(half_angle), MARK_RADIUS * math.sin(half_angle)
    generators = [p for d in (u, v, -u, -v) for p in ((0.0, 0.0, 0.0), h * e + r * d)]
    return _lines(np.concatenate([ring(axis, r, h, n), _lines(generators)]))


def drive_lines(drive: JointDrive, n: int = SEGMENTS) -> np.ndarray:
    """A drive's targets in frame-A axes: linear position target = a cross at that distance along the axis; angular
    position target = a radius at that angle about the axis (the arc's angle 0 as in :func:`arc`, 1.2 ×
    ``MARK_RADIUS``); a velocity target = an arrow along the axis (linear, m/s × ``VELOCITY_SECONDS``) or a quarter
    arc turning the target's way (angular)."""
    axis = drive.axis if drive.axis in (0, 1, 2) else 0
    e, u, v = _basis(axis)
    parts = []
    if drive.position_target is not None and math.isfinite(drive.position_target):
        p = float(drive.position_target)
        if drive.type == "linear":
            c, s = e * p, 0.5 * STAR
            parts.append(_lines([c - s * u, c + s * u, c - s * v, c + s * v]))
        else:
            r = 1.2 * MARK_RADIUS
            parts.append(_lines([(0.0, 0.0, 0.0), r * (math.cos(p) * u + math.sin(p) * v)]))
    w = drive.velocity_target
    if w is not None and math.isfinite(w) and w != 0.0:
        if drive.type == "linear":
            parts.append(arrow((0.0, 0.0, 0.0), e * float(w) * VELOCITY_SECONDS))
        else:
            sweep = math.copysign(math.pi / 2.0, w)
            parts.append(arc(axis, 0.0, sweep, 0.8 * MARK_RADIUS, n))
            tip = 0.8 * MARK_RADIUS * (math.cos(sweep) * u + math.sin(sweep) * v)
            back = 0.8 * MARK_RADIUS * (math.cos(0.85 * sweep) * u + math.sin(0.85 * sweep) * v)
            parts.append(_lines([tip, back + 0.05 * e, tip, back - 0.05 * e]))
    return _lines(np.concatenate(parts)) if parts else empty()


def star(center, half: float = STAR) -> np.ndarray:
    """Three axis-aligned segments crossing at ``center`` (the centre of mass mark)."""
    c = np.asarray(center, dtype=np.float64)
    eye = np.eye(3) * half
    return _lines([p for i in range(3) for p in (c - eye[i], c + eye[i])])


def _perpendicular(d: np.ndarray) -> np.ndarray:
    other = np.eye(3)[int(np.argmin(np.abs(d)))]
    p = np.cross(d, other)
    return p / (np.linalg.norm(p) or 1.0)


def arrow(origin, vector) -> np.ndarray:
    """A shaft from ``origin`` along ``vector`` with a two-line head; nothing for a zero vector."""
    o, d = np.asarray(origin, dtype=np.float64), np.asarray(vector, dtype=np.float64)
    length = float(np.linalg.norm(d))
    if length == 0.0 or not math.isfinite(length):
        return empty()
    tip, unit = o + d, d / length
    head = min(HEAD * length, 0.1)
    side = _perpendicular(unit) * head * 0.5
    back = tip - unit * head
    return _lines([o, tip, tip, back + side, tip, back - side])


def angular_velocity_lines(center, omega, radius: float = MARK_RADIUS, n: int = SEGMENTS) -> np.ndarray:
    """The spin axis (an arrow of length ``radius`` along ω) and an arc about it turning the way ω turns, sweeping
    ω × 1 s (at most 1.75 turns shown as one turn less a gap)."""
    w = np.asarray(omega, dtype=np.float64)
    speed = float(np.linalg.norm(w))
    if speed == 0.0 or not math.isfinite(speed):
        return empty()
    c, k = np.asarray(center, dtype=np.float64), w / speed
    u = _perpendicular(k)
    v = np.cross(k, u)
    sweep = min(speed * VELOCITY_SECONDS, 1.75 * math.pi)
    a = np.linspace(0.0, sweep, max(2, math.ceil(n * sweep / (2.0 * math.pi)) + 1))
    pts = c + radius * (np.cos(a)[:, None] * u + np.sin(a)[:, None] * v)
    tangent = -math.sin(sweep) * u + math.cos(sweep) * v
    tip = pts[-1]
    head = [tip, tip - 0.05 * tangent + 0.03 * k, tip, tip - 0.05 * tangent - 0.03 * k]
    return _lines(np.concatenate([arrow(c, k * radius), _segments(pts), _lines(head)]))
