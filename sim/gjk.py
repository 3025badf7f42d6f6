"""GJK distance between two convex sets given by support functions (pure numpy).

``gjk_distance(support)`` takes the support function of the Minkowski difference A − B (``d ↦ argmax_{x∈A−B} d·x``)
and returns the Euclidean distance between A and B (0 when they overlap). The closest point of each simplex comes from
Voronoi-region tests (segment, triangle; a tetrahedron by signed volumes, then its faces). Bounds used:
``|v|`` (closest point of the current simplex) is an upper bound, ``v·w/|v|`` (w = support(−v)) a lower bound; the
search stops as soon as either bound settles the question asked (``stop_above``) or they meet within ``rel_tol``.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

Support = Callable[[np.ndarray], np.ndarray]
SLIVER = 1e-8  # a triangle with |ab × ac|² below this fraction of |ab|²·|ac|² (sin² of its angle at a) is a sliver


def _tetra_contains_origin(p: list[np.ndarray]) -> bool:
    """Signed-volume test: the origin is inside (or on) the tetrahedron p (4 points)."""
    a, b, c, d = p
    full = float(np.dot(b - a, np.cross(c - a, d - a)))
    if full == 0.0:
        return False
    for q in ([0 * a, b, c, d], [a, 0 * a, c, d], [a, b, 0 * a, d], [a, b, c, 0 * a]):
        if float(np.dot(q[1] - q[0], np.cross(q[2] - q[0], q[3] - q[0]))) / full < -1e-12:
            return False
    return True


def _closest_on_segment(a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, list[np.ndarray]]:
    ab = b - a
    den = float(ab @ ab)
    t = -float(a @ ab) / den if den > 0.0 else 0.0
    if t <= 0.0:
        return a, [a]
    if t >= 1.0:
        return b, [b]
    return a + t * ab, [a, b]


def _closest_on_triangle(a: np.ndarray, b: np.ndarray, c: np.ndarray) -> tuple[np.ndarray, list[np.ndarray]]:
    """Closest point of triangle abc to the origin by Voronoi regions (vertices, edges, face)."""
    ab, ac = b - a, c - a
    d1, d2 = -float(ab @ a), -float(ac @ a)
    if d1 <= 0.0 and d2 <= 0.0:
        return a, [a]
    d3, d4 = -float(ab @ b), -float(ac @ b)
    if d3 >= 0.0 and d4 <= d3:
        return b, [b]
    vc = d1 * d4 - d3 * d2
    if vc <= 0.0 and d1 >= 0.0 and d3 <= 0.0:
        return a + d1 / (d1 - d3) * ab, [a, b]
    d5, d6 = -float(ab @ c), -float(ac @ c)
    if d6 >= 0.0 and d5 <= d6:
        return c, [c]
    vb = d5 * d2 - d1 * d6
    if vb <= 0.0 and d2 >= 0.0 and d6 <= 0.0:
        return a + d2 / (d2 - d6) * ac, [a, c]
    va = d3 * d6 - d5 * d4
    if va <= 0.0 and d4 - d3 >= 0.0 and d5 - d6 >= 0.0:
        return b + (d4 - d3) / ((d4 - d3) + (d5 - d6)) * (c - b), [b, c]
    den = va + vb + vc
    if den <= 0.0:  # degenerate (collinear) triangle: best edge
        return min((_closest_on_segment(*e) for e in ((a, b), (b, c), (a, c))), key=lambda r: float(r[0] @ r[0]))
    if den < SLIVER * float(ab @ ab) * float(ac @ ac):
        # a sliver: va, vb, vc are differences of nearly equal products and the barycentric point loses every digit;
        # the origin's projection on the plane through the normal keeps them (the face region was decided above)
        normal = np.cross(ab, ac)
        return normal * (float(normal @ a) / float(normal @ normal)), [a, b, c]
    return a + ab * (vb / den) + ac * (vc / den), [a, b, c]


def _closest_on_simplex(points: list[np.ndarray]) -> tuple[np.ndarray, list[np.ndarray]]:
    """Closest point to the origin of conv(points) (1–4 points) and the smallest sub-simplex containing it."""
    if len(points) == 1:
        return points[0], points
    if len(points) == 2:
        return _closest_on_segment(*points)
    if len(points) == 3:
        return _closest_on_triangle(*points)
    if _tetra_contains_origin(points):
        return np.zeros(3), points
    a, b, c, d = points
    faces = [_closest_on_triangle(*f) for f in ((a, b, c), (a, b, d), (a, c, d), (b, c, d))]
    return min(faces, key=lambda r: float(r[0] @ r[0]))


def gjk_distance(
    support: Support, stop_above: float = -1.0, abs_tol: float = 1e-12, rel_tol: float = 1e-10, max_iter: int = 128
) -> float:
    """Distance between A and B from the support function of A − B.

    Returns 0 when the origin is enclosed (overlap), a value > ``stop_above`` as soon as a separating lower bound
    exceeds it (early out for boolean tests), else the converged distance.
    """
    v = support(np.array([1.0, 0.0, 0.0]))
    simplex = [v]
    for _ in range(max_iter):
        vv = float(v @ v)
        if vv <= abs_tol * abs_tol:
            return 0.0
        w = support(-v)
        vw = float(v @ w)
        if stop_above >= 0.0 and vw > 0.0 and vw * vw > stop_above * stop_above * vv:
            return vw / np.sqrt(vv)  # certified: distance >= this lower bound > stop_above
        if vv - vw <= rel_tol * vv or min(float(np.abs(w - q).max()) for q in simplex) <= abs_tol:
            return np.sqrt(vv)
        simplex.append(w)
        v, simplex = _closest_on_simplex(simplex)
        if len(simplex) == 4:
            return 0.0
        if float(v @ v) >= vv * (1.0 - 1e-15):  # no progress: rounding floor reached
            return float(np.sqrt(min(vv, float(v @ v))))
    return float(np.sqrt(v @ v))
