"""The scene's nodes as the file had them, before io_scene_gltf2 numbers them: nested bodies back under their parent,
and every list in the order io_scene_gltf2 gives it when no helper is dropped.

A nested body the import unparented from a compound body (collision filters the compound cannot hold,
``Object.gltf_physics.gltf_parent``) goes back under its parent's node here, where io_scene_gltf2 has not numbered the
nodes yet: the numbering is then the one of an import that kept it there (Reproduce Motion off). One it cannot move
(animated, shear, instanced) stays a root: ``Builder.restore_parents`` tries it after numbering and says why not.

io_scene_gltf2 orders a scene's roots as the depsgraph lists its objects and a node's children as ``bpy.data.objects``
lists them, and 5.2+ then sorts both by name (``gltf_addon.sibling_sort_key``). When ``gather_tree_filter_tag_hook``
drops a helper that has children (a centre-of-mass carrier holds its body), io_scene_gltf2 appends those children
to the end of the roots (or of the kept parent's children): the body would move behind every other node, and the
export would depend on whether Reproduce Motion built helpers. ``restore`` sorts those lists back into
io_scene_gltf2's own orders (stable; a list holding a node of no recorded object, such as a bone's joint or a
collection, is left as it is).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable

from .. import gltf_addon


def moves_nodes(pg, vnode, dropped: bool) -> bool:
    """Whether the tree needs ``restore_scene``: the object of ``vnode`` (its stored values ``pg``, the export's view:
    ``ExportSession.pg_of``) is a dropped helper with children (io_scene_gltf2 moves them last) or a nested body the
    import unparented (``nest``)."""
    if dropped:
        return bool(getattr(vnode, "children", None))
    return pg is not None and pg.gltf_parent is not None


def restore_scene(session, scene_nodes: list, blender_scene) -> bool:
    """``nest`` and ``restore`` for the export ``session`` (its recorded nodes) and ``blender_scene``'s depsgraph."""
    import bpy

    owner = {id(node): name for name, nodes in session.nodes_of.items() for node in nodes}

    def object_of(node):
        name = owner.get(id(node))
        return session.objects.get(name) if name is not None else None

    moved = nest(session, scene_nodes)
    depsgraph = bpy.context.evaluated_depsgraph_get()
    roots, children = list(blender_scene.evaluated_get(depsgraph).objects), list(bpy.data.objects)
    key = gltf_addon.sibling_sort_key()
    if key is not None:  # io_scene_gltf2 sorts siblings by name (5.2+): sorted as it sorts them
        roots.sort(key=lambda ob: key(ob.name))
        children.sort(key=lambda ob: key(ob.name))
    if not restore(scene_nodes, object_of, positions(roots), positions(children)) and not moved:
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
    for node in _walk(scene_nodes):
        kids = getattr(node, "children", None)
        if isinstance(kids, list) and kids:
            changed = _sort(kids, object_of, children) or changed
    return changed


def nest(session, scene_nodes: list) -> int:
    """Move the root node of every nested body the import unparented into its file parent's children (world
    transform kept); the number moved."""
    from .context import nested_transforms, set_trs

    moved = 0
    roots = {id(node) for node in scene_nodes}
    candidates = []  # (object, its file parent, its root node, the parent's node)
    for name, ob in list(session.objects.items()):
        pg = session.pg_of(ob)
        parent = pg.gltf_parent if pg is not None else None
        if parent is None:
            continue
        nodes, parent_nodes = session.nodes_of.get(name, []), session.nodes_of.get(parent.name, [])
        if len(nodes) == 1 and len(parent_nodes) == 1 and id(nodes[0]) in roots:
            candidates.append((ob, parent, nodes[0], parent_nodes[0]))
    transforms = nested_transforms(session, [(ob, parent) for ob, parent, _, _ in candidates])
    for (_, _, child, target), (trs, _) in zip(candidates, transforms, strict=True):
        if any(node is target for node in _walk([child])):  # gltf_parent set by a script to the body or below it
            continue
        if trs is None:  # restore_parents says why after the numbering
            continue
        set_trs(child, trs)
        scene_nodes.remove(child)
        roots.discard(id(child))
        target.children = [*(target.children or []), child]
        session.report.count("restored_parents")
        moved += 1
    return moved


def _kids(node) -> list:
    """A gathered node's child nodes (``children`` holds nodes before numbering)."""
    return [kid for kid in getattr(node, "children", None) or () if not isinstance(kid, int)]


def _walk(nodes: list):
    """Every node under ``nodes`` (themselves included), each once."""
    stack, seen = list(nodes), set()
    while stack:
        node = stack.pop()
        if id(node) not in seen:
            seen.add(id(node))
            yield node
            stack.extend(_kids(node))


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
        stack.extend((kid, False) for kid in reversed(_kids(node)))
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
