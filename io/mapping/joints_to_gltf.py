"""Blender rigid-body constraint settings → glTF joint descriptions (bpy-free).

The joint frame is the constraint Empty's own axes (glTF axis k = the Empty's axis k). Signs follow the import's
measured engine conventions (``joint_mapping``): linear limits keep their values, angular limits bound object1
relative to object2 in Blender, so Blender [lo, hi] → glTF [−hi, −lo]; MOTOR target velocities are negated.
"""

from __future__ import annotations

import math

from ..gltf.model import JointDescription, JointDrive, JointLimit
from .axes import clean_zero
from .values_to_gltf import TOL

MOTOR_DAMPING = 1000.0  # velocity drive gain standing for Blender's stiff MOTOR (up to its max impulse)


def _lin(axes, lo: float, hi: float) -> JointLimit:
    return JointLimit(linear_axes=tuple(axes), min=clean_zero(lo), max=clean_zero(hi))


def _ang(axes, lo: float, hi: float) -> JointLimit:
    """Blender angle interval (object1 relative to object2) → glTF twist of B in A: [−hi, −lo]."""
    return JointLimit(angular_axes=tuple(axes), min=clean_zero(-hi), max=clean_zero(-lo))


def constraint_description(c: dict) -> tuple[JointDescription | None, list[str]]:
    """A joint description (frame = the constraint Empty's axes) for Blender constraint settings ``c``:
    ``type``; ``lin``/``ang``: per axis (lower, upper) or None (free); ``lin_springs``/``ang_springs``: per axis
    (stiffness, damping) or None; ``motor_lin``/``motor_ang``: (target velocity, max impulse) or None."""
    kind = c["type"]
    notes: list[str] = []
    limits: list[JointLimit] = []
    drives: list[JointDrive] = []
    lin, ang = _limited(c.get("lin", [None] * 3), "linear", notes), _limited(c.get("ang", [None] * 3), "angular", notes)
    if kind == "FIXED":
        limits = [_lin((0, 1, 2), 0, 0), _ang((0, 1, 2), 0, 0)]
    elif kind == "POINT":
        limits = [_lin((0, 1, 2), 0, 0)]
    elif kind == "HINGE":
        limits = [_lin((0, 1, 2), 0, 0), _ang((0, 1), 0, 0)]
        if ang[2] is not None:
            limits.append(_ang((2,), *ang[2]))
    elif kind in ("SLIDER", "PISTON"):
        limits = [_lin((1, 2), 0, 0)]
        if lin[0] is not None:
            limits.append(_lin((0,), *lin[0]))
        if kind == "SLIDER":
            limits.append(_ang((0, 1, 2), 0, 0))
        else:
            limits.append(_ang((1, 2), 0, 0))
            if ang[0] is not None:
                limits.append(_ang((0,), *ang[0]))
    elif kind in ("GENERIC", "GENERIC_SPRING"):
        limits = _generic_limits(lin, ang)
        if kind == "GENERIC_SPRING":
            drives = _spring_drives(c, notes)
    elif kind == "MOTOR":
        drives = _motor_drives(c, notes)
        if not drives:
            notes.append("MOTOR constraint with no motor enabled: written as a free joint")
    else:
        return None, [f"constraint type {kind!r} has no glTF joint equivalent"]
    return JointDescription(limits=limits, drives=drives), notes


def _limited(intervals, part: str, notes: list[str]) -> list:
    """``intervals`` with every lower > upper one made None: Bullet leaves such an axis free (its generic, hinge and
    slider limits all test lower <= upper), so the file says free too (``min > max`` is an invalid glTF limit)."""
    inverted = [k for k, pair in enumerate(intervals) if pair is not None and pair[0] > pair[1]]
    if not inverted:
        return intervals
    names = ", ".join("XYZ"[k] for k in inverted)
    notes.append(f"{part} limit {names} has lower > upper, which Blender simulates as no limit: written free")
    return [None if k in inverted else pair for k, pair in enumerate(intervals)]


def _generic_limits(lin, ang) -> list[JointLimit]:
    out: list[JointLimit] = []
    for values, make in ((lin, _lin), (ang, _ang)):
        locked = [k for k in range(3) if values[k] is not None and abs(values[k][0]) < TOL and abs(values[k][1]) < TOL]
        if locked:
            out.append(make(locked, 0.0, 0.0))
        for k in range(3):
            if values[k] is not None and k not in locked:
                out.append(make((k,), *values[k]))
    return out


def _spring_drives(c: dict, notes: list[str]) -> list[JointDrive]:
    out = []
    for kind, springs in (("linear", c.get("lin_springs")), ("angular", c.get("ang_springs"))):
        for k, spring in enumerate(springs or ()):
            if spring is None:
                continue
            stiffness, damping = (max(float(v), 0.0) for v in spring)
            out.append(
                JointDrive(
                    type=kind,
                    mode="force",
                    axis=k,
                    position_target=0.0,
                    velocity_target=0.0,  # damping acts on the velocity error (schema: damping needs a target)
                    stiffness=stiffness,
                    damping=damping,
                )
            )
    if out:
        notes.append("springs written as position drives toward the rest pose (Bullet spring damping semantics)")
    return out


def _motor_drives(c: dict, notes: list[str]) -> list[JointDrive]:
    out = []
    for kind, motor in (("linear", c.get("motor_lin")), ("angular", c.get("motor_ang"))):
        if motor is None:
            continue
        velocity, impulse = (float(v) for v in motor)
        out.append(
            JointDrive(
                type=kind,
                mode="acceleration",
                axis=0,
                velocity_target=clean_zero(-velocity),
                damping=MOTOR_DAMPING,
                max_force=max(impulse, 0.0),
            )
        )
    if out:
        notes.append(f"MOTOR written as a velocity drive (damping {MOTOR_DAMPING:g}, maxForce = Blender's max impulse)")
    return out


def limits_close(a, b) -> bool:
    """Two Blender (lower, upper) intervals or Nones are the same within tolerance."""
    if a is None or b is None:
        return a is None and b is None
    return all(math.isclose(float(x), float(y), rel_tol=1e-5, abs_tol=1e-5) for x, y in zip(a, b, strict=True))
