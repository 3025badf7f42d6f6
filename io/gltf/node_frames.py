"""World transforms of every glTF node at once (bpy-free, numpy; import speed).

``WorldFrames`` reads all local matrices in one vectorised pass (``nodes.local_matrices``) and composes them level by
level down the hierarchy, instead of walking each node's ancestors with small numpy products; the rigid frames and
relative offsets are ``nodes.rigid`` / ``nodes.rigid_inverse`` of the whole stack. Nodes on a parent cycle (malformed
files) are composed by ``nodes.world_matrix``, which cuts the cycle.
"""

from __future__ import annotations

import numpy as np

from .nodes import local_matrices, parent_map, rigid, rigid_inverse, world_matrix
from .transforms import matrix_to_quat


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
        """Non-root nodes grouped by depth (parents first), walked down from the roots; a node no root reaches sits on
        or below a parent cycle and goes to ``_cyclic``."""
        children: dict[int, list[int]] = {}
        for child, parent in self.parent.items():
            children.setdefault(parent, []).append(child)
        count = len(self.nodes)
        level = [i for i in range(count) if i not in self.parent]  # the roots: their world matrix is their local one
        levels: list[list[int]] = [[]]
        reached = len(level)
        while level:
            level = [c for p in level if p in children for c in children[p]]
            if level:
                levels.append(level)
                reached += len(level)
        if reached < count:  # one child per parent map entry: whatever is not reached hangs on a cycle
            seen = {i for level in levels for i in level}
            self._cyclic = [i for i in self.parent if i not in seen]
        else:
            self._cyclic = []
        return levels

    def world(self, index: int) -> np.ndarray:
        return self._world[index]

    def rigid(self, index: int) -> np.ndarray:
        if self._rigid_all is None:
            self._rigid_all = rigid(self._world)
        return self._rigid_all[index]

    def relative_many(self, pairs: list[tuple[int | None, int]]) -> dict:
        """Rigid frame ``b`` in rigid frame ``a`` (``a`` None = the world) for many pairs at once.

        ``{(a, b): (translation, quaternion xyzw)}`` as ``nodes.relative_offset`` gives them one by one.
        """
        pairs = list(dict.fromkeys(pairs))
        if not pairs:
            return {}
        if self._rigid_all is None:
            self._rigid_all = rigid(self._world)
        table = np.concatenate([self._rigid_all, np.eye(4)[None]])  # index -1: the world
        a = table[[len(self._world) if i is None else i for i, _ in pairs]]
        b = table[[j for _, j in pairs]]
        rel = rigid_inverse(a) @ b
        t = rel[:, :3, 3]
        q = matrix_to_quat(rel[:, :3, :3])
        t, q = t.tolist(), q.tolist()  # the same Python floats as float() per element, in one call each
        return {pair: (tuple(t[k]), tuple(q[k])) for k, pair in enumerate(pairs)}

    def scale(self, index: int) -> tuple[float, float, float]:
        """Absolute per-axis world scale (glTF axes)."""
        if self._scales is None:
            self._scales = list(map(tuple, np.linalg.norm(self._world[:, :3, :3], axis=1).tolist()))
        return self._scales[index]
