"""*Add glTF Joint* (``gltf_physics.add_joint``): a glTF joint preset between the two selected rigid bodies.

Body A (``object1``) is the selected body that is not active, body B (``object2``) is the active one: select the
parent side first (e.g. the torso), the child last (the upper arm). One Empty at the 3D cursor (or half-way between
the bodies) carries the Blender constraint that the importer's joint mapping plans for the preset
(``mapping.joints_to_blender.plan_joint`` / ``configure_constraint``), plus one MOTOR Empty per velocity drive, and
the exact glTF joint (``Object.gltf_physics.joint``, written by ``mapping.stored`` as the importer does), so the
export writes the preset's description. Frame A and frame B coincide at the pivot, axes aligned with the world's.
The preset axis is picked in Blender's axes (X, Y, Z = glTF X, −Z, Y). Entry: Object ▸ Rigid Body ▸ Add glTF Joint.
"""

from __future__ import annotations

import bpy
import numpy as np
from bpy.props import BoolProperty, EnumProperty, FloatProperty, StringProperty
from mathutils import Matrix

from ...io.gltf.nodes import relative_offset, rigid
from ...io.importer.reproduce import velocity
from ...io.mapping import stored_values
from ...io.mapping.axes import AXIS_CHANGE, BLENDER_TO_GLTF
from ...io.mapping.joint_presets import PresetParams, describe
from ...io.mapping.joints_to_blender import configure_constraint, configure_motor, empty_matrix, plan_joint
from ...io.mapping.stored import assign, store_description
from ...io.mapping.sync_gate import paused as sync_paused

PRESET_ITEMS = (
    ("FIXED", "Fixed", "Weld: no relative motion"),
    ("BALL", "Ball", "Ball and socket: free rotation, no translation"),
    ("HINGE", "Hinge", "Rotation about one axis, optionally within a range"),
    ("SLIDER", "Slider", "Translation along one axis, optionally within a range"),
    ("CONE_TWIST", "Cone-Twist", "Ragdoll shoulder: a swing cone about the axis and a twist range about it"),
    ("DISTANCE", "Distance / Rope", "Distance between the frames within [min, max] (a rope: min 0)"),
    ("SPRING", "Spring", "A slider held at rest by a soft limit (stiffness, damping)"),
    ("VELOCITY_MOTOR", "Velocity Motor", "A hinge driven at a target angular velocity"),
    ("POSITION_SERVO", "Position Servo", "A hinge driven towards a target angle (stiffness, damping)"),
)
AXIS_ITEMS = (("X", "X", "Blender X (glTF X)"), ("Y", "Y", "Blender Y (glTF −Z)"), ("Z", "Z", "Blender Z (glTF Y)"))
GLTF_AXIS = {"X": 0, "Y": 2, "Z": 1}  # Blender world axis → the glTF frame-A axis along it (Blender Y = glTF −Z)
UNDO = {"REGISTER", "UNDO"}  # a module constant: ruff's RUF012 flags mutable literals on classes
ANGLE = {"subtype": "ANGLE", "unit": "ROTATION"}


def two_bodies(context) -> tuple | None:
    """(body A, body B) from the selection: B is the active body, A the other one; None unless exactly two."""
    bodies = [ob for ob in context.selected_objects if getattr(ob, "rigid_body", None) is not None]
    if len(bodies) != 2:
        return None
    active = context.active_object
    body_b = active if active in bodies else bodies[1]
    body_a = bodies[0] if bodies[1] is body_b else bodies[1]
    return body_a, body_b


def _gltf_world(ob) -> np.ndarray:
    """The rigid world frame of ``ob``'s glTF node (both sides of the matrix in glTF axes, as the exporter writes)."""
    return rigid(BLENDER_TO_GLTF @ np.array(ob.matrix_world) @ AXIS_CHANGE)


class GLTF_PHYSICS_OT_add_joint(bpy.types.Operator):
    """Add a glTF joint preset between the two selected rigid bodies (active = body B)"""

    bl_idname = "gltf_physics.add_joint"
    bl_label = "Add glTF Joint"
    bl_options = UNDO  # {"REGISTER", "UNDO"}: one undo step

    preset: EnumProperty(name="Preset", items=PRESET_ITEMS, default="HINGE")
    axis: EnumProperty(name="Axis", items=AXIS_ITEMS, default="Z", description="Hinge / slider / twist / drive axis")
    location: EnumProperty(
        name="Location",
        items=(("CURSOR", "3D Cursor", "Pivot at the 3D cursor"), ("BETWEEN", "Between", "Half-way between bodies")),
        default="CURSOR",
    )
    joint_name: StringProperty(name="Name", default="", description="glTF joint name (empty: the bodies' names)")
    enable_collision: BoolProperty(name="Enable Collision", default=False, description="glTF enableCollision")
    use_range: BoolProperty(name="Limit Range", default=False, description="Hinge / slider: bound the free axis")
    lower: FloatProperty(name="Lower", default=-0.5, description="Hinge (rad) or slider (m) lower limit (glTF min)")
    upper: FloatProperty(name="Upper", default=0.5, description="Hinge (rad) or slider (m) upper limit (glTF max)")
    swing: FloatProperty(
        name="Swing Cone", default=0.7854, min=0.0, max=3.1416, description="Cone half-angle (rad, glTF max)", **ANGLE
    )
    twist_lower: FloatProperty(name="Twist Min", default=-0.5236, description="Twist lower limit (rad)", **ANGLE)
    twist_upper: FloatProperty(name="Twist Max", default=0.5236, description="Twist upper limit (rad)", **ANGLE)
    min_distance: FloatProperty(name="Min Distance", default=0.0, min=0.0, unit="LENGTH", description="m (0: a rope)")
    max_distance: FloatProperty(name="Max Distance", default=1.0, min=0.0, unit="LENGTH", description="m")
    stiffness: FloatProperty(name="Stiffness", default=100.0, min=0.0, description="Spring / servo stiffness")
    damping: FloatProperty(name="Damping", default=10.0, min=0.0, description="Spring / drive damping")
    velocity: FloatProperty(name="Velocity", default=1.0, description="Motor target velocity (rad/s)")
    position: FloatProperty(name="Target Angle", default=0.0, description="Servo target angle (rad)", **ANGLE)

    @classmethod
    def poll(cls, context) -> bool:
        return context.mode == "OBJECT" and context.scene is not None

    def params(self) -> PresetParams:
        return PresetParams(
            axis=GLTF_AXIS[self.axis],
            use_range=self.use_range,
            lower=self.lower,
            upper=self.upper,
            swing=self.swing,
            twist_lower=self.twist_lower,
            twist_upper=self.twist_upper,
            min_distance=self.min_distance or None,
            max_distance=self.max_distance,
            stiffness=self.stiffness,
            damping=self.damping,
            velocity=self.velocity,
            position=self.position,
        )

    def execute(self, context):
        pair = two_bodies(context)
        if pair is None:
            count = sum(getattr(ob, "rigid_body", None) is not None for ob in context.selected_objects)
            self.report({"ERROR"}, f"Add glTF Joint needs exactly two selected rigid bodies ({count} selected)")
            return {"CANCELLED"}
        body_a, body_b = pair
        world = context.scene.rigidbody_world
        if world is None:
            self.report({"ERROR"}, "Add glTF Joint needs a rigid-body world in the scene")
            return {"CANCELLED"}
        if world.constraints is None:
            world.constraints = bpy.data.collections.new("RigidBodyConstraints")
        name = self.joint_name or f"{body_a.name}-{body_b.name}"
        description = describe(self.preset, self.params(), name=name)
        plan = plan_joint(description)
        pivot = context.scene.cursor.location.copy()
        if self.location == "BETWEEN":
            pivot = (body_a.matrix_world.translation + body_b.matrix_world.translation) / 2
        frame = np.eye(4)
        frame[:3, 3] = (BLENDER_TO_GLTF[:3, :3] @ np.array(pivot)).tolist()
        collection = context.collection or context.scene.collection
        empty = _empty(name + ".joint", empty_matrix(frame, plan.perm), collection, world)
        configure_constraint(empty.rigid_body_constraint, plan, body_a, body_b, self.enable_collision)
        with sync_paused():  # the constraint is built from the plan already: no panel sync while storing
            for n, motor in enumerate(plan.motors):
                helper = _empty(f"{name}.motor{n}", empty_matrix(frame, motor.perm), collection, world)
                configure_motor(helper.rigid_body_constraint, motor, body_a, body_b, self.enable_collision)
                self._store(helper, "MOTOR", frame, body_a, body_b, [motor.note])
            self._store(empty, "JOINT", frame, body_a, body_b, plan.notes)
            with stored_values.editing(empty) as stored:  # the limits and drives: one text write
                store_description(stored.joint, description)
        for ob in context.selected_objects:
            ob.select_set(False)
        empty.select_set(True)
        context.view_layer.objects.active = empty
        velocity.delay_held(context.scene, world)  # a pre-rolled body it holds starts late: drivers, no handler
        self.report({"INFO"}, f"{enum_name(self.preset)} joint {name!r}: Blender {plan.type} constraint")
        return {"FINISHED"}

    def _store(self, empty, role: str, frame, body_a, body_b, notes) -> None:
        frame_a = relative_offset(_gltf_world(body_a), frame)
        frame_b = relative_offset(_gltf_world(body_b), frame)
        assign(
            empty.gltf_physics.joint,
            role=role,
            joint_name=self.joint_name or f"{body_a.name}-{body_b.name}",
            enable_collision=self.enable_collision,
            frame_a_translation=tuple(frame_a[0]),
            frame_a_rotation=tuple(frame_a[1]),
            frame_b_translation=tuple(frame_b[0]),
            frame_b_rotation=tuple(frame_b[1]),
            approximated=bool(notes),
            notes="; ".join(notes),
        )

    def draw(self, context) -> None:
        layout = self.layout
        layout.use_property_split = True
        for prop in ("preset", "location", "joint_name", "enable_collision"):
            layout.prop(self, prop)
        if self.preset not in ("FIXED", "BALL", "DISTANCE"):
            layout.prop(self, "axis")
        for prop in _PRESET_PROPS.get(self.preset, ()):
            layout.prop(self, prop)


_PRESET_PROPS = {
    "HINGE": ("use_range", "lower", "upper"),
    "SLIDER": ("use_range", "lower", "upper"),
    "CONE_TWIST": ("swing", "twist_lower", "twist_upper"),
    "DISTANCE": ("min_distance", "max_distance"),
    "SPRING": ("stiffness", "damping"),
    "VELOCITY_MOTOR": ("velocity", "damping"),
    "POSITION_SERVO": ("position", "stiffness", "damping", "use_range", "lower", "upper"),
}


def enum_name(preset: str) -> str:
    return next(label for key, label, _ in PRESET_ITEMS if key == preset)


def _empty(name: str, matrix: np.ndarray, collection, world):
    """A constraint Empty at ``matrix`` (Blender world), linked into ``collection`` and the world's constraints."""
    empty = bpy.data.objects.new(name, None)
    empty.empty_display_type = "ARROWS"
    empty.empty_display_size = 0.25
    empty.matrix_world = Matrix(matrix.tolist())
    collection.objects.link(empty)
    world.constraints.objects.link(empty)
    return empty


def _menu(self, context) -> None:
    self.layout.separator()
    self.layout.operator_menu_enum(GLTF_PHYSICS_OT_add_joint.bl_idname, "preset", text="Add glTF Joint")


def register_module() -> None:
    bpy.types.VIEW3D_MT_object_rigid_body.append(_menu)


def unregister_module() -> None:
    bpy.types.VIEW3D_MT_object_rigid_body.remove(_menu)


CLASSES = (GLTF_PHYSICS_OT_add_joint,)
