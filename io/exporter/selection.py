"""Which objects become glTF nodes, and with which mesh (the tree-filter and node-mesh hooks ask this).

Import helpers are not glTF nodes: constraint Empties (``joint.role`` JOINT/MOTOR), the world anchor, reproduction
helpers (REPRODUCTION), implicit-shape proxies whose data lives on their node's object, and bone stand-ins (their
node is the bone's, ``mapping/bone_nodes.py``). Generated collision
geometry is not exported as a render mesh. Proxies holding a glTF collision mesh are exported (then taken out of
the scene graph by ``context.Builder.finish_nodes``).
"""

from __future__ import annotations

from ..mapping.bone_nodes import stand_in_bone
from .context import PROXY_ROLES, ExportSession, has_stored, is_helper_joint
from .stored import is_mesh_geometry


def _node_object_of_proxy(session: ExportSession, ob):
    pg = session.pg_of(ob)
    parent = ob.parent
    if parent is None:
        return None
    node = pg.proxy_node
    # an import proxy's node object is its parent (a compound's child shape: below it)
    parent_pg = session.pg_of(parent)
    if parent_pg is not None and parent_pg.role == "NODE" and parent_pg.node_index == node:
        return parent
    for candidate in session.tree.descendants(parent):
        cpg = session.pg_of(candidate)
        if cpg is not None and cpg.role == "NODE" and cpg.node_index == node:
            return candidate
    return None


def _mesh_kind(geometry) -> bool:
    return is_mesh_geometry(geometry)


def export_decision(session: ExportSession, ob) -> str:
    """ "drop" (import helper, never a node), "no_mesh" (node without its generated mesh), "collision" (a node
    exported for its collision mesh only: ``collision_meshes``) or "keep"."""
    pg = session.pg_of(ob)
    if pg is None:
        return "keep"
    if stand_in_bone(ob) is not None:  # its physics goes onto its bone's node (``ExportRun.joint``); a node of its
        # own only to hold its collision mesh (``Builder.mesh_geometry``)
        mesh = pg.generated_mesh and pg.collider.has_collider and _mesh_kind(pg.collider.geometry)
        return "collision" if mesh else "drop"
    if is_helper_joint(pg):
        return "drop"
    if pg.role in PROXY_ROLES:
        if has_stored(pg):  # the collider's node had no object: the proxy stands for it
            geometry = pg.trigger.geometry if pg.role == "TRIGGER_PROXY" else pg.collider.geometry
            return "collision" if _mesh_kind(geometry) else "no_mesh"
        owner = _node_object_of_proxy(session, ob)
        if owner is not None:
            stored = session.pg_of(owner)
            geometry = stored.trigger.geometry if pg.role == "TRIGGER_PROXY" else stored.collider.geometry
            if _mesh_kind(geometry):
                return "collision"  # holds the collision mesh: exported, then taken out of the scene graph
        return "drop"
    if pg.generated_mesh:
        mesh_geometry = _mesh_kind(pg.collider.geometry) and pg.collider.has_collider
        return "collision" if mesh_geometry else "no_mesh"
    return "keep"


def session_decision(session: ExportSession, ob) -> str:
    """``export_decision(session, ob)`` asked once per object and export (the tree filter and the node-mesh hook both
    ask); ``session.decisions`` is the cache, keyed by the object's address (names can repeat across libraries)."""
    decisions = session.decisions
    key = ob.as_pointer()
    found = decisions.get(key)
    if found is None:
        found = decisions[key] = export_decision(session, ob)
    return found
