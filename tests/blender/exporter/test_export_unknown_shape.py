"""An unknown implicit shape type (a draft ``EXT_implicit_*`` region shape) survives import → export unchanged, with
one warning (issue 11 item 10)."""

from __future__ import annotations

import copy
import json

import bpy
import pytest

from blenderkit import submodule
from export_helpers import export

REGION = {
    "type": "EXT_implicit_region",
    "EXT_implicit_region": {"radius": 2.0, "falloff": [0.5, 1]},
    "extensions": {"EXT_implicit_region": {"mode": "inside"}},
    "extras": {"note": "kept"},
    "name": "region",
}


def _gltf() -> dict:
    geometry = {"geometry": {"shape": 0}}
    return {
        "asset": {"version": "2.0"},
        "extensionsUsed": ["KHR_physics_rigid_bodies", "KHR_implicit_shapes", "EXT_implicit_region"],
        "extensions": {"KHR_implicit_shapes": {"shapes": [copy.deepcopy(REGION)]}},
        "scenes": [{"nodes": [0, 1]}],
        "scene": 0,
        "nodes": [
            {
                "name": "Body",
                "extensions": {"KHR_physics_rigid_bodies": {"motion": {"mass": 2.0}, "collider": geometry}},
            },
            {"name": "Zone", "extensions": {"KHR_physics_rigid_bodies": {"trigger": geometry}}},
        ],
    }


@pytest.mark.parametrize("revision", ["2026", "2024-10"])
def test_unknown_implicit_shape_round_trips_unchanged(clean, tmp_path, revision):
    path = tmp_path / "region.gltf"
    path.write_text(json.dumps(_gltf()))
    assert bpy.ops.import_scene.gltf(filepath=str(path)) == {"FINISHED"}
    report = submodule(clean, "io.hooks").last_report("import")
    about = [d for d in report.diagnostics if "/shapes/0" in d.pointer and d.severity.name != "INFO"]
    assert len(about) == 1, [str(d) for d in report.diagnostics]

    out = export(tmp_path / "exported.gltf", revision)  # bpy 4.2 does not create missing folders
    shapes = out["extensions"]["KHR_implicit_shapes"]["shapes"]
    assert REGION in shapes, shapes
    names = {node.get("name"): node for node in out["nodes"]}
    for name, key in (("Body", "collider"), ("Zone", "trigger")):
        ref = names[name]["extensions"]["KHR_physics_rigid_bodies"][key]["geometry"]["shape"]
        assert shapes[ref] == REGION
