"""The values of one imported rigid body: adding it to the world, the motion clamped to 32-bit floats, body type,
kinematic flag and mass (``bodies``). Damping is set to 0: glTF has none."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

from ..gltf.model import MOTION_KEYS, STATIC
from ..gltf.read.common import FLOAT32_MAX
from ..mapping import stored as props
from .context import APPROXIMATED, NOT_SIMULATED, ImportContext
from .reproduce.step import reproduced_fields

FALLBACK_MASS = 1.0


def at(ctx: ImportContext, m: int) -> str:
    """The pointer of motion node ``m`` (built when a diagnostic needs it, not per body)."""
    return ctx.node_pointer(m, "motion")


def add_rigid_body(ctx: ImportContext, ob, shape: str, body_type: str, kinematic: bool = False):
    if ob.rigid_body is None:
        ctx.world.collection.objects.link(ob)
    rb = ob.rigid_body
    for name, value in (("type", body_type), ("collision_shape", shape), ("kinematic", kinematic)):
        props.write_changed(rb, name, value)  # a new body is already ACTIVE, CONVEX_HULL, not Animated
    rb.linear_damping = 0.0  # never Blender's default (0.04 / 0.1): written
    rb.angular_damping = 0.0
    return rb


def fit_float32(ctx: ImportContext, m: int, motion):
    """The motion with every value beyond the 32-bit float range clamped to it (noted at its pointer): Blender keeps
    them as float32 (1e39 would become inf, and the glTF exporter then fails with ``OverflowError``)."""
    changes = {}
    for attr, key in MOTION_KEYS.items():
        value = getattr(motion, attr)
        if value is None:
            continue
        values = value if isinstance(value, tuple) else (value,)
        if _fits(values):
            continue
        fitted = tuple(max(-FLOAT32_MAX, min(FLOAT32_MAX, v)) for v in values)
        changes[attr] = fitted if isinstance(value, tuple) else fitted[0]
        ctx.note(
            APPROXIMATED,
            at(ctx, m) + "/" + key,
            f"{key} {value} does not fit a 32-bit float: clamped to ±{FLOAT32_MAX:.7g}",
        )
    return dataclasses.replace(motion, **changes) if changes else motion


def _fits(values: tuple) -> bool:
    """``all(abs(v) <= FLOAT32_MAX for v in values)`` without a Python generator (NaN does not fit)."""
    return all(map(FLOAT32_MAX.__ge__, map(abs, values)))


def apply_state(rb, motion, animated: bool) -> None:
    """Body type and kinematic flag (Animated): what Blender simulates, also when io_scene_gltf2 samples the
    animations of an export (an animated body that is not Animated would fall)."""
    if motion.kind == STATIC:
        rb.type = "PASSIVE"
        rb.kinematic = animated
    elif motion.mass == 0.0:
        rb.type = "PASSIVE"
        rb.kinematic = True
    else:
        props.write_changed(rb, "kinematic", props.is_kinematic(motion) or animated)


def apply_motion(
    ctx: ImportContext, m: int, ob, rb, motion, volume_of: Callable[[], float | None], animated: bool
) -> None:
    """Body type, kinematic flag and mass; ``volume_of()`` (the colliders' volume) is read only without a mass."""
    apply_state(rb, motion, animated)
    if motion.kind != STATIC and motion.mass == 0.0:
        ctx.note(APPROXIMATED, at(ctx, m) + "/mass", "mass 0 (infinite): imported as an animated passive body")
    elif motion.kind != STATIC and animated and not props.is_kinematic(motion):
        ctx.note(APPROXIMATED, at(ctx, m), "animated body: follows the animation (Animated), not simulated")
    if motion.mass is not None and motion.mass > 0.0:
        props.write_changed(rb, "mass", motion.mass)
    elif motion.mass is None:
        volume = volume_of()
        if volume is not None and volume > 0.0:
            rb.mass = ctx.density * volume
        else:
            rb.mass = FALLBACK_MASS
            ctx.note(APPROXIMATED, at(ctx, m), f"no mass and no collider volume: {FALLBACK_MASS:g} kg")
    fields = props.stored_only_motion_fields(motion, reproduced_fields(ctx, motion) if not animated else frozenset())
    if fields:
        ctx.note(NOT_SIMULATED, at(ctx, m), "kept for export, not simulated by Blender: " + ", ".join(fields))
