"""The resource rule for the files a ``.blend`` input references (bpy): inside IN, regular files, or refused.

A ``.blend`` names its images, linked libraries, sounds, movie clips, fonts, volumes and caches by path (``//`` is
the file's folder). Blender reads them when it exports (image pixels) or saves, so ``convert`` checks every one
of them right after ``open_mainfile`` and before anything else reads them, with the same rule as a glTF's URIs
(``safe_files.safe_resource``: inside the IN folder, symlinks followed, a regular file; only ``stat`` is called,
so a FIFO never hangs the worker). A path outside IN or naming a FIFO, device or folder is an ERROR and the file
fails (nothing exported, nothing copied into OUT); a missing file is a WARNING, as a missing glTF image is.

Linked libraries are read by ``open_mainfile`` itself, so they are checked before it (``library_problems``): their
paths are read from the file's own bytes (``blend_file``, on every Blender release), and from each library that
passes the rule in turn (a library's libraries are opened too), so a FIFO library or one outside IN is refused
before Blender opens anything. Where a compressed file cannot be decompressed here (no zstd module), Blender 5.2+
lists the paths itself (``bpy.data.libraries.load``); an older one cannot, and the file gets a
``CONVERT_LIBRARIES_UNCHECKED`` WARNING (its libraries are checked after opening; a FIFO library there blocks the
worker until ``--timeout``).

The files that pass are the file's resources: ``convert --skip-existing`` stamps them (``state``), so a changed
image or library converts the file again; a missing one is stamped as missing, so it converts again once it exists.
"""

from __future__ import annotations

import dataclasses
import os
import pathlib
import urllib.parse

from ..diagnostics import Diagnostic, Severity
from ..gltf.safe_files import IMAGE_MISSING, MISSING, safe_resource
from . import blend_file

REFERENCE_MISSING = "FILE_REFERENCE_MISSING"  # a file a .blend references (not an image) does not exist
LIBRARIES_UNCHECKED = "CONVERT_LIBRARIES_UNCHECKED"  # a .blend's libraries cannot be read before opening (WARNING)
MAX_LIBRARY_FILES = 1000  # libraries followed before opening a .blend (a library's libraries included)

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
    """The diagnostics of the libraries the (unopened) ``.blend`` ``src`` links, directly or through another
    library, read without opening any of them."""
    folder = src.resolve().parent
    found: list[tuple[str, str, str]] = []
    seen: set[str] = set()
    queue, unchecked = [src], []
    while queue and len(seen) < MAX_LIBRARY_FILES:
        blend = queue.pop(0)
        listed = _listed_libraries(blend)
        if listed is None:
            unchecked.append(blend)
            continue
        for path in listed:
            absolute = os.path.normpath(str(blend.resolve().parent / path[2:]) if path.startswith("//") else path)
            if absolute in seen:
                continue
            seen.add(absolute)
            found.append(("library", os.path.basename(path), absolute))
            if not _problems(found[-1:], folder, root):
                queue.append(pathlib.Path(absolute))  # passes the rule: its own libraries are opened too
    problems = _problems(found, folder, root)
    for blend in unchecked:
        why = (
            f"the libraries of {blend.name!r} could not be read before Blender opens it (compressed, and this "
            "Python has no zstd decompressor): they are checked after opening, and a FIFO among them blocks until "
            "--timeout"
        )
        problems.append(Diagnostic(Severity.WARNING, LIBRARIES_UNCHECKED, "", why))
    return problems


def _listed_libraries(blend: pathlib.Path) -> list[str] | None:
    """The library paths ``blend`` names (``//`` = its folder), [] when it cannot be read as a ``.blend`` (then
    ``open_mainfile`` reports it), None when they cannot be known before opening it."""
    try:
        return [library.path for library in blend_file.library_paths(blend) if not library.packed]
    except blend_file.NoDecompressorError:
        pass
    except (OSError, ValueError):  # not a regular file or not a .blend: open_mainfile reports it
        return []
    import bpy

    if bpy.app.version < (5, 2, 0):  # bpy.data.libraries.load lists no libraries there
        return None
    listed = []
    try:
        with bpy.data.libraries.load(str(blend)) as (data_from, _):
            for library in getattr(data_from, "libraries", None) or ():
                path = getattr(library, "filepath", None)
                if isinstance(path, str) and path:
                    listed.append(path)
    except (OSError, RuntimeError, ValueError):
        return []
    return listed


def blend_resource_problems(
    src: pathlib.Path, root: pathlib.Path | None, data=None, resources: list[pathlib.Path] | None = None
) -> list[Diagnostic]:
    """The diagnostics of the files the opened ``.blend`` ``src`` references (``data``: ``bpy.data``), checked
    against ``root`` (the IN folder; default: the file's folder). ``resources`` (when given) gets every referenced
    file that passes and every missing one (for the stamps of ``--skip-existing``)."""
    import bpy

    found = referenced_paths(data if data is not None else bpy.data)
    return _problems(found, src.resolve().parent, root, resources)


def _problems(
    found: list[tuple[str, str, str]],
    folder: pathlib.Path,
    root: pathlib.Path | None,
    resources: list[pathlib.Path] | None = None,
) -> list[Diagnostic]:
    """The resource rule (``safe_resource``) on (what, ID name, absolute path) items of a ``.blend`` in ``folder``;
    ``resources`` (when given) gets the paths that pass and the missing ones."""
    limit = root if root is not None else folder
    problems = []
    for what, name, path in found:
        uri = urllib.parse.quote(os.path.relpath(os.path.normpath(path), folder), safe="/")
        checked = safe_resource(folder, uri, "", limit)
        if isinstance(checked, pathlib.Path):
            if resources is not None:
                resources.append(checked)
            continue
        why = checked.message.removeprefix(f"resource {uri!r} ").removesuffix("; not copied")
        message = f"{what} {name!r}: {path!r} {why}"
        if checked.code == MISSING:  # Blender opens the file without it, as a glTF without a missing image
            code = IMAGE_MISSING if what == "image" else REFERENCE_MISSING
            checked = dataclasses.replace(checked, code=code, severity=Severity.WARNING)
            if resources is not None:
                resources.append(pathlib.Path(os.path.normpath(path)))
        problems.append(dataclasses.replace(checked, message=message + "; not read"))
    return problems
