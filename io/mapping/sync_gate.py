"""When the panels' glTF → Blender sync may run (bpy-free).

Property ``update`` callbacks fire on every assignment, Python ones included: the importer, *Add glTF Joint* and the
sync itself write the same properties. They run their writes inside :func:`paused`, and the UI callbacks
(``ui/sync_*.py``) do nothing unless :func:`active` — so an import never pays for the sync, and a sync never
re-enters itself (the re-entrancy guard).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager


class Depth:
    """How many ``with depth.inside()`` blocks are running (they nest; Blender runs them on its main thread)."""

    def __init__(self) -> None:
        self.value = 0

    @contextmanager
    def inside(self) -> Iterator[None]:
        self.value += 1
        try:
            yield
        finally:
            self.value -= 1


_PAUSED = Depth()


def paused():
    """Property writes inside this block do not sync to Blender (nests)."""
    return _PAUSED.inside()


def active() -> bool:
    """True when a property update callback should sync (no ``paused`` block is running)."""
    return _PAUSED.value == 0
