"""Joints → Blender rigid-body constraints (issue 4 part 6; mapping rules in ``joint_mapping`` and docs/joints.md).

Per joint: one constraint object at glTF frame A (axes permuted so Blender's hinge/slider axis is the glTF one): the
joint node's own Empty turned to that pose when it is a plain leaf Empty (``joint_empties.node_joints``), else a new
Empty; linked into the world's constraint collection (data API, no ``bpy.ops``), plus one MOTOR Empty per driven
degree of freedom (the velocity drives of one type and axis add up to one drive, ``mapping.drives_to_blender``: at
most 6). The two bodies are the nearest motion ancestors of frame A and frame B. The world side is the nearest static
collider body above the frame (so ``disable_collisions`` acts against it, as in the conformance scenes), else one
shared invisible PASSIVE anchor that collides with nothing. The exact glTF joint is kept in the constraint object's
stored text (``Object.gltf_physics.joint`` is its view, ``mapping/stored_values.py``).
"""

from __future__ import annotations

import bpy
import numpy as np
from mathutils import Matrix

from ..diagnostics import printable
from ..gltf.extensions import KHR_RIGID_BODIES, OMI_JOINT, OMI_REVISIONS
from ..gltf.nodes import nearest_marked, relative_offset
from ..mapping.joints_to_blender import (
    ConstraintPlan,
    configure_constraint,
    configure_motor,
    empty_matrix,
    node_planned_axis,
    node_turn,
    plan_joint,
)
from ..mapping.stored import assign, passthrough_json, store_description
from .context import APPROXIMATED, NOT_SIMULATED, SKIPPED, ImportContext, passive_anchor
from .joint_empties import JOINT_SUFFIX, take

ANCHOR_NAME = "glTF Physics World Anchor"
ANCHOR_SIZE = 0.05
MAX_NOTES = 50  # notes kept on a JOINT object (a joint with 100,000 position drives has 100,000 of them)


def build(ctx: ImportContext) -> None:
    """Create the constraints of every joint in ``ctx.document``; each joint is isolated."""
    joints = [(i, n) for i, n in sorted(ctx.document.nodes.items()) if n.joint is not None]
    if not joints or ctx.world is None:
        return
    state = _State(ctx)
    state.precompute(joints)
    for index, physics in joints:
        ptr = _joint_pointer(physics, index)
        ctx.guarded(ptr, "joint", _build_one, state, index, physics.joint, ptr)


class _State:
    """Per-import caches: node frames and the shared world anchor."""

    def __init__(self, ctx: ImportContext):
        self.ctx = ctx
        self.frames = ctx.frames  # world / rigid frames of every node (io.node_frames)
        self.anchor = None
        self.constraint_objects = ctx.world.constraints.objects  # the world's constraint collection (each joint links)
        self.collections = None  # where constraint Empties go (those of the first joint node's object)
        self.offsets: dict = {}  # (node a | None = world, node b) -> rigid b in rigid a (translation, xyzw)
        self.plans: dict = {}  # (description index, offset translation, offset rotation) -> ConstraintPlan
        self.static_above: dict | None = None  # node -> nearest static collider body at or above it (or None)

    def precompute(self, joints: list) -> None:
        """All frame offsets the joints need, in one vectorised pass (``WorldFrames.relative_many``)."""
        count, body_of, pairs = len(self.ctx.json_nodes), self.ctx.body_node_of, []
        for index, physics in joints:
            joint = physics.joint
            legacy = joint.legacy_pivot
            frame_a, frame_b = (index, index) if legacy is not None else (index, joint.connected_node)
            side_a, side_b = (legacy.body_a, legacy.body_b) if legacy is not None else (frame_a, frame_b)
            if all(0 <= n < count for n in (frame_a, frame_b, side_a, side_b)):
                pairs += [(frame_a, frame_b), (body_of.get(side_a), frame_a), (body_of.get(side_b), frame_b)]
        self.offsets = self.frames.relative_many(pairs)

    def plan(self, index: int, description, offset_t: tuple, offset_q: tuple) -> ConstraintPlan:
        """``plan_joint`` once per description and load-time offset (joints sharing both share the plan, which no
        step changes)."""
        key = (index, offset_t, offset_q)
        found = self.plans.get(key)
        if found is None:
            found = self.plans[key] = plan_joint(description, offset_t, offset_q, self.ctx.cache)
        return found

    def relative(self, a: int | None, b: int) -> tuple:
        """Rigid frame of node ``b`` in that of node ``a`` (None = the world): (translation, rotation xyzw)."""
        found = self.offsets.get((a, b))
        if found is None:
            world = np.eye(4) if a is None else self.frames.rigid(a)
            found = self.offsets[(a, b)] = relative_offset(world, self.frames.rigid(b))
        return found


def _joint_pointer(physics, index: int) -> str:
    """``/nodes/<index>/extensions/…`` (fixed names and an index: nothing to escape; built per joint)."""
    if physics.source in OMI_REVISIONS:
        return f"/nodes/{index}/extensions/{OMI_JOINT}"
    return f"/nodes/{index}/extensions/{KHR_RIGID_BODIES}/joint"


def _build_one(state: _State, index: int, joint, ptr: str) -> None:
    ctx = state.ctx
    if not 0 <= joint.joint < len(ctx.document.joints):
        ctx.warn(SKIPPED, ptr + "/joint", f"joint description {joint.joint} does not exist")
        return
    description = ctx.document.joints[joint.joint]
    if joint.legacy_pivot is not None:  # legacy OMI: the node is the pivot, nodeA/nodeB are the bodies
        frame_a = frame_b = index
        side_a, side_b = joint.legacy_pivot.body_a, joint.legacy_pivot.body_b
    else:
        frame_a, frame_b = index, joint.connected_node
        side_a, side_b = frame_a, frame_b
    count = len(ctx.json_nodes)
    if not (0 <= frame_a < count and 0 <= frame_b < count and 0 <= side_a < count and 0 <= side_b < count):
        ctx.warn(SKIPPED, ptr, "joint refers to a node that does not exist")
        return
    body_a, body_b = _side(state, side_a, ptr), _side(state, side_b, ptr)
    if body_a is False or body_b is False:
        return
    if body_a is None and body_b is None:
        _keep_world_joint(state, index, joint, description, frame_a, frame_b, ptr)
        return
    if body_a is not None and body_a == body_b:
        ctx.warn(SKIPPED, ptr, "both frames belong to the same body: the joint has no effect")
        return
    offset_t, offset_q = state.relative(frame_a, frame_b)
    plan = state.plan(joint.joint, description, offset_t, offset_q)
    obj_a = body_a if body_a is not None else _world_object(state, side_a)
    obj_b = body_b if body_b is not None else _world_object(state, side_b)
    empty = _on_node(state, index, plan.perm) if index in ctx.node_joints else None
    on_node = empty is not None
    makes_empties = not on_node or bool(plan.motors)  # their frame and name (a joint node carrying it needs neither)
    world_a = state.frames.rigid(frame_a) if makes_empties else None
    name = _node_name(ctx, index) if makes_empties else ""
    if empty is None:
        matrix = Matrix(empty_matrix(world_a, plan.perm).tolist())
        empty = _constraint_empty(state, name + JOINT_SUFFIX, matrix, index, take(ctx, index, name + JOINT_SUFFIX))
    constraint = empty.rigid_body_constraint
    configure_constraint(constraint, plan, obj_a, obj_b, joint.enable_collision, fresh=True)
    ctx.joint_constraints[index] = constraint  # for ``blender_settings``
    width = len(str(len(plan.motors) - 1))  # zero-padded: names sort in creation order (see below)
    for n, motor in enumerate(plan.motors):
        motor_empty = _constraint_empty(
            state, f"{name}.motor{n:0{width}d}", Matrix(empty_matrix(world_a, motor.perm).tolist()), index
        )
        configure_motor(motor_empty.rigid_body_constraint, motor, obj_a, obj_b, joint.enable_collision)
        _store(
            ctx, motor_empty, "MOTOR", description, joint, frame_a, frame_b, side_a, side_b, plan, state, [motor.note]
        )
    _store(ctx, empty, "JOINT", description, joint, frame_a, frame_b, side_a, side_b, plan, state, plan.notes, on_node)
    for note in plan.notes:
        code = NOT_SIMULATED if "kept for export" in note else APPROXIMATED
        ctx.note(code, ptr, note)
    body_nodes = ctx.body_node_of
    if ctx.animated_at_or_above(body_nodes.get(side_a)) or ctx.animated_at_or_above(body_nodes.get(side_b)):
        ctx.note(APPROXIMATED, ptr, ANIMATED_BODY)
    ctx.report.count("joints")


WORLD_JOINT = "both sides of the joint are the world: nothing to simulate, kept on its node for export"


def _keep_world_joint(state: _State, index: int, joint, description, frame_a: int, frame_b: int, ptr: str) -> None:
    """A joint whose two sides are the world constrains nothing, but it is valid physics: kept on its node's
    Empty (role JOINT, ``is_node``, no constraint; the exporter writes it back, ``exporter.joints.add_world_joints``),
    else skipped (``SKIPPED``) when either node has no Blender object or the joint node is not a plain Empty."""
    ctx = state.ctx
    ob = ctx.objects.get(index)
    plain = ob is not None and ob.type == "EMPTY" and ob.parent_type == "OBJECT" and ob.rigid_body is None
    if not plain or ctx.objects.get(frame_b) is None or ob.rigid_body_constraint is not None:
        ctx.warn(SKIPPED, ptr, "both sides of the joint are the world: nothing to constrain")
        return
    plan = state.plan(joint.joint, description, *state.relative(frame_a, frame_b))
    _turn(ob, plan.perm)  # as a joint node carrying its constraint: its axes are the joint's
    _store(ctx, ob, "JOINT", description, joint, frame_a, frame_b, frame_a, frame_b, plan, state, [WORLD_JOINT], True)
    ctx.note(NOT_SIMULATED, ptr, WORLD_JOINT)
    ctx.report.count("joints")  # held (for export), not skipped


ANIMATED_BODY = (
    "a body of this joint is animated: Blender builds the joint on the frame after the rigid-body cache's start from "
    "the poses it reads then, before or after that frame's animation (a race in Blender), so it is exact only if "
    "the animation holds still over its first frame"
)


def _side(state: _State, node: int, ptr: str):
    """Blender body object of a joint side; None = the world; False = skip (its body could not be built)."""
    ctx = state.ctx
    body = ctx.body_node_of.get(node)
    if body is None:
        return None
    ob = ctx.body_object_of.get(node)
    if ob is None or getattr(ob, "rigid_body", None) is None:
        ctx.warn(SKIPPED, ptr, f"node {node}: its body (node {body}) has no Blender rigid body, joint skipped")
        return False
    return ob


def _world_object(state: _State, node: int):
    """The nearest static collider body at or above ``node``, else the shared passive anchor."""
    ctx = state.ctx
    if state.static_above is None:  # every node's answer at once: O(nodes), not O(depth) per joint
        static = {
            n
            for n, ob in ctx.body_objects.items()
            if ob is not None and ctx.body_node_of.get(n) is None and getattr(ob, "rigid_body", None) is not None
        }
        state.static_above = nearest_marked(ctx.parents, static, range(len(ctx.json_nodes)))
    hit = state.static_above.get(node)
    if hit is not None:
        return ctx.body_objects[hit]
    if state.anchor is None:
        state.anchor = _anchor(ctx)
    return state.anchor


def _anchor(ctx: ImportContext):
    """An invisible, non-colliding PASSIVE body at the origin standing for 'the world'."""
    return passive_anchor(ctx, ANCHOR_NAME, ANCHOR_SIZE / 2, ctx.scene.collection, "ANCHOR")


def _node_name(ctx: ImportContext, index: int) -> str:
    ob = ctx.objects.get(index)
    if ob is not None:
        return ob.name
    node = ctx.json_nodes[index]
    name = node.get("name") if isinstance(node, dict) else None
    return printable(name) if isinstance(name, str) and name else f"Node_{index}"


def _on_node(state: _State, index: int, perm: tuple[int, int, int]):
    """The joint node's own Empty as the constraint object (``joint_empties.node_joints``), or None when its object
    is not a plain Empty. io_scene_gltf2 gave it the Blender world matrix C·A·Cᵀ; turned about its origin by C·P it is
    C·A·P, the pose of a separate constraint Empty (``empty_matrix``)."""
    ob = state.ctx.objects.get(index)
    if ob is None or ob.type != "EMPTY" or ob.parent_type != "OBJECT":
        return None
    if ob.rigid_body is not None or ob.rigid_body_constraint is not None:
        return None
    _turn(ob, perm)
    state.constraint_objects.link(ob)
    return ob


def _turn(ob, perm: tuple[int, int, int]) -> None:
    """Turn the joint node's Empty ``ob`` about its origin by C·P (``_on_node``; the exporter turns it back,
    ``exporter.joints.restore_nodes``)."""
    turn = _TURNS.get(perm)
    if turn is None:
        turn = _TURNS[perm] = Matrix(node_turn(perm).tolist())
    ob.matrix_basis = ob.matrix_basis @ turn


_TURNS: dict[tuple, Matrix] = {}  # permutation → ``node_turn`` as a Matrix (read-only use)


def _constraint_empty(state: _State, name: str, matrix: Matrix, index: int, empty=None):
    """A new Empty at ``matrix`` in the collections of the first joint node's object, with a constraint.

    Blender keeps ``bpy.data.objects`` sorted by name and inserts a new name by walking back from the last one: names
    created in sorted order cost O(1) each, ``motor10000`` after ``motor9999`` walked back over thousands (a joint
    with 100,000 drives spent most of its import there), hence the zero-padded motor numbers.
    """
    ctx = state.ctx
    if state.collections is None:
        owner = ctx.objects.get(index)
        if owner is None:
            state.collections = []
        elif "collections" in ctx.cache:  # the import's collection map (``ctx.collections_of``) exists: use it
            state.collections = ctx.collections_of(owner)
        else:  # one object: Blender's own scan, not a Python pass over every collection to build the map
            state.collections = list(owner.users_collection)
        rigid_body = ctx.world.constraints  # a joint node carrying its constraint is in it too (``_on_node``)
        state.collections = [c for c in state.collections if c != rigid_body] or [ctx.scene.collection]
    if empty is None:  # else made ahead next to its joint node (joint_empties)
        empty = bpy.data.objects.new(name, None)
    empty.empty_display_type = "ARROWS"
    empty.empty_display_size = 0.25
    empty.matrix_world = matrix
    for collection in state.collections:
        collection.objects.link(empty)
    state.constraint_objects.link(empty)
    return empty


def _joined(notes: list[str]) -> str:
    """The notes for the panel: at most ``MAX_NOTES`` of them (the import report lists every note)."""
    shown = "; ".join(notes[:MAX_NOTES])
    return shown if len(notes) <= MAX_NOTES else f"{shown}; … {len(notes) - MAX_NOTES} more in the import report"


def _store(
    ctx, empty, role, description, joint, frame_a, frame_b, side_a, side_b, plan, state, notes, on_node=False
) -> None:
    """Keep the exact glTF joint on the constraint object for export (``on_node``: the object is the joint node,
    turned by the plan's permutation, ``_on_node``).

    The JOINT object keeps the description (limits, drives) and all ``notes``; a MOTOR helper keeps its frames and
    its own drive's note only, so a joint with N drives stores O(N), not N helpers × N notes.
    """
    pg = getattr(empty, "gltf_physics", None)
    if pg is None:
        return
    pj = ctx.stored(empty).joint
    frame_a_t, frame_a_r = state.relative(ctx.body_node_of.get(side_a), frame_a)  # in its body (None: the world)
    frame_b_t, frame_b_r = state.relative(ctx.body_node_of.get(side_b), frame_b)
    node_a, node_b = ctx.objects.get(frame_a), ctx.objects.get(frame_b)
    if node_a is not None or node_b is not None:  # object pointers: the property group's own, not stored values
        pointers = pg.joint
        if node_a is not None:
            pointers.node_a = node_a
        if node_b is not None:
            pointers.node_b = node_b
    assign(  # into the object's stored text, written once by the import (``ImportContext.flush_stored``)
        pj,
        role=role,
        joint_name=printable(description.name or ""),
        enable_collision=bool(joint.enable_collision),
        frame_a_translation=frame_a_t,
        frame_a_rotation=frame_a_r,
        frame_b_translation=frame_b_t,
        frame_b_rotation=frame_b_r,
        offset_translation=plan.offset[0],
        offset_rotation=plan.offset[1],
        approximated=plan.approximated,
        notes=_joined(notes),
        extras_json=passthrough_json(description) if role == "JOINT" else "",
        node_extras_json=passthrough_json(joint) if role == "JOINT" else "",
        source=description.source or "",
        is_node=on_node,
        planned_axis=node_planned_axis(plan.perm) if on_node else -1,
    )
    if role == "JOINT":
        store_description(pj, description, ctx.cache)
