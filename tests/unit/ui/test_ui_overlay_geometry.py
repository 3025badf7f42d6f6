"""Viewport overlay geometry (ui/overlay/overlay_geometry.py, bpy-free): segment counts, extents, tapered radii, axis
swap."""

from __future__ import annotations

import numpy as np
from numpy.testing import assert_allclose

from testkit import submodule

og = submodule("ui.overlay.overlay_geometry")
model = submodule("io.gltf.model")
BoxShape, CapsuleShape = model.BoxShape, model.CapsuleShape
CylinderShape, SphereShape = model.CylinderShape, model.SphereShape


def test_box_has_12_edges_and_swapped_extents():
    v = og.box_lines(BoxShape(size=(1.0, 2.0, 3.0)))
    assert v.shape == (24, 3)
    # glTF Y (2.0) becomes Blender Z, glTF Z (3.0) becomes Blender Y
    assert_allclose(v.max(axis=0), [0.5, 1.5, 1.0])
    assert_allclose(v.min(axis=0), [-0.5, -1.5, -1.0])


def test_sphere_extents_equal_radius():
    v = og.sphere_lines(SphereShape(radius=0.7), n=16)
    assert v.shape == (3 * 16 * 2, 3)
    assert_allclose(np.linalg.norm(v, axis=1), 0.7, rtol=1e-6)


def test_frustum_radii_at_top_and_bottom_along_blender_z():
    v = og.cylinder_lines(CylinderShape(height=2.0, radius_top=0.2, radius_bottom=0.6), n=8)
    assert v.shape == ((8 + 8 + 4) * 2, 3)
    radial = np.linalg.norm(v[:, :2], axis=1)
    assert_allclose(radial[np.isclose(v[:, 2], 1.0)], 0.2, rtol=1e-6)
    assert_allclose(radial[np.isclose(v[:, 2], -1.0)], 0.6, rtol=1e-6)


def test_tapered_capsule_reaches_cap_tips():
    v = og.capsule_lines(CapsuleShape(height=1.0, radius_top=0.1, radius_bottom=0.3), n=8)
    assert len(v) % 2 == 0
    assert_allclose(v[:, 2].max(), 0.5 + 0.1, rtol=1e-6)
    assert_allclose(v[:, 2].min(), -0.5 - 0.3, rtol=1e-6)


def test_finite_plane_rectangle_lies_in_blender_xy_with_normal_up():
    PlaneShape = model.PlaneShape
    v = og.plane_lines(PlaneShape(size_x=2.0, size_z=4.0))
    assert v.shape == ((4 + 1) * 2, 3)
    rect = v[:8]
    assert_allclose(rect[:, 2], 0.0)  # glTF y = 0 is Blender z = 0
    assert_allclose(np.abs(rect[:, 0]).max(), 1.0)
    assert_allclose(np.abs(rect[:, 1]).max(), 2.0)  # sizeZ runs along Blender Y
    assert_allclose(v[-1], [0.0, 0.0, og.NORMAL_LENGTH])  # normal +Y glTF = +Z Blender


def test_infinite_double_sided_plane_draws_centre_lines_and_both_normals():
    v = og.plane_lines(model.PlaneShape(size_x=None, size_z=3.0, double_sided=True))
    assert v.shape == ((4 + 2 + 2) * 2, 3)
    assert_allclose(np.abs(v[:, 0]).max(), og.INFINITE_PLANE)
    assert_allclose(v[:, 2].min(), -og.NORMAL_LENGTH)


def test_shape_lines_dispatches_and_skips_meshes_and_unknown_types():
    Shape = model.Shape
    box = Shape(type="box", params=BoxShape(size=(1.0, 2.0, 3.0)))
    assert_allclose(og.shape_lines(box), og.box_lines(box.params))
    assert og.shape_lines(Shape(type="mesh", params=model.MeshShape(mesh=0))) is None
    assert og.shape_lines(Shape(type="x_custom", params=None)) is None
    assert og.shape_lines(None) is None


def test_mesh_edges_and_hull_wire():
    """A mesh collision shape is drawn as its edges; a hull's triangles give each edge once."""
    vertices = np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1]], dtype=float)
    lines = og.edge_lines(vertices, [[0, 1], [2, 3]])
    np.testing.assert_allclose(lines, [[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1]])
    tetra = [[0, 1, 2], [0, 3, 1], [0, 2, 3], [1, 3, 2]]
    edges = og.triangle_edges(tetra)
    assert edges.tolist() == [[0, 1], [0, 2], [0, 3], [1, 2], [1, 3], [2, 3]]
    assert og.edge_lines(vertices, edges).shape == (12, 3)
