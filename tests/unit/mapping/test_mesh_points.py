"""io.mapping.mesh_points: positions and bounds of a mesh read as float32 and reduced per axis (bpy-free: a stand-in
mesh with Blender's ``foreach_get`` contract); the results must equal the float64 ``min(axis=0)`` they replace."""

from __future__ import annotations

import numpy as np
import pytest

from testkit import submodule

points = submodule("io.mapping.mesh_points")


class _Vertices:
    def __init__(self, co: np.ndarray):
        self.co = np.asarray(co, dtype=np.float32).reshape(-1, 3)  # Blender stores 32-bit positions

    def __len__(self) -> int:
        return len(self.co)

    def foreach_get(self, name: str, buffer: np.ndarray) -> None:
        assert name == "co" and buffer.size == self.co.size
        buffer[:] = self.co.ravel()  # converted to the buffer's type, as bpy does


class _Mesh:
    def __init__(self, co):
        self.vertices = _Vertices(co)


@pytest.mark.parametrize("count", [1, 8, 187, 2401])
def test_bounds_equal_the_float64_reductions(count):
    rng = np.random.default_rng(count)
    co = rng.normal(size=(count, 3)) * rng.uniform(0.01, 100.0, size=3)
    mesh = _Mesh(co)
    reference = np.empty(count * 3)
    mesh.vertices.foreach_get("co", reference)  # what the old code read: float64
    reference = reference.reshape(-1, 3)
    lo, hi = points.bounds(mesh)
    assert lo.dtype == hi.dtype == np.float64
    assert lo.tolist() == reference.min(axis=0).tolist() and hi.tolist() == reference.max(axis=0).tolist()
    assert points.positions(mesh).tolist() == reference.tolist()
    assert [v.tolist() for v in points.bounds_of(reference)] == [lo.tolist(), hi.tolist()]


def test_empty_mesh_has_no_bounds():
    mesh = _Mesh(np.empty((0, 3)))
    assert points.bounds(mesh) is None and points.axes(mesh) is None
    assert points.positions(mesh).shape == (0, 3)
    assert not points.is_centred_box(mesh)


CORNERS = [(x, y, z) for x in (-1.0, 1.0) for y in (-2.0, 2.0) for z in (-0.5, 0.5)]


@pytest.mark.parametrize(
    ("co", "box"),
    [
        (CORNERS, True),
        ([*CORNERS, (0.2, 0.1, 0.0)], True),  # an inner point: the hull is still the box
        ([(x, y, z) for z, y, x in [(c[2], c[1], c[0]) for c in CORNERS]][::-1], True),  # any vertex order
        ([(x + 0.5, y, z) for x, y, z in CORNERS], False),  # off-centre
        ([*CORNERS[:7], (0.9, 1.9, 0.4)], False),  # a corner cut off
        ([(x, y, 0.0) for x, y, _ in CORNERS], False),  # flat
        ([*CORNERS[:7], CORNERS[0]], False),  # 8 vertices, one corner twice
        ([*CORNERS, (float("nan"), 0.0, 0.0)], False),  # a NaN position
        (CORNERS[:7], False),  # fewer than 8 vertices
    ],
)
def test_centred_box(co, box):
    assert points.is_centred_box(_Mesh(co)) is box
