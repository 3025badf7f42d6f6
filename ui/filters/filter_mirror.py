"""The rows that the collision-filter UI lists draw, derived from the stored JSON text.

The stored filter keeps each list as JSON text (``ui/body/properties.py``, '' = absent): that text stays the one source
the exporter, the importer's stored values and the checks read. A ``UIList`` needs a ``CollectionProperty``, so each
list also has ``<field>_rows``: a view of the text, rebuilt by the text's ``update`` callback (every write through
the property: the importer, the list operators, scripts — also while the sync is paused) and by a ``load_post``
handler for files saved before the rows existed. The rows are never read back into the text; a row set that is out
of step (an ID-property write that bypassed the callback) is drawn from the text and rebuilt on the next timer tick.
The joint's limit and drive lists are kept the same way: their rows are views of the stored rows by position, and a
collection whose length differs from the stored list's (a script wrote the text) is matched on the next tick.
"""

from __future__ import annotations

import bpy

from ...io.mapping import filter_rows, stored_values
from . import sync_filters


def text_changed(pflt, context) -> None:
    """``update`` of a list's text: the rows follow (always), then the sync (``sync_filters.filter_changed``)."""
    filter_rows.rebuild(pflt)
    sync_filters.filter_changed(pflt, context)


@bpy.app.handlers.persistent
def rebuild_all(*_args) -> int:
    """Rebuild the rows of every object's filters and the length of its joint's limit and drive lists
    (``stored_values.match_rows``) where they are out of step with the stored text (``load_post``, and the timer after
    an out-of-step draw)."""
    fixed = 0
    for ob in bpy.data.objects:
        pg = getattr(ob, "gltf_physics", None)
        if pg is None:
            continue
        for pflt in (pg.collider.filter, pg.trigger.filter):
            if not filter_rows.in_step(pflt):
                filter_rows.rebuild(pflt)
                fixed += 1
        if not joint_rows_in_step(pg):
            stored_values.match_rows(pg, stored_values.parse(pg.values_json))
            fixed += 1
    return fixed


def joint_rows_in_step(pg) -> bool:
    """Has the joint's limit and drive collections one row per stored row?"""
    values = stored_values.parse(pg.values_json)
    joint = pg.joint
    return all(len(getattr(joint, p[-1])) == len(stored_values.rows_of(values, p)) for p in stored_values.ROWS)


def _tick() -> None:
    rebuild_all()
    for window in getattr(bpy.context.window_manager, "windows", ()):
        for area in window.screen.areas:
            if area.type == "PROPERTIES":
                area.tag_redraw()


def rebuild_later() -> None:
    """Draw code cannot write ID data: ask a timer to rebuild the rows (once, however often it is asked)."""
    if not bpy.app.timers.is_registered(_tick):
        bpy.app.timers.register(_tick, first_interval=0.0)


def register_module() -> None:
    bpy.app.handlers.load_post.append(rebuild_all)


def unregister_module() -> None:
    while rebuild_all in bpy.app.handlers.load_post:
        bpy.app.handlers.load_post.remove(rebuild_all)
    if bpy.app.timers.is_registered(_tick):
        bpy.app.timers.unregister(_tick)
