"""Joint attachment frames of a whole export in one numpy pass (issue 14): ``values_to_gltf.attachment_frame`` for
many (parent world, pivot world) pairs at once, and ``values_to_gltf.gltf_local`` for many nodes (``gltf_locals``).

The common case (finite matrices, non-degenerate pivot axes, invertible parent, a local transform a glTF TRS holds
exactly) is computed with stacked arrays; any other pair goes through the one-at-a-time ``attachment_frame``, so the
edge cases (zero-scale axes, singular parents, shear, non-finite values) keep exactly its answers.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ..gltf.model import Frame
from ..gltf.nodes import DEGENERATE
from ..gltf.transforms import matrix_to_quat
from .axes import axis_change
from .values_to_gltf import attachment_frame, gltf_local


def _rigid_many(m: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``nodes.rigid`` of each 4×4 in ``m`` (n, 4, 4) for the rows where both X and Y have a direction; (out, ok)."""
    x, y = m[:, :3, 0], m[:, :3, 1]
    tiny = DEGENERATE * np.sqrt(np.sum(m[:, :3, :3] ** 2, axis=(1, 2)))
    nx = np.sqrt(np.sum(x * x, axis=1))
    ok = nx > tiny
    x = x / np.where(ok, nx, 1.0)[:, None]
    y = y - np.sum(x * y, axis=1)[:, None] * x
    ny = np.sqrt(np.sum(y * y, axis=1))
    ok &= ny > tiny
    y = y / np.where(ok, ny, 1.0)[:, None]
    out = np.zeros_like(m)
    out[:, :3, 0], out[:, :3, 1], out[:, :3, 2] = x, y, np.cross(x, y)
    out[:, :3, 3] = m[:, :3, 3]
    out[:, 3, 3] = 1.0
    return out, ok


def _affine_inverse_many(m: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``nodes.affine_inverse`` of each 4×4 (3×3 part by cofactors); (out, ok) with ok False where singular."""
    a = m[:, :3, :3]
    cof = np.cross(a[:, [1, 2, 0], :], a[:, [2, 0, 1], :])  # row i: (row i+1) × (row i+2) = cofactor row i
    det = np.sum(a[:, 0, :] * cof[:, 0, :], axis=1)
    ok = np.abs(det) >= 1e-12
    inv = np.transpose(cof, (0, 2, 1)) / np.where(ok, det, 1.0)[:, None, None]
    out = np.zeros_like(m)
    out[:, :3, :3] = inv
    out[:, :3, 3] = -np.einsum("nij,nj->ni", inv, m[:, :3, 3])
    out[:, 3, 3] = 1.0
    return out, ok


def _decompose_many(local: np.ndarray, ok: np.ndarray) -> tuple[list, list, list, np.ndarray]:
    """Translations, rotations (xyzw) and scales of the 4×4s in ``local`` that a glTF TRS holds exactly (no shear,
    no zero or non-finite scale); ``ok`` (updated) marks them, the other rows hold placeholders."""
    basis = local[:, :3, :3]
    peak = np.max(np.abs(basis), axis=1)
    ok &= np.isfinite(local).all(axis=(1, 2)) & (peak >= 1e-12).all(axis=1)
    peak = np.where(ok[:, None], peak, 1.0)
    scale = peak * np.sqrt(np.sum((basis / peak[:, None, :]) ** 2, axis=1))
    ok &= (scale >= 1e-12).all(axis=1) & np.isfinite(scale).all(axis=1)
    scale = np.where(ok[:, None], scale, 1.0)
    rot = basis / scale[:, None, :]
    flip = np.linalg.det(rot) < 0
    scale[flip, 0] *= -1.0
    rot[flip, :, 0] *= -1.0
    unit = basis / scale[:, None, :]
    gram = np.transpose(unit, (0, 2, 1)) @ unit
    ok &= (np.abs(gram - np.eye(3)) <= 1e-6 + 1e-5 * np.eye(3)).all(axis=(1, 2))
    quats = matrix_to_quat(rot)
    return local[:, :3, 3].tolist(), quats.tolist(), scale.tolist(), ok


def _stacked(parents: Sequence[np.ndarray | None], matrices: Sequence[np.ndarray]) -> tuple[np.ndarray, ...]:
    """(parents, matrices) as (n, 4, 4) arrays (None = identity) and the rows where both are finite."""
    n = len(matrices)
    matrix = np.asarray(matrices, dtype=float).reshape(n, 4, 4)
    parent = np.array([np.eye(4) if p is None else np.asarray(p, dtype=float) for p in parents]).reshape(n, 4, 4)
    ok = np.isfinite(matrix).all(axis=(1, 2)) & np.isfinite(parent).all(axis=(1, 2))
    return parent, matrix, ok


def attachment_frames(
    parents: Sequence[np.ndarray | None], pivots: Sequence[np.ndarray], yup: bool = True
) -> list[Frame | None]:
    """``attachment_frame(parents[i], pivots[i], yup)`` for every i (equal to it within float rounding)."""
    n = len(pivots)
    if n == 0:
        return []
    parent, pivot, ok = _stacked(parents, pivots)
    with np.errstate(all="ignore"):  # rows with non-finite or degenerate values go the one-at-a-time way
        rigid, ok_rigid = _rigid_many(np.where(ok[:, None, None], pivot, np.eye(4)))
        inverse, ok_inverse = _affine_inverse_many(np.where(ok[:, None, None], parent, np.eye(4)))
        ok &= ok_rigid & ok_inverse
        translations, rotations, scales, ok = _decompose_many(axis_change(yup) @ inverse @ rigid, ok)
    out: list[Frame | None] = []
    for i in range(n):
        if not ok[i]:
            out.append(attachment_frame(parents[i], pivots[i], yup))
            continue
        out.append(
            Frame(
                translation=tuple(v if v != 0.0 else 0.0 for v in translations[i]),
                rotation=tuple(v if v != 0.0 else 0.0 for v in rotations[i]),
                scale=tuple(scales[i]),
            )
        )
    return out


def gltf_locals(
    parents: Sequence[np.ndarray | None], worlds: Sequence[np.ndarray], yup: bool = True
) -> list[tuple[tuple, tuple, tuple] | None]:
    """``values_to_gltf.gltf_local(parents[i] or identity, worlds[i], yup)`` for every i (within float rounding)."""
    n = len(worlds)
    if n == 0:
        return []
    parent, world, ok = _stacked(parents, worlds)
    k = axis_change(yup)
    with np.errstate(all="ignore"):  # rows with non-finite or degenerate values go the one-at-a-time way
        inverse, ok_inverse = _affine_inverse_many(np.where(ok[:, None, None], parent, np.eye(4)))
        ok &= ok_inverse
        translations, rotations, scales, ok = _decompose_many(k @ inverse @ world @ k.T, ok)
    return [
        (tuple(translations[i]), tuple(rotations[i]), tuple(scales[i]))
        if ok[i]
        else gltf_local(np.eye(4) if parents[i] is None else parents[i], worlds[i], yup)
        for i in range(n)
    ]
