"""Joints → Blender rigid-body constraints (issue 4 part 6; mapping rules in ``joint_mapping`` and docs/joints.md).

Per joint: one Empty at glTF frame A (axes permuted so Blender's hinge/slider axis is the glTF one), linked into the
world's constraint collection (data API, no ``bpy.ops``), plus one MOTOR Empty per velocity drive. The two bodies
are the nearest motion ancestors of frame A and frame B. The world side is the nearest static collider body above
the frame (so ``disable_collisions`` acts against it, as in the conformance scenes), else one shared invisible
PASSIVE anchor that collides with nothing. The exact glTF joint is stored in ``Object.gltf_physics.joint``.
"""

from __future__ import annotations

import json

import bpy
from mathutils import Matrix

from .blender_import import APPROXIMATED, NOT_SIMULATED, SKIPPED, ImportContext
from .diagnostics import pointer
from .joint_mapping import ConstraintPlan, empty_matrix, plan_joint, relative_offset
from .model import OMI_REVISIONS

AXES = "xyz"
ANCHOR_NAME = "glTF Physics World Anchor"
ANCHOR_SIZE = 0.05


def build(ctx: ImportContext) -> None:
    """Create the constraints of every joint in ``ctx.document``; each joint is isolated."""
    joints = [(i, n) for i, n in sorted(ctx.document.nodes.items()) if n.joint is not None]
    if not joints or ctx.world is None:
        return
    state = _State(ctx)
    for index, physics in joints:
        ptr = _joint_pointer(physics, index)
        ctx.guarded(ptr, "joint", _build_one, state, index, physics.joint, ptr)


class _State:
    """Per-import caches: node frames and the shared world anchor."""

    def __init__(self, ctx: ImportContext):
        self.ctx = ctx
        self.frames = ctx.frames  # world / rigid frames of every node (io.node_frames)
        self.anchor = None
        self.collections = None  # where constraint Empties go (users_collection is O(scene) per call)


def _joint_pointer(physics, index: int) -> str:
    if physics.source in OMI_REVISIONS:
        return pointer("nodes", index, "extensions", "OMI_physics_joint")
    return pointer("nodes", index, "extensions", "KHR_physics_rigid_bodies", "joint")


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
    if not all(0 <= n < len(ctx.json_nodes) for n in (frame_a, frame_b, side_a, side_b)):
        ctx.warn(SKIPPED, ptr, "joint refers to a node that does not exist")
        return
    body_a, body_b = _side(state, side_a, ptr), _side(state, side_b, ptr)
    if body_a is False or body_b is False:
        return
    if body_a is None and body_b is None:
        ctx.warn(SKIPPED, ptr, "both sides of the joint are the world: nothing to constrain")
        return
    if body_a is not None and body_a == body_b:
        ctx.warn(SKIPPED, ptr, "both frames belong to the same body: the joint has no effect")
        return
    world_a, world_b = state.frames.rigid(frame_a), state.frames.rigid(frame_b)
    offset_t, offset_q = relative_offset(world_a, world_b)
    plan = plan_joint(description, offset_t, offset_q)
    obj_a = body_a if body_a is not None else _world_object(state, side_a)
    obj_b = body_b if body_b is not None else _world_object(state, side_b)
    name = _node_name(ctx, index)
    empty = _constraint_empty(state, name + ".joint", Matrix(empty_matrix(world_a, plan.perm).tolist()), index)
    constraint = empty.rigid_body_constraint
    _configure(constraint, plan, obj_a, obj_b, joint.enable_collision)
    for n, motor in enumerate(plan.motors):
        motor_empty = _constraint_empty(
            state, f"{name}.motor{n}", Matrix(empty_matrix(world_a, motor.perm).tolist()), index
        )
        mc = motor_empty.rigid_body_constraint
        mc.type, mc.object1, mc.object2 = "MOTOR", obj_a, obj_b
        mc.disable_collisions = not joint.enable_collision
        kind = "ang" if motor.kind == "ANGULAR" else "lin"
        setattr(mc, f"use_motor_{kind}", True)
        setattr(mc, f"motor_{kind}_target_velocity", motor.target_velocity)
        setattr(mc, f"motor_{kind}_max_impulse", motor.max_impulse)
        _store(ctx, motor_empty, "MOTOR", description, joint, frame_a, frame_b, side_a, side_b, plan, state)
    _store(ctx, empty, "JOINT", description, joint, frame_a, frame_b, side_a, side_b, plan, state)
    for note in plan.notes:
        code = NOT_SIMULATED if "kept for export" in note else APPROXIMATED
        ctx.note(code, ptr, note)
    ctx.report.count("joints")


def _side(state: _State, node: int, ptr: str):
    """Blender body object of a joint side; None = the world; False = skip (its body could not be built)."""
    ctx = state.ctx
    if ctx.body_node_of.get(node) is None:
        return None
    ob = ctx.body_object_of.get(node)
    if ob is None or getattr(ob, "rigid_body", None) is None:
        ctx.warn(SKIPPED, ptr, f"node {node}: its body has no Blender rigid body, joint skipped")
        return False
    return ob


def _world_object(state: _State, node: int):
    """The nearest static collider body at or above ``node``, else the shared passive anchor."""
    ctx = state.ctx
    seen = set()
    while node is not None and node not in seen:
        seen.add(node)
        ob = ctx.body_objects.get(node)
        if ob is not None and ctx.body_node_of.get(node) is None and getattr(ob, "rigid_body", None) is not None:
            return ob
        node = ctx.parents.get(node)
    if state.anchor is None:
        state.anchor = _anchor(ctx)
    return state.anchor


def _anchor(ctx: ImportContext):
    """An invisible, non-colliding PASSIVE body at the origin standing for 'the world'."""
    half = ANCHOR_SIZE / 2
    verts = [(x * half, y * half, z * half) for x in (-1, 1) for y in (-1, 1) for z in (-1, 1)]
    faces = [(0, 1, 3, 2), (4, 6, 7, 5), (0, 4, 5, 1), (2, 3, 7, 6), (0, 2, 6, 4), (1, 5, 7, 3)]
    mesh = bpy.data.meshes.new(ANCHOR_NAME)
    mesh.from_pydata(verts, [], faces)
    ob = bpy.data.objects.new(ANCHOR_NAME, mesh)
    ctx.scene.collection.objects.link(ob)
    ob.display_type = "WIRE"
    ob.hide_render = True
    ctx.world.collection.objects.link(ob)
    ob.rigid_body.type = "PASSIVE"
    ob.rigid_body.collision_shape = "BOX"
    ob.rigid_body.collision_collections = [False] * 20
    pg = getattr(ob, "gltf_physics", None)
    if pg is not None:
        pg.joint.role = "ANCHOR"
    return ob


def _node_name(ctx: ImportContext, index: int) -> str:
    ob = ctx.objects.get(index)
    if ob is not None:
        return ob.name
    node = ctx.json_nodes[index]
    name = node.get("name") if isinstance(node, dict) else None
    return name if isinstance(name, str) and name else f"Node_{index}"


def _constraint_empty(state: _State, name: str, matrix: Matrix, index: int):
    """A new Empty at ``matrix`` in the collections of the first joint node's object, with a constraint."""
    ctx = state.ctx
    if state.collections is None:
        owner = ctx.objects.get(index)
        state.collections = list(owner.users_collection) if owner is not None else []
        state.collections = state.collections or [ctx.scene.collection]
    empty = bpy.data.objects.new(name, None)
    empty.empty_display_type = "ARROWS"
    empty.empty_display_size = 0.25
    empty.matrix_world = matrix
    for collection in state.collections:
        collection.objects.link(empty)
    ctx.world.constraints.objects.link(empty)
    return empty


def _configure(c, plan: ConstraintPlan, obj_a, obj_b, enable_collision: bool) -> None:
    c.type = plan.type
    c.object1, c.object2 = obj_a, obj_b
    c.disable_collisions = not enable_collision
    if plan.type == "HINGE":
        _set_limit(c, "ang", "z", plan.ang[2])
    elif plan.type in ("SLIDER", "PISTON"):
        _set_limit(c, "lin", "x", plan.lin[0])
        if plan.type == "PISTON":
            _set_limit(c, "ang", "x", plan.ang[0])
    elif plan.type in ("GENERIC", "GENERIC_SPRING"):
        for i, axis in enumerate(AXES):
            _set_limit(c, "lin", axis, plan.lin[i])
            _set_limit(c, "ang", axis, plan.ang[i])
        if plan.type == "GENERIC_SPRING":
            c.spring_type = "SPRING2"
            for i, axis in enumerate(AXES):
                _set_spring(c, "", axis, plan.lin_springs[i])
                _set_spring(c, "_ang", axis, plan.ang_springs[i])


def _set_limit(c, kind: str, axis: str, interval) -> None:
    setattr(c, f"use_limit_{kind}_{axis}", interval is not None)
    if interval is not None:
        setattr(c, f"limit_{kind}_{axis}_lower", interval[0])
        setattr(c, f"limit_{kind}_{axis}_upper", interval[1])


def _set_spring(c, kind: str, axis: str, spring) -> None:
    setattr(c, f"use_spring{kind}_{axis}", spring is not None)
    if spring is not None:
        setattr(c, f"spring_stiffness{kind}_{axis}", spring[0])
        setattr(c, f"spring_damping{kind}_{axis}", spring[1])


def _passthrough_json(item) -> str:
    data = {}
    if item.extras is not None:
        data["extras"] = item.extras
    if item.extensions:
        data["extensions"] = item.extensions
    if item.unknown:
        data["unknown"] = item.unknown
    return json.dumps(data, sort_keys=True) if data else ""


def _relative(state: _State, frame: int, body_node) -> tuple:
    """glTF frame relative to its body node (or the world when ``body_node`` is None)."""
    if body_node is None:
        world = state.frames.rigid(frame)
        from .gltf_nodes import matrix_to_quat

        return tuple(float(v) for v in world[:3, 3]), matrix_to_quat(world[:3, :3])
    return relative_offset(state.frames.rigid(body_node), state.frames.rigid(frame))


def _store(ctx, empty, role, description, joint, frame_a, frame_b, side_a, side_b, plan, state) -> None:
    """Keep the exact glTF joint on the constraint object for export."""
    pg = getattr(empty, "gltf_physics", None)
    if pg is None:
        return
    pj = pg.joint
    pj.role = role
    pj.joint_name = description.name or ""
    pj.enable_collision = bool(joint.enable_collision)
    pj.node_a = ctx.objects.get(frame_a)
    pj.node_b = ctx.objects.get(frame_b)
    pj.frame_a_translation, pj.frame_a_rotation = _relative(state, frame_a, ctx.body_node_of.get(side_a))
    pj.frame_b_translation, pj.frame_b_rotation = _relative(state, frame_b, ctx.body_node_of.get(side_b))
    pj.offset_translation, pj.offset_rotation = plan.offset
    pj.approximated = plan.approximated
    pj.notes = "; ".join(plan.notes)
    pj.extras_json = _passthrough_json(description)
    pj.node_extras_json = _passthrough_json(joint)
    pj.source = description.source or ""
    if role != "JOINT":
        return
    for limit in description.limits:
        item = pj.limits.add()
        axes = limit.linear_axes if limit.linear_axes else limit.angular_axes or ()
        item.kind = "LINEAR" if limit.linear_axes else "ANGULAR"
        item.axes = [a in axes for a in range(3)]
        item.has_min, item.min = limit.min is not None, limit.min or 0.0
        item.has_max, item.max = limit.max is not None, limit.max or 0.0
        item.has_stiffness, item.stiffness = limit.stiffness is not None, limit.stiffness or 0.0
        item.damping = limit.damping
        item.extras_json = _passthrough_json(limit)
    for drive in description.drives:
        item = pj.drives.add()
        if drive.type in ("linear", "angular"):
            item.type = drive.type
        if drive.mode in ("force", "acceleration"):
            item.mode = drive.mode
        item.axis = drive.axis if drive.axis in (0, 1, 2) else 0
        item.has_max_force, item.max_force = drive.max_force is not None, drive.max_force or 0.0
        item.has_position_target = drive.position_target is not None
        item.position_target = drive.position_target or 0.0
        item.has_velocity_target = drive.velocity_target is not None
        item.velocity_target = drive.velocity_target or 0.0
        item.stiffness, item.damping = drive.stiffness, drive.damping
        item.extras_json = _passthrough_json(drive)
