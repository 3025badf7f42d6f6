"""Nodes the file keeps outside every scene: io_scene_gltf2 (4.2+) still makes objects of them (in an "Orphan
Nodes" collection); they are marked (``Object.gltf_physics.outside_scene``) so that export keeps them out of the
scene's node list. Runs for every import, with or without physics.
"""

from __future__ import annotations

from .. import gltf_addon


def nodes_outside_scenes(gltf_json: dict) -> set[int]:
    """Indices of the nodes no scene reaches (through ``scenes[*].nodes`` and ``children``)."""
    nodes = gltf_json.get("nodes")
    nodes = nodes if isinstance(nodes, list) else []
    todo: list = []
    for scene in gltf_json.get("scenes") or []:
        if isinstance(scene, dict) and isinstance(scene.get("nodes"), list):
            todo.extend(scene["nodes"])
    seen: set[int] = set()
    while todo:
        index = todo.pop()
        if not isinstance(index, int) or isinstance(index, bool) or not 0 <= index < len(nodes) or index in seen:
            continue
        seen.add(index)
        children = nodes[index].get("children") if isinstance(nodes[index], dict) else None
        if isinstance(children, list):
            todo.extend(children)
    return set(range(len(nodes))) - seen


def mark_outside_scene(gltf, gltf_json: dict) -> int:
    """Mark the objects of nodes outside every scene; the number marked."""
    marked = 0
    for index in sorted(nodes_outside_scenes(gltf_json)):
        ob = gltf_addon.node_object(gltf, index)
        pg = getattr(ob, "gltf_physics", None)
        if pg is not None:
            pg.outside_scene = True
            marked += 1
    return marked
