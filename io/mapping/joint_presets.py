"""Joint presets of the *Add glTF Joint* operator → ``model.JointDescription`` (bpy-free; docs/ui.md).

Every preset is written in glTF terms (KHR_physics_rigid_bodies joint limits and drives, frame A = frame B at
creation). ``axis`` is the glTF axis (0 = X, 1 = Y, 2 = Z) of frame A that a hinge turns about, a slider slides
along, a cone-twist twists about, a spring or a drive acts on. Angles in radians, lengths in metres.

* ``FIXED``: every linear and angular axis locked (min = max = 0).
* ``BALL``: the three linear axes locked, rotation free.
* ``HINGE``: linear locked, the two other angular axes locked; optional twist range on ``axis``.
* ``SLIDER``: the two other linear axes locked, every angular axis locked; optional range along ``axis``.
* ``CONE_TWIST``: linear locked, a cone limit (two angular axes, max = swing half-angle) on the two other axes and a
  twist range on ``axis`` (a ragdoll shoulder).
* ``DISTANCE``: one limit on the three linear axes (the distance between the frames) in ``[min, max]``; a rope is
  ``min`` = None (or 0), ``max`` = its length. Rotation free.
* ``SPRING``: like a slider whose ``axis`` is held by a soft limit min = max = 0 with ``stiffness`` / ``damping``.
* ``VELOCITY_MOTOR``: a hinge with an angular drive on ``axis`` (velocity target, stiffness 0, damping > 0).
* ``POSITION_SERVO``: a hinge with an angular drive on ``axis`` (position target, stiffness > 0, damping with
  velocity target 0: the spec pairs damping with a velocity target).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..gltf.model import JointDescription, JointDrive, JointLimit

PRESETS = (
    "FIXED",
    "BALL",
    "HINGE",
    "SLIDER",
    "CONE_TWIST",
    "DISTANCE",
    "SPRING",
    "VELOCITY_MOTOR",
    "POSITION_SERVO",
)
ALL = (0, 1, 2)


@dataclass
class PresetParams:
    """The preset's numbers (only those the preset uses are read)."""

    axis: int = 0
    use_range: bool = False  # hinge / slider: bound the free axis by [lower, upper]
    lower: float = 0.0
    upper: float = 0.0
    swing: float = 0.7854  # cone half-angle (rad)
    twist_lower: float = -0.5236
    twist_upper: float = 0.5236
    min_distance: float | None = None
    max_distance: float = 1.0
    stiffness: float = 100.0
    damping: float = 10.0
    velocity: float = 1.0
    position: float = 0.0
    max_force: float | None = None


def _others(axis: int) -> tuple[int, ...]:
    return tuple(i for i in ALL if i != axis)


def _lock(linear: tuple[int, ...] = (), angular: tuple[int, ...] = ()) -> list[JointLimit]:
    limits = []
    if linear:
        limits.append(JointLimit(linear_axes=linear, min=0.0, max=0.0))
    if angular:
        limits.append(JointLimit(angular_axes=angular, min=0.0, max=0.0))
    return limits


def _hinge(p: PresetParams) -> list[JointLimit]:
    limits = _lock(ALL, _others(p.axis))
    if p.use_range:
        limits.append(JointLimit(angular_axes=(p.axis,), min=p.lower, max=p.upper))
    return limits


def describe(preset: str, p: PresetParams | None = None, name: str | None = None) -> JointDescription:
    """The glTF joint description of ``preset`` (one of ``PRESETS``); ValueError for an unknown one."""
    p = p or PresetParams()
    if p.axis not in ALL:
        raise ValueError(f"axis must be 0, 1 or 2, not {p.axis!r}")
    drives: list[JointDrive] = []
    if preset == "FIXED":
        limits = _lock(ALL, ALL)
    elif preset == "BALL":
        limits = _lock(ALL)
    elif preset == "HINGE":
        limits = _hinge(p)
    elif preset == "SLIDER":
        limits = _lock(_others(p.axis), ALL)
        if p.use_range:
            limits.append(JointLimit(linear_axes=(p.axis,), min=p.lower, max=p.upper))
    elif preset == "CONE_TWIST":
        limits = [
            *_lock(ALL),
            JointLimit(angular_axes=_others(p.axis), max=p.swing),
            JointLimit(angular_axes=(p.axis,), min=p.twist_lower, max=p.twist_upper),
        ]
    elif preset == "DISTANCE":
        limits = [JointLimit(linear_axes=ALL, min=p.min_distance or None, max=p.max_distance)]
    elif preset == "SPRING":
        soft = JointLimit(linear_axes=(p.axis,), min=0.0, max=0.0, stiffness=p.stiffness, damping=p.damping)
        limits = [*_lock(_others(p.axis), ALL), soft]
    elif preset == "VELOCITY_MOTOR":
        limits = _lock(ALL, _others(p.axis))
        drives = [
            JointDrive(
                type="angular",
                mode="force",
                axis=p.axis,
                max_force=p.max_force,
                velocity_target=p.velocity,
                damping=p.damping,
            )
        ]
    elif preset == "POSITION_SERVO":
        limits = _hinge(p)
        drives = [
            JointDrive(
                type="angular",
                mode="force",
                axis=p.axis,
                max_force=p.max_force,
                position_target=p.position,
                velocity_target=0.0,  # damping pairs with a velocity target (2026 revision): a PD servo at rest
                stiffness=p.stiffness,
                damping=p.damping,
            )
        ]
    else:
        raise ValueError(f"unknown joint preset {preset!r}")
    return JointDescription(limits=limits, drives=drives, name=name)
