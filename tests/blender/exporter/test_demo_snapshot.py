"""Import → export of examples/demo_scene.gltf (what `make demo` does) writes exactly the physics JSON recorded in
tests/fixtures/demo_physics_export.json: nodes, root extensions and extension lists, compared byte for byte after
sorting keys. Refactors must keep it; a change on purpose regenerates it with GLTF_PHYSICS_REGEN_DEMO=1."""

from __future__ import annotations

import json
import os

import bpy

from export_helpers import export
from testkit import FIXTURES, ROOT

SNAPSHOT = FIXTURES / "demo_physics_export.json"
KEYS = ("nodes", "extensions", "extensionsUsed", "extensionsRequired")


def physics_part(gltf: dict) -> str:
    return json.dumps({k: gltf[k] for k in KEYS if k in gltf}, indent=1, sort_keys=True)


def test_demo_import_export_matches_the_snapshot(clean, tmp_path):
    bpy.ops.import_scene.gltf(filepath=str(ROOT / "examples" / "demo_scene.gltf"))
    written = physics_part(export(tmp_path / "demo.gltf", "2026"))
    if os.environ.get("GLTF_PHYSICS_REGEN_DEMO"):
        SNAPSHOT.write_text(written)
    assert written == physics_part(json.loads(SNAPSHOT.read_text()))
    assert '"KHR_physics_rigid_bodies"' in written
