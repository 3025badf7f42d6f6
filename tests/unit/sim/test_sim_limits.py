"""sim.limits: the specs.md §7 worked example, every metric against independent matrix formulas, properties."""

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from mathkit import rodrigues
from testkit import corpus_files, corpus_id, read_json, submodule

Q = submodule("sim.quat")
T = submodule("io.gltf.transforms")
L = submodule("sim.limits")
K = submodule("sim.limit_kernels")
sim = submodule("sim")
RNG = np.random.default_rng(99)
ZERO = np.zeros(3)
EYE = np.eye(3)

finite = st.floats(-1.0, 1.0, allow_nan=False, allow_infinity=False)
quats = arrays(np.float64, 4, elements=finite).filter(lambda q: np.linalg.norm(q) > 0.1)
points = arrays(np.float64, 3, elements=st.floats(-5.0, 5.0, allow_nan=False))
axis_index = st.integers(0, 2)
angles = st.floats(-math.pi + 1e-6, math.pi - 1e-6, allow_nan=False)
ALL_LIMITS = [
    {"linear_axes": [0]},
    {"linear_axes": [1]},
    {"linear_axes": [2]},
    {"linear_axes": [0, 1]},
    {"linear_axes": [2, 0]},
    {"linear_axes": [1, 2]},
    {"linear_axes": [0, 1, 2]},
    {"angular_axes": [0]},
    {"angular_axes": [1]},
    {"angular_axes": [2]},
    {"angular_axes": [0, 1]},
    {"angular_axes": [0, 2]},
    {"angular_axes": [2, 1]},
    {"angular_axes": [1, 0, 2]},
]


def rot(axis, ang):
    return Q.from_axis_angle(EYE[axis], ang)


def random_frames(n):
    qa, qb = RNG.normal(size=(n, 4)), RNG.normal(size=(n, 4))
    qa /= np.linalg.norm(qa, axis=1, keepdims=True)
    qb /= np.linalg.norm(qb, axis=1, keepdims=True)
    return RNG.normal(size=(n, 3)), qa, RNG.normal(size=(n, 3)), qb


def matrix_metric(t_a, q_a, t_b, q_b, linear_axes=None, angular_axes=None):
    """Independent per-sample reference written with rotation matrices only."""
    ra, rb = T.quat_to_matrix(q_a / np.linalg.norm(q_a)), T.quat_to_matrix(q_b / np.linalg.norm(q_b))
    if linear_axes is not None:
        d = ra.T @ (t_b - t_a)
        if len(linear_axes) == 1:
            return d[linear_axes[0]]
        if len(linear_axes) == 2:
            k = 3 - sum(linear_axes)
            return math.hypot(*(d[i] for i in range(3) if i != k))
        return float(np.linalg.norm(d))
    rel = ra.T @ rb
    if len(angular_axes) == 1:
        # R = S·T(θ) with S the minimal rotation taking eᵢ to R eᵢ; θ from T = Sᵀ R
        i = angular_axes[0]
        e, f = EYE[i], rel[:, i]
        axis = np.cross(e, f)
        s = np.eye(3) if np.linalg.norm(axis) < 1e-14 else rodrigues(axis, math.acos(np.clip(e @ f, -1, 1)))
        t = s.T @ rel
        j, k = (i + 1) % 3, (i + 2) % 3
        return math.atan2(t[k, j], t[j, j])
    if len(angular_axes) == 2:
        k = 3 - sum(angular_axes)
        return math.acos(np.clip(rel[k, k], -1, 1))
    return math.acos(np.clip((np.trace(rel) - 1) / 2, -1, 1))


# ----------------------------------------------------------------------------------------- worked example (§7)

QB_EXAMPLE = Q.multiply(rot(0, 0.3), rot(2, 0.5))


@pytest.mark.parametrize(
    "kwargs, expected",
    [({"angular_axes": [2]}, 0.5), ({"angular_axes": [0, 1]}, 0.3), ({"angular_axes": [0, 1, 2]}, 0.58148)],
)
def test_worked_example(kwargs, expected):
    np.testing.assert_allclose(QB_EXAMPLE, [0.144792, -0.036972, 0.244626, 0.958033], atol=1e-6)
    value = sim.limit_metric(ZERO, Q.IDENTITY, ZERO, QB_EXAMPLE, **kwargs)
    assert value.shape == (1,)
    assert abs(value[0] - expected) < 1e-4


def test_worked_example_signed_twist():
    assert abs(sim.limit_metric(ZERO, Q.IDENTITY, ZERO, rot(2, -0.7), angular_axes=[2])[0] + 0.7) < 1e-12
    # the appendix's literal 2·acos(Re(twist)) is unsigned: +0.7
    _, twist, _ = Q.twist_swing(rot(2, -0.7), EYE[2])
    assert abs(2 * math.acos(twist[3]) - 0.7) < 1e-12


def test_example_in_a_rotated_frame_a():
    # Frame A is rotated: the metrics follow A's basis, not the world's.
    qa = Q.from_axis_angle([1, 2, 3], 0.9)
    qb = Q.multiply(qa, QB_EXAMPLE)
    assert abs(sim.limit_metric(ZERO, qa, ZERO, qb, angular_axes=[2])[0] - 0.5) < 1e-12
    assert abs(sim.limit_metric(ZERO, qa, ZERO, qb, angular_axes=[0, 1])[0] - 0.3) < 1e-12


def test_conformance_hinge_frames_coincide():
    # RigidBodies_Joint_02: both frames at world (0.5, -0.5, 0.5), hinge about X by 0.8 rad
    t = np.array([0.5, -0.5, 0.5])
    qb = rot(0, 0.8)
    assert sim.limit_metric(t, Q.IDENTITY, t, qb, linear_axes=[0, 1, 2])[0] == 0.0
    assert abs(sim.limit_metric(t, Q.IDENTITY, t, qb, angular_axes=[1, 2])[0]) < 1e-15
    assert abs(sim.limit_metric(t, Q.IDENTITY, t, qb, angular_axes=[0])[0] - 0.8) < 1e-15


# ------------------------------------------------------------------------------------------ against references


@pytest.mark.parametrize("kwargs", ALL_LIMITS, ids=lambda k: f"{next(iter(k))}{next(iter(k.values()))}")
def test_fast_path_matches_matrix_formulas(kwargs):
    t_a, q_a, t_b, q_b = random_frames(300)
    q_a[:50] *= 3.0  # non-unit quaternions are treated as the rotations they scale to
    fast = sim.limit_metric(t_a, q_a, t_b, q_b, **kwargs)
    ref = [matrix_metric(t_a[n], q_a[n], t_b[n], q_b[n], **kwargs) for n in range(300)]
    np.testing.assert_allclose(fast, ref, atol=1e-9)
    np.testing.assert_allclose(fast, L.limit_metric_reference(t_a, q_a, t_b, q_b, **kwargs), atol=1e-9)


@pytest.mark.parametrize("kwargs", ALL_LIMITS, ids=str)
def test_chunk_boundaries_and_broadcasting(kwargs, monkeypatch):
    t_a, q_a, t_b, q_b = random_frames(1000)
    whole = sim.limit_metric(t_a, q_a, t_b, q_b, **kwargs)
    monkeypatch.setattr(K, "CHUNK", 7)
    np.testing.assert_allclose(sim.limit_metric(t_a, q_a, t_b, q_b, **kwargs), whole, atol=1e-15)
    single_a = sim.limit_metric(t_a[3], q_a[3], t_b, q_b, **kwargs)
    np.testing.assert_allclose(single_a[5], sim.limit_metric(t_a[3], q_a[3], t_b[5], q_b[5], **kwargs)[0])


@pytest.mark.parametrize("kwargs", [{"angular_axes": [a]} for a in range(3)] + [{"angular_axes": [0, 1, 2]}])
def test_non_contiguous_and_float32_inputs(kwargs):
    t_a, q_a, t_b, q_b = random_frames(100)
    expected = sim.limit_metric(t_a, q_a, t_b, q_b, **kwargs)
    wide = np.zeros((100, 6))
    wide[:, 1:5] = q_b
    np.testing.assert_allclose(sim.limit_metric(t_a, np.asfortranarray(q_a), t_b, wide[:, 1:5], **kwargs), expected)
    as32 = sim.limit_metric(t_a, q_a.astype(np.float32), t_b, q_b.astype(np.float32), **kwargs)
    np.testing.assert_allclose(as32, expected, atol=1e-5)


def test_twist_half_turn_edge_cases():
    # w = 0 with v·e ≠ 0: a half-turn twist (π, sign at the branch cut); w = v·e = 0: pure half-turn swing → 0
    assert abs(abs(sim.limit_metric(ZERO, Q.IDENTITY, ZERO, rot(2, math.pi), angular_axes=[2])[0]) - math.pi) < 1e-12
    assert sim.limit_metric(ZERO, Q.IDENTITY, ZERO, [1.0, 0, 0, 0], angular_axes=[2])[0] == 0.0
    assert abs(sim.limit_metric(ZERO, Q.IDENTITY, ZERO, [1.0, 0, 0, 0], angular_axes=[0, 1])[0] - math.pi) < 1e-12


def test_small_angles_are_accurate():
    q = rot(1, 1e-9)
    assert abs(sim.limit_metric(ZERO, Q.IDENTITY, ZERO, q, angular_axes=[0, 1])[0] - 1e-9) < 1e-20
    assert abs(sim.limit_metric(ZERO, Q.IDENTITY, ZERO, q, angular_axes=[0, 1, 2])[0] - 1e-9) < 1e-20


@pytest.mark.parametrize(
    "kwargs",
    [
        {},
        {"linear_axes": [0], "angular_axes": [1]},
        {"linear_axes": []},
        {"linear_axes": [0, 1, 2, 0]},
        {"angular_axes": [3]},
        {"angular_axes": [-1]},
        {"angular_axes": [1, 1]},
        {"linear_axes": [0.5]},
        {"linear_axes": [True]},
        {"linear_axes": "01"},
        {"angular_axes": 2},
    ],
)
def test_bad_axes_raise_value_error(kwargs):
    with pytest.raises(ValueError):
        sim.limit_metric(ZERO, Q.IDENTITY, ZERO, Q.IDENTITY, **kwargs)


def test_bad_shapes_raise_value_error():
    with pytest.raises(ValueError):
        sim.limit_metric(np.zeros((4, 3)), np.zeros((5, 4)), ZERO, Q.IDENTITY, angular_axes=[0])
    with pytest.raises(ValueError):
        sim.limit_metric(ZERO, np.zeros(3), ZERO, Q.IDENTITY, angular_axes=[0])


def test_limit_kind_names():
    assert sim.limit_kind(angular_axes=[2]) == "angular-twist"
    assert sim.limit_kind(linear_axes=[2, 0]) == "linear-line"
    assert sim.limit_kind(angular_axes=[0, 1, 2]) == "angular-total"


# ------------------------------------------------------------------------------------------------- properties


@settings(max_examples=60, deadline=None)
@given(points, quats, points, quats, points, quats, st.sampled_from(ALL_LIMITS))
def test_metrics_invariant_under_common_rigid_transform(t_a, q_a, t_b, q_b, shift, turn, kwargs):
    turn = turn / np.linalg.norm(turn)
    before = sim.limit_metric(t_a, q_a, t_b, q_b, **kwargs)
    moved = [Q.rotate(turn, t_a) + shift, Q.multiply(turn, q_a), Q.rotate(turn, t_b) + shift, Q.multiply(turn, q_b)]
    after = sim.limit_metric(*moved, **kwargs)
    if "angular_axes" in kwargs and len(kwargs["angular_axes"]) == 1:
        q_rel = Q.multiply(Q.conjugate(q_a), q_b) / np.linalg.norm(q_a) / np.linalg.norm(q_b)
        if abs(abs(before[0]) - math.pi) < 1e-6 or math.hypot(q_rel[3], q_rel[kwargs["angular_axes"][0]]) < 1e-6:
            return  # ±π branch cut, or a half-turn swing where the twist is undefined (swing–twist singularity)
    np.testing.assert_allclose(after, before, atol=1e-9)


@settings(max_examples=60, deadline=None)
@given(quats, axis_index, angles)
def test_twist_of_pure_rotation_about_axis_is_signed_angle(q_a, axis, ang):
    q_a = q_a / np.linalg.norm(q_a)
    q_b = Q.multiply(q_a, rot(axis, ang))
    np.testing.assert_allclose(sim.limit_metric(ZERO, q_a, ZERO, q_b, angular_axes=[axis]), [ang], atol=1e-9)


@settings(max_examples=60, deadline=None)
@given(quats, axis_index, angles)
def test_cone_of_pure_twist_is_zero(q_a, axis, ang):
    q_a = q_a / np.linalg.norm(q_a)
    q_b = Q.multiply(q_a, rot(axis, ang))
    others = [i for i in range(3) if i != axis]
    np.testing.assert_allclose(sim.limit_metric(ZERO, q_a, ZERO, q_b, angular_axes=others), [0.0], atol=1e-7)
    np.testing.assert_allclose(sim.limit_metric(ZERO, q_a, ZERO, q_b, angular_axes=[0, 1, 2]), [abs(ang)], atol=1e-9)


@settings(max_examples=60, deadline=None)
@given(quats, points, axis_index)
def test_linear_metrics_decompose_the_offset(q_a, d, axis):
    q_a = q_a / np.linalg.norm(q_a)
    t_a = np.array([1.0, -2.0, 0.5])
    t_b = t_a + Q.rotate(q_a, d)  # d is the offset expressed in frame A
    np.testing.assert_allclose(sim.limit_metric(t_a, q_a, t_b, Q.IDENTITY, linear_axes=[axis]), [d[axis]], atol=1e-9)
    others = [i for i in range(3) if i != axis]
    line = math.hypot(d[others[0]], d[others[1]])
    np.testing.assert_allclose(sim.limit_metric(t_a, q_a, t_b, q_a, linear_axes=others), [line], atol=1e-9)


# ------------------------------------------------------------------------------------ violations and soft limits


def test_limit_violation():
    m = np.array([-2.0, -1.0, 0.0, 1.0, 3.5, np.nan])
    np.testing.assert_array_equal(sim.limit_violation(m, -1.0, 1.0), [1.0, 0, 0, 0, 2.5, np.nan])
    np.testing.assert_array_equal(sim.limit_violation(m, None, 1.0), [0, 0, 0, 0, 2.5, np.nan])
    np.testing.assert_array_equal(sim.limit_violation(m, 0.0, None), [2.0, 1.0, 0, 0, 0, np.nan])
    np.testing.assert_array_equal(sim.limit_violation(m[:5]), np.zeros(5))
    with pytest.raises(ValueError):
        sim.limit_violation(m, 1.0, -1.0)


def test_joint_limit_violation_from_transforms():
    q_b = np.stack([rot(2, a) for a in (-1.0, 0.2, 0.9)])
    out = sim.joint_limit_violation(ZERO, Q.IDENTITY, ZERO, q_b, angular_axes=[2], lower=-0.5, upper=0.5)
    np.testing.assert_allclose(out, [0.5, 0.0, 0.4], atol=1e-12)


def test_soft_limit_response():
    m = np.array([-1.5, 0.0, 2.0])
    rate = np.array([-2.0, 5.0, 1.0])
    out = sim.soft_limit_response(m, rate, -1.0, 1.0, stiffness=10.0, damping=0.5)
    np.testing.assert_allclose(out, [10 * 0.5 + 0.5 * 2.0, 0.0, 10 * -1.0 - 0.5 * 1.0])
    np.testing.assert_allclose(sim.soft_limit_response(m, rate, None, 1.0, 10.0), [0, 0, -10.0])
    hard = sim.soft_limit_response(m, rate, -1.0, 1.0, stiffness=None)
    np.testing.assert_array_equal(hard, [np.inf, 0.0, -np.inf])
    with pytest.raises(ValueError):
        sim.soft_limit_response(m, rate, -1.0, 1.0, stiffness=-1.0)


def test_metric_for_limit_reads_gltf_keys():
    q_b = rot(0, 0.25)
    assert abs(L.metric_for_limit({"angularAxes": [0], "min": 0}, ZERO, Q.IDENTITY, ZERO, q_b)[0] - 0.25) < 1e-15
    with pytest.raises(ValueError):
        L.metric_for_limit({"min": 0}, ZERO, Q.IDENTITY, ZERO, q_b)


# ------------------------------------------------------------------------------------ conformance corpus (in place)

JOINT_FILES = [
    path
    for path in corpus_files("glTF_Physics/tests/RigidBodies_Joint/*.gltf", "glTF_Physics/samples/*/*.gltf")
    if "physicsJoints" in path.read_text(encoding="utf-8")
]


def world_frames(doc):
    """World (translation, rotation) of every node from its TRS chain (scale applied to child translations)."""
    nodes = doc.get("nodes", [])
    parent = {c: i for i, node in enumerate(nodes) for c in node.get("children", [])}
    cache = {}

    def world(i):
        if i not in cache:
            node = nodes[i]
            t, q = np.array(node.get("translation", [0, 0, 0.0])), np.array(node.get("rotation", Q.IDENTITY))
            s = np.array(node.get("scale", [1, 1, 1.0]))
            if i in parent:
                pt, pq, ps = world(parent[i])
                t, q, s = pt + Q.rotate(pq, ps * t), Q.multiply(pq, q), ps * s
            cache[i] = (t, q, s)
        return cache[i]

    return [world(i)[:2] for i in range(len(nodes))]


@pytest.mark.corpus
@pytest.mark.parametrize("path", JOINT_FILES, ids=corpus_id)
def test_corpus_joints_fast_path_matches_reference(path):
    doc = read_json(path)
    joints = doc.get("extensions", {}).get("KHR_physics_rigid_bodies", {}).get("physicsJoints", [])
    frames = world_frames(doc)
    evaluated = 0
    for node in doc.get("nodes", []):
        joint = node.get("extensions", {}).get("KHR_physics_rigid_bodies", {}).get("joint")
        if joint is None:
            continue
        (t_a, q_a), (t_b, q_b) = frames[doc["nodes"].index(node)], frames[joint["connectedNode"]]
        for limit in joints[joint["joint"]].get("limits", []):
            fast = L.metric_for_limit(limit, t_a, q_a, t_b, q_b)
            keys = {"linear_axes": limit.get("linearAxes"), "angular_axes": limit.get("angularAxes")}
            # the reference's acos resolves angles near 0 only to ~1e-8 rad (the fast path's atan2 is exact there)
            np.testing.assert_allclose(fast, L.limit_metric_reference(t_a, q_a, t_b, q_b, **keys), atol=1e-7)
            assert np.isfinite(fast).all()
            evaluated += 1
    assert evaluated > 0


@pytest.mark.corpus
def test_corpus_hinge_joint_02_starts_inside_its_limits():
    files = [p for p in JOINT_FILES if p.name == "RigidBodies_Joint_02.gltf"]
    if not files:
        pytest.skip("../shared/corpus not found")
    doc = read_json(files[0])
    frames = world_frames(doc)
    (t_a, q_a), (t_b, q_b) = frames[1], frames[2]
    np.testing.assert_allclose(t_a, [0.5, -0.5, 0.5])
    np.testing.assert_allclose(t_b, [0.5, -0.5, 0.5])
    for limit in doc["extensions"]["KHR_physics_rigid_bodies"]["physicsJoints"][0]["limits"]:
        metric = L.metric_for_limit(limit, t_a, q_a, t_b, q_b)
        assert sim.limit_violation(metric, limit.get("min"), limit.get("max"))[0] == 0.0
