"""World transforms of every glTF node at once (bpy-free, numpy; import speed).

``WorldFrames`` computes all local matrices in one vectorised pass and composes them level by level down the
hierarchy, instead of walking each node's ancestors with small numpy products. Values equal
``nodes.world_matrix`` (same TRS rules: malformed data reads as identity); nodes on a parent cycle fall back to
it, node by node.
"""

from __future__ import annotations

import functools
import itertools
import math

import numpy as np

from .nodes import DEGENERATE, parent_map, rigid, world_matrix
from .read.common import is_number

_PLAIN = frozenset({float, int})


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


def _quat_matrices(q: np.ndarray) -> np.ndarray:
    """(n, 4) quaternions (x, y, z, w; normalised here, zero → identity) → (n, 3, 3) rotation matrices."""
    norm = np.linalg.norm(q, axis=1)
    q = np.where(norm[:, None] > 0.0, q / np.where(norm > 0.0, norm, 1.0)[:, None], (0.0, 0.0, 0.0, 1.0))
    x, y, z, w = q.T
    out = np.empty((len(q), 3, 3))
    out[:, 0, 0] = 1 - 2 * (y * y + z * z)
    out[:, 0, 1] = 2 * (x * y - z * w)
    out[:, 0, 2] = 2 * (x * z + y * w)
    out[:, 1, 0] = 2 * (x * y + z * w)
    out[:, 1, 1] = 1 - 2 * (x * x + z * z)
    out[:, 1, 2] = 2 * (y * z - x * w)
    out[:, 2, 0] = 2 * (x * z - y * w)
    out[:, 2, 1] = 2 * (y * z + x * w)
    out[:, 2, 2] = 1 - 2 * (x * x + y * y)
    return out


SMALL = 32  # up to this many nodes / pairs, plain Python floats (about where numpy's fixed cost breaks even)


def _quat_rows(q: list, s: list) -> list:
    """``_quat_matrices`` of one quaternion times the scale columns ``s``, as three rows of floats: the same IEEE
    operations in the same order as the numpy path (norm: ((x² + y²) + z²) + w², as ``np.linalg.norm`` sums a row)."""
    x, y, z, w = (float(v) for v in q)
    norm = math.sqrt(x * x + y * y + z * z + w * w)
    if norm > 0.0:
        x, y, z, w = x / norm, y / norm, z / norm, w / norm
    else:
        x, y, z, w = 0.0, 0.0, 0.0, 1.0
    sx, sy, sz = (float(v) for v in s)
    return [
        [(1 - 2 * (y * y + z * z)) * sx, (2 * (x * y - z * w)) * sy, (2 * (x * z + y * w)) * sz],
        [(2 * (x * y + z * w)) * sx, (1 - 2 * (x * x + z * z)) * sy, (2 * (y * z - x * w)) * sz],
        [(2 * (x * z - y * w)) * sx, (2 * (y * z + x * w)) * sy, (1 - 2 * (x * x + y * y)) * sz],
    ]


_IDENTITY_ROWS = ([1.0, 0.0, 0.0, 0.0], [0.0, 1.0, 0.0, 0.0], [0.0, 0.0, 1.0, 0.0], [0.0, 0.0, 0.0, 1.0])


def _local_rows(node) -> list:
    """The local matrix of one node as four rows of floats (``local_matrices`` without numpy)."""
    if not isinstance(node, dict):
        return [list(row) for row in _IDENTITY_ROWS]
    if "matrix" in node:
        values = _numbers(node["matrix"], 16)
        if values is None:
            return [list(row) for row in _IDENTITY_ROWS]
        return [[float(values[c * 4 + r]) for c in range(4)] for r in range(4)]  # column-major
    t = _numbers(node["translation"], 3) if "translation" in node else None
    q = _numbers(node["rotation"], 4) if "rotation" in node else None
    s = _numbers(node["scale"], 3) if "scale" in node else None
    tx, ty, tz = (float(v) for v in t) if t is not None else (0.0, 0.0, 0.0)
    if q is None and s is None:  # the identity quaternion, unit scale: exactly these rows (+0.0 off the diagonal)
        return [[1.0, 0.0, 0.0, tx], [0.0, 1.0, 0.0, ty], [0.0, 0.0, 1.0, tz], [0.0, 0.0, 0.0, 1.0]]
    rows = _quat_rows(q or (0.0, 0.0, 0.0, 1.0), s or (1.0, 1.0, 1.0))
    return [[*rows[0], tx], [*rows[1], ty], [*rows[2], tz], [0.0, 0.0, 0.0, 1.0]]


# rotations whose norm comes out differently in every other order of summing the four squares
_WITNESSES = (
    (-8.840021504505863, -0.0005706036383286765, -0.00013270863267522825, -5.186739997459499),
    (638.5596756714826, 10.04391056063929, -0.016940696557660284, 0.3654461187749032),
    (-68.20478340478031, -7.629942745968641, -0.0006014999402809939, 0.0008725086819074328),
)


@functools.cache
def python_exact() -> bool:
    """``_local_rows`` gives this numpy's very floats (numpy 1.26 sums a row's squares left to right; a numpy that
    sums them in another order makes ``local_matrices`` keep its numpy path). Checked once per process."""
    nodes = [{"rotation": list(q), "scale": [1.5, -0.25, 3.0], "translation": [1, 2, 3]} for q in _WITNESSES]
    with np.errstate(all="ignore"):
        return all(
            np.array([_local_rows(node) for node in nodes[:count]]).tobytes()
            == _local_matrices_numpy(nodes[:count]).tobytes()
            for count in (1, len(nodes))
        )


def local_matrices(nodes: list) -> np.ndarray:
    """(n, 4, 4) local matrices (``matrix`` or TRS) of ``nodes``."""
    n = len(nodes)
    if n <= SMALL and python_exact():  # one flat buffer: faster than nested lists
        values = itertools.chain.from_iterable(itertools.chain.from_iterable(map(_local_rows, nodes)))
        return np.fromiter(values, dtype=float, count=16 * n).reshape(n, 4, 4)
    return _local_matrices_numpy(nodes)


def _local_matrices_numpy(nodes: list) -> np.ndarray:
    """``local_matrices`` vectorised (many nodes); the reference of ``_local_rows``."""
    n = len(nodes)
    t, s = np.zeros((n, 3)), np.ones((n, 3))
    q = np.tile((0.0, 0.0, 0.0, 1.0), (n, 1))
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
    out[:, :3, :3] = _quat_matrices(q) * s[:, None, :]
    out[:, :3, 3] = t
    out[:, 3, 3] = 1.0
    for i, values in explicit.items():
        out[i] = np.eye(4) if values is None else np.array(values, dtype=float).reshape(4, 4).T
    return out


class _UnsureError(Exception):
    """The Python path cannot promise numpy's floats for this input (non-finite values, a borderline axis)."""


def _rigid_rows(m: list, k: int, world: np.ndarray) -> list:
    """``_rigid`` of one 4×4 (rows of floats) with the numpy path's IEEE operations in its order (sums left to
    right; the degenerate test against a size estimate that only decides when it is far from the border)."""
    x0, x1, x2 = m[0][0], m[1][0], m[2][0]
    y0, y1, y2 = m[0][1], m[1][1], m[2][1]
    size = math.sqrt(sum(v * v for row in m[:3] for v in row[:3]))
    tiny = DEGENERATE * size
    nx = math.sqrt(x0 * x0 + x1 * x1 + x2 * x2)
    if not math.isfinite(tiny) or not math.isfinite(nx):
        raise _UnsureError
    if nx > 0.0:
        x0, x1, x2 = x0 / nx, x1 / nx, x2 / nx
    d = x0 * y0 + x1 * y1 + x2 * y2
    y0, y1, y2 = y0 - d * x0, y1 - d * x1, y2 - d * x2
    ny = math.sqrt(y0 * y0 + y1 * y1 + y2 * y2)
    if not math.isfinite(ny):
        raise _UnsureError
    low, high = tiny * (1.0 - 1e-12), tiny * (1.0 + 1e-12)  # other summation orders stay far inside this band
    if low <= nx <= high or low <= ny <= high:
        raise _UnsureError
    if nx < low or ny < low:
        return rigid(world[k]).tolist()
    if ny > 0.0:
        y0, y1, y2 = y0 / ny, y1 / ny, y2 / ny
    z0, z1, z2 = x1 * y2 - x2 * y1, x2 * y0 - x0 * y2, x0 * y1 - x1 * y0
    return [[x0, y0, z0, m[0][3]], [x1, y1, z1, m[1][3]], [x2, y2, z2, m[2][3]], [0.0, 0.0, 0.0, 1.0]]


def _column_norms(rows: list) -> list[tuple[float, float, float]]:
    """Per-axis lengths (columns of the 3×3 block) of 4×4 matrices given as rows of floats, summed top to bottom."""
    return [tuple(math.sqrt(m[0][c] * m[0][c] + m[1][c] * m[1][c] + m[2][c] * m[2][c]) for c in range(3)) for m in rows]


@functools.cache
def rigid_python_exact() -> bool:
    """``_rigid_rows`` and ``_column_norms`` give this numpy's very floats (checked once per process on
    pseudo-random matrices, in a batch and one by one: numpy 1.26 sums 3-vectors left to right; another order
    keeps ``_rigid`` and the scales on numpy)."""
    values = np.sin(np.arange(1.0, 1.0 + 48 * 16) * 12.9898) * 10.0 ** (np.arange(48 * 16) % 5 - 2)
    world = values.reshape(48, 4, 4)
    try:
        with np.errstate(all="ignore"):
            batches = [world, world[:1], world[1:2], world[2:3]]
            return all(
                np.array([_rigid_rows(m, k, batch) for k, m in enumerate(batch.tolist())]).tobytes()
                == _rigid_numpy(batch).tobytes()
                and np.array(_column_norms(batch.tolist())).tobytes()
                == np.linalg.norm(batch[:, :3, :3], axis=1).tobytes()
                for batch in batches
            )
    except _UnsureError:
        return False


def _rigid(world: np.ndarray) -> np.ndarray:
    """``nodes.rigid`` of every world matrix at once (Gram-Schmidt on X then Y; Z = X × Y: a reflection flips Z);
    the rare matrices with an axis of no direction go through ``nodes.rigid`` itself."""
    if len(world) <= SMALL and rigid_python_exact():
        try:
            rows = [_rigid_rows(m, k, world) for k, m in enumerate(world.tolist())]
            return np.array(rows, dtype=float).reshape(len(world), 4, 4)
        except _UnsureError:
            pass
    return _rigid_numpy(world)


def _rigid_numpy(world: np.ndarray) -> np.ndarray:
    """``_rigid`` vectorised (many nodes, unusual values); the reference of ``_rigid_rows``."""
    x, y = world[:, :3, 0], world[:, :3, 1]
    tiny = DEGENERATE * np.linalg.norm(world[:, :3, :3], axis=(1, 2))
    nx = np.linalg.norm(x, axis=1)
    x = x / np.where(nx > 0.0, nx, 1.0)[:, None]
    y = y - np.sum(x * y, axis=1)[:, None] * x
    ny = np.linalg.norm(y, axis=1)
    y = y / np.where(ny > 0.0, ny, 1.0)[:, None]
    out = world.copy()
    out[:, :3, 0], out[:, :3, 1], out[:, :3, 2] = x, y, np.cross(x, y)
    out[:, 3] = (0.0, 0.0, 0.0, 1.0)  # as nodes.rigid: a (non-glTF) projective last row is dropped
    for k in np.nonzero((nx <= tiny) | (ny <= tiny))[0]:
        out[k] = rigid(world[k])
    return out


def _matrix_to_quat(m: list) -> tuple[float, float, float, float]:
    """``matrices_to_quats`` of one 3×3 matrix (rows of floats) with the same IEEE operations; ZeroDivisionError
    or ValueError where the numpy path gives inf / nan (the caller then takes that path)."""
    m00, m11, m22 = m[0][0], m[1][1], m[2][2]
    trace = m00 + m11 + m22
    if trace > 0:
        s = math.sqrt(trace + 1.0) * 2
        q = ((m[2][1] - m[1][2]) / s, (m[0][2] - m[2][0]) / s, (m[1][0] - m[0][1]) / s, 0.25 * s)
    elif m00 > m11 and m00 > m22:
        s = math.sqrt(1.0 + m00 - m11 - m22) * 2
        q = (0.25 * s, (m[0][1] + m[1][0]) / s, (m[0][2] + m[2][0]) / s, (m[2][1] - m[1][2]) / s)
    elif m11 > m22:
        s = math.sqrt(1.0 + m11 - m00 - m22) * 2
        q = ((m[0][1] + m[1][0]) / s, 0.25 * s, (m[1][2] + m[2][1]) / s, (m[0][2] - m[2][0]) / s)
    else:
        s = math.sqrt(1.0 + m22 - m00 - m11) * 2
        q = ((m[0][2] + m[2][0]) / s, (m[1][2] + m[2][1]) / s, 0.25 * s, (m[1][0] - m[0][1]) / s)
    return (-q[0], -q[1], -q[2], -q[3]) if q[3] < 0 else q


def matrices_to_quats(m: np.ndarray) -> np.ndarray:
    """(n, 3, 3) proper rotations → (n, 4) quaternions (x, y, z, w), w ≥ 0; ``nodes.matrix_to_quat`` per row."""
    if len(m) <= SMALL:
        try:
            return np.array([_matrix_to_quat(rows) for rows in m.tolist()], dtype=float).reshape(len(m), 4)
        except (ZeroDivisionError, ValueError):  # degenerate input: the numpy path's inf / nan
            pass
    return _matrices_to_quats_numpy(m)


def _matrices_to_quats_numpy(m: np.ndarray) -> np.ndarray:
    """``matrices_to_quats`` vectorised (many matrices, degenerate ones); the reference of ``_matrix_to_quat``."""
    m00, m11, m22 = m[:, 0, 0], m[:, 1, 1], m[:, 2, 2]
    trace = m00 + m11 + m22
    cases = [trace > 0, (m00 > m11) & (m00 > m22), m11 > m22]
    with np.errstate(invalid="ignore", divide="ignore"):  # every branch is evaluated; the chosen one is valid
        s0 = np.sqrt(trace + 1.0) * 2
        s1 = np.sqrt(1.0 + m00 - m11 - m22) * 2
        s2 = np.sqrt(1.0 + m11 - m00 - m22) * 2
        s3 = np.sqrt(1.0 + m22 - m00 - m11) * 2
        d10, d01 = m[:, 1, 0] - m[:, 0, 1], m[:, 0, 1] + m[:, 1, 0]
        d21, d12 = m[:, 2, 1] - m[:, 1, 2], m[:, 1, 2] + m[:, 2, 1]
        d02, d20 = m[:, 0, 2] - m[:, 2, 0], m[:, 0, 2] + m[:, 2, 0]
        branches = [
            (d21 / s0, d02 / s0, d10 / s0, 0.25 * s0),
            (0.25 * s1, d01 / s1, d20 / s1, d21 / s1),
            (d01 / s2, 0.25 * s2, d12 / s2, d02 / s2),
            (d20 / s3, d12 / s3, 0.25 * s3, d10 / s3),
        ]
    out = np.stack([np.select(cases, [b[k] for b in branches[:3]], branches[3][k]) for k in range(4)], axis=1)
    return np.where(out[:, 3:4] < 0, -out, out)


class WorldFrames:
    """World 4×4 matrices (glTF space) of all nodes: ``world(i)``, ``rigid(i)`` (scale removed), ``scale(i)``."""

    def __init__(self, nodes: list, parents: dict[int, int] | None = None):
        self.nodes = nodes if isinstance(nodes, list) else []
        self.parent = parents if parents is not None else parent_map(self.nodes)
        local = local_matrices(self.nodes)
        levels = self._levels()
        world = local.copy() if self._cyclic or any(levels) else local  # all roots: world = local
        for level in levels:
            if level:
                idx = np.array(level)
                world[idx] = world[[self.parent[i] for i in level]] @ local[idx]
        for i in self._cyclic:
            world[i] = world_matrix(i, self.nodes, self.parent)
        self._world = world
        self._rigid_all: np.ndarray | None = None
        self._scales: list | None = None  # per-axis world scales, on first use

    def _levels(self) -> list[list[int]]:
        """Non-root nodes grouped by depth (parents first); nodes whose ancestry loops go to ``_cyclic``."""
        depth: dict[int, int] = {}
        self._cyclic: list[int] = []
        for start in range(len(self.nodes)):
            chain, i = [], start
            while i in self.parent and i not in depth and i not in chain:
                chain.append(i)
                i = self.parent[i]
            if i in chain:  # a cycle: these nodes are computed one by one
                self._cyclic += [c for c in chain if c not in depth]
                for c in chain:
                    depth.setdefault(c, -1)
                continue
            base = depth.get(i, 0)
            for offset, c in enumerate(reversed(chain), start=1):
                depth[c] = base + offset if base >= 0 else -1
                if base < 0:
                    self._cyclic.append(c)
        levels: list[list[int]] = [[] for _ in range(max(depth.values(), default=0) + 1)]
        for i, d in depth.items():
            if d > 0:
                levels[d].append(i)
        return levels

    def world(self, index: int) -> np.ndarray:
        return self._world[index]

    def rigid(self, index: int) -> np.ndarray:
        if self._rigid_all is None:
            self._rigid_all = _rigid(self._world)
        return self._rigid_all[index]

    def relative_many(self, pairs: list[tuple[int | None, int]]) -> dict:
        """Rigid frame ``b`` in rigid frame ``a`` (``a`` None = the world) for many pairs at once.

        ``{(a, b): (translation, quaternion xyzw)}`` as ``nodes.relative_offset`` gives them one by one.
        """
        pairs = list(dict.fromkeys(pairs))
        if not pairs:
            return {}
        if self._rigid_all is None:
            self._rigid_all = _rigid(self._world)
        table = np.concatenate([self._rigid_all, np.eye(4)[None]])  # index -1: the world
        a = table[[len(self._world) if i is None else i for i, _ in pairs]]
        b = table[[j for _, j in pairs]]
        inverse = np.zeros_like(a)  # nodes.rigid_inverse, stacked
        inverse[:, :3, :3] = np.transpose(a[:, :3, :3], (0, 2, 1))
        inverse[:, :3, 3] = -np.einsum("nij,nj->ni", inverse[:, :3, :3], a[:, :3, 3])
        inverse[:, 3, 3] = 1.0
        rel = inverse @ b
        t = rel[:, :3, 3]
        q = matrices_to_quats(rel[:, :3, :3])
        t, q = t.tolist(), q.tolist()  # the same Python floats as float() per element, in one call each
        return {pair: (tuple(t[k]), tuple(q[k])) for k, pair in enumerate(pairs)}

    def scale(self, index: int) -> tuple[float, float, float]:
        """Absolute per-axis world scale (glTF axes)."""
        if self._scales is None:
            world = self._world
            if len(world) <= SMALL and rigid_python_exact():
                self._scales = _column_norms(world.tolist())
            else:
                self._scales = list(map(tuple, np.linalg.norm(world[:, :3, :3], axis=1).tolist()))
        return self._scales[index]
