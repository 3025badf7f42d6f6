"""Python's cyclic garbage collector paused inside one of our hook bodies, and nowhere else.

A hook that allocates many short-lived objects (parsing the physics, building thousands of bodies, writing the
physics JSON) would otherwise trigger full collector passes over every Python object of the session. The pause is
ours only while our code runs: ``gc_paused`` restores the previous state in ``finally``, so nothing outlives the
hook call (no ``gc.freeze``, no threshold change: io_scene_gltf2 and other add-ons run under the collector as the
user's session has it).
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def gc_paused() -> Iterator[None]:
    """The collector off for the block; on again afterwards if it was on before (nested blocks keep it off)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()
