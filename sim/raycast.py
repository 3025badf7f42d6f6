"""Analytic segment casts in shape space, vectorised over N (segment, shape) rows.

A segment is ``o + t·d`` for t ∈ [0, 1] (``d`` = end − start, so t is the hit fraction). Every kernel returns
``(t, n, inside)``: t (N,) the first entering hit (``inf`` = miss), n (N, 3) the outward unit normal in shape space
and inside (N,) True where the segment starts inside the solid (then t = 0 and n is left to the caller: the scene
query reports −direction). Shape axis is +Y, ``radius_bottom`` at −Y (``sim.shapes``).

A convex solid's first entry is the smallest boundary crossing when the start is outside, so each kernel takes the
minimum over its surface pieces: box slabs; cylinder/cone/frustum = lateral cone surface + two caps; capsule
(tapered too) = two spheres + the tangent cone between the tangent circles (a cap of that cone lies inside a sphere,
so the sphere is always reached first there).
"""

from __future__ import annotations

import numpy as np

_EPS = 1e-12


def _dot(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return np.einsum("ij,ij->i", a, b)


def _unit(v: np.ndarray) -> np.ndarray:
    n = np.linalg.norm(v, axis=-1, keepdims=True)
    return np.divide(v, n, out=np.zeros_like(v), where=n > 0)


def _in_segment(t: np.ndarray) -> np.ndarray:
    return np.where((t >= 0.0) & (t <= 1.0), t, np.inf)


def _take_min(t_best, n_best, t, n):
    better = t < t_best
    return np.where(better, t, t_best), np.where(better[:, None], n, n_best)


def sphere(o: np.ndarray, d: np.ndarray, radius, center=None):
    """Sphere of ``radius`` (N,) about ``center`` (N, 3) (default origin)."""
    r = np.broadcast_to(np.asarray(radius, dtype=float), (len(o),))
    oc = o - center if center is not None else o
    a = _dot(d, d)
    b = _dot(oc, d)
    c = _dot(oc, oc) - r * r
    disc = b * b - a * c
    ok = (disc >= 0.0) & (a > 0.0)
    t = np.where(ok, (-b - np.sqrt(np.where(ok, disc, 0.0))) / np.where(a > 0, a, 1.0), np.inf)
    t = np.where(ok, _in_segment(t), np.inf)
    n = _unit(oc + t[:, None] * d) if np.any(np.isfinite(t)) else np.zeros_like(o)
    n = np.where(np.isfinite(t)[:, None], n, 0.0)
    return t, n, c <= 0.0


def box(o: np.ndarray, d: np.ndarray, half):
    """Axis-aligned box with half extents ``half`` (N, 3) (slab method)."""
    h = np.broadcast_to(np.asarray(half, dtype=float), o.shape)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        t1 = (-h - o) / d
        t2 = (h - o) / d
    parallel = d == 0.0
    outside_slab = parallel & (np.abs(o) > h)
    lo = np.where(parallel, -np.inf, np.minimum(t1, t2))
    hi = np.where(parallel, np.inf, np.maximum(t1, t2))
    axis = np.argmax(lo, axis=1)
    t_near = lo[np.arange(len(o)), axis]
    t_far = hi.min(axis=1)
    hit = ~outside_slab.any(axis=1) & (t_near <= t_far) & (t_near >= 0.0) & (t_near <= 1.0)
    t = np.where(hit, t_near, np.inf)
    n = np.zeros_like(o)
    n[np.arange(len(o)), axis] = -np.sign(d[np.arange(len(o)), axis])
    inside = np.all(np.abs(o) <= h, axis=1)
    return t, np.where(hit[:, None], n, 0.0), inside


def cone_side(o: np.ndarray, d: np.ndarray, y0, y1, rho0, rho1):
    """Lateral surface of the frustum from radius ``rho0`` at ``y0`` to ``rho1`` at ``y1`` (all (N,))."""
    y0, y1, rho0, rho1 = (np.broadcast_to(np.asarray(v, dtype=float), (len(o),)) for v in (y0, y1, rho0, rho1))
    span = np.where(y1 > y0, y1 - y0, 1.0)
    k = (rho1 - rho0) / span
    e = rho0 + k * (o[:, 1] - y0)
    f = k * d[:, 1]
    a = d[:, 0] ** 2 + d[:, 2] ** 2 - f * f
    b = o[:, 0] * d[:, 0] + o[:, 2] * d[:, 2] - e * f
    c = o[:, 0] ** 2 + o[:, 2] ** 2 - e * e
    scale = _dot(d, d)
    linear = np.abs(a) <= _EPS * scale
    disc = b * b - a * c
    sq = np.sqrt(np.maximum(disc, 0.0))
    safe_a = np.where(linear, 1.0, a)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        roots = np.stack([(-b - sq) / safe_a, (-b + sq) / safe_a])
        lin = np.where(np.abs(b) > 0, -c / (2.0 * b), np.inf)
    roots = np.where(linear, np.stack([lin, np.full_like(lin, np.inf)]), np.where(disc >= 0, roots, np.inf))
    finite = np.isfinite(roots)
    r0 = np.where(finite, roots, 0.0)
    y = o[:, 1] + r0 * d[:, 1]
    valid = finite & (y >= y0) & (y <= y1) & (e + f * r0 >= 0.0) & (y1 > y0)
    t = _in_segment(np.where(valid, roots, np.inf)).min(axis=0)
    p = o + np.where(np.isfinite(t), t, 0.0)[:, None] * d
    radial = _unit(np.stack([p[:, 0], np.zeros(len(o)), p[:, 2]], axis=1))
    n = _unit(radial + np.stack([np.zeros(len(o)), -k, np.zeros(len(o))], axis=1))
    return t, np.where(np.isfinite(t)[:, None], n, 0.0)


def _cap(o, d, y, radius, sign):
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        t = (y - o[:, 1]) / d[:, 1]
    t = np.where(d[:, 1] * sign < 0.0, t, np.inf)  # only entering through the outward side
    t = _in_segment(t)
    p = o + np.where(np.isfinite(t), t, 0.0)[:, None] * d
    t = np.where(p[:, 0] ** 2 + p[:, 2] ** 2 <= radius * radius, t, np.inf)
    n = np.zeros_like(o)
    n[:, 1] = sign
    return t, n


def _frustum_inside(o, y0, y1, rho0, rho1):
    span = np.where(y1 > y0, y1 - y0, 1.0)
    r = rho0 + (rho1 - rho0) * (o[:, 1] - y0) / span
    return (o[:, 1] >= y0) & (o[:, 1] <= y1) & (o[:, 0] ** 2 + o[:, 2] ** 2 <= r * r)


def cylinder(o: np.ndarray, d: np.ndarray, height, radius_bottom, radius_top):
    """Cylinder / cone / frustum of full ``height`` centred at the origin (arrays (N,))."""
    h, rb, rt = (np.broadcast_to(np.asarray(v, dtype=float), (len(o),)) for v in (height, radius_bottom, radius_top))
    t, n = cone_side(o, d, -h / 2, h / 2, rb, rt)
    t, n = _take_min(t, n, *_cap(o, d, h / 2, rt, 1.0))
    t, n = _take_min(t, n, *_cap(o, d, -h / 2, rb, -1.0))
    return t, n, _frustum_inside(o, -h / 2, h / 2, rb, rt)


def capsule(o: np.ndarray, d: np.ndarray, height, radius_bottom, radius_top):
    """Capsule (tapered when the radii differ): two spheres plus their tangent cone (arrays (N,))."""
    h, rb, rt = (np.broadcast_to(np.asarray(v, dtype=float), (len(o),)) for v in (height, radius_bottom, radius_top))
    zeros = np.zeros(len(o))
    cb = np.stack([zeros, -h / 2, zeros], axis=1)
    ct = np.stack([zeros, h / 2, zeros], axis=1)
    tb, nb, inb = sphere(o, d, rb, cb)
    tt, nt, int_ = sphere(o, d, rt, ct)
    t, n = _take_min(tb, nb, tt, nt)
    has_side = h > np.abs(rb - rt)
    s = np.where(has_side, (rb - rt) / np.where(h > 0, h, 1.0), 0.0)
    c = np.sqrt(np.maximum(1.0 - s * s, 0.0))
    y0, y1 = -h / 2 + rb * s, h / 2 + rt * s
    y1 = np.where(has_side, y1, y0)  # an empty side for degenerate capsules
    ts, ns = cone_side(o, d, y0, y1, rb * c, rt * c)
    t, n = _take_min(t, n, ts, ns)
    inside = inb | int_ | (has_side & _frustum_inside(o, y0, y1, rb * c, rt * c))
    return t, n, inside


def plane(o: np.ndarray, d: np.ndarray, size_x, size_z, double_sided):
    """Plane y = 0 (normal +Y), finite where sizes are finite (``inf`` = unbounded), one- or double-sided.

    One-sided planes are hit only from the front (moving towards −Y from y >= 0); double-sided planes report the
    normal facing the segment start. Planes never report ``inside``.
    """
    sx, sz = (np.broadcast_to(np.asarray(v, dtype=float), (len(o),)) for v in (size_x, size_z))
    two = np.broadcast_to(np.asarray(double_sided, dtype=bool), (len(o),))
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        t = -o[:, 1] / d[:, 1]
    front = (d[:, 1] < 0.0) & (o[:, 1] >= 0.0)
    back = (d[:, 1] > 0.0) & (o[:, 1] <= 0.0)
    t = np.where(front | (two & back), t, np.inf)
    p = o + np.where(np.isfinite(t), t, 0.0)[:, None] * d
    t = _in_segment(np.where((np.abs(p[:, 0]) <= sx / 2) & (np.abs(p[:, 2]) <= sz / 2), t, np.inf))
    n = np.zeros_like(o)
    n[:, 1] = np.where(front, 1.0, -1.0)
    return t, np.where(np.isfinite(t)[:, None], n, 0.0), np.zeros(len(o), dtype=bool)


def triangles(start: np.ndarray, d: np.ndarray, a: np.ndarray, b: np.ndarray, c: np.ndarray):
    """Möller–Trumbore for one segment against all triangles (T, 3) at once; double-sided.

    Returns t (T,) (inf = miss) and unit normals (T, 3) of the triangle planes turned to face the segment start.
    """
    e1, e2 = b - a, c - a
    p = np.cross(d, e2)
    det = _dot(e1, p)
    ok = np.abs(det) > _EPS * np.linalg.norm(e1, axis=1) * np.linalg.norm(e2, axis=1) * np.linalg.norm(d)
    inv = np.divide(1.0, det, out=np.zeros_like(det), where=ok)
    s = start - a
    u = _dot(s, p) * inv
    q = np.cross(s, e1)
    v = (q @ d) * inv
    t = _dot(e2, q) * inv
    hit = ok & (u >= 0.0) & (v >= 0.0) & (u + v <= 1.0) & (t >= 0.0) & (t <= 1.0)
    n = _unit(np.cross(e1, e2))
    n = np.where((n @ d < 0.0)[:, None], n, -n)
    return np.where(hit, t, np.inf), n
