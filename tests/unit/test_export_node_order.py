"""io.exporter.node_order: roots and children sorted back into io_scene_gltf2's orders; lists holding a node of no
recorded object left alone; the gathering order (children before parents) of the restored tree."""

from __future__ import annotations

import random

from testkit import submodule

node_order = submodule("io.exporter.node_order")


class _Ob:
    def __init__(self, name: str):
        self.name = name

    def as_pointer(self) -> int:
        return id(self)


class _Node:
    def __init__(self, ob, children=None):
        self.ob, self.children = ob, children or []


def _names(nodes):
    return [n.ob.name if n.ob else None for n in nodes]


def test_a_moved_root_and_child_go_back():
    a, b, c, d, e = (_Ob(x) for x in "abcde")
    child_d, child_e = _Node(d), _Node(e)
    parent = _Node(c, [child_e, child_d])  # d moved behind e (its carrier was dropped)
    roots = [_Node(b), parent, _Node(a)]  # a moved last
    depsgraph = node_order.positions([a, b, c])
    data = node_order.positions([a, b, c, d, e])
    assert node_order.restore(roots, lambda n: n.ob, depsgraph, data)
    assert _names(roots) == ["a", "b", "c"]
    assert _names(parent.children) == ["d", "e"]
    assert not node_order.restore(roots, lambda n: n.ob, depsgraph, data)  # already in order


def test_unknown_nodes_keep_their_list():
    a, b = _Ob("a"), _Ob("b")
    bone = _Node(None)
    roots = [_Node(b), bone, _Node(a)]
    assert not node_order.restore(roots, lambda n: n.ob, node_order.positions([a, b]), {})
    assert _names(roots) == ["b", None, "a"]


def test_sort_is_stable_and_a_permutation():
    rng = random.Random(5)
    for _ in range(200):
        obs = [_Ob(str(i)) for i in range(rng.randrange(1, 12))]
        nodes = [_Node(rng.choice(obs)) for _ in range(rng.randrange(1, 12))]  # repeats: instances of one object
        before = list(nodes)
        rng.shuffle(nodes)
        order = node_order.positions(obs)
        node_order.restore(nodes, lambda n: n.ob, order, order)
        assert sorted(map(id, nodes)) == sorted(map(id, before))
        keys = [order[n.ob.as_pointer()] for n in nodes]
        assert keys == sorted(keys)


def test_post_order_lists_children_first():
    a, b, c = _Ob("a"), _Ob("b"), _Ob("c")
    leaf = _Node(c)
    mid = _Node(b, [leaf])
    root = _Node(a, [mid])
    other = _Node(_Ob("d"))
    assert node_order._post_order([root, other]) == [id(leaf), id(mid), id(root), id(other)]
