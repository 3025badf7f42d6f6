"""Helpers the Blender-tier tests import (``conftest.py`` only holds fixtures and hooks)."""

from __future__ import annotations

import importlib
import logging
import subprocess
import sys
from types import ModuleType

from testkit import ROOT


def empty_scene() -> None:
    """An empty scene, as the ``clean`` fixture makes it: ``convert``'s reset between two files
    (``io/convert/scene_reset.wipe``: a fresh scene, every other data-block but the user interface removed; under
    1 ms against ``read_homefile``'s 7–14 ms, ``tests/bench/bench_scene_reset.py``). After a ``.blend`` was opened
    or saved (the main file has a path: its user interface and libraries are that file's), a full
    ``read_homefile``. The extension is enabled first (its reset is the one tested)."""
    import bpy

    import devkit

    reset = submodule(devkit.enable(), "io.convert.scene_reset")
    if bpy.data.filepath or not reset.wipe(bpy):
        bpy.ops.wm.read_homefile(use_factory_startup=True, use_empty=True)


def cli_command(subcommand: str, *args: object) -> list[str]:
    """``bin/gltf-physics SUBCOMMAND ARGS`` run by this tier's Python (so its Blender workers use this bpy)."""
    return [sys.executable, "-P", str(ROOT / "bin" / "launch.py"), subcommand, *map(str, args)]


def run_together(commands: list[list[str]], timeout: float = 300) -> list[subprocess.CompletedProcess]:
    """Start every command at once (each runs its own Blender worker, mostly ``import bpy``: two at once use both
    cores), then wait for each; their results in order, output as text."""
    started = [subprocess.Popen(c, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for c in commands]
    done = []
    for run in started:
        stdout, stderr = run.communicate(timeout=timeout)
        done.append(subprocess.CompletedProcess(run.args, run.returncode, stdout, stderr))
    return done


def submodule(addon: ModuleType, path: str) -> ModuleType:
    """``submodule(addon, "io.hooks")`` imports ``bl_ext.user_default.gltf_physics.io.hooks``."""
    return importlib.import_module(f"{addon.__name__}.{path}")


def rna_values(data) -> dict:
    """Every RNA property of a property group, nested groups and collections included (objects by name)."""
    out = {}
    for prop in data.bl_rna.properties:
        name = prop.identifier
        if name == "rna_type":
            continue
        value = getattr(data, name)
        if prop.type == "POINTER" and prop.fixed_type.identifier == "Object":
            out[name] = getattr(value, "name", None)
        elif prop.type == "POINTER":
            out[name] = rna_values(value)
        elif prop.type == "COLLECTION":
            out[name] = [rna_values(item) for item in value]
        elif getattr(prop, "is_array", False):
            out[name] = tuple(value)
        else:
            out[name] = value
    return out


class ErrorRecords(logging.Handler):
    """A logging handler that keeps the messages of ERROR records (io_scene_gltf2's ``glTFImporter_errors``)."""

    def __init__(self):
        super().__init__(level=logging.ERROR)
        self.records: list[str] = []

    def emit(self, record):
        self.records.append(record.getMessage())
