"""io.mapping.mass_to_gltf: Bullet's mass properties of Blender collision shapes (bpy-free).

Exact shapes are checked against ``sim.mass``; the approximations against the box of the bounds and against values
measured in Blender 5.0 with a hinged pendulum (period → inertia; the Blender-tier ``test_export_mass.py`` measures
them the same way): m = 1 kg, default margins.
"""

from __future__ import annotations

import numpy as np
import pytest

from testkit import submodule

mass_map = submodule("io.mapping.mass_to_gltf")
sim_mass = submodule("sim.mass")

BOUNDS = ((-0.5, -1.0, -1.5), (0.5, 1.0, 1.5))  # a 1 × 2 × 3 m mesh (Blender axes)


def _z_up(mp):
    """sim.mass quadrics stand on +Y; Blender's on +Z: swap the Y and Z diagonal entries."""
    d = np.diag(mp.inertia)
    return np.array([d[0], d[2], d[1]])


def test_box_and_sphere_are_exact():
    box = mass_map.bullet_inertia("BOX", 2.0, *BOUNDS)
    np.testing.assert_allclose(box, np.diag(sim_mass.box((1, 2, 3)).with_mass(2.0).inertia), rtol=1e-12)
    sphere = mass_map.bullet_inertia("SPHERE", 2.0, *BOUNDS)  # radius = half the largest extent
    np.testing.assert_allclose(sphere, np.diag(sim_mass.sphere(1.5).with_mass(2.0).inertia), rtol=1e-12)


def test_cylinder_is_exact_about_blender_z():
    lo, hi = (-0.4, -0.3, -0.75), (0.4, 0.3, 0.75)  # radius = half the larger X/Y extent
    got = mass_map.bullet_inertia("CYLINDER", 1.0, lo, hi)
    np.testing.assert_allclose(got, _z_up(sim_mass.cylinder(1.5, 0.4).with_mass(1.0)), rtol=1e-12)
    np.testing.assert_allclose(got, (0.2275, 0.2275, 0.08), rtol=1e-12)  # measured in Blender


def test_capsule_and_hull_are_the_box_of_their_bounds():
    capsule = mass_map.bullet_inertia("CAPSULE", 1.0, (-0.3, -0.3, -1.0), (0.3, 0.3, 1.0))
    np.testing.assert_allclose(capsule, np.diag(sim_mass.box((0.6, 0.6, 2.0)).with_mass(1.0).inertia), rtol=1e-12)
    exact = _z_up(sim_mass.capsule(1.4, 0.3).with_mass(1.0))
    assert not np.allclose(capsule, exact, rtol=1e-2)  # the approximation an engine would not make
    off_centre = ((0.0, -1.0, -1.5), (1.0, 1.0, 1.5))  # where the box sits does not matter
    hull = mass_map.bullet_inertia("CONVEX_HULL", 1.0, *off_centre)
    np.testing.assert_allclose(hull, (1.0833333, 0.8333333, 0.4166667), rtol=1e-6)  # measured in Blender
    grown = mass_map.bullet_inertia("CONVEX_HULL", 1.0, *BOUNDS, margin=0.1)  # "Collision Margin" enabled
    np.testing.assert_allclose(grown, (1.2566667, 0.9733333, 0.5233333), rtol=1e-6)  # measured in Blender


def test_cone_box_reaches_two_margins_beyond_the_cone():
    lo, hi = (-0.5, -0.5, -1.0), (0.5, 0.5, 1.0)
    np.testing.assert_allclose(
        mass_map.bullet_inertia("CONE", 1.0, lo, hi, margin=0.04), (0.5009, 0.5009, 0.2243), atol=1e-4
    )
    np.testing.assert_allclose(
        mass_map.bullet_inertia("CONE", 1.0, lo, hi, margin=0.1), (0.6433, 0.6433, 0.3267), atol=1e-4
    )
    assert mass_map.effective_margin("CONE", False, 0.1) == 0.1  # Blender uses the object's margin for cones
    assert mass_map.effective_margin("CONVEX_HULL", False, 0.1) == 0.0  # embedded
    assert mass_map.effective_margin("COMPOUND", False, 0.1) == mass_map.BLENDER_MARGIN


def test_mesh_is_point_masses_at_the_vertices():
    corners = [(x * 0.5, y * 1.0, z * 1.5) for x in (-1, 1) for y in (-1, 1) for z in (-1, 1)]
    np.testing.assert_allclose(mass_map.bullet_inertia("MESH", 1.0, *BOUNDS, vertices=corners), (3.25, 2.5, 1.25))


def _child(kind, size, translation=(0, 0, 0), rotation=None, margin=0.0):
    half = np.asarray(size, dtype=float) / 2
    rotation = np.eye(3) if rotation is None else np.asarray(rotation, dtype=float)
    return mass_map.Child(kind, tuple(-half), tuple(half), rotation, np.asarray(translation, float), margin)


def test_compound_is_the_box_of_the_children_aabb_plus_margin():
    aside = [_child("BOX", (1, 1, 1), (1, 0, 0))]
    np.testing.assert_allclose(mass_map.compound_inertia(1.0, aside), (0.1944, 0.1944, 0.1944), atol=1e-4)
    c, s = np.cos(np.radians(30)), np.sin(np.radians(30))
    turned = [
        _child("BOX", (1, 2, 1), (1, 0, 0), [[c, -s, 0], [s, c, 0], [0, 0, 1]]),
        _child("SPHERE", (1, 1, 1), (0, 0, 1)),
    ]
    np.testing.assert_allclose(mass_map.compound_inertia(1.0, turned), (0.806, 0.8868, 0.9717), atol=1e-4)
    cone = [_child("CONE", (1, 1, 2), margin=0.04)]
    np.testing.assert_allclose(mass_map.compound_inertia(1.0, cone), (0.5463, 0.5463, 0.2563), atol=1e-4)


def test_written_values_only_where_an_engine_would_differ():
    assert mass_map.blender_mass_values("BOX", 1.0, *BOUNDS) == (None, None)
    assert mass_map.blender_mass_values("CYLINDER", 1.0, *BOUNDS) == (None, None)
    com, inertia = mass_map.blender_mass_values("CAPSULE", 1.0, *BOUNDS)
    assert com is None
    assert inertia == pytest.approx((1.083333, 0.6666667, 1.083333))  # box (2, 2, 3) in glTF axes: (x, z, y)
    com, inertia = mass_map.blender_mass_values("CONE", 1.0, (-0.5, -0.5, -1.0), (0.5, 0.5, 1.0), margin=0.04)
    assert com == (0.0, 0.0, 0.0)  # an engine puts a cone's centre of mass a quarter height below its middle
    assert inertia == pytest.approx((0.5009, 0.2243, 0.5009), abs=1e-4)


def test_hull_centre_of_mass_written_unless_symmetric_about_the_origin():
    centred = [(x * 0.5, y, z * 1.5) for x in (-1, 1) for y in (-1, 1) for z in (-1, 1)]
    aside = [(x + 0.5, y, z) for x, y, z in centred]
    assert mass_map.blender_mass_values("CONVEX_HULL", 1.0, *BOUNDS, vertices=centred)[0] is None
    assert mass_map.blender_mass_values("CONVEX_HULL", 1.0, (0, -1, -1.5), (1, 1, 1.5), vertices=aside)[0] == (0, 0, 0)


def test_compound_centre_of_mass_from_the_children():
    aside = [_child("BOX", (1, 1, 1), (1, 0, 0))]
    assert mass_map.blender_mass_values("COMPOUND", 1.0, children=aside)[0] == (0.0, 0.0, 0.0)
    balanced = [_child("BOX", (1, 1, 1), (1, 0, 0)), _child("BOX", (1, 1, 1), (-1, 0, 0))]
    com, inertia = mass_map.blender_mass_values("COMPOUND", 1.0, children=balanced, margin=0.04)
    assert com is None
    assert inertia is not None
