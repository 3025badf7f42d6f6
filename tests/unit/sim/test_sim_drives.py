"""sim.drives: drive law and clamp, effective mass, exact integrator vs closed forms, settle preview."""

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from testkit import submodule

D = submodule("sim.drives")

gains = st.floats(0.0, 50.0, allow_nan=False, allow_subnormal=False)  # the test reference rounds subnormals
state = st.floats(-5.0, 5.0, allow_nan=False)
steps = st.floats(0.0, 20.0, allow_nan=False)
masses = st.floats(0.1, 10.0, allow_nan=False)
targets = st.one_of(st.none(), st.floats(-3.0, 3.0, allow_nan=False))


def closed_form(x0, v0, t, k, c, m, p, u):
    """Textbook solution of m·x'' + c·x' + k·x = k·p + c·u via the characteristic roots (written independently)."""
    if k == 0 and c / m == 0:
        return x0 + v0 * t, v0
    if k == 0:
        r = c / m
        return x0 + u * t + (v0 - u) * -math.expm1(-r * t) / r, u + (v0 - u) * math.exp(-r * t)
    rest = p + c * u / k
    y0 = x0 - rest
    disc = c * c - 4 * m * k
    if disc < 0:
        alpha, beta = -c / (2 * m), math.sqrt(-disc) / (2 * m)
        a, b = y0, (v0 - alpha * y0) / beta
        e = math.exp(alpha * t)
        y = e * (a * math.cos(beta * t) + b * math.sin(beta * t))
        dy = alpha * y + e * beta * (-a * math.sin(beta * t) + b * math.cos(beta * t))
        return rest + y, dy
    if abs(disc) <= 1e-12 * (c * c + 4 * m * k):  # the root formulas are ill-conditioned next to critical
        r = -c / (2 * m)
        a, b = y0, v0 - r * y0
        return rest + (a + b * t) * math.exp(r * t), (r * (a + b * t) + b) * math.exp(r * t)
    r1, r2 = (-c + math.sqrt(disc)) / (2 * m), (-c - math.sqrt(disc)) / (2 * m)
    c1 = (v0 - r2 * y0) / (r1 - r2)
    c2 = y0 - c1
    return rest + c1 * math.exp(r1 * t) + c2 * math.exp(r2 * t), r1 * c1 * math.exp(r1 * t) + r2 * c2 * math.exp(r2 * t)


# ----------------------------------------------------------------------------------------------- force law


def test_drive_force_law_both_targets():
    f = D.drive_force([0.0, 1.0], [0.0, 2.0], stiffness=10.0, damping=2.0, position_target=0.5, velocity_target=1.0)
    np.testing.assert_allclose(f, [10 * 0.5 + 2 * 1.0, 10 * -0.5 + 2 * -1.0])


def test_drive_force_missing_targets_are_zero_and_absent_gains_do_nothing():
    assert D.drive_force(2.0, 3.0, stiffness=4.0) == pytest.approx(-8.0)
    assert D.drive_force(2.0, 3.0, damping=1.0, velocity_target=5.0) == pytest.approx(2.0)
    assert D.drive_force(2.0, 3.0) == 0.0


def test_drive_force_acceleration_mode_scales_by_effective_mass():
    kwargs = {"stiffness": 3.0, "position_target": 1.0, "mode": "acceleration"}
    assert D.drive_force(0.0, 0.0, effective_mass=4.0, **kwargs) == pytest.approx(12.0)
    assert D.drive_force(0.0, 0.0, effective_mass=4.0, stiffness=3.0, position_target=1.0) == pytest.approx(3.0)


@settings(max_examples=100, deadline=None)
@given(state, state, gains, gains, targets, targets, st.floats(0.0, 10.0))
def test_drive_clamp(x, v, k, c, p, u, max_force):
    free = D.drive_force(x, v, stiffness=k, damping=c, position_target=p, velocity_target=u)
    clamped = D.drive_force(x, v, stiffness=k, damping=c, position_target=p, velocity_target=u, max_force=max_force)
    assert abs(clamped) <= max_force
    assert clamped == pytest.approx(max(-max_force, min(max_force, free)))
    assert np.sign(clamped) in (0.0, np.sign(free))


def test_drive_force_rejects_bad_parameters():
    with pytest.raises(ValueError):
        D.drive_force(0, 0, mode="velocity")
    with pytest.raises(ValueError):
        D.drive_force(0, 0, stiffness=-1)
    with pytest.raises(ValueError):
        D.drive_force(0, 0, max_force=-1)


def test_drive_kwargs_from_gltf():
    drive = {"type": "angular", "mode": "acceleration", "axis": 0, "positionTarget": 1.5, "stiffness": 2.0}
    assert D.drive_kwargs(drive) == {
        "stiffness": 2.0,
        "damping": 0.0,
        "position_target": 1.5,
        "velocity_target": None,
        "max_force": None,
        "mode": "acceleration",
    }


def test_effective_mass_and_inertia():
    assert D.effective_mass(2.0, 2.0) == pytest.approx(1.0)
    assert D.effective_mass(3.0, None) == pytest.approx(3.0)
    assert D.effective_mass(3.0, 0.0) == pytest.approx(3.0)  # KHR: mass 0 = infinite
    assert D.effective_mass(None, math.inf) == math.inf
    inv_a = np.diag([1 / 2.0, 1 / 4.0, 1.0])
    assert D.effective_inertia([0, 1, 0], inv_a, np.diag([0.25, 0.25, 0.25])) == pytest.approx(2.0)
    assert D.effective_inertia([0, 0, 5], inv_a) == pytest.approx(1.0)


# ----------------------------------------------------------------------------------------- exact integrator


@pytest.mark.parametrize(
    "k, c, m",
    [(10.0, 1.0, 1.0), (10.0, 2 * math.sqrt(10.0), 1.0), (4.0, 4.0, 1.0), (10.0, 20.0, 2.0), (0.0, 3.0, 1.5)],
    ids=["under", "critical-float", "critical-exact", "over", "pure-damping"],
)
@pytest.mark.parametrize("dt", [0.0, 1e-6, 0.01, 0.7, 25.0])
def test_exact_step_matches_closed_form(k, c, m, dt):
    drive = {"stiffness": k, "damping": c, "mass": m, "position_target": 0.4, "velocity_target": -0.3}
    x1, v1 = D.exact_step(1.2, 0.8, dt, **drive)
    ex, ev = closed_form(1.2, 0.8, dt, k, c, m, 0.4, -0.3)
    assert x1 == pytest.approx(ex, abs=1e-9)
    assert v1 == pytest.approx(ev, abs=1e-9)


def test_exact_step_free_motion_and_undamped_spring():
    assert D.exact_step(1.0, 2.0, 3.0) == pytest.approx((7.0, 2.0))
    x, v = D.exact_step(1.0, 0.0, math.pi / 2, stiffness=4.0)  # ω = 2: a half period
    assert (x, v) == pytest.approx((-1.0, 0.0), abs=1e-12)


def test_exact_step_acceleration_mode_ignores_mass():
    drive = {"stiffness": 5.0, "damping": 1.0, "position_target": 1.0, "mode": "acceleration"}
    heavy = D.exact_step(0.0, 0.0, 0.8, mass=50.0, **drive)
    light = D.exact_step(0.0, 0.0, 0.8, mass=1.0, stiffness=5.0, damping=1.0, position_target=1.0)
    assert heavy == pytest.approx(light)


def test_exact_step_vectorised_and_large_steps_finite():
    x, v = D.exact_step(np.ones(4), np.zeros(4), [0.0, 1.0, 1e3, 1e6], stiffness=1.0, damping=30.0)
    assert np.all(np.isfinite(x)) and np.all(np.isfinite(v))
    assert x[0] == 1.0 and abs(x[-1]) < 1e-12


@pytest.mark.parametrize("dt", [1e-3, 0.5, 10.0, 1e4])
def test_tiny_stiffness_is_continuous_with_pure_damping(dt):
    drive = {"damping": 2.0, "position_target": 1.0, "velocity_target": 3.0}
    soft = D.exact_step(0.5, -1.0, dt, stiffness=1e-13, **drive)
    none = D.exact_step(0.5, -1.0, dt, stiffness=0.0, **drive)
    np.testing.assert_allclose(soft, none, rtol=1e-8, atol=1e-9)


def test_exact_step_rejects_bad_mass():
    with pytest.raises(ValueError):
        D.exact_step(0, 0, 1, stiffness=1, mass=0.0)


@settings(max_examples=150, deadline=None)
@given(state, state, steps, gains, gains, masses, targets, targets)
def test_exact_step_any_step_size(x0, v0, dt, k, c, m, p, u):
    drive = {"stiffness": k, "damping": c, "mass": m, "position_target": p, "velocity_target": u}
    x1, v1 = D.exact_step(x0, v0, dt, **drive)
    if 0 < k < 1e-3:
        return  # the rest position p + c·u/k is ill-conditioned; covered by the composition property
    ex, ev = closed_form(x0, v0, dt, k, c, m, p or 0.0, u or 0.0)
    scale = 1.0 + abs(ex) + abs(ev)
    assert abs(x1 - ex) <= 1e-8 * scale and abs(v1 - ev) <= 1e-8 * scale * (1 + math.sqrt(k / m))


@settings(max_examples=150, deadline=None)
@given(state, state, steps, gains, gains, masses, targets, targets)
def test_two_half_steps_equal_one_step(x0, v0, dt, k, c, m, p, u):
    drive = {"stiffness": k, "damping": c, "mass": m, "position_target": p, "velocity_target": u}
    full = D.exact_step(x0, v0, dt, **drive)
    half = D.exact_step(*D.exact_step(x0, v0, dt / 2, **drive), dt / 2, **drive)
    scale = 1.0 + abs(x0) + abs(v0) + abs(p or 0) + abs(u or 0) * (1 + c / max(k, 1e-3))
    np.testing.assert_allclose(half, full, atol=1e-9 * scale * (1 + math.sqrt(k / m)))


def test_exact_increments_kinematic_form():
    dx, dv = D.exact_increments(1.0, 0.5, 0.1, stiffness=9.0)  # blog: dv = v0(cos−1) − x0·ω·sin, ω = 3
    w = 3.0
    assert dv == pytest.approx(0.5 * (math.cos(w * 0.1) - 1) - 1.0 * w * math.sin(w * 0.1))
    assert dx == pytest.approx(0.5 * (math.sin(w * 0.1) / w - 0.1) + 1.0 * (math.cos(w * 0.1) - 1))


# -------------------------------------------------------------------------------------------- settle preview


def brute_settle(x0, v0, k, c, m, p, u, tol, span, n=400_000):
    t = np.linspace(0, span, n)
    x = np.array([closed_form(x0, v0, ti, k, c, m, p, u)[0] for ti in t[:: n // 4000]])
    rest = p + c * u / k
    # refine: the last coarse sample above tol, then a fine scan around it
    idx = np.nonzero(np.abs(x - rest) > tol)[0]
    if len(idx) == 0:
        return 0.0
    coarse = t[:: n // 4000]
    lo, hi = coarse[idx[-1]], coarse[min(idx[-1] + 1, len(coarse) - 1)]
    fine = np.linspace(lo, hi, 20001)
    xf = np.array([closed_form(x0, v0, ti, k, c, m, p, u)[0] for ti in fine])
    return fine[np.nonzero(np.abs(xf - rest) > tol)[0][-1]]


@pytest.mark.parametrize(
    "k, c, x0, v0",
    [
        (10.0, 1.0, 1.0, 0.0),
        (10.0, 1.0, 0.0, 2.0),
        (10.0, 0.3, -1.0, 5.0),
        (4.0, 4.0, 1.0, 0.0),
        (4.0, 4.0, 1.0, -6.0),
        (10.0, 20.0, 1.0, 0.0),
        (10.0, 20.0, 1.0, -30.0),
        (1.0, 2.0, 0.0, 0.0),
    ],
)
def test_settle_time_matches_brute_force(k, c, x0, v0):
    preview = D.settle_preview(x0, v0, stiffness=k, damping=c, position_target=0.25, tolerance=1e-3)
    expected = brute_settle(x0, v0, k, c, 1.0, 0.25, 0.0, 1e-3, span=60.0)
    assert preview.target == pytest.approx(0.25)
    assert preview.settle_time == pytest.approx(expected, abs=2e-4)


def test_settle_overshoot_underdamped_matches_textbook():
    k, c = 10.0, 1.0
    zeta = c / (2 * math.sqrt(k))
    preview = D.settle_preview(1.0, 0.0, stiffness=k, damping=c, position_target=0.0)
    assert preview.regime == "underdamped"
    assert preview.overshoot_ratio == pytest.approx(math.exp(-zeta * math.pi / math.sqrt(1 - zeta**2)))
    # trajectory is the exact solution, sampled
    expected = [closed_form(1.0, 0.0, t, k, c, 1.0, 0.0, 0.0)[0] for t in preview.times]
    np.testing.assert_allclose(preview.positions, expected, atol=1e-12)


def test_settle_overshoot_of_critical_push():
    # pushed through the target: critical damping still crosses once; overshoot is the far-side extremum
    preview = D.settle_preview(1.0, -6.0, stiffness=4.0, damping=4.0, position_target=0.0)
    assert preview.regime == "critical"
    t = np.linspace(0, 10, 200001)
    xs = np.array([closed_form(1.0, -6.0, ti, 4.0, 4.0, 1.0, 0, 0)[0] for ti in t[::10]])
    assert preview.overshoot == pytest.approx(-xs.min(), rel=1e-6)
    assert D.settle_preview(1.0, 0.0, stiffness=4.0, damping=4.0, position_target=0.0).overshoot == 0.0


def test_settle_velocity_drive_and_free_and_undamped():
    preview = D.settle_preview(0.0, 0.0, damping=2.0, velocity_target=3.0, tolerance=1e-3, mass=2.0)
    assert (preview.regime, preview.target_kind, preview.target) == ("first-order", "velocity", 3.0)
    assert preview.settle_time == pytest.approx(2.0 * math.log(3.0 / 1e-3) / 2.0)  # v − u = −3·e^{−(c/m)t}
    free = D.settle_preview(0.0, 1.0)
    assert (free.regime, free.settle_time, free.target) == ("free", None, None)
    undamped = D.settle_preview(1.0, 0.0, stiffness=1.0, position_target=0.0)
    assert (undamped.regime, undamped.settle_time) == ("undamped", None)
    assert undamped.overshoot == pytest.approx(1.0)


def test_settle_already_at_target_and_horizon():
    preview = D.settle_preview(0.5, 0.0, stiffness=3.0, damping=1.0, position_target=0.5, horizon=2.0, samples=5)
    assert preview.settle_time == 0.0 and preview.overshoot == 0.0 and preview.overshoot_ratio is None
    np.testing.assert_allclose(preview.times, [0, 0.5, 1.0, 1.5, 2.0])
    np.testing.assert_allclose(preview.positions, 0.5)


@pytest.mark.parametrize(
    "k, c, m",
    [(1e6, 1e-9, 1.0), (1e-9, 1e6, 1.0), (1e9, 1.0, 1e-6), (1e-12, 0.0, 1.0), (3.0, 1e-300, 1.0)],
)
def test_settle_preview_extreme_parameters_stay_finite(k, c, m):
    preview = D.settle_preview(1.0, 0.5, stiffness=k, damping=c, mass=m, position_target=0.0, samples=16)
    assert preview.settle_time is None or math.isfinite(preview.settle_time)
    assert math.isfinite(preview.overshoot) and preview.overshoot >= 0
    assert np.all(np.isfinite(preview.positions)) and np.all(np.isfinite(preview.velocities))
