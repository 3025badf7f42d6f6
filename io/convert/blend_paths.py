"""The resource rule for the files a ``.blend`` input references (bpy): inside IN, regular files, or refused.

A ``.blend`` names its images, linked libraries, sounds, movie clips, fonts, volumes and caches by path (``//`` is
the file's folder). Blender reads them when it exports (image pixels) or saves, so ``convert`` checks every one
of them right after ``open_mainfile`` and before anything else reads them, with the same rule as a glTF's URIs
(``safe_files.safe_resource``: inside the IN folder, symlinks followed, a regular file; only ``stat`` is called,
so a FIFO never hangs the worker). A path outside IN or naming a FIFO, device or folder is an ERROR and the file
fails (nothing exported, nothing copied into OUT); a missing file is a WARNING, as a missing glTF image is.

Linked libraries are read by ``open_mainfile`` itself (Blender offers no way to open a file without them): a
library outside IN is refused before anything is exported from it, but Blender has already read it.
"""

from __future__ import annotations

import dataclasses
import os
import pathlib
import urllib.parse

from ..diagnostics import Diagnostic, Severity
from ..gltf.safe_files import MISSING, safe_resource

#: ``bpy.data`` collections whose IDs carry a ``filepath`` Blender reads: (collection, what the message calls it).
PATH_COLLECTIONS = (
    ("libraries", "library"),
    ("images", "image"),
    ("sounds", "sound"),
    ("movieclips", "movie clip"),
    ("fonts", "font"),
    ("volumes", "volume"),
    ("cache_files", "cache file"),
)


def referenced_paths(data) -> list[tuple[str, str, str]]:
    """(what, ID name, absolute path) of every external file of ``data`` (``bpy.data``): each ID's own
    ``filepath`` (packed and generated ones skipped), then any other path ``bpy.utils.blend_paths`` knows of
    (point caches, modifier caches, image sequences' folders)."""
    import bpy

    found: list[tuple[str, str, str]] = []
    for collection, what in PATH_COLLECTIONS:
        for item in getattr(data, collection, ()):
            path = getattr(item, "filepath", "") or ""
            if not path or path == "<builtin>" or getattr(item, "packed_file", None) is not None:
                continue
            if getattr(item, "source", "FILE") in ("GENERATED", "VIEWER"):
                continue
            library = getattr(item, "library", None) if collection != "libraries" else None
            found.append((what, item.name, bpy.path.abspath(path, library=library)))
    known = {os.path.normpath(path) for _, _, path in found}
    for path in bpy.utils.blend_paths(absolute=True, packed=False, local=False):
        if os.path.normpath(path) not in known:
            found.append(("file", os.path.basename(path), path))
    return found


def blend_resource_problems(src: pathlib.Path, root: pathlib.Path | None, data=None) -> list[Diagnostic]:
    """The diagnostics of the files the opened ``.blend`` ``src`` references (``data``: ``bpy.data``), checked
    against ``root`` (the IN folder; default: the file's folder)."""
    import bpy

    folder = src.resolve().parent
    limit = root if root is not None else folder
    problems = []
    for what, name, path in referenced_paths(data if data is not None else bpy.data):
        uri = urllib.parse.quote(os.path.relpath(os.path.normpath(path), folder), safe="/")
        found = safe_resource(folder, uri, "", limit)
        if isinstance(found, pathlib.Path):
            continue
        why = found.message.removeprefix(f"resource {uri!r} ").removesuffix("; not copied")
        message = f"{what} {name!r}: {path!r} {why}"
        severity = Severity.WARNING if found.code == MISSING else Severity.ERROR
        problems.append(dataclasses.replace(found, severity=severity, message=message + "; not read"))
    return problems
