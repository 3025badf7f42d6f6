"""Command line of the extension (``bin/gltf-physics``): bpy-free subcommands ``validate`` and ``migrate``.

Adding a subcommand: write ``add_subcommand(subparsers)`` in your module; it must create its parser with
``subparsers.add_parser(name, help=...)`` and ``set_defaults(func=run)`` where ``run(args) -> int`` is the exit code.
Then add it to ``SUBCOMMANDS`` below (bpy-free modules only, imported at module level: a broken import fails
loudly) or call ``register`` with the function.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable

from ..sim import joint_report
from .check import driver as check_driver
from .convert import driver as convert_driver
from .diagnostics import Diagnostic, PhysicsDataError, Severity, printable, safe_streams
from .gltf.files import load, save
from .gltf.migrate import TARGETS, migrate
from .gltf.parse import parse_gltf
from .gltf.safe_files import BLOCKING
from .gltf.validate.codes import INTERNAL_ERROR

#: Exit codes of every subcommand: the run is clean; the input has errors; usage error or unreadable input.
EXIT_OK, EXIT_INPUT_ERRORS, EXIT_USAGE = 0, 1, 2

SUBCOMMANDS: list[Callable[[argparse._SubParsersAction], None]] = [
    joint_report.add_subcommand,
    convert_driver.add_subcommand,
    check_driver.add_subcommand,
]


def register(add_subcommand: Callable[[argparse._SubParsersAction], None]) -> None:
    """Register a subcommand adder (called when the parser is built)."""
    SUBCOMMANDS.append(add_subcommand)


def _file_diagnostics(path: str) -> tuple[list[Diagnostic], bool]:
    """The diagnostics of one file and whether it could be read at all; never raises, so one bad file never
    stops the report of the others."""
    try:
        document = load(path).json
    except PhysicsDataError as exc:
        return [exc.diagnostic], False
    try:
        return parse_gltf(document).diagnostics, True
    except Exception as exc:  # a bug of ours on this input: reported for this file, the run goes on
        return [Diagnostic(Severity.ERROR, INTERNAL_ERROR, "", f"{type(exc).__name__}: {exc}")], True


def run_validate(args: argparse.Namespace) -> int:
    """Exit codes: 0 no errors; 1 a file has physics errors or is not a glTF object; 2 a file is unreadable
    (missing, not JSON, beyond the JSON limits)."""
    results = [(path, *_file_diagnostics(path)) for path in args.files]
    failed = any(d.severity >= Severity.ERROR for _, diags, _ in results for d in diags)
    code = EXIT_USAGE if not all(readable for *_, readable in results) else EXIT_INPUT_ERRORS if failed else EXIT_OK
    if args.json:
        rows = [{"file": path, **d.to_dict()} for path, diags, _ in results for d in diags]
        print(json.dumps(rows, indent=2))
        return code
    for path, diags, _ in results:
        errors = sum(d.severity >= Severity.ERROR for d in diags)
        warnings = sum(d.severity == Severity.WARNING for d in diags)
        status = "FAILED" if errors else "ok"
        infos = len(diags) - errors - warnings
        print(f"{printable(path)}: {status} ({errors} errors, {warnings} warnings, {infos} infos)")
        for diag in diags:
            if diag.severity >= args.min_severity:
                print(f"  {diag}")
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
    lossy = sum(d.code == "PHYSICS_WRITE_LOSSY" for d in diags)
    errors = sum(d.severity >= Severity.ERROR for d in diags + saved)
    dropped = f", {errors} error(s): invalid physics not written, missing resources not copied" if errors else ""
    summary = f"{args.input} -> {args.output} ({args.to}): {lossy} lossy conversion(s){dropped}"
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
    parser.add_argument("files", nargs="+", metavar="FILE", help=".gltf or .glb files")
    parser.add_argument(
        "--json", action="store_true", help="print a JSON list of {file, severity, code, pointer, message}"
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


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="gltf-physics", description="glTF physics tools (KHR and OMI).")
    subparsers = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for adder in (add_validate, add_migrate, *SUBCOMMANDS):
        adder(subparsers)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run one subcommand; argparse exits with 2 on a usage error."""
    safe_streams()
    args = build_parser().parse_args(argv)
    return args.func(args)
