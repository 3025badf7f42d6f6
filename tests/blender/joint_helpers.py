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
