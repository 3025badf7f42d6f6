"""Reproduction: what Blender has no setting for, rebuilt from helpers so the scene moves as the file says.

Runs after the joints, only when ``Scene.gltf_physics.import_reproduce`` is on (off: the import is unchanged).

* ``gravityFactor``: the rigid-body world's gravity effector weight, exact when every dynamic body of the world
  shares the factor; mixed factors → the most common one (ties: the one nearest 1), reported as not reproducible
  with the pointers of the bodies that do not get theirs (``mapping.gravity_weight``, also used by the panel sync).
* Infinite inertia (``inertiaDiagonal`` 0 on an axis): a GENERIC constraint whose frame is the body's inertia frame
  locks rotation about those axes against one passive, non-colliding anchor (translation stays free).
* Initial ``linearVelocity`` / ``angularVelocity``: a kinematic pre-roll released by a persistent frame handler
  (``velocity``, rules in ``mapping.initial_velocity``).
* ``centerOfMass``: the body re-originated on a compound helper at the centre (``mass``); the rotation
  locks and the pre-roll then act on that helper.
* Compound children with their own collision filters: split off as bodies FIXED to the compound
  (``filters``).
* Combine modes: friction / restitution pre-combined per dynamic–static contact pair (``combine``).
* What stays impossible (distance / cone / soft-with-range joint limits) is reported (``reports``).
* Kinematic / infinite-mass bodies with an initial velocity move at it for ever (drivers, no release).
* Damping: nothing to do here — ``bodies`` already gives every imported body damping 0, option or not.

Helpers live in the child collection ``HELPERS`` and are tagged ``Object.gltf_physics.joint.role ==
"REPRODUCTION"``, which the exporter drops (export writes the stored glTF values).
"""

from __future__ import annotations

from mathutils import Matrix, Quaternion

from ...gltf.model import DYNAMIC, KINEMATIC
from ...mapping.axes import quat_to_blender
from ...mapping.gravity_weight import gravity_weight
from ..context import ImportContext
from . import combine, filters, mass, reports, velocity
from .helpers import (  # noqa: F401  (HELPERS, ROLE, is_helper: this module's public names)
    HELPERS,
    NOT_REPRODUCIBLE,
    REPRODUCED,
    ROLE,
    anchor,
    enabled,
    helper_constraint,
    helper_empty,
    is_helper,
)

# glTF inertia axis i is this axis of the Blender-converted inertia frame (x → x, y → z, z → −y)
GLTF_TO_BLENDER_AXIS = (0, 2, 1)
# Frames of a GENERIC constraint as proper rotations of the inertia frame (cyclic axis orders): Bullet's middle (Y)
# angle must stay within ±90°, so a locked axis always goes to Y.
CYCLIC = ((0, 1, 2), (1, 2, 0), (2, 0, 1))
LOCK_ROTATION = "reproduction: infinite inertia"  # joint.joint_name of the rotation-lock helpers


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
    ctx.guarded("", "reproducing gravityFactor", _gravity, ctx, bodies)
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
            ctx.guarded(ptr, "locking rotation (infinite inertia)", _lock_rotation, ctx, state, m, ob, ptr)
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


# --- gravityFactor -----------------------------------------------------------------------------------------------


def _gravity(ctx: ImportContext, bodies: list) -> None:
    factors = {m: float(ctx.document.nodes[m].motion.gravity_factor) for m, _ in bodies}
    ours = {ob.as_pointer() for _, ob in bodies}
    others = 0  # dynamic bodies already in the world (not from this file): their factor is 1
    for ob in ctx.world.collection.objects if ctx.world.collection is not None else ():
        rb = ob.rigid_body
        child = ob.parent is not None and ob.parent.rigid_body is not None  # a compound's shape, not a body
        if ob.as_pointer() not in ours and rb is not None and rb.type == "ACTIVE" and not rb.kinematic and not child:
            others += 1
    decided = gravity_weight([*factors.values(), *([1.0] * others)])
    if decided is None:
        return
    chosen = decided.weight
    ctx.world.effector_weights.gravity = chosen
    if decided.exact:
        ptr = ctx.node_pointer(next(iter(factors)), "motion", "gravityFactor")
        ctx.note(REPRODUCED, ptr, f"gravityFactor {chosen:g} of every dynamic body: world gravity weight {chosen:g}")
        return
    for m, factor in factors.items():
        if decided.misses(factor):
            ctx.warn(
                NOT_REPRODUCIBLE,
                ctx.node_pointer(m, "motion", "gravityFactor"),
                f"not reproducible in Blender: mixed gravity factors (this body {factor:g}, world gravity weight "
                f"{chosen:g} for all bodies)",
            )


# --- infinite inertia --------------------------------------------------------------------------------------------


def lock_frame(body_rotation: Quaternion, inertia_orientation, locked: set[int]) -> tuple[Matrix, list[bool]]:
    """Rotation of the GENERIC constraint frame and which of its angular axes to lock.

    ``locked``: glTF inertia axes with infinite inertia. The frame is the inertia frame in Blender axes with its
    axes cyclically reordered so that a locked axis is the constraint's Y.
    """
    q = Quaternion(quat_to_blender(inertia_orientation)) if inertia_orientation is not None else Quaternion()
    q.normalize()
    frame = (body_rotation @ q).to_matrix()
    blender_locked = {GLTF_TO_BLENDER_AXIS[i] for i in locked}
    order = next(o for o in CYCLIC if o[1] in blender_locked)
    columns = [frame.col[a] for a in order]
    rotation = Matrix((columns[0], columns[1], columns[2])).transposed()
    return rotation, [a in blender_locked for a in order]


def _lock_rotation(ctx: ImportContext, state: dict, m: int, ob, ptr: str) -> None:
    motion = ctx.document.nodes[m].motion
    locked = {i for i, v in enumerate(motion.inertia_diagonal) if v == 0.0}
    translation, rotation, _ = ctx.node_world_matrix(m).decompose()
    frame, axes = lock_frame(rotation, motion.inertia_orientation, locked)
    empty = helper_empty(ctx, state, ob.name + ".lock_rotation", LOCK_ROTATION, ob)
    empty.matrix_world = Matrix.Translation(translation) @ frame.to_4x4()
    c = helper_constraint(ctx, empty, "GENERIC", anchor(ctx, state), ob)
    for axis, lock in zip("xyz", axes, strict=True):
        setattr(c, f"use_limit_ang_{axis}", lock)
        if lock:
            setattr(c, f"limit_ang_{axis}_lower", 0.0)
            setattr(c, f"limit_ang_{axis}_upper", 0.0)
    names = ", ".join("xyz"[i] for i in sorted(locked))
    ctx.note(REPRODUCED, ptr, f"infinite inertia about {names}: rotation locked by constraint {empty.name!r}")
