"""Native scenes for the independent-engine tests (issue 33): built only with Blender's own rigid-body tools (Object
▸ Rigid Body settings, rigid-body constraints, the world), no glTF panel values.

Each builder makes its scene in the current (empty) file and returns a ``Scene``: the bodies to compare, how long to
play, the export options a user would pick for it, and — when the scene exercises a setting glTF has no place
for — the words a WARNING must carry to name that setting, and the objects it must name.  Damping is 0 and
deactivation off wherever they are not the subject (glTF has neither).
"""

from __future__ import annotations

import dataclasses
import math

import bpy

from scene_helpers import box_object, constraint, rigid_body_world, rigid_box

NO_COLLISION = [i == 19 for i in range(20)]  # anchors live alone in the last collection


@dataclasses.dataclass(frozen=True)
class Scene:
    bodies: tuple[str, ...]  # the objects whose end states are compared
    frames: int = 72  # frames played at the scene's rate (frame 1 is the start)
    export: dict = dataclasses.field(default_factory=dict)  # extra bpy.ops.export_scene.gltf options
    setting: tuple[str, ...] = ()  # words (any one, case-insensitive) a WARNING uses for the setting
    named: tuple[str, ...] = ()  # objects that WARNING must name (none for world / scene settings)
    height_only: tuple[str, ...] = ()  # bodies compared by rest height (they may roll anywhere)


def _ground(rbw, name="Ground"):
    return rigid_box(rbw, name, (20, 20, 1), kind="PASSIVE", location=(0, 0, -0.5))


def _calm(rbw) -> None:
    """No damping and no deactivation: glTF has neither, so scenes that are not about them must not use them."""
    for ob in rbw.collection.objects:
        ob.rigid_body.linear_damping = ob.rigid_body.angular_damping = 0.0
        ob.rigid_body.use_deactivation = False


def _mesh_object(name, verts, faces, location=(0, 0, 0)):
    mesh = bpy.data.meshes.new(name)
    mesh.from_pydata(verts, [], faces)
    ob = bpy.data.objects.new(name, mesh)
    ob.location = location
    bpy.context.scene.collection.objects.link(ob)
    return ob


def _body(rbw, ob, shape="BOX", kind="ACTIVE", mass=1.0):
    rbw.collection.objects.link(ob)
    ob.rigid_body.type = kind
    ob.rigid_body.collision_shape = shape
    ob.rigid_body.mass = mass
    return ob


def _anchor(rbw, name="Anchor", location=(0, 0, 5)):
    anchor = rigid_box(rbw, name, (0.2, 0.2, 0.2), kind="PASSIVE", location=location)
    anchor.rigid_body.collision_collections = NO_COLLISION
    return anchor


# --- plain scenes: Blender and the engine agree on them ---------------------------------------------------------


def box_drop() -> Scene:
    rbw = rigid_body_world()
    _ground(rbw)
    box = rigid_box(rbw, "Box", (1, 1, 1), location=(0, 0, 2.5))
    box.rotation_euler = (0.0, 0.0, 0.3)  # lands flat: a tumble on a corner is chaotic in any engine
    _calm(rbw)
    return Scene(("Box",))


def rest_heights() -> Scene:
    rbw = rigid_body_world()
    _ground(rbw)
    rigid_box(rbw, "Box", (1, 1, 1), location=(-6, 0, 1.5))
    rigid_box(rbw, "Ball", (1, 1, 1), shape="SPHERE", location=(-3, 0, 1.5))
    rigid_box(rbw, "Pill", (0.6, 0.6, 2.0), shape="CAPSULE", location=(0, 0, 2.0))
    rigid_box(rbw, "Can", (0.8, 0.8, 1.5), shape="CYLINDER", location=(3, 0, 1.5))
    rigid_box(rbw, "Cone", (1.0, 1.0, 2.0), shape="CONE", location=(6, 0, 2.0))
    rigid_box(rbw, "Slab", (1.0, 1.0, 0.6), shape="CONVEX_HULL", location=(9, 0, 1.5))
    _calm(rbw)
    return Scene(("Box", "Ball", "Pill", "Can", "Cone", "Slab"), height_only=("Ball",))  # a ball may roll


def fall_through() -> Scene:
    """A plain mesh floor (no rigid body) and a ground in a collision collection the second body does not share:
    both bodies fall through."""
    rbw = rigid_body_world()
    box_object("Floor", (20, 20, 1), location=(-6, 0, -0.5))
    ground = rigid_box(rbw, "Ground", (6, 6, 1), kind="PASSIVE", location=(6, 0, -0.5))
    ground.rigid_body.collision_collections = [i == 0 for i in range(20)]
    rigid_box(rbw, "Sinker", (1, 1, 1), location=(-6, 0, 1.0))
    ghost = rigid_box(rbw, "Ghost", (1, 1, 1), location=(6, 0, 1.0))
    ghost.rigid_body.collision_collections = [i == 1 for i in range(20)]
    _calm(rbw)
    return Scene(("Sinker", "Ghost"), frames=48)


def hinge_limit() -> Scene:
    """A bar on a hinge about the world Y axis falls until its 45° limit stops it."""
    rbw = rigid_body_world()
    anchor = _anchor(rbw, location=(0, 0, 3))
    bar = rigid_box(rbw, "Bar", (2.0, 0.2, 0.2), location=(1.0, 0, 3))
    hinge = constraint(rbw, "Hinge", anchor, bar, "HINGE", location=(0, 0, 3), rotation=(math.pi / 2, 0, 0))
    hinge.use_limit_ang_z = True
    hinge.limit_ang_z_lower, hinge.limit_ang_z_upper = math.radians(-45), math.radians(45)
    _calm(rbw)
    return Scene(("Bar",))


def slider() -> Scene:
    """A block slides down a 45° rail until its 1 m limit stops it."""
    rbw = rigid_body_world()
    anchor = _anchor(rbw, location=(0, 0, 3))
    block = rigid_box(rbw, "Block", (0.3, 0.3, 0.3), location=(0, 0, 3))
    block.rigid_body.collision_collections = [i == 1 for i in range(20)]
    rail = constraint(rbw, "Rail", anchor, block, "SLIDER", location=(0, 0, 3), rotation=(0, math.pi / 4, 0))
    rail.use_limit_lin_x = True
    rail.limit_lin_x_lower, rail.limit_lin_x_upper = -1.0, 1.0
    _calm(rbw)
    return Scene(("Block",))


def generic_limits() -> Scene:
    """A bar on a Generic constraint (position locked, two angles limited to ±30°, the third locked) tips over
    diagonally until both limits hold it."""
    rbw = rigid_body_world()
    anchor = _anchor(rbw, location=(0, 0, 3))
    bar = rigid_box(rbw, "Mast", (0.2, 0.2, 2.0), location=(0.05, 0.05, 4.0))
    joint = constraint(rbw, "Gimbal", anchor, bar, "GENERIC", location=(0, 0, 3))
    for axis in "xyz":
        setattr(joint, f"use_limit_lin_{axis}", True)
        setattr(joint, f"limit_lin_{axis}_lower", 0.0)
        setattr(joint, f"limit_lin_{axis}_upper", 0.0)
        setattr(joint, f"use_limit_ang_{axis}", True)
        limit = 0.0 if axis == "z" else math.radians(30)
        setattr(joint, f"limit_ang_{axis}_lower", -limit)
        setattr(joint, f"limit_ang_{axis}_upper", limit)
    _calm(rbw)
    return Scene(("Mast",), frames=48)


def friction_slide() -> Scene:
    """A box on a 20° ramp slides off its end and falls only if the frictions multiply, as Bullet combines them
    (0.2 · 1.0 < tan 20°); their mean or any other combination holds it on the ramp."""
    rbw = rigid_body_world()
    tilt = math.radians(20)
    ramp = rigid_box(rbw, "Ramp", (6, 4, 0.5), kind="PASSIVE", location=(0, 0, 0))
    ramp.rotation_euler = (0, tilt, 0)
    ramp.rigid_body.friction = 1.0
    skid = rigid_box(rbw, "Skid", (0.6, 0.6, 0.6))
    skid.rotation_euler = (0, tilt, 0)
    along, above = 2.0, 0.25 + 0.3 + 0.005  # 1 m from the low end, resting on the surface
    down_x, down_z = math.cos(tilt), -math.sin(tilt)  # along the ramp's surface, downhill
    skid.location = (along * down_x - above * down_z, 0, along * down_z + above * down_x)
    skid.rigid_body.friction = 0.2
    _calm(rbw)
    return Scene(("Skid",), frames=72)


def mesh_ground() -> Scene:
    """A passive triangle-mesh floor (collision shape Mesh: ``geometry.mesh``) under a falling box."""
    rbw = rigid_body_world()
    verts = [(-6, -6, 0), (6, -6, 0), (6, 6, 0), (-6, 6, 0), (0, 0, -1)]
    floor = _body(rbw, _mesh_object("Floor", verts, [(0, 1, 4), (1, 2, 4), (2, 3, 4), (3, 0, 4)]), shape="MESH")
    floor.rigid_body.type = "PASSIVE"
    rigid_box(rbw, "Box", (1, 1, 1), location=(0, 0, 2))  # settles in the funnel's point
    _calm(rbw)
    return Scene(("Box",), frames=72)


def pendulum_point() -> Scene:
    """A ball on a point constraint, released level with the pivot: it swings down through the bottom."""
    rbw = rigid_body_world()
    anchor = _anchor(rbw, location=(0, 0, 4))
    bob = rigid_box(rbw, "Bob", (0.4, 0.4, 0.4), shape="SPHERE", location=(1.5, 0, 4))
    constraint(rbw, "Pivot", anchor, bob, "POINT", location=(0, 0, 4))
    _calm(rbw)
    return Scene(("Bob",), frames=17)


def motor_spin() -> Scene:
    """A motor with a limited impulse spins a bar up on a vertical axle (a hinge holds it against gravity)."""
    rbw = rigid_body_world()
    anchor = _anchor(rbw, location=(0, 0, 3))
    bar = rigid_box(rbw, "Rotor", (2.0, 0.3, 0.3), location=(0, 0, 3), mass=2.0)
    bar.rigid_body.collision_collections = [i == 1 for i in range(20)]
    constraint(rbw, "Axle", anchor, bar, "HINGE", location=(0, 0, 3))  # about the world Z axis
    motor = constraint(rbw, "Motor", anchor, bar, "MOTOR", location=(0, 0, 3), rotation=(0, -math.pi / 2, 0))
    motor.use_motor_ang = True
    motor.motor_ang_target_velocity = 2.0
    motor.motor_ang_max_impulse = 1.0
    _calm(rbw)
    return Scene(("Rotor",), frames=25)


def animated_pusher() -> Scene:
    """A passive, Animated paddle keyframed across the ground pushes a crate (glTF: a kinematic body and its
    animation, which the engine plays)."""
    rbw = rigid_body_world()
    ground = _ground(rbw)
    ground.rigid_body.friction = 1.0
    pusher = rigid_box(rbw, "Pusher", (0.5, 2, 1), kind="PASSIVE", location=(-3, 0, 0.5))
    pusher.rigid_body.kinematic = True
    pusher.keyframe_insert("location", frame=1)
    pusher.location = (1, 0, 0.5)
    pusher.keyframe_insert("location", frame=48)
    pusher.location = (-3, 0, 0.5)
    crate = rigid_box(rbw, "Crate", (1, 1, 1), location=(-1, 0, 0.5))
    crate.rigid_body.friction = 1.0  # it stops soon after the paddle does
    _calm(rbw)
    return Scene(("Pusher", "Crate"), frames=60)


# --- scenes whose setting the file carries only if the exporter writes it as Bullet applies it ------------------


def stretched_sphere() -> Scene:
    rbw = rigid_body_world()
    _ground(rbw)
    ball = rigid_box(rbw, "Ball", (1, 1, 1), shape="SPHERE", location=(0, 0, 3))
    ball.scale = (1, 1, 2)  # Bullet: the radius from the X scale
    _calm(rbw)
    return Scene(("Ball",), setting=("scale",), named=("Ball",), height_only=("Ball",))


def stretched_capsule() -> Scene:
    rbw = rigid_body_world()
    _ground(rbw)
    pill = rigid_box(rbw, "Pill", (0.6, 0.6, 2.0), shape="CAPSULE", location=(0, 0, 3))
    pill.scale = (2, 1, 1)  # Bullet's Z capsule: the radius from the Y scale
    _calm(rbw)
    return Scene(("Pill",), setting=("scale",), named=("Pill",))


def stretched_cylinder() -> Scene:
    rbw = rigid_body_world()
    _ground(rbw)
    can = rigid_box(rbw, "Can", (0.8, 0.8, 1.5), shape="CYLINDER", location=(0, 0, 3))
    can.rotation_euler = (math.pi / 2, 0, 0)  # lying: the radius sets the rest height
    can.scale = (1, 2, 1)  # Bullet's Z cylinder: the radius from the X scale
    _calm(rbw)
    return Scene(("Can",), setting=("scale",), named=("Can",), height_only=("Can",))


def mirrored_hull() -> Scene:
    """A hull whose narrow foot lies beside its origin (Bullet's centre of mass): it topples; mirrored in X."""
    rbw = rigid_body_world()
    _ground(rbw)
    verts = [(x, y, 0.0) for x in (0.1, 0.6) for y in (-0.5, 0.5)] + [
        (x, y, 2.0) for x in (-1.0, 1.0) for y in (-0.5, 0.5)
    ]
    faces = [(0, 1, 3, 2), (4, 6, 7, 5), (0, 4, 5, 1), (2, 3, 7, 6), (0, 2, 6, 4), (1, 5, 7, 3)]
    ob = _body(rbw, _mesh_object("Wedge", verts, faces, location=(0, 0, 0.05)), shape="CONVEX_HULL")
    ob.scale = (-1, 1, 1)
    _calm(rbw)
    return Scene(("Wedge",), setting=("mirror", "negative scale"), named=("Wedge",))


def compound_child_scale() -> Scene:
    """A compound whose leg has its own object scale (Bullet's compound uses the child's mesh unscaled)."""
    rbw = rigid_body_world()
    _ground(rbw)
    frame = rigid_box(rbw, "Frame", (2, 2, 0.2), shape="COMPOUND", location=(0, 0, 3))
    leg = rigid_box(rbw, "Leg", (1, 1, 1), shape="BOX", parent=frame)
    leg.location = (0.8, 0, -0.5)
    leg.scale = (0.4, 0.4, 2.0)
    _calm(rbw)
    return Scene(("Frame",), setting=("scale",), named=("Leg",))


def _arrayed_box(rbw, name, source):
    """A 1 m box whose Array modifier stacks two more copies below it; collision source ``source``."""
    ob = rigid_box(rbw, name, (1, 1, 1), shape="CONVEX_HULL", location=(0, 0, 4))
    array = ob.modifiers.new("Array", "ARRAY")
    array.count = 3
    array.relative_offset_displace = (0, 0, -1)
    ob.rigid_body.mesh_source = source
    return ob


def source_base() -> Scene:
    rbw = rigid_body_world()
    _ground(rbw)
    _arrayed_box(rbw, "Stack", "BASE")
    _calm(rbw)
    return Scene(("Stack",), export={"export_apply": True}, setting=("source", "modifier"), named=("Stack",))


def source_deform() -> Scene:
    rbw = rigid_body_world()
    _ground(rbw)
    _arrayed_box(rbw, "Stack", "DEFORM")
    _calm(rbw)
    return Scene(("Stack",), export={"export_apply": True}, setting=("source", "modifier"), named=("Stack",))


def source_final_without_apply() -> Scene:
    rbw = rigid_body_world()
    _ground(rbw)
    _arrayed_box(rbw, "Stack", "FINAL")
    _calm(rbw)
    return Scene(("Stack",), export={"export_apply": False}, setting=("source", "modifier", "apply"), named=("Stack",))


def margin() -> Scene:
    rbw = rigid_body_world()
    _ground(rbw)
    ob = rigid_box(rbw, "Padded", (1, 1, 1), shape="CONVEX_HULL", location=(0, 0, 2))
    ob.rigid_body.use_margin = True
    ob.rigid_body.collision_margin = 0.25
    _calm(rbw)
    return Scene(("Padded",), setting=("margin",), named=("Padded",))


# --- world and scene settings glTF has no place for -------------------------------------------------------------


def _free_fall(rbw) -> None:
    rigid_box(rbw, "Faller", (1, 1, 1), location=(0, 0, 20))
    _calm(rbw)


def world_gravity() -> Scene:
    scene = bpy.context.scene
    scene.gravity = (0.0, 0.0, -3.0)
    _free_fall(rigid_body_world(scene))
    return Scene(("Faller",), frames=37, setting=("gravity",))


def time_scale() -> Scene:
    rbw = rigid_body_world()
    rbw.time_scale = 0.5
    _free_fall(rbw)
    return Scene(("Faller",), frames=37, setting=("time scale", "time_scale", "speed"))


def unit_scale() -> Scene:
    scene = bpy.context.scene
    scene.unit_settings.scale_length = 0.1
    _free_fall(rigid_body_world(scene))
    return Scene(("Faller",), frames=37, setting=("unit",))


# --- body and constraint settings ------------------------------------------------------------------------------


def start_deactivated() -> Scene:
    rbw = rigid_body_world()
    _ground(rbw)
    ob = rigid_box(rbw, "Sleeper", (1, 1, 1), location=(0, 0, 3))
    _calm(rbw)
    ob.rigid_body.use_deactivation = True
    ob.rigid_body.use_start_deactivated = True
    return Scene(("Sleeper",), frames=37, setting=("deactivat",), named=("Sleeper",))


def dynamic_off() -> Scene:
    rbw = rigid_body_world()
    _ground(rbw)
    ob = rigid_box(rbw, "Held", (1, 1, 1), location=(0, 0, 3))
    ob.rigid_body.enabled = False  # the "Dynamic" checkbox
    _calm(rbw)
    return Scene(("Held",), frames=37, setting=("dynamic",), named=("Held",))


def breakable_constraint() -> Scene:
    rbw = rigid_body_world()
    anchor = _anchor(rbw, location=(0, 0, 5))
    weight = rigid_box(rbw, "Weight", (1, 1, 1), location=(0, 0, 4), mass=10.0)
    weight.rigid_body.collision_collections = [i == 1 for i in range(20)]
    link = constraint(rbw, "Link", anchor, weight, "FIXED", location=(0, 0, 5))
    link.use_breaking = True
    link.breaking_threshold = 0.1  # an impulse per step: a 10 kg weight breaks it at once
    _calm(rbw)
    return Scene(("Weight",), frames=19, setting=("break",), named=("Link",))


def _hanging_spring(spring_type: str) -> Scene:
    """A weight on a vertical spring (other axes locked), damped: SPRING1 and SPRING2 damp differently."""
    rbw = rigid_body_world()
    anchor = _anchor(rbw, location=(0, 0, 5))
    weight = rigid_box(rbw, "Weight", (0.5, 0.5, 0.5), location=(0, 0, 4))
    weight.rigid_body.collision_collections = [i == 1 for i in range(20)]
    spring = constraint(rbw, "Spring", anchor, weight, "GENERIC_SPRING", location=(0, 0, 4))
    spring.spring_type = spring_type
    for axis in "xyz":
        setattr(spring, f"use_limit_ang_{axis}", True)
        setattr(spring, f"limit_ang_{axis}_lower", 0.0)
        setattr(spring, f"limit_ang_{axis}_upper", 0.0)
    for axis in "xy":
        setattr(spring, f"use_limit_lin_{axis}", True)
        setattr(spring, f"limit_lin_{axis}_lower", 0.0)
        setattr(spring, f"limit_lin_{axis}_upper", 0.0)
    spring.use_spring_z = True
    spring.spring_stiffness_z = 10.0  # sags about 1 m: the two spring types end far apart
    spring.spring_damping_z = 0.5
    _calm(rbw)
    return Scene(("Weight",), frames=49, setting=("spring",), named=("Spring",))


def spring1() -> Scene:
    return _hanging_spring("SPRING1")


def spring2() -> Scene:
    return _hanging_spring("SPRING2")


SCENES = {
    builder.__name__: builder
    for builder in (
        box_drop,
        rest_heights,
        fall_through,
        hinge_limit,
        slider,
        generic_limits,
        friction_slide,
        mesh_ground,
        pendulum_point,
        motor_spin,
        animated_pusher,
        stretched_sphere,
        stretched_capsule,
        stretched_cylinder,
        mirrored_hull,
        compound_child_scale,
        source_base,
        source_deform,
        source_final_without_apply,
        margin,
        world_gravity,
        time_scale,
        unit_scale,
        start_deactivated,
        dynamic_off,
        breakable_constraint,
        spring1,
        spring2,
    )
}
