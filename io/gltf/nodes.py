"""glTF node hierarchy helpers (bpy-free, numpy): parents, local/world matrices, TRS decomposition, and the one home
of the 4×4 frame math (``rigid``, ``affine_inverses``, ``rigid_inverse``, ``relative_offset``, ``decompositions``,
``exact_trs_many``).

Each rule has one implementation, written for a stack of matrices ``(n, 4, 4)``; one matrix is a stack of one
(``local_matrix``, ``decompose``, ``affine_inverse`` take one and return one; ``rigid`` and
``rigid_inverse`` take either). The edge cases (zero-scale axes, singular or non-finite matrices, shear) are rows of
the same arrays, so a node computed alone and the same node in a whole-file batch get the same answer.
``node_frames.WorldFrames`` composes the world matrices of a whole file.

All functions are defensive: malformed nodes read as identity transforms and cycles are cut.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Container, Iterable, Mapping

import numpy as np

from .read.common import is_number
from .transforms import matrix_to_quat, quat_to_matrix


def parent_map(nodes: list) -> dict[int, int]:
    """child index -> parent index (first parent wins on malformed files)."""
    parents: dict[int, int] = {}
    for i, node in enumerate(nodes):
        children = node.get("children") if isinstance(node, dict) else None
        if isinstance(children, list):
            for child in children:
                if isinstance(child, int) and not isinstance(child, bool) and 0 <= child < len(nodes):
                    parents.setdefault(child, i)
    return parents


def ancestors(index: int, parents: dict[int, int]) -> list[int]:
    """Ancestors of ``index`` from the parent up to the root (cycle-safe)."""
    out: list[int] = []
    seen = {index}
    while index in parents and parents[index] not in seen:
        index = parents[index]
        seen.add(index)
        out.append(index)
    return out


def nearest_marked(parents: Mapping[int, int], marked: Container[int], nodes: Iterable[int]) -> dict[int, int | None]:
    """For every node of ``nodes``: the first node in ``marked`` among itself and its ancestors (None = none).

    Same answer as walking ``[index, *ancestors(index, parents)]`` per node, but every node is looked up once (the
    answers are shared by all nodes below it), so a whole file costs O(nodes) instead of O(nodes × depth). A walk that
    runs into a cycle (malformed files) gets, for a node on the cycle, the first marked node going round from it.
    The returned dict also holds the answers of the ancestors visited.
    """
    memo: dict[int, int | None] = {}
    for start in nodes:
        path: list[int] = []
        on_path: dict[int, int] = {}
        current: int | None = start
        while current is not None and current not in memo and current not in on_path:
            on_path[current] = len(path)
            path.append(current)
            current = parents.get(current)
        if current is None:
            found = None
        elif current in memo:
            found = memo[current]
        else:  # a cycle: path[entry:] goes round
            entry = on_path[current]
            cycle = path[entry:]
            found = None
            for t in range(2 * len(cycle) - 1, -1, -1):  # first marked going forward, for each cycle node
                node = cycle[t % len(cycle)]
                if node in marked:
                    found = node
                if t < len(cycle):
                    memo[node] = found
            found = memo[path[entry]]
            path = path[:entry]
        for node in reversed(path):
            if node in marked:
                found = node
            memo[node] = found
    return memo


def _quat(m) -> tuple[float, float, float, float]:
    """``transforms.matrix_to_quat`` of one rotation as a tuple of Python floats."""
    return tuple(matrix_to_quat(m).tolist())


_PLAIN = frozenset({float, int})
_sum = np.add.reduce  # what ``np.sum`` calls, without its per-call dispatch (a small file makes many calls)


def _numbers(value, size: int) -> list | None:
    if type(value) is list and len(value) == size and set(map(type, value)) <= _PLAIN:
        try:
            if math.isfinite(sum(value)):  # a finite sum: every item is finite (the usual case, checked in C)
                return value
        except OverflowError:  # a huge integer: the item-by-item check below decides
            pass
    if isinstance(value, list) and len(value) == size and all(is_number(v) for v in value):
        return value
    return None


_KEYS_PRESENT = frozenset({"translation", "rotation", "scale"})


def _all_numbers(values: list, size: int) -> bool:
    """``_numbers(v, size)`` holds for every value, checked for the whole list at once (C-level passes over the
    lists and their items; a False answer sends the caller node by node)."""
    if set(map(type, values)) != {list} or set(map(len, values)) != {size}:
        return False
    flat = list(itertools.chain.from_iterable(values))
    if not set(map(type, flat)) <= _PLAIN:
        return False
    try:
        return math.isfinite(sum(flat))  # a finite sum: every item is finite
    except OverflowError:  # a huge integer
        return False


def local_matrices(nodes: list) -> np.ndarray:
    """(n, 4, 4) local matrices (``matrix`` or TRS) of ``nodes``, in one vectorised pass."""
    n = len(nodes)
    t, s = np.zeros((n, 3)), np.ones((n, 3))
    q = np.zeros((n, 4))
    q[:, 3] = 1.0
    explicit: dict[int, list | None] = {}
    found: dict[str, tuple[list, list]] = {"translation": ([], []), "rotation": ([], []), "scale": ([], [])}
    for i, node in enumerate(nodes):
        if not isinstance(node, dict):
            continue
        if "matrix" in node:
            explicit[i] = _numbers(node["matrix"], 16)
            continue
        for key in _KEYS_PRESENT.intersection(node):  # usually one to three of them
            found[key][0].append(i)
            found[key][1].append(node[key])
    for key, size in (("translation", 3), ("rotation", 4), ("scale", 3)):
        rows, values = found[key]
        if values and not _all_numbers(values, size):  # some value is malformed: node by node (it reads as identity)
            kept = [(i, v) for i, v in zip(rows, values, strict=True) if _numbers(v, size) is not None]
            found[key] = ([i for i, _ in kept], [v for _, v in kept])
    for key, target in (("translation", t), ("rotation", q), ("scale", s)):
        rows, values = found[key]
        if rows:  # one assignment per component kind, not one per node
            target[rows] = values
    out = np.zeros((n, 4, 4))
    out[:, :3, :3] = quat_to_matrix(q) * s[:, None, :]
    out[:, :3, 3] = t
    out[:, 3, 3] = 1.0
    for i, values in explicit.items():
        out[i] = np.eye(4) if values is None else np.array(values, dtype=float).reshape(4, 4).T
    return out


def local_matrix(node: object) -> np.ndarray:
    """A node's local 4x4 matrix (``local_matrices`` of one node)."""
    return local_matrices([node])[0]


def world_matrix(index: int, nodes: list, parents: dict[int, int]) -> np.ndarray:
    out = local_matrix(nodes[index])
    for parent in ancestors(index, parents):
        out = local_matrix(nodes[parent]) @ out
    return out


def _cross(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """``np.cross`` of stacks of 3-vectors (last axis), with its operations (``a1·b2 − a2·b1``, …) and without its
    per-call set-up, which costs more than the products for the few vectors of a small file."""
    a0, a1, a2 = a[..., 0], a[..., 1], a[..., 2]
    b0, b1, b2 = b[..., 0], b[..., 1], b[..., 2]
    out = np.empty(np.broadcast_shapes(a.shape, b.shape))
    out[..., 0], out[..., 1], out[..., 2] = a1 * b2 - a2 * b1, a2 * b0 - a0 * b2, a0 * b1 - a1 * b0
    return out


def _stack(m) -> tuple[np.ndarray, bool]:
    """``m`` (one 4×4 — numpy, rows of floats, mathutils — or a stack ``(n, 4, 4)``) as a float stack, and whether
    it was one matrix (the caller then returns its first row)."""
    m = np.asarray(m, dtype=float)
    return (m[None], True) if m.ndim == 2 else (m, False)


def decompositions(m) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(translations, rotations xyzw, scales, ok) of a stack of 4×4s ``(n, 4, 4)``; ``ok`` is False where a matrix
    is not finite or singular (its row holds placeholders). A reflection goes into a negative X scale.

    Each column's norm is taken without squaring huge values (divided by its largest entry first); the reflection is
    told by the sign of the rotation part's determinant (numpy's LU)."""
    basis = m[:, :3, :3]
    with np.errstate(all="ignore"):  # rows that are not finite or singular are marked, not warned about
        peak = np.max(np.abs(basis), axis=1)
        ok = np.isfinite(m).all(axis=(1, 2)) & (peak >= 1e-12).all(axis=1)
        peak = np.where(ok[:, None], peak, 1.0)
        scale = peak * np.sqrt(_sum((basis / peak[:, None, :]) ** 2, axis=1))
        ok &= (scale >= 1e-12).all(axis=1) & np.isfinite(scale).all(axis=1)
        scale = np.where(ok[:, None], scale, 1.0)
        rot = np.where(ok[:, None, None], basis, np.eye(3)) / scale[:, None, :]
        flip = np.linalg.det(rot) < 0
        scale[flip, 0] *= -1.0
        rot[flip, :, 0] *= -1.0
        rotation = matrix_to_quat(rot)
    return m[:, :3, 3], rotation, scale, ok


def decompose(m) -> tuple[tuple, tuple, tuple] | None:
    """4x4 (numpy or rows of floats) -> (translation, rotation xyzw, scale); None when singular or not finite
    (``decompositions`` of one matrix)."""
    t, q, s, ok = decompositions(_stack(m)[0])
    return (tuple(t[0].tolist()), tuple(q[0].tolist()), tuple(s[0].tolist())) if ok[0] else None


def exact_trs_many(m: np.ndarray) -> tuple[list, list, list, np.ndarray]:
    """``decompositions`` of a stack ``(n, 4, 4)`` as lists of Python floats, with ``ok`` also False where a glTF
    TRS cannot hold the matrix exactly (shear: the scaled-out basis is not orthonormal within 10⁻⁶)."""
    t, q, s, ok = decompositions(m)
    with np.errstate(all="ignore"):
        unit = m[:, :3, :3] / s[:, None, :]
        gram = np.transpose(unit, (0, 2, 1)) @ unit
        ok &= (np.abs(gram - np.eye(3)) <= 1e-6 + 1e-5 * np.eye(3)).all(axis=(1, 2))
    return t.tolist(), q.tolist(), s.tolist(), ok


def relative_frame(target: int, base: int, nodes: list, parents: dict[int, int]):
    """The world transform of node ``target`` expressed in node ``base``'s local space, decomposed (or None)."""
    with np.errstate(over="ignore", invalid="ignore"):  # huge or tiny transforms: decompose refuses non-finite
        inverse = affine_inverse(world_matrix(base, nodes, parents))
        return None if inverse is None else decompose(inverse @ world_matrix(target, nodes, parents))


# --- rigid transforms -------------------------------------------------------------------------------------------


DEGENERATE = 1e-9  # an axis shorter than this fraction of the 3×3 block's size has no direction


def _unit_orthogonal(v: np.ndarray) -> np.ndarray:
    """Unit vectors orthogonal to the unit vectors ``v`` (n, 3): the coordinate axis least aligned with each (the
    first of equals), made orthogonal to it."""
    k = np.argmin(np.abs(v), axis=1)
    w = np.eye(3)[k] - v[np.arange(len(v)), k][:, None] * v
    return w / np.sqrt(_sum(w * w, axis=1))[:, None]


def rigid(m) -> np.ndarray:
    """The 4×4 (or each of a stack ``(n, 4, 4)``) without scale/shear (Gram-Schmidt on X then Y; Z = X × Y), always
    a proper rotation: an axis with no direction (shorter than ``DEGENERATE`` × the 3×3 block's size) is replaced by
    one orthogonal to the other (X: +X when both have none); the bottom row is (0, 0, 0, 1)."""
    m, one = _stack(m)
    x, y = m[:, :3, 0], m[:, :3, 1]
    with np.errstate(all="ignore"):  # degenerate and non-finite rows take the replacement axes
        tiny = DEGENERATE * np.sqrt(_sum(m[:, :3, :3] ** 2, axis=(1, 2)))
        nx, ny = np.sqrt(_sum(x * x, axis=1)), np.sqrt(_sum(y * y, axis=1))
        has_x, has_y = nx > tiny, ny > tiny
        ux = x / np.where(has_x, nx, 1.0)[:, None]
        if not has_x.all():
            uy = y / np.where(has_y, ny, 1.0)[:, None]
            other = np.where(has_y[:, None], _unit_orthogonal(np.where(has_y[:, None], uy, 1.0)), (1.0, 0.0, 0.0))
            ux = np.where(has_x[:, None], ux, other)
        y = y - _sum(ux * y, axis=1)[:, None] * ux
        n = np.sqrt(_sum(y * y, axis=1))
        has_y = n > tiny
        uy = y / np.where(has_y, n, 1.0)[:, None]
        if not has_y.all():
            uy = np.where(has_y[:, None], uy, _unit_orthogonal(ux))
    out = np.zeros(m.shape)
    out[:, :3, 0], out[:, :3, 1], out[:, :3, 2], out[:, :3, 3] = ux, uy, _cross(ux, uy), m[:, :3, 3]
    out[:, 3, 3] = 1.0
    return out[0] if one else out


def affine_inverses(m: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Inverses of a stack of affine 4×4s ``(n, 4, 4)`` (3×3 part by cofactors) and ``ok``: False where singular
    (|det| < 10⁻¹² or not finite; the row holds placeholders)."""
    a = m[:, :3, :3]
    with np.errstate(all="ignore"):
        cof = _cross(a[:, [1, 2, 0], :], a[:, [2, 0, 1], :])  # row i: (row i+1) × (row i+2) = cofactor row i
        det = _sum(a[:, 0, :] * cof[:, 0, :], axis=1)
        ok = np.abs(det) >= 1e-12
        inv = np.transpose(cof, (0, 2, 1)) / np.where(ok, det, 1.0)[:, None, None]
        out = np.zeros(m.shape)
        out[:, :3, :3] = inv
        out[:, :3, 3] = -_sum(inv * m[:, None, :3, 3], axis=2)
    out[:, 3, 3] = 1.0
    return out, ok


def affine_inverse(m) -> np.ndarray | None:
    """Inverse of one affine 4×4 (``affine_inverses``); None when singular."""
    out, ok = affine_inverses(_stack(m)[0])
    return out[0] if ok[0] else None


def rigid_inverse(m: np.ndarray) -> np.ndarray:
    """Inverse of a rigid 4×4 transform (rotation + translation), or of each of a stack ``(n, 4, 4)``."""
    m = np.asarray(m, dtype=float)
    out = np.zeros(m.shape)
    rotation = m[..., :3, :3].swapaxes(-1, -2)
    out[..., :3, :3] = rotation
    out[..., :3, 3] = -_sum(rotation * m[..., None, :3, 3], axis=-1)
    out[..., 3, 3] = 1.0
    return out


def relative_offset(frame_a: np.ndarray, frame_b: np.ndarray):
    """Frame B relative to frame A (both rigid): (translation in A, rotation xyzw)."""
    rel = rigid_inverse(frame_a) @ frame_b
    return tuple(float(v) for v in rel[:3, 3]), _quat(rel)
