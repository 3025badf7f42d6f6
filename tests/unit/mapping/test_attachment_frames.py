"""io.mapping.attachment_frames: the one-pass attachment frames equal ``attachment_frame`` pair by pair, including
the edge cases it handles one at a time (degenerate axes, singular parents, shear, reflections, non-finite values)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from testkit import submodule

batch = submodule("io.mapping.attachment_frames")
single = submodule("io.mapping.values_to_gltf")


def _random_affine(rng, scale_range=(0.2, 3.0)) -> np.ndarray:
    q, _ = np.linalg.qr(rng.normal(size=(3, 3)))
    m = np.eye(4)
    m[:3, :3] = q @ np.diag(rng.uniform(*scale_range, size=3))
    m[:3, 3] = rng.normal(scale=5.0, size=3)
    return m


def _same(a, b) -> None:
    if b is None:
        assert a is None
        return
    assert a is not None
    for got, want in zip((a.translation, a.rotation, a.scale), (b.translation, b.rotation, b.scale), strict=True):
        assert got == pytest.approx(want, abs=1e-12, rel=1e-12)
        assert all(not (v == 0.0 and math.copysign(1.0, v) < 0) for v in got)  # no negative zero in the file


@pytest.mark.parametrize("yup", [True, False])
def test_random_pairs_equal_the_one_at_a_time_frames(yup):
    rng = np.random.default_rng(14)
    parents = [None if i % 7 == 0 else _random_affine(rng) for i in range(300)]
    pivots = [_random_affine(rng) for _ in range(300)]
    for got, parent, pivot in zip(batch.attachment_frames(parents, pivots, yup), parents, pivots, strict=True):
        _same(got, single.attachment_frame(parent, pivot, yup))


def test_edge_cases_keep_the_one_at_a_time_answers():
    rng = np.random.default_rng(3)
    flat = np.diag([1.0, 0.0, 1.0, 1.0])  # a parent with zero Y scale: singular
    zero_x = np.diag([0.0, 2.0, 1.0, 1.0])  # pivot X without direction
    nothing = np.diag([0.0, 0.0, 0.0, 1.0])
    sheared = np.eye(4)
    sheared[0, 1] = 0.7  # a parent with shear: the local transform has shear (no exact TRS)
    mirrored = np.diag([-1.0, 1.0, 1.0, 1.0])  # a reflected parent: a negative scale
    nan = np.eye(4)
    nan[0, 3] = math.nan
    huge = np.diag([1e300, 1e300, 1e300, 1.0])
    upside = np.diag([1.0, -1.0, -1.0, 1.0])  # rotation by π about X (w = 0)
    cases = [
        (flat, np.eye(4)),
        (None, zero_x),
        (None, nothing),
        (sheared, _random_affine(rng)),
        (mirrored, _random_affine(rng)),
        (nan, np.eye(4)),
        (None, nan),
        (huge, np.eye(4)),
        (np.eye(4), upside),
        (np.eye(4), np.diag([1.0, -1.0, 1.0, 1.0])),  # a reflected pivot: rigid makes it proper
    ]
    parents, pivots = zip(*cases, strict=True)
    got = batch.attachment_frames(list(parents), list(pivots))
    for frame, (parent, pivot) in zip(got, cases, strict=True):
        _same(frame, single.attachment_frame(parent, pivot))
    assert got[0] is None and got[3] is None
    assert got[4].scale[0] < 0


def test_no_pairs():
    assert batch.attachment_frames([], []) == []


def _same_trs(a, b) -> None:
    if b is None:
        assert a is None
        return
    assert a is not None
    for got, want in zip(a, b, strict=True):
        assert got == pytest.approx(want, abs=1e-9, rel=1e-9)


@pytest.mark.parametrize("yup", [True, False])
def test_node_locals_equal_the_one_at_a_time_locals(yup):
    """``gltf_locals`` (joint nodes written back at frame A) = ``gltf_local`` node by node, scale kept."""
    rng = np.random.default_rng(15)
    parents = [None if i % 5 == 0 else _random_affine(rng) for i in range(300)]
    parents += [_random_affine(rng, (1.5, 1.5)) for _ in range(100)]  # uniform scale: no shear in the local
    worlds = [_random_affine(rng) for _ in range(400)]
    got = batch.gltf_locals(parents, worlds, yup)
    for trs, parent, world in zip(got, parents, worlds, strict=True):
        _same_trs(trs, single.gltf_local(np.eye(4) if parent is None else parent, world, yup))
    for trs in got[300:]:  # the worlds' own scales (0.2-3) divided by the parents' 1.5 survive in the locals
        assert trs is not None and min(abs(v) for v in trs[2]) >= 0.2 / 1.5 - 1e-9


def test_node_locals_edge_cases_keep_the_one_at_a_time_answers():
    sheared = np.eye(4)
    sheared[0, 1] = 0.7
    nan = np.eye(4)
    nan[0, 3] = math.nan
    cases = [(np.diag([1.0, 0.0, 1.0, 1.0]), np.eye(4)), (sheared, np.eye(4)), (None, nan), (None, np.eye(4))]
    parents, worlds = zip(*cases, strict=True)
    got = batch.gltf_locals(list(parents), list(worlds))
    for trs, (parent, world) in zip(got, cases, strict=True):
        _same_trs(trs, single.gltf_local(np.eye(4) if parent is None else parent, world))
    assert got[0] is None and got[1] is None and got[3] == ((0.0, 0.0, 0.0), (0.0, 0.0, 0.0, 1.0), (1.0, 1.0, 1.0))
    assert batch.gltf_locals([], []) == []
    for count in range(1, len(cases) + 1):  # any number of nodes in one pass: the same answers
        few = batch.gltf_locals(list(parents[:count]), list(worlds[:count]))
        for trs, want in zip(few, got[:count], strict=True):
            _same_trs(trs, want)
