"""Quaternion ⇄ rotation matrix, the one home of both conversions (bpy-free, numpy).

Quaternions are glTF-ordered ``(x, y, z, w)``. Both functions take one value or a stack (``(..., 4)`` /
``(..., 3, 3)``) and compute every element with the same IEEE operations in the same order, so a node read one by one
and the same node in a whole-file batch get the very same floats: the exported bytes depend on that, and on the
branch order of ``matrix_to_quat`` (trace first, then the largest diagonal entry).
"""

from __future__ import annotations

import numpy as np


def quat_to_matrix(q) -> np.ndarray:
    """Rotation matrix/matrices ``(..., 3, 3)`` of quaternion(s) ``(..., 4)``, normalised first (zero → identity).

    The norm is summed x² + y² + z² + w² left to right (not ``np.linalg.norm``, whose order of summing depends on the
    array's shape)."""
    q = np.asarray(q, dtype=float)
    x, y, z, w = q[..., 0], q[..., 1], q[..., 2], q[..., 3]
    with np.errstate(over="ignore", invalid="ignore"):  # a huge or non-finite quaternion: inf / nan, no warning
        norm = np.sqrt(x * x + y * y + z * z + w * w)
    unit = norm > 0.0
    safe = np.where(unit, norm, 1.0)
    x, y, z, w = (np.where(unit, x / safe, 0.0), np.where(unit, y / safe, 0.0), np.where(unit, z / safe, 0.0),
                  np.where(unit, w / safe, 1.0))  # fmt: skip
    out = np.empty((*q.shape[:-1], 3, 3))
    out[..., 0, 0] = 1 - 2 * (y * y + z * z)
    out[..., 0, 1] = 2 * (x * y - z * w)
    out[..., 0, 2] = 2 * (x * z + y * w)
    out[..., 1, 0] = 2 * (x * y + z * w)
    out[..., 1, 1] = 1 - 2 * (x * x + z * z)
    out[..., 1, 2] = 2 * (y * z - x * w)
    out[..., 2, 0] = 2 * (x * z - y * w)
    out[..., 2, 1] = 2 * (y * z + x * w)
    out[..., 2, 2] = 1 - 2 * (x * x + y * y)
    return out


def matrix_to_quat(m) -> np.ndarray:
    """Quaternion(s) ``(..., 4)`` with w ≥ 0 of proper rotation matrix/matrices ``(..., 3, 3)`` (any 3×3 block of a
    larger matrix is read from its top-left corner). Degenerate input gives inf / nan, never an exception."""
    m = np.asarray(m, dtype=float)
    m00, m11, m22 = m[..., 0, 0], m[..., 1, 1], m[..., 2, 2]
    trace = m00 + m11 + m22
    cases = [trace > 0, (m00 > m11) & (m00 > m22), m11 > m22]
    with np.errstate(invalid="ignore", divide="ignore"):  # every branch is evaluated; the chosen one is valid
        s0 = np.sqrt(trace + 1.0) * 2
        s1 = np.sqrt(1.0 + m00 - m11 - m22) * 2
        s2 = np.sqrt(1.0 + m11 - m00 - m22) * 2
        s3 = np.sqrt(1.0 + m22 - m00 - m11) * 2
        d10, d01 = m[..., 1, 0] - m[..., 0, 1], m[..., 0, 1] + m[..., 1, 0]
        d21, d12 = m[..., 2, 1] - m[..., 1, 2], m[..., 1, 2] + m[..., 2, 1]
        d02, d20 = m[..., 0, 2] - m[..., 2, 0], m[..., 0, 2] + m[..., 2, 0]
        branches = [
            (d21 / s0, d02 / s0, d10 / s0, 0.25 * s0),
            (0.25 * s1, d01 / s1, d20 / s1, d21 / s1),
            (d01 / s2, 0.25 * s2, d12 / s2, d02 / s2),
            (d20 / s3, d12 / s3, 0.25 * s3, d10 / s3),
        ]
    out = np.stack([np.select(cases, [b[k] for b in branches[:3]], branches[3][k]) for k in range(4)], axis=-1)
    return np.where(out[..., 3:4] < 0, -out, out)
