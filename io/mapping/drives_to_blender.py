"""Velocity drives → Blender MOTOR constraints: one MOTOR per driven degree of freedom (bpy-free; docs/joints.md).

KHR ``joint.drive``: "each drive describes a force applied to one degree of freedom", force
``stiffness·(positionTarget − x) + damping·(velocityTarget − v)``. Forces on one degree of freedom add, so the
velocity drives (stiffness 0) on one (type, axis) of a joint act together as one drive::

    Σ dᵢ·(uᵢ − v) = D·(ū − v),   D = Σ dᵢ,   ū = Σ dᵢ·uᵢ / D   (the damping-weighted mean target)

That one drive is what the MOTOR gets: target ū (negated: Blender's MOTOR moves object2 along/about −X) and, as max
impulse, the sum of the drives' ``maxForce`` (the most the drives can push together; 10⁵ when one has none). A joint
with 100,000 drives therefore needs at most 6 MOTOR Empties (linear and angular × 3 axes), not 100,000.
Not reproduced, as for a single drive: the damping itself (Blender's motor is stiff up to its max impulse), the
``acceleration`` mode, and each drive's own clamp (Σ clamp(fᵢ) ≠ clamp(Σ fᵢ) once one saturates).
"""

from __future__ import annotations

import math
import sys
from dataclasses import dataclass

UNLIMITED_IMPULSE = 1.0e5  # MOTOR max impulse for drives without maxForce
LISTED = 5  # drive indices named in a combined note (a joint may have 100,000 of them)


@dataclass
class MotorPlan:
    """One Blender MOTOR constraint (its own Empty): ``axis`` is the glTF axis put on the Empty's X."""

    kind: str  # "LINEAR" | "ANGULAR"
    axis: int
    perm: tuple[int, int, int]
    target_velocity: float  # Blender value (sign convention applied)
    max_impulse: float
    note: str = ""  # this motor's entry of ``ConstraintPlan.notes`` (what the helper stores: not all N notes)
    drives: tuple[int, ...] = ()  # indices of the drives it stands for


def weighted_mean(values: list[float], weights: list[float]) -> float:
    """Σ wᵢ·xᵢ / Σ wᵢ for finite xᵢ and wᵢ > 0, finite even when the plain sums would overflow (values ~1e308)."""
    top_w = max(weights)
    top_x = max(abs(x) for x in values) or 1.0
    scaled = [w / top_w for w in weights]  # in (0, 1]
    return top_x * math.fsum(s * (x / top_x) for s, x in zip(scaled, values, strict=True)) / math.fsum(scaled)


def combined_impulse(max_forces: list[float | None]) -> float:
    """Max impulse of the MOTOR standing for drives with these ``maxForce`` values (None = unlimited)."""
    if any(f is None for f in max_forces):
        return UNLIMITED_IMPULSE
    return min(sum(float(f) for f in max_forces), sys.float_info.max)  # a sum of huge values overflows to inf


def velocity_motor(kind: str, axis: int, perm: tuple[int, int, int], drives: list[tuple[int, object]]) -> MotorPlan:
    """The MOTOR of the velocity drives ``[(index, JointDrive), …]`` on one (``kind``, ``axis``), with its note."""
    indices = tuple(n for n, _ in drives)
    velocities = [float(d.velocity_target or 0.0) for _, d in drives]
    target = weighted_mean(velocities, [float(d.damping) for _, d in drives])
    impulse = combined_impulse([d.max_force for _, d in drives])
    if len(drives) == 1:
        (n, drive) = drives[0]
        note = (
            f"drive {n}: velocity drive → MOTOR (stiff up to its max impulse; damping {drive.damping:g} and "
            f"mode {drive.mode!r} not reproduced)"
        )
    else:
        named = ", ".join(str(n) for n in indices[:LISTED])
        more = "" if len(indices) <= LISTED else f" and {len(indices) - LISTED:,} more"
        note = (
            f"drives {named}{more}: {len(indices):,} velocity drives on {kind.lower()} axis {axis} → one MOTOR "
            f"(their forces add: target {target:g}, the damping-weighted mean, max impulse {impulse:g}; stiff up "
            "to it, damping and mode not reproduced)"
        )
    return MotorPlan(kind, axis, perm, -target, impulse, note, indices)
