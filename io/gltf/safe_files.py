"""Safe file side of every command that writes glTF files or copies their resources (bpy-free).

Two rules, each in one function so that ``migrate`` and future commands (``convert``, …) share them:

* ``safe_resource(src_dir, uri, pointer)``: every URI that is not embedded (``is_embedded``: ``data:…;base64,``)
  is a file, read the way io_scene_gltf2 reads it (``blender_relative``: backslashes to ``/``, percent-decoded,
  ``normpath``; so ``x://../a.png`` and ``data:../a.bin`` are paths too) and resolved (symlinks followed) against
  the folder of the glTF that references it; it is usable only when it stays inside that folder, names a regular
  file and (``max_bytes``: a buffer's padded ``byteLength``) is no longer than needed, since io_scene_gltf2 reads a
  buffer file whole. Anything else (``../x``, ``%2e%2e/``, ``..%2f``, absolute paths, symlinks leading out,
  devices, FIFOs, folders, missing files, a 2 GB file behind a 168-byte buffer) becomes an ERROR diagnostic at
  ``pointer`` and is never opened for reading.
* ``read_regular(path, limit)``: the one way our own code reads an input file: opened without blocking, checked to
  be a regular file after opening, read no further than ``limit`` bytes; a failure (a memory error included) is a
  ``ResourceReadError`` saying what happened, never "missing".
* ``atomic.atomic_write_bytes(path, data)`` / ``atomic_copy(source, target)``: write a temporary file in
  the target folder, fsync it, then ``os.replace`` it into place; on any exception (including ``KeyboardInterrupt``)
  the temporary file is removed, so a failure or a kill never leaves a 0-byte or half-written file, and the previous
  file (or a hard link to it, such as the input) keeps its bytes.

``copy_resource`` writes a checked resource under the output folder: never outside it (the URI must not climb out
and no existing symlink in the output folder may lead out), replacing a stale file of the same name that differs
(reported as ``FILE_RESOURCE_REPLACED``) and leaving an identical one alone. ``publish_resource`` never replaces:
a differing file of the same name (another output's, in a batch) keeps its bytes and this resource is written under
its name with a content hash, atomically and without a race between processes (``FILE_RESOURCE_RENAMED``).
"""

from __future__ import annotations

import contextlib
import filecmp
import hashlib
import os
import pathlib
import shutil
import stat
import tempfile
import urllib.parse
from typing import BinaryIO

from ..diagnostics import Diagnostic, Severity
from .atomic import atomic_write, default_mode, temporary_prefix

OUTSIDE = "FILE_RESOURCE_OUTSIDE"
NOT_REGULAR = "FILE_RESOURCE_NOT_REGULAR"
MISSING = "FILE_RESOURCE_MISSING"
IMAGE_MISSING = "FILE_IMAGE_MISSING"  # a missing image: Blender imports the glTF without it (WARNING)
NOT_COPIED = "FILE_RESOURCE_NOT_COPIED"
REPLACED = "FILE_RESOURCE_REPLACED"
RENAMED = "FILE_RESOURCE_RENAMED"
OVERSIZED = "FILE_RESOURCE_OVERSIZED"
#: Codes after which a command writes no output at all (a missing resource is the input's defect: the output is
#: written and references it as the input does, but the command does not report success).
BLOCKING = frozenset({OUTSIDE, NOT_REGULAR, NOT_COPIED, OVERSIZED})

_READ_FLAGS = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_BINARY", 0)


class ResourceReadError(OSError):
    """An input file that could not be read: not a regular file, unreadable, or too large for memory."""


def is_embedded(uri: str) -> bool:
    """True for a URI io_scene_gltf2 decodes instead of opening: ``data:`` with ``;base64,`` in it. Every other
    URI (``data:../x``, ``x://../y``, ``https://…``) is opened as a path by Blender, so it is checked as one."""
    return uri.startswith("data:") and ";base64," in uri


def blender_relative(uri: str) -> str:
    """The path, relative to the glTF's folder, that io_scene_gltf2 opens for ``uri`` (its ``uri_to_path``:
    backslashes to ``/``, percent-decoded, ``normpath``). Checking this exact path keeps the rule and the reader
    in step."""
    return os.path.normpath(urllib.parse.unquote(uri.replace("\\", "/")))


def open_regular(path: str | os.PathLike) -> BinaryIO:
    """``path`` opened for reading in binary, only when it is a regular file (``read_regular``'s checks: opened
    without blocking, checked after opening); ``ResourceReadError`` with the reason otherwise. For readers that
    stream a file instead of reading it whole (``convert.blend_file``)."""
    try:
        fd = os.open(path, _READ_FLAGS & ~getattr(os, "O_NOFOLLOW", 0))
    except OSError as exc:
        raise ResourceReadError(exc.errno, exc.strerror, str(path)) from exc
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        raise ResourceReadError(f"{path}: not a regular file (a FIFO, device or folder is never read)")
    return os.fdopen(fd, "rb")


def read_regular(path: str | os.PathLike, limit: int | None = None) -> bytes:
    """The bytes of the regular file ``path``, at most ``limit`` of them (``None``: all).

    Opened without blocking (a FIFO swapped in never hangs) and checked to be a regular file after opening (a
    device such as ``/dev/zero`` behind a symlink is never read); raises ``ResourceReadError`` with the reason,
    a ``MemoryError`` included (reported as too large, never as missing)."""
    with open_regular(path) as file:
        info = os.fstat(file.fileno())
        size = info.st_size if limit is None else min(info.st_size, limit)
        try:
            return file.read(size)
        except MemoryError as exc:
            raise ResourceReadError(f"{path}: {info.st_size} bytes do not fit in memory") from exc
        except OSError as exc:
            raise ResourceReadError(exc.errno, exc.strerror, str(path)) from exc


def _refuse(code: str, pointer: str, uri: str, why: str) -> Diagnostic:
    return Diagnostic(Severity.ERROR, code, pointer, f"resource {uri!r} {why}; not copied")


def _climbs_out(relative: str) -> bool:
    """True when the path parts of ``relative`` go above its start at any point (``a/../../b``) or it is absolute."""
    if os.path.isabs(relative) or os.path.splitdrive(relative)[0]:
        return True
    depth = 0
    for part in relative.replace("\\", "/").split("/"):
        if part == "..":
            depth -= 1
            if depth < 0:
                return True
        elif part not in ("", "."):
            depth += 1
    return False


def safe_resource(
    src_dir: str | os.PathLike,
    uri: str,
    pointer: str,
    root: str | os.PathLike | None = None,
    max_bytes: int | None = None,
) -> pathlib.Path | Diagnostic:
    """The resolved path of the resource ``uri`` of a glTF in ``src_dir``, or an ERROR diagnostic at ``pointer``.

    The one path-safety rule for resources: percent-decode, refuse a URI that climbs out or is absolute, resolve
    (following symlinks) and refuse a result outside ``src_dir`` (``FILE_RESOURCE_OUTSIDE``), a missing or
    unreadable name (``FILE_RESOURCE_MISSING``) and anything but a regular file (``FILE_RESOURCE_NOT_REGULAR``).
    ``root`` (a folder holding ``src_dir``, e.g. a library ``convert`` walks) widens the allowed folder to it:
    ``../textures/a.png`` may then leave ``src_dir``, never ``root``. ``max_bytes`` (a buffer's ``byteLength``
    padded to 4 bytes) refuses a longer file (``FILE_RESOURCE_OVERSIZED``): io_scene_gltf2 reads a buffer file
    whole, so a sparse 2 GB file behind a 168-byte buffer would cost 2 GB of memory. Only ``stat`` is called: a
    FIFO or a device is never opened."""
    relative = blender_relative(uri)
    try:
        folder = pathlib.Path(src_dir).resolve()
        limit = folder if root is None else pathlib.Path(root).resolve()
        where = "the input's folder" if root is None else "the input folder"
        if _climbs_out(relative) if root is None else _leaves(folder, relative, limit):
            return _refuse(OUTSIDE, pointer, uri, f"leaves {where} {str(limit)!r}")
        resolved = (folder / relative).resolve()
        if not resolved.is_relative_to(limit):
            return _refuse(OUTSIDE, pointer, uri, f"resolves to {str(resolved)!r}, outside {where}")
        info = resolved.stat()
    except (OSError, ValueError, RuntimeError) as exc:  # ValueError: NUL byte; RuntimeError: symlink loop
        return _refuse(MISSING, pointer, uri, f"cannot be read ({exc})")
    if not stat.S_ISREG(info.st_mode):
        return _refuse(NOT_REGULAR, pointer, uri, "is not a regular file")
    if max_bytes is not None and info.st_size > max_bytes:
        why = f"is {info.st_size} bytes, more than the {max_bytes} its byteLength needs (Blender would read it whole)"
        return _refuse(OVERSIZED, pointer, uri, why)
    return resolved


def _leaves(folder: pathlib.Path, relative: str, limit: pathlib.Path) -> bool:
    """Is ``relative`` absolute, or does it lexically leave ``limit`` when followed from ``folder``?"""
    if os.path.isabs(relative) or os.path.splitdrive(relative)[0]:
        return True
    return not pathlib.Path(os.path.normpath(folder / relative.replace("\\", "/"))).is_relative_to(limit)


def atomic_copy(source: str | os.PathLike, target: str | os.PathLike) -> None:
    """Copy the regular file ``source`` to ``target`` atomically, streaming. ``source`` is opened without following
    a final symlink and without blocking, and checked again to be a regular file after opening (no TOCTOU swap
    for a FIFO or a device)."""
    fd = os.open(source, _READ_FLAGS)
    with os.fdopen(fd, "rb") as src:
        if not stat.S_ISREG(os.fstat(src.fileno()).st_mode):
            raise OSError(f"{source}: not a regular file")
        atomic_write(target, lambda file: shutil.copyfileobj(src, file, 1 << 20))


def copy_resource(source: pathlib.Path, dst_dir: pathlib.Path, uri: str, pointer: str) -> Diagnostic | None:
    """Copy ``source`` (a path from ``safe_resource``) to ``dst_dir`` / decoded ``uri`` atomically.

    Never writes outside ``dst_dir``: the URI must not climb out and the target's existing folders must not lead
    out through a symlink. An identical file already there is kept (``None``); a different one is replaced and
    reported (``FILE_RESOURCE_REPLACED`` WARNING); a failure is ``FILE_RESOURCE_NOT_COPIED`` (ERROR)."""
    try:
        target = _output_target(dst_dir, uri, pointer)
        if isinstance(target, Diagnostic):
            return target
        replaced = target.exists()
        if replaced and (target.samefile(source) or filecmp.cmp(source, target, shallow=False)):
            return None
        atomic_copy(source, target)
    except (OSError, ValueError, RuntimeError) as exc:
        return _refuse(NOT_COPIED, pointer, uri, f"could not be written ({exc})")
    if replaced:
        return Diagnostic(Severity.WARNING, REPLACED, pointer, f"{str(target)!r} differed from {uri!r}: replaced")
    return None


def _output_target(dst_dir: pathlib.Path, uri: str, pointer: str) -> pathlib.Path | Diagnostic:
    """Where ``uri`` lands under ``dst_dir`` (its existing folders resolved; missing ones created, ``sub`` for
    ``sub/../a.bin`` as readers expect), or why it may not be written there."""
    relative = urllib.parse.unquote(uri)
    root = dst_dir.resolve()
    if _climbs_out(relative):
        return _refuse(OUTSIDE, pointer, uri, "would leave the output's folder")
    lexical = root / relative
    folder = lexical.parent.resolve()
    if not folder.is_relative_to(root):
        return _refuse(OUTSIDE, pointer, uri, f"would be written to {str(folder)!r}, outside the output's folder")
    lexical.parent.mkdir(parents=True, exist_ok=True)
    return folder / lexical.name


def _hashed(uri: str, digest: str) -> str:
    """``uri`` with ``-<digest>`` before the extension of its last segment (``a/T.png`` → ``a/T-1f2e.png``), the
    stem cut so that the decoded name still fits 255 bytes (a long name gets a hashed one too)."""
    head, slash, name = uri.rpartition("/")
    stem, dot, ext = name.rpartition(".")
    if not (dot and stem):
        stem, dot, ext = name, "", ""
    room = 255 - len(f"-{digest}{dot}{ext}".encode())
    while stem and len(os.fsencode(urllib.parse.unquote(stem))) > room:
        stem = stem[:-1]
    return f"{head}{slash}{stem}-{digest}{dot}{ext}"


def _link_new(source: pathlib.Path, target: pathlib.Path) -> bool:
    """Create ``target`` as a complete copy of ``source``, never replacing a file: False when ``target`` exists.

    The copy is written to a temporary file first and hard-linked into place (atomic, fails if the name is taken);
    a file system without hard links gets a rename (then two processes publishing the same name at once race)."""
    fd, tmp = tempfile.mkstemp(prefix=temporary_prefix(target.name), suffix=".tmp", dir=target.parent)
    os.close(fd)
    try:
        atomic_copy(source, tmp)
        os.chmod(tmp, default_mode())  # not mkstemp's 0600: published like every other file
        try:
            os.link(tmp, target)
        except FileExistsError:
            return False
        except OSError:  # no hard links here (FAT, some network shares)
            if target.exists():
                return False
            os.replace(tmp, target)
        return True
    finally:
        with contextlib.suppress(OSError):
            os.unlink(tmp)


def publish_resource(
    source: pathlib.Path, dst_dir: pathlib.Path, uri: str, pointer: str
) -> tuple[str, Diagnostic | None, bool]:
    """Write ``source`` (a path from ``safe_resource``) under ``dst_dir`` at ``uri`` without replacing anything.

    Returns the URI the resource now has, a diagnostic and whether this call created the file. The diagnostic is
    None when written or when an identical file was already there; ``FILE_RESOURCE_RENAMED`` (INFO) when a
    different file holds the name, so this one is written as ``name-<first 12 hex digits of its SHA-256>.ext``;
    ``FILE_RESOURCE_OUTSIDE`` / ``FILE_RESOURCE_NOT_COPIED`` (ERROR) when it may not or could not be written."""
    try:
        digest = None
        for candidate in (uri, None):
            if candidate is None:
                with open(source, "rb") as file:
                    digest = hashlib.file_digest(file, "sha256").hexdigest()[:12]
                candidate = _hashed(uri, digest)
            target = _output_target(dst_dir, candidate, pointer)
            if isinstance(target, Diagnostic):
                return uri, target, False
            created = _link_new(source, target)
            if created or filecmp.cmp(source, target, shallow=False):
                if candidate == uri:
                    return uri, None, created
                why = f"{uri!r} in the output's folder is a different file (another output's): written as {candidate!r}"
                return candidate, Diagnostic(Severity.INFO, RENAMED, pointer, why), created
        taken = f"{_hashed(uri, digest)!r} is taken by a different file too"
        return uri, _refuse(NOT_COPIED, pointer, uri, taken), False
    except (OSError, ValueError, RuntimeError) as exc:
        return uri, _refuse(NOT_COPIED, pointer, uri, f"could not be written ({exc})"), False
