"""Initial velocities beyond single precision (issue 35, item 5): never a ``nan`` in a pre-roll driver.

Rule checked: ``linearVelocity`` / ``angularVelocity`` of 1e308 (finite and valid in the file, ``inf`` in Blender's
single-precision vectors, ``nan`` once rotated) is not reproduced: a ``not reproducible in Blender`` WARNING at its
pointer (beside the INFO that the stored value is clamped), no driver at all on the body (so no expression
Blender's restricted evaluation rejects), and the rest of the file imports and plays as usual."""

from __future__ import annotations

import bpy
import pytest

from blenderkit import submodule
from reproduce_kit import body, import_file, step, write


@pytest.mark.parametrize(
    ("motion", "key"),
    [
        ({"linearVelocity": [1e308, 0.0, 0.0]}, "linearVelocity"),
        ({"angularVelocity": [0.0, 1e308, 1e308]}, "angularVelocity"),
        ({"linearVelocity": [1e39, 0.0, 0.0], "isKinematic": True}, "linearVelocity"),
    ],
)
def test_velocity_beyond_single_precision_is_a_warning_and_no_nan_driver(clean, tmp_path, motion, key):
    path = write(tmp_path, "fast", [body("Ball", [0.0, 5.0, 0.0], **motion), body("Calm", [3.0, 5.0, 0.0])])
    import_file(path)
    ball = bpy.data.objects["Ball"]
    drivers = ball.animation_data.drivers if ball.animation_data else []
    assert not [fc.driver.expression for fc in drivers], "no driver holds a velocity Blender cannot store"
    for ob in bpy.data.objects:
        for fc in ob.animation_data.drivers if ob.animation_data else []:
            assert "nan" not in fc.driver.expression and "inf" not in fc.driver.expression
    report = submodule(clean, "io.hooks").last_report("import")
    at = [d for d in report.diagnostics if d.pointer.endswith(f"/motion/{key}")]
    warned = [d for d in at if d.code == "GLTF_PHYSICS_IMPORT_NOT_REPRODUCIBLE"]
    assert [d.severity.label for d in warned] == ["warning"], at
    assert "single-precision" in warned[0].message and "'Ball'" in warned[0].message
    # the stored value (for export) is clamped to float32 and said so (INFO): not a second motion problem
    assert {d.code for d in at} <= {"GLTF_PHYSICS_IMPORT_NOT_REPRODUCIBLE", "GLTF_PHYSICS_IMPORT_APPROXIMATED"}
    step(5)  # plays: the body simply starts at rest
    assert all(abs(c) < 1e6 for c in ball.matrix_world.translation)
