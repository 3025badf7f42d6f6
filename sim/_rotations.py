"""Private rotation helpers for mass/pairs/queries (quaternions in glTF order x, y, z, w).

The matrix kernel is ``sim.quat.to_matrix``; the inverse (matrix → quaternion) lives here.
Functions accept a single quaternion (4,) or a stack (..., 4) and return matching stacks.
"""

from __future__ import annotations

import numpy as np

from .quat import to_matrix


def normalize_quat(q: np.ndarray) -> np.ndarray:
    """Unit quaternion(s) (x, y, z, w); a zero quaternion becomes the identity."""
    q = np.asarray(q, dtype=float)
    n = np.linalg.norm(q, axis=-1, keepdims=True)
    ident = np.zeros_like(q)
    ident[..., 3] = 1.0
    return np.where(n > 0.0, q / np.where(n > 0.0, n, 1.0), ident)


def quat_to_matrix(q: np.ndarray) -> np.ndarray:
    """Rotation matrix/matrices (..., 3, 3) of quaternion(s) (x, y, z, w); input is normalised first."""
    return to_matrix(normalize_quat(q))


def matrix_to_quat(m: np.ndarray) -> np.ndarray:
    """Unit quaternion (x, y, z, w) with w >= 0 of a proper rotation matrix (3, 3) (Shepperd's method)."""
    m = np.asarray(m, dtype=float)
    tr = np.trace(m)
    diag = np.diag(m)
    k = int(np.argmax([tr, *diag]))
    if k == 0:
        s = 2.0 * np.sqrt(max(1.0 + tr, 0.0))
        q = [(m[2, 1] - m[1, 2]) / s, (m[0, 2] - m[2, 0]) / s, (m[1, 0] - m[0, 1]) / s, 0.25 * s]
    else:
        i = k - 1
        j, kk = (i + 1) % 3, (i + 2) % 3
        s = 2.0 * np.sqrt(max(1.0 + m[i, i] - m[j, j] - m[kk, kk], 0.0))
        q = [0.0, 0.0, 0.0, (m[kk, j] - m[j, kk]) / s]
        q[i] = 0.25 * s
        q[j] = (m[j, i] + m[i, j]) / s
        q[kk] = (m[kk, i] + m[i, kk]) / s
    q = normalize_quat(np.array(q))
    return -q if q[3] < 0.0 else q
