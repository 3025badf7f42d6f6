"""The proxy mesh builder's surface of revolution (``shapes_to_blender._revolve``) gives exactly the vertices and
faces of the straightforward construction (one ``math.cos`` / ``math.sin`` per vertex), for every profile kind."""

from __future__ import annotations

import itertools
import math
import random
import struct

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from testkit import submodule

stb = submodule("io.mapping.shapes_to_blender")


def _reference(profile, segments):
    verts, rings = [], []
    for rho, z in profile:
        if rho <= 1e-12:
            if rings and isinstance(rings[-1], int) and abs(verts[rings[-1]][2] - z) < 1e-12:
                continue
            verts.append((0.0, 0.0, float(z)))
            rings.append(len(verts) - 1)
            continue
        start = len(verts)
        for k in range(segments):
            a = 2.0 * math.pi * k / segments
            verts.append((rho * math.cos(a), rho * math.sin(a), float(z)))
        rings.append(list(range(start, start + segments)))
    faces = []
    for lower, upper in itertools.pairwise(rings):
        if isinstance(lower, int) and isinstance(upper, int):
            continue
        for k in range(segments):
            k1 = (k + 1) % segments
            if isinstance(lower, int):
                faces.append((lower, upper[k1], upper[k]))
            elif isinstance(upper, int):
                faces.append((lower[k], lower[k1], upper))
            else:
                faces.append((lower[k], lower[k1], upper[k1], upper[k]))
    return verts, faces


def _profiles():
    rng = random.Random(7)
    yield stb.sphere_profile(0.5)
    yield stb.sphere_profile(1e-13)
    yield stb.capsule_profile(2.0, 0.5, 0.5)
    yield stb.capsule_profile(1.0, 0.7, 0.2)
    yield stb.capsule_profile(0.1, 0.2, 0.7)
    yield [(0.0, -1.0), (0.5, -1.0), (0.5, 1.0), (0.0, 1.0)]  # cylinder
    yield [(0.0, -1.0), (0.5, -1.0), (0.0, 1.0), (0.0, 1.0)]  # cone: repeated pole
    yield [(0.0, 0.0), (0.0, 0.0)]  # two poles only
    for _ in range(40):
        h, rb, rt = rng.uniform(0, 3), rng.uniform(0, 2), rng.uniform(0, 2)
        yield stb.capsule_profile(h, rb, rt)
        yield [(0.0, -h / 2), (rb, -h / 2), (rt, h / 2), (0.0, h / 2)]


@pytest.mark.parametrize("segments", [4, stb.SEGMENTS, 7])
def test_revolve_equals_reference(segments):
    for profile in _profiles():
        assert stb._revolve(profile, segments) == _reference(profile, segments)


def _sphere_profile_numpy(radius, rings=stb.SPHERE_RINGS):
    """``sphere_profile`` as it was with numpy (the reference of the plain-Python one)."""
    lats = np.linspace(-math.pi / 2, math.pi / 2, rings + 1)
    return [(radius * math.cos(a), radius * math.sin(a)) for a in lats]


def _capsule_profile_numpy(height, r_bottom, r_top):
    """``capsule_profile`` as it was with np.linspace / np.union1d."""
    h = max(float(height), 0.0)
    if h <= abs(r_bottom - r_top):
        r = max(r_bottom, r_top)
        c = -h / 2 if r_bottom >= r_top else h / 2
        return [(rho, z + c) for rho, z in _sphere_profile_numpy(r)]
    tangent = math.asin((r_bottom - r_top) / h) if h > 0 else 0.0
    low = np.linspace(-math.pi / 2, tangent, stb.CAP_RINGS + 1)
    high = np.linspace(tangent, math.pi / 2, stb.CAP_RINGS + 1)[1:]
    low = np.union1d(low, [0.0]) if tangent > 0 else low
    high = np.union1d(high, [0.0]) if tangent < 0 else high
    profile = [(r_bottom * math.cos(a), -h / 2 + r_bottom * math.sin(a)) for a in low]
    profile += [(r_top * math.cos(a), h / 2 + r_top * math.sin(a)) for a in high]
    return profile


def _bits(values):
    """Floats as their exact bit patterns (tells −0.0 from 0.0 and compares NaN)."""
    return [struct.pack("<d", float(v)) for v in values]


def _same_profile(a, b):
    return len(a) == len(b) and all(_bits(p) == _bits(q) for p, q in zip(a, b, strict=True))


@settings(max_examples=300, deadline=None)
@given(st.floats(0, 1e6), st.integers(1, 40))
def test_sphere_profile_is_the_numpy_one(radius, rings):
    assert _same_profile(stb.sphere_profile(radius, rings), _sphere_profile_numpy(radius, rings))


sizes = st.one_of(st.floats(0, 1e4), st.sampled_from([0.0, 1e-13, 0.5, 1.0, 2.0]))


@settings(max_examples=600, deadline=None)
@given(sizes, sizes, sizes)
def test_capsule_profile_is_the_numpy_one(height, r_bottom, r_top):
    assert _same_profile(stb.capsule_profile(height, r_bottom, r_top), _capsule_profile_numpy(height, r_bottom, r_top))


def test_capsule_profile_fixed_cases():
    for h, rb, rt in [(2.0, 0.5, 0.5), (1.0, 0.7, 0.2), (0.1, 0.2, 0.7), (1.0, 0.2, 0.7), (0.0, 0.0, 0.0), (3, 1, 0)]:
        assert _same_profile(stb.capsule_profile(h, rb, rt), _capsule_profile_numpy(h, rb, rt))


def test_revolve_faces_are_cached_and_not_shared():
    """The faces of one layout are built once; each mesh gets its own list (changing it changes no other mesh)."""
    profile = stb.sphere_profile(0.5)
    _, faces = stb._revolve(profile)
    faces.clear()
    assert stb._revolve(profile) == _reference(profile, stb.SEGMENTS)
    layout = stb._revolve_layout((True, False, True), 4)
    assert layout is stb._revolve_layout((True, False, True), 4) and isinstance(layout.faces, tuple)


@pytest.mark.parametrize("segments", [4, stb.SEGMENTS, 7])
def test_face_layout_buffers(segments):
    """The cached buffers are Blender's ``loop_start`` / ``corner_vert`` of the faces."""
    for profile in _profiles():
        verts, layout = stb._revolve_parts(profile, segments)
        faces = list(layout.faces)
        starts = [sum(len(f) for f in faces[:k]) for k in range(len(faces))]
        assert list(layout.loop_starts) == starts
        assert list(layout.corner_verts) == [v for f in faces for v in f]
        assert all(0 <= v < len(verts) for v in layout.corner_verts)
    empty = stb.FaceLayout.of([])
    assert (empty.faces, list(empty.loop_starts), list(empty.corner_verts)) == ((), [], [])


def test_implicit_meshes_carry_their_layout():
    model = submodule("io.gltf.model")
    shapes = [
        model.Shape(type=model.BOX, params=model.BoxShape(size=(1.0, 2.0, 3.0))),
        model.Shape(type=model.SPHERE, params=model.SphereShape(radius=0.5)),
        model.Shape(type=model.CAPSULE, params=model.CapsuleShape(height=1.0, radius_top=0.3, radius_bottom=0.2)),
        model.Shape(type=model.CYLINDER, params=model.CylinderShape(height=1.0, radius_top=0.0, radius_bottom=0.3)),
        model.Shape(type=model.PLANE, params=model.PlaneShape(size_x=1.0, size_z=2.0, double_sided=True)),
    ]
    for shape in shapes:
        mesh = stb.implicit_mesh(shape, (2.0, 1.0, 1.0))
        assert mesh.layout is not None and mesh.faces == list(mesh.layout.faces)


@pytest.mark.parametrize("segments", [4, stb.SEGMENTS, 7])
def test_face_layout_edges_are_numbered_as_blender_numbers_them(segments):
    """``FaceLayout`` edges: every side of every face once, numbered when first met walking each face's corners from
    the side that ends at its first corner (``mesh_calc_edges``); corner i's edge runs from corner i to i + 1."""
    for profile in _profiles():
        faces = list(stb._revolve_parts(profile, segments)[1].faces)
        layout = stb.FaceLayout.of(faces)
        expected: dict = {}
        for face in faces:
            for k in range(len(face)):
                a, b = face[k - 1], face[k]
                expected.setdefault((min(a, b), max(a, b)), len(expected))
        pairs = list(zip(layout.edge_verts[::2], layout.edge_verts[1::2], strict=True))
        assert pairs == list(expected)
        corners = [(face[k], face[(k + 1) % len(face)]) for face in faces for k in range(len(face))]
        assert [pairs[e] for e in layout.corner_edges] == [(min(a, b), max(a, b)) for a, b in corners]
        assert list(layout.face_flags) == [True] * len(faces)


def test_every_proxy_layout_is_below_blenders_threaded_edge_numbering():
    """Blender numbers the edges of meshes of 1,000 faces or more per thread: every layout a proxy can have (the
    longest profile is a tapered capsule's, with its equator ring) stays below that."""
    model = submodule("io.gltf.model")
    rng = random.Random(3)
    shapes = [model.Shape(type=model.SPHERE, params=model.SphereShape(radius=0.5))]
    for _ in range(200):
        h, rb, rt = rng.uniform(0, 3), rng.uniform(0, 2), rng.uniform(0, 2)
        shapes.append(
            model.Shape(type=model.CAPSULE, params=model.CapsuleShape(height=h, radius_top=rt, radius_bottom=rb))
        )
        shapes.append(
            model.Shape(type=model.CYLINDER, params=model.CylinderShape(height=h, radius_top=rt, radius_bottom=rb))
        )
    largest = max(len(stb.implicit_mesh(shape).faces) for shape in shapes)
    assert 500 < largest <= stb.MAX_SINGLE_MAP_FACES


def test_revolved_vertices_are_a_float64_array():
    verts, _ = stb._revolve_parts(stb.sphere_profile(0.5))
    assert isinstance(verts, np.ndarray) and verts.dtype == np.float64 and verts.shape == (482, 3)
