"""The file's JSON and our model of it are let go when the build ends, not when io_scene_gltf2 drops its hook
objects after the whole import: io_scene_gltf2 keeps them in reference cycles that only a later full collector pass
frees, so whatever our run still held would stay live through the rest of the import and that pass."""

from __future__ import annotations

import gc

import bpy

from blenderkit import submodule
from testkit import FIXTURES


def _alive(cls) -> int:
    return sum(1 for o in gc.get_objects() if type(o) is cls)


def test_no_model_object_outlives_the_build(clean):
    model = submodule(clean, "io.gltf.model")
    gc.collect()
    assert _alive(model.NodePhysics) == 0
    gc.disable()  # nothing collected during the import: what is alive after it is what something still holds
    try:
        assert bpy.ops.import_scene.gltf(filepath=str(FIXTURES / "joints" / "motor_linear_x.gltf")) == {"FINISHED"}
        report = submodule(clean, "io.hooks").last_report("import")
        assert report.counts.get("bodies", 0) >= 1, report.counts  # the physics was read and built
        assert _alive(model.NodePhysics) == 0
        assert _alive(model.PhysicsDocument) == 0
    finally:
        gc.enable()
    assert bpy.context.scene.rigidbody_world is not None
