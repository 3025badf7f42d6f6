"""Viewport overlay geometry (bpy-free): glTF collision shapes as line segments in the object's Blender frame.

A shape stands along glTF +Y; in a Blender object it stands along +Z (``io.mapping.axes.SHAPE_TO_BLENDER``): a
shape-local point (x, y, z) is drawn at (x, −z, y). Every builder returns an ``(N, 3)`` float32 array whose rows
pair up into ``N / 2`` line segments (``batch_for_shader(..., 'LINES')``).
"""

from __future__ import annotations

import numpy as np

from ...io.gltf.model import BoxShape, CapsuleShape, CylinderShape, PlaneShape, Shape, SphereShape
from ...io.mapping.axes import points_to_blender

SEGMENTS = 32  # segments per full circle
INFINITE_PLANE = 4.0  # drawn extent (m) of an infinite plane in each direction
NORMAL_LENGTH = 0.25  # length (m, node units) of a plane's normal mark


def to_blender(points) -> np.ndarray:
    """Shape-local glTF points → Blender object axes (``axes.points_to_blender``) as float32 for the GPU."""
    return points_to_blender(points).astype(np.float32)


def _ring(radius: float, y: float, n: int = SEGMENTS) -> np.ndarray:
    """A circle of ``radius`` in the glTF plane y = ``y`` as ``n`` segments (shape-local axes)."""
    a = np.linspace(0.0, 2.0 * np.pi, n + 1)
    pts = np.stack([radius * np.cos(a), np.full_like(a, y), radius * np.sin(a)], axis=1)
    return np.stack([pts[:-1], pts[1:]], axis=1).reshape(-1, 3)


def box_lines(shape: BoxShape) -> np.ndarray:
    """The 12 edges of the box (24 vertices)."""
    h = np.asarray(shape.size, dtype=np.float64) / 2.0
    corners = np.array([[x, y, z] for x in (-1, 1) for y in (-1, 1) for z in (-1, 1)], dtype=np.float64) * h
    edges = [(i, i ^ bit) for i in range(8) for bit in (1, 2, 4) if i < i ^ bit]
    return to_blender(np.array([corners[k] for e in edges for k in e]))


def sphere_lines(shape: SphereShape, n: int = SEGMENTS) -> np.ndarray:
    """Three great circles (3 × ``n`` segments)."""
    ring = _ring(shape.radius, 0.0, n)
    return to_blender(np.concatenate([ring, ring[:, [1, 0, 2]], ring[:, [0, 2, 1]]]))


def cylinder_lines(shape: CylinderShape, n: int = SEGMENTS) -> np.ndarray:
    """Top and bottom rings (``radius_top`` at +height/2, ``radius_bottom`` at −height/2) and four side lines."""
    h = shape.height / 2.0
    sides = [
        p
        for x, z in ((1, 0), (-1, 0), (0, 1), (0, -1))
        for p in (
            (x * shape.radius_bottom, -h, z * shape.radius_bottom),
            (x * shape.radius_top, h, z * shape.radius_top),
        )
    ]
    return to_blender(np.concatenate([_ring(shape.radius_top, h, n), _ring(shape.radius_bottom, -h, n), sides]))


def capsule_lines(shape: CapsuleShape, n: int = SEGMENTS) -> np.ndarray:
    """The cylinder part (rings at the sphere centres ±height/2) and two half-circle caps in the XY and ZY planes."""
    h = shape.height / 2.0
    body = cylinder_lines(
        CylinderShape(height=shape.height, radius_top=shape.radius_top, radius_bottom=shape.radius_bottom), n
    )
    caps = []
    for radius, y, sign in ((shape.radius_top, h, 1.0), (shape.radius_bottom, -h, -1.0)):
        a = np.linspace(0.0, np.pi, n // 2 + 1)
        arc = np.stack([radius * np.cos(a), y + sign * radius * np.sin(a), np.zeros_like(a)], axis=1)
        seg = np.stack([arc[:-1], arc[1:]], axis=1).reshape(-1, 3)
        caps += [seg, seg[:, [2, 1, 0]]]
    return np.concatenate([body, to_blender(np.concatenate(caps))])


def plane_lines(shape: PlaneShape) -> np.ndarray:
    """The plane y = 0 (normal +Y): its rectangle ``sizeX`` × ``sizeZ`` (an infinite side is drawn
    ``INFINITE_PLANE`` m each way, with the two centre lines), and the normal mark(s): +Y, and −Y when double-sided."""
    hx = shape.size_x / 2.0 if shape.size_x is not None else INFINITE_PLANE
    hz = shape.size_z / 2.0 if shape.size_z is not None else INFINITE_PLANE
    c = [(-hx, 0.0, -hz), (hx, 0.0, -hz), (hx, 0.0, hz), (-hx, 0.0, hz)]
    pts = [p for i in range(4) for p in (c[i], c[(i + 1) % 4])]
    if shape.size_x is None or shape.size_z is None:
        pts += [(-hx, 0.0, 0.0), (hx, 0.0, 0.0), (0.0, 0.0, -hz), (0.0, 0.0, hz)]
    pts += [(0.0, 0.0, 0.0), (0.0, NORMAL_LENGTH, 0.0)]
    if shape.double_sided:
        pts += [(0.0, 0.0, 0.0), (0.0, -NORMAL_LENGTH, 0.0)]
    return to_blender(np.array(pts, dtype=np.float64))


_BUILDERS = {
    BoxShape: box_lines,
    SphereShape: sphere_lines,
    CylinderShape: cylinder_lines,
    CapsuleShape: capsule_lines,
    PlaneShape: plane_lines,
}


def edge_lines(vertices, edges) -> np.ndarray:
    """Mesh edges (``edges``: (M, 2) vertex indices) as segments, in the vertices' own (Blender object) frame."""
    v = np.asarray(vertices, dtype=np.float32).reshape(-1, 3)
    e = np.asarray(edges, dtype=np.int64).reshape(-1, 2)
    return v[e].reshape(-1, 3)


def triangle_edges(triangles) -> np.ndarray:
    """The distinct edges (M, 2) of triangles (T, 3): a hull's triangles → its wire."""
    t = np.asarray(triangles, dtype=np.int64).reshape(-1, 3)
    pairs = np.concatenate([t[:, [0, 1]], t[:, [1, 2]], t[:, [2, 0]]])
    return np.unique(np.sort(pairs, axis=1), axis=0)


def shape_lines(shape: Shape | None) -> np.ndarray | None:
    """Segments of a model shape in the Blender object frame; None for meshes and unknown shape types."""
    params = None if shape is None else shape.params
    builder = _BUILDERS.get(type(params))
    return None if builder is None else builder(params)
