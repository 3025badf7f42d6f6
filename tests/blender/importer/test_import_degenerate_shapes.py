"""Implicit shapes of size zero (found by exporting Blender bodies whose mesh is empty or a single point, then
importing the file: a zero cylinder raised ZeroDivisionError in the body step, so the body was lost).

Every degenerate shape, on a body and as a static collider, imports without a failed step and is written back as
the file had it.
"""

from __future__ import annotations

import json

import bpy
import pytest

from blenderkit import submodule
from export_helpers import export

RB = "KHR_physics_rigid_bodies"
SHAPES = "KHR_implicit_shapes"
DEGENERATE = [
    {"type": "box", "box": {"size": [0.0, 0.0, 0.0]}},
    {"type": "box", "box": {"size": [1.0, 0.0, 1.0]}},
    {"type": "sphere", "sphere": {"radius": 0.0}},
    {"type": "capsule", "capsule": {"height": 0.0, "radiusTop": 0.0, "radiusBottom": 0.0}},
    {"type": "capsule", "capsule": {"height": 1.0, "radiusTop": 0.0, "radiusBottom": 0.0}},
    {"type": "cylinder", "cylinder": {"height": 0.0, "radiusTop": 0.0, "radiusBottom": 0.0}},
    {"type": "cylinder", "cylinder": {"height": 1.0, "radiusTop": 0.0, "radiusBottom": 0.0}},
    {"type": "cylinder", "cylinder": {"height": 0.0, "radiusTop": 0.5, "radiusBottom": 0.5}},
    {"type": "plane", "plane": {"sizeX": 0.0, "sizeZ": 0.0, "doubleSided": False}},
]


def _document(static: bool) -> dict:
    nodes = []
    for index, _shape in enumerate(DEGENERATE):
        physics = {"collider": {"geometry": {"shape": index}}}
        if not static:
            physics["motion"] = {"mass": 1.0}
        nodes.append({"name": f"Shape{index}", "translation": [2.0 * index, 0.0, 0.0], "extensions": {RB: physics}})
    return {
        "asset": {"version": "2.0"},
        "extensionsUsed": [RB, SHAPES],
        "extensions": {SHAPES: {"shapes": DEGENERATE}},
        "scene": 0,
        "scenes": [{"nodes": list(range(len(nodes)))}],
        "nodes": nodes,
    }


@pytest.mark.parametrize("static", [False, True], ids=["bodies", "static colliders"])
def test_zero_size_shapes_import_and_come_back(clean, tmp_path, static):
    path = tmp_path / "degenerate.gltf"
    path.write_text(json.dumps(_document(static)), encoding="utf-8")
    assert bpy.ops.import_scene.gltf(filepath=str(path)) == {"FINISHED"}
    texts = [str(d) for d in submodule(clean, "io.hooks").last_report("import").diagnostics]
    assert not [t for t in texts if "IMPORT_FAILED" in t], texts
    for index in range(len(DEGENERATE)):
        body = bpy.data.objects[f"Shape{index}"]
        assert body.rigid_body is not None or any(child.rigid_body for child in body.children), body.name
    written = export(tmp_path / "back.gltf", "2026")
    shapes = written["extensions"][SHAPES]["shapes"]
    for node in written["nodes"]:
        name = node.get("name", "")
        if name.startswith("Shape"):
            geometry = node["extensions"][RB]["collider"]["geometry"]
            assert shapes[geometry["shape"]] == DEGENERATE[int(name[5:])], (name, shapes[geometry["shape"]])
