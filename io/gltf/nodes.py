"""glTF node hierarchy helpers (bpy-free, numpy): parents, local/world matrices, TRS decomposition, quaternions.

All functions are defensive: malformed nodes read as identity transforms and cycles are cut.
"""

from __future__ import annotations

import math

import numpy as np

from .read.common import is_number


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


def _numbers(value, size: int, default: tuple) -> tuple:
    if isinstance(value, list) and len(value) == size and all(is_number(v) for v in value):
        return tuple(float(v) for v in value)
    return default


def quat_to_matrix(q) -> np.ndarray:
    x, y, z, w = q
    n = math.sqrt(x * x + y * y + z * z + w * w) or 1.0
    x, y, z, w = x / n, y / n, z / n, w / n
    return np.array(
        [
            [1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
            [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
            [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)],
        ]
    )


def matrix_to_quat(m: np.ndarray) -> tuple[float, float, float, float]:
    """Rotation matrix (proper, orthonormal) -> quaternion (x, y, z, w) with w >= 0."""
    trace = m[0, 0] + m[1, 1] + m[2, 2]
    if trace > 0:
        s = math.sqrt(trace + 1.0) * 2
        w, x, y, z = 0.25 * s, (m[2, 1] - m[1, 2]) / s, (m[0, 2] - m[2, 0]) / s, (m[1, 0] - m[0, 1]) / s
    elif m[0, 0] > m[1, 1] and m[0, 0] > m[2, 2]:
        s = math.sqrt(1.0 + m[0, 0] - m[1, 1] - m[2, 2]) * 2
        w, x, y, z = (m[2, 1] - m[1, 2]) / s, 0.25 * s, (m[0, 1] + m[1, 0]) / s, (m[0, 2] + m[2, 0]) / s
    elif m[1, 1] > m[2, 2]:
        s = math.sqrt(1.0 + m[1, 1] - m[0, 0] - m[2, 2]) * 2
        w, x, y, z = (m[0, 2] - m[2, 0]) / s, (m[0, 1] + m[1, 0]) / s, 0.25 * s, (m[1, 2] + m[2, 1]) / s
    else:
        s = math.sqrt(1.0 + m[2, 2] - m[0, 0] - m[1, 1]) * 2
        w, x, y, z = (m[1, 0] - m[0, 1]) / s, (m[0, 2] + m[2, 0]) / s, (m[1, 2] + m[2, 1]) / s, 0.25 * s
    if w < 0:
        x, y, z, w = -x, -y, -z, -w
    return (float(x), float(y), float(z), float(w))


def local_matrix(node: object) -> np.ndarray:
    """A node's local 4x4 matrix (``matrix`` or TRS); identity for malformed data."""
    out = np.eye(4)
    if not isinstance(node, dict):
        return out
    if "matrix" in node:
        values = _numbers(node["matrix"], 16, None)
        if values is not None:
            return np.array(values).reshape(4, 4).T  # glTF stores column-major
        return out
    t = _numbers(node.get("translation"), 3, (0.0, 0.0, 0.0))
    r = _numbers(node.get("rotation"), 4, (0.0, 0.0, 0.0, 1.0))
    s = _numbers(node.get("scale"), 3, (1.0, 1.0, 1.0))
    out[:3, :3] = quat_to_matrix(r) @ np.diag(s)
    out[:3, 3] = t
    return out


def world_matrix(index: int, nodes: list, parents: dict[int, int]) -> np.ndarray:
    out = local_matrix(nodes[index])
    for parent in ancestors(index, parents):
        out = local_matrix(nodes[parent]) @ out
    return out


def decompose(m: np.ndarray) -> tuple[tuple, tuple, tuple] | None:
    """4x4 -> (translation, rotation xyzw, scale); None when singular.  A reflection goes into a negative X scale."""
    basis = m[:3, :3]
    scale = np.linalg.norm(basis, axis=0)
    if np.any(scale < 1e-12):
        return None
    rot = basis / scale
    if np.linalg.det(rot) < 0:
        scale[0] = -scale[0]
        rot[:, 0] = -rot[:, 0]
    translation = tuple(float(v) for v in m[:3, 3])
    return translation, matrix_to_quat(rot), tuple(float(v) for v in scale)


def relative_frame(target: int, base: int, nodes: list, parents: dict[int, int]):
    """The world transform of node ``target`` expressed in node ``base``'s local space, decomposed (or None)."""
    base_world = world_matrix(base, nodes, parents)
    try:
        inverse = np.linalg.inv(base_world)
    except np.linalg.LinAlgError:
        return None
    return decompose(inverse @ world_matrix(target, nodes, parents))
