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


@pytest.mark.parametrize(
    "data",
    [
        {"type": "box", "box": {"size": "x"}},
        {"type": "box", "box": {"size": [1.0, "x", 1.0]}},
        {"type": "box", "box": {"size": [1.0, 1.0]}},
        {"type": "box", "box": {"size": [True, 1.0, 1.0]}},
        {"type": "sphere", "sphere": {"radius": "0.5"}},
        {"type": "sphere", "sphere": {"radius": [0.5]}},
        {"type": "sphere", "sphere": {"radius": None}},
        {"type": "capsule", "capsule": {"height": {}, "radiusTop": 0.1, "radiusBottom": 0.1}},
        {"type": "plane", "plane": {"sizeX": 1.0, "doubleSided": "yes"}},
    ],
    ids=repr,
)
def test_stored_shapes_with_values_of_the_wrong_kind_are_unreadable(data):
    """A stored shape text whose parameters are not numbers (a script or an old file wrote it) is unreadable (None:
    the exporter skips that collider with a warning); it once reached the writer, whose TypeError stopped the
    whole physics export."""
    assert mapping.shape_from_json(data) is None


def test_attachment_frame_is_the_pivot_in_the_parent_in_gltf_axes():
    parent = np.eye(4)
    parent[:3, 3] = (1.0, 2.0, 3.0)
    pivot = np.eye(4)
    pivot[:3, 3] = (1.0, 2.0, 4.0)  # 1 m above the parent (Blender Z) = glTF +Y
    frame = mapping.attachment_frames([parent], [pivot])[0]
    assert frame.translation == pytest.approx((0.0, 1.0, 0.0))
    # frame axes = the pivot's Blender axes expressed in glTF: glTF world of the frame = K @ pivot
    rot = joint_mapping.permutation_matrix((0, 1, 2))
    assert frame.rotation == pytest.approx(mapping.attachment_frames([None], [rot])[0].rotation)
    world = mapping.attachment_frames([None], [pivot])[0]
    assert world.translation == pytest.approx((1.0, 4.0, -2.0))


def test_import_empty_pose_inverts_to_frame_a():
    """Export's pivot = Empty @ P⁻¹ is glTF frame A again: K @ (C @ A @ P) @ P⁻¹ = A."""
    rng = np.random.default_rng(3)
    q = rng.normal(size=4)
    q /= np.linalg.norm(q)
    frame_a = np.eye(4)
    frame_a[:3, :3] = submodule("io.gltf.transforms").quat_to_matrix(tuple(q))
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
    assert mistakes == wrong == 0  # the encoding is exact (issue 12); the self-check agrees


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


# --- collision collections → filters: exact for any sets (issue 12) ---------------------------------------------------

pairs = submodule("sim.pairs")
BLENDER_COLLECTIONS = 20


def _sim_filter(f):
    """A model filter as ``sim.pairs`` reads it (None = no filter)."""
    if f is None:
        return None
    groups = (f.collision_systems, f.collide_with_systems, f.not_collide_with_systems)
    return pairs.CollisionFilter(*(None if names is None else frozenset(names) for names in groups))


def _assert_exact(sets: list[frozenset]):
    """Exported filters reproduce Blender's rule (collide iff the bodies share a collection) for every pair,
    checked with the project's reference filter rule (``sim.pairs``), and the self-check agrees."""
    keyed = dict(enumerate(sets))
    filters, wrong = mapping.filters_from_collections(keyed)
    got = pairs.FilterTable([_sim_filter(filters[i]) for i in keyed]).matrix()
    want = np.array([[bool(a & b) for b in sets] for a in sets])
    off = ~np.eye(len(sets), dtype=bool)  # a body and itself is not a pair
    bad = [(sorted(sets[i]), sorted(sets[j])) for i, j in zip(*np.nonzero((got != want) & off), strict=True)]
    assert not bad, bad
    assert wrong == 0


def test_overlapping_collections_from_the_issue_are_exact():
    """Ground {1}, a box {1, 3}, boxes {3}: the {3}-only boxes must not collide with the ground (issue 12)."""
    ground, box, boxes = frozenset({1}), frozenset({1, 3}), frozenset({3})
    _assert_exact([ground, box, boxes, boxes])
    filters, _ = mapping.filters_from_collections({"ground": ground, "box": box, "boxes": boxes})
    assert not mapping.filter_collides(filters["ground"], filters["boxes"])
    assert mapping.filter_collides(filters["ground"], filters["box"])
    assert mapping.filter_collides(filters["box"], filters["boxes"])


def _random_masks(rng: np.random.Generator) -> list[frozenset]:
    """1–12 bodies with random masks over Blender's 20 collections; a per-case density gives sparse sets (many
    empty or single-collection), dense ones and everything between; a pool makes sets repeat across bodies."""
    density = rng.choice([0.03, 0.08, 0.15, 0.3, 0.6])
    pool = [frozenset(np.flatnonzero(rng.random(BLENDER_COLLECTIONS) < density).tolist()) for _ in range(6)]
    return [pool[k] for k in rng.integers(0, len(pool), size=rng.integers(1, 13))]


def test_random_collection_masks_are_exact():
    """1,200 seeded random mask sets (issue 12 asks ≥ 1,000): the filters reproduce "share a collection"."""
    rng = np.random.default_rng(12)
    for _ in range(1200):
        _assert_exact(_random_masks(rng))


@settings(max_examples=300, deadline=None)
@given(st.lists(st.frozensets(st.integers(0, BLENDER_COLLECTIONS - 1), max_size=6), min_size=1, max_size=10))
def test_any_collection_sets_are_exact(sets):
    _assert_exact(sets)


def test_system_names_say_which_collections():
    assert mapping.system_name(frozenset({3})) == "collection_3"
    assert mapping.system_name(frozenset({2, 0})) == "collections_0_2"
    assert mapping.system_name(frozenset()) == "no_collection"
    sets = {"a": frozenset({0}), "b": frozenset({0, 2}), "c": frozenset({2}), "d": frozenset(), "e": frozenset({0})}
    filters, _ = mapping.filters_from_collections(sets)
    assert filters["a"] is filters["e"]  # one filter (and one system) per distinct set
    assert filters["b"].collision_systems == ("collections_0_2",)
    assert filters["b"].collide_with_systems == ("collection_0", "collection_2", "collections_0_2")
    assert filters["c"].collide_with_systems == ("collection_2", "collections_0_2")
    assert filters["d"].collide_with_systems is None
    assert set(filters["d"].not_collide_with_systems) == {
        "no_collection",
        "collection_0",
        "collection_2",
        "collections_0_2",
    }


def test_self_check_counts_body_pairs_with_multiplicities(monkeypatch):
    """``wrong`` counts body pairs, not set pairs: with a rule that lets everything collide it is the number of body
    pairs sharing no collection (brute force over bodies)."""
    sets = [frozenset({1})] * 3 + [frozenset({1, 3})] * 2 + [frozenset({3})] * 4 + [frozenset()] * 2
    monkeypatch.setattr(mapping, "filter_collides", lambda a, b: True)
    _, wrong = mapping.filters_from_collections(dict(enumerate(sets)))
    brute = sum(not (a & b) for i, a in enumerate(sets) for b in sets[i + 1 :])
    assert wrong == brute == 3 * 4 + 3 * 2 + 2 * 2 + 4 * 2 + 1


@settings(max_examples=100, deadline=None)
@given(
    st.lists(st.frozensets(st.integers(0, 5), max_size=3), min_size=1, max_size=8),
    st.lists(st.sampled_from(["world", "collection_0", "no_collection", "collides_with_nothing"]), max_size=2),
    st.sampled_from([None, "collide", "not"]),
)
def test_export_encoding_isolates_bodies_in_no_collection_from_any_filter(sets, systems, kind):
    """Exact among Blender bodies (same relation as the plain encoding), and a body in no collection collides with
    nothing under the spec's rule (``sim.pairs``), also against a stored filter or none."""
    pairs = submodule("sim.pairs")
    keyed = dict(enumerate([*sets, frozenset()]))
    filters, wrong = mapping.export_filters_from_collections(keyed, systems)
    assert wrong == 0
    for i in keyed:
        for j in keyed:
            if i < j:
                assert mapping.filter_collides(filters[i], filters[j]) == bool(keyed[i] & keyed[j])
    lists = {"collide": {"collideWithSystems": systems}, "not": {"notCollideWithSystems": systems}}.get(kind, {})
    stored = pairs.CollisionFilter.from_dict({"collisionSystems": systems, **lists}) if kind or systems else None
    loner = filters[len(sets)]
    assert loner.collide_with_systems and loner.collide_with_systems[0] not in systems  # a non-empty list (glTF)
    written = pairs.CollisionFilter.from_dict(
        {"collisionSystems": list(loner.collision_systems), "collideWithSystems": list(loner.collide_with_systems)}
    )
    assert not pairs.filters_collide(written, stored)
    assert not pairs.filters_collide(written, None)
