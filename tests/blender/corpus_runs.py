"""Each data file imported once per session and variant (issue 32: "tests that test each rule once").

The corpus and fixture sweeps of several test modules assert different rules on the same import. Instead of each
importing the file again, a module registers an *inspector* for a variant at import time (collection, before any
test runs)::

    @corpus_runs.inspector("reproduce", "counts")
    def _counts(addon, path, run):  # runs on the live scene right after the import
        return {...}                # or raises: the assertion failure is kept for the test

and its test asks for the outcome: ``corpus_runs.run(addon, path, "reproduce", gltf_errors).value("counts")``
returns what the inspector returned, or raises what it raised (an assertion, a skip) with its traceback; an
inspector during which io_scene_gltf2 logged an error fails as the autouse ``gltf_errors`` guard would have.

The first test to ask for a (variant, file) imports it into an empty scene and runs every inspector registered for
that variant and file, read-only ones first (``order``), ones that export later, a mutating one (a simulation)
last. The record keeps what the import itself left: its result, io_scene_gltf2's error log (``gltf_errors``, which
the import test compares with the file's expectation) and our run report. What the inspectors write (exports) lives
in a session folder that stays until the session ends (the Khronos validator reads it then).

Variants (what truly differs between imports): ``reproduce`` (the default import, Reproduce Motion on),
``mapping`` (Reproduce Motion off: the plain mapping); ``named`` (a copy of the file whose nodes all have unique
names, Reproduce Motion on: matched with its exports by name).
"""

from __future__ import annotations

import dataclasses
import json
import logging
import pathlib
import tempfile
import traceback

import bpy

import devkit
from blenderkit import ErrorRecords, empty_scene, submodule
from testkit import CORPUS

ERRORS = pathlib.Path(__file__).parent / "importer" / "expected_gltf_errors.json"

_OUT = pathlib.Path(tempfile.mkdtemp(prefix="gltf_physics_runs_"))
_INSPECTORS: dict[str, list[tuple[int, str, object, object]]] = {}
_RUNS: dict[tuple[str, pathlib.Path], Run] = {}
VARIANTS = ("reproduce", "mapping", "named")


def inspector(variant: str, name: str, order: int = 0, files=None):
    """Register ``fn(addon, path, run)`` for ``variant`` (for ``files`` only when given: a collection of paths)."""
    assert variant in VARIANTS, variant

    def register(fn):
        assert all(n != name for _, n, _, _ in _INSPECTORS.get(variant, [])), f"{variant}/{name} registered twice"
        wanted = None if files is None else {pathlib.Path(p) for p in files}
        _INSPECTORS.setdefault(variant, []).append((order, name, fn, wanted))
        return fn

    return register


@dataclasses.dataclass
class Run:
    path: pathlib.Path  # the file asked for (for ``named``, the original)
    variant: str
    imported: pathlib.Path  # the file imported (``named``: the renamed copy)
    result: str  # "FINISHED", or "REFUSED: <first line of io_scene_gltf2's error>"
    gltf_errors: list[str]  # io_scene_gltf2's error log during the import
    report: object  # our import run report (``io.hooks.last_report("import")``), None when there was none
    out: pathlib.Path  # a folder of this run's own for the inspectors' files
    extra: dict = dataclasses.field(default_factory=dict)  # what the variant's set-up returned (``named``: the JSON)
    _values: dict = dataclasses.field(default_factory=dict)
    _failures: dict = dataclasses.field(default_factory=dict)

    def value(self, name: str):
        """What inspector ``name`` returned; re-raises what it raised."""
        if name in self._failures:
            raise self._failures[name]
        assert name in self._values, f"no inspector {name!r} ran for {self.variant}/{self.path.name}"
        return self._values[name]


def named_copy(addon, path: pathlib.Path, out: pathlib.Path) -> tuple[pathlib.Path, dict]:
    """A copy of ``path`` whose nodes all have unique names (Blender names unnamed nodes after their meshes), so
    that exported nodes can be matched with the source by name. Renaming nodes is not physics."""
    gltf_file = submodule(addon, "io.gltf.files")
    loaded = gltf_file.load(path)
    for i, node in enumerate(loaded.json.get("nodes", [])):
        name = node.get("name") if isinstance(node.get("name"), str) else "node"
        node["name"] = f"{name[:40]}_{i}"
    copy = out / "source" / path.name
    gltf_file.save(loaded, loaded.json, copy)
    return copy, loaded.json


def run(addon, path: pathlib.Path, variant: str, gltf_errors: list | None = None) -> Run:
    """The record of ``path`` imported in ``variant`` (imported and inspected on first use). ``gltf_errors``: the
    calling test's autouse log list; what the import and the inspectors log moves into the record."""
    key = (variant, pathlib.Path(path))
    if key not in _RUNS:
        before = len(gltf_errors) if gltf_errors is not None else 0
        try:
            _RUNS[key] = _import(addon, pathlib.Path(path), variant)
        finally:
            if gltf_errors is not None:
                del gltf_errors[before:]
    return _RUNS[key]


def _import(addon, path: pathlib.Path, variant: str) -> Run:
    assert variant in VARIANTS, variant
    out = _OUT / f"{len(_RUNS):04d}_{variant}_{path.stem[:40]}"
    out.mkdir(parents=True)
    empty_scene()
    addon = devkit.enable()
    hooks = submodule(addon, "io.hooks")
    hooks.LAST_REPORTS.clear()
    extra: dict = {}
    imported = path
    if variant == "named":
        imported, extra["source"] = named_copy(addon, path, out)
    bpy.context.scene.gltf_physics.import_reproduce = variant != "mapping"
    logger = logging.getLogger("glTFImporter_errors")
    handler = ErrorRecords()
    logger.addHandler(handler)
    try:
        try:
            result = sorted(bpy.ops.import_scene.gltf(filepath=str(imported)))[0]
        except RuntimeError as exc:  # the glTF add-on itself refuses the file (not physics)
            result = f"REFUSED: {str(exc).splitlines()[0][:120]}"
        if result == "FINISHED":
            bpy.context.view_layer.update()
        record = Run(path, variant, imported, result, list(handler.records), hooks.last_report("import"), out, extra)
        wanted = [i for i in _INSPECTORS.get(variant, []) if i[3] is None or path in i[3]]
        for _, name, fn, _ in sorted(wanted, key=lambda i: i[0]):
            handler.records.clear()
            try:
                record._values[name] = fn(addon, path, record)
            except BaseException as exc:
                if isinstance(exc, KeyboardInterrupt):
                    raise
                record._failures[name] = exc
            if handler.records and name not in record._failures:
                record._failures[name] = AssertionError(
                    f"io_scene_gltf2 logged errors during {name}: " + " | ".join(handler.records)
                )
    finally:
        logger.removeHandler(handler)
    return record


def logged_errors(run: Run) -> list[str]:
    """io_scene_gltf2's error log of ``run``'s import, its file's folder written as the original's (``named``) and
    corpus paths as ``<corpus>``."""
    messages = [m.replace(str(run.imported.parent), str(run.path.parent)) for m in run.gltf_errors]
    return [m.replace(str(CORPUS), "<corpus>") for m in messages]


def expected_errors() -> dict[str, list[str]]:
    """``importer/expected_gltf_errors.json``: io_scene_gltf2's error log per corpus file that has one."""
    return json.loads(ERRORS.read_text()) if ERRORS.is_file() else {}


def format_failure(exc: BaseException) -> str:
    return "".join(traceback.format_exception(exc))
