"""Proxy geometry for implicit shapes: exact bounds in Blender axes, shape choice, volumes, axis swizzles."""

from __future__ import annotations

import math

import numpy as np
import pytest

from testkit import submodule

geo = submodule("io.mapping.shapes_to_blender")
model = submodule("io.gltf.model")


def _shape(kind, **params):
    return model.Shape(type=kind, params=model.PARAM_CLASSES[kind](**params))


@pytest.mark.parametrize(
    ("shape", "blender_shape", "extents", "volume"),
    [
        (_shape("box", size=(1.0, 2.0, 3.0)), "BOX", (1.0, 3.0, 2.0), 6.0),
        (_shape("sphere", radius=0.5), "SPHERE", (1.0, 1.0, 1.0), 0.523599),
        (_shape("capsule"), "CAPSULE", (0.5, 0.5, 1.0), 0.163625),
        (_shape("cylinder"), "CYLINDER", (0.5, 0.5, 0.5), 0.098175),
        (_shape("cylinder", height=2.0, radius_top=0.0, radius_bottom=1.0), "CONE", (2.0, 2.0, 2.0), 2.094395),
        (_shape("cylinder", height=2.0, radius_top=0.5, radius_bottom=1.0), "CONVEX_HULL", (2.0, 2.0, 2.0), 3.665191),
        (_shape("capsule", height=1.0, radius_top=0.25, radius_bottom=0.5), "CONVEX_HULL", (1.0, 1.0, 1.75), 0.781308),
    ],
)
def test_proxy_bounds_are_the_shape_in_blender_axes(shape, blender_shape, extents, volume):
    mesh = geo.implicit_mesh(shape)
    lo, hi = mesh.bounds()
    assert mesh.collision_shape == blender_shape
    assert tuple(hi - lo) == pytest.approx(extents, abs=1e-9)
    assert mesh.volume == pytest.approx(volume, rel=1e-5)
    assert all(len(f) >= 3 for f in mesh.faces) and max(max(f) for f in mesh.faces) < len(mesh.vertices)


def test_capsule_is_centred_with_top_radius_at_plus_z():
    mesh = geo.implicit_mesh(_shape("capsule", height=1.0, radius_top=0.25, radius_bottom=0.5))
    lo, hi = mesh.bounds()
    assert (lo[2], hi[2]) == pytest.approx((-1.0, 0.75))
    top = [v for v in mesh.vertices if v[2] > 0.5 + 1e-9]
    assert max(math.hypot(x, y) for x, y, _ in top) <= 0.25 + 1e-9


def test_scale_is_baked_as_absolute_value_and_round_shapes_become_hulls():
    box = geo.implicit_mesh(_shape("box"), bake_scale=(1.0, -2.0, 3.0))
    lo, hi = box.bounds()
    assert tuple(hi - lo) == pytest.approx((1.0, 2.0, 3.0)) and box.volume == pytest.approx(6.0)
    egg = geo.implicit_mesh(_shape("sphere", radius=1.0), object_scale=(1.0, 1.0, 2.0))
    assert egg.collision_shape == "CONVEX_HULL" and egg.notes


def test_plane_is_a_quad_at_the_origin_with_default_size_for_infinite():
    finite = geo.implicit_mesh(_shape("plane", size_x=4.0, size_z=6.0, double_sided=True))
    lo, hi = finite.bounds()
    assert finite.collision_shape == "MESH" and tuple(hi - lo) == pytest.approx((4.0, 6.0, 0.0))
    assert finite.notes == [] and finite.volume is None
    infinite = geo.implicit_mesh(_shape("plane"))
    assert tuple(np.subtract(*infinite.bounds()[::-1])) == pytest.approx((2000.0, 2000.0, 0.0))
    assert len(infinite.notes) == 2


def test_render_mesh_matching():
    box = geo.implicit_mesh(_shape("box", size=(1.0, 2.0, 3.0)))
    assert geo.derived_primitive_matches(box, (-0.5, -1.5, -1.0), (0.5, 1.5, 1.0))
    assert not geo.derived_primitive_matches(box, (-0.5, -1.0, -1.5), (0.5, 1.0, 1.5))
    assert not geo.derived_primitive_matches(box, (0.0, -1.5, -1.0), (1.0, 1.5, 1.0))  # off-centre
    hull = geo.implicit_mesh(_shape("capsule", height=1.0, radius_top=0.25, radius_bottom=0.5))
    assert not geo.derived_primitive_matches(hull, *hull.bounds())


def test_shape_json_writes_every_parameter():
    assert geo.shape_to_json(_shape("capsule")) == {
        "type": "capsule",
        "capsule": {"height": 0.5, "radiusTop": 0.25, "radiusBottom": 0.25},
    }
    assert geo.shape_to_json(_shape("plane")) == {"type": "plane", "plane": {"doubleSided": False}}


def _scanned(mesh):
    axes = list(zip(*mesh.vertices, strict=True))
    return tuple(min(a) for a in axes), tuple(max(a) for a in axes)


@pytest.mark.parametrize("seed", range(40))
def test_the_builders_box_is_exactly_the_vertices_bounds_and_the_outline_agrees(seed):
    """``box`` (what ``derived_primitive_matches`` compares) equals the scanned bounds bit for bit, for every kind,
    random parameters (degenerate ones included) and scales; an outline has the same kind, volume, notes and box."""
    rng = np.random.default_rng(seed)

    def size() -> float:
        return float(rng.choice([0.0, 1e-13, rng.uniform(1e-6, 1e-3), rng.uniform(0.01, 50.0)]))

    shapes = [
        _shape("box", size=(size(), size(), size())),
        _shape("sphere", radius=size()),
        _shape("capsule", height=size(), radius_top=size(), radius_bottom=size()),
        _shape("cylinder", height=size(), radius_top=size(), radius_bottom=size()),
        _shape("plane", size_x=size(), size_z=size()),
    ]
    bake = tuple(float(v) for v in rng.choice([1.0, 0.0, 0.5, 3.0, 1e-3], size=3))
    world = tuple(float(v) for v in rng.choice([1.0, 2.0, 0.25], size=3))
    for shape in shapes:
        mesh = geo.implicit_mesh(shape, bake, world)
        if len(mesh.vertices) == 0:  # a list or an array
            continue
        assert mesh.box == _scanned(mesh), shape
        outline = geo.implicit_mesh(shape, bake, world, outline=True)
        assert (outline.collision_shape, outline.volume, outline.notes, outline.box) == (
            mesh.collision_shape,
            mesh.volume,
            mesh.notes,
            mesh.box,
        )
        lo, hi = mesh.bounds()
        assert geo.derived_primitive_matches(outline, lo, hi) == geo.derived_primitive_matches(mesh, lo, hi)


def test_derived_primitive_matches_never_matches_nan():
    mesh = geo.implicit_mesh(_shape("sphere", radius=0.5))
    lo, hi = mesh.bounds()
    assert geo.derived_primitive_matches(mesh, lo, hi)
    assert not geo.derived_primitive_matches(mesh, (math.nan, lo[1], lo[2]), hi)
    assert not geo.derived_primitive_matches(mesh, lo, (hi[0], hi[1], hi[2] * 1.01))
