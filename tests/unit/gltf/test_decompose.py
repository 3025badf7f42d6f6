"""``gltf.nodes.decompose`` / ``gltf.transforms.matrix_to_quat`` give bit for bit what the numpy formulation gives
(the reference below: the implementation they replace): exported values and proxy frames must not move by one ulp.
Seeded random TRS matrices with scales from 1e-8 to 1e8, reflections and shear, plus singular and non-finite ones."""

from __future__ import annotations

import math
import random

import numpy as np
import pytest

from testkit import submodule

nodes = submodule("io.gltf.nodes")
transforms = submodule("io.gltf.transforms")


def _reference(m: np.ndarray):
    if not np.isfinite(m).all():
        return None
    basis = m[:3, :3]
    peak = np.max(np.abs(basis), axis=0)
    if np.any(peak < 1e-12):
        return None
    with np.errstate(over="ignore"):
        scale = peak * np.linalg.norm(basis / peak, axis=0)
    if np.any(scale < 1e-12) or not np.isfinite(scale).all():
        return None
    rot = basis / scale
    if np.linalg.det(rot) < 0:
        scale[0] = -scale[0]
        rot[:, 0] = -rot[:, 0]
    return tuple(float(v) for v in m[:3, 3]), _reference_quat(rot), tuple(float(v) for v in scale)


def _reference_quat(m: np.ndarray):
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


def _random_matrices(count: int, seed: int) -> list[np.ndarray]:
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        q = [rng.gauss(0, 1) for _ in range(4)]
        n = math.sqrt(sum(v * v for v in q))
        m = np.eye(4)
        scale = [rng.choice((1, -1)) * 10 ** rng.uniform(-8, 8) for _ in range(3)]
        m[:3, :3] = transforms.quat_to_matrix([v / n for v in q]) @ np.diag(scale)
        if rng.random() < 0.3:  # shear
            m[:3, :3] += rng.gauss(0, 1) * np.outer([rng.random() for _ in range(3)], [rng.random() for _ in range(3)])
        if rng.random() < 0.1:  # two nearly parallel columns: a determinant near zero
            m[:3, 1] = m[:3, 0] * (1 + 1e-9)
        m[:3, 3] = [rng.uniform(-100, 100) for _ in range(3)]
        out.append(m)
    return out


SPECIAL = [
    np.eye(4),
    np.diag([-1.0, 1.0, 1.0, 1.0]),
    np.diag([1e300, 1e300, 1e300, 1.0]),
    np.diag([1e-300, 1.0, 1.0, 1.0]),
    np.zeros((4, 4)),
    np.full((4, 4), np.nan),
    np.where(np.eye(4) > 0, np.inf, 0.0),
]


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_decompose_matches_the_numpy_formulation_bit_for_bit(seed):
    for m in _random_matrices(3000, seed) + SPECIAL:
        expected = _reference(m.copy())
        assert nodes.decompose(m.copy()) == expected, m
        assert nodes.decompose([list(row) for row in m]) == expected  # nested lists too (mathutils rows)


def test_matrix_to_quat_matches_the_numpy_formulation():
    for m in _random_matrices(2000, 7):
        parts = _reference(m)
        if parts is None:
            continue
        rot = m[:3, :3] / np.abs(np.array(parts[2]))
        rot[:, 0] *= math.copysign(1.0, parts[2][0])
        assert tuple(transforms.matrix_to_quat(rot).tolist()) == _reference_quat(rot)


def test_matrix_to_quat_of_a_stack_is_each_matrix_alone():
    """One call for many matrices (each takes its own branch), also read from the top-left of 4×4s and of a stack
    with more axes: the same floats as the reference of each."""
    rots = []
    for m in _random_matrices(2000, 11):
        parts = _reference(m)
        if parts is not None:
            rot = m[:3, :3] / np.abs(np.array(parts[2]))
            rot[:, 0] *= math.copysign(1.0, parts[2][0])
            rots.append(rot)
    rots += [np.diag(d) for d in ([1.0, -1.0, -1.0], [-1.0, 1.0, -1.0], [-1.0, -1.0, 1.0], [1.0, 1.0, 1.0])]
    expected = [_reference_quat(r) for r in rots]
    assert [tuple(q) for q in transforms.matrix_to_quat(np.array(rots)).tolist()] == expected
    padded = np.zeros((len(rots), 4, 4))
    padded[:, :3, :3], padded[:, 3, 3] = rots, 1.0
    assert [tuple(q) for q in transforms.matrix_to_quat(padded).tolist()] == expected
    grid = transforms.matrix_to_quat(np.array(rots[:12]).reshape(3, 4, 3, 3))
    assert grid.shape == (3, 4, 4) and [tuple(q) for q in grid.reshape(12, 4).tolist()] == expected[:12]
