"""Panel read-outs (ui/readout.py, bpy-free): stored shapes → sim shapes, Blender-derived primitives, mass
properties in Blender axes, filter and drive summaries."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from numpy.testing import assert_allclose

from testkit import submodule

ro = submodule("ui.readout")
shapes = submodule("sim.shapes")
mass = submodule("sim.mass")
drives = submodule("sim.drives")


def test_shape_from_json_reads_every_implicit_type_with_defaults():
    assert ro.shape_from_json('{"type": "box", "box": {"size": [1, 2, 3]}}') == shapes.Box((1.0, 2.0, 3.0))
    assert ro.shape_from_json({"type": "box"}) == shapes.Box((1.0, 1.0, 1.0))
    assert ro.shape_from_json({"type": "sphere", "sphere": {"radius": 2}}) == shapes.Sphere(2.0)
    capsule = ro.shape_from_json({"type": "capsule", "capsule": {"height": 1, "radiusBottom": 0.5, "radiusTop": 0.2}})
    assert capsule == shapes.Capsule(1.0, 0.5, 0.2)
    assert ro.shape_from_json({"type": "cylinder", "cylinder": {}}) == shapes.Cylinder(0.5, 0.25, 0.25)
    assert ro.shape_from_json({"type": "plane", "plane": {"sizeX": 2, "doubleSided": True}}) == shapes.Plane(
        2.0, None, True
    )


@pytest.mark.parametrize(
    "text",
    [
        "",
        "not json",
        "[]",
        '{"type": "mesh", "mesh": {"mesh": 0}}',
        '{"type": "custom"}',
        '{"type": "sphere", "sphere": {"radius": -1}}',
        '{"type": "sphere", "sphere": {"radius": "big"}}',
        '{"type": "box", "box": {"size": [1, 2]}}',
        '{"type": "box", "box": {"size": [1, 0, 2]}}',
        '{"type": "capsule", "capsule": {"radiusTop": 0, "radiusBottom": 0}}',
    ],
)
def test_shape_from_json_returns_none_for_unusable_data(text):
    assert ro.shape_from_json(text) is None


def test_describe_shape():
    assert ro.describe_shape(shapes.Box((1.0, 2.0, 3.0))) == "Box 1 × 2 × 3 m"
    assert ro.describe_shape(shapes.Capsule(1.0, 0.5, 0.25)) == "Capsule h 1 m, r 0.5/0.25 m"
    assert ro.describe_shape(shapes.Plane()) == "Plane infinite"
    assert ro.describe_shape(None) == "no implicit shape"


def test_blender_primitives_follow_blenders_bounds_rules():
    lo, hi = (-0.5, -1.0, -2.0), (0.5, 1.0, 2.0)  # extents 1 × 2 × 4 (Blender axes)
    box, q = ro.blender_primitive("BOX", lo, hi)
    assert box == shapes.Box((1.0, 4.0, 2.0)) and q == ro.SHAPE_TO_BLENDER  # shape y = Blender z
    assert ro.blender_primitive("SPHERE", lo, hi)[0] == shapes.Sphere(2.0)
    assert ro.blender_primitive("CAPSULE", lo, hi)[0] == shapes.Capsule(2.0, 1.0, 1.0)  # 4 − 2r
    assert ro.blender_primitive("CYLINDER", lo, hi)[0] == shapes.Cylinder(4.0, 1.0, 1.0)
    assert ro.blender_primitive("CONE", lo, hi)[0] == shapes.Cylinder(4.0, 1.0, 0.0)
    assert ro.blender_primitive("CONVEX_HULL", lo, hi) is None
    assert ro.blender_primitive("BOX", (0, 0, 0), (1, 0, 1)) is None  # flat


def test_box_mass_readout_in_blender_axes_matches_closed_form():
    # Box 1 × 2 × 4 (Blender x, y, z) at density 500, scaled 2 along Blender x.
    box, q = ro.blender_primitive("BOX", (-0.5, -1.0, -2.0), (0.5, 1.0, 2.0))
    part = ro.placed(box, q, (2.0, 1.0, 1.0))
    out = ro.mass_readout([part], 500.0)
    m = 500.0 * 2.0 * 2.0 * 4.0
    assert out.mass == pytest.approx(m)
    assert out.volume == pytest.approx(16.0)
    expected = np.array([m * (4 + 16) / 12, m * (4 + 16) / 12, m * (4 + 4) / 12])  # dims (2, 2, 4)
    assert_allclose(np.diag(out.tensor), expected, rtol=1e-12)
    assert_allclose(out.center_of_mass, 0.0, atol=1e-12)


def test_cone_axis_is_blender_z_and_com_sits_below_mid_height():
    cone, q = ro.blender_primitive("CONE", (-1, -1, -1), (1, 1, 1))
    out = ro.mass_readout([ro.placed(cone, q, (1, 1, 1))], 1000.0)
    ref = mass.cone(2.0, 1.0)
    assert out.mass == pytest.approx(ref.mass)
    assert out.center_of_mass[2] == pytest.approx(ref.center_of_mass[1])  # shape y → Blender z
    assert out.center_of_mass[2] < 0 and abs(out.center_of_mass[1]) < 1e-12
    assert out.tensor[2, 2] == pytest.approx(ref.inertia[1, 1])  # axial inertia about Blender z


def test_compound_parts_use_the_parallel_axis_theorem():
    sphere = shapes.Sphere(0.5)
    a = ro.placed(sphere, ro.IDENTITY, (1, 1, 1), translation=(1.0, 0.0, 0.0))
    b = ro.placed(sphere, ro.IDENTITY, (1, 1, 1), translation=(-1.0, 0.0, 0.0))
    out = ro.mass_readout([a, b], 1000.0)
    one = mass.sphere(0.5)
    assert out.mass == pytest.approx(2 * one.mass)
    assert_allclose(out.center_of_mass, 0.0, atol=1e-12)
    assert out.inertia_diagonal[0] == pytest.approx(2 * one.inertia[0, 0])
    assert sorted(out.inertia_diagonal)[-1] == pytest.approx(2 * (one.inertia[1, 1] + one.mass))
    assert out.parts == 2


def test_planes_have_no_mass_and_nothing_gives_none():
    plane = ro.placed(shapes.Plane(), ro.SHAPE_TO_BLENDER, (1, 1, 1))
    assert ro.mass_readout([plane], 1000.0) is None
    assert ro.mass_readout([], 1000.0) is None


def test_mesh_part_equals_the_closed_form_box():
    v = np.array([[x, y, z] for x in (-1, 1) for y in (-0.5, 0.5) for z in (-0.25, 0.25)], dtype=float)
    faces = [(0, 1, 3), (0, 3, 2), (4, 6, 7), (4, 7, 5), (0, 4, 5), (0, 5, 1)]
    faces += [(2, 3, 7), (2, 7, 6), (0, 2, 6), (0, 6, 4), (1, 5, 7), (1, 7, 3)]
    out = ro.mass_readout([ro.mesh_part(v, faces, (1, 1, 1))], 1000.0)
    ref = mass.box((2.0, 1.0, 0.5))
    assert out.mass == pytest.approx(ref.mass)
    assert_allclose(out.tensor, ref.inertia, rtol=1e-9, atol=1e-9)


@settings(max_examples=60, deadline=None)
@given(
    st.tuples(*[st.floats(0.1, 3.0)] * 3),
    st.tuples(*[st.floats(0.2, 2.0)] * 3),
    st.tuples(*[st.floats(-1.0, 1.0)] * 4).filter(lambda q: sum(c * c for c in q) > 0.01),
)
def test_rotated_parts_keep_mass_and_principal_moments(extents, scale, quat):
    """A box's principal moments do not depend on where the body frame puts it (rotation invariance)."""
    q = np.asarray(quat) / np.linalg.norm(quat)
    box, local = ro.blender_primitive("BOX", [-e / 2 for e in extents], [e / 2 for e in extents])
    still = ro.mass_readout([ro.placed(box, local, scale)], 800.0)
    turned = ro.mass_readout([ro.placed(box, local, scale, rotation=tuple(q))], 800.0)
    assert turned.mass == pytest.approx(still.mass, rel=1e-9)
    assert_allclose(sorted(turned.inertia_diagonal), sorted(still.inertia_diagonal), rtol=1e-7)
    dims = np.array(extents) * np.array(scale)
    assert still.mass == pytest.approx(800.0 * dims.prod(), rel=1e-9)


def test_filter_summary_follows_the_subset_rule():
    flt = ro.filter_from_texts('["a"]', '["b"]', "")
    assert ro.filter_summary(flt) == {"self": False, "unfiltered": False}
    flt = ro.filter_from_texts('["a"]', "", '["a"]')
    assert ro.filter_summary(flt) == {"self": False, "unfiltered": True}
    flt = ro.filter_from_texts('["a"]', "", "")
    assert ro.filter_summary(flt) == {"self": True, "unfiltered": True}
    with pytest.raises(ValueError):
        ro.filter_from_texts("[1, 2]", "", "")
    with pytest.raises(ValueError):
        ro.filter_from_texts("{", "", "")


def test_combined_material_values_use_the_precedence_rule():
    mat = ro.material_from_values(0.9, 0.4, 0.5, "minimum", "NONE")
    assert mat.restitution_combine is None
    same = ro.combined_with(mat, mat)
    assert same["dynamicFriction"] == pytest.approx(0.4) and same["restitution"] == pytest.approx(0.5)
    default = ro.combined_with(mat, None)  # default 0.6 / 0.6 / 0; min wins for friction, average for restitution
    assert default["dynamicFriction"] == pytest.approx(0.4)
    assert default["restitution"] == pytest.approx(0.25)


def test_drive_readout_matches_the_closed_form_underdamped_spring():
    k, c, m = 100.0, 4.0, 2.0
    out = ro.drive_readout(k, c, 1.0, None, "force", m)
    ref = drives.settle_preview(0.0, 0.0, stiffness=k, damping=c, position_target=1.0, mass=m)
    assert out.regime == "underdamped" and out.target == pytest.approx(1.0)
    assert out.settle_time == pytest.approx(ref.settle_time)
    zeta = c / (2 * math.sqrt(k * m))
    assert out.overshoot_ratio == pytest.approx(math.exp(-math.pi * zeta / math.sqrt(1 - zeta * zeta)), rel=1e-6)


def test_drive_readout_edge_cases():
    assert ro.drive_readout(10.0, 1.0, 1.0, None, "force", math.inf) is None  # both sides immovable
    accel = ro.drive_readout(10.0, 2 * math.sqrt(10.0), 0.5, None, "acceleration", math.inf)
    assert accel.regime == "critical" and accel.overshoot == pytest.approx(0.0, abs=1e-9)
    free = ro.drive_readout(0.0, 0.0, None, None, "force", 1.0)
    assert free.target_kind == "none" and free.settle_time is None
    velocity = ro.drive_readout(0.0, 2.0, None, 3.0, "force", 1.0)
    assert velocity.target_kind == "velocity" and velocity.target == pytest.approx(3.0)
    assert velocity.settle_time == pytest.approx(math.log(3.0 / 1e-3) / 2.0)  # v' = −(c/m)(v − u)


def test_shape_json_round_trip_of_the_importers_form():
    data = {"type": "capsule", "capsule": {"height": 0.8, "radiusTop": 0.1, "radiusBottom": 0.3}}
    shape = ro.shape_from_json(json.dumps(data))
    assert shape == shapes.Capsule(0.8, 0.3, 0.1)


def test_read_outs_show_no_rounding_noise():
    """Two boxes placed symmetrically about the origin: the sum of their moments is 5.6e-18, -2.8e-18, not 0; the
    panel showed "Centre of mass 5.551e-18, -2.776e-18, 0". Values below 1e-9 of the read-out's own scale are 0."""
    box = ro.Box((1.0, 0.5, 0.25))
    q = (0.0, math.sin(0.35), 0.0, math.cos(0.35))
    parts = [ro.placed(box, q, (1, 1, 1), (0.3, 0.1, 0.0)), ro.placed(box, q, (1, 1, 1), (-0.3, -0.1, 0.0))]
    out = ro.mass_readout(parts, 1000.0)
    assert out.center_of_mass == (0.0, 0.0, 0.0)
    assert all(math.copysign(1.0, c) == 1.0 for c in out.center_of_mass)  # no "-0"
    assert "e-" not in "{:.4g}, {:.4g}, {:.4g}".format(*out.center_of_mass)
    assert ro.without_noise([1e-12, -3.0, -0.0], 2.0) == (0.0, -3.0, 0.0)
    assert ro.without_noise([1e-6], 2.0) == (1e-6,)  # small but real: kept
