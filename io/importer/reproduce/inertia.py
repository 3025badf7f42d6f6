"""Infinite inertia (``inertiaDiagonal`` 0 on an axis): a GENERIC constraint whose frame is the body's inertia frame
locks rotation about those axes against the one passive, non-colliding anchor (translation stays free)."""

from __future__ import annotations

from mathutils import Matrix, Quaternion

from ...mapping.axes import quat_to_blender
from ..context import ImportContext
from .helpers import REPRODUCED, anchor, helper_constraint, helper_empty

# glTF inertia axis i is this axis of the Blender-converted inertia frame (x → x, y → z, z → −y)
GLTF_TO_BLENDER_AXIS = (0, 2, 1)
# Frames of a GENERIC constraint as proper rotations of the inertia frame (cyclic axis orders): Bullet's middle (Y)
# angle must stay within ±90°, so a locked axis always goes to Y.
CYCLIC = ((0, 1, 2), (1, 2, 0), (2, 0, 1))
LOCK_ROTATION = "reproduction: infinite inertia"  # joint.joint_name of the rotation-lock helpers


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


def lock_rotation(ctx: ImportContext, state: dict, m: int, ob, ptr: str) -> None:
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
