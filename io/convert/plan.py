"""Which files a ``convert`` run converts, and to where (bpy-free).

* Inputs are ``.gltf`` / ``.glb`` / ``.blend`` files and folders; a folder is walked to any depth (hidden entries
  and the output folder skipped, regular files only: ``walk``) and its **contents** go to ``OUT`` with the same
  relative paths; a file given directly goes to ``OUT/<name>``.
* The output suffix comes from ``--format`` (``same`` keeps the input's container).
* Jobs are sorted by output path relative to ``OUT`` (the same on every machine whatever the absolute paths), then
  ``--shard K/N`` keeps every N-th job starting at K-1: together the N shards convert each file exactly once.
* ``--skip-existing`` is decided by the output's stamp (``state``).
* ``--include`` / ``--exclude`` (repeatable ``fnmatch`` globs, ``*`` also crosses ``/``) keep / drop an input by
  its path relative to the IN folder it was found in (a file IN: its name) or by its file name alone; excludes win.
* **The same asset twice** (``X.gltf`` and ``X.glb`` side by side, as the Khronos samples ship): when both would be
  written to the same output (every ``--format`` but ``same``), the one already in the output's container is
  converted (for ``.blend``: the self-contained ``.glb``) and the other is listed as skipped with an INFO
  ``CONVERT_SAME_ASSET_SKIPPED`` naming the one converted; with ``same`` both are converted, each to its own name.
* OUT must not be inside an input folder (nor contain one): a later run over that folder would convert the outputs
  again, so it is a usage error.
"""

from __future__ import annotations

import fnmatch
import pathlib
import sys
from dataclasses import dataclass

from ..diagnostics import printable
from .walk import walk_regular

SUFFIXES = (".gltf", ".glb", ".blend")
FORMATS = ("gltf", "glb", "blend", "same")


class PlanError(ValueError):
    """A usage error (exit code 2): the message says what to change."""


@dataclass(frozen=True)
class Job:
    input: pathlib.Path
    output: pathlib.Path
    key: str  # output path relative to OUT, posix: the sort key and the report's name
    root: pathlib.Path | None = None  # the IN folder the input was found in (its own folder for a file IN)
    same_as: str | None = None  # the same asset in the other container is converted instead (its key): skipped

    def to_json(self, to: str, validate: bool) -> dict:
        root = str(self.root if self.root is not None else self.input.parent)
        return {"input": str(self.input), "output": str(self.output), "root": root, "to": to, "validate": validate}


def parse_shard(text: str) -> tuple[int, int]:
    """``"K/N"`` → (K, N) with 1 ≤ K ≤ N."""
    try:
        k, n = (int(part) for part in text.split("/"))
    except ValueError as exc:
        raise PlanError(f"--shard {text!r}: expected K/N, e.g. 2/8") from exc
    if not 1 <= k <= n:
        raise PlanError(f"--shard {text!r}: K must be between 1 and N")
    return k, n


def output_name(path: pathlib.PurePath, fmt: str) -> pathlib.PurePath:
    return path if fmt == "same" else path.with_suffix("." + fmt)


def _walk(folder: pathlib.Path, skip: pathlib.Path) -> list[pathlib.Path]:
    """The convertible regular files under ``folder`` (``walk.walk_regular``); each other one is named on stderr."""
    found, skipped = walk_regular(folder, skip, SUFFIXES)
    for why in skipped:
        print(printable(f"skipped {why}"), file=sys.stderr)
    return found


def _sources(inputs: list[str], out: pathlib.Path) -> list[tuple[pathlib.Path, pathlib.PurePosixPath, pathlib.Path]]:
    """(input file, path relative to OUT, the folder its resources must stay in) of every input."""
    sources = []
    for text in inputs:
        path = pathlib.Path(text)
        if path.is_dir():
            root = path.resolve()
            if out == root or root.is_relative_to(out):
                raise PlanError(f"OUT {str(out)!r} contains the input folder {text!r}: choose another OUT")
            if out.is_relative_to(root):
                raise PlanError(
                    f"OUT {str(out)!r} is inside the input folder {text!r}: a later run over {text!r} would convert "
                    "these outputs again; choose an OUT outside it"
                )
            sources += [(f, pathlib.PurePosixPath(f.relative_to(path).as_posix()), root) for f in _walk(path, out)]
        elif path.is_file():
            if not path.name.lower().endswith(SUFFIXES):
                raise PlanError(f"{text!r} is not a .gltf, .glb or .blend file")
            if path.resolve().parent == out or path.resolve().parent.is_relative_to(out):
                raise PlanError(f"OUT {str(out)!r} contains the input {text!r}: choose another OUT")
            sources.append((path, pathlib.PurePosixPath(path.name), path.resolve().parent))
        elif path.exists():
            raise PlanError(f"{text!r} is not a regular file or folder (a FIFO or a device is never opened)")
        else:
            raise PlanError(f"{text!r}: no such file or folder")
    return sources


def selected(relative: pathlib.PurePosixPath, include: list[str], exclude: list[str]) -> bool:
    """``--include`` / ``--exclude``: a pattern matches the path relative to its IN folder or the file name."""

    def matches(patterns: list[str]) -> bool:
        texts = (relative.as_posix(), relative.name)
        return any(fnmatch.fnmatchcase(t, pattern) for pattern in patterns for t in texts)

    return (not include or matches(include)) and not matches(exclude)


def _preferred(first: pathlib.PurePosixPath, second: pathlib.PurePosixPath, key: str) -> int | None:
    """Which of two inputs written to the same output ``key`` is converted (0 or 1): only for one asset in both
    glTF containers side by side (same folder, same stem); the one in the output's container, for a ``.blend``
    output the ``.glb``. None when they are not such a pair (a usage error)."""
    pair = {first.suffix.lower(), second.suffix.lower()}
    if pair != {".gltf", ".glb"} or first.with_suffix("") != second.with_suffix(""):
        return None
    wanted = pathlib.PurePosixPath(key).suffix.lower()
    wanted = wanted if wanted in pair else ".glb"
    return 0 if first.suffix.lower() == wanted else 1


def plan(
    inputs: list[str],
    out: str,
    fmt: str,
    shard: tuple[int, int] | None = None,
    include: list[str] | None = None,
    exclude: list[str] | None = None,
) -> list[Job]:
    """The sorted, sharded jobs (the same asset in the other container as a skipped job, ``same_as``); raises
    ``PlanError`` for a usage error (a missing input, OUT containing an input or inside an input folder, two
    different inputs with the same output)."""
    out_root = pathlib.Path(out).resolve()
    jobs: dict[str, tuple[Job, pathlib.PurePosixPath]] = {}
    skipped: list[Job] = []
    for source, relative, root in _sources(inputs, out_root):
        if not selected(relative, include or [], exclude or []):
            continue
        key = output_name(relative, fmt).as_posix()
        job = Job(source.absolute(), out_root / key, key, root)
        if key in jobs:
            other, other_relative = jobs[key]
            winner = _preferred(other_relative, relative, key) if other.root == root else None
            if winner is None:
                raise PlanError(f"{str(other.input)!r} and {str(source)!r} would both be written to {key!r}")
            kept, dropped = (other, (job, relative)) if winner == 0 else (job, (other, other_relative))
            jobs[key] = (kept, relative if winner == 1 else other_relative)
            lost, lost_relative = dropped
            skipped.append(Job(lost.input, lost.output, lost_relative.as_posix(), lost.root, same_as=key))
            continue
        jobs[key] = (job, relative)
    every = [job for job, _ in jobs.values()] + skipped
    return take_shard(sorted(every, key=lambda j: j.key), shard)


def take_shard(jobs: list[Job], shard: tuple[int, int] | None) -> list[Job]:
    """The K-th of N shares of the sorted ``jobs`` (all of them without a shard)."""
    if shard is None:
        return jobs
    k, n = shard
    return jobs[k - 1 :: n]


def check_report(report: str, every: list[Job], inputs: list[str]) -> None:
    """``--report`` must not be an input, an input folder, or an output of any shard (``every``: the unsharded
    plan): ``PlanError`` otherwise (written last, it would replace that file)."""
    target = pathlib.Path(report).resolve()
    for job in every:
        if target in (job.input.resolve(), job.output) or target == job.root:
            raise PlanError(f"--report {report!r} is {str(job.input)!r} or its output: choose another file")
    for text in inputs:
        if pathlib.Path(text).resolve() == target:
            raise PlanError(f"--report {report!r} is an input: choose another file")
