"""Simulate a scene headless and sample it (Blender side): the input of ``check.evaluate``.

``sample_scene(scene, frames)`` resets the rigid-body world to the start frame, steps ``frames`` consecutive frames
(rigid bodies only advance frame by frame; this fills the point cache as a bake does, and runs the reproduction
handlers of the import) and records per frame, in Blender world axes (Z up, metres):

* every body (an object of the rigid-body world that is not a compound's shape or an import helper): position and
  rotation (quaternion x, y, z, w);
* both attachment frames of every joint: frame A moves with ``object1``, frame B with ``object2``. An imported
  joint's frames are the glTF ones (frame A = the constraint Empty without its axis permutation, frame B at the
  stored load offset) and its limits and drives are the stored glTF values; a native constraint's frames are both
  its Empty, its limits come from the Blender settings (``mapping.joints_to_gltf``);
* trigger volumes and the colliders they may meet (only when the scene has triggers): local vertices and poses.

The result is plain JSON data; the frame and the point cache's end are restored afterwards.
"""

from __future__ import annotations

import numpy as np
from mathutils import Matrix, Quaternion

from ..exporter.joints import constraint_settings
from ..gltf.model import JointDescription
from ..mapping.initial_velocity import preroll_driven
from ..mapping.joints_to_blender import permutation_matrix, plan_joint
from ..mapping.joints_to_gltf import constraint_description
from ..mapping.object_tree import ObjectTree
from ..mapping.roles import HELPER_ROLES
from ..mapping.stored import stored_description
from ..mapping.stored_values import view_of


def _role(ob) -> str:
    pg = getattr(ob, "gltf_physics", None)
    return "NONE" if pg is None else pg.joint.role


def _kind(rb) -> str:
    if rb.type == "PASSIVE":
        return "kinematic" if rb.kinematic else "static"
    return "kinematic" if rb.kinematic else "dynamic"


def scene_bodies(scene) -> list:
    """Objects of the rigid-body world that are bodies (not compound shapes, not helpers), sorted by name."""
    world = scene.rigidbody_world
    if world is None or world.collection is None:
        return []
    out = []
    for ob in world.collection.objects:
        if ob.rigid_body is None or _role(ob) in HELPER_ROLES:
            continue
        parent = ob.parent
        parent_rb = parent.rigid_body if parent is not None else None
        # a compound's part is not a body, except the body a centre-of-mass helper carries (Reproduce Motion)
        if parent_rb is None or parent_rb.collision_shape != "COMPOUND" or _role(parent) in HELPER_ROLES:
            out.append(ob)
    return sorted(out, key=lambda ob: ob.name)


def _limit_dict(limit) -> dict:
    """A model ``JointLimit`` as its glTF JSON object."""
    if limit.linear_axes is not None:
        out: dict = {"linearAxes": list(limit.linear_axes)}
    else:
        out = {"angularAxes": list(limit.angular_axes)}
    for key, value in (("min", limit.min), ("max", limit.max), ("stiffness", limit.stiffness)):
        if value is not None:
            out[key] = float(value)
    return out


def _drive_dict(drive) -> dict:
    out = {"type": drive.type, "mode": drive.mode, "axis": int(drive.axis)}
    out |= {"stiffness": float(drive.stiffness), "damping": float(drive.damping)}
    for key, value in (
        ("maxForce", drive.max_force),
        ("positionTarget", drive.position_target),
        ("velocityTarget", drive.velocity_target),
    ):
        if value is not None:
            out[key] = float(value)
    return out


def _joint_setup(empty) -> tuple[JointDescription | None, Matrix, Matrix]:
    """(glTF description, frame A at the start, frame B at the start) of a constraint Empty."""
    start = _rigid(empty.matrix_world)
    pj = empty.gltf_physics.joint if hasattr(empty, "gltf_physics") else None
    if pj is not None and pj.role == "JOINT":
        description = stored_description(pj, passthrough=False)
        plan = plan_joint(description, tuple(pj.offset_translation), tuple(pj.offset_rotation))
        frame_a = start @ Matrix(permutation_matrix(plan.perm).T.tolist())
        offset = Matrix.Translation(pj.offset_translation) @ _quat_xyzw(pj.offset_rotation).to_matrix().to_4x4()
        return description, frame_a, frame_a @ offset
    description, _notes = constraint_description(constraint_settings(empty.rigid_body_constraint))
    return description, start, start.copy()


def _quat_xyzw(q) -> Quaternion:
    return Quaternion((q[3], q[0], q[1], q[2])).normalized()


def _rigid(matrix) -> Matrix:
    translation, rotation, _scale = matrix.decompose()
    return Matrix.Translation(translation) @ rotation.to_matrix().to_4x4()


def scene_joints(scene) -> list:
    """Constraint Empties of the world that are joints (not MOTOR / reproduction helpers) with two bodies."""
    world = scene.rigidbody_world
    if world is None or world.constraints is None:
        return []
    out = []
    for empty in world.constraints.objects:
        c = empty.rigid_body_constraint
        if c is None or _role(empty) in HELPER_ROLES or c.object1 is None or c.object2 is None:
            continue
        out.append(empty)
    return sorted(out, key=lambda ob: ob.name)


def _triggers(scene) -> list:
    return sorted(
        (
            ob
            for ob in scene.objects
            if ob.type == "MESH"
            and getattr(ob, "gltf_physics", None) is not None
            and view_of(ob).role == "TRIGGER_PROXY"
        ),
        key=lambda ob: ob.name,
    )


def _colliders(scene) -> list:
    world = scene.rigidbody_world
    objects = world.collection.objects if world is not None and world.collection is not None else []
    return sorted((ob for ob in objects if ob.type == "MESH" and _role(ob) not in HELPER_ROLES), key=lambda o: o.name)


def _body_of(ob) -> object:
    while ob.parent is not None and ob.parent.rigid_body is not None:
        ob = ob.parent
    return ob


def _shape_objects(body, tree: ObjectTree) -> list:
    """The mesh objects whose vertices are the body's collision geometry: itself (unless a compound) and its
    compound parts and collision proxies."""
    out = [body] if body.type == "MESH" and body.rigid_body.collision_shape != "COMPOUND" else []
    for child in tree.descendants(body):
        proxy = getattr(child, "gltf_physics", None) is not None and view_of(child).role == "PROXY"
        if child.type == "MESH" and (child.rigid_body is not None or proxy):
            out.append(child)
    return out


def _bounds(body, tree: ObjectTree) -> list | None:
    """World axis-aligned bounds [[min x, y, z], [max x, y, z]] of the body's collision geometry (None: no mesh)."""
    points = [ob.matrix_world @ v.co for ob in _shape_objects(body, tree) for v in ob.data.vertices]
    if not points:
        return None
    return [[min(p[i] for p in points) for i in range(3)], [max(p[i] for p in points) for i in range(3)]]


def _pose(matrix) -> tuple[list, list]:
    translation, rotation, _scale = matrix.decompose()
    return list(translation), [rotation.x, rotation.y, rotation.z, rotation.w]


def _local_vertices(ob) -> list:
    scale = ob.matrix_world.to_scale()
    return [[v.co.x * scale.x, v.co.y * scale.y, v.co.z * scale.z] for v in ob.data.vertices]


def _times(scene, frames: int) -> list[float]:
    fps = scene.render.fps / (scene.render.fps_base or 1.0)
    scale = scene.rigidbody_world.time_scale if scene.rigidbody_world is not None else 1.0
    return [i * scale / fps for i in range(frames)]


#: Most poses one check samples (frames × (tracked objects + 2 per joint)): the samples are held in memory and sent
#: to the driver as JSON, so memory grows with frames × bodies; beyond this a check is refused before it steps.
MAX_POSES = 2_000_000
TOO_LARGE = "CHECK_TOO_LARGE"


class SampleBudgetError(ValueError):
    """The scene and ``frames`` need more than ``MAX_POSES`` poses: the message says how many and what to lower."""


def sample_scene(scene, frames: int = 120) -> dict:
    """Step the scene ``frames`` frames from its start frame and return the samples (see the module doc); raises
    ``SampleBudgetError`` before stepping when they would exceed ``MAX_POSES``."""
    import bpy

    world = scene.rigidbody_world
    bodies, joints = scene_bodies(scene), scene_joints(scene)
    triggers = _triggers(scene)
    colliders = _colliders(scene) if triggers else []
    tracked = list({ob.name: ob for ob in [*bodies, *triggers, *colliders]}.values())  # a body can be a collider
    poses = frames * (len(tracked) + 2 * len(joints))
    if poses > MAX_POSES:
        raise SampleBudgetError(
            f"{frames} frames × ({len(tracked)} objects + 2 × {len(joints)} joints) = {poses} poses, more than "
            f"{MAX_POSES} a check holds in memory: check fewer frames (at most {MAX_POSES // max(1, poses // frames)})"
        )
    start = scene.frame_start
    cache = world.point_cache if world is not None else None
    old_end = cache.frame_end if cache is not None else None
    old_frame = scene.frame_current
    if cache is not None and old_end < start + frames:
        cache.frame_end = start + frames
    scene.frame_set(start)
    tree = ObjectTree(bpy.data.objects)  # the hierarchy does not change while it runs
    bounds = {ob.name: [_bounds(ob, tree)] for ob in bodies}
    setups = {e.name: _joint_setup(e) for e in joints}
    first = {
        ob.name: _rigid(ob.matrix_world).inverted()
        for e in joints
        for ob in (e.rigid_body_constraint.object1, e.rigid_body_constraint.object2)
    }
    track = {ob.name: ([], []) for ob in tracked}
    frames_ab = {e.name: ([], [], [], []) for e in joints}
    try:
        for i in range(frames):
            scene.frame_set(start + i)
            for ob in tracked:
                position, rotation = _pose(ob.matrix_world)
                track[ob.name][0].append(position)
                track[ob.name][1].append(rotation)
            for e in joints:
                c = e.rigid_body_constraint
                _desc, frame_a, frame_b = setups[e.name]
                moved_a = _rigid(c.object1.matrix_world) @ first[c.object1.name] @ frame_a
                moved_b = _rigid(c.object2.matrix_world) @ first[c.object2.name] @ frame_b
                out = frames_ab[e.name]
                for k, pose in enumerate((*_pose(moved_a), *_pose(moved_b))):
                    out[k].append(pose)
        for ob in bodies:
            bounds[ob.name].append(_bounds(ob, tree))
    finally:
        if cache is not None:
            cache.frame_end = old_end
        scene.frame_set(old_frame)
    result = {
        "scene": scene.name,
        "frames": frames,
        "start_frame": start,
        "time": _times(scene, frames),
        "gravity": list(scene.gravity),
        "bodies": [_body_entry(ob, track[ob.name], bounds[ob.name]) for ob in bodies],
        "joints": [_joint_entry(e, setups[e.name][0], frames_ab[e.name]) for e in joints],
        "triggers": [_volume_entry(ob, track[ob.name], _body_of(ob.parent or ob).name) for ob in triggers],
        "colliders": [_volume_entry(ob, track[ob.name], _body_of(ob).name) for ob in colliders],
    }
    return result


def _body_entry(ob, track, bounds: list) -> dict:
    pg = view_of(ob)
    node = pg.node_index if pg is not None and pg.role == "NODE" and pg.node_index >= 0 else None
    return {
        "name": ob.name,
        "node": node,
        "kind": "dynamic" if preroll_driven(ob) else _kind(ob.rigid_body),  # kinematic only for its pre-roll
        "position": track[0],
        "rotation": track[1],
        "bounds_start": bounds[0],
        "bounds_end": bounds[-1],
    }


def _joint_entry(empty, description, frames) -> dict:
    c = empty.rigid_body_constraint
    limits = [_limit_dict(li) for li in description.limits] if description is not None else []
    drives = [_drive_dict(d) for d in description.drives] if description is not None else []
    return {
        "name": empty.name,
        "type": c.type,
        "body_a": c.object1.name,
        "body_b": c.object2.name,
        "limits": limits,
        "drives": drives,
        "t_a": frames[0],
        "q_a": frames[1],
        "t_b": frames[2],
        "q_b": frames[3],
    }


def _volume_entry(ob, track, body: str) -> dict:
    return {
        "name": ob.name,
        "body": body,
        "vertices": np.round(np.asarray(_local_vertices(ob), dtype=float), 6).tolist(),
        "position": track[0],
        "rotation": track[1],
    }
