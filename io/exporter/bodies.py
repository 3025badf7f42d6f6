"""Blender rigid bodies → model ``motion`` / ``collider`` / ``trigger``, one exported object at a time, from the
values the import stored (``stored``) or from Blender's own settings (``native``); collision collections of native
colliders → filters.
"""

from __future__ import annotations

import dataclasses

from ..diagnostics import pointer
from ..gltf.extensions import KHR_RIGID_BODIES
from ..gltf.model import NodePhysics
from ..mapping.stored_values import readable
from ..mapping.values_to_gltf import export_filters_from_collections
from .context import (
    EXPORT_APPROXIMATED,
    EXPORT_INSTANCED,
    EXPORT_SKIPPED,
    PROXY_ROLES,
    STORED_UNREADABLE,
    Builder,
    has_stored,
    is_helper_joint,
)
from .native import NativeBody, native_collider, native_motion
from .stored import stored_collider, stored_motion, stored_trigger

_RB_EXTENSION = pointer("extensions", KHR_RIGID_BODIES)


def add_object(b: Builder, ob) -> None:
    """Motion, collider and trigger of one exported object (written on each of its nodes)."""
    kind = ob.type
    if kind not in ("MESH", "EMPTY"):
        return
    pg = b.session.pg_of(ob)
    if kind == "EMPTY" and pg is not None and pg.joint.is_node:  # ``joints.restore_nodes``
        b.joint_nodes.append(ob)
    stored = has_stored(pg)
    rb = None if stored else ob.rigid_body
    if not stored and pg is not None and not readable(pg.values_json):
        where = b.node_indices(ob)
        why = f"the stored glTF physics of {ob.name!r} is not readable (a script replaced it): written from Blender"
        b.warn(STORED_UNREADABLE, pointer("nodes", where[0]) if where else "", why)
    if not stored and rb is None:  # no physics: nothing to read or write (native needs a rigid body)
        return
    if pg is not None and (is_helper_joint(pg) or (pg.role in PROXY_ROLES and not stored)):
        return
    indices = b.node_indices(ob)
    if not indices:
        return
    ptr = f"/nodes/{indices[0]}{_RB_EXTENSION}"  # = pointer("nodes", indices[0], "extensions", KHR_RIGID_BODIES)
    if stored:
        motion = b.guarded(ptr + "/motion", "motion", stored_motion, b, ob, ptr)
        collider = b.guarded(ptr + "/collider", "collider", stored_collider, b, ob, ptr)
        trigger = b.guarded(ptr + "/trigger", "trigger", stored_trigger, b, ob, ptr)
    else:
        try:  # what motion and collider both read, read once
            body = NativeBody.read(ob, rb, kind)
        except Exception:  # each part then reads (and fails) on its own, reported at its pointer
            body = None
        motion = b.guarded(ptr + "/motion", "motion", native_motion, b, ob, ptr, body)
        collider = b.guarded(ptr + "/collider", "collider", native_collider, b, ob, ptr, body)
        trigger = None
    if motion is None and collider is None and trigger is None:
        return
    for index in indices:
        b.doc.nodes[index] = NodePhysics(node=index, motion=motion, collider=collider, trigger=trigger)
    if pg is not None and pg.gltf_parent is not None and (motion is not None or collider is not None):
        b.reparent.append((ob, pg.gltf_parent))
    if len(indices) > 1:
        b.note(EXPORT_INSTANCED, ptr, f"{ob.name!r} is exported {len(indices)} times (instancing): physics on each")


def assign_native_filters(b: Builder) -> None:
    """Filters from the collision collections of every collider without a stored filter, exact for any collection
    sets (``mapping.values_to_gltf.export_filters_from_collections``: a body in no collection collides with nothing,
    imported colliders included); its self-check count is reported if ever > 0."""
    sets = {}
    for index, unit in b.native_colliders.items():
        rb = getattr(unit, "rigid_body", None)
        if rb is not None:
            sets[index] = frozenset(i for i, on in enumerate(rb.collision_collections) if on)
    if not sets:
        return
    used = {
        n for flt in b.doc.filters for group in (flt.collision_systems, flt.collide_with_systems) for n in group or ()
    }
    filters, wrong = export_filters_from_collections(sets, used)
    for index, flt in filters.items():
        physics = b.doc.nodes.get(index)
        if flt is not None and physics is not None and physics.collider is not None:
            physics.collider.filter = b.add_filter(flt)
    if wrong:
        b.note(
            EXPORT_APPROXIMATED,
            pointer("extensions", KHR_RIGID_BODIES, "collisionFilters"),
            f"collision collections approximated by KHR filters: {wrong} body pair(s) differ",
        )


def drop_non_trigger_members(b: Builder) -> None:
    """Compound triggers list only nodes that carry a simple trigger: a member whose *Is Trigger* was switched off
    in the panel (or whose trigger was not written) is left out with a WARNING naming both objects, and a compound
    left with no member is dropped (written, the file would be invalid: ``TRIGGER_NODES_INVALID``). Runs after
    every object's physics is built (``pipeline``)."""
    for index, physics in b.doc.nodes.items():
        trigger = physics.trigger
        if trigger is None or not trigger.nodes:
            continue
        kept = tuple(m for m in trigger.nodes if _is_simple_trigger(b, m))
        if len(kept) == len(trigger.nodes):
            continue
        names = [b.gltf_node(m).name for m in trigger.nodes if m not in kept]
        where = pointer("nodes", index, "extensions", KHR_RIGID_BODIES, "trigger", "nodes")
        what = f"compound trigger {b.gltf_node(index).name!r}: {', '.join(map(repr, names))} carry no trigger shape"
        b.warn(EXPORT_SKIPPED, where, f"{what} (Is Trigger off?): left out" + ("" if kept else ", and the compound"))
        physics.trigger = dataclasses.replace(trigger, nodes=kept) if kept else None


def _is_simple_trigger(b: Builder, index: int) -> bool:
    physics = b.doc.nodes.get(index)
    return physics is not None and physics.trigger is not None and physics.trigger.geometry is not None
