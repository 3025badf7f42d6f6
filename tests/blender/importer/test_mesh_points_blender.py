"""io.mapping.mesh_points on real Blender meshes: the ``position`` attribute read and the per-axis bounds equal the
float64 ``vertices.foreach_get("co")`` and its ``min(axis=0)`` / ``max(axis=0)`` bit for bit."""

from __future__ import annotations

import bpy
import numpy as np

from blenderkit import submodule


def _reference(mesh) -> np.ndarray:
    co = np.empty(len(mesh.vertices) * 3, dtype=np.float64)
    mesh.vertices.foreach_get("co", co)
    return co.reshape(-1, 3)


def test_positions_and_bounds_equal_the_float64_reading(clean):
    points = submodule(clean, "io.mapping.mesh_points")
    rng = np.random.default_rng(7)
    for count in (1, 8, 2401):
        mesh = bpy.data.meshes.new(f"probe{count}")
        mesh.from_pydata((rng.normal(size=(count, 3)) * (0.01, 3.0, 250.0)).tolist(), [], [])
        assert mesh.attributes.get("position") is not None  # the fast path is the one tested
        reference = _reference(mesh)
        assert points.positions(mesh).tolist() == reference.tolist()
        lo, hi = points.bounds(mesh)
        assert lo.tolist() == reference.min(axis=0).tolist() and hi.tolist() == reference.max(axis=0).tolist()
    empty = bpy.data.meshes.new("empty")
    assert points.bounds(empty) is None and points.positions(empty).shape == (0, 3)
