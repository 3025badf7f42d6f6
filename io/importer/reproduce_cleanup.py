"""*Remove Reproduction Helpers*: the scene as the import would have left it with ``import_reproduce`` off.

Undoes the initial-velocity pre-roll (drivers, delta transforms, kinematic switch), puts re-originated bodies back
under their parents, deletes every helper tagged ``joint.role == "REPRODUCTION"`` (rotation locks, the anchor,
centre-of-mass carriers, pre-roll Empties), puts the world's gravity weight back to 1 when imported bodies carry a
gravityFactor, and removes the helper collections left empty.
"""

from __future__ import annotations

import bpy

from . import reproduce_mass, reproduce_velocity
from .reproduce_helpers import HELPERS, is_helper


def remove_helpers(scene) -> int:
    """Remove the reproduction helpers of ``scene``; returns how many helper objects were deleted."""
    for body in reproduce_velocity.preroll_bodies(scene):
        reproduce_velocity.remove(body)
    helpers = [ob for ob in scene.objects if is_helper(ob)]
    for ob in helpers:
        if ob.gltf_physics.joint.joint_name == reproduce_mass.KIND:
            reproduce_mass.restore(ob)  # the body back under its own parent before its carrier goes
    rbw = scene.rigidbody_world
    if rbw is not None and _has_gravity_factor(scene):
        rbw.effector_weights.gravity = 1.0
    for ob in helpers:
        data = ob.data
        bpy.data.objects.remove(ob, do_unlink=True)
        if isinstance(data, bpy.types.Mesh) and data.users == 0:
            bpy.data.meshes.remove(data)
    for collection in list(scene.collection.children):
        if collection.name.startswith(HELPERS) and not collection.all_objects and not collection.children:
            bpy.data.collections.remove(collection)
    return len(helpers)


def _has_gravity_factor(scene) -> bool:
    for ob in scene.objects:
        pm = ob.gltf_physics.motion
        if pm.has_motion and pm.gravity_factor != 1.0:
            return True
    return False
