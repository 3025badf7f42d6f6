"""*Remove Reproduction Helpers* (issue 9, item 1): after it the scene is what an import with ``import_reproduce``
off gives — the same objects, rigid-body settings, constraints, world gravity weight, no drivers, no helper
collection — and it simulates the same."""

from __future__ import annotations

import bpy
import pytest

from reproduce_kit import HELPERS, body, ground, import_file, reset, step, write


def _snapshot(frames: int = 12) -> dict:
    scene = bpy.context.scene
    rbw = scene.rigidbody_world
    out = {
        "objects": sorted(ob.name for ob in bpy.data.objects),
        "collections": sorted(c.name for c in bpy.data.collections),
        "meshes": sorted(m.name for m in bpy.data.meshes),
        "gravity": rbw.effector_weights.gravity,
        "constraints": sorted(ob.name for ob in rbw.constraints.objects) if rbw.constraints else [],
        "bodies": {
            ob.name: (ob.rigid_body.type, ob.rigid_body.kinematic, tuple(ob.delta_location))
            for ob in rbw.collection.objects
        },
        "drivers": sorted(ob.name for ob in bpy.data.objects if ob.animation_data and ob.animation_data.drivers),
    }
    step(frames)
    out["after"] = {ob.name: tuple(round(v, 4) for v in ob.matrix_world.translation) for ob in rbw.collection.objects}
    return out


def test_remove_leaves_the_scene_as_with_the_option_off(clean, tmp_path):
    nodes = [
        ground(),
        body("Spun", [0.0, 2.0, 0.0], gravityFactor=0.5, linearVelocity=[1.0, 0.0, 0.0], angularVelocity=[0, 1, 0]),
        body("Locked", [1.5, 1.0, 0.0], inertiaDiagonal=[0.0, 0.0, 0.0], gravityFactor=0.5),
    ]
    path = write(tmp_path, "mixed", nodes)
    import_file(path, reproduce=False)
    assert bpy.ops.gltf_physics.remove_reproduction_helpers.poll() is False  # nothing to remove
    off = _snapshot()
    reset()
    import_file(path)
    assert bpy.data.collections.get(HELPERS) is not None
    on = _snapshot()
    assert on["after"] != off["after"]  # the helpers change the motion ...
    bpy.context.scene.frame_set(bpy.context.scene.frame_start)
    assert bpy.ops.gltf_physics.remove_reproduction_helpers() == {"FINISHED"}
    removed = _snapshot()
    assert removed == off  # ... and without them the scene is the option-off import
    assert bpy.ops.gltf_physics.remove_reproduction_helpers.poll() is False


@pytest.mark.parametrize("saved", [False, True])
def test_the_handler_does_nothing_after_removal(clean, tmp_path, saved):
    import_file(write(tmp_path, "fly", [body("Ball", [0.0, 5.0, 0.0], linearVelocity=[2.0, 0.0, 0.0])]))
    bpy.ops.gltf_physics.remove_reproduction_helpers()
    if saved:
        blend = tmp_path / "removed.blend"
        bpy.ops.wm.save_as_mainfile(filepath=str(blend))
        bpy.ops.wm.open_mainfile(filepath=str(blend))
    step(10)
    ball = bpy.data.objects["Ball"]
    assert not ball.rigid_body.kinematic and abs(ball.matrix_world.translation.x) < 1e-4  # drops, as option off
