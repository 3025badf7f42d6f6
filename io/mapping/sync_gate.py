"""When the panels' glTF → Blender sync may run (bpy-free).

Property ``update`` callbacks fire on every assignment, Python ones included: the importer, *Add glTF Joint* and the
sync itself write the same properties. They run their writes inside :func:`paused`, and the UI callbacks
(``ui/sync_*.py``) do nothing unless :func:`active` — so an import never pays for the sync, and a sync never
re-enters itself (the re-entrancy guard).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

_depth = [0]  # nesting depth of ``paused`` (a list: no ``global`` statement needed)


@contextmanager
def paused() -> Iterator[None]:
    """Property writes inside this block do not sync to Blender (nests)."""
    _depth[0] += 1
    try:
        yield
    finally:
        _depth[0] -= 1


def active() -> bool:
    """True when a property update callback should sync (no ``paused`` block is running)."""
    return _depth[0] == 0
