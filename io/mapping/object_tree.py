"""Parent → children of Blender objects from one pass (duck-typed: objects with ``parent`` and ``as_pointer()``).

Blender's ``Object.children`` and ``Object.children_recursive`` scan every object of the file on each call
(``_bpy_types``: O(len(bpy.data.objects))): asked once per body, collider or proxy, an import or export grows with the
square of the objects. Callers build one index per run and ask it instead; the orders are Blender's.
"""

from __future__ import annotations

from collections.abc import Iterable


def children_index(objects: Iterable) -> dict[int, list]:
    """Parent address (``as_pointer()``) → its children, in the order of ``objects`` (``bpy.data.objects``: the
    order of ``Object.children``)."""
    index: dict[int, list] = {}
    for child in objects:
        parent = child.parent
        if parent is not None:
            index.setdefault(parent.as_pointer(), []).append(child)
    return index


def children(index: dict[int, list], ob) -> list:
    """``ob.children`` from ``index`` (do not modify the list)."""
    return index.get(ob.as_pointer(), [])


def descendants(index: dict[int, list], ob) -> list:
    """``ob.children_recursive`` from ``index``: depth first, each object's children in order."""
    out: list = []
    stack = list(reversed(children(index, ob)))
    while stack:
        child = stack.pop()
        out.append(child)
        stack.extend(reversed(children(index, child)))
    return out


class ObjectTree:
    """``children`` / ``descendants`` from one pass over ``objects`` (``bpy.data.objects``), made at the first
    question: a run that may not ask pays nothing."""

    def __init__(self, objects: Iterable):
        self._objects = objects
        self._index: dict[int, list] | None = None

    def _built(self) -> dict[int, list]:
        if self._index is None:
            self._index = children_index(self._objects)
        return self._index

    def children(self, ob) -> list:
        return children(self._built(), ob)

    def descendants(self, ob) -> list:
        return descendants(self._built(), ob)
