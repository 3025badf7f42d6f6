"""glTF joint description → plan for Blender rigid-body constraints (bpy-free; see docs/joints.md).

Axis convention. The constraint Empty is oriented like glTF frame A itself, with its local axes a *cyclic*
permutation ``perm`` of frame A's axes (Empty local X, Y, Z = frame A axis ``perm[0]``, ``perm[1]``, ``perm[2]``).
A cyclic permutation of a right-handed basis is a rotation, so no axis ever changes sign: glTF limit values are
used as they are. Blender's HINGE turns about the Empty's Z, SLIDER/PISTON/MOTOR act along/about its X: the
permutation puts the glTF axis there.

Engine conventions measured headless on 4.2, 4.5 and 5.0 (tests/blender/importer/test_joints_sim.py):

* linear limits bound the position of object2's frame in object1's frame: glTF ``[min, max]`` unchanged;
* angular limits (GENERIC Euler angles and HINGE) bound the rotation of object1 relative to object2, i.e. the
  negated glTF twist: ``[min, max]`` → ``[-max, -min]``;
* MOTOR targets move object2 along/about −X: velocity targets are negated.

Frames: ``offset`` is frame B relative to frame A at load (translation in frame A, rotation xyzw). Blender's
constraint has one pivot (the Empty), so its rest pose is "offset zero"; limits on locked rotations stay exact when
the linear limits are shifted by the offset. Anything else that Blender cannot hold becomes a ``note``.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass, field

import numpy as np

from .axes import AXIS_CHANGE
from .drives_to_blender import MotorPlan, velocity_motor

EPS = 1e-6
FAR = 1.0e6  # stands for an unbounded side of a half-bounded linear limit (metres)
Interval = tuple[float | None, float | None]  # (lower, upper), None = unbounded side


@dataclass
class ConstraintPlan:
    """The main constraint: per Empty-local axis, ``lin``/``ang`` Blender (lower, upper), None = free."""

    type: str
    perm: tuple[int, int, int] = (0, 1, 2)
    lin: list[tuple[float, float] | None] = field(default_factory=lambda: [None, None, None])
    ang: list[tuple[float, float] | None] = field(default_factory=lambda: [None, None, None])
    lin_springs: list[tuple[float, float] | None] = field(default_factory=lambda: [None, None, None])
    ang_springs: list[tuple[float, float] | None] = field(default_factory=lambda: [None, None, None])
    motors: list[MotorPlan] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    offset: tuple = ((0.0, 0.0, 0.0), (0.0, 0.0, 0.0, 1.0))  # frame B in frame A at load (translation, xyzw)

    @property
    def approximated(self) -> bool:
        return bool(self.notes)


def cyclic(first: int) -> tuple[int, int, int]:
    """The cyclic permutation starting with glTF axis ``first``."""
    return (first % 3, (first + 1) % 3, (first + 2) % 3)


def hinge_perm(axis: int) -> tuple[int, int, int]:
    """Cyclic permutation with glTF ``axis`` on the Empty's Z."""
    return cyclic(axis + 1)


def _intersect(a: Interval | None, b: Interval) -> Interval:
    if a is None:
        return b
    lo = b[0] if a[0] is None else a[0] if b[0] is None else max(a[0], b[0])
    hi = b[1] if a[1] is None else a[1] if b[1] is None else min(a[1], b[1])
    return (lo, hi)


def _is_locked(iv: Interval | None, value: float = 0.0) -> bool:
    if iv is None or iv[0] is None or iv[1] is None:
        return False
    return abs(iv[0] - value) < EPS and abs(iv[1] - value) < EPS


def _is_free(iv: Interval | None) -> bool:
    return iv is None or (iv[0] is None and iv[1] is None)


def _shift(iv: Interval | None, by: float) -> Interval | None:
    if iv is None or abs(by) < EPS:
        return iv
    return (None if iv[0] is None else iv[0] - by, None if iv[1] is None else iv[1] - by)


def _single_axis_angle(q) -> tuple[int | None, float]:
    """(axis, angle) when unit quaternion xyzw ``q`` rotates about one frame axis; (None, 0) for identity."""
    x, y, z, w = map(float, q)
    if w < 0:
        x, y, z, w = -x, -y, -z, -w
    v = (x, y, z)
    if max(abs(x), abs(y), abs(z)) < EPS:
        return None, 0.0
    big = [i for i in range(3) if abs(v[i]) > EPS]
    if len(big) != 1:
        return -1, 0.0
    i = big[0]
    return i, 2.0 * math.atan2(v[i], w)


def _limit_axes(description, notes: list[str], memo: dict | None):
    """``_limit_axes_of`` once per description and run (``memo``: a per-run dict; joints sharing a description share
    what its limits give before their own offsets apply), as new lists the plan may change."""
    key = ("limit axes", id(description))
    found = memo.get(key) if memo is not None else None
    if found is None:
        own: list[str] = []
        lin, ang, soft = _limit_axes_of(description, own)
        found = (tuple(lin), tuple(ang), soft, tuple(own))
        if memo is not None:
            memo[key] = found
    lin, ang, soft, own = found
    notes.extend(own)
    return list(lin), list(ang), dict(soft)


def _limit_axes_of(description, notes: list[str]):
    """Per glTF axis intervals (None = no limit) and soft-limit springs from the description's limits."""
    lin: list[Interval | None] = [None, None, None]
    ang: list[Interval | None] = [None, None, None]
    soft: dict[tuple[str, int], tuple[float, float]] = {}
    for n, limit in enumerate(description.limits):
        kind, axes = ("lin", limit.linear_axes) if limit.linear_axes else ("ang", limit.angular_axes or ())
        target = lin if kind == "lin" else ang
        lo, hi = limit.min, limit.max
        if len(axes) == 1:
            iv: Interval = (lo, hi)
        elif hi is not None and hi <= EPS:
            iv = (0.0, 0.0)  # distance / cone / total angle ≤ 0 locks every listed axis: exact
        elif hi is None:
            iv = (None, None)
            if lo is not None and lo > 0:
                notes.append(f"limit {n}: minimum {lo:g} on {len(axes)} axes cannot be held per axis (ignored)")
        else:
            iv = (-hi, hi)
            what = "distance" if kind == "lin" else "cone" if len(axes) == 2 else "total angle"
            notes.append(f"limit {n}: {what} limit ≤ {hi:g} on axes {list(axes)} approximated per axis by ±{hi:g}")
            if lo is not None and lo > 0:
                notes.append(f"limit {n}: minimum {lo:g} on {len(axes)} axes cannot be held per axis (ignored)")
        for axis in axes:
            target[axis] = _intersect(target[axis], iv)
            if limit.stiffness is not None:
                soft[(kind, axis)] = (float(limit.stiffness), float(limit.damping))
    return lin, ang, soft


def _apply_offset(lin, ang, offset_t, rest_rotation: tuple[int | None, float], notes):
    """Shift limits so that Blender's rest pose (offset zero) means the file's load pose (``rest_rotation``: the
    offset rotation as ``_single_axis_angle`` gives it)."""
    axis, angle = rest_rotation
    if axis == -1:
        if any(not _is_free(iv) for iv in ang):
            notes.append("frame B is rotated about several axes relative to frame A: angular limits kept about A")
    elif axis is not None:
        ang[axis] = _shift(ang[axis], angle)
    t = [float(v) for v in offset_t]
    if max(map(abs, t)) < EPS:
        return
    for i in range(3):
        lin[i] = _shift(lin[i], t[i])
    turning = [i for i in range(3) if not _is_locked(ang[i], 0.0)]
    if any(not _is_free(iv) for iv in lin) and turning:
        invariant = len(turning) == 1 and all(abs(t[i]) < EPS for i in range(3) if i != turning[0])
        if not invariant:
            notes.append(
                "frames A and B are apart and rotation is not locked: linear limits are measured at frame A "
                f"with the load-time offset {tuple(round(v, 6) for v in t)} subtracted"
            )


def _native(lin, ang) -> tuple[str, int | None] | None:
    """(type, special glTF axis) when the per-axis limits are one of Blender's native constraint types."""
    lin_locked = [_is_locked(iv) for iv in lin]
    ang_locked = [_is_locked(iv) for iv in ang]
    if all(lin_locked):
        if all(ang_locked):
            return "FIXED", None
        if all(_is_free(iv) for iv in ang):
            return "POINT", None
        if sum(ang_locked) == 2:
            return "HINGE", ang_locked.index(False)
        return None
    if sum(lin_locked) == 2:
        k = lin_locked.index(False)
        if all(ang_locked):
            return "SLIDER", k
        if sum(ang_locked) == 2 and not ang_locked[k]:
            return "PISTON", k
    return None


def _bl_lin(iv: Interval | None) -> tuple[float, float] | None:
    if _is_free(iv):
        return None
    return (-FAR if iv[0] is None else iv[0], FAR if iv[1] is None else iv[1])


def _bl_ang(iv: Interval | None) -> tuple[float, float] | None:
    """glTF twist interval → Blender's (object1 relative to object2) angle interval, clamped to ±π."""
    if _is_free(iv):
        return None
    lo = -math.pi if iv[1] is None else max(-math.pi, -iv[1])
    hi = math.pi if iv[0] is None else min(math.pi, -iv[0])
    return (lo, hi)


def _plan_drives(description, plan, offset_t, rest_rotation: tuple[int | None, float], soft):
    """MOTOR constraints for velocity drives (one per driven degree of freedom, ``drives_to_blender``); springs for
    position drives aiming at the rest pose (``rest_rotation`` as in ``_apply_offset``)."""
    rest_axis, rest_angle = rest_rotation
    velocity: dict[tuple[str, int], list] = {}  # (kind, axis) -> [(index, drive)], in file order
    for n, drive in enumerate(description.drives):
        kind = "LINEAR" if drive.type == "linear" else "ANGULAR" if drive.type == "angular" else None
        if kind is None or drive.axis not in (0, 1, 2):
            plan.notes.append(f"drive {n}: type {drive.type!r} is not simulated (kept for export)")
            continue
        axis = drive.axis
        if drive.stiffness == 0 and drive.damping > 0:
            velocity.setdefault((kind, axis), []).append((n, drive))
            continue
        if drive.stiffness > 0 and drive.position_target is not None:
            rest = float(offset_t[axis]) if kind == "LINEAR" else (rest_angle if rest_axis == axis else 0.0)
            if abs(drive.position_target - rest) < EPS:
                soft[("lin" if kind == "LINEAR" else "ang", axis)] = (float(drive.stiffness), float(drive.damping))
                target = drive.velocity_target or 0.0
                extra = "" if abs(target) < EPS else f"; velocity target {target:g} dropped"
                plan.notes.append(f"drive {n}: position drive at the rest pose → spring (mode {drive.mode!r}{extra})")
                continue
        plan.notes.append(f"drive {n}: {drive.type} drive not representable in Blender (kept for export)")
    for (kind, axis), drives in velocity.items():  # dict order: first drive of each degree of freedom first
        motor = velocity_motor(kind, axis, cyclic(axis), drives)
        plan.motors.append(motor)
        plan.notes.append(motor.note)


def plan_joint(
    description, offset_t=(0.0, 0.0, 0.0), offset_q=(0.0, 0.0, 0.0, 1.0), memo: dict | None = None
) -> ConstraintPlan:
    """Blender constraint plan of a ``model.JointDescription`` whose frame B sits at ``offset`` from frame A
    (``memo``: a per-run dict, for an import's or export's many joints of one description)."""
    notes: list[str] = []
    lin, ang, soft = _limit_axes(description, notes, memo)
    rest_rotation = _single_axis_angle(offset_q)  # what both the limits and the drives measure from
    _apply_offset(lin, ang, offset_t, rest_rotation, notes)
    plan = ConstraintPlan(type="GENERIC", notes=notes, offset=(tuple(offset_t), tuple(offset_q)))
    springs: dict[tuple[str, int], tuple[float, float]] = {}
    for (kind, axis), value in soft.items():
        iv = (lin if kind == "lin" else ang)[axis]
        if _is_locked(iv):
            springs[(kind, axis)] = value
            (lin if kind == "lin" else ang)[axis] = None
            notes.append(f"soft {kind} limit on axis {axis} → spring toward the rest pose")
        else:
            notes.append(f"soft {kind} limit on axis {axis} with a range is held as a hard limit")
    _plan_drives(description, plan, offset_t, rest_rotation, springs)
    native = None if springs else _native(lin, ang)
    if native is not None:
        plan.type, axis = native
        if plan.type == "HINGE":
            plan.perm = hinge_perm(axis)
            plan.ang[2] = _bl_ang(ang[axis])
        elif plan.type in ("SLIDER", "PISTON"):
            plan.perm = cyclic(axis)
            plan.lin[0] = _bl_lin(lin[axis])
            if plan.type == "PISTON":
                plan.ang[0] = _bl_ang(ang[axis])
        return plan
    plan.type = "GENERIC_SPRING" if springs else "GENERIC"
    for i in range(3):
        plan.lin[i] = _bl_lin(lin[i])
        plan.ang[i] = _bl_ang(ang[i])
    for (kind, axis), value in springs.items():
        (plan.lin_springs if kind == "lin" else plan.ang_springs)[axis] = value
    return plan


# --- applying a plan to a Blender constraint (setattr only: the importer and the Add glTF Joint operator) ---

AXES = "xyz"


def configure_constraint(c, plan: ConstraintPlan, obj_a, obj_b, enable_collision: bool, fresh: bool = False) -> None:
    """Set a Blender rigid-body constraint ``c`` (any object with its attributes) to the plan (no bpy needed).

    ``fresh``: ``c`` was just created, so its limit / spring switches are off and ``disable_collisions`` on (Blender's
    defaults): those writes are skipped (the importer's thousands of constraints)."""
    c.type = plan.type
    c.object1, c.object2 = obj_a, obj_b
    if not (fresh and not enable_collision):
        c.disable_collisions = not enable_collision
    if plan.type == "HINGE":
        _set_limit(c, "ang", "z", plan.ang[2], fresh)
    elif plan.type in ("SLIDER", "PISTON"):
        _set_limit(c, "lin", "x", plan.lin[0], fresh)
        if plan.type == "PISTON":
            _set_limit(c, "ang", "x", plan.ang[0], fresh)
    elif plan.type in ("GENERIC", "GENERIC_SPRING"):
        for i, axis in enumerate(AXES):
            _set_limit(c, "lin", axis, plan.lin[i], fresh)
            _set_limit(c, "ang", axis, plan.ang[i], fresh)
        if plan.type == "GENERIC_SPRING":
            c.spring_type = "SPRING2"
            for i, axis in enumerate(AXES):
                _set_spring(c, "", axis, plan.lin_springs[i], fresh)
                _set_spring(c, "_ang", axis, plan.ang_springs[i], fresh)


# Blender's attribute names of each limit and spring, spelled once (a constraint sets up to 12 of them):
# (kind, axis) → (switch, lower / stiffness, upper / damping).
_LIMIT_NAMES = {
    (kind, axis): (f"use_limit_{kind}_{axis}", f"limit_{kind}_{axis}_lower", f"limit_{kind}_{axis}_upper")
    for kind in ("lin", "ang")
    for axis in AXES
}
_SPRING_NAMES = {
    (kind, axis): (f"use_spring{kind}_{axis}", f"spring_stiffness{kind}_{axis}", f"spring_damping{kind}_{axis}")
    for kind in ("", "_ang")
    for axis in AXES
}


def _set_limit(c, kind: str, axis: str, interval, fresh: bool = False) -> None:
    _set_pair(c, _LIMIT_NAMES[(kind, axis)], interval, fresh)


def _set_spring(c, kind: str, axis: str, spring, fresh: bool = False) -> None:
    _set_pair(c, _SPRING_NAMES[(kind, axis)], spring, fresh)


def _set_pair(c, names: tuple[str, str, str], pair, fresh: bool) -> None:
    """Switch ``names[0]`` on with the two values of ``pair``, or off for None (left as it is on a ``fresh``
    constraint, where it is off)."""
    if pair is None and fresh:
        return
    switch, first, second = names
    setattr(c, switch, pair is not None)
    if pair is not None:
        setattr(c, first, pair[0])
        setattr(c, second, pair[1])


def configure_motor(mc, motor: MotorPlan, obj_a, obj_b, enable_collision: bool) -> None:
    """Set a Blender constraint ``mc`` to the MOTOR of one velocity drive."""
    mc.type, mc.object1, mc.object2 = "MOTOR", obj_a, obj_b
    mc.disable_collisions = not enable_collision
    kind = "ang" if motor.kind == "ANGULAR" else "lin"
    setattr(mc, f"use_motor_{kind}", True)
    setattr(mc, f"motor_{kind}_target_velocity", motor.target_velocity)
    setattr(mc, f"motor_{kind}_max_impulse", motor.max_impulse)


# --- frames -----------------------------------------------------------------------------------------------------


@functools.cache
def permutation_matrix(perm: tuple[int, int, int]) -> np.ndarray:
    """4×4 rotation whose columns are the frame axes ``perm`` (Empty local axes in frame A); built once per
    permutation, read-only (the importer asks for one per constraint)."""
    m = np.zeros((4, 4))
    for j, axis in enumerate(perm):
        m[axis, j] = 1.0
    m[3, 3] = 1.0
    m.flags.writeable = False
    return m


def empty_axis(perm: tuple[int, int, int], axis: int) -> int:
    """The constraint Empty's local axis that carries glTF frame-A axis ``axis`` (Empty = C·A·P(perm))."""
    return perm.index(axis)


def empty_matrix(frame_a: np.ndarray, perm: tuple[int, int, int]) -> np.ndarray:
    """Blender world matrix of a constraint Empty at glTF frame A (rigid, glTF space) with axes ``perm``."""
    return AXIS_CHANGE @ frame_a @ permutation_matrix(perm)


# A joint node that carries its own constraint (``importer.joint_empties``): io_scene_gltf2 gives it C·A·Cᵀ, turned by
# ``node_turn`` it is ``empty_matrix``'s C·A·P; its permutation is stored as ``joint.planned_axis`` (-1: the identity).


@functools.cache
def node_turn(perm: tuple[int, int, int]) -> np.ndarray:
    """C·P: what a joint node's Blender matrix is multiplied by (on the right) to carry its constraint; read-only."""
    m = AXIS_CHANGE @ permutation_matrix(perm)
    m.flags.writeable = False
    return m


def node_planned_axis(perm: tuple[int, int, int]) -> int:
    """``joint.planned_axis`` stored for a joint node turned by ``perm`` (-1, the default, for the identity)."""
    return perm[0] if perm[0] else -1


def node_perm(planned_axis: int) -> tuple[int, int, int]:
    """The permutation a joint node carries, from its stored ``joint.planned_axis``."""
    return cyclic(planned_axis if planned_axis >= 0 else 0)
