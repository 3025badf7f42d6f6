"""Joint drives: the drive force law, effective mass, an exact 1-DOF integrator and a settle preview for panels.

Drive law (KHR ``joint.drive``): ``a = stiffness·(positionTarget − x) + damping·(velocityTarget − v)``.
``force`` mode applies ``a`` as the force (torque); ``acceleration`` mode applies ``m_eff·a``, i.e. ``a`` is the
acceleration of the driven degree of freedom whatever the masses. ``maxForce`` clamps the applied force (absent =
unlimited). A missing target counts as 0 (the 2024-10 schema makes each gain require its target, and with default gains
of 0 the reading is the same as dropping the term; older files with a gain but no target get a spring/damper toward 0).

``exact_step`` integrates ``m·x'' = stiffness·(p − x) + damping·(u − v)`` in closed form (no clamp), so any step size
gives the true solution: the "kinematic integrator" idea (exact per-force dx, dv instead of Euler approximations).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np

MODES = ("force", "acceleration")
_BISECT_STEPS = 80
_SERIES_TERMS = 16


def _gains(stiffness, damping, mass, mode) -> tuple[float, float]:
    """``(κ, γ)`` of ``x'' + 2γx' + κx = …``: κ = k/m, γ = c/(2m) (m = 1 in acceleration mode)."""
    if mode not in MODES:
        raise ValueError(f"mode must be one of {MODES}, not {mode!r}")
    if stiffness < 0 or damping < 0:
        raise ValueError("stiffness and damping must be >= 0")
    m = 1.0 if mode == "acceleration" else float(mass)
    if not m > 0:
        raise ValueError(f"mass must be > 0 in force mode, got {mass!r}")
    return stiffness / m, damping / (2.0 * m)


def drive_kwargs(drive: Mapping) -> dict:
    """Keyword arguments for this module's functions from a glTF ``drive`` object (schema defaults applied)."""
    return {
        "stiffness": float(drive.get("stiffness", 0.0)),
        "damping": float(drive.get("damping", 0.0)),
        "position_target": drive.get("positionTarget"),
        "velocity_target": drive.get("velocityTarget"),
        "max_force": drive.get("maxForce"),
        "mode": drive.get("mode", "force"),
    }


def drive_force(
    position,
    velocity,
    *,
    stiffness: float = 0.0,
    damping: float = 0.0,
    position_target: float | None = None,
    velocity_target: float | None = None,
    max_force: float | None = None,
    mode: str = "force",
    effective_mass=1.0,
) -> np.ndarray:
    """Force (N) or torque (N·m) the drive applies to the driven coordinate; vectorised, clamped to ±maxForce."""
    if mode not in MODES:
        raise ValueError(f"mode must be one of {MODES}, not {mode!r}")
    if stiffness < 0 or damping < 0 or (max_force is not None and max_force < 0):
        raise ValueError("stiffness, damping and maxForce must be >= 0")
    x = np.asarray(position, dtype=np.float64)
    v = np.asarray(velocity, dtype=np.float64)
    a = stiffness * ((position_target or 0.0) - x) + damping * ((velocity_target or 0.0) - v)
    force = a * np.asarray(effective_mass, dtype=np.float64) if mode == "acceleration" else a
    if max_force is not None:
        force = np.clip(force, -max_force, max_force)
    return np.asarray(force, dtype=np.float64)


def effective_mass(mass_a: float | None, mass_b: float | None) -> float:
    """Reduced mass of a linear DOF between two bodies, 1/(1/mA + 1/mB); ``None``/``inf``/0 = immovable body."""
    inverse = sum(1.0 / m for m in (mass_a, mass_b) if m is not None and 0 < m < math.inf)
    return math.inf if inverse == 0 else 1.0 / inverse


def effective_inertia(axis, inv_inertia_a=None, inv_inertia_b=None) -> float:
    """Effective moment of inertia about a world ``axis``: 1/(n·IA⁻¹n + n·IB⁻¹n) with world inverse tensors."""
    n = np.asarray(axis, dtype=np.float64)
    n = n / np.linalg.norm(n)
    inverse = sum(
        float(n @ np.asarray(t, dtype=np.float64) @ n) for t in (inv_inertia_a, inv_inertia_b) if t is not None
    )
    return math.inf if inverse == 0 else 1.0 / inverse


# ------------------------------------------------------------------------------------------ exact integration


def _damped_basis(kappa: float, gamma: float, dt: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``C = e^{−γt}·{cos, 1, cosh}(ωt)`` and ``S = e^{−γt}·{sin/ω, t, sinh/ω}(ωt)``, ω = √|κ − γ²|.

    sin(ωt)/ω and sinh(ωt)/ω stay accurate for tiny ω, so only exact criticality (ω = 0) needs its own form.
    """
    disc = kappa - gamma * gamma
    omega = math.sqrt(abs(disc))
    z = omega * dt
    decay = np.exp(-gamma * dt)
    if disc > 0:  # under-damped
        return np.cos(z) * decay, np.sin(z) / omega * decay
    if disc == 0:  # critically damped
        return decay, dt * decay
    # over-damped: for large ωt use the two real roots, e^{−λt} with λ = κ/(γ + ω) (no cancellation) and e^{−(γ+ω)t}
    with np.errstate(over="ignore", invalid="ignore"):
        big = z > 20.0
        slow, fast = np.exp(-(kappa / (gamma + omega)) * dt), np.exp(-(gamma + omega) * dt)
        c = np.where(big, 0.5 * (slow + fast), np.cosh(z) * decay)
        s = np.where(big, 0.5 * (slow - fast), np.sinh(z) * decay) / omega
    return c, s


def exact_step(
    x,
    v,
    dt,
    *,
    stiffness: float = 0.0,
    damping: float = 0.0,
    position_target: float | None = None,
    velocity_target: float | None = None,
    mass: float = 1.0,
    mode: str = "force",
) -> tuple[np.ndarray, np.ndarray]:
    """Exact state ``(x, v)`` after ``dt`` of the unclamped drive ``m·x'' = k(p − x) + c(u − v)`` (vectorised).

    x(t) = C·x₀ + S·(v₀ + γx₀) + F·G(t), v(t) = C·v₀ − S·(κx₀ + γv₀) + F·S with F = κp + 2γu: under-, critically
    and over-damped springs, pure damping (k = 0) and free motion share this closed form; any ``dt`` ≥ 0 is exact, and
    two half steps equal one full step.
    """
    kappa, gamma = _gains(stiffness, damping, mass, mode)
    x = np.asarray(x, dtype=np.float64)
    v = np.asarray(v, dtype=np.float64)
    dt = np.asarray(dt, dtype=np.float64)
    if np.any(dt < 0):
        raise ValueError("dt must be >= 0")
    forcing = kappa * float(position_target or 0.0) + 2.0 * gamma * float(velocity_target or 0.0)
    c, s = _damped_basis(kappa, gamma, dt)
    x1 = c * x + s * (v + gamma * x) + forcing * _step_response(kappa, gamma, dt)
    v1 = c * v - s * (kappa * x + gamma * v) + forcing * s
    return x1, v1


def _expm1_over(rate: float, dt: np.ndarray) -> np.ndarray:
    """``(e^{rate·t} − 1)/rate``, → t as rate → 0."""
    r = rate * dt
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(np.abs(r) < 1e-5, dt * (1.0 + r / 2.0 + r * r / 6.0), np.expm1(r) / rate)


def _step_response(kappa: float, gamma: float, dt: np.ndarray) -> np.ndarray:
    """G(t) = ∫₀ᵗ S: the response of y'' + 2γy' + κy = 1 from rest, without cancellation for small κ or t.

    Short steps (γt, √κ·t < 0.1) use the Taylor series of G; clearly over-damped springs (ω ≥ 0.01γ, including
    κ = 0) the divided difference of (e^{rt} − 1)/r over the roots r = −γ ± ω; otherwise (1 − C − γS)/κ, which is
    well conditioned there because κt² ≥ 0.01.
    """
    coeffs = [0.0, 0.0, 1.0]  # y⁽ⁿ⁾(0): y'' = 1 − 2γy' − κy at t = 0, then the homogeneous recursion
    for _ in range(_SERIES_TERMS):
        coeffs.append(-2.0 * gamma * coeffs[-1] - kappa * coeffs[-2])
    series = np.zeros_like(dt)
    power = np.ones_like(dt)
    with np.errstate(over="ignore", invalid="ignore"):  # only used where γt, √κ·t < 0.1
        for n, coeff in enumerate(coeffs):
            series += coeff * power
            power = power * dt / (n + 1)
    small = (gamma * dt < 0.1) & (math.sqrt(kappa) * dt < 0.1)
    disc = kappa - gamma * gamma
    omega = math.sqrt(abs(disc))
    if disc < 0 and omega >= 0.01 * gamma:
        slow, fast = -kappa / (gamma + omega), -gamma - omega  # slow root without cancellation
        general = (_expm1_over(slow, dt) - _expm1_over(fast, dt)) / (slow - fast)
    else:
        c, s = _damped_basis(kappa, gamma, dt)
        with np.errstate(divide="ignore", invalid="ignore"):
            general = (1.0 - c - gamma * s) / kappa
    return np.where(small, series, general)


def exact_increments(x, v, dt, **drive) -> tuple[np.ndarray, np.ndarray]:
    """Kinematic-integrator form ``(dx, dv)``: x₁ = x₀ + v₀·dt + dx, v₁ = v₀ + dv (exact for the drive force)."""
    x1, v1 = exact_step(x, v, dt, **drive)
    return x1 - np.asarray(x) - np.asarray(v) * np.asarray(dt), v1 - np.asarray(v)


# ---------------------------------------------------------------------------------------------- settle preview


@dataclass(frozen=True)
class SettlePreview:
    """How a drive settles from ``(x0, v0)``; units follow the drive (m or rad, s)."""

    regime: str  # underdamped | critical | overdamped | undamped | first-order | free
    target_kind: str  # position (x → target) | velocity (v → target) | none
    target: float | None  # rest position p + c·u/k, or the target velocity
    settle_time: float | None  # after this |error| ≤ tolerance for good; 0 = already; None = never
    overshoot: float  # largest excursion past the target on the side opposite the start (≥ 0)
    overshoot_ratio: float | None  # overshoot / |initial error| (None when the initial error is 0)
    times: np.ndarray
    positions: np.ndarray
    velocities: np.ndarray


def _bisect(f, lo: float, hi: float) -> float:
    """Root of ``f`` in [lo, hi] given f(lo) and f(hi) of opposite signs (or hi if not)."""
    f_lo = f(lo)
    for _ in range(_BISECT_STEPS):
        mid = 0.5 * (lo + hi)
        if mid in (lo, hi):
            break
        f_mid = f(mid)
        if (f_mid > 0) == (f_lo > 0):
            lo, f_lo = mid, f_mid
        else:
            hi = mid
    return hi


def _spring_settle(kappa, gamma, y0, v0, tol) -> tuple[float | None, float, float]:
    """``(settle_time, overshoot, plot_span)`` of y'' + 2γy' + κy = 0 from (y0, v0)."""

    def y(t: float) -> float:
        c, s = _damped_basis(kappa, gamma, np.float64(t))
        return float(c * y0 + s * (v0 + gamma * y0))

    def vel(t: float) -> float:
        c, s = _damped_basis(kappa, gamma, np.float64(t))
        return float(c * v0 - s * (kappa * y0 + gamma * v0))

    side = np.sign(y0) or np.sign(v0)
    b = v0 + gamma * y0
    disc = kappa - gamma * gamma
    if disc > 0:  # oscillating: analytic peaks (v = 0) and zeros of y, peaks decay by e^{−γπ/ω}
        omega = math.sqrt(disc)
        phase_v = math.atan2((kappa * y0 + gamma * v0) / omega, v0)
        first_peak = ((math.pi / 2 - phase_v) % math.pi) / omega
        peaks = [first_peak + n * math.pi / omega for n in range(2)]
        overshoot = max(0.0, *(-side * y(t) for t in peaks))
        amplitude = math.hypot(y0, b / omega)
        if gamma == 0:
            return (0.0 if amplitude <= tol else None), overshoot, 8 * math.pi / omega
        envelope = math.log(amplitude / tol) / gamma if amplitude > tol else 0.0
        if envelope * omega > 1e12:  # ~1e11 periods: report the envelope time (within a period of the exact one)
            return envelope, overshoot, envelope
        if abs(y(first_peak)) > tol:
            count = math.floor(math.log(abs(y(first_peak)) / tol) / (gamma * math.pi / omega))
            start = first_peak + count * math.pi / omega
            for _ in range(3):  # guard the floor() against rounding (bounded: start may be huge)
                if abs(y(start)) > tol or start <= first_peak:
                    break
                start -= math.pi / omega
        elif abs(y0) > tol:
            start = 0.0
        else:
            return 0.0, overshoot, 8 * math.pi / omega
        zero = start + ((math.atan2(b / omega, y0) + math.pi / 2 - omega * start) % math.pi) / omega
        settle = _bisect(lambda t: abs(y(t)) - tol, start, zero)
        return settle, overshoot, max(settle * 1.25, 2 * math.pi / omega)
    # critical / over-damped: at most one extremum and one zero; |y| ≤ e^{−λt}(|y0| + |b|t), λ = γ − ω > 0
    lam = kappa / (gamma + math.sqrt(-disc))  # slow root γ − ω without cancellation
    bound = lambda t: math.exp(-lam * t) * (abs(y0) + abs(b) * t)  # noqa: E731
    t_end = max(0.0, 1.0 / lam - abs(y0) / abs(b)) if b else 0.0
    step = 1.0 / lam
    while bound(t_end) > tol:
        t_end += step
        step *= 2.0
    grid = np.linspace(0.0, t_end, 2049)
    c, s = _damped_basis(kappa, gamma, grid)
    ys, vs = c * y0 + s * b, c * v0 - s * (kappa * y0 + gamma * v0)
    cuts = [0.0, t_end]
    for values, func in ((ys, y), (vs, vel)):
        change = np.nonzero(np.sign(values[:-1]) * np.sign(values[1:]) < 0)[0]
        cuts += [_bisect(func, grid[i], grid[i + 1]) for i in change]
    cuts = sorted(cuts)
    overshoot = max(0.0, *(-side * y(t) for t in cuts))
    settle = 0.0
    for lo, hi in zip(reversed(cuts[:-1]), reversed(cuts[1:]), strict=True):  # |y| monotone on each piece
        if abs(y(lo)) > tol:
            settle = hi if abs(y(hi)) > tol else _bisect(lambda t: abs(y(t)) - tol, lo, hi)
            break
    return settle, overshoot, max(settle * 1.25, 5.0 / lam)


def settle_preview(
    x0: float,
    v0: float,
    *,
    stiffness: float = 0.0,
    damping: float = 0.0,
    position_target: float | None = None,
    velocity_target: float | None = None,
    mass: float = 1.0,
    mode: str = "force",
    tolerance: float = 1e-3,
    samples: int = 256,
    horizon: float | None = None,
) -> SettlePreview:
    """Time to settle within ``tolerance`` of the target, overshoot, and an exact sampled trajectory.

    With stiffness the target is the rest position ``p + c·u/k`` (error = x − rest); without stiffness but with
    damping it is the target velocity (error = v − u); with neither there is no target. ``horizon`` fixes the sampled
    span (default: 1.25 × settle time, at least a few time constants or periods).
    """
    drive = {"stiffness": stiffness, "damping": damping, "position_target": position_target}
    drive |= {"velocity_target": velocity_target, "mass": mass, "mode": mode}
    kappa, gamma = _gains(stiffness, damping, mass, mode)
    if tolerance <= 0 or samples < 2:
        raise ValueError("tolerance must be > 0 and samples >= 2")
    p, u = float(position_target or 0.0), float(velocity_target or 0.0)
    if kappa > 0:
        target = p + 2.0 * gamma * u / kappa
        error = x0 - target
        settle, overshoot, span = _spring_settle(kappa, gamma, error, v0, tolerance)
        disc = kappa - gamma * gamma
        if gamma == 0:
            regime = "undamped"
        elif abs(disc) <= 1e-9 * kappa:  # label only: c = 2√(km) rarely lands exactly on κ = γ² in floating point
            regime = "critical"
        else:
            regime = "underdamped" if disc > 0 else "overdamped"
        kind = "position"
    elif gamma > 0:
        target, error, kind, regime, overshoot = u, v0 - u, "velocity", "first-order", 0.0
        settle = max(0.0, math.log(abs(error) / tolerance) / (2 * gamma)) if error else 0.0
        span = max(settle * 1.25, 2.5 / gamma)
    else:
        target, error, kind, regime, overshoot, settle, span = None, 0.0, "none", "free", 0.0, None, 1.0
    times = np.linspace(0.0, horizon if horizon is not None else span, samples)
    positions, velocities = exact_step(np.full(samples, float(x0)), np.full(samples, float(v0)), times, **drive)
    ratio = overshoot / abs(error) if error else None
    return SettlePreview(regime, kind, target, settle, overshoot, ratio, times, positions, velocities)
