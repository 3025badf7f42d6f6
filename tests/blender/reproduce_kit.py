"""Fixture files and stepping for the reproduction tests (issue 9, item 1): implicit boxes on Empty nodes, glTF +Y
up; shape 0 is a 4 × 1 × 4 m ground slab, shape 1 a 1 m cube."""

from __future__ import annotations

import json
import math

import bpy

import devkit
from blenderkit import empty_scene

RB, SHAPES = "KHR_physics_rigid_bodies", "KHR_implicit_shapes"
HELPERS = "glTF Physics Helpers"


def doc(nodes: list, shapes: list | None = None, **extensions) -> dict:
    shapes = shapes or [
        {"type": "box", "box": {"size": [4.0, 1.0, 4.0]}},
        {"type": "box", "box": {"size": [1.0, 1.0, 1.0]}},
    ]
    rigid = {key: value for key, value in extensions.items() if value}
    return {
        "asset": {"version": "2.0"},
        "extensionsUsed": [RB, SHAPES],
        "extensions": {SHAPES: {"shapes": shapes}, **({RB: rigid} if rigid else {})},
        "nodes": nodes,
        "scenes": [{"nodes": [i for i in range(len(nodes)) if not any(i in n.get("children", []) for n in nodes)]}],
        "scene": 0,
    }


def body(name: str, translation: list, shape: int = 1, **motion) -> dict:
    motion.setdefault("mass", 1.0)
    physics = {"motion": motion, "collider": {"geometry": {"shape": shape}}}
    return {"name": name, "translation": translation, "extensions": {RB: physics}}


def ground(translation=(0.0, -0.5, 0.0), **collider) -> dict:
    """A static 4 × 1 × 4 m slab; by default its top face is at y = 0 and it spans x in [-2, 2]."""
    return {
        "name": "Ground",
        "translation": list(translation),
        "extensions": {RB: {"collider": {"geometry": {"shape": 0}, **collider}}},
    }


def write(tmp_path, name: str, nodes: list, **extensions):
    path = tmp_path / f"{name}.gltf"
    path.write_text(json.dumps(doc(nodes, **extensions)), encoding="utf-8")
    return path


def import_file(path, reproduce: bool = True) -> list[str]:
    bpy.context.scene.gltf_physics.import_reproduce = reproduce
    assert bpy.ops.import_scene.gltf(filepath=str(path)) == {"FINISHED"}
    return sorted(ob.name for ob in bpy.data.objects)


def reset() -> None:
    """An empty scene again, as the ``clean`` fixture makes it."""
    empty_scene()
    devkit.enable()


def step(frames: int, start: int | None = None) -> None:
    """Consecutive frames from the start (jumping does not simulate)."""
    scene = bpy.context.scene
    first = scene.frame_start if start is None else start
    for frame in range(first, first + frames):
        scene.frame_set(frame)


def seconds_per_frame() -> float:
    render = bpy.context.scene.render
    return render.fps_base / render.fps


def tilt_degrees(name: str) -> float:
    """Angle between the object's local up axis and world up, in degrees."""
    up = bpy.data.objects[name].matrix_world.to_3x3().col[2].normalized()
    return math.degrees(math.acos(max(-1.0, min(1.0, up.z))))
