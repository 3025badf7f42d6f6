"""io.mapping.object_tree: the children / descendants Blender's ``Object.children`` / ``children_recursive`` give
(same order), from one pass over stand-in objects."""

from __future__ import annotations

import random

import pytest

from testkit import submodule

tree = submodule("io.mapping.object_tree")


class _Ob:
    def __init__(self, name: str, parent=None):
        self.name, self.parent = name, parent

    def as_pointer(self) -> int:
        return id(self)


def _children(objects, ob):  # what _bpy_types' Object.children computes
    return [child for child in objects if child.parent == ob]


def _recursive(objects, ob):  # what _bpy_types' Object.children_recursive computes
    out = []
    for child in _children(objects, ob):
        out.append(child)
        out.extend(_recursive(objects, child))
    return out


@pytest.mark.parametrize("seed", range(20))
def test_index_answers_like_blender(seed):
    rng = random.Random(seed)
    objects: list[_Ob] = []
    for i in range(rng.randint(1, 60)):
        parent = rng.choice([None, None, *objects]) if objects else None
        objects.append(_Ob(f"O{i}", parent))
    rng.shuffle(objects)  # bpy.data.objects is sorted by name, not by creation or hierarchy
    index = tree.children_index(objects)
    for ob in objects:
        assert tree.children(index, ob) == _children(objects, ob)
        assert tree.descendants(index, ob) == _recursive(objects, ob)


def test_an_object_outside_the_index_has_no_children():
    index = tree.children_index([_Ob("a")])
    assert tree.children(index, _Ob("b")) == [] and tree.descendants(index, _Ob("b")) == []


def test_object_tree_reads_the_objects_once_at_the_first_question():
    a = _Ob("a")
    objects = [a, _Ob("b", a), _Ob("c", a)]
    reads = []

    class Counted(list):
        def __iter__(self):
            reads.append(1)
            return super().__iter__()

    lazy = tree.ObjectTree(Counted(objects))
    assert reads == []
    assert [o.name for o in lazy.children(a)] == ["b", "c"] and [o.name for o in lazy.descendants(a)] == ["b", "c"]
    assert lazy.children(objects[1]) == [] and reads == [1]
