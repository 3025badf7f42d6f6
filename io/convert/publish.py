"""Publishing one ``convert`` output as a set, and cleaning what a killed run left (bpy-free).

A ``.gltf`` output is its main file plus buffers and images beside it, replaced by a re-conversion one file at a
time: a kill between two replacements would show the old ``.gltf`` with the new ``.bin``. So no resource ever
replaces a file: each is written under its name when that name is free or holds the same bytes, else under a name
with its content hash (``safe_files.publish_resource``), and the ``.gltf`` is renamed into place last. Whatever
the previous output referenced and the new one does not is removed after that rename. Before anything is written,
a journal in the output's hidden ``.partial`` folder lists every file the set may touch (the previous output's
resources and every name the new ones may take); ``settle`` removes each listed file that no glTF of the folder
references (the outputs, and the staged ones of other workers). The same ``settle`` finishes a commit, undoes a
failed one and repairs a killed one (run by the next conversion of the file, the driver after killing a worker,
and the sweep at the start and end of every run): after a kill the folder holds either the whole old set or the
whole new set, plus files ``settle`` removes.

``sweep`` removes from an output folder every stale hidden ``.partial`` folder (settled first) and every temporary
file of an atomic write (``.<name>.XXXXXXXX.tmp``); the driver runs it while it holds the output folder's lock
(``outlock``), so no other run is writing there.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import pathlib
import re
import shutil
import urllib.parse

from ..diagnostics import PhysicsDataError
from ..gltf.atomic import atomic_write_bytes
from ..gltf.files import load, resource_uris
from ..gltf.safe_files import _hashed
from .state import STAMPS, STATE

JOURNAL = "publish.json"
PARTIAL = ".partial"
NAME_BYTES = 64  # of the output's name kept in its hidden names: a 255-byte name leaves room for the rest
# mkstemp's temporary files of ``gltf.atomic.atomic_write``: ``.<name>.<8 random characters>.tmp``
_ATOMIC_TEMPORARY = re.compile(r"^\..*\.[A-Za-z0-9_]{8}\.tmp$", re.DOTALL)


def hidden_name(name: str, suffix: str) -> str:
    """``.<name>~<hash>.<suffix>`` for a file beside the output ``name``: the name cut to ``NAME_BYTES`` bytes (on a
    character boundary; bytes that are no UTF-8 become ``_``) so that a 255-byte output name still has a hidden
    name, which is always valid text for Blender, and the hash (of the whole name) keeps it unique."""
    raw = os.fsencode(name)
    digest = hashlib.sha256(raw).hexdigest()[:10]
    text = raw.decode("utf-8", "replace").replace("\ufffd", "_")
    while len(text.encode("utf-8")) > NAME_BYTES:
        text = text[:-1]
    return f".{text}~{digest}{suffix}"


def text_name(name: str) -> str:
    """``name`` as valid text: bytes that are no UTF-8 (a file name from another system) become U+FFFD. Blender
    cannot take a path with such bytes (``UnicodeEncodeError``), and a glTF URI is text: the output is exported
    under this name in its hidden folder, then renamed to ``name``."""
    return os.fsencode(name).decode("utf-8", "replace")


def partial_path(output: pathlib.Path) -> pathlib.Path:
    """The hidden temporary folder (glTF) or file (.blend) of ``output``, beside it on the same file system so that
    the final rename is atomic."""
    suffix = PARTIAL + (".blend" if output.suffix.lower() == ".blend" else "")  # Blender saves .blend files only
    return output.with_name(hidden_name(output.name, suffix))


def _relative(uri: str) -> str | None:
    """``uri`` as a normalised relative path, or None when it leaves its folder."""
    path = os.path.normpath(urllib.parse.unquote(uri).replace("\\", "/"))
    return None if os.path.isabs(path) or path.split(os.sep)[0] == ".." else pathlib.PurePath(path).as_posix()


def references(gltf: pathlib.Path) -> set[str] | None:
    """The resources (relative to the output folder) the glTF ``gltf`` references; empty when it does not exist,
    None when it cannot be read (then nothing it might reference is removed)."""
    try:
        document = load(gltf).json
    except PhysicsDataError:
        return set() if not gltf.exists() else None
    found = set()
    for _, uri in resource_uris(document):  # a staged glTF's URIs are those it will have in ``folder``
        relative = _relative(uri)
        if relative is not None:
            found.add(relative)
    return found


def candidates(uri: str, source: pathlib.Path) -> list[str]:
    """The names a resource at ``uri`` may be published under: its own and the one with its content hash."""
    with open(source, "rb") as file:
        digest = hashlib.file_digest(file, "sha256").hexdigest()[:12]
    return [urllib.parse.unquote(uri), urllib.parse.unquote(_hashed(uri, digest))]


def begin(partial: pathlib.Path, output: pathlib.Path, names: list[str]) -> None:
    """Write the journal: ``names`` (relative to the output's folder) are the new set's possible files; the
    previous output's resources are added. Not fsynced: a kill never loses it (the page cache outlives the
    process), a power cut may, and then only leaves unreferenced files behind."""
    previous = references(output) or set()
    files = sorted({*names, *previous})
    if files:  # a .glb replacing a .glb: one rename, nothing to settle
        journal = json.dumps({"output": output.name, "files": files}).encode("utf-8")
        atomic_write_bytes(partial / JOURNAL, journal, sync=False)  # lost in a power cut: orphans, no mix


def settle(partial: pathlib.Path, folder: pathlib.Path) -> None:
    """Remove every file ``partial``'s journal lists that no glTF in ``folder`` references (the output first, then,
    only for what is left, every ``.gltf`` there and the glTF other workers staged); nothing without a journal."""
    try:
        journal = json.loads((partial / JOURNAL).read_text(encoding="utf-8"))
        output, files = folder / journal["output"], [str(name) for name in journal["files"]]
    except (OSError, ValueError, KeyError, TypeError):
        return
    leftover = [name for name in files if _inside(folder, name) and _is_file(folder / name)]
    kept = references(output)
    if kept is None:
        return
    leftover = [name for name in leftover if name not in kept]
    if not leftover:
        return
    others = [gltf for gltf in folder.glob(f".*{PARTIAL}/*.gltf") if gltf.parent != partial]  # other workers'
    for gltf in [*folder.glob("*.gltf"), *others]:
        kept = references(gltf)
        if kept is None:
            return
        leftover = [name for name in leftover if name not in kept]
    for name in leftover:
        with contextlib.suppress(OSError):
            (folder / name).unlink()


def _inside(folder: pathlib.Path, name: str) -> bool:
    """Does ``name`` stay inside ``folder``, its symlinks followed? Nothing outside the output folder is removed."""
    try:
        return _relative(name) is not None and (folder / name).resolve().is_relative_to(folder.resolve())
    except (OSError, RuntimeError, ValueError):
        return False


def _is_file(path: pathlib.Path) -> bool:
    try:
        return path.is_file()
    except OSError:  # a name too long for the file system, …: never written
        return False


def remove_staged(partial: pathlib.Path, folder: pathlib.Path) -> None:
    """Settle and remove the hidden temporary folder / file ``partial`` in the output folder ``folder``: a killed
    worker's, a failed commit's, or one a run killed between the final rename and its clean-up left beside a
    finished output."""
    with contextlib.suppress(OSError):
        if partial.is_dir() and not partial.is_symlink():
            settle(partial, folder)
            shutil.rmtree(partial)
        elif partial.exists() or partial.is_symlink():
            partial.unlink()


def remove_partial(output: pathlib.Path) -> None:
    """Settle and remove ``output``'s hidden temporary folder / file (``partial_path``): the driver removes it when
    it kills a worker, a run before it converts the file again."""
    remove_staged(partial_path(output), output.parent)


def sweep(out: pathlib.Path) -> None:
    """Remove every stale ``.partial`` folder / file (settled first) and every temporary file of an atomic write
    under ``out`` (hidden folders are not entered). Only while holding ``out``'s lock."""
    if not out.is_dir():
        return
    for top, dirs, files in os.walk(out):
        here = pathlib.Path(top)
        for name in [d for d in dirs if d.startswith(".")]:
            dirs.remove(name)
            if name.endswith(PARTIAL):
                remove_staged(here / name, here)
            elif here == out and name == STATE:  # a stamp's temporary file
                _remove_temporaries(here / name / STAMPS)
        _remove_temporaries(here, files)


def _remove_temporaries(folder: pathlib.Path, names: list[str] | None = None) -> None:
    """Remove the hidden ``.partial`` files and atomic writes' temporary files among ``names`` in ``folder``."""
    with contextlib.suppress(OSError):
        names = os.listdir(folder) if names is None else names
        for name in names:
            if name.startswith(".") and (PARTIAL in name or _ATOMIC_TEMPORARY.match(name)):
                with contextlib.suppress(OSError):
                    (folder / name).unlink()
