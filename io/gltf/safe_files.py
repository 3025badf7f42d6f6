"""Safe file side of every command that writes glTF files or copies their resources (bpy-free).

Two rules, each in one function so that ``migrate`` and future commands (``convert``, …) share them:

* ``safe_resource(src_dir, uri, pointer)``: a resource URI is percent-decoded and resolved (symlinks followed)
  against the folder of the glTF that references it; it is usable only when it stays inside that folder and names
  a regular file. Anything else (``../x``, ``%2e%2e/``, ``..%2f``, absolute paths, symlinks leading out, devices,
  FIFOs, folders, missing files) becomes an ERROR diagnostic at ``pointer`` and is never opened for reading.
* ``atomic_write_bytes(path, data)`` / ``atomic_copy(source, target)``: write a temporary file in the target folder,
  fsync it, then ``os.replace`` it into place; on any exception (including ``KeyboardInterrupt``) the temporary file
  is removed, so a failure or a kill never leaves a 0-byte or half-written file, and the previous file (or a hard
  link to it, such as the input) keeps its bytes.

``copy_resource`` writes a checked resource under the output folder: never outside it (the URI must not climb out
and no existing symlink in the output folder may lead out), replacing a stale file of the same name that differs
(reported as ``FILE_RESOURCE_REPLACED``) and leaving an identical one alone.
"""

from __future__ import annotations

import contextlib
import filecmp
import os
import pathlib
import shutil
import stat
import tempfile
import urllib.parse
from collections.abc import Callable
from typing import BinaryIO

from ..diagnostics import Diagnostic, Severity

OUTSIDE = "FILE_RESOURCE_OUTSIDE"
NOT_REGULAR = "FILE_RESOURCE_NOT_REGULAR"
MISSING = "FILE_RESOURCE_MISSING"
NOT_COPIED = "FILE_RESOURCE_NOT_COPIED"
REPLACED = "FILE_RESOURCE_REPLACED"
#: Codes after which a command writes no output at all (a missing resource is the input's defect: the output is
#: written and references it as the input does, but the command does not report success).
BLOCKING = frozenset({OUTSIDE, NOT_REGULAR, NOT_COPIED})

_READ_FLAGS = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_BINARY", 0)


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


def safe_resource(src_dir: str | os.PathLike, uri: str, pointer: str) -> pathlib.Path | Diagnostic:
    """The resolved path of the resource ``uri`` of a glTF in ``src_dir``, or an ERROR diagnostic at ``pointer``.

    The one path-safety rule for resources: percent-decode, refuse a URI that climbs out or is absolute, resolve
    (following symlinks) and refuse a result outside ``src_dir`` (``FILE_RESOURCE_OUTSIDE``), a missing or
    unreadable name (``FILE_RESOURCE_MISSING``) and anything but a regular file (``FILE_RESOURCE_NOT_REGULAR``).
    Only ``stat`` is called: a FIFO or a device is never opened."""
    relative = urllib.parse.unquote(uri)
    try:
        root = pathlib.Path(src_dir).resolve()
        if _climbs_out(relative):
            return _refuse(OUTSIDE, pointer, uri, f"leaves the input's folder {str(root)!r}")
        resolved = (root / relative).resolve()
        if not resolved.is_relative_to(root):
            return _refuse(OUTSIDE, pointer, uri, f"resolves to {str(resolved)!r}, outside the input's folder")
        mode = resolved.stat().st_mode
    except (OSError, ValueError, RuntimeError) as exc:  # ValueError: NUL byte; RuntimeError: symlink loop
        return _refuse(MISSING, pointer, uri, f"cannot be read ({exc})")
    if not stat.S_ISREG(mode):
        return _refuse(NOT_REGULAR, pointer, uri, "is not a regular file")
    return resolved


def _default_mode() -> int:
    umask = os.umask(0o022)
    os.umask(umask)
    return 0o666 & ~umask


def atomic_write(path: str | os.PathLike, write: Callable[[BinaryIO], None]) -> None:
    """Call ``write(file)`` on a temporary file beside ``path``, then rename it onto ``path`` (``os.replace``).

    The folder must exist. The new file gets the permissions of the file it replaces, else ``0o666 & ~umask``.
    On any exception the temporary file is removed and ``path`` is left as it was."""
    path = pathlib.Path(path)
    try:
        mode = stat.S_IMODE(path.stat().st_mode) if path.is_file() else _default_mode()
    except OSError:
        mode = _default_mode()
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as file:
            write(file)
            file.flush()
            os.fsync(file.fileno())
        os.chmod(tmp, mode)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def atomic_write_bytes(path: str | os.PathLike, data: bytes) -> None:
    """Write ``data`` to ``path`` atomically (see ``atomic_write``); reuse it for every file a command writes."""
    atomic_write(path, lambda file: file.write(data))


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
    relative = urllib.parse.unquote(uri)
    try:
        root = dst_dir.resolve()
        if _climbs_out(relative):
            return _refuse(OUTSIDE, pointer, uri, "would leave the output's folder")
        lexical = root / relative
        folder = lexical.parent.resolve()
        if not folder.is_relative_to(root):
            return _refuse(OUTSIDE, pointer, uri, f"would be written to {str(folder)!r}, outside the output's folder")
        target = folder / lexical.name
        replaced = target.exists()
        if replaced and (target.samefile(source) or filecmp.cmp(source, target, shallow=False)):
            return None
        lexical.parent.mkdir(parents=True, exist_ok=True)  # creates "sub" for "sub/../a.bin", as readers expect
        atomic_copy(source, target)
    except (OSError, ValueError, RuntimeError) as exc:
        return _refuse(NOT_COPIED, pointer, uri, f"could not be written ({exc})")
    if replaced:
        return Diagnostic(Severity.WARNING, REPLACED, pointer, f"{str(target)!r} differed from {uri!r}: replaced")
    return None
