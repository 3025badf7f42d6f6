"""``gltf-physics check FILE… [--frames N] [--json OUT] [--plots DIR]`` (bpy-free driver).

Each file is imported and simulated in a worker process (the ``convert`` machinery: ``convert.pool`` starts
``convert/bootstrap.py`` with this Python's ``bpy`` module, or ``--blender PATH``; the worker runs
``check.job.check_file``), the samples come back as JSON and are evaluated here with ``sim/`` (``check.evaluate``).
Exit codes: 0 clean; 1 a file has errors (malformed, not importable, physics errors), or with
``--fail-on-violation`` a joint leaves its limits or a drive misses its target (``output.problems``, the thresholds of
``check.evaluate``); 2 usage error or no worker.
"""

from __future__ import annotations

import argparse
import importlib.util
import pathlib
import sys
import tempfile
from dataclasses import dataclass

from ...sim.joint_report import file_part
from ..convert import protocol as p
from ..convert.options import timeout_seconds
from ..convert.output_guard import refuse_report
from ..convert.pool import START_HINT, Pool, StartError, add_worker_arguments, chosen_worker
from ..diagnostics import PhysicsDataError, Severity, printable
from ..gltf.atomic import atomic_write_bytes
from ..gltf.files import load, resource_uris
from ..gltf.parse import parse_gltf
from ..gltf.safe_files import blender_relative
from .evaluate import finish
from .output import problems, summary_lines, to_json, write_plots

DESCRIPTION = (
    "Import each .gltf/.glb file into Blender, simulate its rigid bodies headless for N frames and evaluate the "
    "motion with the reference evaluator: per body rest height, travel and spin; per joint the largest violation of "
    "each limit (the spec's limit metrics) and whether drives reach their targets; per trigger the enter/exit "
    "events. Exit code 0 clean, 1 a file has errors (malformed, not importable) or, with --fail-on-violation, a "
    "limit is violated or a drive NOT reached; 2 usage error."
)


@dataclass(frozen=True)
class CheckJob:
    """A ``convert.pool`` job (duck-typed like ``convert.plan.Job``): one file to check."""

    input: pathlib.Path
    frames: int
    key: str
    output: pathlib.Path  # only for the pool's clean-up of a killed worker: a name that is never written

    def to_json(self, to: str, validate: bool) -> dict:
        return {"kind": "check", "input": str(self.input), "frames": self.frames}


def _frames(text: str) -> int:
    try:
        value = int(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(f"{text!r} is not an integer") from exc
    if not 1 <= value <= 100_000:
        raise argparse.ArgumentTypeError("must be between 1 and 100000")
    return value


def add_subcommand(subparsers) -> None:
    parser = subparsers.add_parser("check", help="simulate files in Blender and measure them", description=DESCRIPTION)
    parser.add_argument("files", nargs="+", metavar="FILE", help=".gltf or .glb files")
    parser.add_argument("--frames", type=_frames, default=120, metavar="N", help="frames to simulate (120)")
    parser.add_argument("--json", metavar="OUT", help="write the JSON report (one entry per file)")
    parser.add_argument("--plots", metavar="DIR", help="write PNG plots (body heights, joint metrics vs limits)")
    parser.add_argument(
        "--timeout", type=timeout_seconds, default=600.0, metavar="S", help="per-file worker timeout (600)"
    )
    parser.add_argument(
        "--fail-on-violation",
        action="store_true",
        help="exit 1 when a joint leaves its limits or a drive does not reach its target (as metrics)",
    )
    add_worker_arguments(parser, "run the simulation")
    parser.set_defaults(func=run)


def _jobs(files: list[str], frames: int, scratch: pathlib.Path) -> list[CheckJob]:
    jobs = []
    for i, text in enumerate(files):
        path = pathlib.Path(text)
        jobs.append(CheckJob(path.absolute(), frames, f"{i:03d}_{path.name}", scratch / f"{i:03d}"))
    return jobs


def _validate(path: pathlib.Path) -> tuple[list[dict], bool]:
    """The file's own ERROR diagnostics (``stage`` read / validate) and whether it can be imported at all: the
    importer reports invalid physics as warnings (and drops it), the check says the input has errors."""
    try:
        document = load(path).json
    except PhysicsDataError as exc:
        return [p.staged("read", exc.diagnostic)], False
    found = [d for d in parse_gltf(document).diagnostics if d.severity >= Severity.ERROR]
    return [p.staged("validate", d) for d in found], True


def _unique(diagnostics: list[dict]) -> list[dict]:
    """Each diagnostic once: the check validates the file and the import reports the same error again; the same
    severity, code, pointer and message is one diagnostic (the first one, its stage says where it was found)."""
    seen, out = set(), []
    for d in diagnostics:
        key = (d["severity"], d["code"], d["pointer"], d["message"])
        if key not in seen:
            seen.add(key)
            out.append(d)
    return out


def _file_entry(job: CheckJob, result: dict, errors: list[dict]) -> dict:
    diagnostics = _unique(errors + result.get("diagnostics", []))
    status = p.FAILED if errors else result["status"]
    report = finish(result.get("samples"), diagnostics, str(job.input))
    return {
        "file": str(job.input),
        "status": "ok" if status == p.CONVERTED else status,
        "diagnostics": diagnostics,
        "report": report,
    }


def _print(entry: dict) -> None:
    if entry["report"] is not None:
        print("\n".join(summary_lines(entry["report"])))
    for d in entry["diagnostics"]:
        if d["severity"] == "error":
            where = f" {d['pointer']}" if d["pointer"] else ""
            print(printable(f"{entry['file']}: error {d['code']}{where}: {d['message']}"), file=sys.stderr)


def run(args: argparse.Namespace, blender: str | None = None, python: str | None = None) -> int:
    missing = [f for f in args.files if not pathlib.Path(f).is_file()]
    if missing:
        why = (
            "not a regular file (a FIFO or a device is never opened)"
            if pathlib.Path(missing[0]).exists()
            else "no such file"
        )
        print(printable(f"error: {missing[0]!r}: {why}"), file=sys.stderr)
        return 2
    if args.json and pathlib.Path(args.json).resolve() in {pathlib.Path(f).resolve() for f in args.files}:
        print(printable(f"error: --json {args.json!r} is an input: choose another file"), file=sys.stderr)
        return 2
    refused = refuse_report("--json", args.json, None) if args.json else None
    if refused:
        print(printable(f"error: {refused}"), file=sys.stderr)
        return 2
    if args.plots and importlib.util.find_spec("matplotlib") is None:
        print("error: --plots needs matplotlib (pip install matplotlib)", file=sys.stderr)
        return 2
    scratch = pathlib.Path(tempfile.gettempdir()) / "gltf_physics_check"
    jobs = _jobs(args.files, args.frames, scratch)
    checked = {job.key: _validate(job.input) for job in jobs}
    entries: dict[str, dict] = {}
    for job in jobs:
        errors, readable = checked[job.key]
        if not readable:
            entries[job.key] = _file_entry(job, {"status": p.FAILED}, errors)
            _print(entries[job.key])
    command = chosen_worker(args, blender, python)
    if isinstance(command, str):
        print(printable(f"error: {command}"), file=sys.stderr)
        return 2
    pool = Pool(command, 1, args.timeout, 0, "", False)

    def on_event(kind: str, job: CheckJob, result: dict | None) -> None:
        if kind == "done":
            entries[job.key] = _file_entry(job, result, checked[job.key][0])
            _print(entries[job.key])

    try:
        pool.run([job for job in jobs if job.key not in entries], on_event)
    except StartError as exc:
        hint = f"check {START_HINT}"
        print(f"error: {printable(exc)}\n{hint}", file=sys.stderr)
        return 2
    files = [entries[job.key] for job in jobs]
    try:
        _write(args, files, _protected(jobs))
    except OSError as exc:
        print(printable(f"error: output not written: {exc}"), file=sys.stderr)
        return 2
    return exit_code(files, getattr(args, "fail_on_violation", False))


def exit_code(files: list[dict], fail_on_violation: bool) -> int:
    """1 when a file failed, or (``fail_on_violation``) when a report lists problems (violated limits, drives NOT
    reached: ``output.problems``); else 0."""
    if any(f["status"] == p.FAILED for f in files):
        return 1
    violated = any(f["report"] is not None and problems(f["report"]) for f in files)
    return 1 if fail_on_violation and violated else 0


def _protected(jobs: list[CheckJob]) -> frozenset[pathlib.Path]:
    """Every input and every file an input references (resolved as io_scene_gltf2 opens it): no plot may replace
    one of them (a plot's name comes from the file's and the joints' names, which the file chooses)."""
    protected = set()
    for job in jobs:
        protected.add(job.input.resolve())
        try:
            document = load(job.input).json
        except PhysicsDataError:
            continue
        for _, uri in resource_uris(document):
            protected.add((job.input.parent / blender_relative(uri)).resolve())
    return frozenset(protected)


def _write(args: argparse.Namespace, files: list[dict], protected: frozenset[pathlib.Path] = frozenset()) -> None:
    """The plots (before the JSON, which names them) and the JSON report; a plot over a ``protected`` file (an
    input or its resource) raises ``OSError`` before anything is written over it."""
    if args.plots:
        for i, entry in enumerate(files):
            if entry["report"] is not None:
                prefix = f"{i:02d}_{_stem(entry['file'])}_"
                write_plots(entry["report"], pathlib.Path(args.plots), prefix=prefix, protected=protected)
    if args.json:
        text = to_json({"format": "gltf_physics.check_run/1", "frames": args.frames, "files": files})
        pathlib.Path(args.json).parent.mkdir(parents=True, exist_ok=True)
        atomic_write_bytes(args.json, (text + "\n").encode("utf-8"))


def _stem(path: str) -> str:
    """The file's stem as a safe, length-bounded part of a plot's name (``joint_report.file_part``)."""
    return file_part(pathlib.Path(path).stem)
