"""Reproduce Motion's initial-velocity pre-roll asked ``Object.children_recursive`` twice per moving body (is its
pre-roll resting on something?), and each call scans every object of the file: 2,000 moving boxes spent 0.9 s of a
1.7 s import there, growing with the square of the bodies. The children now come from one pass per import."""

from __future__ import annotations

import json

import bpy
import scaling_scenes as scenes

from blenderkit import empty_scene
from scene_helpers import count_children_scans


def _moving(n: int) -> dict:
    gltf = scenes.moving(n)
    gltf["nodes"][0]["children"] = [1]  # a moving body with a child body: its box holds the child's
    gltf["scenes"][0]["nodes"].remove(1)
    return gltf


def test_moving_bodies_are_pre_rolled_without_a_scan_per_body(clean, tmp_path, monkeypatch):
    path = tmp_path / "moving.gltf"
    path.write_text(json.dumps(_moving(40)), encoding="utf-8")
    empty_scene()
    scans = count_children_scans(monkeypatch)
    assert bpy.ops.import_scene.gltf(filepath=str(path)) == {"FINISHED"}
    pre_rolled = [ob for ob in bpy.data.objects if ob.animation_data and ob.animation_data.drivers]
    assert len(pre_rolled) >= 39
    assert scans["children_recursive"] + scans["children"] <= 2  # not per body
