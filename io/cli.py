"""Command line of the extension (``bin/gltf-physics``): bpy-free subcommands ``validate`` and ``migrate``.

Adding a subcommand: write ``add_subcommand(subparsers)`` in your module; it must create its parser with
``subparsers.add_parser(name, help=...)`` and ``set_defaults(func=run)`` where ``run(args) -> int`` is the exit code.
Then add its name and an adder that imports your module to ``MODULES`` below (bpy-free modules only) or call
``register`` with the function.

Start-up: a command line names one command, and only that command's module is imported (``metrics`` and ``check``
load numpy and the simulation code, which ``convert`` does not wait for before starting its workers); the overview
(``--help``, no or an unknown command) imports them all. ``validate`` and ``migrate`` import the parser when they run.
"""

from __future__ import annotations

import argparse
import json
import os
import pathlib
import sys
from collections.abc import Callable

from .diagnostics import (
    Diagnostic,
    PhysicsDataError,
    Severity,
    internal_failure,
    loses_physics,
    printable,
    safe_streams,
)
from .gltf.extensions import TARGETS
from .gltf.files import load, save
from .gltf.safe_files import BLOCKING
from .gltf.validate.codes import INTERNAL_ERROR

#: Exit codes of every subcommand: the run is clean; the input has errors; usage error or unreadable input.
EXIT_OK, EXIT_INPUT_ERRORS, EXIT_USAGE = 0, 1, 2


def _add_metrics(subparsers) -> None:
    from ..sim import joint_report

    joint_report.add_subcommand(subparsers)


def _add_convert(subparsers) -> None:
    from .convert import driver

    driver.add_subcommand(subparsers)


def _add_check(subparsers) -> None:
    from .check import driver

    driver.add_subcommand(subparsers)


#: Subcommands of other modules: name → the function that imports the module and adds the subcommand.
MODULES: dict[str, Callable[[argparse._SubParsersAction], None]] = {
    "metrics": _add_metrics,
    "convert": _add_convert,
    "check": _add_check,
}
#: Subcommands added with ``register``.
SUBCOMMANDS: list[Callable[[argparse._SubParsersAction], None]] = []


def register(add_subcommand: Callable[[argparse._SubParsersAction], None]) -> None:
    """Register a subcommand adder (called when the parser is built)."""
    SUBCOMMANDS.append(add_subcommand)


def _file_diagnostics(path: str) -> tuple[list[Diagnostic], bool]:
    """The diagnostics of one file and whether it could be read at all; never raises, so one bad file never
    stops the report of the others."""
    from .gltf.parse import parse_gltf  # numpy and the whole parser: only for the commands that parse

    try:
        document = load(path).json
    except PhysicsDataError as exc:
        return [exc.diagnostic], False
    try:
        return parse_gltf(document).diagnostics, True
    except Exception:  # a bug of ours on this input: reported for this file, the run goes on
        import traceback

        traceback.print_exc(file=sys.stderr)
        return [Diagnostic(Severity.ERROR, INTERNAL_ERROR, "", internal_failure("validating this file"))], True


#: What ``validate`` says of a file: no errors (warnings allowed); physics errors or not a glTF object; unreadable.
VALID, INVALID, UNREADABLE = "ok", "failed", "unreadable"


def _validate_paths(paths: list[str]) -> list[str]:
    """The files to validate: each FILE as given, each folder's regular ``.gltf`` / ``.glb`` files, walked as
    ``convert`` walks its inputs (``convert.walk.walk_regular``: any depth, hidden entries skipped, sorted; a FIFO or
    device of such a name is named on stderr, never opened)."""
    from .convert.walk import walk_regular

    out = []
    for text in paths:
        if os.path.isdir(text):
            found, skipped = walk_regular(pathlib.Path(text), None, (".gltf", ".glb"))
            for why in skipped:
                print(printable(f"skipped {why}"), file=sys.stderr)
            out += [str(path) for path in found]
        else:
            out.append(text)
    return out


def _file_entry(path: str, diags: list[Diagnostic], readable: bool) -> dict:
    """One file of a ``validate`` run: its status, its counts per severity and its diagnostics."""
    errors = sum(d.severity >= Severity.ERROR for d in diags)
    warnings = sum(d.severity == Severity.WARNING for d in diags)
    status = UNREADABLE if not readable else INVALID if errors else VALID
    counts = {"errors": errors, "warnings": warnings, "infos": len(diags) - errors - warnings}
    return {"file": path, "status": status, **counts, "diagnostics": [d.to_dict() for d in diags]}


def _totals(entries: list[dict]) -> dict:
    statuses = [e["status"] for e in entries]
    return {
        "files": len(entries),
        **{status: statuses.count(status) for status in (VALID, INVALID, UNREADABLE)},
        **{key: sum(e[key] for e in entries) for key in ("errors", "warnings", "infos")},
    }


def run_validate(args: argparse.Namespace) -> int:
    """Exit codes: 0 no errors; 1 a file has physics errors or is not a glTF object; 2 a file is unreadable
    (missing, not JSON, beyond the JSON limits) or a folder holds no glTF file. ``--json`` lists every file with its
    status (clean ones too) and the totals; the human output ends with the totals."""
    paths = _validate_paths(args.files)
    results = [(path, *_file_diagnostics(path)) for path in paths]
    entries = [_file_entry(path, diags, readable) for path, diags, readable in results]
    totals = _totals(entries)
    code = EXIT_USAGE if totals[UNREADABLE] or not entries else EXIT_INPUT_ERRORS if totals[INVALID] else EXIT_OK
    if args.json:
        print(json.dumps({"files": entries, "totals": totals}, indent=2))
        return code
    for (path, diags, _), entry in zip(results, entries, strict=True):
        status = "ok" if entry["status"] == VALID else "FAILED"
        counts = f"{entry['errors']} errors, {entry['warnings']} warnings, {entry['infos']} infos"
        print(f"{printable(path)}: {status} ({counts})")
        for diag in diags:
            if diag.severity >= args.min_severity:
                print(f"  {diag}")
    if not entries:
        print("error: no .gltf or .glb file found", file=sys.stderr)
    print(
        f"{totals['files']} files: {totals[VALID]} ok, {totals[INVALID]} failed, {totals[UNREADABLE]} unreadable; "
        f"{totals['errors']} errors, {totals['warnings']} warnings, {totals['infos']} infos"
    )
    return code


def _same_file(first: str, second: str) -> bool:
    """True when both paths exist and name the same file (any spelling, symlink or hard link)."""
    try:
        return os.path.samefile(first, second)
    except (OSError, ValueError):
        return False


def _print_problems(diags: list[Diagnostic]) -> None:
    for diag in diags:
        if diag.severity >= Severity.WARNING:
            print(f"{diag}", file=sys.stderr)


def run_migrate(args: argparse.Namespace) -> int:
    """Exit codes: 0 written without errors; 1 the input has errors (invalid physics or a missing resource: written
    without them; not a glTF object, a refused or uncopyable resource: nothing written); 2 usage or I/O: OUT is IN,
    IN unreadable, OUT unwritable."""
    from .gltf.migrate import migrate  # numpy and the whole parser: only for the commands that parse

    if _same_file(args.input, args.output):
        print(
            printable(f"error: OUT {args.output} is the same file as IN {args.input}; nothing written"),
            file=sys.stderr,
        )
        return 2
    try:
        source = load(args.input)
    except PhysicsDataError as exc:
        print(f"error: {exc}; nothing written", file=sys.stderr)
        return 2
    new_json, diags = migrate(source.json, args.to)
    if not isinstance(new_json, dict):
        _print_problems(diags)
        print(printable(f"error: {args.input} is not a glTF document; nothing written"), file=sys.stderr)
        return 1
    try:
        saved = save(source, new_json, args.output)
    except PhysicsDataError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    _print_problems(diags + saved)
    if any(d.code in BLOCKING for d in saved):
        print(printable(f"error: {args.input}: resources refused or not copied; nothing written"), file=sys.stderr)
        return 1
    problems = [d for d in diags + saved if d.severity >= Severity.WARNING]  # the lines printed above
    errors = sum(d.severity >= Severity.ERROR for d in problems)
    lost = sum(loses_physics(d.code) for d in problems)
    counted = f"{errors} error(s), {len(problems) - errors} warning(s) ({lost} of these lose physics)"
    dropped = ": invalid physics not written, missing resources not copied" if errors else ""
    summary = f"{args.input} -> {args.output} ({args.to}): {counted}{dropped}"
    print(printable(summary), file=sys.stderr)
    return 1 if errors else 0


def _severity(name: str) -> Severity:
    try:
        return Severity[name.upper()]
    except KeyError as exc:
        raise argparse.ArgumentTypeError(f"unknown severity {name!r}") from exc


def add_validate(subparsers) -> None:
    parser = subparsers.add_parser(
        "validate",
        help="check the physics of glTF files",
        description="Validate the physics extensions (KHR and OMI, every revision) of .gltf/.glb files. "
        "Exit code 0 no errors, 1 a file has errors (or is not a glTF object), 2 usage error or a file is "
        "unreadable (missing, not JSON, nested deeper than 400 levels, an integer over 4,300 digits).",
    )
    parser.add_argument("files", nargs="+", metavar="FILE", help=".gltf or .glb files, or folders (walked)")
    parser.add_argument(
        "--json",
        action="store_true",
        help='print {"files": [{file, status, errors, warnings, infos, diagnostics: [{severity, code, pointer, '
        'message}]}], "totals": {...}}: every file, clean ones too',
    )
    parser.add_argument(
        "--min-severity",
        type=_severity,
        default=Severity.INFO,
        help="human output: hide diagnostics below this severity (info, hint, warning, error)",
    )
    parser.set_defaults(func=run_validate)


def add_migrate(subparsers) -> None:
    parser = subparsers.add_parser(
        "migrate",
        help="convert physics to another revision",
        description="Rewrite the physics extensions of IN as revision --to and save OUT in the same container "
        "type (.gltf with its resources, or .glb). Non-physics content is kept; lossy conversions "
        "are reported on stderr. Resources must be regular files inside IN's folder, else nothing is written. "
        "Exit code 0 clean, 1 the input has errors, 2 usage or I/O error (OUT is IN, IN unreadable).",
    )
    parser.add_argument("input", metavar="IN", help="source .gltf or .glb")
    parser.add_argument("output", metavar="OUT", help="destination file")
    parser.add_argument(
        "--to",
        required=True,
        choices=TARGETS,
        help="target: KHR 2026 (geometry.mesh), 2024-10 (geometry.node), 2024-07 (KHR_collision_shapes) or current OMI",
    )
    parser.set_defaults(func=run_migrate)


def build_parser(argv: list[str] | None = None) -> argparse.ArgumentParser:
    """The parser for ``argv``: every subcommand, except the ``MODULES`` ones ``argv`` does not name when it names
    a command (``None``: all of them)."""
    parser = argparse.ArgumentParser(prog="gltf-physics", description="glTF physics tools (KHR and OMI).")
    subparsers = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    add_validate(subparsers)
    add_migrate(subparsers)
    named = _named_command(argv)
    for name, add in MODULES.items():
        if named is None or named == name:
            add(subparsers)
    for adder in SUBCOMMANDS:
        adder(subparsers)
    version = f"gltf-physics {extension_version()}"
    parser.add_argument("--version", action="version", version=version)
    for command in subparsers.choices.values():  # every subcommand says it too (``convert --version``)
        command.add_argument("--version", action="version", version=version)
    return parser


def extension_version() -> str:
    """The extension's version, read from ``blender_manifest.toml`` (the one version source, shipped in the zip)."""
    import tomllib

    manifest = pathlib.Path(__file__).resolve().parent.parent / "blender_manifest.toml"
    try:
        with manifest.open("rb") as handle:
            return str(tomllib.load(handle)["version"])
    except (OSError, KeyError, tomllib.TOMLDecodeError):
        return "unknown (blender_manifest.toml not readable)"


def _named_command(argv: list[str] | None) -> str | None:
    """The known command ``argv`` starts with (the top-level parser has no options but ``-h``); None otherwise."""
    first = next((a for a in argv if not a.startswith("-")), None) if argv is not None else None
    known = {"validate", "migrate", *MODULES}
    return first if first in known and not (argv and argv[0] in ("-h", "--help")) else None


def main(argv: list[str] | None = None) -> int:
    """Run one subcommand; argparse exits with 2 on a usage error."""
    safe_streams()
    argv = sys.argv[1:] if argv is None else list(argv)
    args = build_parser(argv).parse_args(argv)
    return args.func(args)
