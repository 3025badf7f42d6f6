"""Every corpus asset (all families and revisions) imports and exports as KHR 2026 and OMI without an internal
error, and the exported physics parses without an ERROR (writer losses are WARNINGs, see docs/model.md)."""

from __future__ import annotations

import pathlib

import bpy
import pytest

from blenderkit import submodule
from export_helpers import export, last_export
from testkit import corpus_files, corpus_id

FILES = corpus_files()
BROKEN = ("GLTF_PHYSICS_INTERNAL_ERROR", "GLTF_PHYSICS_EXPORT_FAILED")


def _id(path) -> str:
    """``corpus_id``, also for the placeholder pytest passes when the corpus is absent (empty parameter list)."""
    return corpus_id(path) if isinstance(path, pathlib.Path) else "no-corpus"


@pytest.mark.parametrize("path", FILES, ids=_id)
def test_corpus_asset_exports_valid_physics(clean, gltf_errors, tmp_path, path):
    try:
        bpy.ops.import_scene.gltf(filepath=str(path))
    except RuntimeError as exc:  # not ours: io_scene_gltf2 refuses some third-party files (test_import_corpus)
        pytest.skip(f"io_scene_gltf2 cannot import it: {exc}")
    gltf_errors.clear()  # missing textures etc. of third-party assets are io_scene_gltf2's business
    parse = submodule(clean, "io.gltf.parse")
    for revision in ("2026", "omi"):
        out = export(tmp_path / f"{revision}.gltf", revision)
        report = last_export(clean)
        assert not [str(d) for d in report.diagnostics if d.code in BROKEN]
        errors = [str(d) for d in parse.parse_gltf(out).diagnostics if d.severity.name == "ERROR"]
        assert not errors, errors
