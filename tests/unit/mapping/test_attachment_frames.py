"""``mapping.values_to_gltf.attachment_frames`` / ``gltf_locals``: the exporter's joint frames and node transforms,
checked by composing them back (the parent's matrix times the written TRS is the pivot's rigid frame, or the node's
world matrix), on random pairs and on the edge cases (degenerate axes, singular parents, shear, reflections,
non-finite values); a pair gives the same answer alone and in any batch."""

from __future__ import annotations

import math

import numpy as np
import pytest

from testkit import submodule

frames = submodule("io.mapping.values_to_gltf")
nodes = submodule("io.gltf.nodes")
axes = submodule("io.mapping.axes")
transforms = submodule("io.gltf.transforms")


def _random_affine(rng, scale_range=(0.2, 3.0)) -> np.ndarray:
    q, _ = np.linalg.qr(rng.normal(size=(3, 3)))
    m = np.eye(4)
    m[:3, :3] = q @ np.diag(rng.uniform(*scale_range, size=3))
    m[:3, 3] = rng.normal(scale=5.0, size=3)
    return m


def _trs_matrix(t, q, s) -> np.ndarray:
    m = np.eye(4)
    m[:3, :3] = transforms.quat_to_matrix(q) @ np.diag(s)
    m[:3, 3] = t
    return m


def _no_negative_zero(values) -> bool:
    return all(not (v == 0.0 and math.copysign(1.0, v) < 0) for v in values)


@pytest.mark.parametrize("yup", [True, False])
def test_a_frame_composed_back_is_the_pivots_rigid_frame(yup):
    """parent · K⁻¹ · TRS(frame) = rigid(pivot): the frame keeps the pivot's axes and position under its parent
    (parents of uniform scale: under any other the frame would need shear)."""
    rng = np.random.default_rng(14)
    parents = [None if i % 7 == 0 else _random_affine(rng, (0.5 + i / 100,) * 2) for i in range(300)]
    pivots = [_random_affine(rng) for _ in range(300)]
    k = axes.axis_change(yup)
    for frame, parent, pivot in zip(frames.attachment_frames(parents, pivots, yup), parents, pivots, strict=True):
        assert frame is not None
        base = np.eye(4) if parent is None else parent
        back = base @ np.linalg.inv(k) @ _trs_matrix(frame.translation, frame.rotation, frame.scale)
        assert back == pytest.approx(nodes.rigid(pivot), abs=1e-9)
        assert _no_negative_zero(frame.translation) and _no_negative_zero(frame.rotation)


def test_edge_cases_of_attachment_frames():
    rng = np.random.default_rng(3)
    flat = np.diag([1.0, 0.0, 1.0, 1.0])  # a parent with zero Y scale: singular
    zero_x = np.diag([0.0, 2.0, 1.0, 1.0])  # pivot X without direction
    zero_x[:3, 1] = (1.0, 1.0, 0.0)  # its Y diagonal in the XY plane
    nothing = np.diag([0.0, 0.0, 0.0, 1.0])
    sheared = np.eye(4)
    sheared[0, 1] = 0.7  # a parent with shear: the local transform has shear (no exact TRS)
    mirrored = np.diag([-1.0, 1.0, 1.0, 1.0])  # a reflected parent: a negative scale
    nan = np.eye(4)
    nan[0, 3] = math.nan
    upside = np.diag([1.0, -1.0, -1.0, 1.0])  # rotation by π about X (w = 0)
    cases = [
        (flat, np.eye(4)),
        (None, zero_x),
        (None, nothing),
        (sheared, _random_affine(rng)),
        (mirrored, _random_affine(rng)),
        (nan, np.eye(4)),
        (None, nan),
        (np.eye(4), upside),
        (np.eye(4), np.diag([1.0, -1.0, 1.0, 1.0])),  # a reflected pivot: rigid makes it proper
    ]
    parents, pivots = zip(*cases, strict=True)
    got = frames.attachment_frames(list(parents), list(pivots), yup=False)
    assert got[0] is None and got[3] is None and got[5] is None and got[6] is None
    # no X direction: replaced by one orthogonal to Y (+Z, the axis least aligned with it, made orthogonal)
    assert nodes.rigid(zero_x)[:3, 0] == pytest.approx((0.0, 0.0, 1.0))
    for frame, (parent, pivot) in zip(got, cases, strict=True):
        if frame is not None:
            back = (np.eye(4) if parent is None else parent) @ _trs_matrix(
                frame.translation, frame.rotation, frame.scale
            )
            assert back == pytest.approx(nodes.rigid(pivot), abs=1e-12)
            assert np.linalg.det(back[:3, :3]) == pytest.approx(1.0)  # a proper rotation, reflections too
    assert got[2].rotation == (0.0, 0.0, 0.0, 1.0) and got[2].scale == (1.0, 1.0, 1.0)  # nothing: identity
    assert got[4].scale == pytest.approx((-1.0, 1.0, 1.0))
    assert got[7].rotation == pytest.approx((1.0, 0.0, 0.0, 0.0))
    assert np.linalg.det(nodes.rigid(np.diag([1.0, -1.0, 1.0, 1.0]))) == pytest.approx(1.0)  # made proper
    for count in range(1, len(cases) + 1):  # any number of pairs in one pass, and each alone: the same answers
        assert frames.attachment_frames(list(parents[:count]), list(pivots[:count]), yup=False) == got[:count]
    assert [frames.attachment_frames([p], [v], yup=False)[0] for p, v in cases] == got
    assert frames.attachment_frames([], []) == []


@pytest.mark.parametrize("yup", [True, False])
def test_node_locals_composed_back_are_the_worlds(yup):
    """parent · K⁻¹ · TRS · K = world: ``gltf_locals`` (joint nodes written back at frame A) keep the world pose and
    the scale."""
    rng = np.random.default_rng(15)
    parents = [None if i % 5 == 0 else _random_affine(rng, (1.5, 1.5)) for i in range(300)]  # uniform: no shear
    worlds = [_random_affine(rng) for _ in range(300)]
    k = axes.axis_change(yup)
    got = frames.gltf_locals(parents, worlds, yup)
    for trs, parent, world in zip(got, parents, worlds, strict=True):
        assert trs is not None
        base = np.eye(4) if parent is None else parent
        assert base @ np.linalg.inv(k) @ _trs_matrix(*trs) @ k == pytest.approx(world, abs=1e-9)
        assert min(abs(v) for v in trs[2]) >= 0.2 / 1.5 - 1e-9
    assert [frames.gltf_locals([p], [w], yup)[0] for p, w in zip(parents[:20], worlds[:20], strict=True)] == got[:20]


def test_node_locals_edge_cases():
    sheared = np.eye(4)
    sheared[0, 1] = 0.7
    nan = np.eye(4)
    nan[0, 3] = math.nan
    cases = [(np.diag([1.0, 0.0, 1.0, 1.0]), np.eye(4)), (sheared, np.eye(4)), (None, nan), (None, np.eye(4))]
    parents, worlds = zip(*cases, strict=True)
    got = frames.gltf_locals(list(parents), list(worlds))
    assert got[0] is None and got[1] is None and got[2] is None
    assert got[3] == ((0.0, 0.0, 0.0), (0.0, 0.0, 0.0, 1.0), (1.0, 1.0, 1.0))
    assert frames.gltf_locals([], []) == []
    for count in range(1, len(cases) + 1):  # any number of nodes in one pass: the same answers
        assert frames.gltf_locals(list(parents[:count]), list(worlds[:count])) == got[:count]
