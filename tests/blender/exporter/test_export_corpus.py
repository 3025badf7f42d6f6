"""Every corpus asset (all families and revisions) imports and exports as KHR 2026 and OMI without an internal
error, and the exported physics parses without an ERROR (writer losses are WARNINGs, see docs/model.md).

The exports are made from the session's one import of the asset (``corpus_runs``, variant ``reproduce``), whose
io_scene_gltf2 error log ``test_import_corpus`` compares with the asset's expectation."""

from __future__ import annotations

import pathlib

import corpus_runs
import pytest

from blenderkit import submodule
from export_helpers import export, last_export
from testkit import corpus_files, corpus_id

FILES = corpus_files()
BROKEN = ("GLTF_PHYSICS_INTERNAL_ERROR", "GLTF_PHYSICS_EXPORT_FAILED")


def _id(path) -> str:
    """``corpus_id``, also for the placeholder pytest passes when the corpus is absent (empty parameter list)."""
    return corpus_id(path) if isinstance(path, pathlib.Path) else "no-corpus"


@corpus_runs.inspector("reproduce", "exports_valid_physics", order=10, files=FILES)
def _exports_valid_physics(addon, path, run):
    if run.result != "FINISHED":  # not ours: io_scene_gltf2 refuses some third-party files (test_import_corpus)
        pytest.skip(f"io_scene_gltf2 cannot import it: {run.result}")
    parse = submodule(addon, "io.gltf.parse")
    for revision in ("2026", "omi"):
        out = export(run.out / f"{revision}.gltf", revision)
        report = last_export(addon)
        assert not [str(d) for d in report.diagnostics if d.code in BROKEN]
        errors = [str(d) for d in parse.parse_gltf(out).diagnostics if d.severity.name == "ERROR"]
        assert not errors, errors


@pytest.mark.parametrize("path", FILES, ids=_id)
def test_corpus_asset_exports_valid_physics(addon, gltf_errors, path):
    corpus_runs.run(addon, path, "reproduce", gltf_errors).value("exports_valid_physics")
