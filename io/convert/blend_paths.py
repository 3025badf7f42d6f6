"""The resource rule for the files a ``.blend`` input references (bpy): inside IN, regular files, or refused.

A ``.blend`` names its images, linked libraries, sounds, movie clips, fonts, volumes and caches by path (``//`` is
the file's folder). Blender reads them when it exports (image pixels) or saves, so ``convert`` checks every one
of them right after ``open_mainfile`` and before anything else reads them, with the same rule as a glTF's URIs
(``safe_files.safe_resource``: inside the IN folder, symlinks followed, a regular file; only ``stat`` is called,
so a FIFO never hangs the worker). A path outside IN or naming a FIFO, device or folder is an ERROR and the file
fails (nothing exported, nothing copied into OUT); a missing file is a WARNING, as a missing glTF image is.

Linked libraries are read by ``open_mainfile`` itself, so they are checked before it (``library_problems``):
``bpy.data.libraries.load`` lists a file's libraries with their paths without opening them (Blender 5.2+; on
older releases it lists none, and a library is refused only after ``open_mainfile`` has read it, before anything
is exported from it; a FIFO library there blocks the worker until ``--timeout``).
"""

from __future__ import annotations

import dataclasses
import os
import pathlib
import urllib.parse

from ..diagnostics import Diagnostic, Severity
from ..gltf.safe_files import IMAGE_MISSING, MISSING, safe_resource

REFERENCE_MISSING = "FILE_REFERENCE_MISSING"  # a file a .blend references (not an image) does not exist

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


def library_problems(src: pathlib.Path, root: pathlib.Path | None) -> list[Diagnostic]:
    """The diagnostics of the libraries the (unopened) ``.blend`` ``src`` links, read from its library list without
    opening them; none where Blender does not list their paths (before 5.2)."""
    import bpy

    folder = src.resolve().parent
    found = []
    try:
        with bpy.data.libraries.load(str(src)) as (data_from, _):
            for library in getattr(data_from, "libraries", None) or ():
                path = getattr(library, "filepath", None)
                if isinstance(path, str) and path:
                    absolute = str(folder / path[2:]) if path.startswith("//") else path
                    found.append(("library", os.path.basename(path), absolute))
    except (OSError, RuntimeError, ValueError):  # not a readable .blend: open_mainfile reports it
        return []
    return _problems(found, folder, root)


def blend_resource_problems(src: pathlib.Path, root: pathlib.Path | None, data=None) -> list[Diagnostic]:
    """The diagnostics of the files the opened ``.blend`` ``src`` references (``data``: ``bpy.data``), checked
    against ``root`` (the IN folder; default: the file's folder)."""
    import bpy

    return _problems(referenced_paths(data if data is not None else bpy.data), src.resolve().parent, root)


def _problems(found: list[tuple[str, str, str]], folder: pathlib.Path, root: pathlib.Path | None) -> list[Diagnostic]:
    """The resource rule (``safe_resource``) on (what, ID name, absolute path) items of a ``.blend`` in ``folder``."""
    limit = root if root is not None else folder
    problems = []
    for what, name, path in found:
        uri = urllib.parse.quote(os.path.relpath(os.path.normpath(path), folder), safe="/")
        checked = safe_resource(folder, uri, "", limit)
        if isinstance(checked, pathlib.Path):
            continue
        why = checked.message.removeprefix(f"resource {uri!r} ").removesuffix("; not copied")
        message = f"{what} {name!r}: {path!r} {why}"
        if checked.code == MISSING:  # Blender opens the file without it, as a glTF without a missing image
            code = IMAGE_MISSING if what == "image" else REFERENCE_MISSING
            checked = dataclasses.replace(checked, code=code, severity=Severity.WARNING)
        problems.append(dataclasses.replace(checked, message=message + "; not read"))
    return problems
