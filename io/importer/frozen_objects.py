"""The objects alive once a physics file is parsed, hidden from Python's cyclic garbage collector until the import
ends (``gc.freeze``).

io_scene_gltf2 then creates one Blender object per node, allocating as it goes; every full collector pass during that
walks every Python object of the session, and the parsed file (ours and io_scene_gltf2's) is most of them. Frozen,
they are skipped: a full pass costs what it would without the file. Nothing is lost: ``thaw`` hands them back to the
collector (the import's last hook; the next import or export, or unregistering, if an import was aborted in
between). Another add-on's freeze is left alone: then nothing is frozen here.

An import with physics on freezes twice: when its hooks are created, before io_scene_gltf2 decodes the JSON and builds
its data model from it (each allocates enough for a full pass over the whole session; thawed at once when the loaded
JSON declares no physics: ``parsed_json.arm``), and once the physics is parsed (the data model and our document join
the frozen objects).

While frozen, full passes wait for 100 times as many younger collections as usual (the third collector threshold):
with most objects frozen, the collector's rule "a full pass once the objects that survived since the last one reach a
quarter of those it kept" fires after a few thousand new objects, and io_scene_gltf2 creates hundreds of thousands
for 10,000 nodes (nine passes, 0.33–0.43 s of a 10,000-body import, each over every object created so far). Younger
collections run as usual.

A physics export on 4.5+ does the same once our extensions hook has built the physics (``io/hooks.py``): io_scene_gltf2
then turns its plan into JSON and writes the file, and ``post_export_hook`` thaws (4.2 has no such hook: nothing is
frozen there).
"""

from __future__ import annotations

import gc

_STATE: dict = {"frozen": False, "thresholds": None}
FULL_PASS_FACTOR = 100  # the third threshold while frozen, times the usual one


def freeze() -> None:
    """Hide every object alive now from the collector (called again: the objects created since join them) and make
    full passes rare, unless someone else already froze objects."""
    if not _STATE["frozen"] and gc.get_freeze_count():
        return
    gc.freeze()
    if not _STATE["frozen"]:
        _STATE["thresholds"] = young, middle, full = gc.get_threshold()
        gc.set_threshold(young, middle, full * FULL_PASS_FACTOR)
    _STATE["frozen"] = True


def thaw() -> None:
    """Give back what ``freeze`` hid and the collector's thresholds (no-op when nothing was frozen here)."""
    if _STATE["frozen"]:
        _STATE["frozen"] = False
        gc.unfreeze()
        gc.set_threshold(*_STATE["thresholds"])


def is_frozen() -> bool:
    """True between ``freeze`` and ``thaw``."""
    return _STATE["frozen"]
