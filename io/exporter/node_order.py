"""The scene's nodes in the order io_scene_gltf2 gives them when no helper is dropped.

io_scene_gltf2 orders a scene's roots as the depsgraph lists its objects and a node's children as ``bpy.data.objects``
lists them. When ``gather_tree_filter_tag_hook`` drops a helper that has children (a centre-of-mass carrier holds its
body), io_scene_gltf2 appends those children to the end of the roots (or of the kept parent's children): the body
would move behind every other node, and the export would depend on whether Reproduce Motion built helpers. ``restore``
sorts those lists back into io_scene_gltf2's own orders (stable; a list holding a node of no recorded object, such as
a bone's joint or a collection, is left as it is).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable


def restore_scene(session, scene_nodes: list, blender_scene) -> bool:
    """``restore`` for the export ``session`` (its recorded nodes) and ``blender_scene``'s depsgraph."""
    import bpy

    owner = {id(node): name for name, nodes in session.nodes_of.items() for node in nodes}

    def object_of(node):
        name = owner.get(id(node))
        return session.objects.get(name) if name is not None else None

    depsgraph = bpy.context.evaluated_depsgraph_get()
    roots = positions(blender_scene.evaluated_get(depsgraph).objects)
    if not restore(scene_nodes, object_of, roots, positions(bpy.data.objects)):
        return False
    # the physics is built per object in gathering order (materials, shapes, filters numbered as met): that of the
    # restored tree, children before their parent as io_scene_gltf2 gathers them
    gathered = [owner[i] for i in _post_order(scene_nodes) if i in owner]
    kept = dict.fromkeys(name for name in gathered if name in session.objects)
    session.objects = {name: session.objects[name] for name in [*kept, *session.objects]}
    return True


def restore(scene_nodes: list, object_of: Callable[[object], object | None], roots: dict, children: dict) -> bool:
    """Sort ``scene_nodes`` (``gltf2_io.Node``) by ``roots`` and every node's children by ``children`` (object pointer →
    position), in place. ``object_of(node)`` is the Blender object a node was gathered from, or None. True when an
    order changed."""
    changed = _sort(scene_nodes, object_of, roots)
    seen: set[int] = set()
    stack = list(scene_nodes)
    while stack:
        node = stack.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        kids = getattr(node, "children", None)
        if isinstance(kids, list) and kids:
            changed = _sort(kids, object_of, children) or changed
            stack.extend(kid for kid in kids if not isinstance(kid, int))
    return changed


def positions(objects: Iterable) -> dict[int, int]:
    """Object pointer → position in ``objects`` (evaluated objects count as their originals)."""
    return {getattr(ob, "original", ob).as_pointer(): i for i, ob in enumerate(objects)}


def _post_order(scene_nodes: list) -> list[int]:
    """``id`` of every node under ``scene_nodes``, each after its children (the order io_scene_gltf2 gathers)."""
    out, seen = [], set()
    stack = [(node, False) for node in reversed(scene_nodes)]
    while stack:
        node, expanded = stack.pop()
        if expanded:
            out.append(id(node))
            continue
        if id(node) in seen:
            continue
        seen.add(id(node))
        stack.append((node, True))
        kids = getattr(node, "children", None)
        if isinstance(kids, list):
            stack.extend((kid, False) for kid in reversed(kids) if not isinstance(kid, int))
    return out


def _sort(nodes: list, object_of: Callable[[object], object | None], position: dict) -> bool:
    keys = []
    for node in nodes:
        ob = object_of(node)
        key = position.get(ob.as_pointer()) if ob is not None else None
        if key is None:
            return False
        keys.append(key)
    if all(a <= b for a, b in itertools.pairwise(keys)):
        return False
    order = sorted(range(len(nodes)), key=keys.__getitem__)
    nodes[:] = [nodes[i] for i in order]
    return True
