"""A joint one of whose nodes the file animates (``importer/joints.py``): Blender builds every joint on the frame
after the rigid-body cache's start from the poses it reads then, before or after that frame's animation (a race in
Blender's depsgraph), so a joint on a body the file animates is exact only when the animation holds still over its
first frame. The import says so at the joint (INFO ``GLTF_PHYSICS_IMPORT_APPROXIMATED``); the README lists it under
Limits."""

from __future__ import annotations

import base64
import json
import struct

import pytest

from joint_helpers import import_gltf
from reproduce_kit import RB, body, doc

JOINT = f"/nodes/1/extensions/{RB}/joint"


def _pendulum(tmp_path, animated: str | None):
    """A kinematic anchor (node 0) with the joint node (1) under it, a bob (2) and its frame (3); ``animated``: which
    node's translation the file animates (2 m along x in 1 s), or None."""
    anchor = {"name": "Anchor", "translation": [0.0, 3.0, 0.0], "children": [1]}
    anchor["extensions"] = {RB: {"motion": {"isKinematic": True}, "collider": {"geometry": {"shape": 1}}}}
    bob = body("Bob", [0.0, 2.0, 0.0])
    bob["children"] = [3]
    pivot = {"name": "Pivot", "extensions": {RB: {"joint": {"connectedNode": 3, "joint": 0}}}}
    frame = {"name": "BobFrame", "translation": [0.0, 1.0, 0.0]}
    ball = {"physicsJoints": [{"limits": [{"linearAxes": [0, 1, 2], "min": 0.0, "max": 0.0}]}]}
    data = doc([anchor, pivot, bob, frame], **ball)
    if animated is not None:
        node = [n["name"] for n in data["nodes"]].index(animated)
        start = data["nodes"][node]["translation"]
        raw = struct.pack("<2f", 0.0, 1.0) + struct.pack("<6f", *start, start[0] + 2.0, *start[1:])
        data["buffers"] = [{"byteLength": len(raw), "uri": "data:;base64," + base64.b64encode(raw).decode()}]
        data["bufferViews"] = [{"buffer": 0, "byteLength": 8}, {"buffer": 0, "byteOffset": 8, "byteLength": 24}]
        data["accessors"] = [
            {"bufferView": 0, "componentType": 5126, "count": 2, "type": "SCALAR", "min": [0.0], "max": [1.0]},
            {"bufferView": 1, "componentType": 5126, "count": 2, "type": "VEC3"},
        ]
        channel = {"sampler": 0, "target": {"node": node, "path": "translation"}}
        data["animations"] = [{"channels": [channel], "samplers": [{"input": 0, "output": 1}]}]
    path = tmp_path / "pendulum.gltf"
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def _notes(report) -> list[str]:
    return [
        d.message for d in report.diagnostics if d.code == "GLTF_PHYSICS_IMPORT_APPROXIMATED" and d.pointer == JOINT
    ]


@pytest.mark.parametrize("animated", ["Anchor", "Bob"])
def test_a_joint_on_an_animated_body_says_blender_builds_it_on_the_next_frame(clean, tmp_path, animated):
    report = import_gltf(clean, _pendulum(tmp_path, animated))
    assert report.counts["joints"] == 1
    (note,) = [n for n in _notes(report) if "animat" in n]
    assert "frame after the rigid-body cache's start" in note


@pytest.mark.parametrize("animated", [None, "BobFrame"])
def test_a_joint_whose_bodies_are_not_animated_says_nothing_of_it(clean, tmp_path, animated):
    """No animation, or only a frame node's (Blender reads the bodies' poses, not the frames')."""
    report = import_gltf(clean, _pendulum(tmp_path, animated))
    assert report.counts["joints"] == 1 and not [n for n in _notes(report) if "animat" in n]
