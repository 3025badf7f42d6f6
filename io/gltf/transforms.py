"""Quaternion ⇄ rotation matrix, the one home of both conversions (bpy-free, numpy).

Quaternions are glTF-ordered ``(x, y, z, w)``. Both functions take one value or a stack (``(..., 4)`` /
``(..., 3, 3)``) and compute every element with the same IEEE operations in the same order, so a node read one by one
and the same node in a whole-file batch get the very same floats: the exported bytes depend on that, and on the
branch order of ``matrix_to_quat`` (trace first, then the largest diagonal entry).
"""

from __future__ import annotations

import numpy as np

_IDENTITY = np.array((0.0, 0.0, 0.0, 1.0))  # what a zero quaternion reads as


def quat_to_matrix(q) -> np.ndarray:
    """Rotation matrix/matrices ``(..., 3, 3)`` of quaternion(s) ``(..., 4)``, normalised first (zero → identity).

    The norm is summed x² + y² + z² + w² left to right (not ``np.linalg.norm``, whose order of summing depends on the
    array's shape)."""
    q = np.asarray(q, dtype=float)
    x, y, z, w = q[..., 0], q[..., 1], q[..., 2], q[..., 3]
    with np.errstate(over="ignore", invalid="ignore"):  # a huge or non-finite quaternion: inf / nan, no warning
        norm = np.sqrt(x * x + y * y + z * z + w * w)
    unit = norm > 0.0
    q = np.where(unit[..., None], q / np.where(unit, norm, 1.0)[..., None], _IDENTITY)
    x, y, z, w = q[..., 0], q[..., 1], q[..., 2], q[..., 3]
    xx, yy, zz = x * x, y * y, z * z  # each product once: the same floats as computing it in every entry
    xy, xz, yz, xw, yw, zw = x * y, x * z, y * z, x * w, y * w, z * w
    out = np.empty((*q.shape[:-1], 3, 3))
    out[..., 0, 0] = 1 - 2 * (yy + zz)
    out[..., 0, 1] = 2 * (xy - zw)
    out[..., 0, 2] = 2 * (xz + yw)
    out[..., 1, 0] = 2 * (xy + zw)
    out[..., 1, 1] = 1 - 2 * (xx + zz)
    out[..., 1, 2] = 2 * (yz - xw)
    out[..., 2, 0] = 2 * (xz - yw)
    out[..., 2, 1] = 2 * (yz + xw)
    out[..., 2, 2] = 1 - 2 * (xx + yy)
    return out


#: Per branch of ``matrix_to_quat`` (trace, then the largest diagonal entry: X, Y, Z): which of the six sums and
#: differences ``(d10, d01, d21, d12, d02, d20)`` each quaternion component divides by the branch's ``s``, and which
#: component is ``s / 4`` instead (its column in the table is a placeholder).
_BRANCH_NUMERATORS = np.array([(2, 4, 0, 0), (0, 1, 5, 2), (1, 0, 3, 4), (5, 3, 0, 0)])
_BRANCH_QUARTER = np.array([3, 0, 1, 2])
#: The six as ``first + sign · second`` of the row-major 3×3 entries: m10 − m01, m01 + m10, m21 − m12, m12 + m21,
#: m02 − m20, m02 + m20.
_OFF_FIRST, _OFF_SECOND = np.array([3, 1, 7, 5, 2, 2]), np.array([1, 3, 5, 7, 6, 6])
_OFF_SIGN = np.array([-1.0, 1.0, -1.0, 1.0, -1.0, 1.0])


def matrix_to_quat(m) -> np.ndarray:
    """Quaternion(s) ``(..., 4)`` with w ≥ 0 of proper rotation matrix/matrices ``(..., 3, 3)`` (any 3×3 block of a
    larger matrix is read from its top-left corner). Degenerate input gives inf / nan, never an exception.

    Each matrix takes one branch (trace > 0, else its largest diagonal entry) and only that branch is computed, with
    the same operations as evaluating it alone: ``s = 2·√(radicand)``, one component ``s / 4`` and the others a sum or
    difference of two off-diagonal entries divided by ``s``."""
    m = np.asarray(m, dtype=float)
    shape = m.shape[:-2]
    flat = m[..., :3, :3].reshape(-1, 9)  # row-major entries of each 3×3 block
    m00, m11, m22 = flat[:, 0], flat[:, 4], flat[:, 8]
    with np.errstate(invalid="ignore", divide="ignore"):  # a degenerate matrix: inf / nan in its row
        trace = m00 + m11 + m22
        branch = np.where(trace > 0, 0, np.where((m00 > m11) & (m00 > m22), 1, np.where(m11 > m22, 2, 3)))
        rows = np.arange(len(flat))
        radicands = np.empty((len(flat), 4))  # columns filled in place (``np.stack`` costs more than they do)
        radicands[:, 0] = trace + 1.0
        radicands[:, 1] = 1.0 + m00 - m11 - m22
        radicands[:, 2] = 1.0 + m11 - m00 - m22
        radicands[:, 3] = 1.0 + m22 - m00 - m11
        off = flat[:, _OFF_FIRST] + _OFF_SIGN * flat[:, _OFF_SECOND]  # a − b is a + (−b): the same bits
        s = np.sqrt(radicands[rows, branch]) * 2
        out = off[rows[:, None], _BRANCH_NUMERATORS[branch]] / s[:, None]
        out[rows, _BRANCH_QUARTER[branch]] = 0.25 * s
    out = np.where(out[:, 3:4] < 0, -out, out)
    return out.reshape(*shape, 4)
