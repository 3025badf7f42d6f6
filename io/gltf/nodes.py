"""glTF node hierarchy helpers (bpy-free, numpy): parents, local/world matrices, TRS decomposition, and
the one home of the 4×4 rigid-transform helpers (``rigid``, ``affine_inverse``, ``rigid_inverse``, ``relative_offset``,
``exact_trs``); ``node_frames`` holds their stacked forms for many nodes at once.

All functions are defensive: malformed nodes read as identity transforms and cycles are cut.
"""

from __future__ import annotations

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


def _numbers(value, size: int, default: tuple) -> tuple:
    if isinstance(value, list) and len(value) == size and all(is_number(v) for v in value):
        return tuple(float(v) for v in value)
    return default


def _quat(m) -> tuple[float, float, float, float]:
    """``transforms.matrix_to_quat`` of one rotation as a tuple of Python floats."""
    return tuple(matrix_to_quat(m).tolist())


def _rows(m) -> list:
    """``m`` as rows of Python floats (a numpy array's ``tolist``: one C call; other rows converted)."""
    return m.tolist() if isinstance(m, np.ndarray) else [[float(v) for v in row] for row in m]


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


def decompose(m) -> tuple[tuple, tuple, tuple] | None:
    """4x4 (numpy or rows of floats) -> (translation, rotation xyzw, scale); None when singular or not finite.  A
    reflection goes into a negative X scale.

    Python floats for the scale and the basis (numpy's per-call cost dominates on one 4x4), with the operations of
    the numpy formulation in its order, so the results are the same to the bit
    (``tests/unit/gltf/test_decompose.py`` holds that formulation); the rotation by ``transforms.matrix_to_quat``."""
    rows = _rows(m)
    isfinite = math.isfinite
    for row in rows:
        for v in row:
            if not isfinite(v):
                return None
    columns = list(zip(*(row[:3] for row in rows[:3]), strict=True))  # the basis vectors
    peaks = [max(abs(a), abs(b), abs(c)) for a, b, c in columns]
    if min(peaks) < 1e-12:
        return None
    scale = []
    for (a, b, c), peak in zip(columns, peaks, strict=True):  # norms without squaring huge values
        a, b, c = a / peak, b / peak, c / peak
        scale.append(peak * math.sqrt(a * a + b * b + c * c))
    if min(scale) < 1e-12 or not all(map(isfinite, scale)):
        return None
    rot = [[rows[i][j] / scale[j] for j in range(3)] for i in range(3)]
    det = (
        rot[0][0] * (rot[1][1] * rot[2][2] - rot[1][2] * rot[2][1])
        - rot[0][1] * (rot[1][0] * rot[2][2] - rot[1][2] * rot[2][0])
        + rot[0][2] * (rot[1][0] * rot[2][1] - rot[1][1] * rot[2][0])
    )
    if abs(det) < 1e-6:  # nearly singular: the sign as numpy's LU determinant gives it
        det = float(np.linalg.det(np.array(rot)))
    if det < 0:
        scale[0] = -scale[0]
        for row in rot:
            row[0] = -row[0]
    translation = (float(rows[0][3]), float(rows[1][3]), float(rows[2][3]))
    return translation, _quat(rot), tuple(scale)


def relative_frame(target: int, base: int, nodes: list, parents: dict[int, int]):
    """The world transform of node ``target`` expressed in node ``base``'s local space, decomposed (or None)."""
    with np.errstate(over="ignore", invalid="ignore"):  # huge or tiny transforms: decompose refuses non-finite
        base_world = world_matrix(base, nodes, parents)
        try:
            inverse = np.linalg.inv(base_world)
        except np.linalg.LinAlgError:
            return None
        return decompose(inverse @ world_matrix(target, nodes, parents))


# --- rigid transforms -------------------------------------------------------------------------------------------


DEGENERATE = 1e-9  # an axis shorter than this fraction of the 3×3 block's size has no direction


def _unit_orthogonal(v: list[float]) -> list[float]:
    """A unit vector orthogonal to unit vector ``v``: the coordinate axis least aligned with it, made orthogonal."""
    k = min(range(3), key=lambda i: abs(v[i]))
    e = [1.0 if i == k else 0.0 for i in range(3)]
    w = [e[i] - v[k] * v[i] for i in range(3)]
    n = math.sqrt(sum(c * c for c in w))
    return [c / n for c in w]


def rigid(m) -> np.ndarray:
    """The 4×4 without scale/shear (Gram-Schmidt on X then Y; Z = X × Y), always a proper rotation: an axis with no
    direction (zero scale) is replaced by one orthogonal to the other (X: +X when both have none). Plain floats:
    3-vectors are much faster in Python than through numpy."""
    rows = [[float(v) for v in row] for row in m]
    x = [rows[0][0], rows[1][0], rows[2][0]]
    y = [rows[0][1], rows[1][1], rows[2][1]]
    size = math.sqrt(sum(rows[i][j] ** 2 for i in range(3) for j in range(3)))
    tiny = DEGENERATE * size
    nx, ny = math.sqrt(sum(v * v for v in x)), math.sqrt(sum(v * v for v in y))
    if nx > tiny:
        x = [v / nx for v in x]
    elif ny > tiny:
        x = _unit_orthogonal([v / ny for v in y])
    else:
        x = [1.0, 0.0, 0.0]
    d = sum(a * b for a, b in zip(x, y, strict=True))
    y = [b - d * a for a, b in zip(x, y, strict=True)]
    n = math.sqrt(sum(v * v for v in y))
    y = [v / n for v in y] if n > tiny else _unit_orthogonal(x)
    z = [x[1] * y[2] - x[2] * y[1], x[2] * y[0] - x[0] * y[2], x[0] * y[1] - x[1] * y[0]]
    t = [rows[0][3], rows[1][3], rows[2][3]]
    return np.array([[x[i], y[i], z[i], t[i]] for i in range(3)] + [[0.0, 0.0, 0.0, 1.0]])


def affine_inverse(m) -> np.ndarray | None:
    """Inverse of an affine 4×4 (3×3 part by cofactors); None when singular."""
    a = [[float(m[i][j]) for j in range(3)] for i in range(3)]
    cof = [
        [
            a[1][1] * a[2][2] - a[1][2] * a[2][1],
            a[1][2] * a[2][0] - a[1][0] * a[2][2],
            a[1][0] * a[2][1] - a[1][1] * a[2][0],
        ],
        [
            a[0][2] * a[2][1] - a[0][1] * a[2][2],
            a[0][0] * a[2][2] - a[0][2] * a[2][0],
            a[0][1] * a[2][0] - a[0][0] * a[2][1],
        ],
        [
            a[0][1] * a[1][2] - a[0][2] * a[1][1],
            a[0][2] * a[1][0] - a[0][0] * a[1][2],
            a[0][0] * a[1][1] - a[0][1] * a[1][0],
        ],
    ]
    det = a[0][0] * cof[0][0] + a[0][1] * cof[0][1] + a[0][2] * cof[0][2]
    if abs(det) < 1e-12:
        return None
    inv = [[cof[j][i] / det for j in range(3)] for i in range(3)]
    t = [float(m[i][3]) for i in range(3)]
    out = [[*inv[i], -sum(inv[i][k] * t[k] for k in range(3))] for i in range(3)]
    return np.array([*out, [0.0, 0.0, 0.0, 1.0]])


def exact_trs(m) -> tuple[tuple, tuple, tuple] | None:
    """(translation, rotation xyzw, scale) of a 4×4 that a glTF TRS can hold exactly (no shear); else None."""
    m = np.asarray(m, dtype=float)
    parts = decompose(m)
    if parts is None:
        return None
    basis = m[:3, :3] / np.asarray(parts[2])
    if not np.allclose(basis.T @ basis, np.eye(3), atol=1e-6):
        return None
    return parts


def rigid_inverse(m: np.ndarray) -> np.ndarray:
    """Inverse of a rigid 4×4 transform (rotation + translation)."""
    out = np.eye(4)
    out[:3, :3] = m[:3, :3].T
    out[:3, 3] = -(m[:3, :3].T @ m[:3, 3])
    return out


def relative_offset(frame_a: np.ndarray, frame_b: np.ndarray):
    """Frame B relative to frame A (both rigid): (translation in A, rotation xyzw)."""
    rel = rigid_inverse(frame_a) @ frame_b
    return tuple(float(v) for v in rel[:3, 3]), _quat(rel)
