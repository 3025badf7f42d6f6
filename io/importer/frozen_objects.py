"""The objects alive once a physics file is parsed, hidden from Python's cyclic garbage collector until the import
ends (``gc.freeze``).

io_scene_gltf2 then creates one Blender object per node, allocating as it goes; every full collector pass during that
walks every Python object of the session, and the parsed file (ours and io_scene_gltf2's) is most of them. Frozen,
they are skipped: a full pass costs what it would without the file. Nothing is lost: ``thaw`` hands them back to the
collector (the import's last hook; the next import or export, or unregistering, if an import was aborted in
between). Another add-on's freeze is left alone: then nothing is frozen here.

A physics import freezes twice: when io_scene_gltf2 has loaded the JSON of a file that declares physics (before it
builds its data model from it: a full pass there walks the whole session; ``parsed_json.arm``), and once the physics
is parsed (the data model and our document join the frozen objects).

A physics export on 4.5+ does the same once our extensions hook has built the physics (``io/hooks.py``): io_scene_gltf2
then turns its plan into JSON and writes the file, and ``post_export_hook`` thaws (4.2 has no such hook: nothing is
frozen there).
"""

from __future__ import annotations

import gc

_STATE = {"frozen": False}


def freeze() -> None:
    """Hide every object alive now from the collector (called again: the objects created since join them), unless
    someone else already froze objects."""
    if not _STATE["frozen"] and gc.get_freeze_count():
        return
    gc.freeze()
    _STATE["frozen"] = True


def thaw() -> None:
    """Give back what ``freeze`` hid (no-op when nothing was frozen here)."""
    if _STATE["frozen"]:
        _STATE["frozen"] = False
        gc.unfreeze()


def is_frozen() -> bool:
    """True between ``freeze`` and ``thaw``."""
    return _STATE["frozen"]
