"""Joint-limit metrics of the KHR_physics_rigid_bodies appendix, their violations and soft-limit responses.

Everything is evaluated in frame A (the joint node): d = R(qA)ᵀ(tB − tA), q_rel = qA* ⊗ qB, axes eᵢ of frame A.

====================  =======================================================  ========
limit                 metric                                                   unit
====================  =======================================================  ========
linear [i]            dᵢ (signed)                                              m
linear [i, j]         ‖d − d_k e_k‖ = √(dᵢ² + dⱼ²) (distance from the k line)   m
linear [i, j, k]      ‖d‖                                                      m
angular [i]           signed twist 2·atan2(q_rel·eᵢ, w), q_rel in w ≥ 0        rad
angular [i, j]        cone acos((qA e_k)·(qB e_k)) ∈ [0, π]                    rad
angular [i, j, k]     total angle 2·acos(|w|) ∈ [0, π]                         rad
====================  =======================================================  ========

``limit_metric`` is the fast path (``limit_kernels.py``): it computes only the components a metric needs (e.g. w and
vᵢ of q_rel for a twist), in cache-sized chunks, with scale-invariant atan forms (accurate near 0 and π, tolerant of
non-unit quaternions). ``limit_metric_reference`` follows the appendix literally through ``quat.py``; tests compare
the two.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np

from . import limit_kernels, quat

KIND_NAMES = {
    ("linear", 1): "linear-plane",
    ("linear", 2): "linear-line",
    ("linear", 3): "linear-point",
    ("angular", 1): "angular-twist",
    ("angular", 2): "angular-cone",
    ("angular", 3): "angular-total",
}


# --------------------------------------------------------------------------------------------------- validation


def validate_axes(linear_axes=None, angular_axes=None) -> tuple[str, tuple[int, ...]]:
    """Return ``("linear"|"angular", sorted axes)``; ValueError unless exactly one of them is 1–3 unique ints 0..2."""
    if (linear_axes is None) == (angular_axes is None):
        raise ValueError("give exactly one of linear_axes / angular_axes")
    kind, axes = ("linear", linear_axes) if linear_axes is not None else ("angular", angular_axes)
    if isinstance(axes, str | bytes) or not isinstance(axes, Sequence | np.ndarray):
        raise ValueError(f"{kind}_axes must be a sequence of axis indices, got {axes!r}")
    values = list(axes)
    if not 1 <= len(values) <= 3:
        raise ValueError(f"{kind}_axes must hold 1 to 3 axes, got {values!r}")
    for value in values:
        if isinstance(value, bool) or not isinstance(value, int | np.integer) or not 0 <= value <= 2:
            raise ValueError(f"{kind}_axes entries must be integers 0, 1 or 2, got {value!r}")
    if len(set(int(v) for v in values)) != len(values):
        raise ValueError(f"{kind}_axes must not repeat an axis, got {values!r}")
    return kind, tuple(sorted(int(v) for v in values))


def limit_kind(linear_axes=None, angular_axes=None) -> str:
    """Short name of a limit's metric, e.g. ``angular-twist`` or ``linear-line``."""
    kind, axes = validate_axes(linear_axes, angular_axes)
    return KIND_NAMES[(kind, len(axes))]


def _as_samples(name: str, value, width: int) -> np.ndarray:
    arr = np.asarray(value, dtype=np.float64)
    if arr.ndim == 1 and arr.shape[0] == width:
        return arr[None, :]
    if arr.ndim == 2 and arr.shape[1] == width:
        return arr
    raise ValueError(f"{name} must have shape ({width},) or (N, {width}), got {arr.shape}")


def _broadcast_inputs(t_a, q_a, t_b, q_b) -> tuple[np.ndarray, ...]:
    arrays = [
        _as_samples("t_a", t_a, 3),
        _as_samples("q_a", q_a, 4),
        _as_samples("t_b", t_b, 3),
        _as_samples("q_b", q_b, 4),
    ]
    sizes = {len(a) for a in arrays} - {1}
    if len(sizes) > 1:
        raise ValueError(f"sample counts differ: {sorted(sizes)}")
    n = sizes.pop() if sizes else 1
    return tuple(a if len(a) == n else np.broadcast_to(a, (n, a.shape[1])) for a in arrays)


def limit_metric(t_a, q_a, t_b, q_b, *, linear_axes=None, angular_axes=None) -> np.ndarray:
    """The appendix metric of one limit for N samples of both frames; shape ``(N,)`` (N = 1 for single inputs).

    ``t_*``: (3,) or (N, 3) world translations; ``q_*``: (4,) or (N, 4) world rotations (x, y, z, w). Exactly one of
    ``linear_axes`` / ``angular_axes`` (indices 0..2 of frame A); ValueError otherwise.
    """
    kind, axes = validate_axes(linear_axes, angular_axes)
    return limit_kernels.evaluate(kind, axes, *_broadcast_inputs(t_a, q_a, t_b, q_b))


def limit_metric_reference(t_a, q_a, t_b, q_b, *, linear_axes=None, angular_axes=None) -> np.ndarray:
    """Same as ``limit_metric`` but written literally with ``quat.py`` operations (slower; for cross-checks)."""
    kind, axes = validate_axes(linear_axes, angular_axes)
    t_a, q_a, t_b, q_b = _broadcast_inputs(t_a, q_a, t_b, q_b)
    q_a, q_b = quat.normalize(q_a), quat.normalize(q_b)
    basis = np.eye(3)
    if kind == "linear":
        d = quat.rotate_inverse(q_a, t_b - t_a)
        if len(axes) == 1:
            return d[:, axes[0]]
        if len(axes) == 2:
            k = 3 - sum(axes)
            return np.linalg.norm(d - d[:, k : k + 1] * basis[k], axis=1)
        return np.linalg.norm(d, axis=1)
    q_rel = quat.multiply(quat.conjugate(q_a), q_b)
    if len(axes) == 1:
        return quat.twist_swing(q_rel, basis[axes[0]])[2]
    if len(axes) == 2:
        e_k = basis[3 - sum(axes)]
        cos = quat.dot(quat.rotate(q_a, e_k), quat.rotate(q_b, e_k))
        return np.arccos(np.clip(cos, -1.0, 1.0))
    return 2.0 * np.arccos(np.clip(np.abs(q_rel[:, 3]), 0.0, 1.0))


# ------------------------------------------------------------------------------------- violations and responses


def _check_bounds(lower, upper) -> None:
    if lower is not None and upper is not None and np.any(np.asarray(lower) > np.asarray(upper)):
        raise ValueError(f"lower bound {lower} exceeds upper bound {upper}")


def limit_violation(metric, lower: float | None = None, upper: float | None = None) -> np.ndarray:
    """Distance of each metric value outside [lower, upper] (0 inside; ``None`` = unbounded on that side)."""
    _check_bounds(lower, upper)
    metric = np.asarray(metric, dtype=np.float64)
    out = np.zeros_like(metric)
    if lower is not None:
        np.maximum(out, lower - metric, out=out)
    if upper is not None:
        np.maximum(out, metric - upper, out=out)
    out[np.isnan(metric)] = np.nan
    return out


def joint_limit_violation(
    t_a, q_a, t_b, q_b, *, linear_axes=None, angular_axes=None, lower=None, upper=None
) -> np.ndarray:
    """``limit_violation(limit_metric(...), lower, upper)`` in one call."""
    metric = limit_metric(t_a, q_a, t_b, q_b, linear_axes=linear_axes, angular_axes=angular_axes)
    return limit_violation(metric, lower, upper)


def soft_limit_response(
    metric,
    metric_rate,
    lower: float | None,
    upper: float | None,
    stiffness: float | None,
    damping: float = 0.0,
) -> np.ndarray:
    """Restoring generalised force (N, or N·m for angular metrics) along the metric coordinate.

    Outside the range: ``stiffness·(bound − metric) − damping·metric_rate`` with ``bound`` the violated bound; inside:
    0 (soft limits act only outside [lower, upper]). ``stiffness=None`` is a hard limit: no finite spring law exists, so
    the result is ``+inf`` below the range, ``-inf`` above it and 0 inside (the sign says which way the constraint
    pushes; a solver must project instead of integrating it).
    """
    _check_bounds(lower, upper)
    metric = np.asarray(metric, dtype=np.float64)
    rate = np.asarray(metric_rate, dtype=np.float64)
    below = metric < lower if lower is not None else np.zeros(metric.shape, bool)
    above = metric > upper if upper is not None else np.zeros(metric.shape, bool)
    if stiffness is None:
        return np.where(below, np.inf, np.where(above, -np.inf, 0.0))
    if stiffness < 0 or damping < 0:
        raise ValueError("stiffness and damping must be >= 0")
    bound = np.where(below, lower if lower is not None else 0.0, upper if upper is not None else 0.0)
    force = stiffness * (bound - metric) - damping * rate
    return np.where(below | above, force, 0.0)


def metric_for_limit(limit: Mapping, t_a, q_a, t_b, q_b) -> np.ndarray:
    """Metric of a glTF ``limit`` object (``linearAxes`` or ``angularAxes``; ValueError otherwise)."""
    return limit_metric(t_a, q_a, t_b, q_b, linear_axes=limit.get("linearAxes"), angular_axes=limit.get("angularAxes"))
