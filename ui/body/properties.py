"""Property groups: the glTF physics data kept on each object (scene options: ``scene_properties``).

``Object.gltf_physics`` holds everything Blender's rigid body cannot (centre of mass, inertia, velocities, gravity
factor, both frictions, combine modes, absent-vs-explicit mass, filters, the original shape, triggers) so export can
write the file's values back. Vectors are stored in **Blender's frame** (exact swizzles of the glTF values, specs.md
§6.1): vector (x, y, z)glTF → (x, −z, y); inertia diagonal (x, y, z)glTF → (x, z, y); quaternions as Blender
(w, x, y, z) of the converted rotation. Shapes and filters are kept verbatim as JSON text (glTF frame), and so are the
``extras`` / ``extensions`` / unknown keys of every kept object (``passthrough``, ``shape_passthrough``).
"""

import bpy
from bpy.props import (
    BoolProperty,
    CollectionProperty,
    EnumProperty,
    FloatProperty,
    FloatVectorProperty,
    IntProperty,
    PointerProperty,
    StringProperty,
)

from ..filters import filter_mirror, sync_filters
from ..joint.joint_properties import GLTF_PHYSICS_PG_joint
from ..stored_views import stored, stored_copy
from . import sync_body, sync_combine, sync_shapes

MOTION_KINDS = (
    ("dynamic", "Dynamic", "Simulated body"),
    ("kinematic", "Kinematic", "Moved by animation or velocity, not by forces"),
    ("static", "Static", "OMI static body"),
)
MASS_MODES = (
    ("EXPLICIT", "Explicit", "The file gave a mass (rigid body mass)"),
    ("ABSENT", "Computed", "The file gave no mass: computed from the collider volume at the import density"),
    ("INFINITE", "Infinite", "KHR mass 0: infinite mass, imported as an animated passive body"),
)
COMBINE_MODES = (
    ("NONE", "Engine Default", "Absent in the file"),
    ("average", "Average", ""),
    ("minimum", "Minimum", ""),
    ("maximum", "Maximum", ""),
    ("multiply", "Multiply", ""),
)
ROLES = (
    ("NONE", "None", "No glTF physics on this object"),
    ("NODE", "glTF Node", "Object of a glTF node carrying physics"),
    ("PROXY", "Collision Proxy", "Generated collision geometry of a collider (not a glTF node; mesh not exported)"),
    ("TRIGGER_PROXY", "Trigger Volume", "Generated trigger geometry (not a glTF node; mesh not exported)"),
)
GEOMETRY_KINDS = (
    ("NONE", "None", "No geometry (OMI grouping collider / compound trigger)"),
    ("SHAPE", "Shape", "Implicit shape (shape_json)"),
    ("MESH", "Mesh", "glTF mesh index (KHR 2026, OMI convex/trimesh, KHR 2024-07 mesh shape)"),
    ("NODE", "Node", "Mesh of a glTF node (KHR 2024-10 geometry.node)"),
)


@stored(("collider", "material"))
class GLTF_PHYSICS_PG_material(bpy.types.PropertyGroup):
    """A glTF physics material exactly as the file said (Blender keeps one friction and multiplies)."""

    has_material: BoolProperty(name="Has Material", update=sync_body.material_presence_changed)
    index: IntProperty(name="Index", description="Index in the file's physicsMaterials (-1 = none)")
    name: StringProperty(name="Name")
    static_friction: FloatProperty(
        name="Static Friction",
        min=0.0,
        description="Unitless coefficient (physicsMaterials[].staticFriction); stored for export, Blender has one "
        "friction",
    )
    dynamic_friction: FloatProperty(
        name="Dynamic Friction",
        min=0.0,
        description="Unitless coefficient (physicsMaterials[].dynamicFriction); sets Blender's friction through the "
        "combine rule (the value for multiply, else its square root)",
        update=sync_combine.material_changed,
    )
    restitution: FloatProperty(
        name="Restitution",
        min=0.0,
        description="Unitless coefficient (physicsMaterials[].restitution); sets Blender's bounciness through the "
        "combine rule",
        update=sync_combine.material_changed,
    )
    friction_combine: EnumProperty(
        name="Friction Combine",
        items=COMBINE_MODES,
        description="physicsMaterials[].frictionCombine; Blender multiplies, so any other mode writes the square root",
        update=sync_combine.material_changed,
    )
    restitution_combine: EnumProperty(
        name="Restitution Combine",
        items=COMBINE_MODES,
        description="physicsMaterials[].restitutionCombine; Blender multiplies, so any other mode writes the square "
        "root",
        update=sync_combine.material_changed,
    )
    passthrough: StringProperty(
        name="Passthrough", description="extras / extensions / unknown keys of the file's object (JSON, '' = none)"
    )
    # Import option Reproduce Motion: this object's rigid-body friction/restitution pre-combined for its contact
    # partners (the exporter still writes the file's material; Remove Reproduction Helpers restores "before").
    reproduced: BoolProperty(name="Pre-combined")
    reproduced_values: FloatVectorProperty(
        name="Pre-combined Values", size=4, description="Friction, restitution set; friction, restitution before"
    )


class GLTF_PHYSICS_PG_system_name(bpy.types.PropertyGroup):
    """One row of a collision-filter UI list (``name`` = a system name; a view of the JSON text)."""


@stored(("collider", "filter"))
class GLTF_PHYSICS_PG_filter(bpy.types.PropertyGroup):
    """A glTF collision filter exactly as the file said (lists as JSON text; empty text = absent)."""

    has_filter: BoolProperty(name="Has Filter", update=sync_filters.filter_changed)
    index: IntProperty(name="Index")
    name: StringProperty(name="Name")
    collision_systems: StringProperty(
        name="Collision Systems",
        description="collisionFilters[].collisionSystems: JSON list of names, '' = absent; a collider's filter sets "
        "the scene's collision collections",
        update=filter_mirror.text_changed,
    )
    collide_with_systems: StringProperty(
        name="Collide With",
        description="collisionFilters[].collideWithSystems: JSON list of names, '' = absent (= all)",
        update=filter_mirror.text_changed,
    )
    not_collide_with_systems: StringProperty(
        name="Not Collide With",
        description="collisionFilters[].notCollideWithSystems: JSON list of names, '' = absent",
        update=filter_mirror.text_changed,
    )
    # The UI lists' rows: views of the three texts above, rebuilt from them (ui/filters/filter_mirror), never exported.
    collision_systems_rows: CollectionProperty(type=GLTF_PHYSICS_PG_system_name)
    collide_with_systems_rows: CollectionProperty(type=GLTF_PHYSICS_PG_system_name)
    not_collide_with_systems_rows: CollectionProperty(type=GLTF_PHYSICS_PG_system_name)
    collision_systems_active: IntProperty(name="Active System", default=0, min=0)
    collide_with_systems_active: IntProperty(name="Active System", default=0, min=0)
    not_collide_with_systems_active: IntProperty(name="Active System", default=0, min=0)
    passthrough: StringProperty(
        name="Passthrough", description="extras / extensions / unknown keys of the file's object (JSON, '' = none)"
    )


@stored(("motion",))
class GLTF_PHYSICS_PG_motion(bpy.types.PropertyGroup):
    """``motion`` of a glTF node; vectors in Blender's frame."""

    has_motion: BoolProperty(name="Has Motion", update=sync_body.motion_presence_changed)
    kind: EnumProperty(
        name="Type",
        items=MOTION_KINDS,
        description="motion.isKinematic (OMI: type); sets Blender's body type and Animated flag",
        update=sync_body.motion_state_changed,
    )
    mass_mode: EnumProperty(
        name="Mass",
        items=MASS_MODES,
        description="motion.mass present, absent or 0; sets Blender's body type and mass",
        update=sync_body.motion_state_changed,
    )
    mass: FloatProperty(
        name="Mass",
        min=0.0,
        unit="MASS",
        description="kg (motion.mass, Explicit); sets Blender's mass",
        update=sync_body.mass_changed,
    )
    has_center_of_mass: BoolProperty(name="Has Centre of Mass")
    center_of_mass: FloatVectorProperty(
        name="Centre of Mass",
        size=3,
        subtype="TRANSLATION",
        description="m, node space, Blender axes (motion.centerOfMass; written as (x, z, −y))",
    )
    has_inertia_diagonal: BoolProperty(name="Has Inertia")
    inertia_diagonal: FloatVectorProperty(
        name="Inertia Diagonal",
        size=3,
        min=0.0,
        description="kg·m², principal moments, Blender axes (motion.inertiaDiagonal; written as (x, z, y))",
    )
    has_inertia_orientation: BoolProperty(name="Has Inertia Orientation")
    inertia_orientation: FloatVectorProperty(
        name="Inertia Orientation",
        size=4,
        subtype="QUATERNION",
        description="Principal axes rotation, Blender (w, x, y, z) (motion.inertiaOrientation: xyzw, glTF axes)",
    )
    linear_velocity: FloatVectorProperty(
        name="Linear Velocity",
        size=3,
        subtype="VELOCITY",
        description="m/s, node space, Blender axes (motion.linearVelocity; written as (x, z, −y))",
        update=sync_body.velocity_changed,
    )
    angular_velocity: FloatVectorProperty(
        name="Angular Velocity",
        size=3,
        description="rad/s, node space, Blender axes (motion.angularVelocity; written as (x, z, −y))",
        update=sync_body.velocity_changed,
    )
    gravity_factor: FloatProperty(
        name="Gravity Factor",
        description="Unitless multiplier of gravity (motion.gravityFactor); sets the world's gravity weight when "
        "Reproduce Motion is on (the shared factor, mixed: the most common one)",
        update=sync_body.gravity_changed,
    )
    animated: BoolProperty(
        name="Animated",
        description="Follows the file's animation; sets Blender's Animated flag",
        update=sync_body.motion_state_changed,
    )
    reproduced_mass: FloatProperty(
        name="Reproduced Mass",
        description="Blender mass Reproduce Motion gave a split compound (-1 = none)",
    )
    passthrough: StringProperty(
        name="Passthrough", description="extras / extensions / unknown keys of the file's object (JSON, '' = none)"
    )


@stored(("collider", "geometry"))
class GLTF_PHYSICS_PG_geometry(bpy.types.PropertyGroup):
    """Collider or trigger geometry as the file said."""

    kind: EnumProperty(
        name="Geometry",
        items=GEOMETRY_KINDS,
    )
    shape_index: IntProperty(name="Shape")
    shape_json: StringProperty(name="Shape JSON", description="The shape, glTF frame (KHR_implicit_shapes form)")
    mesh: IntProperty(name="Mesh")
    node: IntProperty(name="Node")
    convex_hull: BoolProperty(name="Convex Hull")
    passthrough: StringProperty(
        name="Passthrough", description="extras / extensions / unknown keys of the file's object (JSON, '' = none)"
    )
    shape_passthrough: StringProperty(
        name="Shape Passthrough",
        description="extras / extensions / unknown keys of the shape and its sub-object (JSON)",
    )
    # Views of shape_json (get/set, nothing stored twice); a write rebuilds the generated proxy (ui/body/sync_shapes.py)
    shape_size: sync_shapes.param("shape_size", "Size", "m, glTF axes X, Y (up), Z (box.size)")
    shape_radius: sync_shapes.param("shape_radius", "Radius", "m (sphere.radius)")
    shape_height: sync_shapes.param("shape_height", "Height", "m along glTF +Y (capsule: between the cap centres)")
    shape_radius_top: sync_shapes.param("shape_radius_top", "Radius Top", "m (capsule / cylinder radiusTop)")
    shape_radius_bottom: sync_shapes.param(
        "shape_radius_bottom", "Radius Bottom", "m (capsule / cylinder radiusBottom)"
    )
    shape_size_x: sync_shapes.param("shape_size_x", "Size X", "m along glTF X; 0 = infinite (plane.sizeX absent)")
    shape_size_z: sync_shapes.param("shape_size_z", "Size Z", "m along glTF Z; 0 = infinite (plane.sizeZ absent)")
    shape_double_sided: sync_shapes.param(
        "shape_double_sided", "Double Sided", "plane.doubleSided: collides on both sides (Blender always does)"
    )


@stored(("collider",))
class GLTF_PHYSICS_PG_collider(bpy.types.PropertyGroup):
    has_collider: BoolProperty(name="Has Collider")
    geometry: PointerProperty(type=GLTF_PHYSICS_PG_geometry)
    material: PointerProperty(type=GLTF_PHYSICS_PG_material)
    filter: PointerProperty(type=GLTF_PHYSICS_PG_filter)
    disabled: BoolProperty(name="Disabled", description="Node scale is zero: the collider is off")
    approximated: StringProperty(name="Approximation", description="How Blender's shape differs from the file")
    passthrough: StringProperty(
        name="Passthrough", description="extras / extensions / unknown keys of the file's object (JSON, '' = none)"
    )


GLTF_PHYSICS_PG_trigger_geometry = stored_copy(
    GLTF_PHYSICS_PG_geometry, "GLTF_PHYSICS_PG_trigger_geometry", ("trigger", "geometry")
)
GLTF_PHYSICS_PG_trigger_filter = stored_copy(
    GLTF_PHYSICS_PG_filter, "GLTF_PHYSICS_PG_trigger_filter", ("trigger", "filter")
)


@stored(("trigger",))
class GLTF_PHYSICS_PG_trigger(bpy.types.PropertyGroup):
    has_trigger: BoolProperty(name="Is Trigger")
    geometry: PointerProperty(type=GLTF_PHYSICS_PG_trigger_geometry)
    nodes: StringProperty(name="Nodes", description="Compound trigger: JSON list of node indices ('' = simple)")
    filter: PointerProperty(type=GLTF_PHYSICS_PG_trigger_filter)
    passthrough: StringProperty(
        name="Passthrough", description="extras / extensions / unknown keys of the file's object (JSON, '' = none)"
    )


@stored(())
class GLTF_PHYSICS_PG_object(bpy.types.PropertyGroup):
    """glTF physics of one object (``Object.gltf_physics``)."""

    # The one stored value: every other property of these groups but the pointers and UI state is a view of it.
    values_json: StringProperty(
        name="Stored Values",
        description="This object's glTF physics as one JSON text (io/mapping/stored_values.py); the panels' "
        "properties are views of it",
    )
    role: EnumProperty(name="Role", items=ROLES)
    node_index: IntProperty(name="glTF Node", description="Index of the imported node (-1 = none)")
    source: StringProperty(name="Revision", description="Revision the data was read from")
    generated_mesh: BoolProperty(
        name="Generated Mesh",
        description="The node imported as an Empty; its mesh is generated collision geometry (not exported)",
    )
    proxy_node: IntProperty(name="Proxy Of", description="PROXY: the collider/trigger node it stands for")
    file_name: StringProperty(
        name="File Name",
        description="The glTF node's name as JSON text when Blender shows it escaped (lone surrogates, control "
        "characters); written back on export while the object keeps the escaped name",
    )
    outside_scene: BoolProperty(
        name="Outside Scene",
        description="The file kept this node outside its scene (imported into the orphan collection): export "
        "writes it as a node of no scene",
    )
    gltf_parent: PointerProperty(
        name="glTF Parent",
        type=bpy.types.Object,
        description="Parent node in the file, when import unparented a nested body from a compound parent",
    )
    motion: PointerProperty(type=GLTF_PHYSICS_PG_motion)
    collider: PointerProperty(type=GLTF_PHYSICS_PG_collider)
    trigger: PointerProperty(type=GLTF_PHYSICS_PG_trigger)
    joint: PointerProperty(type=GLTF_PHYSICS_PG_joint)
    # UI state only (not glTF data): the selected row of the joint's limit and drive lists in the Joint panel.
    active_limit_index: IntProperty(name="Active Limit", default=0, min=0)
    active_drive_index: IntProperty(name="Active Drive", default=0, min=0)


CLASSES = (
    GLTF_PHYSICS_PG_material,
    GLTF_PHYSICS_PG_system_name,
    GLTF_PHYSICS_PG_filter,
    GLTF_PHYSICS_PG_motion,
    GLTF_PHYSICS_PG_geometry,
    GLTF_PHYSICS_PG_trigger_geometry,
    GLTF_PHYSICS_PG_trigger_filter,
    GLTF_PHYSICS_PG_collider,
    GLTF_PHYSICS_PG_trigger,
    GLTF_PHYSICS_PG_object,
)


def register_properties() -> None:
    bpy.types.Object.gltf_physics = PointerProperty(type=GLTF_PHYSICS_PG_object)


def unregister_properties() -> None:
    if hasattr(bpy.types.Object, "gltf_physics"):
        del bpy.types.Object.gltf_physics
