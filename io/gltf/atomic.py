"""Atomic writes (bpy-free, stdlib only): the one way a command replaces a file.

``atomic_write(path, write)`` / ``atomic_write_bytes(path, data)`` write a temporary file beside ``path``
(``.<name>.<random>.tmp``), fsync it, then ``os.replace`` it into place with the permissions of the file it replaces
(else ``0o666`` less the user's umask, never ``mkstemp``'s ``0600``); on any exception (``KeyboardInterrupt``
included) the temporary file is removed and ``path`` keeps its bytes. Its own module so that ``sim`` (``metrics
-o``) may import it without the rest of ``gltf``.
"""

from __future__ import annotations

import contextlib
import os
import pathlib
import stat
import tempfile
from collections.abc import Callable
from typing import BinaryIO


def default_mode() -> int:
    umask = os.umask(0o022)
    os.umask(umask)
    return 0o666 & ~umask


def temporary_prefix(name: str) -> str:
    """``.<name>.`` with the name cut to 64 bytes: a temporary file beside a 255-byte name must fit the limit."""
    return f".{os.fsdecode(os.fsencode(name)[:64])}."


def atomic_write(path: str | os.PathLike, write: Callable[[BinaryIO], None], sync: bool = True) -> None:
    """Call ``write(file)`` on a temporary file beside ``path``, then rename it onto ``path`` (``os.replace``).

    The folder must exist. The new file gets the permissions of the file it replaces, else ``0o666 & ~umask``.
    On any exception the temporary file is removed and ``path`` is left as it was. ``sync=False`` skips the fsync
    (a few ms each) for files whose loss in a power cut costs only work, not data (``convert``'s stamps and
    journals): still never half-written for a reader or after a killed process."""
    path = pathlib.Path(path)
    try:
        mode = stat.S_IMODE(path.stat().st_mode) if path.is_file() else default_mode()
    except OSError:
        mode = default_mode()
    fd, tmp = tempfile.mkstemp(prefix=temporary_prefix(path.name), suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as file:
            write(file)
            file.flush()
            if sync:
                os.fsync(file.fileno())
        os.chmod(tmp, mode)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def atomic_write_bytes(path: str | os.PathLike, data: bytes, sync: bool = True) -> None:
    """Write ``data`` to ``path`` atomically (see ``atomic_write``); reuse it for every file a command writes."""
    atomic_write(path, lambda file: file.write(data), sync)
