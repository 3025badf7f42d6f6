"""A 2024-07 convex mesh shape (``convexHull`` in the shape's ``KHR_physics_rigid_bodies`` extension) whose hull is
exactly a centred box: Blender simulates it as its cheaper BOX, and the export must still write the file's convex
hull (found while comparing export-only imports with the corpus's 2024-07 samples: the flag was lost then)."""

from __future__ import annotations

import base64
import json
import struct

import bpy
import pytest

from export_helpers import export

RB = "KHR_physics_rigid_bodies"
BOX = [(x, y, z) for x in (-0.5, 0.5) for y in (-0.5, 0.5) for z in (-0.5, 0.5)]
TRIANGLES = [0, 1, 3, 0, 3, 2, 4, 6, 7, 4, 7, 5, 0, 4, 5, 0, 5, 1, 2, 3, 7, 2, 7, 6, 0, 2, 6, 0, 6, 4, 1, 5, 7, 1, 7, 3]


def _file(tmp_path, convex: bool):
    positions = b"".join(struct.pack("<3f", *p) for p in BOX)
    indices = struct.pack(f"<{len(TRIANGLES)}H", *TRIANGLES)
    data = positions + indices
    shape = {"type": "mesh", "mesh": {"mesh": 0}}
    if convex:
        shape["extensions"] = {RB: {"convexHull": True}}
    gltf = {
        "asset": {"version": "2.0"},
        "scene": 0,
        "scenes": [{"nodes": [0]}],
        "nodes": [{"name": "Crate", "extensions": {RB: {"motion": {"mass": 2}, "collider": {"shape": 0}}}}],
        "meshes": [{"primitives": [{"attributes": {"POSITION": 0}, "indices": 1}]}],
        "accessors": [
            {"bufferView": 0, "componentType": 5126, "count": 8, "type": "VEC3", "min": [-0.5] * 3, "max": [0.5] * 3},
            {"bufferView": 1, "componentType": 5123, "count": len(TRIANGLES), "type": "SCALAR"},
        ],
        "bufferViews": [
            {"buffer": 0, "byteOffset": 0, "byteLength": len(positions)},
            {"buffer": 0, "byteOffset": len(positions), "byteLength": len(indices)},
        ],
        "buffers": [
            {"byteLength": len(data), "uri": "data:application/octet-stream;base64," + base64.b64encode(data).decode()}
        ],
        "extensionsUsed": [RB, "KHR_collision_shapes"],
        "extensions": {"KHR_collision_shapes": {"shapes": [shape]}},
    }
    path = tmp_path / "crate.gltf"
    path.write_text(json.dumps(gltf))
    return path


@pytest.mark.parametrize("convex", [True, False], ids=["convex", "triangle mesh"])
def test_a_convex_mesh_shape_blender_simulates_as_a_box_keeps_its_convex_hull(clean, tmp_path, convex):
    assert bpy.ops.import_scene.gltf(filepath=str(_file(tmp_path, convex))) == {"FINISHED"}
    crate = bpy.data.objects["Crate"]
    assert crate.rigid_body.collision_shape == ("BOX" if convex else "MESH")
    out = export(tmp_path / "out2026.gltf", "2026")
    crate_node = next(n for n in out["nodes"] if n.get("name") == "Crate")
    assert crate_node["extensions"][RB]["collider"]["geometry"].get("convexHull", False) is convex
    out = export(tmp_path / "out2024.gltf", "2024-07")
    shapes = out["extensions"]["KHR_collision_shapes"]["shapes"]
    crate_node = next(n for n in out["nodes"] if n.get("name") == "Crate")
    shape = shapes[crate_node["extensions"][RB]["collider"]["shape"]]
    assert shape["type"] == "mesh"
    assert shape.get("extensions", {}).get(RB, {}).get("convexHull", False) is convex
