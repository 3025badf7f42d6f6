"""The rows that the collision-filter UI lists draw, derived from the stored JSON text.

The stored filter keeps each list as JSON text (``ui/body/properties.py``, '' = absent): that text stays the one source
the exporter, the importer's stored values and the checks read. A ``UIList`` needs a ``CollectionProperty``, so each
list also has ``<field>_rows``: a view of the text, rebuilt by the text's ``update`` callback (every write through
the property: the importer, the list operators, scripts — also while the sync is paused) and by a ``load_post``
handler for files saved before the rows existed. The rows are never read back into the text; a row set that is out
of step (an ID-property write that bypassed the callback) is drawn from the text and rebuilt on the next timer tick.
"""

from __future__ import annotations

import bpy

from . import sync_filters

FIELDS = sync_filters.FIELDS


def rows_name(field: str) -> str:
    return f"{field}_rows"


def active_name(field: str) -> str:
    return f"{field}_active"


def text_names(pflt, field: str) -> tuple[str, ...]:
    """The names of one stored list (absent or malformed = none)."""
    try:
        return sync_filters.names_of(getattr(pflt, field)) or ()
    except ValueError:
        return ()


def row_names(pflt, field: str) -> tuple[str, ...]:
    return tuple(row.name for row in getattr(pflt, rows_name(field)))


def in_step(pflt) -> bool:
    return all(row_names(pflt, field) == text_names(pflt, field) for field in FIELDS)


def rebuild(pflt) -> None:
    """Make the rows of every list equal to its text (a no-op when they already are)."""
    for field in FIELDS:
        names = text_names(pflt, field)
        if row_names(pflt, field) == names:
            continue
        rows = getattr(pflt, rows_name(field))
        rows.clear()
        for name in names:
            rows.add().name = name
        setattr(pflt, active_name(field), min(getattr(pflt, active_name(field)), max(len(names) - 1, 0)))


def text_changed(pflt, context) -> None:
    """``update`` of a list's text: the rows follow (always), then the sync (``sync_filters.filter_changed``)."""
    rebuild(pflt)
    sync_filters.filter_changed(pflt, context)


@bpy.app.handlers.persistent
def rebuild_all(*_args) -> int:
    """Rebuild the rows of every object's filters (``load_post``, and the timer after an out-of-step draw)."""
    fixed = 0
    for ob in bpy.data.objects:
        pg = getattr(ob, "gltf_physics", None)
        if pg is None:
            continue
        for pflt in (pg.collider.filter, pg.trigger.filter):
            if not in_step(pflt):
                rebuild(pflt)
                fixed += 1
    return fixed


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
