"""Initial ``linearVelocity`` / ``angularVelocity`` of dynamic bodies: a kinematic pre-roll (rules and measured
behaviour in ``mapping.initial_velocity``).

Per body: drivers on ``delta_location`` / ``delta_rotation_quaternion`` move it along the path the file means for the
first frames of the rigid-body cache, and a driver on ``rigid_body.kinematic`` (*Animated*) holds it kinematic
until ``start + RELEASE`` and dynamic from then on — on play, scrub and bake alike. All are simple-expression drivers,
data Blender keeps and plays by itself (no Python, no handler): a ``.blend`` handed to someone without the extension
moves as the file says. The bodies are found through their helper Empties
(``joint.joint_name`` ``KIND`` or ``KIND + DELAYED``, ``joint.node_b`` = the body). A body a rigid-body constraint
holds (a joint, or a helper's) is delayed by ``DELAY`` frames (why in ``mapping.initial_velocity``); its helper's
name says so (``KIND + DELAYED``). A joint made after the import delays the drivers of the bodies it holds when it is
made (``delay_held``, called by the UI's joint operators and edits): playing needs no handler. ``remove`` undoes
all of it for one body.
"""

from __future__ import annotations

import bpy
from mathutils import Matrix, Quaternion, Vector

from ...mapping.axes import vec_to_blender
from ...mapping.initial_velocity import (
    DELAY,
    HOLD,
    RELEASE,
    VARIABLES,
    constant_expressions,
    constant_rotation_expressions,
    delayed,
    is_preroll_driver,
    location_expressions,
    release_expression,
    rotation_expressions,
    unrepresentable,
)
from ...mapping.object_tree import ObjectTree
from ...mapping.support_grid import SupportGrid
from ..context import ImportContext
from .helpers import HELPERS, NOT_REPRODUCIBLE, REPRODUCED, ROLE, helper_empty, world_of
from .mass import carrier_of

KIND = "reproduction: initial velocity"  # joint.joint_name of the pre-roll helpers
CONSTANT = "reproduction: constant velocity"  # … of the helpers of kinematic bodies (no release)
DELAYED = ", one frame late (held by a joint)"  # … appended: the body's drivers start DELAY frames late


def wanted(motion) -> bool:
    return any(motion.linear_velocity) or any(motion.angular_velocity)


def build(ctx: ImportContext, state: dict, m: int, ob) -> None:
    """Give body ``ob`` (motion node ``m``, dynamic) its initial velocities."""
    motion = ctx.document.nodes[m].motion
    ptr = ctx.node_pointer(m, "motion")
    _, rotation, _ = ctx.node_world_matrix(m).decompose()
    linear = rotation @ Vector(vec_to_blender(motion.linear_velocity))  # node space → world
    angular = rotation @ Vector(vec_to_blender(motion.angular_velocity))
    if _beyond_float(ctx, ptr, ob, motion, linear, angular):
        return
    gravity = _world_gravity(ctx.scene)
    if _resting(ctx.scene, state, ob, linear, gravity):
        gravity = Vector()  # on the ground: a ballistic kinematic path would sink into it
    delay = _delay(ctx, state, ob)
    if not _drive_preroll(ob, ctx.scene, linear, angular, gravity, delay):
        ctx.warn(
            NOT_REPRODUCIBLE,
            ptr + "/angularVelocity",
            f"not reproducible in Blender: {ob.name!r} uses {ob.rotation_mode} rotation (the pre-roll needs "
            "quaternions)",
        )
    drive_release(ob, ctx.scene, delay)
    kind = KIND + DELAYED if delay else KIND
    helper_empty(ctx, state, ob.name + ".initial_velocity", kind, ob).matrix_world = ob.matrix_world.copy()
    late = f" (held by a joint: starts {delay} frame late, Blender builds joints then)" if delay else ""
    ctx.note(
        REPRODUCED,
        ptr,
        f"initial velocity {tuple(round(v, 4) for v in linear)} m/s, {tuple(round(v, 4) for v in angular)} rad/s "
        f"(Blender axes): kinematic pre-roll released at the rigid-body cache's start frame + {RELEASE + delay}" + late,
    )


def build_constant(ctx: ImportContext, state: dict, m: int, ob) -> None:
    """A kinematic or infinite-mass body (Animated in Blender) that keeps its initial velocity for ever."""
    motion = ctx.document.nodes[m].motion
    _, rotation, _ = ctx.node_world_matrix(m).decompose()
    linear = rotation @ Vector(vec_to_blender(motion.linear_velocity))
    angular = rotation @ Vector(vec_to_blender(motion.angular_velocity))
    if _beyond_float(ctx, ctx.node_pointer(m, "motion"), ob, motion, linear, angular):
        return
    _drive_constant(ob, ctx.scene, linear, angular, _delay(ctx, state, ob))
    helper_empty(ctx, state, ob.name + ".constant_velocity", CONSTANT, ob).matrix_world = world_of(ob)
    ctx.note(REPRODUCED, ctx.node_pointer(m, "motion"), "kinematic body: moves at its initial velocity (drivers)")


def _beyond_float(ctx: ImportContext, ptr: str, ob, motion, linear: Vector, angular: Vector) -> bool:
    """Warn and give up the velocities of ``ob`` when one is beyond single precision (``unrepresentable``): the
    body then starts at rest, and no driver gets a ``nan``."""
    bad = [
        (key, value)
        for key, value, world in (
            ("linearVelocity", motion.linear_velocity, linear),
            ("angularVelocity", motion.angular_velocity, angular),
        )
        if unrepresentable(world) or unrepresentable(value)
    ]
    for key, value in bad:
        ctx.warn(
            NOT_REPRODUCIBLE,
            f"{ptr}/{key}",
            f"not reproducible in Blender: {ob.name!r} {key} {tuple(value)} is beyond Blender's single-precision "
            "range: the body starts without its initial velocities",
        )
    return bool(bad)


def _drive_preroll(ob, scene, linear: Vector, angular: Vector, gravity: Vector, delay: int) -> bool:
    """The pre-roll drivers of ``ob`` for world ``linear`` / ``angular`` velocities under ``gravity``; False when the
    spin cannot be driven (not a quaternion rotation)."""
    parent = _parent_space(ob)
    to_parent = parent.to_3x3().inverted_safe()
    _drive(ob, "delta_location", location_expressions(to_parent @ linear, to_parent @ gravity, delay), scene)
    if not angular.length:
        return True
    if ob.rotation_mode != "QUATERNION":
        return False
    turn = parent.to_quaternion().inverted()
    _drive(ob, "delta_rotation_quaternion", rotation_expressions(turn @ angular, delay), scene)
    return True


def _drive_constant(ob, scene, linear: Vector, angular: Vector, delay: int) -> None:
    """The drivers of a kinematic ``ob`` keeping world ``linear`` / ``angular`` velocities for ever."""
    parent = _parent_space(ob)
    _drive(ob, "delta_location", constant_expressions(parent.to_3x3().inverted_safe() @ linear, delay), scene)
    if angular.length and ob.rotation_mode == "QUATERNION":
        turn = parent.to_quaternion().inverted()
        _drive(ob, "delta_rotation_quaternion", constant_rotation_expressions(turn @ angular, delay), scene)


def constant_bodies(scene) -> list:
    """The kinematic bodies of ``scene`` given a constant velocity (found through their helper Empties)."""
    return _tagged_bodies(scene, CONSTANT)


def _delay(ctx: ImportContext, state: dict, ob) -> int:
    """``DELAY`` for a body a rigid-body constraint of the world holds (the file's joints and the helpers'), else 0."""
    if "jointed" not in state:  # once per import, after the joints and the helper constraints
        state["jointed"] = held_bodies(ctx.world)
    return DELAY if ob.as_pointer() in state["jointed"] else 0


def _resting(scene, state: dict, ob, linear: Vector, gravity: Vector) -> bool:
    """Would ``ob``'s ballistic pre-roll sink into another simulated mesh (``rests_on_something``)? The world's mesh
    boxes are kept in ``state`` (once per import, in a ``SupportGrid``; a panel edit passes a fresh dict)."""
    world, render = scene.rigidbody_world, scene.render
    seconds = HOLD * world.time_scale * render.fps_base / render.fps
    if "boxes" not in state:
        found = [(other, _box((other,))) for other in world.collection.objects if other.type == "MESH"]
        found = [(other, box) for other, box in found if box is not None]
        index = {other.as_pointer(): i for i, (other, _) in enumerate(found)}
        state["boxes"] = (index, SupportGrid([box for _, box in found]))
    index, grid = state["boxes"]
    tree = state.setdefault("children", ObjectTree(bpy.data.objects))  # built at the first question
    parts = (ob, *tree.descendants(ob))
    own = _box(parts)
    if own is None:
        return False
    exclude = [i for part in parts if (i := index.get(part.as_pointer())) is not None]
    return grid.rests_on_something(own, exclude, linear, gravity, seconds)


def _box(parts):
    """World axis-aligned box of the meshes of ``parts`` (objects), from the objects' own transforms."""
    points = []
    for part in parts:
        if part.type == "MESH" and len(part.data.vertices):
            world = world_of(part)
            points += [world @ Vector(corner) for corner in part.bound_box]
    if not points:
        return None
    return tuple(min(p[i] for p in points) for i in range(3)), tuple(max(p[i] for p in points) for i in range(3))


def _parent_space(ob) -> Matrix:
    """The frame ``ob``'s delta transforms live in: its parent's world matrix with the parent inverse (from the
    objects' own transforms: during the import ``matrix_world`` is not evaluated yet)."""
    if ob.parent is None:
        return Matrix.Identity(4)
    return world_of(ob.parent) @ ob.matrix_parent_inverse


def _world_gravity(scene) -> Vector:
    rbw = scene.rigidbody_world
    weights = rbw.effector_weights
    if not scene.use_gravity:
        return Vector()
    return Vector(scene.gravity) * weights.gravity * weights.all


def _drive(ob, path: str, expressions: list[str], scene) -> None:
    for index, expression in enumerate(expressions):
        if expression in ("0.0", "1.0"):
            continue  # the default delta: no driver
        driver = ob.driver_add(path, index).driver
        driver.type = "SCRIPTED"
        for name, rna_path in VARIABLES.items():
            var = driver.variables.new()
            var.name = name
            var.type = "SINGLE_PROP"
            var.targets[0].id_type = "SCENE"
            var.targets[0].id = scene
            var.targets[0].data_path = rna_path
        driver.expression = expression


def preroll_bodies(scene) -> list:
    """The pre-rolled bodies of ``scene``, found through the helper Empties of its helper collections."""
    return _tagged_bodies(scene, KIND)


def _tagged_bodies(scene, kind: str) -> list:
    return [body for _, body in _tagged(scene, kind) if body is not None and body.rigid_body is not None]


def _tagged(scene, kind: str) -> list:
    """(helper Empty, the body it names) of every ``kind`` helper (delayed or not) in ``scene``'s helper
    collections."""
    return [
        (helper, helper.gltf_physics.joint.node_b)
        for collection in scene.collection.children
        if collection.name.startswith(HELPERS)
        for helper in collection.objects
        if helper.gltf_physics.joint.role == ROLE and helper.gltf_physics.joint.joint_name in (kind, kind + DELAYED)
    ]


RELEASE_PATH = "rigid_body.kinematic"


def drive_release(body, scene, delay: int) -> None:
    """Drive ``body``'s *Animated* flag: on while ``frame < s + delay + RELEASE`` (``s`` the rigid-body cache's
    start), off from then on. A simple expression (no Python, no handler): a ``.blend`` plays it without the
    extension. Blender carries the kinematic velocity over at this switch as at an RNA one; a keyframed switch would
    do too, but its action would make io_scene_gltf2 export the body as animated. The flight is the one the RNA
    switch of a frame handler gave, frame for frame. Replaces an earlier release."""
    body.driver_remove(RELEASE_PATH)
    body.rigid_body.kinematic = True
    driver = body.driver_add(RELEASE_PATH).driver
    driver.type = "SCRIPTED"
    var = driver.variables.new()
    var.name = "s"
    var.type = "SINGLE_PROP"
    var.targets[0].id_type = "SCENE"
    var.targets[0].id = scene
    var.targets[0].data_path = VARIABLES["s"]
    driver.expression = release_expression(delay)


def has_release(body) -> bool:
    """Does ``body`` carry the release driver (``drive_release``)?"""
    data = body.animation_data
    return data is not None and data.drivers.find(RELEASE_PATH) is not None


def _helper_delay(helper, kind: str) -> int:
    """The delay of the body a ``kind`` helper names: ``DELAY`` when its name says so (``KIND + DELAYED``)."""
    return DELAY if helper.gltf_physics.joint.joint_name != kind else 0


def held_bodies(rbw) -> set[int]:
    """Addresses of the objects a rigid-body constraint of world ``rbw`` holds."""
    held = set()
    for holder in rbw.constraints.objects if rbw.constraints is not None else ():
        c = holder.rigid_body_constraint
        if c is not None:
            held.update(part.as_pointer() for part in (c.object1, c.object2) if part is not None)
    return held


def delay_held(scene, rbw) -> list:
    """Delay the drivers of every undelayed pre-rolled or constant-velocity body a constraint now holds (a joint made
    after the import; called when it is made, the next play from the cache's start frame uses them); the bodies
    delayed."""
    helpers = [(h, b) for kind in (KIND, CONSTANT) for h, b in _tagged(scene, kind) if not _helper_delay(h, kind)]
    if not helpers:
        return []
    held, done = held_bodies(rbw), []
    for helper, body in helpers:
        if body is None or body.as_pointer() not in held:
            continue
        data = body.animation_data
        for fc in data.drivers if data is not None else ():
            if is_preroll_driver(fc.data_path, fc.driver.expression):
                fc.driver.expression = delayed(fc.driver.expression)
        if has_release(body):
            drive_release(body, scene, DELAY)
        helper.gltf_physics.joint.joint_name += DELAYED
        done.append(body)
    return done


def preroll_of(ob, scene) -> tuple | None:
    """(``KIND`` or ``CONSTANT``, helper Empty, the body carrying it) of ``ob``'s pre-roll or constant velocity — on
    ``ob`` or on its centre-of-mass carrier — or None."""
    carriers = {ob.as_pointer(), carrier_of(ob).as_pointer()}
    found = [(k, h, b) for k in (KIND, CONSTANT) for h, b in _tagged(scene, k) if b and b.as_pointer() in carriers]
    return found[0] if found else None


def retarget(ob, scene) -> bool:
    """Rebuild the pre-roll (or constant velocity) of ``ob`` — or of its centre-of-mass carrier — from its stored
    velocities (a Body panel edit); no velocity left: the pre-roll goes (a dynamic body is released). True when it
    had one; a body without one keeps its velocities for export only."""
    found = preroll_of(ob, scene)
    if found is None:
        return False
    kind, helper, body = found
    delay = _helper_delay(helper, kind)
    remove(body, release=False)  # drivers and delta transforms gone: the objects' own transforms are the file's
    pm = ob.gltf_physics.motion
    rotation = world_of(body).to_quaternion()  # the node's world rotation (a carrier keeps its body's)
    linear, angular = rotation @ Vector(pm.linear_velocity), rotation @ Vector(pm.angular_velocity)
    if (not linear.length and not angular.length) or unrepresentable(linear) or unrepresentable(angular):
        bpy.data.objects.remove(helper)  # no velocity left, or one no driver can hold (``unrepresentable``)
        if kind == KIND and body.rigid_body is not None:
            body.rigid_body.kinematic = False
        return True
    if kind == CONSTANT:
        _drive_constant(body, scene, linear, angular, delay)
        return True
    gravity = _world_gravity(scene)
    if _resting(scene, {}, body, linear, gravity):
        gravity = Vector()
    _drive_preroll(body, scene, linear, angular, gravity, delay)  # an Euler body's spin stays undriven, as imported
    drive_release(body, scene, delay)
    return True


def drop_preroll(body, scene) -> bool:
    """Undo ``body``'s pre-roll for good — its own or its centre-of-mass carrier's (its body type was edited away
    from dynamic): the helper Empty goes, then ``remove`` without the release (the release driver goes, the body
    stays as it is). True when it had one."""
    found = preroll_of(body, scene)
    if found is None or found[0] != KIND:
        return False
    _, helper, carrier = found
    bpy.data.objects.remove(helper)
    remove(carrier, release=False)
    return True


def remove(body, release: bool = True) -> None:
    """Undo the pre-roll of ``body``: its drivers, delta transforms, release driver and (``release``) kinematic
    flag."""
    body.driver_remove(RELEASE_PATH)
    data = body.animation_data
    if data is not None:
        for fc in [fc for fc in data.drivers if is_preroll_driver(fc.data_path, fc.driver.expression)]:
            data.drivers.remove(fc)
    body.delta_location = (0.0, 0.0, 0.0)
    body.delta_rotation_quaternion = Quaternion()
    if release and body.rigid_body is not None:
        body.rigid_body.kinematic = False
