"""Reference math for the pure-tier tests: written independently of (or node by node next to) the production code.

* ``rodrigues``: a rotation matrix from axis-angle without quaternions;
* ``NodeFrames``: world / rigid matrices of glTF nodes walked node by node (the reference ``WorldFrames`` and the
  joint plans are checked against).
"""

from __future__ import annotations

import math

import numpy as np

from testkit import submodule

_nodes = submodule("io.gltf.nodes")


def rodrigues(axis, angle) -> np.ndarray:
    """Rotation matrix from axis-angle, written independently of quaternions."""
    axis = np.asarray(axis, float) / np.linalg.norm(axis)
    k = np.array([[0, -axis[2], axis[1]], [axis[2], 0, -axis[0]], [-axis[1], axis[0], 0]])
    return np.eye(3) + math.sin(angle) * k + (1 - math.cos(angle)) * k @ k


class NodeFrames:
    """World transforms (glTF space) of glTF nodes from the JSON hierarchy (malformed data reads as identity)."""

    def __init__(self, nodes):
        self.nodes = nodes if isinstance(nodes, list) else []
        self.parent = _nodes.parent_map(self.nodes)
        self._world: dict[int, np.ndarray] = {}

    def world(self, index: int) -> np.ndarray:
        """4×4 world matrix with scale (guards against cycles)."""
        if index in self._world:
            return self._world[index]
        chain, seen, i = [], set(), index
        while i is not None and i not in self._world and i not in seen:
            seen.add(i)
            chain.append(i)
            i = self.parent.get(i)
        m = self._world.get(i, np.eye(4)) if i is not None else np.eye(4)
        for j in reversed(chain):
            m = m @ _nodes.local_matrix(self.nodes[j])
            self._world[j] = m
        return self._world[index]

    def rigid(self, index: int) -> np.ndarray:
        """World matrix without scale or shear (``nodes.rigid``: a rigid transform, bottom row (0, 0, 0, 1))."""
        return _nodes.rigid(self.world(index))
