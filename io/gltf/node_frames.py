"""World transforms of every glTF node at once (bpy-free, numpy; import speed).

``WorldFrames`` computes all local matrices in one vectorised pass and composes them level by level down the
hierarchy, instead of walking each node's ancestors with small numpy products. Values equal
``nodes.world_matrix`` (same TRS rules: malformed data reads as identity); nodes on a parent cycle fall back to
it, node by node.
"""

from __future__ import annotations

import itertools
import math

import numpy as np

from .nodes import DEGENERATE, parent_map, rigid, world_matrix
from .read.common import is_number
from .transforms import matrix_to_quat, quat_to_matrix

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


def local_matrices(nodes: list) -> np.ndarray:
    """(n, 4, 4) local matrices (``matrix`` or TRS) of ``nodes``, in one vectorised pass."""
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
    out[:, :3, :3] = quat_to_matrix(q) * s[:, None, :]
    out[:, :3, 3] = t
    out[:, 3, 3] = 1.0
    for i, values in explicit.items():
        out[i] = np.eye(4) if values is None else np.array(values, dtype=float).reshape(4, 4).T
    return out


def _rigid(world: np.ndarray) -> np.ndarray:
    """``nodes.rigid`` of every world matrix at once (Gram-Schmidt on X then Y; Z = X × Y: a reflection flips Z);
    the rare matrices with an axis of no direction go through ``nodes.rigid`` itself."""
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
        q = matrix_to_quat(rel[:, :3, :3])
        t, q = t.tolist(), q.tolist()  # the same Python floats as float() per element, in one call each
        return {pair: (tuple(t[k]), tuple(q[k])) for k, pair in enumerate(pairs)}

    def scale(self, index: int) -> tuple[float, float, float]:
        """Absolute per-axis world scale (glTF axes)."""
        if self._scales is None:
            self._scales = list(map(tuple, np.linalg.norm(self._world[:, :3, :3], axis=1).tolist()))
        return self._scales[index]
