"""Values a 32-bit float cannot hold: imported with a diagnostic, and the scene still exports (issue 11 item 7)."""

from __future__ import annotations

import json
import math

import bpy
import pytest

from blenderkit import submodule
from export_helpers import export, last_export
from testkit import fixture, read_json

FLOAT32_MAX = 3.4028234663852886e38
MASS = "/nodes/0/extensions/KHR_physics_rigid_bodies/motion/mass"


@pytest.mark.parametrize("revision", ["2026", "omi"])
def test_mass_beyond_float32_imports_with_a_diagnostic_and_exports_finite(clean, tmp_path, revision):
    gltf = read_json(fixture("basic_body_required.gltf"))
    gltf["nodes"][0]["extensions"]["KHR_physics_rigid_bodies"]["motion"]["mass"] = 1e39
    path = tmp_path / "huge_mass.gltf"
    path.write_text(json.dumps(gltf))
    assert bpy.ops.import_scene.gltf(filepath=str(path)) == {"FINISHED"}
    report = submodule(clean, "io.hooks").last_report("import")
    assert any(d.pointer == MASS for d in report.diagnostics), [str(d) for d in report.diagnostics]
    rb = bpy.data.objects["Box"].rigid_body
    assert rb is not None and math.isfinite(rb.mass) and rb.mass <= FLOAT32_MAX

    out = export(tmp_path / "exported.gltf", revision)  # raised OverflowError inside the glTF exporter
    ext = "OMI_physics_body" if revision == "omi" else "KHR_physics_rigid_bodies"
    motion = out["nodes"][0]["extensions"][ext]["motion"]
    mass = motion.get("mass")
    assert mass is None or (math.isfinite(mass) and abs(mass) <= FLOAT32_MAX), motion
    assert not [d for d in last_export(clean).diagnostics if d.severity.name == "ERROR"]
