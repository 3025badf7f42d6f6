"""Which files a ``convert`` run converts, and to where (bpy-free).

* Inputs are ``.gltf`` / ``.glb`` / ``.blend`` files and folders; a folder is walked to any depth (hidden entries
  and the output folder skipped, regular files only: ``walk``) and its **contents** go to ``OUT`` with the same
  relative paths; a file given directly goes to ``OUT/<name>``.
* The output suffix comes from ``--format`` (``same`` keeps the input's container).
* Jobs are sorted by output path relative to ``OUT`` (the same on every machine whatever the absolute paths), then
  ``--shard K/N`` keeps every N-th job starting at K-1: together the N shards convert each file exactly once.
* ``--skip-existing`` is decided by the output's stamp (``state``).
"""

from __future__ import annotations

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


def plan(inputs: list[str], out: str, fmt: str, shard: tuple[int, int] | None = None) -> list[Job]:
    """The sorted, sharded jobs; raises ``PlanError`` for a usage error (a missing input, OUT containing an
    input, two inputs with the same output)."""
    out_root = pathlib.Path(out).resolve()
    jobs: dict[str, Job] = {}
    for source, relative, root in _sources(inputs, out_root):
        key = output_name(relative, fmt).as_posix()
        if key in jobs:
            raise PlanError(f"{str(jobs[key].input)!r} and {str(source)!r} would both be written to {key!r}")
        jobs[key] = Job(source.absolute(), out_root / key, key, root)
    return take_shard([jobs[key] for key in sorted(jobs)], shard)


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
