"""A stored glTF joint edited in the Joint panel → its Blender constraint, re-planned with the importer's mapping.

``joint_changed`` (the ``update`` of every limit / drive / joint value in ``ui/joint/joint_properties.py``) runs
``mapping.joints_to_blender.plan_joint`` on the stored description and applies it with ``configure_constraint`` /
``configure_motor`` — the importer's own code — so the exporter's edit detection (``io/exporter/joints._edited``:
type, limits, springs, collision flag and the Empty's pose against the plan) still finds the joint unedited and
writes the edited description. The plan puts the hinge / slider axis on the Empty's Z / X by a cyclic permutation
of frame A's axes: when the permutation changes, the Empty turns about its origin (frame A keeps its pose). One MOTOR
helper Empty per velocity drive is kept in step: reused in name order, added or removed.
"""

from __future__ import annotations

import bpy
import numpy as np
from mathutils import Matrix

from ...io.gltf.nodes import rigid
from ...io.gltf.transforms import quat_to_matrix
from ...io.mapping import sync_gate
from ...io.mapping.axes import AXIS_CHANGE, BLENDER_TO_GLTF
from ...io.mapping.joints_to_blender import (
    ConstraintPlan,
    configure_constraint,
    configure_motor,
    cyclic,
    node_perm,
    permutation_matrix,
    plan_joint,
)
from ...io.mapping.stored import assign, stored_description
from ..body.sync_body import SIMULATED, STORED, synced

PERMS = tuple(cyclic(first) for first in range(3))


def _nearest_perm(rotation: np.ndarray) -> tuple[int, int, int]:
    """The cyclic permutation matrix closest to ``rotation`` (3×3, Empty axes in frame A)."""
    return max(PERMS, key=lambda p: float(np.sum(rotation * permutation_matrix(p)[:3, :3])))


def current_perm(ob, pj, c) -> tuple[int, int, int]:
    """The permutation the constraint Empty ``ob`` carries now: the one the last sync applied (``planned_axis``), else
    measured against frame A (the frame node's pose, or body A's pose with the stored frame)."""
    if pj.planned_axis >= 0 or pj.is_node:  # a joint node carrying its constraint: stored unless the identity
        return node_perm(pj.planned_axis)
    empty = rigid(np.array(ob.matrix_world))[:3, :3]
    if pj.node_a is not None:
        frame = rigid(np.array(pj.node_a.matrix_world))[:3, :3] @ AXIS_CHANGE[:3, :3]
        return _nearest_perm(frame.T @ empty)
    body = c.object1
    frame = np.eye(3)
    if body is not None:
        gltf_body = rigid(BLENDER_TO_GLTF @ np.array(body.matrix_world) @ AXIS_CHANGE)[:3, :3]
        frame = gltf_body @ quat_to_matrix(tuple(pj.frame_a_rotation))
    return _nearest_perm((AXIS_CHANGE[:3, :3] @ frame).T @ empty)


def _turned(matrix: Matrix, old, new) -> Matrix:
    """``matrix`` (C·A·P(old)) turned to C·A·P(new) about its origin."""
    m = np.array(matrix) @ permutation_matrix(old).T @ permutation_matrix(new)
    return Matrix(m.tolist())


def motor_helpers(ob, pj, c) -> list:
    """The MOTOR helper Empties of joint ``ob``: role MOTOR, same two bodies and frame A (the name may have been
    edited), sorted by name."""
    world = bpy.context.scene.rigidbody_world if bpy.context.scene is not None else None
    if world is None or world.constraints is None:
        return []
    out = []
    for helper in world.constraints.objects:
        hc, hj = helper.rigid_body_constraint, helper.gltf_physics.joint
        if hc is None or helper is ob or hj.role != "MOTOR":
            continue
        if (hc.object1, hc.object2) != (c.object1, c.object2):
            continue
        same_frame = tuple(hj.frame_a_translation) == tuple(pj.frame_a_translation)
        if same_frame and tuple(hj.frame_a_rotation) == tuple(pj.frame_a_rotation):
            out.append(helper)
    return sorted(out, key=lambda helper: helper.name)


def _sync_motors(ob, pj, c, plan: ConstraintPlan, frame_a: np.ndarray) -> None:
    helpers = motor_helpers(ob, pj, c)
    base = ob.name[: -len(".joint")] if ob.name.endswith(".joint") else ob.name
    for n, motor in enumerate(plan.motors):
        if n < len(helpers):
            helper = helpers[n]
        else:
            helper = bpy.data.objects.new(f"{base}.motor{n}", None)
            helper.empty_display_type, helper.empty_display_size = "ARROWS", 0.25
            constraints = bpy.context.scene.rigidbody_world.constraints
            for collection in {*ob.users_collection, constraints}:  # the joint's collections + the world's
                collection.objects.link(helper)
        helper.matrix_world = Matrix((frame_a @ permutation_matrix(motor.perm)).tolist())
        mc = helper.rigid_body_constraint
        mc.use_motor_lin = mc.use_motor_ang = False
        configure_motor(mc, motor, c.object1, c.object2, pj.enable_collision)
        assign(
            helper.gltf_physics.joint,
            role="MOTOR",
            joint_name=pj.joint_name,
            node_a=pj.node_a,
            node_b=pj.node_b,
            frame_a_translation=tuple(pj.frame_a_translation),
            frame_a_rotation=tuple(pj.frame_a_rotation),
            frame_b_translation=tuple(pj.frame_b_translation),
            frame_b_rotation=tuple(pj.frame_b_rotation),
            notes=motor.note,
        )
    for helper in helpers[len(plan.motors) :]:
        bpy.data.objects.remove(helper)


def replan(ob) -> ConstraintPlan | None:
    """Re-plan the constraint of joint object ``ob`` from its stored description (None when it is not a joint with
    a constraint)."""
    pj, c = ob.gltf_physics.joint, ob.rigid_body_constraint
    if pj.role != "JOINT" or c is None:
        return None
    old = current_perm(ob, pj, c)
    plan = plan_joint(
        stored_description(pj, passthrough=False), tuple(pj.offset_translation), tuple(pj.offset_rotation)
    )
    if plan.perm != old:
        ob.matrix_world = _turned(ob.matrix_world, old, plan.perm)
    configure_constraint(c, plan, c.object1, c.object2, pj.enable_collision)
    frame_a = np.array(ob.matrix_world) @ permutation_matrix(plan.perm).T  # C·A (Blender world, frame A axes)
    _sync_motors(ob, pj, c, plan, frame_a)
    assign(pj, planned_axis=plan.perm[0], approximated=plan.approximated, notes="; ".join(plan.notes))
    return plan


@synced
def joint_changed(ob, _owner, _context) -> None:
    replan(ob)


@synced
def limit_min_changed(ob, limit, _context) -> None:
    """Min above Max pushes Max up with it (as Blender's own ranges do: ``min > max`` is no valid glTF limit and
    no limit at all in Bullet); then re-plan."""
    if limit.has_max and limit.min > limit.max:
        limit.max = limit.min
    replan(ob)


@synced
def limit_max_changed(ob, limit, _context) -> None:
    """Max below Min pushes Min down with it; then re-plan."""
    if limit.has_min and limit.max < limit.min:
        limit.min = limit.max
    replan(ob)


def replan_now(ob) -> ConstraintPlan | None:
    """:func:`replan` for operators (inside the gate: the writes it makes fire no further sync)."""
    with sync_gate.paused():
        return replan(ob)


def limit_status(limit) -> str:
    """A hard limit, or a soft one on a locked axis (a Blender spring), is simulated; a soft range is held hard
    (its stiffness and damping are stored only)."""
    soft_range = limit.has_stiffness and not (limit.has_min and limit.has_max and limit.min == limit.max)
    return STORED if soft_range else SIMULATED


def drive_status(ob, index: int) -> str:
    """Simulated when the plan turns drive ``index`` into a MOTOR (velocity drive) or a spring (position drive at
    the rest pose); stored only otherwise (the plan's note says why)."""
    pj = ob.gltf_physics.joint
    plan = plan_joint(
        stored_description(pj, passthrough=False), tuple(pj.offset_translation), tuple(pj.offset_rotation)
    )
    note = next((n for n in plan.notes if n.startswith(f"drive {index}:")), "")
    return SIMULATED if ("→ MOTOR" in note or "→ spring" in note) else STORED


CLASSES: tuple = ()
