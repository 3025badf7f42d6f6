"""sim.mass / sim.inertia: spec digest §9 reference values, compounds, polyhedral integration, R·D·Rᵀ."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from testkit import submodule

mass = submodule("sim.mass")
inertia = submodule("sim.inertia")
shapes = submodule("sim.shapes")
diagnostics = submodule("io.diagnostics")
transforms = submodule("io.gltf.transforms")

REL = 1e-4

# spec digest §9 at ρ = 1000: (mass, COM y, I_xx, I_yy, I_zz)
REFERENCE = {
    "box 1x2x3": (lambda: mass.box((1, 2, 3)), (6000, 0, 6500, 5000, 2500)),
    "sphere r0.5": (lambda: mass.sphere(0.5), (523.599, 0, 52.360, 52.360, 52.360)),
    "cylinder h0.5 r0.25": (lambda: mass.cylinder(0.5, 0.25), (98.175, 0, 3.5793, 3.0680, 3.5793)),
    "capsule h0.5 r0.25": (lambda: mass.capsule(0.5, 0.25), (163.625, 0, 12.3741, 4.7042, 12.3741)),
    "cone r1 h2": (lambda: mass.cone(2, 1), (2094.395, -0.5, 628.319, 628.319, 628.319)),
    "frustum 1/0.5 h2": (lambda: mass.frustum(2, 1, 0.5), (3665.191, -0.2143, 1697.021, 1217.367, 1697.021)),
    "tapered capsule 0.5/0.25 h1": (
        lambda: mass.tapered_capsule(1, 0.5, 0.25),
        (781.308, -0.2710, 158.248, 69.747, 158.248),
    ),
    # the same cases through the shape dispatcher (KHR defaults)
    "KHR default sphere": (lambda: mass.shape_mass_properties(shapes.Sphere()), (523.599, 0, 52.360, 52.360, 52.360)),
    "KHR default cylinder": (
        lambda: mass.shape_mass_properties(shapes.Cylinder()),
        (98.175, 0, 3.5793, 3.0680, 3.5793),
    ),
    "KHR default capsule": (
        lambda: mass.shape_mass_properties(shapes.Capsule()),
        (163.625, 0, 12.3741, 4.7042, 12.3741),
    ),
    "shape tapered capsule": (
        lambda: mass.shape_mass_properties(shapes.Capsule(1, 0.5, 0.25)),
        (781.308, -0.2710, 158.248, 69.747, 158.248),
    ),
    "shape frustum": (
        lambda: mass.shape_mass_properties(shapes.Cylinder(2, 1, 0.5)),
        (3665.191, -0.2143, 1697.021, 1217.367, 1697.021),
    ),
}


def _close(actual, expected, rel=REL):
    """Relative tolerance, with values reported to 4 significant figures compared at their printed precision."""
    return abs(actual - expected) <= max(rel * abs(expected), 5e-5 if abs(expected) < 1 else 0)


@pytest.mark.parametrize("case", sorted(REFERENCE))
def test_reference_values(case):
    make, (m, com_y, ixx, iyy, izz) = REFERENCE[case]
    mp = make()
    assert _close(mp.mass, m)
    assert _close(mp.center_of_mass[1], com_y)
    assert mp.center_of_mass[0] == pytest.approx(0, abs=1e-12) and mp.center_of_mass[2] == pytest.approx(0, abs=1e-12)
    assert _close(mp.inertia[0, 0], ixx) and _close(mp.inertia[1, 1], iyy) and _close(mp.inertia[2, 2], izz)
    off = mp.inertia - np.diag(np.diag(mp.inertia))
    assert np.abs(off).max() <= 1e-9 * np.abs(mp.inertia).max()


def test_cone_reference_com_is_quarter_height_below():
    assert mass.cone(2.0, 1.0).center_of_mass[1] == pytest.approx(-0.5, rel=1e-12)


def test_frustum_closed_form_matches_revolution_quadrature():
    closed = mass.frustum(2.0, 1.0, 0.5)
    numeric = mass.revolution([(-1.0, 1.0, lambda y: (0.75 - 0.25 * y) ** 2)])
    assert numeric.mass == pytest.approx(closed.mass, rel=1e-12)
    np.testing.assert_allclose(numeric.inertia, closed.inertia, rtol=1e-12, atol=1e-9)


def test_tapered_capsule_degenerates_to_larger_sphere():
    for h in (0.0, 0.1, 0.25):
        mp = mass.tapered_capsule(h, 0.5, 0.25)
        ref = mass.sphere(0.5)
        assert mp.mass == pytest.approx(ref.mass, rel=1e-12)
        np.testing.assert_allclose(mp.center_of_mass, [0, -h / 2, 0], atol=1e-12)
        np.testing.assert_allclose(mp.inertia, ref.inertia, rtol=1e-12)
    top = mass.tapered_capsule(0.2, 0.1, 0.4)
    np.testing.assert_allclose(top.center_of_mass, [0, 0.1, 0], atol=1e-12)


def test_tapered_capsule_is_continuous_at_degeneracy():
    just_above = mass.tapered_capsule(0.25 + 1e-9, 0.5, 0.25)
    assert just_above.mass == pytest.approx(mass.sphere(0.5).mass, rel=1e-6)


def test_tapered_capsule_lies_between_hull_bounds():
    # the tangent-cone hull holds more than the "equator" frustum + two hemispheres would
    h, rb, rt = 1.0, 0.5, 0.25
    mp = mass.tapered_capsule(h, rb, rt)
    naive = mass.frustum(h, rb, rt).mass + 0.5 * (mass.sphere(rb).mass + mass.sphere(rt).mass)
    assert mp.mass > naive
    assert mp.mass < mass.cylinder(h + 2 * rb, rb).mass


def test_plane_has_no_mass_and_compound_skips_it():
    assert mass.shape_mass_properties(shapes.Plane()) is None
    mp = mass.compound([(shapes.Plane(), (0, 0, 0), (0, 0, 0, 1)), (shapes.Sphere(1.0), (0, 2, 0), (0, 0, 0, 1))])
    assert mp.mass == pytest.approx(mass.sphere(1.0).mass)
    np.testing.assert_allclose(mp.center_of_mass, [0, 2, 0])


@pytest.mark.parametrize(
    "bad",
    [
        shapes.Box((1, 0, 1)),
        shapes.Sphere(-1),
        shapes.Cylinder(0.0, 1, 1),
        shapes.Capsule(1, 0, 0),
        shapes.Plane(size_x=0.0),
    ],
)
def test_bad_shapes_raise_physics_data_error(bad):
    with pytest.raises(diagnostics.PhysicsDataError) as err:
        mass.shape_mass_properties(bad)
    assert err.value.diagnostic.code == "SIM_BAD_SHAPE"


def box_mesh(size):
    """A triangulated, outward-wound box centred at the origin."""
    hx, hy, hz = np.asarray(size) / 2
    v = np.array([[x, y, z] for x in (-hx, hx) for y in (-hy, hy) for z in (-hz, hz)])
    quads = [(0, 1, 3, 2), (4, 6, 7, 5), (0, 4, 5, 1), (2, 3, 7, 6), (0, 2, 6, 4), (1, 5, 7, 3)]
    tris = [t for a, b, c, d in quads for t in ((a, b, c), (a, c, d))]
    return v, np.array(tris)


def test_mesh_integration_of_box_reference():
    v, t = box_mesh((1, 2, 3))
    mp = mass.convex_mesh(v, t)
    ref = mass.box((1, 2, 3))
    assert mp.mass == pytest.approx(6000.0, rel=1e-12)
    np.testing.assert_allclose(mp.inertia, ref.inertia, rtol=1e-12, atol=1e-9)
    flipped = mass.convex_mesh(v, t[:, ::-1])  # inward winding gives the same solid
    np.testing.assert_allclose(flipped.inertia, ref.inertia, rtol=1e-12, atol=1e-9)


def test_mesh_without_volume_is_a_diagnostic():
    with pytest.raises(diagnostics.PhysicsDataError):
        mass.convex_mesh(np.eye(3), np.array([[0, 1, 2]]))


def test_resolve_motion_khr_zero_means_infinite():
    computed = mass.box((1, 2, 3))
    r = inertia.resolve_motion(mass=0.0, inertia_diagonal=[0.0, 2.0, 0.0], computed=computed)
    assert r.inverse_mass == 0.0 and np.isinf(r.mass)
    np.testing.assert_allclose(r.inverse_inertia, np.diag([0.0, 0.5, 0.0]))
    auto = inertia.resolve_motion(computed=computed)
    assert auto.mass_auto and auto.inertia_auto and auto.mass == pytest.approx(6000)
    np.testing.assert_allclose(auto.inverse_inertia, np.diag([1 / 6500, 1 / 5000, 1 / 2500]))
    given_mass = inertia.resolve_motion(mass=6.0, computed=computed)  # density rescaled to 6 kg
    np.testing.assert_allclose(given_mass.inertia_diagonal, [6.5, 5.0, 2.5])
    locked = inertia.resolve_motion(mass=0.0, computed=computed)
    np.testing.assert_allclose(locked.inverse_inertia, 0.0)


def test_resolve_motion_omi_zero_means_automatic():
    computed = mass.box((1, 2, 3))
    r = inertia.resolve_motion(inertia_diagonal=[0, 0, 0], computed=computed, family="OMI")
    assert r.mass == 1.0 and not r.mass_auto and r.inertia_auto
    np.testing.assert_allclose(r.inertia_diagonal, [6500 / 6000, 5000 / 6000, 2500 / 6000])
    np.testing.assert_allclose(r.center_of_mass, 0.0)
    auto_mass = inertia.resolve_motion(mass=0.0, computed=computed, family="OMI")
    assert auto_mass.mass_auto and auto_mass.mass == pytest.approx(6000.0)
    explicit = inertia.resolve_motion(mass=2.0, inertia_diagonal=[1, 2, 4], computed=computed, family="OMI")
    assert not explicit.inertia_auto
    np.testing.assert_allclose(explicit.inverse_inertia, np.diag([1, 0.5, 0.25]))


def test_inverse_helpers_reject_negative_values():
    with pytest.raises(diagnostics.PhysicsDataError):
        inertia.inverse_mass(-1.0)
    with pytest.raises(diagnostics.PhysicsDataError):
        inertia.inverse_inertia([1, -1, 1])
    assert inertia.inverse_mass(float("inf")) == 0.0 and inertia.inverse_mass(4.0) == 0.25


def test_principal_axes_of_diagonal_tensor_is_identity():
    d, q = inertia.principal_axes(np.diag([5000.0, 6500.0, 2500.0]))
    np.testing.assert_allclose(d, [5000, 6500, 2500])
    np.testing.assert_allclose(q, [0, 0, 0, 1])


@pytest.mark.parametrize("scale", [5e307, 1e-300])
def test_principal_axes_of_extreme_tensors_stay_finite(scale):
    """Issue 11 item 7: the tensor is scaled before the eigen-decomposition (1e308 entries overflowed into NaN)."""
    t = scale * np.array([[2.0, 1.0, 0.0], [1.0, 2.0, 0.0], [0.0, 0.0, 1.5]])
    with np.errstate(all="raise"):
        d, q = inertia.principal_axes(t)
    np.testing.assert_allclose(sorted(d / scale), [1.0, 1.5, 3.0], rtol=1e-12)
    assert np.isfinite(q).all() and np.linalg.norm(q) == pytest.approx(1.0)


# ---------------------------------------------------------------- property tests
unit = st.floats(-1, 1, allow_nan=False)
quats = st.tuples(unit, unit, unit, unit).filter(lambda q: np.linalg.norm(q) > 0.1)
pos = st.floats(0.05, 3.0)
vec = st.tuples(*[st.floats(-3, 3)] * 3)
shape_st = st.one_of(
    st.builds(shapes.Box, st.tuples(pos, pos, pos)),
    st.builds(shapes.Sphere, pos),
    st.builds(shapes.Cylinder, pos, pos, pos),
    st.builds(shapes.Capsule, pos, pos, pos),
)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(shape_st, vec, quats, st.tuples(pos, pos, pos)), min_size=1, max_size=4))
def test_compound_equals_sum_of_parts(children):
    total = mass.compound(children)
    parts = [mass.shape_mass_properties(s).transformed(t, q, sc) for s, t, q, sc in children]
    m = sum(p.mass for p in parts)
    com = sum(p.mass * p.center_of_mass for p in parts) / m
    # parallel-axis theorem written in inertia form: I = Σ I_i + m_i (|d|² E − d dᵀ)
    expected = sum(
        p.inertia + p.mass * (np.dot(dd, dd) * np.eye(3) - np.outer(dd, dd))
        for p in parts
        for dd in [p.center_of_mass - com]
    )
    assert total.mass == pytest.approx(m, rel=1e-12)
    np.testing.assert_allclose(total.center_of_mass, com, rtol=1e-9, atol=1e-9)
    np.testing.assert_allclose(total.inertia, expected, rtol=1e-9, atol=1e-9 * np.abs(expected).max())
    heavy = mass.compound(children, mass=5.0)
    assert heavy.mass == pytest.approx(5.0) and np.allclose(heavy.inertia, total.inertia * 5.0 / m)


@settings(max_examples=60, deadline=None)
@given(st.floats(0.1, 3), st.floats(0.05, 2), st.floats(1e-7, 1e-4))
def test_frustum_tends_to_cylinder(h, r, eps):
    f, c = mass.frustum(h, r, r * (1 + eps)), mass.cylinder(h, r)
    assert f.mass == pytest.approx(c.mass, rel=5 * eps)
    np.testing.assert_allclose(np.diag(f.inertia), np.diag(c.inertia), rtol=10 * eps)
    assert abs(f.center_of_mass[1]) <= h * eps


@settings(max_examples=60, deadline=None)
@given(st.floats(0.0, 3), st.floats(0.05, 2))
def test_tapered_capsule_with_equal_radii_is_capsule(h, r):
    t, c = mass.tapered_capsule(h, r, r), mass.capsule(h, r)
    assert t.mass == pytest.approx(c.mass, rel=1e-12)
    np.testing.assert_allclose(t.inertia, c.inertia, rtol=1e-10, atol=1e-12 * c.mass)
    near = mass.tapered_capsule(h + 0.1, r, r * (1 + 1e-7))
    assert near.mass == pytest.approx(mass.capsule(h + 0.1, r).mass, rel=1e-6)


@settings(max_examples=60, deadline=None)
@given(st.tuples(pos, pos, pos), quats, vec)
def test_mesh_integration_of_transformed_box_equals_box_formula(size, q, t):
    v, tris = box_mesh(size)
    r = transforms.quat_to_matrix(np.array(q))
    mp = mass.convex_mesh(v @ r.T + np.array(t), tris)
    ref = mass.box(size).transformed(t, q)
    assert mp.mass == pytest.approx(ref.mass, rel=1e-10)
    np.testing.assert_allclose(mp.center_of_mass, t, atol=1e-9)
    np.testing.assert_allclose(mp.inertia, ref.inertia, rtol=1e-8, atol=1e-10 * ref.mass)


@settings(max_examples=100, deadline=None)
@given(st.tuples(pos, pos, pos), quats)
def test_principal_axes_round_trip(diag, q):
    tensor = inertia.tensor_from_principal(diag, q)
    d2, q2 = inertia.principal_axes(tensor)
    assert np.linalg.norm(q2) == pytest.approx(1.0) and q2[3] >= 0
    r2 = transforms.quat_to_matrix(q2)
    assert np.linalg.det(r2) == pytest.approx(1.0)
    np.testing.assert_allclose(inertia.tensor_from_principal(d2, q2), tensor, atol=1e-9 * max(diag))
    np.testing.assert_allclose(sorted(d2), sorted(diag), rtol=1e-9, atol=1e-12)


@settings(max_examples=100, deadline=None)
@given(st.tuples(pos, pos, pos), st.tuples(unit, unit, unit), st.floats(0.0, 0.5))
def test_principal_axes_keep_axis_order_for_small_rotations(diag, axis, angle):
    """Stable ordering: for orientations within ~30° of identity the diagonal comes back in its own order."""
    n = np.linalg.norm(axis)
    q = np.array([0, 0, 0, 1.0]) if n < 1e-3 else np.r_[np.asarray(axis) / n * np.sin(angle / 2), np.cos(angle / 2)]
    d2, q2 = inertia.principal_axes(inertia.tensor_from_principal(diag, q))
    if min(abs(a - b) for a, b in [(diag[0], diag[1]), (diag[1], diag[2]), (diag[0], diag[2])]) > 1e-3:
        np.testing.assert_allclose(d2, diag, rtol=1e-9)
        np.testing.assert_allclose(q2, q if q[3] >= 0 else -q, atol=1e-6)
