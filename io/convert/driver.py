"""``convert``: batch conversion of .gltf / .glb / .blend files and folders (bpy-free driver).

The same ``run`` serves ``bin/gltf-physics convert`` (workers: this Python with the ``bpy`` module, or
``--blender PATH``) and ``blender --background --command gltf_physics convert`` (workers: that Blender). Exit
codes (``EXIT_*``): 0 every file converted (or skipped), 1 some failed, 2 usage error, an OUT that cannot be
written or is locked by another run (``state``), or no worker could start, 3 none failed but some converted with
losses (part of their physics did not reach the output; ``--strict`` fails those files instead); 130 after Ctrl-C,
128 + the signal after SIGTERM / SIGHUP (the report is written in all three).
"""

from __future__ import annotations

import argparse
import contextlib
import pathlib
import signal
import sys
import threading
import time

from ..diagnostics import Severity, printable, strict_json_text
from ..gltf.atomic import atomic_write_bytes
from ..gltf.counts import COUNT_KEYS
from ..gltf.extensions import TARGETS
from . import protocol as p
from . import publish, state
from .options import capped_jobs, positive_int, timeout_seconds
from .output_guard import refuse_report
from .plan import FORMATS, Job, PlanError, check_report, parse_shard, plan, take_shard
from .pool import START_HINT, Pool, StartError, add_worker_arguments, chosen_worker
from .progress import Progress

#: Exit codes of ``convert`` (docs/convert.md): all converted; some failed; usage error; some converted with losses.
EXIT_OK, EXIT_FAILED, EXIT_USAGE, EXIT_LOSSES = 0, 1, 2, 3

DESCRIPTION = (
    "Convert .gltf, .glb and .blend files (folders walked recursively; OUT mirrors each folder's tree) through "
    "Blender: glTF → glTF re-exports in revision --to, glTF → .blend imports and saves, .blend → glTF exports "
    "Blender-authored physics. Each file is written atomically (no partial output after a failure or a kill); "
    "inputs are never overwritten. Exit code 0 all converted, 1 some failed, 2 usage error, 3 some converted with "
    "losses (physics dropped or left out: listed in the report; --strict fails those files instead)."
)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("inputs", nargs="+", metavar="IN", help=".gltf, .glb or .blend files, or folders")
    parser.add_argument("-o", "--output", required=True, metavar="OUT", help="output folder (created)")
    parser.add_argument("--to", choices=TARGETS, default="2026", help="physics revision of glTF outputs (2026)")
    parser.add_argument(
        "--format", choices=FORMATS, default="same", help="output container; same keeps the input's (default)"
    )
    parser.add_argument("--jobs", type=positive_int, default=1, metavar="N", help="worker processes (1)")
    parser.add_argument("--shard", metavar="K/N", help="convert only the K-th of N shares of the sorted file list")
    parser.add_argument(
        "--report",
        metavar="FILE",
        help="write a JSON report: per file status, time, counts, diagnostics with code and JSON pointer",
    )
    parser.add_argument(
        "--skip-existing",
        action="store_true",
        help="skip files whose output a run made with the same options from the same input and resources",
    )
    parser.add_argument(
        "--include",
        action="append",
        default=[],
        metavar="GLOB",
        help="convert only inputs whose path inside IN (or file name) matches GLOB (repeatable; * crosses /)",
    )
    parser.add_argument(
        "--exclude",
        action="append",
        default=[],
        metavar="GLOB",
        help="leave out inputs whose path inside IN (or file name) matches GLOB (repeatable; wins over --include)",
    )
    parser.add_argument("--validate", action="store_true", help="validate each glTF output; errors fail the file")
    parser.add_argument(
        "--strict",
        action="store_true",
        help="fail (write nothing for) a file whose physics lost anything on the way: invalid physics dropped by "
        "the import, values the output cannot hold (default: converted with losses, exit code 3)",
    )
    parser.add_argument(
        "--timeout",
        type=timeout_seconds,
        default=600.0,
        metavar="S",
        help="kill a worker stuck on one file for S seconds (600)",
    )
    parser.add_argument(  # 500: a worker's memory stays flat over 500 small files; a restart is a Blender start
        "--recycle", type=positive_int, default=500, metavar="K", help="replace each worker after K files (500)"
    )
    add_worker_arguments(parser, "run workers")


def add_subcommand(subparsers) -> None:
    parser = subparsers.add_parser("convert", help="batch-convert files through Blender", description=DESCRIPTION)
    add_arguments(parser)
    parser.set_defaults(func=run)


def main(argv: list[str], prog: str, blender: str | None, python: str) -> int:
    """The Blender door: ``argv`` = ``["convert", …]``; ``--blender`` on the line wins over ``blender``."""
    parser = argparse.ArgumentParser(prog=prog)
    subparsers = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    add_subcommand(subparsers)
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # --help (0) or a usage error (2): never leave Blender from here
        return int(exc.code or 0)
    return run(args, blender=blender, python=python)


def run(args: argparse.Namespace, blender: str | None = None, python: str | None = None) -> int:
    started = time.monotonic()
    try:
        shard = parse_shard(args.shard) if args.shard else None
        every = plan(args.inputs, args.output, args.format, include=args.include, exclude=args.exclude)  # walked once
        if args.report:
            check_report(args.report, every, args.inputs)
            refused = refuse_report("--report", args.report, args.output)
            if refused:
                raise PlanError(refused)
        jobs = take_shard(every, shard)
    except PlanError as exc:
        print(f"error: {printable(exc)}", file=sys.stderr)
        return 2
    args.jobs, capped = capped_jobs(args.jobs)
    if capped:
        print(capped, file=sys.stderr)
    command = chosen_worker(args, blender, python)
    if isinstance(command, str):
        print(printable(f"error: {command}"), file=sys.stderr)
        return 2
    missing = _missing_bpy(command)
    if missing is not None:
        print(printable(missing), file=sys.stderr)
        return 2
    out = pathlib.Path(args.output).resolve()
    try:
        with state.locked(out, shard) as lock, _stop_signals():  # OUT's first write: a read-only OUT stops here
            code, results, summary = _convert(args, jobs, out, command, lock)
    except state.OutputError as exc:
        print(f"error: {printable(exc)}", file=sys.stderr)
        return 2
    if summary is None:  # no worker could start
        return code
    if args.report:
        try:
            _write_report(args, jobs, results, summary, time.monotonic() - started)
        except OSError as exc:
            print(f"error: report {args.report!r} not written: {printable(exc)}", file=sys.stderr)
            code = code or 2
    if code is not None:
        return code
    return exit_code([r["status"] for r in results.values()])


def _missing_bpy(command: list[str]) -> str | None:
    """The one line to print when the workers would be this very Python and it has no ``bpy`` module (found
    without starting anything); None otherwise (a ``--python`` or ``--blender`` worker says so when it starts)."""
    import importlib.util

    if command[0] != sys.executable or "--background" in command or importlib.util.find_spec("bpy") is not None:
        return None
    return (
        f"error: convert runs Blender's bpy module and this Python ({sys.executable}) has none: install the bpy "
        "wheel into it, or pass --python PATH of a Python that has it, or --blender PATH of a Blender"
    )


def _start_failure(text: str) -> str:
    """A worker's start failure as one line: what failed and the last line of its traceback, never the traceback."""
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    if not lines:
        return "no worker could start"
    head = lines[0].split(": Traceback")[0]
    return head if len(lines) == 1 else f"{head}: {lines[-1]}"


def exit_code(statuses: list[str]) -> int:
    """1 when a file failed, else 3 when a file was converted with losses, else 0 (skipped files count as done)."""
    if p.FAILED in statuses:
        return EXIT_FAILED
    return EXIT_LOSSES if p.LOSSES in statuses else EXIT_OK


class Stopped(BaseException):
    """SIGTERM or SIGHUP reached the driver: stop as after Ctrl-C (workers killed, the report written)."""

    def __init__(self, signum: int):
        super().__init__(signum)
        self.signum = signum


@contextlib.contextmanager
def _stop_signals():
    """SIGTERM and SIGHUP raise ``Stopped`` in the main thread while the run converts (once: a repeated signal
    during the clean-up is ignored); the previous handlers are back afterwards. Off the main thread (signals
    cannot be caught there) nothing changes."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    names = [name for name in ("SIGTERM", "SIGHUP") if hasattr(signal, name)]
    previous = {name: signal.getsignal(getattr(signal, name)) for name in names}
    raised = []

    def stop(signum, frame):
        if not raised:
            raised.append(signum)
            raise Stopped(signum)

    for name in names:
        signal.signal(getattr(signal, name), stop)
    try:
        yield
    finally:
        for name, handler in previous.items():
            signal.signal(getattr(signal, name), handler)


def _convert(
    args, jobs: list[Job], out: pathlib.Path, command: list[str], lock: state.FolderLock
) -> tuple[int | None, dict, str | None]:
    """Convert ``jobs`` into ``out`` (its lock held): stale temporary files swept first and last, outputs whose
    stamp matches skipped (``--skip-existing``). (exit code or None, results by key, summary line; None when no
    worker could start)."""
    progress = Progress(len(jobs))
    results: dict[str, dict] = {}
    options = {"to": args.to, "validate": bool(args.validate)}
    code = None
    started = True
    try:
        lock.alone(lambda: publish.sweep(out))  # a killed run's half-published sets, .partial folders, .tmp files
        for job in jobs:  # this run's own, also beside other shards
            publish.remove_partial(job.output)
        todo = []
        for job in jobs:
            if job.same_as is not None:  # X.gltf and X.glb side by side: the other one is converted
                why = f"the same asset in the other container is converted to {job.same_as!r}; this one is skipped"
                diagnostic = p.diag("plan", Severity.INFO, p.SAME_ASSET_SKIPPED, "", why)
                results[job.key] = {"status": p.SKIPPED, "seconds": 0.0, "counts": {}, "diagnostics": [diagnostic]}
                results[job.key]["note"] = f"same asset as {job.same_as}"
                progress.finished(job.key, results[job.key])
            elif args.skip_existing and state.up_to_date(state.stamp_path(out, job.key), options, job.output):
                results[job.key] = {"status": p.SKIPPED, "seconds": 0.0, "counts": {}, "diagnostics": []}
                progress.finished(job.key, results[job.key])
            else:
                todo.append(job)

        def on_event(kind: str, job: Job, result: dict | None) -> None:
            if kind == "start":
                progress.started(job.key)
            else:
                results[job.key] = result
                progress.finished(job.key, result)

        def stamp(job: Job) -> dict:
            return {"stamp": str(state.stamp_path(out, job.key))}

        pool = Pool(command, args.jobs, args.timeout, args.recycle, args.to, args.validate, stamp, strict=args.strict)
        pool.run(todo, on_event)
    except StartError as exc:  # nothing ran: one line, no summary, no report
        print(printable(f"error: {_start_failure(str(exc))} {START_HINT}"), file=sys.stderr)
        started = False
    except KeyboardInterrupt:
        print("\ninterrupted: files not converted are listed as not_run in the report", file=sys.stderr)
        code = 130
    except Stopped as exc:
        name = signal.Signals(exc.signum).name
        print(f"\nstopped by {name}: files not converted are listed as not_run in the report", file=sys.stderr)
        code = 128 + exc.signum
    finally:
        for job in jobs:  # the .partial folders of workers killed by Ctrl-C or a signal
            publish.remove_partial(job.output)
        lock.alone(lambda: publish.sweep(out))
    if not started:
        return EXIT_USAGE, results, None
    return code, results, progress.summary()


def _write_report(args, jobs: list[Job], results: dict[str, dict], summary: str, seconds: float) -> None:
    files = []
    for job in jobs:
        result = results.get(job.key, {"status": "not_run", "seconds": 0.0, "counts": {}, "diagnostics": []})
        counts = {k: result.get("counts", {}).get(k, 0) for k in COUNT_KEYS} if result.get("counts") else {}
        lost = [
            {k: d[k] for k in ("stage", "code", "pointer", "message")}
            for d in result.get("diagnostics", [])
            if p.loses(d)
        ]
        entry = {"input": str(job.input), "output": str(job.output), "name": job.key, **result, "counts": counts}
        files.append({**entry, "lost": lost})
    statuses = [f["status"] for f in files]
    report = {
        "to": args.to,
        "format": args.format,
        "shard": args.shard,
        "jobs": args.jobs,
        "summary": {
            "files": len(files),
            # "written": every output written (converted + warnings + losses), the summary line's "converted N"
            "written": sum(statuses.count(s) for s in (p.CONVERTED, p.WARNINGS, p.LOSSES)),
            **{s: statuses.count(s) for s in (p.CONVERTED, p.WARNINGS, p.LOSSES, p.FAILED, p.SKIPPED)},
            "not_run": statuses.count("not_run"),
            "strict": bool(getattr(args, "strict", False)),
            "seconds": round(seconds, 3),
            "text": summary,
        },
        "files": files,
    }
    pathlib.Path(args.report).parent.mkdir(parents=True, exist_ok=True)
    text, _ = strict_json_text(report)  # strict JSON: a non-finite number would be written as null
    atomic_write_bytes(args.report, (text + "\n").encode("utf-8"))
