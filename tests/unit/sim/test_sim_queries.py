"""sim.queries / sim.overlap / sim.gjk: segment casts, overlap tests and trigger enter/exit events."""

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from testkit import submodule

q = submodule("sim.queries")
ov = submodule("sim.overlap")
gjk = submodule("sim.gjk")
S = submodule("sim.shapes")
pairs = submodule("sim.pairs")
C = q.Collider


def rot(axis, angle):
    axis = np.asarray(axis, dtype=float) / np.linalg.norm(axis)
    return np.concatenate([axis * np.sin(angle / 2), [np.cos(angle / 2)]])


def box_mesh(size, convex=False):
    hx, hy, hz = np.asarray(size) / 2
    v = np.array([[x, y, z] for x in (-hx, hx) for y in (-hy, hy) for z in (-hz, hz)])
    quads = [(0, 1, 3, 2), (4, 6, 7, 5), (0, 4, 5, 1), (2, 3, 7, 6), (0, 2, 6, 4), (1, 5, 7, 3)]
    return S.Mesh(v, [t for a, b, c, d in quads for t in ((a, b, c), (a, c, d))], convex=convex)


def hit(colliders, start, end, **kw):
    h = q.ray_cast(colliders, start, end, **kw)
    assert h is not None, "expected a hit"
    return h


# ---------------------------------------------------------------- ray casts, analytic hits
def test_sphere_at_known_distance():
    h = hit([C(7, S.Sphere(1.0), position=(5, 0, 0))], (0, 0, 0), (10, 0, 0))
    assert (h.node, h.fraction) == (7, pytest.approx(0.4))
    np.testing.assert_allclose(h.normal, [-1, 0, 0], atol=1e-12)
    np.testing.assert_allclose(h.point, [4, 0, 0], atol=1e-12)


def test_box_face_normal_rotated():
    box = C(1, S.Box((2, 4, 6)), position=(0, 0, 0), rotation=rot((0, 1, 0), np.pi / 2))  # x-extent is now 3
    h = hit([box], (10, 0.5, 0.5), (-10, 0.5, 0.5))
    assert h.fraction == pytest.approx((10 - 3) / 20)
    np.testing.assert_allclose(h.normal, [1, 0, 0], atol=1e-12)
    h = hit([box], (0.2, -10, 0), (0.2, 10, 0))
    assert h.point[1] == pytest.approx(-2) and h.normal == pytest.approx([0, -1, 0], abs=1e-12)


def test_capsule_cap_and_side():
    cap = C(2, S.Capsule(2.0, 0.5, 0.5))
    h = hit([cap], (0.3, 10, 0), (0.3, -10, 0))
    y = 1 + np.sqrt(0.25 - 0.09)
    assert h.fraction == pytest.approx((10 - y) / 20)
    np.testing.assert_allclose(h.normal, [0.6, 0.8, 0], atol=1e-12)
    h = hit([cap], (-5, 0.7, 0), (5, 0.7, 0))
    assert h.point[0] == pytest.approx(-0.5) and h.normal == pytest.approx([-1, 0, 0], abs=1e-12)


def test_tapered_capsule_side_is_the_tangent_cone():
    tap = C(3, S.Capsule(1.0, 0.5, 0.25))
    s = 0.25  # sin α = (r_b − r_t) / h
    c = np.sqrt(1 - s * s)
    h = hit([tap], (5, 0, 0), (-5, 0, 0))
    assert h.point[0] == pytest.approx((0.5 - 0.5 * s) / c)  # tangent line at distance r_b from the bottom centre
    np.testing.assert_allclose(h.normal, [c, s, 0], atol=1e-12)
    h = hit([tap], (0, 5, 0), (0, -5, 0))  # top cap
    assert h.point[1] == pytest.approx(0.75)


def test_degenerate_tapered_capsule_is_the_larger_sphere():
    h = hit([C(3, S.Capsule(0.2, 0.5, 0.25))], (5, -0.1, 0), (-5, -0.1, 0))
    assert h.point[0] == pytest.approx(0.5) and h.normal == pytest.approx([1, 0, 0], abs=1e-12)


def test_cone_side_and_cylinder_cap():
    cone = C(4, S.Cylinder(2.0, 1.0, 0.0), position=(0, 5, 0))
    h = hit([cone], (0.5, 10, 0), (0.5, 0, 0))
    np.testing.assert_allclose(h.point, [0.5, 5, 0], atol=1e-12)
    np.testing.assert_allclose(h.normal, np.array([2, 1, 0]) / np.sqrt(5), atol=1e-12)
    h = hit([cone], (0.5, 0, 0), (0.5, 10, 0))  # from below: the base disc
    assert h.point[1] == pytest.approx(4.0) and h.normal == pytest.approx([0, -1, 0])
    frustum = C(5, S.Cylinder(2.0, 1.0, 0.5))
    h = hit([frustum], (0.2, 10, 0), (0.2, -10, 0))
    assert h.point[1] == pytest.approx(1.0) and h.normal == pytest.approx([0, 1, 0])


def test_plane_one_sided_vs_double_sided():
    one, two = C(1, S.Plane()), C(2, S.Plane(double_sided=True))
    assert q.ray_cast([one], (0, -1, 0), (0, 1, 0)) is None
    h = hit([two], (0, -1, 0), (0, 1, 0))
    assert h.fraction == pytest.approx(0.5) and h.normal == pytest.approx([0, -1, 0])
    for plane in (one, two):
        h = hit([plane], (0, 1, 0), (2, -1, 0))
        assert h.fraction == pytest.approx(0.5) and h.normal == pytest.approx([0, 1, 0])


def test_finite_plane_miss_and_hit():
    plane = C(1, S.Plane(size_x=2.0, size_z=4.0), rotation=rot((1, 0, 0), np.pi / 2))  # normal now +Z
    assert q.ray_cast([plane], (1.5, 0, 1), (1.5, 0, -1)) is None
    assert q.ray_cast([plane], (0, 2.1, 1), (0, 2.1, -1)) is None
    h = hit([plane], (0.9, 1.9, 1), (0.9, 1.9, -1))
    assert h.fraction == pytest.approx(0.5) and h.normal == pytest.approx([0, 0, 1], abs=1e-12)


def test_scaled_sphere_is_an_ellipsoid_and_negative_scale_is_absolute():
    ell = C(1, S.Sphere(1.0), scale=(2, -1, 1))
    h = hit([ell], (-5, 0, 0), (5, 0, 0))
    assert h.point[0] == pytest.approx(-2)
    p = np.array([np.sqrt(2), np.sqrt(0.5), 0.0])  # on the ellipse x²/4 + y² = 1
    h = hit([ell], p * 3, -p * 3)
    np.testing.assert_allclose(h.point, p, atol=1e-12)
    expected = np.array([p[0] / 4, p[1], 0]) / np.linalg.norm([p[0] / 4, p[1], 0])  # gradient of the ellipsoid
    np.testing.assert_allclose(h.normal, expected, atol=1e-12)
    assert q.ray_cast([C(1, S.Sphere(1.0), scale=(0, 0, 0))], (-5, 0, 0), (5, 0, 0)) is None  # disabled


def test_filter_excludes_nearer_hit():
    query = pairs.CollisionFilter(frozenset({"ray"}), frozenset({"landscape"}))
    near = C(1, S.Sphere(1.0), position=(3, 0, 0), filter=pairs.CollisionFilter(frozenset({"debris"})))
    far = C(2, S.Sphere(1.0), position=(7, 0, 0), filter=pairs.CollisionFilter(frozenset({"landscape"})))
    assert hit([near, far], (0, 0, 0), (10, 0, 0)).node == 1
    assert hit([near, far], (0, 0, 0), (10, 0, 0), query_filter=query).node == 2
    shy = C(
        3,
        S.Sphere(1.0),
        position=(5, 0, 0),
        filter=pairs.CollisionFilter(frozenset({"landscape"}), not_collide_with_systems=frozenset({"ray"})),
    )
    assert hit([near, far, shy], (0, 0, 0), (10, 0, 0), query_filter=query).node == 2  # shy refuses the ray


def test_triangle_mesh_matches_box():
    pose = {"position": (1, 2, 3), "rotation": rot((1, 2, 3), 0.7), "scale": (1, 2, 1)}
    mesh, box = C(1, box_mesh((1, 2, 3)), **pose), C(2, S.Box((1, 2, 3)), **pose)
    for start in [(8, 8, 8), (-6, 2.3, 3.1), (1.2, -7, 3)]:
        end = 2 * np.array([1, 2, 3]) - start  # through the centre
        hm, hb = hit([mesh], start, end), hit([box], start, end)
        assert hm.fraction == pytest.approx(hb.fraction, abs=1e-12)
        np.testing.assert_allclose(hm.normal, hb.normal, atol=1e-9)
    inner = hit([mesh], (1, 2, 3), (9, 2, 3))  # a surface: from inside we hit the far wall, facing us
    assert inner.fraction > 0 and inner.normal @ np.array([1, 0, 0]) < 0


def test_start_inside_all_hits_and_triggers():
    cols = [
        C(1, S.Box((2, 2, 2))),
        C(2, S.Sphere(0.5), position=(4, 0, 0)),
        C(3, S.Sphere(0.5), position=(2, 0, 0), is_trigger=True),
    ]
    first = hit(cols, (0, 0, 0), (10, 0, 0))
    assert (first.node, first.fraction) == (1, 0.0) and first.normal == pytest.approx([-1, 0, 0])
    every = q.ray_cast(cols, (0, 0, 0), (10, 0, 0), all_hits=True)
    assert [h.node for h in every] == [1, 2]
    every = q.ray_cast(cols, (0, 0, 0), (10, 0, 0), all_hits=True, include_triggers=True)
    assert [h.node for h in every] == [1, 3, 2]


SHAPES = [
    S.Box((1.0, 2.0, 0.5)),
    S.Sphere(0.7),
    S.Capsule(1.0, 0.5, 0.5),
    S.Capsule(1.0, 0.6, 0.2),
    S.Cylinder(1.5, 0.6, 0.6),
    S.Cylinder(1.5, 0.8, 0.0),
    S.Cylinder(1.0, 0.3, 0.7),
]
coords = st.floats(-3, 3)


def point_distance(collider, p):
    piece = ov.pieces(collider)[0]
    return gjk.gjk_distance(lambda d: piece.support(d) - p)


@settings(max_examples=100, deadline=None)
@given(
    st.sampled_from(SHAPES),
    st.tuples(coords, coords, coords),
    st.tuples(coords, coords, coords),
    st.tuples(*[st.floats(-1, 1)] * 4).filter(lambda v: np.linalg.norm(v) > 0.2),
    st.tuples(*[st.floats(0.5, 2)] * 3),
)
def test_ray_hits_agree_with_gjk_distance(shape, a, b, quat, scale):
    """Independent check: a hit point lies on the surface and the segment before it is outside; a miss is outside."""
    col = C(1, shape, rotation=quat, scale=scale)
    a, b = np.array(a), np.array(b)
    h = q.ray_cast([col], a, b)
    length = np.linalg.norm(b - a)
    if h is None:
        # A miss never enters the solid; an end point exactly on the surface (distance 0) only touches it.
        for t in np.linspace(0, 1, 13):
            assert point_distance(col, a + t * (b - a)) > -1e-9
    elif h.fraction > 0:
        # GJK converges slowly onto a contact point of a curved surface, so the tight check is the offset one:
        # for a convex body, stepping ε along an outward normal from a boundary point lands exactly ε away.
        assert point_distance(col, h.point) <= 1e-5
        outward = h.point + 1e-3 * h.normal
        assert point_distance(col, outward) == pytest.approx(1e-3, rel=5e-3)
        assert point_distance(col, a + (h.fraction - 1e-4 / max(length, 1e-9)) * (b - a)) > 0
    else:
        assert point_distance(col, a) <= 1e-5


# ---------------------------------------------------------------- overlaps
def closest_segment_distance(p0, p1, q0, q1):
    """Closed-form distance between segments (clamped parameters)."""
    d1, d2, r = p1 - p0, q1 - q0, p0 - q0
    a, e, f = d1 @ d1, d2 @ d2, d2 @ r
    c, b = d1 @ r, d1 @ d2
    denom = a * e - b * b
    s = np.clip((b * f - c * e) / denom, 0, 1) if denom > 1e-12 else 0.0
    t = (b * s + f) / e
    if t < 0:
        t, s = 0.0, np.clip(-c / a, 0, 1)
    elif t > 1:
        t, s = 1.0, np.clip((b - c) / a, 0, 1)
    return float(np.linalg.norm(p0 + s * d1 - (q0 + t * d2)))


@pytest.mark.parametrize("gap", [-1e-3, -1e-6, 1e-6, 1e-3])
def test_near_touching_pairs(gap):
    touching = gap < 0
    sq = np.sqrt(0.5)
    s_a = 0.25  # tapered capsule h 1, r 0.5 / 0.25: sin α; the side touches the bottom sphere at `tangent`
    side_normal = np.array([np.sqrt(1 - s_a**2), s_a, 0.0])
    tangent = np.array([0.0, -0.5, 0.0]) + 0.5 * side_normal
    cases = [
        (C(1, S.Sphere(1)), C(2, S.Sphere(1), position=(2 + gap, 0, 0))),
        (C(1, S.Sphere(1)), C(2, S.Box((2, 2, 2)), position=(2 + gap, 0.5, -0.5))),
        (C(1, S.Sphere(0.5)), C(2, S.Box((1, 1, 1)), position=[0.5 + (0.5 + gap) / np.sqrt(3)] * 3)),
        (C(1, S.Sphere(0.5)), C(2, S.Capsule(2, 0.5, 0.5), position=(0, 2 + gap, 0))),  # cap to sphere
        (C(1, S.Capsule(2, 0.5, 0.5)), C(2, S.Capsule(2, 0.5, 0.5), position=(1 + gap, 0.3, 0))),
        (
            C(1, S.Capsule(2, 0.5, 0.5)),
            C(2, S.Capsule(2, 0.5, 0.5), position=(2 + gap, 1, 0), rotation=rot((0, 0, 1), np.pi / 2)),
        ),
        (
            C(1, S.Box((1, 1, 1))),
            C(2, S.Box((1, 1, 1)), position=(0.5 + sq + gap, 0, 0), rotation=rot((0, 0, 1), np.pi / 4)),
        ),
        (C(1, S.Box((1, 1, 1))), C(2, S.Capsule(1, 0.25, 0.25), position=(0.75 + gap, 0.2, 0))),
        (C(1, S.Cylinder(1, 1, 0)), C(2, S.Sphere(0.5), position=(0, 1 + gap, 0))),  # cone apex
        (C(1, S.Cylinder(1, 1, 1)), C(2, S.Sphere(0.5), position=(1.5 + gap, 0.2, 0))),
        (C(1, box_mesh((1, 1, 1), convex=True)), C(2, S.Sphere(0.5), position=(0, 1 + gap, 0))),
        (C(1, box_mesh((1, 1, 1))), C(2, S.Sphere(0.5), position=(0, 1 + gap, 0))),
        (C(1, S.Cylinder(1, 0.5, 0.5)), C(2, S.Cylinder(1, 0.5, 0.5), position=(0.2, 1 + gap, 0))),  # cap on cap
        (C(1, S.Cylinder(1, 0.5, 0.5)), C(2, S.Box((1, 1, 1)), position=(1 + gap, 0.3, 0))),
        (C(1, S.Cylinder(1, 0.5, 0.5)), C(2, S.Capsule(1, 0.25, 0.25), position=(0.75 + gap, 0, 0))),
        (C(1, S.Capsule(1, 0.5, 0.25)), C(2, S.Sphere(0.1), position=tangent + (0.1 + gap) * side_normal)),
        (C(1, box_mesh((1, 1, 1))), C(2, box_mesh((1, 1, 1), convex=True), position=(1 + gap, 0.2, 0.1))),
        (C(1, S.Plane()), C(2, S.Sphere(0.5), position=(3, 0.5 + gap, 1))),
        (C(1, S.Plane(double_sided=True)), C(2, S.Box((1, 1, 1)), position=(0, -0.5 - gap, 0))),
        (C(1, S.Plane(size_x=2, size_z=2)), C(2, S.Sphere(0.5), position=(1.5 + gap, -3, 0))),  # beside the prism
        (
            C(1, S.Plane(size_x=2, size_z=2), rotation=rot((1, 0, 0), np.pi)),
            C(2, S.Capsule(1, 0.5, 0.5), position=(0, -1 - gap, 0)),
        ),
    ]
    for a, b in cases:
        assert ov.overlap(a, b) is touching, (a.shape, b.shape, gap)
        assert ov.overlap(b, a) is touching


def test_plane_regions():
    ball = C(2, S.Sphere(0.5), position=(0, -5, 0))
    assert ov.overlap(C(1, S.Plane()), ball)  # one-sided: the half-space behind is solid
    assert not ov.overlap(C(1, S.Plane(double_sided=True)), ball)  # double-sided: only the surface
    assert not ov.overlap(C(1, S.Plane(size_x=1, size_z=1)), C(2, S.Sphere(0.5), position=(3, -5, 0)))
    assert not ov.overlap(C(1, S.Plane()), C(2, S.Plane()))


def test_sphere_inside_closed_trimesh_does_not_touch_the_surface():
    assert not ov.overlap(C(1, box_mesh((4, 4, 4))), C(2, S.Sphere(0.5)))
    assert ov.overlap(C(1, box_mesh((4, 4, 4), convex=True)), C(2, S.Sphere(0.5)))


vec = st.tuples(coords, coords, coords)
quat = st.tuples(*[st.floats(-1, 1)] * 4).filter(lambda v: np.linalg.norm(v) > 0.2)


@settings(max_examples=80, deadline=None)
@given(vec, quat, vec, quat)
# parallel capsules exactly touching: GJK's last triangle is a sliver (1e-6 wide, 2.3 long) whose barycentric closest
# point lost every digit (1.7e-5 away instead of 1e-10): it stopped at 1.3e-6 for a distance of 0 (found in CI)
@example((-0.5, 0.0, 0.0), (0.0, 0.0, 1e-05, -0.5), (0.0, 0.0, 0.0), (0.0, 0.0, 1e-05, -0.5))
def test_gjk_distance_matches_closed_forms(pa, qa, pb, qb):
    pa, pb = np.array(pa), np.array(pb)
    # sphere–box: clamp the centre into the box
    box = C(1, S.Box((1, 2, 3)), position=pa, rotation=qa)
    local = box.matrix.T @ (pb - pa)
    expected = max(np.linalg.norm(local - np.clip(local, [-0.5, -1, -1.5], [0.5, 1, 1.5])) - 0.4, 0.0)
    a, b = ov.pieces(box)[0], ov.pieces(C(2, S.Sphere(0.4), position=pb))[0]
    got = gjk.gjk_distance(lambda d: a.support(d) - b.support(-d))
    assert got == pytest.approx(expected, abs=1e-6)
    # capsule–capsule: segment distance minus radii
    ca, cb = (
        C(1, S.Capsule(1.5, 0.3, 0.3), position=pa, rotation=qa),
        C(2, S.Capsule(0.8, 0.2, 0.2), position=pb, rotation=qb),
    )
    ends = [c.position + np.outer([-1, 1], c.matrix[:, 1] * c.shape.height / 2) for c in (ca, cb)]
    expected = max(closest_segment_distance(*ends[0], *ends[1]) - 0.5, 0.0)
    a, b = ov.pieces(ca)[0], ov.pieces(cb)[0]
    assert gjk.gjk_distance(lambda d: a.support(d) - b.support(-d)) == pytest.approx(expected, abs=1e-6)
    if abs(expected) > 1e-5:
        assert ov.overlap(ca, cb) is (expected == 0.0)


# ---------------------------------------------------------------- trigger events
def test_body_moving_through_a_trigger_emits_enter_then_exit():
    trigger = C(10, S.Box((2, 2, 2)), is_trigger=True)
    ball = C(20, S.Sphere(0.5), position=(-5, 0, 0), motion_node=19)
    xs = np.arange(-3.0, 3.01, 0.25)  # touches when |x| <= 1.5
    frames = [{20: ((x, 0, 0), (0, 0, 0, 1))} for x in xs]
    events = ov.trigger_events([trigger, ball], frames)
    enter, exit_ = int(np.argmax(xs >= -1.5)), int(np.argmax(xs > 1.5))
    assert events == [ov.TriggerEvent(enter, 10, 20, 19, "enter"), ov.TriggerEvent(exit_, 10, 20, 19, "exit")]


def test_trigger_filters_compounds_and_initial_overlap():
    only_players = pairs.CollisionFilter(frozenset({"sensor"}), frozenset({"player"}))
    left = C(11, S.Sphere(1), position=(-1, 0, 0), is_trigger=True, trigger_node=10, filter=only_players)
    right = C(12, S.Sphere(1), position=(1, 0, 0), is_trigger=True, trigger_node=10, filter=only_players)
    player = C(20, S.Sphere(0.2), position=(-1, 0, 0), filter=pairs.CollisionFilter(frozenset({"player"})))
    crate = C(30, S.Box((0.4, 0.4, 0.4)), position=(-1, 0, 0))  # unfiltered: not on the trigger's whitelist
    frames = [
        {},
        {20: ((0, 0, 0), (0, 0, 0, 1))},
        {20: ((1, 0, 0), (0, 0, 0, 1))},
        {20: ((5, 0, 0), (0, 0, 0, 1)), 30: ((5, 0, 0), (0, 0, 0, 1))},
    ]
    events = ov.trigger_events([left, right, player, crate], frames)
    assert [(e.frame, e.trigger_node, e.collider_node, e.kind) for e in events] == [
        (0, 10, 20, "enter"),  # overlapping at the first frame counts as entering
        (3, 10, 20, "exit"),  # moving from the left child to the right child keeps the compound entered
    ]
