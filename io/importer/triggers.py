"""Triggers: Blender has no sensor bodies. A simple trigger becomes a wire volume object (not in the rigid-body
world, not rendered) parented to its node's object; the node's object is marked as a trigger for export. A compound
trigger (``nodes``) only marks its node: the listed nodes carry the volumes.
"""

from __future__ import annotations

import json

from ..mapping import passthrough
from ..mapping import stored as props
from .context import APPROXIMATED, SKIPPED, ImportContext
from .geometry import new_shape_data, resolve
from .proxies import new_child_object, style_as_proxy


def build(ctx: ImportContext) -> None:
    for index in sorted(i for i, n in ctx.document.nodes.items() if n.trigger is not None):
        ctx.guarded(ctx.node_pointer(index, "trigger"), "trigger", _trigger, ctx, index)


def _store(ctx: ImportContext, ob, index: int) -> None:
    doc, trigger = ctx.document, ctx.document.nodes[index].trigger
    pg = ctx.stored(ob)
    if pg.role == "NONE":
        pg.role, pg.node_index = "NODE", index
        pg.source = doc.nodes[index].source or ""
    pg.trigger.has_trigger = True
    props.assign(pg.trigger, passthrough=passthrough.dumps(trigger))
    props.store_geometry(pg.trigger.geometry, doc, trigger.geometry, ctx.cache)
    pg.trigger.nodes = "" if trigger.nodes is None else json.dumps(list(trigger.nodes))
    flt = props.lookup(doc.filters, trigger.filter)
    props.store_filter(pg.trigger.filter, flt, trigger.filter)


def _trigger(ctx: ImportContext, index: int) -> None:
    trigger = ctx.document.nodes[index].trigger
    ptr = ctx.node_pointer(index, "trigger")
    ob = ctx.objects.get(index)
    if ob is None:
        ctx.warn(SKIPPED, ptr, "trigger on a node without a Blender object (bone or not in the scene): skipped")
        return
    _store(ctx, ob, index)
    if trigger.geometry is None:  # compound trigger: its nodes carry the volumes
        ctx.trigger_objects[index] = None
        return
    scale = ctx.node_scale(index)
    geo = resolve(ctx, trigger.geometry, ptr + "/geometry", scale)
    if geo is None:
        ctx.trigger_objects[index] = None
        return
    data = new_shape_data(ctx, ob.name + ".trigger", geo, object_scale=scale)
    if data is None:
        ctx.warn(SKIPPED, ptr, "no geometry could be built for this trigger")
        ctx.trigger_objects[index] = None
        return
    volume = new_child_object(ctx, ob.name + ".trigger", data.mesh, ob)
    style_as_proxy(volume)
    volume.display_type = "BOUNDS" if data.collision_shape == "BOX" else "WIRE"
    stored = ctx.stored(volume)
    stored.role, stored.proxy_node = "TRIGGER_PROXY", index
    ctx.trigger_objects[index] = volume
    for text in data.notes:
        ctx.note(APPROXIMATED, ptr, text)
