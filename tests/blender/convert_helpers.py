"""Shared by the ``convert`` tests: run the command in a subprocess (this interpreter, so the workers use this
tier's bpy), read its report, and copy a small fixture library."""

from __future__ import annotations

import json
import pathlib
import shutil
import subprocess

from blenderkit import cli_command
from testkit import FIXTURES

LIBRARY = {  # fixture → path inside the library (a sub-folder checks the mirrored tree)
    "import/rev_2026.gltf": "rev_2026.gltf",
    "joints/hinge_x.gltf": "joints/hinge_x.gltf",
    "import/triggers.gltf": "joints/deeper/triggers.gltf",
    "basic_body.gltf": "basic_body.gltf",
}
BROKEN = '{"asset": {"version": "2.0"}, "nodes": ['


def library(root: pathlib.Path, broken: bool = False) -> pathlib.Path:
    for source, name in LIBRARY.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(FIXTURES / source, root / name)
    if broken:
        (root / "joints" / "broken.gltf").write_text(BROKEN)
    return root


def convert(*args: object, timeout: float = 300, **popen) -> subprocess.CompletedProcess:
    command = cli_command("convert", *args)
    return subprocess.run(command, capture_output=True, text=True, timeout=timeout, check=False, **popen)


STATE = ".gltf-physics-convert"  # the run's state folder in OUT (io/convert/state.py): its lock and stamps


def leftovers(out: pathlib.Path) -> list[pathlib.Path]:
    """Hidden files and folders under ``out`` other than the run's state folder: temporary files left behind."""
    return [p for p in out.rglob(".*") if STATE not in p.relative_to(out).parts]


def written(out: pathlib.Path) -> list[str]:
    """The visible files under ``out`` (paths relative to it, sorted): the outputs, not the hidden temporary files or
    the run's state (``leftovers``)."""
    files = [p.relative_to(out) for p in out.rglob("*") if p.is_file()]
    return sorted(p.as_posix() for p in files if not any(part.startswith(".") for part in p.parts))


def report(path: pathlib.Path) -> dict[str, dict]:
    """The report's files by name (output path relative to OUT)."""
    return {f["name"]: f for f in json.loads(path.read_text())["files"]}
