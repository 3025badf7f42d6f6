"""The rows the collision-filter UI lists draw, derived from a stored filter's JSON texts (bpy-free: attribute
access only).

A stored filter keeps each list as JSON text (``''`` = absent), the one source the exporter and the checks read. A
``UIList`` needs a ``CollectionProperty``, so each list also has ``<field>_rows``, a view of the text rebuilt from
it: by the text's ``update`` (the list operators, scripts), by the import when it writes an object's stored text
(``importer/context.py``), and by ``ui/filters/filter_mirror`` after a load or an out-of-step draw.
"""

from __future__ import annotations

import json

from ..diagnostics import printable

FIELDS = ("collision_systems", "collide_with_systems", "not_collide_with_systems")


def names_of(text: str) -> tuple[str, ...] | None:
    """A stored JSON list of system names (None = absent); raises ValueError when it is not a list of strings."""
    if not text:
        return None
    values = json.loads(text)
    if not isinstance(values, list) or not all(isinstance(v, str) for v in values):
        raise ValueError("not a JSON list of names")
    return tuple(values)


def rows_name(field: str) -> str:
    return f"{field}_rows"


def active_name(field: str) -> str:
    return f"{field}_active"


def text_names(pflt, field: str) -> tuple[str, ...]:
    """The names of one stored list as the rows show them (absent or malformed = none; a name Blender cannot hold,
    with a lone surrogate, escaped by ``diagnostics.printable``: the text keeps the original)."""
    try:
        names = names_of(getattr(pflt, field)) or ()
    except ValueError:
        return ()
    return tuple(map(printable, names))


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
