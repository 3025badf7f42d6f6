"""The physics parse reads the JSON dict io_scene_gltf2 parsed for the import (``importer/parsed_json.py``), not the
file a second time; unregistering gives io_scene_gltf2 its loader back."""

from __future__ import annotations

import json

import bpy
import pytest
from io_scene_gltf2.io.imp import gltf2_io_gltf

from blenderkit import submodule
from testkit import FIXTURES


class _CountingJson:
    """``json`` as io_scene_gltf2's loader module sees it, counting ``loads``."""

    def __init__(self):
        self.calls = 0

    def loads(self, *args, **kwargs):
        self.calls += 1
        return json.loads(*args, **kwargs)


@pytest.mark.parametrize("form", ["gltf", "glb"])
def test_the_file_is_decoded_once_per_import(clean, tmp_path, monkeypatch, form):
    path = FIXTURES / "import" / "replaced.gltf"
    if form == "glb":  # the same document as a .glb (Blender's own export of the imported scene)
        assert bpy.ops.import_scene.gltf(filepath=str(path)) == {"FINISHED"}
        path = tmp_path / "replaced.glb"
        assert bpy.ops.export_scene.gltf(filepath=str(path), export_format="GLB") == {"FINISHED"}
        bpy.ops.wm.read_homefile(use_factory_startup=True, use_empty=True)
    counting = _CountingJson()
    monkeypatch.setattr(gltf2_io_gltf, "json", counting)
    assert bpy.ops.import_scene.gltf(filepath=str(path)) == {"FINISHED"}
    report = submodule(clean, "io.hooks").last_report("import")
    assert counting.calls == 1
    assert report.counts["rigid_bodies"] == 3 and report.counts["joints"] == 1
    assert not submodule(clean, "io.importer.parsed_json")._KEPT  # nothing kept past the import


def test_a_kept_parse_of_another_document_is_not_used(clean, monkeypatch):
    """A leftover dict (an import that failed before our hooks) that does not list the file's nodes is ignored."""
    kept = submodule(clean, "io.importer.parsed_json")._KEPT
    real = gltf2_io_gltf.glTFImporter.load_json

    def stale_then_real(content):
        document = real(content)
        kept[:] = [{"nodes": [{}] * 99}]
        return document

    monkeypatch.setattr(gltf2_io_gltf.glTFImporter, "load_json", staticmethod(stale_then_real))
    assert bpy.ops.import_scene.gltf(filepath=str(FIXTURES / "import" / "replaced.gltf")) == {"FINISHED"}
    assert submodule(clean, "io.hooks").last_report("import").counts["rigid_bodies"] == 3


def test_release_gives_io_scene_gltf2_its_loader_back(clean):
    parsed = submodule(clean, "io.importer.parsed_json")
    importer = gltf2_io_gltf.glTFImporter
    parsed.keep(importer)
    parsed.keep(importer)  # idempotent: wrapped once
    wrapped = importer.__dict__["load_json"].__func__
    assert not hasattr(wrapped.gltf_physics_original.__func__, "gltf_physics_original")
    submodule(clean, "io.hooks").release_parsed_json()  # what unregistering does
    assert not hasattr(importer.__dict__["load_json"].__func__, "gltf_physics_original")
    assert importer.load_json(b'{"asset": {"version": "2.0"}}') == {"asset": {"version": "2.0"}}
    assert not parsed._KEPT
    parsed.keep(importer)  # as the next import would
