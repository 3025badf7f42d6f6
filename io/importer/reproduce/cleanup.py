"""*Remove Reproduction Helpers*: the scene as the import would have left it with ``import_reproduce`` off.

Undoes the initial-velocity pre-roll (drivers, delta transforms, kinematic switch), puts re-originated bodies back
under their parents and split-off shapes back into their compounds (their joints rejoin the bodies), restores
pre-combined friction / restitution, deletes every helper tagged ``joint.role == "REPRODUCTION"`` (rotation locks,
the anchor, centre-of-mass carriers, FIXED joins, pre-roll Empties), puts the world's gravity weight back to 1 when
imported bodies carry a gravityFactor, and removes the helper collections left empty.
"""

from __future__ import annotations

import bpy

from . import combine, filters, mass, velocity
from .helpers import HELPERS, is_helper


def remove_helpers(scene) -> int:
    """Remove the reproduction helpers of ``scene``; returns how many helper objects were deleted."""
    for body in velocity.preroll_bodies(scene):
        velocity.remove(body)
    for body in velocity.constant_bodies(scene):
        velocity.remove(body, release=False)  # kinematic by the file: stays Animated
    combine.restore(scene)
    helpers = [ob for ob in scene.objects if is_helper(ob)]
    carriers = [ob for ob in helpers if ob.gltf_physics.joint.joint_name == mass.KIND]
    back = {ob.as_pointer(): ob.gltf_physics.joint.node_b for ob in carriers if ob.gltf_physics.joint.node_b}
    sides = mass.constraint_sides(scene, back)
    for ob in carriers:
        mass.restore(ob)  # the body back under its own parent before its carrier goes
    splits = [ob for ob in helpers if ob.gltf_physics.joint.joint_name == filters.KIND]
    for ob in splits:
        filters.restore(ob)  # a split-off shape back into its compound
    if splits and scene.rigidbody_world is not None:
        _rebuild(scene)  # before the FIXED helpers go: else Blender 4.2 crashed at the next file load (simulated scene)
    rbw = scene.rigidbody_world
    if rbw is not None and _has_gravity_factor(scene):
        rbw.effector_weights.gravity = 1.0
    _rejoin(scene, sides)
    for ob in helpers:
        data = ob.data
        bpy.data.objects.remove(ob, do_unlink=True)
        if isinstance(data, bpy.types.Mesh) and data.users == 0:
            bpy.data.meshes.remove(data)
    for collection in list(scene.collection.children):
        if collection.name.startswith(HELPERS) and not collection.all_objects and not collection.children:
            bpy.data.collections.remove(collection)
    return len(helpers)


def _rebuild(scene) -> None:
    """Rebuild the simulation now (the cache's start frame, + 1, back to the current frame)."""
    rbw, frame = scene.rigidbody_world, scene.frame_current
    start = rbw.point_cache.frame_start
    scene.frame_set(start)
    scene.frame_set(start + 1)
    scene.frame_set(frame)


def _rejoin(scene, sides: list) -> None:
    """Each constraint side in ``sides`` joins its new object, and the simulation is rebuilt at once (the cache's
    start frame + 1) while the old objects still exist: Bullet constraints built on a carrier must be rebuilt
    before the carrier is deleted, else they keep a freed body and Blender crashes later."""
    if not sides:
        return
    for c, side, body in sides:
        setattr(c, side, body)
    _rebuild(scene)


def has_reproduction(scene) -> bool:
    """Is there anything for ``remove_helpers`` to undo in ``scene``?"""
    for ob in scene.objects:
        pg = ob.gltf_physics
        if is_helper(ob) or pg.collider.material.reproduced:
            return True
    rbw = scene.rigidbody_world
    return rbw is not None and rbw.effector_weights.gravity != 1.0 and _has_gravity_factor(scene)


def _has_gravity_factor(scene) -> bool:
    for ob in scene.objects:
        pm = ob.gltf_physics.motion
        if pm.has_motion and pm.gravity_factor != 1.0:
            return True
    return False
