"""The reproduction step of the import (``importer.pipeline`` calls :func:`build` after the joints): the parts in
order, each inside ``ctx.guarded`` (an exception = one WARNING), and :func:`reproduced_fields` for ``bodies``.
What each part reproduces: this package's docstring.
"""

from __future__ import annotations

from ...gltf.model import DYNAMIC, KINEMATIC
from ..context import ImportContext
from . import combine, filters, gravity, inertia, mass, reports, velocity
from .helpers import enabled


def reproduced_fields(ctx: ImportContext, motion) -> frozenset[str]:
    """The motion values of a dynamic body this step reproduces or reports itself (none when the option is off):
    ``bodies`` leaves them out of its "kept for export, not simulated" note."""
    if not enabled(ctx.scene):
        return frozenset()
    if _kinematic(motion):  # Animated in Blender: moved at its velocity, gravity does not act on it
        return frozenset(("linearVelocity", "angularVelocity", "gravityFactor"))
    if motion.kind != DYNAMIC:
        return frozenset()
    out = {"gravityFactor"}
    if motion.inertia_diagonal is not None and any(v == 0.0 for v in motion.inertia_diagonal):
        out.add("inertiaDiagonal")
    if velocity.wanted(motion):
        out.update(("linearVelocity", "angularVelocity"))
    if mass.wanted(motion):
        out.add("centerOfMass")
    return frozenset(out)


def build(ctx: ImportContext) -> None:
    if ctx.world is None or not enabled(ctx.scene):
        return
    ctx.guarded("", "reporting what Blender cannot reproduce", reports.joints, ctx)
    bodies = _dynamic_bodies(ctx)
    ctx.guarded("", "reproducing gravityFactor", gravity.build, ctx, bodies)
    state: dict = {}
    carriers = {}  # motion node → the object carrying its simulation (a centre-of-mass helper or the body)
    for m, ob in bodies:
        carriers[m] = ob
        if mass.wanted(ctx.document.nodes[m].motion):
            ptr = ctx.node_pointer(m, "motion", "centerOfMass")
            carriers[m] = ctx.guarded(ptr, "centre of mass", mass.recentre, ctx, state, m, ob) or ob
    moved = {ob.as_pointer(): carriers[m] for m, ob in bodies if carriers[m] is not ob}
    ctx.guarded("", "joints of re-originated bodies", mass.retarget_constraints, ctx.scene, moved)
    bodies = [(m, carriers[m]) for m, _ in bodies]
    ctx.guarded("", "compound children with their own filters", filters.build, ctx, state, bodies)
    for m, ob in bodies:
        motion = ctx.document.nodes[m].motion
        if motion.inertia_diagonal is not None and any(v == 0.0 for v in motion.inertia_diagonal):
            ptr = ctx.node_pointer(m, "motion", "inertiaDiagonal")
            ctx.guarded(ptr, "locking rotation (infinite inertia)", inertia.lock_rotation, ctx, state, m, ob, ptr)
    ctx.guarded("", "pre-combining friction / restitution", combine.build, ctx, bodies)
    for m, ob in bodies:  # after the gravity weight: the pre-roll follows the world's gravity
        if velocity.wanted(ctx.document.nodes[m].motion):
            ptr = ctx.node_pointer(m, "motion")
            ctx.guarded(ptr, "initial velocity pre-roll", velocity.build, ctx, state, m, ob)
    _constant_velocity(ctx, state)


def _kinematic(motion) -> bool:
    """Kinematic or infinite mass: Blender's Animated body, which keeps its initial velocity (KHR)."""
    return motion.kind == KINEMATIC or (motion.kind == DYNAMIC and motion.mass == 0.0)


def _constant_velocity(ctx: ImportContext, state: dict) -> None:
    for m, ob in sorted(ctx.body_objects.items()):
        physics = ctx.document.nodes.get(m)
        motion = physics.motion if physics is not None else None
        if motion is None or not _kinematic(motion) or m in ctx.animated or not velocity.wanted(motion):
            continue
        if ob.rigid_body is None or not ob.rigid_body.kinematic:
            continue
        ptr = ctx.node_pointer(m, "motion")
        ctx.guarded(ptr, "constant velocity", velocity.build_constant, ctx, state, m, ob)


def _dynamic_bodies(ctx: ImportContext) -> list[tuple[int, object]]:
    """(motion node, object) of the bodies Blender simulates as dynamic (ACTIVE, not Animated)."""
    out = []
    for m, ob in sorted(ctx.body_objects.items()):
        physics = ctx.document.nodes.get(m)
        motion = physics.motion if physics is not None else None
        rb = getattr(ob, "rigid_body", None)
        if motion is None or motion.kind != DYNAMIC or rb is None or rb.type != "ACTIVE" or rb.kinematic:
            continue
        out.append((m, ob))
    return out
