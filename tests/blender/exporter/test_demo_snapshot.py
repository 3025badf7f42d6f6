"""Import → export of examples/demo_scene.gltf (what `make demo` does) writes exactly the physics JSON recorded in
tests/fixtures/demo_physics_export.json: nodes, root extensions and extension lists, compared byte for byte after
sorting keys. Refactors must keep it; a change on purpose regenerates it with GLTF_PHYSICS_REGEN_DEMO=1 (on 5.3 and
on 4.5). io_scene_gltf2 5.2+ sorts sibling nodes by name (``gltf_addon.sibling_sort_key``), so its
nodes, and the shapes and materials numbered as they are met, come in another order: its own snapshot, the same
physics once re-ordered (``test_the_two_snapshots_hold_the_same_physics``)."""

from __future__ import annotations

import json
import os

import bpy

from blenderkit import submodule
from export_helpers import canonical, export
from testkit import FIXTURES, ROOT

SNAPSHOTS = {False: FIXTURES / "demo_physics_export.json", True: FIXTURES / "demo_physics_export.sorted_siblings.json"}
KEYS = ("nodes", "extensions", "extensionsUsed", "extensionsRequired")


def physics_part(gltf: dict) -> str:
    return json.dumps({k: gltf[k] for k in KEYS if k in gltf}, indent=1, sort_keys=True)


def test_demo_import_export_matches_the_snapshot(addon, clean, tmp_path):
    snapshot = SNAPSHOTS[submodule(addon, "io.gltf_addon").sibling_sort_key() is not None]
    bpy.ops.import_scene.gltf(filepath=str(ROOT / "examples" / "demo_scene.gltf"))
    written = physics_part(export(tmp_path / "demo.gltf", "2026"))
    if os.environ.get("GLTF_PHYSICS_REGEN_DEMO"):
        snapshot.write_text(written)
    assert written == physics_part(json.loads(snapshot.read_text()))
    assert '"KHR_physics_rigid_bodies"' in written


def test_the_two_snapshots_hold_the_same_physics(addon):
    parse = submodule(addon, "io.gltf.parse").parse_gltf
    blender_order, name_order = (json.loads(path.read_text()) for path in SNAPSHOTS.values())
    assert sorted(n["name"] for n in blender_order["nodes"]) == sorted(n["name"] for n in name_order["nodes"])
    assert canonical(parse(blender_order).document, blender_order) == canonical(parse(name_order).document, name_order)
