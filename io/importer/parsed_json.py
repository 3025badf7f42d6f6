"""The JSON dict io_scene_gltf2 parsed for this import, kept for our parse instead of decoding the file again.

io_scene_gltf2 reads the file (``glTFImporter.read``: ``load_json``, for .gltf and .glb alike) after it has created the
import hooks and before it calls the first one, and keeps no raw JSON. ``keep`` wraps ``load_json`` (once, while the
extension is registered) so the dict it returns is kept; the first hook ``take``s it, before io_scene_gltf2 has
changed anything (its parse does not change the dict). A kept dict that does not list the document's nodes, meshes,
accessors and scenes (a leftover of an import that failed before our hooks) is not used.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable

_KEPT: list[dict] = []  # the dict the wrapped ``load_json`` returned last (at most one)
_ON_LOAD: list[Callable[[object], None]] = []  # handed the next loaded dict, once (``arm``)
_MARK = "gltf_physics_original"  # attribute of our wrapper: the loader it wraps


def keep(importer_class) -> None:
    """Wrap ``importer_class.load_json`` (a staticmethod) so the dict it returns is kept (idempotent)."""
    current = None if importer_class is None else importer_class.__dict__.get("load_json")
    function = getattr(current, "__func__", None)
    if function is None or hasattr(function, _MARK):
        return

    def load_json(content):
        _KEPT[:] = [function(content)]
        callbacks, _ON_LOAD[:] = list(_ON_LOAD), []
        for callback in callbacks:
            with contextlib.suppress(Exception):  # never the importer's problem: our hooks run as without it
                callback(_KEPT[0])
        return _KEPT[0]

    setattr(load_json, _MARK, current)
    importer_class.load_json = staticmethod(load_json)


def arm(on_load: Callable[[object], None]) -> None:
    """Hand the next dict the wrapped loader returns to ``on_load`` (once: the import whose hooks were just created
    reads its file next), before io_scene_gltf2 builds its data model from it."""
    _ON_LOAD[:] = [on_load]


def release(importer_class) -> None:
    """Give ``importer_class`` its own ``load_json`` back (unregister) and drop what was kept."""
    _KEPT.clear()
    _ON_LOAD.clear()
    current = None if importer_class is None else importer_class.__dict__.get("load_json")
    original = getattr(getattr(current, "__func__", None), _MARK, None)
    if original is not None:
        importer_class.load_json = original


def take(data) -> dict | None:
    """The kept dict if it is the document of ``data`` (``gltf.data``), else None; nothing stays kept."""
    kept = _KEPT.pop() if _KEPT else None
    _KEPT.clear()
    if not isinstance(kept, dict):
        return None
    for key in ("nodes", "meshes", "accessors", "scenes"):
        listed = kept.get(key)
        if len(listed if isinstance(listed, list) else ()) != len(getattr(data, key, None) or ()):
            return None
    return kept


def forget() -> None:
    """Drop a kept dict (an import that reads no physics, or after the file was read again)."""
    _KEPT.clear()
    _ON_LOAD.clear()
