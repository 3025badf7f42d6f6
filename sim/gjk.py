"""GJK distance between two convex sets given by support functions (pure numpy).

``gjk_distance(support)`` takes the support function of the Minkowski difference A − B (``d ↦ argmax_{x∈A−B} d·x``)
and returns the Euclidean distance between A and B (0 when they overlap). The closest point of each simplex is found
by brute force over its faces (at most 15 sub-simplices), which is slow-ish but robust. Bounds used:
``|v|`` (closest point of the current simplex) is an upper bound, ``v·w/|v|`` (w = support(−v)) a lower bound; the
search stops as soon as either bound settles the question asked (``stop_above``) or they meet within ``rel_tol``.
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import combinations

import numpy as np

Support = Callable[[np.ndarray], np.ndarray]


def _tetra_contains_origin(p: np.ndarray) -> bool:
    """Signed-volume test: the origin is inside (or on) the tetrahedron p (4, 3)."""
    full = np.linalg.det(p[1:] - p[0])
    if abs(full) <= 1e-300:
        return False
    for i in range(4):
        q = p.copy()
        q[i] = 0.0
        if np.linalg.det(q[1:] - q[0]) / full < -1e-12:
            return False
    return True


def _closest_on_simplex(points: list[np.ndarray]) -> tuple[np.ndarray, list[np.ndarray]]:
    """Closest point to the origin of conv(points) and the smallest sub-simplex containing it."""
    if len(points) == 4 and _tetra_contains_origin(np.array(points)):
        return np.zeros(3), points
    best, best_set, best_d2 = None, None, np.inf
    for k in range(1, min(len(points), 3) + 1):
        for subset in combinations(points, k):
            p = np.array(subset)
            if k == 1:
                x, lam = p[0], np.ones(1)
            else:
                e = p[1:] - p[0]
                g = e @ e.T
                if abs(np.linalg.det(g)) <= 1e-24 * max(np.trace(g), 1e-300) ** (k - 1):
                    continue
                mu = np.linalg.solve(g, -e @ p[0])
                lam = np.concatenate([[1.0 - mu.sum()], mu])
                if np.any(lam < -1e-12):
                    continue
                x = lam @ p
            d2 = float(x @ x)
            if d2 < best_d2 * (1.0 - 1e-14):  # prefer the smaller sub-simplex on rounding-level ties
                best, best_set, best_d2 = x, [q for q, w in zip(subset, lam, strict=True) if w > 1e-12] or [p[0]], d2
    return best, best_set


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
        if vv - vw <= rel_tol * vv or any(np.allclose(w, q, rtol=0, atol=abs_tol) for q in simplex):
            return np.sqrt(vv)
        simplex.append(w)
        v, simplex = _closest_on_simplex(simplex)
        if len(simplex) == 4:
            return 0.0
        if float(v @ v) >= vv * (1.0 - 1e-15):  # no progress: rounding floor reached
            return float(np.sqrt(min(vv, float(v @ v))))
    return float(np.sqrt(v @ v))
