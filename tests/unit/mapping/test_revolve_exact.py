"""The proxy mesh builder's surface of revolution (``shapes_to_blender._revolve``) gives exactly the vertices and
faces of the straightforward construction (one ``math.cos`` / ``math.sin`` per vertex), for every profile kind."""

from __future__ import annotations

import itertools
import math
import random

import pytest

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
