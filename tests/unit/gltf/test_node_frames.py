"""io.gltf.node_frames.WorldFrames (vectorised world matrices) equals the node-by-node reference in io.gltf_nodes."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mathkit import NodeFrames
from testkit import corpus_files, corpus_id, read_json, submodule

frames_mod = submodule("io.gltf.node_frames")
gltf_nodes = submodule("io.gltf.nodes")
transforms = submodule("io.gltf.transforms")

finite = st.floats(-10.0, 10.0, allow_nan=False)
scale = st.floats(0.1, 3.0) | st.floats(-3.0, -0.1)


@st.composite
def node_lists(draw):
    count = draw(st.integers(1, 12))
    nodes = []
    for i in range(count):
        node: dict = {}
        kind = draw(st.sampled_from(["trs", "matrix", "empty", "junk"]))
        if kind == "trs":
            if draw(st.booleans()):
                node["translation"] = draw(st.lists(finite, min_size=3, max_size=3))
            if draw(st.booleans()):
                node["rotation"] = draw(st.lists(st.floats(-1.0, 1.0), min_size=4, max_size=4))
            if draw(st.booleans()):
                node["scale"] = draw(st.lists(scale, min_size=3, max_size=3))
        elif kind == "matrix":
            node["matrix"] = draw(st.lists(finite, min_size=16, max_size=16))
        elif kind == "junk":
            node["translation"] = ["a", 1, 2]
            node["scale"] = [1.0, 2.0]
        children = draw(st.lists(st.integers(0, count - 1), max_size=3, unique=True))
        if children:
            node["children"] = [c for c in children if c != i] or [count + 5]  # also out-of-range indices
        nodes.append(node)
    return nodes


def _on_cycle(index: int, parents: dict) -> bool:
    seen = set()
    while index in parents and index not in seen:
        seen.add(index)
        index = parents[index]
    return index in seen


def _reference(nodes):
    parents = gltf_nodes.parent_map(nodes)
    return [gltf_nodes.world_matrix(i, nodes, parents) for i in range(len(nodes))]


@settings(max_examples=150, deadline=None)
@given(node_lists())
def test_world_matrices_match_the_reference(nodes):
    frames = frames_mod.WorldFrames(nodes)
    reference = _reference(nodes)
    rigid = NodeFrames(nodes)  # the node-by-node reference (cycles are read differently there)
    parents = gltf_nodes.parent_map(nodes)
    for i, expected in enumerate(reference):
        assert np.allclose(frames.world(i), expected, atol=1e-9, rtol=1e-9), i
        assert frames.scale(i) == pytest.approx(tuple(np.linalg.norm(expected[:3, :3], axis=0)), abs=1e-9)
        if not _on_cycle(i, parents):
            assert np.allclose(frames.rigid(i), rigid.rigid(i), atol=1e-9), i


def test_parent_cycles_fall_back_to_the_reference():
    nodes = [
        {"children": [1], "translation": [1.0, 0.0, 0.0]},
        {"children": [0], "translation": [0.0, 2.0, 0.0]},
        {"children": [3], "scale": [2.0, 2.0, 2.0]},
        {"translation": [0.0, 0.0, 1.0]},
    ]
    frames = frames_mod.WorldFrames(nodes)
    for i, expected in enumerate(_reference(nodes)):
        assert np.allclose(frames.world(i), expected), i
    assert tuple(frames.world(3)[:3, 3]) == pytest.approx((0.0, 0.0, 2.0))


def test_nodes_below_a_parent_cycle_fall_back_and_the_rest_compose_by_depth():
    nodes = [
        {"children": [1], "translation": [1.0, 0.0, 0.0]},
        {"children": [0, 2], "translation": [0.0, 2.0, 0.0]},  # 0 and 1 are each other's parent
        {"children": [3], "scale": [3.0, 3.0, 3.0]},  # below the cycle
        {"translation": [0.0, 0.0, 1.0]},
        {"children": [5], "translation": [0.0, 0.0, 5.0]},  # a root with two levels below it
        {"children": [6], "rotation": [0.0, 0.0, 0.7071067811865476, 0.7071067811865476]},
        {"translation": [1.0, 0.0, 0.0]},
    ]
    frames = frames_mod.WorldFrames(nodes)
    assert sorted(frames._cyclic) == [0, 1, 2, 3]
    for i, expected in enumerate(_reference(nodes)):
        assert np.allclose(frames.world(i), expected), i
    assert tuple(frames.world(6)[:3, 3]) == pytest.approx((0.0, 1.0, 5.0))


@pytest.mark.parametrize("path", corpus_files("glTF_Physics/**/*.gltf"), ids=corpus_id)
def test_corpus_scenes(path):
    nodes = read_json(path).get("nodes", [])
    frames = frames_mod.WorldFrames(nodes)
    for i, expected in enumerate(_reference(nodes)):
        assert np.allclose(frames.world(i), expected, atol=1e-9), i


@settings(max_examples=100, deadline=None)
@given(node_lists(), st.data())
def test_relative_offsets_match_the_one_by_one_helper(nodes, data):
    frames = frames_mod.WorldFrames(nodes)
    parents = gltf_nodes.parent_map(nodes)
    usable = [i for i in range(len(nodes)) if not _on_cycle(i, parents)]
    if not usable:
        return
    pick = st.sampled_from(usable)
    pairs = data.draw(st.lists(st.tuples(st.none() | pick, pick), min_size=1, max_size=8))
    got = frames.relative_many(pairs)
    for a, b in pairs:
        base = np.eye(4) if a is None else frames.rigid(a)
        t, q = gltf_nodes.relative_offset(base, frames.rigid(b))
        assert got[(a, b)][0] == pytest.approx(t, abs=1e-9)
        assert got[(a, b)][1] == pytest.approx(q, abs=1e-9)


@pytest.mark.parametrize("axis", [0, 1, 2])
@pytest.mark.parametrize("angle", [0.0, 0.5, 2.0, np.pi, -2.5])
def test_quaternions_of_every_branch(axis, angle):
    q = [0.0, 0.0, 0.0, np.cos(angle / 2)]
    q[axis] = np.sin(angle / 2)
    m = transforms.quat_to_matrix(q)
    expected = [-v for v in q] if q[3] < 0 else q
    assert tuple(transforms.matrix_to_quat(m[None])[0]) == pytest.approx(expected, abs=1e-12)


# A node whose world matrix has a zero X column (found by the property test above): Gram-Schmidt has no direction
# to start from, and the "rigid" frame used to come out singular, so a frame relative to itself was not the identity.
DEGENERATE = [
    {"matrix": [0.0, 0.0, -3.0, 0.0, -1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, -1.0, 1.125, 0.0, 0.0, 0.0]},
    {},
    {"matrix": [1.0, -1.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, -1.0, 0.0, 1.0, 0.0, 0.0, 0.0, 2.0], "children": [0]},
]


@pytest.mark.parametrize("index", range(len(DEGENERATE)))
def test_rigid_frames_are_rotations_even_for_degenerate_matrices(index):
    frames = frames_mod.WorldFrames(DEGENERATE)
    for rotation in (frames.rigid(index)[:3, :3], gltf_nodes.rigid(frames.world(index))[:3, :3]):
        assert np.allclose(rotation.T @ rotation, np.eye(3), atol=1e-12)
        assert np.linalg.det(rotation) == pytest.approx(1.0)
    t, q = frames.relative_many([(index, index)])[(index, index)]
    assert t == pytest.approx((0.0, 0.0, 0.0), abs=1e-12)
    assert q == pytest.approx((0.0, 0.0, 0.0, 1.0), abs=1e-12)
    assert gltf_nodes.relative_offset(frames.rigid(index), frames.rigid(index))[1] == pytest.approx(q, abs=1e-12)


MALFORMED = [
    [True, 0.0, 1.0],  # a boolean is no number
    None,
    [float("inf"), 0.0, 0.0],
    [float("nan"), 0.0, 0.0],
    [10**400, 0.0, 0.0],  # an integer beyond any float
    ["1", 0.0, 0.0],
    [1.0, 2.0],
    {"x": 1.0},
    [1e308, 1e308, -1e308],  # finite items whose sum overflows
]


@pytest.mark.parametrize("bad", range(len(MALFORMED)))
@pytest.mark.parametrize("key", ["translation", "rotation", "scale"])
def test_many_nodes_with_one_malformed_value_read_as_node_by_node(key, bad):
    """The TRS lists of many nodes are checked all at once; one malformed value sends that key node by node,
    where it reads as its default (same answer as ``nodes.local_matrix`` for every node)."""
    value = MALFORMED[bad]
    if key == "rotation" and isinstance(value, list) and len(value) == 3:
        value = [*value, 1.0]
    rng = np.random.default_rng(bad)
    nodes = [
        {"translation": rng.normal(size=3).tolist(), "rotation": [0.0, 0.0, 0.0, 1.0], "scale": [1.0, 2.0, 0.5]}
        for _ in range(96)
    ]
    nodes[17][key] = value
    got = frames_mod.local_matrices(nodes)
    with np.errstate(all="ignore"):
        for i, node in enumerate(nodes):
            np.testing.assert_array_equal(got[i], frames_mod.local_matrices([node])[0])
            assert np.allclose(got[i], gltf_nodes.local_matrix(node), atol=1e-12, equal_nan=True), i


def test_an_integer_beyond_every_float_is_no_number():
    is_number = submodule("io.gltf.read.common").is_number
    assert not is_number(10**400) and not is_number(-(10**400)) and not is_number(True)
    assert is_number(10**300) and is_number(0) and is_number(-2.5)
