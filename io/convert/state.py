"""What a ``convert`` run keeps in its output folder (bpy-free): the folder's lock and one stamp per output.

Both live in the hidden folder ``OUT/.gltf-physics-convert`` (never walked as an input: hidden folders are skipped).

* **The lock** (``locked``): a run holds an ``fcntl`` lock on ``lock`` in it from before its first file to after its
  last clean-up. Two runs into one OUT would remove each other's hidden ``.partial`` folders (each run takes them
  for a killed run's) and convert the same files at once: the second run refuses with a clear message and exit
  code 2 instead. The shards of one array (``--shard K/N``, documented to run side by side into one OUT) share it,
  and only the same shard twice refuses; the sweep of stale temporary files then runs only at a moment a shard is
  the only one (``FolderLock.alone``, on a lock of the shards' own, ``shards``, so that a sweep never looks like a
  run without ``--shard`` to a shard starting beside it). Opening the lock is also the first write into OUT, so a
  read-only OUT is found there, before any file is imported. The files are never removed (removing a lock file
  races with a run opening it). Systems without ``fcntl`` (Windows) run without the lock.
* **Stamps** (``write_stamp`` / ``up_to_date``): the worker writes, just before an output's final rename, what made
  it: the options that change the written file (``--to``, ``--validate``), and the size and modification time (ns)
  of the input, every resource it read (a glTF's buffers and images, a missing image as missing; for a ``.blend``,
  every file it references: libraries, images, sounds…, a missing one as missing), the output and every resource
  the output references. ``--skip-existing`` skips a file
  only when its stamp says the same options and every listed file still has its size and time (or is still
  missing): another ``--to``, a changed texture or library, a missing image that now exists or a deleted output
  ``.bin`` re-convert it. Stamps are named by a hash of the output's
  path relative to OUT (any length and any bytes of the name fit the file name limit).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import pathlib
from collections.abc import Callable, Iterable, Iterator

from ..gltf.atomic import atomic_write_bytes

STATE = ".gltf-physics-convert"
LOCK = "lock"
SHARDS = "shards"  # the shards' lock for their sweeps (``FolderLock.alone``)
STAMPS = "stamps"
STAMP_FORMAT = "gltf_physics.convert_stamp/1"

try:
    import fcntl
except ImportError:  # Windows
    fcntl = None


class OutputError(RuntimeError):
    """OUT cannot be used (exit code 2): read-only, not a folder, or locked by another run."""


@contextlib.contextmanager
def locked(out: pathlib.Path, shard: tuple[int, int] | None = None) -> Iterator[FolderLock]:
    """Hold OUT's lock (creating OUT and its state folder) as a run without ``--shard`` (alone) or as shard
    ``shard`` (beside the other shards); ``OutputError`` when OUT cannot be written or another run holds it."""
    lock = FolderLock(out, shard)
    try:
        yield lock
    finally:
        lock.release()


class FolderLock:
    """OUT's lock of one run: exclusive on ``lock`` for a run without ``--shard``; for shard K/N shared on ``lock``
    (the other shards of a scheduler's array run beside it, their outputs are disjoint), exclusive on
    ``shard-K-of-N`` (the same shard twice refuses) and shared on ``shards`` (exclusive while it sweeps)."""

    def __init__(self, out: pathlib.Path, shard: tuple[int, int] | None):
        self.out, self.shard, self.fds = out, shard, []
        folder = out / STATE
        try:
            folder.mkdir(parents=True, exist_ok=True)
            self.main = self._open(folder / LOCK)
            if shard is None:
                self._take(self.main, "EX", f"another convert run is writing into OUT {str(out)!r}")
            else:
                k, n = shard
                self._take(self._open(folder / f"shard-{k}-of-{n}"), "EX", f"shard {k}/{n} is already converting")
                self._take(self.main, "SH", f"a convert run without --shard is writing into OUT {str(out)!r}")
                self.sweeps = self._open(folder / SHARDS)
                if fcntl is not None:
                    fcntl.flock(self.sweeps, fcntl.LOCK_SH)  # waits only while another shard sweeps
        except OSError as exc:
            self.release()
            raise OutputError(f"OUT {str(out)!r} cannot be written: {exc.strerror or exc}") from exc
        except OutputError:
            self.release()
            raise

    def _open(self, path: pathlib.Path) -> int:
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o666)
        self.fds.append(fd)
        return fd

    def _take(self, fd: int, kind: str, busy: str) -> None:
        if fcntl is None:
            return
        try:
            fcntl.flock(fd, getattr(fcntl, f"LOCK_{kind}") | fcntl.LOCK_NB)
        except BlockingIOError as exc:
            raise OutputError(f"{busy}: wait for it to end or choose another OUT") from exc

    def alone(self, work: Callable[[], None]) -> None:
        """Run ``work`` (the sweep of stale temporary files) only while no other run uses OUT: always for a run
        without ``--shard``; for a shard when it can hold ``shards`` alone for that moment (then shared again). A
        shard's share of ``lock`` stays shared all along, so a shard starting meanwhile only waits for the sweep's
        end.

        ``flock`` turns a shared lock into an exclusive one by dropping the shared lock first, and a failed try
        does not give it back: a shard that cannot sweep takes its share again at once, else the next shard would
        find itself alone and sweep the staged files of this one while it converts. A shard is without its share
        only inside this call, before its first file or after its last, so a sweep never meets its staged files."""
        if self.shard is None or fcntl is None:
            work()
            return
        try:
            fcntl.flock(self.sweeps, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:  # other shards are converting: their staged files are not stale
            fcntl.flock(self.sweeps, fcntl.LOCK_SH)  # waits only while another shard sweeps
            return
        try:
            work()
        finally:
            fcntl.flock(self.sweeps, fcntl.LOCK_SH)

    def release(self) -> None:
        while self.fds:
            os.close(self.fds.pop())  # releases the locks


def stamp_path(out: pathlib.Path, key: str) -> pathlib.Path:
    """The stamp of the output ``key`` (its path relative to OUT)."""
    digest = hashlib.sha256(os.fsencode(key)).hexdigest()[:32]
    return out / STATE / STAMPS / f"{digest}.json"


def _mark(path: pathlib.Path) -> list[int] | None:
    """Size and modification time (ns) of ``path``; None when it does not exist (a missing resource)."""
    try:
        info = path.stat()
    except FileNotFoundError:
        return None
    return [info.st_size, info.st_mtime_ns]


def write_stamp(
    stamp: pathlib.Path, options: dict, inputs: Iterable[pathlib.Path], outputs: dict[pathlib.Path, pathlib.Path]
) -> None:
    """Write ``stamp``: ``options``, the marks of ``inputs`` and of ``outputs`` (final path → the file that will be
    renamed there, or the same path when it is in place already)."""
    stamp.parent.mkdir(parents=True, exist_ok=True)
    document = {
        "format": STAMP_FORMAT,
        "options": options,
        "inputs": {os.fsencode(str(path)).hex(): _mark(path) for path in inputs},
        "outputs": {os.fsencode(str(final)).hex(): _mark(now) for final, now in outputs.items()},
    }
    atomic_write_bytes(stamp, json.dumps(document).encode("utf-8"), sync=False)  # lost: the file is converted again


def up_to_date(stamp: pathlib.Path, options: dict, output: pathlib.Path) -> bool:
    """True when ``stamp`` says ``options`` and every file it lists (``output`` among them) is unchanged."""
    try:
        document = json.loads(stamp.read_text(encoding="utf-8"))
        if document.get("format") != STAMP_FORMAT or document.get("options") != options:
            return False
        outputs, inputs = document["outputs"], document["inputs"]
        if os.fsencode(str(output)).hex() not in outputs:
            return False
        for hexed, mark in [*inputs.items(), *outputs.items()]:
            if _mark(pathlib.Path(os.fsdecode(bytes.fromhex(hexed)))) != mark:
                return False
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return False
    return True
