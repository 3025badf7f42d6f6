"""Shared helpers of the joint/filter Blender tests: import a file, find constraints, step the simulation."""

from __future__ import annotations

import pathlib

import bpy
from mathutils import Vector

from blenderkit import submodule


def import_gltf(addon, path: pathlib.Path):
    """Import ``path`` with the extension enabled; returns the run report."""
    assert bpy.ops.import_scene.gltf(filepath=str(path)) == {"FINISHED"}
    return submodule(addon, "io.hooks").last_report("import")


def constraints(role: str = "JOINT") -> list:
    """Constraint Empties of the scene with ``gltf_physics.joint.role == role``, sorted by name."""
    return sorted(
        (ob for ob in bpy.context.scene.objects if ob.rigid_body_constraint and ob.gltf_physics.joint.role == role),
        key=lambda ob: ob.name,
    )


def axis(ob, index: int) -> Vector:
    """World direction of the object's local axis ``index`` (0 = X)."""
    return (ob.matrix_world.to_3x3() @ Vector([1.0 if i == index else 0.0 for i in range(3)])).normalized()


def step(scene, last: int) -> None:
    """Simulate consecutive frames from the start (rigid bodies only advance frame by frame)."""
    for frame in range(scene.frame_start, last + 1):
        scene.frame_set(frame)


def file_frame(path: pathlib.Path, index: int):
    """Node ``index``'s glTF frame in Blender world (4×4 numpy), from the file: its Blender parent's matrix · C · the
    node's own TRS. A joint node that carries its constraint is turned (C·A·P), so its own matrix is not the frame."""
    import json

    import numpy as np

    node = json.loads(pathlib.Path(path).read_text(encoding="utf-8"))["nodes"][index]
    x, y, z, w = node.get("rotation", (0.0, 0.0, 0.0, 1.0))
    local = np.eye(4)
    local[:3, :3] = [
        [1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
        [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
        [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)],
    ]
    local[:3, :3] *= node.get("scale", (1.0, 1.0, 1.0))
    local[:3, 3] = node.get("translation", (0.0, 0.0, 0.0))
    change = np.array([[1.0, 0, 0, 0], [0, 0, -1.0, 0], [0, 1.0, 0, 0], [0, 0, 0, 1.0]])  # glTF → Blender (C)
    name = node.get("name")
    ob = bpy.data.objects[name]
    parent = np.array(ob.parent.matrix_world) @ change if ob.parent is not None else change
    return parent @ local
