"""Nodes a file keeps outside its scene (io_scene_gltf2 4.5+ imports them into an "Orphan Nodes" collection) stay
outside the exported scene's node list (issue 12 item 4): written as nodes, reachable from no scene."""

from __future__ import annotations

import json

import bpy
import pytest

from export_helpers import export

RB = "KHR_physics_rigid_bodies"


def _document(with_physics: bool) -> dict:
    box = {"type": "box", "box": {"size": [1, 1, 1]}}
    body = {"name": "Body", "translation": [0, 2, 0]}
    if with_physics:
        body["extensions"] = {RB: {"motion": {"mass": 1}, "collider": {"geometry": {"shape": 0}}}}
    gltf = {
        "asset": {"version": "2.0"},
        "scene": 0,
        "scenes": [{"nodes": [0]}],
        "nodes": [
            body,
            {"name": "Outside", "translation": [5, 0, 0], "children": [2]},
            {"name": "OutsideChild", "translation": [0, 1, 0]},
        ],
    }
    if with_physics:
        gltf["extensionsUsed"] = [RB, "KHR_implicit_shapes"]
        gltf["extensions"] = {"KHR_implicit_shapes": {"shapes": [box]}}
    return gltf


def _reachable(gltf: dict) -> set[str]:
    nodes = gltf["nodes"]
    todo = list(gltf["scenes"][gltf.get("scene", 0)]["nodes"])
    seen = set()
    while todo:
        i = todo.pop()
        seen.add(i)
        todo.extend(nodes[i].get("children", []))
    return {nodes[i].get("name") for i in seen}


@pytest.mark.parametrize("with_physics", [True, False], ids=["physics", "plain"])
def test_nodes_outside_the_scene_stay_outside(clean, tmp_path, with_physics):
    source = tmp_path / "outside.gltf"
    source.write_text(json.dumps(_document(with_physics)))
    assert bpy.ops.import_scene.gltf(filepath=str(source)) == {"FINISHED"}
    if "Outside" not in bpy.data.objects:
        pytest.skip("this io_scene_gltf2 does not import nodes outside the scene")
    out = export(tmp_path / "out.gltf", "2026")
    names = [n.get("name") for n in out["nodes"]]
    assert {"Outside", "OutsideChild"} <= set(names)  # still written
    assert _reachable(out) == {"Body"}
    outside = out["nodes"][names.index("Outside")]
    assert outside["translation"] == [5, 0, 0]
    assert [out["nodes"][c]["name"] for c in outside["children"]] == ["OutsideChild"]
