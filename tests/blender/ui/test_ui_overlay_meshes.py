"""The overlay draws mesh and convex-hull collision shapes (the mesh's edges, the hull's edges), cached like the
other shapes (3-axis angular limit cones: ``tests/unit/ui/test_ui_overlay_marks.py``)."""

from __future__ import annotations

import bpy
import numpy as np
from numpy.testing import assert_allclose

from blenderkit import submodule
from scene_helpers import rigid_body_world, rigid_box


def _lines(addon, objects):
    overlay = submodule(addon, "ui.overlay.overlay")
    with bpy.context.temp_override(selected_objects=list(objects)):
        return overlay.selected_lines(bpy.context)


def _world_vertices(ob) -> np.ndarray:
    return np.array([tuple(ob.matrix_world @ v.co) for v in ob.data.vertices])


def _on_points(lines: np.ndarray, points: np.ndarray) -> bool:
    d = np.linalg.norm(lines[:, None, :].astype(np.float64) - points[None, :, :], axis=2)
    return bool((d.min(axis=1) < 1e-5).all())


def test_mesh_shape_draws_the_mesh_edges(clean):
    ob = rigid_box(rigid_body_world(), "Rock", size=(2.0, 1.0, 0.5), shape="MESH", location=(1.0, 2.0, 3.0))
    ob.rotation_euler = (0.3, 0.0, 0.7)
    bpy.context.view_layer.update()
    v = _lines(clean, [ob])["collider"]
    assert len(v) == 2 * len(ob.data.edges)
    assert _on_points(v, _world_vertices(ob))


def test_convex_hull_draws_the_hull_without_interior_points_and_follows_mesh_edits(clean):
    ob = rigid_box(rigid_body_world(), "Hull", shape="CONVEX_HULL")
    corners = _world_vertices(ob)
    mesh = ob.data
    mesh.vertices.add(1)  # an interior point: not on the hull
    mesh.vertices[-1].co = (0.1, 0.0, 0.0)
    mesh.update()
    bpy.context.view_layer.update()
    overlay = submodule(clean, "ui.overlay.overlay")
    v = _lines(clean, [ob])["collider"]
    assert _on_points(v, corners) and len(v) == 2 * 18  # a cube's hull: 12 edges + 6 face diagonals (triangles)
    builds = overlay.CACHE.builds
    _lines(clean, [ob])
    assert overlay.CACHE.builds == builds  # unchanged: cached
    mesh.vertices.add(1)  # a point outside the cube: the hull grows, and the cache is rebuilt
    mesh.vertices[-1].co = (0.0, 0.0, 2.0)
    mesh.update()
    bpy.context.view_layer.update()
    v = _lines(clean, [ob])["collider"].astype(np.float64)
    assert overlay.CACHE.builds == builds + 1
    assert v[:, 2].max() == np.float64(2.0)


def test_evaluated_mesh_is_drawn_unless_the_source_is_base(clean):
    ob = rigid_box(rigid_body_world(), "Mod", shape="MESH")
    modifier = ob.modifiers.new("Grow", "DISPLACE")
    modifier.strength, modifier.mid_level = 1.0, 0.0  # every vertex moves 1 m along its normal
    bpy.context.view_layer.update()
    ob.rigid_body.mesh_source = "FINAL"
    grown = _lines(clean, [ob])["collider"].astype(np.float64)
    ob.rigid_body.mesh_source = "BASE"
    base = _lines(clean, [ob])["collider"].astype(np.float64)
    assert_allclose(np.abs(base).max(), 0.5, atol=1e-6)
    assert np.abs(grown).max() > 1.0
