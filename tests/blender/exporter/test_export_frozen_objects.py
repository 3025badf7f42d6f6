"""A physics export on 4.5+ (where ``post_export_hook`` exists) hides the objects alive after our extensions hook
from Python's cyclic collector while io_scene_gltf2 turns its plan into JSON and writes the file, and gives them back
in ``post_export_hook`` (``importer/frozen_objects.py``). On 4.2 nothing is frozen."""

from __future__ import annotations

import gc
import json

import bpy
import pytest

from blenderkit import submodule
from testkit import FIXTURES


@pytest.mark.parametrize("form", ["GLTF_SEPARATE", "GLB"])
def test_frozen_while_the_file_is_written_and_thawed_after(clean, monkeypatch, tmp_path, form):
    assert bpy.ops.import_scene.gltf(filepath=str(FIXTURES / "import" / "replaced.gltf")) == {"FINISHED"}
    frozen = submodule(clean, "io.importer.frozen_objects")
    hooks = submodule(clean, "io.hooks")
    seen = []
    post = hooks.GltfPhysicsExport.post_export_hook

    def watched(self, export_settings):
        seen.append((frozen.is_frozen(), gc.get_freeze_count() > 0))
        return post(self, export_settings)

    monkeypatch.setattr(hooks.GltfPhysicsExport, "post_export_hook", watched)
    path = tmp_path / ("out.glb" if form == "GLB" else "out.gltf")
    assert bpy.ops.export_scene.gltf(filepath=str(path), export_format=form) == {"FINISHED"}
    assert not frozen.is_frozen() and gc.get_freeze_count() == 0  # nothing stays frozen after the export
    if bpy.app.version < (4, 5, 0):
        assert seen == []  # no post_export_hook: nothing was frozen
        return
    assert seen == [(True, True)]
    if form == "GLTF_SEPARATE":  # the physics JSON was still added after the file was written
        written = json.loads(path.read_text(encoding="utf-8"))
        assert "KHR_physics_rigid_bodies" in written["extensionsUsed"]


def test_an_export_after_another_freeze_freezes_nothing(clean, monkeypatch, tmp_path):
    assert bpy.ops.import_scene.gltf(filepath=str(FIXTURES / "import" / "replaced.gltf")) == {"FINISHED"}
    frozen = submodule(clean, "io.importer.frozen_objects")
    calls = []
    freeze = frozen.freeze

    def watched():
        freeze()
        calls.append(frozen.is_frozen())

    monkeypatch.setattr(frozen, "freeze", watched)
    gc.freeze()  # another add-on's freeze
    try:
        assert bpy.ops.export_scene.gltf(filepath=str(tmp_path / "out.gltf")) == {"FINISHED"}
        assert not any(calls) and gc.get_freeze_count() > 0  # asked, nothing frozen by us; theirs left alone
    finally:
        gc.unfreeze()
    if bpy.app.version >= (4, 5, 0):
        assert calls  # the export did ask


def test_frozen_while_the_nodes_are_gathered(clean, monkeypatch, tmp_path):
    """From the first export hook (the tree filter) on 4.5+: io_scene_gltf2 gathers every node with the session
    frozen (full collector passes there walk the whole session); thawed after the file is written."""
    assert bpy.ops.import_scene.gltf(filepath=str(FIXTURES / "import" / "replaced.gltf")) == {"FINISHED"}
    frozen = submodule(clean, "io.importer.frozen_objects")
    hooks = submodule(clean, "io.hooks")
    seen = []
    node_hook = hooks.GltfPhysicsExport.gather_node_hook

    def watched(self, gltf2_node, blender_object, export_settings):
        seen.append(frozen.is_frozen())
        return node_hook(self, gltf2_node, blender_object, export_settings)

    monkeypatch.setattr(hooks.GltfPhysicsExport, "gather_node_hook", watched)
    assert bpy.ops.export_scene.gltf(filepath=str(tmp_path / "out.glb"), export_format="GLB") == {"FINISHED"}
    assert seen and all(seen) == (bpy.app.version >= (4, 5, 0))
    assert not frozen.is_frozen() and gc.get_freeze_count() == 0
