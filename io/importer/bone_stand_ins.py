"""Bone stand-ins (``mapping/bone_nodes.py``): a node that io_scene_gltf2 made an armature bone and that carries a
body, a collider or a trigger gets an Empty at the node's frame, which then stands for the node in every later step
(``ctx.objects``), so its physics is built and kept like any node's and the export writes it back onto the bone's
node. ``build`` runs before ``bodies``, ``tie`` after them.

Blender has no rigid bodies on bones, so the stand-in and the bone are tied by a *Child Of* constraint: a dynamic
body drives its bone (the bone follows the stand-in, and the mesh the bone deforms follows the simulation); a
static or kinematic one, or one the file animates, follows its bone (the stand-in follows the bone). The bone's
children in the file (joint frames, other objects) are parented to the bone, not to the stand-in, so they follow
through the bone. What Blender still plays differently (the stand-in's own pose is Blender's, a bone may be posed
by its parent bone too) is one WARNING per stand-in (``GLTF_PHYSICS_IMPORT_NOT_REPRODUCIBLE``) naming the
armature, the bone and the stand-in. Nothing of the node's physics is lost.
"""

from __future__ import annotations

import bpy

from .. import gltf_addon
from ..diagnostics import printable
from ..gltf.model import KINEMATIC
from ..mapping.bone_nodes import ARMATURE_KEY, BONE_KEY, stand_in_bone
from .context import ImportContext
from .reproduce.helpers import NOT_REPRODUCIBLE

CONSTRAINT_NAME = "glTF Physics body"
_MADE = "bone stand-ins"  # ctx.cache key: the node indices that got a stand-in
_DRIVING = "bone stand-ins driving"  # ctx.cache key: stand-ins whose bone follows them


def build(ctx: ImportContext) -> None:
    """A stand-in for every bone node with a motion, a collider or a trigger."""
    for index in sorted(ctx.document.nodes):
        physics = ctx.document.nodes[index]
        if physics.motion is None and physics.collider is None and physics.trigger is None:
            continue
        if ctx.objects.get(index) is not None or not 0 <= index < len(ctx.json_nodes):
            continue
        ctx.guarded(ctx.node_pointer(index), "bone stand-in", _stand_in, ctx, index)


def _stand_in(ctx: ImportContext, index: int) -> None:
    found = gltf_addon.bone_of(ctx.gltf, index)
    if found is None:  # not a bone (a node outside every scene): the steps report it as before
        return
    armature, bone_name = found
    bone = armature.data.bones[bone_name]
    ob = bpy.data.objects.new(bone_name + ".physics", None)
    collections = ctx.collections_of(armature) or [ctx.scene.collection]
    for collection in collections:
        collection.objects.link(ob)
    ctx.linked(ob, collections)
    ob.empty_display_type = "PLAIN_AXES"
    ob.empty_display_size = max(bone.length * 0.25, 1e-3)
    world = ctx.node_world_matrix(index)
    ob.matrix_basis = world
    ob[BONE_KEY] = bone_name
    ob[ARMATURE_KEY] = armature
    ctx.objects[index] = ob
    ctx.cache.setdefault(_MADE, []).append(index)


def tie(ctx: ImportContext) -> None:
    """After the bodies (a stand-in may have been replaced by a mesh object): each stand-in and its bone tied by a
    *Child Of* constraint, and the WARNING that says how Blender plays it."""
    made = ctx.cache.get(_MADE, ())
    for index in sorted(made, key=lambda i: sum(1 for _ in _ancestors(ctx, i))):  # a bone's parents first
        ctx.guarded(ctx.node_pointer(index), "bone stand-in", _tie, ctx, index)


def _tie(ctx: ImportContext, index: int) -> None:
    ob = ctx.objects.get(index)
    found = stand_in_bone(ob) if ob is not None else None
    if found is None:
        return
    armature, bone_name = found
    bone = armature.data.bones[bone_name]
    motion = ctx.document.nodes[index].motion
    animated = ctx.animated_at_or_above(index)
    dynamic = motion is not None and motion.kind != KINEMATIC and not animated and ob.rigid_body is not None
    driven_above = any(_drives(ctx, i) for i in _ancestors(ctx, index))
    if dynamic and not driven_above:  # the bone (and what it deforms, its children) follows the simulated stand-in
        con = armature.pose.bones[bone_name].constraints.new("CHILD_OF")
        con.target = ob
        # a pose bone's Child Of works in its armature's space
        con.inverse_matrix = ctx.node_world_matrix(index).inverted_safe() @ armature.matrix_world
        how = f"the bone follows {printable(ob.name)!r} (a Child Of constraint)"
        ctx.cache.setdefault(_DRIVING, set()).add(index)
    elif animated and not driven_above:  # the stand-in follows the bone the file animates
        con = ob.constraints.new("CHILD_OF")
        con.target, con.subtarget = armature, bone_name
        con.inverse_matrix = (armature.matrix_world @ bone.matrix_local).inverted_safe()
        how = f"{printable(ob.name)!r} follows the animated bone (a Child Of constraint)"
    else:  # tied to nothing: a bone above is simulated (a tie would loop through the simulation), or nothing moves
        con = None
        how = f"{printable(ob.name)!r} and the bone do not move together"
    if con is not None:
        con.name = CONSTRAINT_NAME
    what = "body" if motion is not None else "collider or trigger"
    ctx.warn(
        NOT_REPRODUCIBLE,
        ctx.node_pointer(index),
        f"not reproducible in Blender: a {what} on node {index}, which became bone {printable(bone_name)!r} of "
        f"armature {printable(armature.name)!r}: Blender has no rigid bodies on bones, so it is simulated on "
        f"{printable(ob.name)!r} and {how}; kept for export on the bone's node",
    )


def _drives(ctx: ImportContext, index: int) -> bool:
    """Node ``index`` has a stand-in whose bone follows its simulation (tied before: ancestors come first)."""
    return index in ctx.cache.get(_DRIVING, ())


def _ancestors(ctx: ImportContext, index: int):
    seen = set()
    parent = ctx.parents.get(index)
    while parent is not None and parent not in seen:
        seen.add(parent)
        yield parent
        parent = ctx.parents.get(parent)
