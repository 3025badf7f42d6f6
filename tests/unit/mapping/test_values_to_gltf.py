"""io.export_mapping: Blender values → model values (axes, shapes, filters, joints), bpy-free."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from testkit import submodule

mapping = submodule("io.mapping.values_to_gltf")
axes = submodule("io.mapping.axes")
joints = submodule("io.mapping.joints_to_gltf")
shape_geometry = submodule("io.mapping.shapes_to_blender")
model = submodule("io.gltf.model")
joint_mapping = submodule("io.mapping.joints_to_blender")


@pytest.mark.parametrize(
    ("shape", "blender"),
    [
        (model.Shape(type="box", params=model.BoxShape(size=(1.0, 2.0, 3.0))), "BOX"),
        (model.Shape(type="sphere", params=model.SphereShape(radius=0.75)), "SPHERE"),
        (
            model.Shape(type="capsule", params=model.CapsuleShape(height=1.5, radius_top=0.3, radius_bottom=0.3)),
            "CAPSULE",
        ),
        (
            model.Shape(type="cylinder", params=model.CylinderShape(height=2.0, radius_top=0.4, radius_bottom=0.4)),
            "CYLINDER",
        ),
        (
            model.Shape(type="cylinder", params=model.CylinderShape(height=2.0, radius_top=0.0, radius_bottom=0.5)),
            "CONE",
        ),
    ],
)
def test_derived_shape_is_the_inverse_of_the_import_proxy(shape, blender):
    proxy = shape_geometry.implicit_mesh(shape)
    assert proxy.collision_shape == blender
    derived = mapping.derive_shape(blender, *proxy.bounds())
    assert derived.type == shape.type
    assert mapping.shapes_close(derived, shape, rel=1e-9)


def test_non_primitives_have_no_derived_shape_and_json_round_trips():
    assert mapping.derive_shape("CONVEX_HULL", (0, 0, 0), (1, 1, 1)) is None
    shape = model.Shape(type="plane", params=model.PlaneShape(size_x=2.0, size_z=None, double_sided=True), name="p")
    assert mapping.shape_from_json(shape_geometry.shape_to_json(shape)) == shape
    assert mapping.shape_from_json({"type": "custom_shape"}).params is None
    assert mapping.shape_from_json([]) is None


def test_attachment_frame_is_the_pivot_in_the_parent_in_gltf_axes():
    parent = np.eye(4)
    parent[:3, 3] = (1.0, 2.0, 3.0)
    pivot = np.eye(4)
    pivot[:3, 3] = (1.0, 2.0, 4.0)  # 1 m above the parent (Blender Z) = glTF +Y
    frame = mapping.attachment_frame(parent, pivot)
    assert frame.translation == pytest.approx((0.0, 1.0, 0.0))
    # frame axes = the pivot's Blender axes expressed in glTF: glTF world of the frame = K @ pivot
    rot = joint_mapping.permutation_matrix((0, 1, 2))
    assert frame.rotation == pytest.approx(mapping.attachment_frame(None, rot).rotation)
    world = mapping.attachment_frame(None, pivot)
    assert world.translation == pytest.approx((1.0, 4.0, -2.0))


def test_import_empty_pose_inverts_to_frame_a():
    """Export's pivot = Empty @ P⁻¹ is glTF frame A again: K @ (C @ A @ P) @ P⁻¹ = A."""
    rng = np.random.default_rng(3)
    q = rng.normal(size=4)
    q /= np.linalg.norm(q)
    frame_a = np.eye(4)
    frame_a[:3, :3] = submodule("io.gltf.nodes").quat_to_matrix(tuple(q))
    frame_a[:3, 3] = (0.3, -1.0, 2.0)
    for axis in range(3):
        perm = joint_mapping.hinge_perm(axis)
        empty = joint_mapping.empty_matrix(frame_a, perm)
        pivot = empty @ joint_mapping.permutation_matrix(perm).T
        assert np.allclose(axes.BLENDER_TO_GLTF @ pivot, frame_a)


def _collides(a: frozenset, b: frozenset) -> bool:
    return bool(a & b)


@settings(max_examples=100, deadline=None)
@given(st.lists(st.frozensets(st.integers(0, 5), max_size=3), min_size=1, max_size=8))
def test_collection_filters_count_their_own_mistakes(sets):
    keyed = dict(enumerate(sets))
    filters, wrong = mapping.filters_from_collections(keyed)
    mistakes = 0
    for i in keyed:
        for j in keyed:
            if i < j:
                a, b = filters[i], filters[j]
                if a is None or b is None:
                    assert set(sets) <= {frozenset({0})}
                    continue
                mistakes += mapping.filter_collides(a, b) != _collides(keyed[i], keyed[j])
    assert mistakes == wrong


@settings(max_examples=100, deadline=None)
@given(st.lists(st.integers(0, 19), min_size=1, max_size=10))
def test_one_collection_per_body_is_exact(indices):
    filters, wrong = mapping.filters_from_collections({i: frozenset({c}) for i, c in enumerate(indices)})
    assert wrong == 0


def test_default_collections_need_no_filters_and_empty_sets_never_collide():
    assert mapping.filters_from_collections({0: frozenset({0}), 1: frozenset({0})}) == ({0: None, 1: None}, 0)
    filters, wrong = mapping.filters_from_collections({0: frozenset(), 1: frozenset({0}), 2: frozenset({0, 1})})
    assert wrong == 0
    assert not mapping.filter_collides(filters[0], filters[1])


def _plan(description):
    return joint_mapping.plan_joint(description)


@pytest.mark.parametrize("kind", ["FIXED", "POINT", "HINGE", "SLIDER", "PISTON", "GENERIC"])
def test_native_constraints_plan_back_to_the_same_blender_settings(kind):
    settings_ = {
        "type": kind,
        "lin": [(-1.0, 2.0), None, None] if kind in ("SLIDER", "PISTON") else [None, None, None],
        "ang": [(-0.2, 0.3), None, (-0.5, 1.0)] if kind in ("HINGE", "PISTON") else [None, None, None],
    }
    if kind == "GENERIC":
        settings_["lin"] = [(-0.25, 0.5), (0.0, 0.0), (0.0, 0.0)]
        settings_["ang"] = [None, (-0.3, 0.2), None]
    description, notes = joints.constraint_description(settings_)
    assert not notes
    plan = _plan(description)
    assert plan.type == kind
    if kind == "HINGE":
        assert plan.perm == (0, 1, 2) and plan.ang[2] == pytest.approx((-0.5, 1.0))
    if kind in ("SLIDER", "PISTON"):
        assert plan.lin[0] == pytest.approx((-1.0, 2.0))
    if kind == "PISTON":
        assert plan.ang[0] == pytest.approx((-0.2, 0.3))
    if kind == "GENERIC":
        assert plan.lin == [pytest.approx((-0.25, 0.5)), (0.0, 0.0), (0.0, 0.0)]
        assert plan.ang == [None, pytest.approx((-0.3, 0.2)), None]


def test_motor_and_unknown_types():
    description, notes = joints.constraint_description({"type": "MOTOR", "motor_ang": (2.0, 5.0)})
    (drive,) = description.drives
    assert (drive.type, drive.axis, drive.velocity_target, drive.max_force) == ("angular", 0, -2.0, 5.0)
    plan = _plan(description)
    (motor,) = plan.motors
    assert motor.target_velocity == pytest.approx(2.0)  # the import gives Blender's value back
    assert joints.constraint_description({"type": "WELD"})[0] is None
    assert joints.limits_close((0.0, 1.0), (0.0, 1.0 + 1e-7)) and not joints.limits_close(None, (0.0, 1.0))
