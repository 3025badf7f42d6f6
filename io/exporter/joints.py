"""Blender rigid-body constraints → glTF joints (``KHR_physics_rigid_bodies.joint`` / ``OMI_physics_joint``).

* **Imported joints** (constraint Empty with ``gltf_physics.joint.role == "JOINT"``): while the constraint still is
  what the import built from the stored description (type, limits, springs, collision flag, pose of the Empty at
  frame A), the stored description is written back exactly, on the original frame nodes when both are exported
  (``node_a`` / ``node_b``), else on new attachment nodes at the stored frames. Helper MOTOR Empties and the world
  anchor are never exported on their own.
* **Edited or native constraints**: the description comes from the Blender settings in the Empty's own axes
  (``export_joint_mapping.constraint_description``) and the joint goes on two new attachment nodes (specs §6.6), one
  child of each body's node at the Empty's world pose (a body that is the world anchor → a scene root node).
"""

from __future__ import annotations

import dataclasses

import numpy as np

from ..diagnostics import pointer
from ..gltf.model import JointDescription, NodeJoint
from ..gltf.nodes import rigid
from ..gltf.transforms import quat_to_matrix
from ..mapping.axes import AXIS_CHANGE
from ..mapping.joints_to_blender import node_perm, node_turn, permutation_matrix, plan_joint
from ..mapping.joints_to_gltf import constraint_description, limits_close
from ..mapping.stored import joint_passthrough, stored_description
from ..mapping.values_to_gltf import attachment_frames, gltf_locals
from .blender_settings import keep_constraint
from .context import (
    DISABLED_JOINT,
    EXPORT_APPROXIMATED,
    EXPORT_EDITED,
    EXPORT_SKIPPED,
    Builder,
    exact_key,
    joint_role,
    set_trs,
)

AXES = "xyz"
POSE_TOL = 1e-4
_STORED_KEY, _PLAN_KEY = ("stored joint",), ("stored joint plan",)  # Builder.memo key prefixes


def add_joints(b: Builder) -> None:
    import bpy

    scenes = {id(s): s for s in [bpy.context.scene]}
    for scene in scenes.values():
        world = scene.rigidbody_world
        if world is None or world.constraints is None:
            continue
        for empty in sorted(world.constraints.objects, key=lambda ob: ob.name):
            ptr = pointer("objects", empty.name)
            b.guarded(ptr, f"constraint {empty.name!r}", _one, b, empty)
    for scene in scenes.values():
        add_world_joints(b, scene)
    b.guarded("", "joint attachment nodes", place_attachments, b)


def add_world_joints(b: Builder, scene) -> None:
    """The imported joints whose two sides are the world (``importer.joints._keep_world_joint``: stored on the joint
    node's Empty, role JOINT, no constraint; Blender simulates nothing for them), written back as the file had them on
    their frame-A node, connected to their frame-B node, when both nodes are exported."""
    pg_of = b.session.pg_of
    held = [ob for ob in scene.objects if joint_role(pg_of(ob)) == "JOINT" and ob.rigid_body_constraint is None]
    for ob in sorted(held, key=lambda o: o.name):
        pj = _pg_joint(b, ob)
        a, bb = b.node_index(pj.node_a), b.node_index(pj.node_b)
        if a is None or bb is None or not _free_for_joint(b, a):
            b.warn(
                EXPORT_SKIPPED,
                pointer("objects", ob.name),
                f"{_where(ob)}: a joint of the world to the world whose nodes are not both exported: not exported",
            )
            continue
        description = _without_axisless_limits(b, ob, _stored_description(b, pj)[0])
        node_joint = NodeJoint(connected_node=bb, joint=b.add_joint(description), enable_collision=pj.enable_collision)
        joint_passthrough(node_joint, pj.node_extras_json)
        b.doc.node(a).joint = node_joint


def drop_unused_descriptions(b: Builder) -> None:
    """Descriptions no written joint names (a joint is described before it can be skipped: a body not exported, a
    frame that cannot be expressed) are left out; the others keep their order and the node joints follow them.
    Runs after every joint is written (``pipeline``)."""
    joints = [n.joint for n in b.doc.nodes.values() if n.joint is not None]
    new_index = b.keep_joints(sorted({j.joint for j in joints}))
    if new_index is not None:
        for node_joint in joints:
            node_joint.joint = new_index[node_joint.joint]


def _pg_joint(b: Builder, ob):
    """``ob``'s stored glTF joint as a read-only view (``ExportSession.pg_of``; None without any): plain Python reads
    of the stored text, not the property group's ``get`` views (an RNA look-up and a parse per value)."""
    pg = b.session.pg_of(ob)
    return None if pg is None else pg.joint


def _is_anchor(b: Builder, ob) -> bool:
    pj = _pg_joint(b, ob)
    return pj is not None and pj.role in ("ANCHOR", "REPRODUCTION")


def _where(empty) -> str:
    """How notes name a constraint (built only when a note is written)."""
    return f"constraint {empty.name!r}"


def _one(b: Builder, empty) -> None:
    c = empty.rigid_body_constraint
    if c is None:
        return
    pj = _pg_joint(b, empty)
    role = pj.role if pj is not None else "NONE"
    if role in ("MOTOR", "REPRODUCTION"):  # helpers: a driven joint's motor, a reproduction lock
        return
    object1, object2 = c.object1, c.object2
    if object1 is None or object2 is None:
        b.warn(EXPORT_SKIPPED, "", f"{_where(empty)}: needs two objects, not exported")
        return
    if object1 is object2 or object1.rigid_body is None or object2.rigid_body is None:
        b.warn(EXPORT_SKIPPED, "", f"{_where(empty)}: needs two different rigid bodies, not exported")
        return
    if not c.enabled:
        b.note(DISABLED_JOINT, "", f"{_where(empty)}: disabled, not exported")
        return
    if role == "JOINT":
        description, key = _stored_description(b, pj)
        plan = _plan(b, pj, description, key)
        reason = _edited(b, empty, c, pj, plan)
        if reason is None:
            kept = _without_axisless_limits(b, empty, description)
            _write_stored(b, empty, c, pj, _joint_index(b, kept, key if kept is description else None), plan)
            return
        b.note(EXPORT_EDITED, "", f"{_where(empty)}: {reason} since import: written from the Blender constraint")
    _write_native(b, empty, c)


# --- stored joints -----------------------------------------------------------------------------------------------


def _edited(b: Builder, empty, c, pj, plan) -> str | None:
    """Why the constraint no longer is what the import built from the stored description (None = unchanged)."""
    if c.type != plan.type:
        return f"type changed to {c.type}"
    if bool(c.disable_collisions) == bool(pj.enable_collision):
        return "collision flag changed"
    current = blender_intervals(c)
    for kind in ("lin", "ang"):
        for i in range(3):
            if _relevant(c.type, kind, i) and not limits_close(current[kind][i], getattr(plan, kind)[i]):
                return f"{kind} limit on {AXES[i]} changed"
    if c.type == "GENERIC_SPRING":
        springs = blender_springs(c)
        for kind in ("lin", "ang"):
            for i in range(3):
                if not limits_close(springs[kind][i], getattr(plan, f"{kind}_springs")[i]):
                    return f"{kind} spring on {AXES[i]} changed"
    if pj.node_a is not None and not pj.is_node:  # a joint node carrying its constraint moves with it
        expected = rigid(b.session.world(pj.node_a)) @ AXIS_CHANGE @ permutation_matrix(plan.perm)
        if np.max(np.abs(expected - rigid(b.session.world(empty)))) > POSE_TOL:
            return "moved"
    return None


def _relevant(kind_type: str, kind: str, axis: int) -> bool:
    if kind_type == "HINGE":
        return kind == "ang" and axis == 2
    if kind_type == "SLIDER":
        return kind == "lin" and axis == 0
    if kind_type == "PISTON":
        return axis == 0
    return kind_type in ("GENERIC", "GENERIC_SPRING")


def _stored_description(b: Builder, pj) -> tuple[JointDescription, tuple]:
    """``mapping.stored.stored_description(pj)`` and its ``Builder.memo`` key: the joints of a file share few
    descriptions, each built once per export from the values it reads (name, kept extras, the limit and drive rows).
    The result is shared: never modify it."""
    rows = pj.rows_text("limits"), pj.rows_text("drives")
    key = (*_STORED_KEY, pj.joint_name, pj.extras_json, *rows)
    description = b.memo.get(key)
    if description is None:
        description = b.memo[key] = stored_description(pj)
    return description, key


def _plan(b: Builder, pj, description: JointDescription, key: tuple):
    """The constraint the import planned for the stored joint (``mapping.joints_to_blender.plan_joint``), once per
    export for each description (``key``: its memo key) and frame-B offset. Shared: never modify it."""
    offset_t, offset_q = tuple(pj.offset_translation), tuple(pj.offset_rotation)
    plan_key = (*_PLAN_KEY, *key[1:], *exact_key(*offset_t, *offset_q))
    plan = b.memo.get(plan_key)
    if plan is None:
        plan = b.memo[plan_key] = plan_joint(description, offset_t, offset_q, b.memo)
    return plan


def _without_axisless_limits(b: Builder, empty, description: JointDescription) -> JointDescription:
    """``description`` without the limits whose three axis boxes are unticked in the joint panel (a glTF limit
    names one to three axes: written, the file would be invalid), with a WARNING naming the constraint. Such a
    limit limits nothing in Blender either, but the panel shows one the file would not have."""
    kept = [limit for limit in description.limits if limit.linear_axes or limit.angular_axes]
    if len(kept) == len(description.limits):
        return description
    left_out = len(description.limits) - len(kept)
    why = f"{_where(empty)}: {left_out} limit(s) with no axis ticked left out (a glTF limit names at least one axis)"
    b.warn(EXPORT_SKIPPED, "", why)
    return dataclasses.replace(description, limits=kept)


def _joint_index(b: Builder, description: JointDescription, key: tuple | None) -> int:
    """``b.add_joint(description)``, once per export for a memoised stored description (``key``: its memo key; None:
    a description of this joint's own). ``Builder.keep_joints`` drops these memo entries when it renumbers."""
    if key is None:
        return b.add_joint(description)
    index_key = ("joint", *key)
    index = b.memo.get(index_key)
    if index is None:
        index = b.memo[index_key] = b.add_joint(description)
    return index


def _write_stored(b: Builder, empty, c, pj, joint: int, plan) -> None:
    """The stored joint (description index ``joint``) on its frame-A node, else on new attachment nodes."""
    node_joint = NodeJoint(connected_node=-1, joint=joint, enable_collision=bool(pj.enable_collision))
    joint_passthrough(node_joint, pj.node_extras_json)
    keep_constraint(b, node_joint, empty, c)
    a, bb = b.node_index(pj.node_a), b.node_index(pj.node_b)
    if a is not None and bb is not None and a != bb and _free_for_joint(b, a):
        node_joint.connected_node = bb
        b.doc.node(a).joint = node_joint
        return
    world = b.session.world(empty)
    pivot_a = rigid(world) @ permutation_matrix(plan.perm).T
    offset = np.eye(4)
    offset[:3, :3] = quat_to_matrix(tuple(pj.offset_rotation))
    offset[:3, 3] = tuple(pj.offset_translation)
    _attach(b, empty, c, node_joint, pivot_a, pivot_a @ offset)


def restore_nodes(b: Builder) -> None:
    """Imported joint nodes that carry their constraint (``importer.joint_empties``) back at frame A, all in one numpy
    pass: the Empty is C·A·P(perm) in Blender, its node C·A·Cᵀ (the permutation is the one the import or the last
    panel edit applied, ``planned_axis``)."""
    if not b.joint_nodes:
        return
    parents, worlds = [], []
    for ob in b.joint_nodes:
        turn = node_turn(node_perm(_pg_joint(b, ob).planned_axis)).T
        parent = ob.parent if ob.parent is not None and b.node_index(ob.parent) is not None else None
        parents.append(None if parent is None else b.session.world(parent))
        worlds.append(b.session.world(ob) @ turn)
    for ob, trs in zip(b.joint_nodes, gltf_locals(parents, worlds, b.session.yup), strict=True):
        if trs is None:
            b.note(EXPORT_APPROXIMATED, pointer("objects", ob.name), f"{_where(ob)}: its node's transform has shear")
            continue
        for index in b.node_indices(ob):
            set_trs(b.gltf_node(index), trs)


def _free_for_joint(b: Builder, index: int) -> bool:
    physics = b.doc.nodes.get(index)
    return physics is None or physics.joint is None


# --- native constraints ------------------------------------------------------------------------------------------


def blender_intervals(c) -> dict[str, list]:
    out: dict[str, list] = {"lin": [None] * 3, "ang": [None] * 3}
    for kind in ("lin", "ang"):
        for i, axis in enumerate(AXES):
            if getattr(c, f"use_limit_{kind}_{axis}"):
                lower = getattr(c, f"limit_{kind}_{axis}_lower")
                upper = getattr(c, f"limit_{kind}_{axis}_upper")
                out[kind][i] = (float(lower), float(upper))
    return out


def blender_springs(c) -> dict[str, list]:
    out: dict[str, list] = {"lin": [None] * 3, "ang": [None] * 3}
    for kind, infix in (("lin", ""), ("ang", "_ang")):
        for i, axis in enumerate(AXES):
            if getattr(c, f"use_spring{infix}_{axis}"):
                stiffness = getattr(c, f"spring_stiffness{infix}_{axis}")
                damping = getattr(c, f"spring_damping{infix}_{axis}")
                out[kind][i] = (float(stiffness), float(damping))
    return out


def constraint_settings(c) -> dict:
    """The settings ``export_joint_mapping.constraint_description`` reads, as plain values."""
    intervals = blender_intervals(c)
    springs = blender_springs(c)
    return {
        "type": c.type,
        "lin": intervals["lin"],
        "ang": intervals["ang"],
        "lin_springs": springs["lin"],
        "ang_springs": springs["ang"],
        "motor_lin": (c.motor_lin_target_velocity, c.motor_lin_max_impulse) if c.use_motor_lin else None,
        "motor_ang": (c.motor_ang_target_velocity, c.motor_ang_max_impulse) if c.use_motor_ang else None,
    }


def _settings_key(settings: dict) -> tuple:
    """``constraint_settings`` as one flat exact key (a slot is None or its two numbers: the layout is unambiguous)."""
    flat: list = [settings["type"]]
    for name in ("lin", "ang", "lin_springs", "ang_springs"):
        for pair in settings[name]:
            flat.extend((None,) if pair is None else pair)
    for name in ("motor_lin", "motor_ang"):
        flat.extend((None,) if settings[name] is None else settings[name])
    return exact_key("joint", *flat)


def native_description(b: Builder, c) -> tuple[int | None, list[str]]:
    """(joint description index or None when it cannot be written, notes) of constraint ``c``: mapped and
    de-duplicated once per distinct settings."""
    settings = constraint_settings(c)
    key = _settings_key(settings)
    found = b.memo.get(key)
    if found is None:
        description, notes = constraint_description(settings)
        found = b.memo[key] = (None if description is None else b.add_joint(description), notes)
    return found


def _write_native(b: Builder, empty, c) -> None:
    joint, notes = native_description(b, c)
    if joint is None:
        b.warn(EXPORT_SKIPPED, "", f"{_where(empty)}: " + "; ".join(notes))
        return
    for note in notes:
        b.note(EXPORT_APPROXIMATED, "", f"{_where(empty)}: {note}")
    node_joint = NodeJoint(connected_node=-1, joint=joint, enable_collision=not c.disable_collisions)
    keep_constraint(b, node_joint, empty, c)
    pivot = b.session.world(empty)  # made rigid with the frames (attachment_frames)
    _attach(b, empty, c, node_joint, pivot, pivot)


def _attach(b: Builder, empty, c, node_joint: NodeJoint, pivot_a, pivot_b) -> None:
    """Queue two new attachment nodes (frame A under object1, frame B under object2) carrying the joint; their
    frames are computed for every joint at once by ``place_attachments``."""
    sides = []
    for side, body, pivot in (("A", c.object1, pivot_a), ("B", c.object2, pivot_b)):
        parent = None
        if not _is_anchor(b, body):
            parent = b.node_index(body)
            if parent is None:
                b.warn(EXPORT_SKIPPED, "", f"{_where(empty)}: body {body.name!r} is not exported: joint skipped")
                return
        world = None if parent is None else b.session.world(body)
        sides.append((side, body, parent, world, pivot))
    b.attachments.append((empty.name, node_joint, sides))


def place_attachments(b: Builder) -> None:
    """The queued attachment nodes, in queue order: all frames in one numpy pass, then two nodes per joint."""
    pending, b.attachments = b.attachments, []
    pairs = [(world, pivot) for _, _, sides in pending for _, _, _, world, pivot in sides]
    frames = iter(attachment_frames([w for w, _ in pairs], [p for _, p in pairs], b.session.yup))
    for name, node_joint, sides in pending:
        made, failed = [], None
        for (side, body, parent, _, _), frame in zip(sides, (next(frames), next(frames)), strict=True):
            if frame is None and failed is None:
                failed = f"constraint {name!r}: frame {side} cannot be expressed in {body.name!r}: joint skipped"
            made.append((f"{name}.frame{side}", frame, parent))
        if failed is not None:
            b.warn(EXPORT_SKIPPED, "", failed)
            continue
        if all(parent is None for _, _, parent in made):
            b.warn(EXPORT_SKIPPED, "", f"constraint {name!r}: both sides are the world: joint skipped")
            continue
        index_a = b.add_node(*made[0])
        index_b = b.add_node(*made[1])
        node_joint.connected_node = index_b
        b.doc.node(index_a).joint = node_joint
