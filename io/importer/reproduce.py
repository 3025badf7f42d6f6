"""Reproduction: what Blender has no setting for, rebuilt from helpers so the scene moves as the file says.

Runs after the joints, only when ``Scene.gltf_physics.import_reproduce`` is on (off: the import is unchanged).

* ``gravityFactor``: the rigid-body world's gravity effector weight, exact when every dynamic body of the world
  shares the factor; mixed factors → the most common one (ties: the one nearest 1), reported as not reproducible
  with the pointers of the bodies that do not get theirs (``mapping.gravity_weight``, also used by the panel sync).
* Infinite inertia (``inertiaDiagonal`` 0 on an axis): a GENERIC constraint whose frame is the body's inertia frame
  locks rotation about those axes against one passive, non-colliding anchor (translation stays free).
* Damping: nothing to do here — ``bodies`` already gives every imported body damping 0, option or not.

Helpers live in the child collection ``HELPERS`` and are tagged ``Object.gltf_physics.joint.role ==
"REPRODUCTION"``, which the exporter drops (export writes the stored glTF values).
"""

from __future__ import annotations

import bpy
from mathutils import Matrix, Quaternion

from ..gltf.model import DYNAMIC
from ..mapping.axes import quat_to_blender
from ..mapping.gravity_weight import gravity_weight
from .context import ImportContext

HELPERS = "glTF Physics Helpers"
ANCHOR_NAME = "glTF Physics Reproduction Anchor"
ROLE = "REPRODUCTION"
NOT_REPRODUCIBLE = "GLTF_PHYSICS_IMPORT_NOT_REPRODUCIBLE"  # Blender cannot do what the file means (WARNING)
REPRODUCED = "GLTF_PHYSICS_IMPORT_REPRODUCED"  # rebuilt with helpers / world settings (INFO)
# glTF inertia axis i is this axis of the Blender-converted inertia frame (x → x, y → z, z → −y)
GLTF_TO_BLENDER_AXIS = (0, 2, 1)
# Frames of a GENERIC constraint as proper rotations of the inertia frame (cyclic axis orders): Bullet's middle (Y)
# angle must stay within ±90°, so a locked axis always goes to Y.
CYCLIC = ((0, 1, 2), (1, 2, 0), (2, 0, 1))


def enabled(scene) -> bool:
    settings = getattr(scene, "gltf_physics", None)
    return settings is not None and bool(getattr(settings, "import_reproduce", False))


def is_helper(ob) -> bool:
    pg = getattr(ob, "gltf_physics", None)
    return pg is not None and pg.joint.role == ROLE


def reproduced_fields(ctx: ImportContext, motion) -> frozenset[str]:
    """The motion values of a dynamic body this step reproduces or reports itself (none when the option is off):
    ``bodies`` leaves them out of its "kept for export, not simulated" note."""
    if not enabled(ctx.scene) or motion.kind != DYNAMIC:
        return frozenset()
    out = {"gravityFactor"}
    if motion.inertia_diagonal is not None and any(v == 0.0 for v in motion.inertia_diagonal):
        out.add("inertiaDiagonal")
    return frozenset(out)


def build(ctx: ImportContext) -> None:
    if ctx.world is None or not enabled(ctx.scene):
        return
    bodies = _dynamic_bodies(ctx)
    ctx.guarded("", "reproducing gravityFactor", _gravity, ctx, bodies)
    state: dict = {}
    for m, ob in bodies:
        motion = ctx.document.nodes[m].motion
        if motion.inertia_diagonal is not None and any(v == 0.0 for v in motion.inertia_diagonal):
            ptr = ctx.node_pointer(m, "motion", "inertiaDiagonal")
            ctx.guarded(ptr, "locking rotation (infinite inertia)", _lock_rotation, ctx, state, m, ob, ptr)


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


def _helpers_collection(ctx: ImportContext, state: dict):
    if "collection" not in state:
        collection = bpy.data.collections.new(HELPERS)
        ctx.scene.collection.children.link(collection)
        state["collection"] = collection
    return state["collection"]


def _anchor(ctx: ImportContext, state: dict):
    """One invisible PASSIVE body that collides with nothing: the fixed side of the rotation locks."""
    if "anchor" not in state:
        half = 0.025
        verts = [(x * half, y * half, z * half) for x in (-1, 1) for y in (-1, 1) for z in (-1, 1)]
        faces = [(0, 1, 3, 2), (4, 6, 7, 5), (0, 4, 5, 1), (2, 3, 7, 6), (0, 2, 6, 4), (1, 5, 7, 3)]
        mesh = bpy.data.meshes.new(ANCHOR_NAME)
        mesh.from_pydata(verts, [], faces)
        ob = bpy.data.objects.new(ANCHOR_NAME, mesh)
        _helpers_collection(ctx, state).objects.link(ob)
        ob.display_type = "WIRE"
        ob.hide_render = True
        ctx.world.collection.objects.link(ob)
        ob.rigid_body.type = "PASSIVE"
        ob.rigid_body.collision_shape = "BOX"
        ob.rigid_body.collision_collections = [False] * 20
        ob.gltf_physics.joint.role = ROLE
        state["anchor"] = ob
    return state["anchor"]


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
    empty = bpy.data.objects.new(ob.name + ".lock_rotation", None)
    empty.empty_display_type = "ARROWS"
    empty.empty_display_size = 0.25
    empty.matrix_world = Matrix.Translation(translation) @ frame.to_4x4()
    _helpers_collection(ctx, state).objects.link(empty)
    ctx.world.constraints.objects.link(empty)
    empty.gltf_physics.joint.role = ROLE
    c = empty.rigid_body_constraint
    c.type = "GENERIC"
    c.object1, c.object2 = _anchor(ctx, state), ob
    c.disable_collisions = True
    for axis, lock in zip("xyz", axes, strict=True):
        setattr(c, f"use_limit_ang_{axis}", lock)
        if lock:
            setattr(c, f"limit_ang_{axis}_lower", 0.0)
            setattr(c, f"limit_ang_{axis}_upper", 0.0)
    names = ", ".join("xyz"[i] for i in sorted(locked))
    ctx.note(REPRODUCED, ptr, f"infinite inertia about {names}: rotation locked by constraint {empty.name!r}")
