"""A physics import hides the objects alive after parsing from Python's cyclic collector until its last hook
(``importer/frozen_objects.py``): io_scene_gltf2's node creation then runs no full collector pass over the parsed
file. Checked here: frozen while the objects are built, thawed after the import, after an aborted import (the next
import or export, or unregistering) and never when another add-on froze objects first."""

from __future__ import annotations

import gc

import bpy
import pytest

from blenderkit import submodule
from testkit import FIXTURES

REPLACED = FIXTURES / "import" / "replaced.gltf"


@pytest.fixture
def seen(clean, monkeypatch):
    """Freeze counts seen when the physics is built (the after-nodes hook) and whether the import froze them."""
    pipeline = submodule(clean, "io.importer.pipeline")
    frozen = submodule(clean, "io.importer.frozen_objects")
    build, out = pipeline.build, []

    def watched(ctx):
        out.append((gc.get_freeze_count(), frozen.is_frozen(), gc.get_threshold()))
        return build(ctx)

    monkeypatch.setattr(pipeline, "build", watched)
    yield out
    frozen.thaw()


@pytest.fixture
def data_model_seen(clean, monkeypatch):
    """Whether the import had frozen the session when io_scene_gltf2 built its data model from the loaded JSON."""
    from io_scene_gltf2.io.imp import gltf2_io_gltf

    frozen = submodule(clean, "io.importer.frozen_objects")
    build, out = gltf2_io_gltf.gltf_from_dict, []

    def watched(data):
        out.append(frozen.is_frozen())
        return build(data)

    monkeypatch.setattr(gltf2_io_gltf, "gltf_from_dict", watched)
    yield out
    frozen.thaw()


def _scene_module():
    try:
        from io_scene_gltf2.blender.imp import scene  # 4.3+
    except ImportError:
        from io_scene_gltf2.blender.imp import gltf2_blender_scene as scene  # 4.2
    return scene


def test_frozen_while_built_thawed_after(seen, clean):
    assert gc.get_freeze_count() == 0
    before = gc.get_threshold()
    assert bpy.ops.import_scene.gltf(filepath=str(REPLACED)) == {"FINISHED"}
    assert len(seen) == 1 and seen[0][0] > 1000 and seen[0][1]
    factor = submodule(clean, "io.importer.frozen_objects").FULL_PASS_FACTOR
    assert seen[0][2] == (*before[:2], before[2] * factor)  # full passes rare while frozen
    assert gc.get_freeze_count() == 0 and not submodule(clean, "io.importer.frozen_objects").is_frozen()
    assert gc.get_threshold() == before
    assert submodule(clean, "io.hooks").last_report("import").counts["joints"] == 1


def test_nothing_frozen_with_physics_import_off(seen):
    bpy.context.scene.gltf_physics.import_physics = False
    assert bpy.ops.import_scene.gltf(filepath=str(REPLACED)) == {"FINISHED"}
    assert seen == [] and gc.get_freeze_count() == 0


def test_aborted_import_is_thawed_by_the_next_import_or_export(seen, clean, monkeypatch, tmp_path):
    frozen = submodule(clean, "io.importer.frozen_objects")
    scene = _scene_module().BlenderScene
    thresholds = gc.get_threshold()

    def broken(gltf):
        raise RuntimeError("animation import failed")

    monkeypatch.setattr(scene, "create_animations", staticmethod(broken))
    with pytest.raises(RuntimeError, match="animation import failed"):
        bpy.ops.import_scene.gltf(filepath=str(REPLACED))
    assert frozen.is_frozen() and gc.get_freeze_count() > 0  # the last hook never ran
    assert bpy.ops.export_scene.gltf(filepath=str(tmp_path / "out.glb")) == {"FINISHED"}
    assert not frozen.is_frozen() and gc.get_freeze_count() == 0

    with pytest.raises(RuntimeError, match="animation import failed"):
        bpy.ops.import_scene.gltf(filepath=str(REPLACED))
    assert frozen.is_frozen()
    submodule(clean, "io.hooks").thaw_collector()  # what unregister() calls
    assert not frozen.is_frozen() and gc.get_freeze_count() == 0 and gc.get_threshold() == thresholds


def test_another_freeze_is_left_alone(seen, clean):
    gc.freeze()
    try:
        assert bpy.ops.import_scene.gltf(filepath=str(REPLACED)) == {"FINISHED"}
        assert seen and not seen[0][1]  # not frozen by the import
        assert seen[0][2] == gc.get_threshold()  # nor its thresholds changed
        assert gc.get_freeze_count() > 0  # and not thawed by it either (frozen objects freed since do not count)
    finally:
        gc.unfreeze()


def test_frozen_from_the_loaded_json_on(data_model_seen, seen, clean):
    """A file that declares physics: frozen as soon as io_scene_gltf2 has loaded the JSON, before it builds its data
    model (a full collector pass over everything alive otherwise runs there); the objects created until the physics
    is built are frozen too."""
    assert bpy.ops.import_scene.gltf(filepath=str(REPLACED)) == {"FINISHED"}
    assert data_model_seen == [True]
    assert len(seen) == 1 and seen[0][1]
    assert gc.get_freeze_count() == 0 and not submodule(clean, "io.importer.frozen_objects").is_frozen()


def test_no_early_freeze_without_physics(data_model_seen, seen, clean, tmp_path):
    plain = tmp_path / "plain.gltf"
    plain.write_text('{"asset": {"version": "2.0"}, "nodes": [{"name": "a"}], "scenes": [{"nodes": [0]}]}')
    assert bpy.ops.import_scene.gltf(filepath=str(plain)) == {"FINISHED"}
    bpy.context.scene.gltf_physics.import_physics = False
    assert bpy.ops.import_scene.gltf(filepath=str(REPLACED)) == {"FINISHED"}
    assert data_model_seen == [False, False] and seen == [] and gc.get_freeze_count() == 0
