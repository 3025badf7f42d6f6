"""Checks of the glTF physics data stored on a scene's objects (``gltf_physics.validate_scene``).

These check what export will read: the property groups of ``ui/body/properties.py`` and ``ui/joint/joint_properties.py``
against the schema rules they must satisfy, plus what Blender needs to simulate them. Pointers are RFC 6901 paths
into Blender data: ``/objects/<name>/gltf_physics/motion/mass``. Codes start with ``GLTF_PHYSICS_STORED_``.
"""

from __future__ import annotations

import bpy

from ...io.diagnostics import DiagnosticList, pointer
from .. import readout

BAD_VALUE = "GLTF_PHYSICS_STORED_BAD_VALUE"  # ERROR: the schema forbids it; export cannot write it as is
NOT_SIMULATED = "GLTF_PHYSICS_STORED_NOT_SIMULATED"  # WARNING: stored, but Blender has nothing that simulates it
SCHEMA_DEPENDENCY = "GLTF_PHYSICS_STORED_DEPENDENCY"  # WARNING: KHR 2024-10 schema dependency not met
MEANING = "GLTF_PHYSICS_STORED_MEANING"  # INFO: valid, with a special meaning worth knowing


def _ptr(ob, *parts) -> str:
    return pointer("objects", ob.name, "gltf_physics", *parts)


def _check_geometry(out: DiagnosticList, ob, geometry, where: str) -> None:
    if geometry.kind == "SHAPE" and readout.shape_from_json(geometry.shape_json) is None:
        out.error(BAD_VALUE, _ptr(ob, where, "geometry", "shape_json"), "the stored shape is unreadable or invalid")


def _check_filter(out: DiagnosticList, ob, flt, where: str) -> None:
    if not flt.has_filter:
        return
    try:
        parsed = readout.filter_from_texts(
            flt.collision_systems, flt.collide_with_systems, flt.not_collide_with_systems
        )
    except ValueError as error:
        out.error(BAD_VALUE, _ptr(ob, where, "filter"), f"filter lists must be JSON lists of names: {error}")
        return
    if parsed.collide_with_systems is not None and parsed.not_collide_with_systems is not None:
        out.error(BAD_VALUE, _ptr(ob, where, "filter"), "a filter cannot have both collide and not-collide lists")


def _check_motion(out: DiagnosticList, ob) -> None:
    motion = ob.gltf_physics.motion
    if not motion.has_motion:
        return
    if ob.rigid_body is None:
        out.warning(NOT_SIMULATED, _ptr(ob, "motion"), "a glTF body without a Blender rigid body is not simulated")
    if motion.mass_mode == "EXPLICIT" and not motion.mass > 0:
        out.error(BAD_VALUE, _ptr(ob, "motion", "mass"), "an explicit mass must be > 0 (use Infinite for KHR mass 0)")
    if motion.mass_mode == "INFINITE":
        out.info(MEANING, _ptr(ob, "motion", "mass"), "mass 0: infinite in KHR, computed automatically in OMI")
    if motion.has_inertia_diagonal and min(motion.inertia_diagonal) == 0.0:
        out.info(MEANING, _ptr(ob, "motion", "inertia_diagonal"), "a 0 component: infinite in KHR, automatic in OMI")


def _check_collider_and_trigger(out: DiagnosticList, ob) -> None:
    pg = ob.gltf_physics
    if pg.collider.has_collider:
        _check_geometry(out, ob, pg.collider.geometry, "collider")
        _check_filter(out, ob, pg.collider.filter, "collider")
    trigger = pg.trigger
    if trigger.has_trigger:
        if trigger.nodes and trigger.geometry.kind != "NONE":
            out.error(BAD_VALUE, _ptr(ob, "trigger"), "a trigger has either geometry or nodes, not both")
        if not trigger.nodes:
            _check_geometry(out, ob, trigger.geometry, "trigger")
            _check_filter(out, ob, trigger.filter, "trigger")
    if (trigger.has_trigger or pg.role == "TRIGGER_PROXY") and ob.rigid_body is not None and not pg.motion.has_motion:
        out.warning(NOT_SIMULATED, _ptr(ob, "trigger"), "a trigger volume with a rigid body collides in Blender")


def _check_joint(out: DiagnosticList, ob) -> None:
    joint = ob.gltf_physics.joint
    if joint.role != "JOINT":
        return
    if ob.rigid_body_constraint is None:
        out.warning(NOT_SIMULATED, _ptr(ob, "joint"), "a glTF joint without a rigid-body constraint is not simulated")
    if joint.node_a is None or joint.node_b is None:
        out.error(BAD_VALUE, _ptr(ob, "joint"), "the joint needs both frame nodes (A and B)")
    for i, limit in enumerate(joint.limits):
        where = _ptr(ob, "joint", "limits", i)
        if not any(limit.axes):
            out.error(BAD_VALUE, where + "/axes", "a limit needs at least one axis")
        if limit.has_min and limit.has_max and limit.min > limit.max:
            out.error(BAD_VALUE, where, f"min {limit.min:g} > max {limit.max:g}")
    for i, drive in enumerate(joint.drives):
        where = _ptr(ob, "joint", "drives", i)
        if drive.stiffness > 0 and not drive.has_position_target:
            out.warning(SCHEMA_DEPENDENCY, where, "stiffness without a position target (KHR 2024-10 needs both)")
        if drive.damping > 0 and not drive.has_velocity_target:
            out.warning(SCHEMA_DEPENDENCY, where, "damping without a velocity target (KHR 2024-10 needs both)")


def check_scene(scene: bpy.types.Scene) -> tuple[DiagnosticList, int]:
    """Diagnostics for every object of ``scene`` carrying glTF physics, and how many objects were checked."""
    out = DiagnosticList()
    checked = 0
    needs_world = False
    for ob in sorted(scene.objects, key=lambda o: o.name):
        pg = getattr(ob, "gltf_physics", None)
        if pg is None:
            continue
        stored = pg.role != "NONE" or pg.motion.has_motion or pg.collider.has_collider or pg.trigger.has_trigger
        if not stored and pg.joint.role == "NONE":
            continue
        checked += 1
        needs_world = needs_world or pg.motion.has_motion or pg.collider.has_collider or pg.joint.role == "JOINT"
        _check_motion(out, ob)
        _check_collider_and_trigger(out, ob)
        _check_joint(out, ob)
    if needs_world and scene.rigidbody_world is None:
        out.warning(NOT_SIMULATED, pointer("scenes", scene.name), "the scene has no rigid-body world")
    return out, checked
