"""Property groups holding a glTF joint exactly as the file said (limits, drives, frames) for export: views of the
object's one stored text (``io/mapping/stored_values.py``: ``FIELDS[("joint",)]`` and the rows of ``ROWS``), except
the two object pointers.

Registration: ``CLASSES`` must be registered before the group that nests :class:`GLTF_PHYSICS_PG_joint`
(``Object.gltf_physics.joint``), i.e. register ``joint_properties`` before ``properties`` (``ui._modules``).

Axes are glTF axes of the joint's frame A (0 = X, 1 = Y, 2 = Z), values are the file's (Y-up) values; the Blender
constraint built from them is an approximation when ``approximated`` is set.
"""

import bpy
from bpy.props import (
    BoolProperty,
    BoolVectorProperty,
    CollectionProperty,
    EnumProperty,
    FloatProperty,
    FloatVectorProperty,
    IntProperty,
    PointerProperty,
    StringProperty,
)

from ..stored_views import stored, stored_rows
from .sync_joint import joint_changed, limit_max_changed, limit_min_changed

SYNC = {"update": joint_changed}  # every glTF joint value re-plans the Blender constraint (ui/joint/sync_joint.py)

ROLES = (
    ("NONE", "None", "Not part of a glTF joint"),
    ("JOINT", "Joint", "The constraint object of a glTF joint (export writes the joint from it)"),
    ("MOTOR", "Motor", "Helper MOTOR constraint of a driven joint (not exported on its own)"),
    ("ANCHOR", "World Anchor", "Helper passive body standing for the world side of joints (not exported)"),
    (
        "REPRODUCTION",
        "Reproduction Helper",
        "Import helper reproducing a glTF value Blender has no setting for (not exported)",
    ),
)
LIMIT_KINDS = (("LINEAR", "Linear", "Limits translation"), ("ANGULAR", "Angular", "Limits rotation"))
DRIVE_TYPES = (("linear", "Linear", "Drives translation"), ("angular", "Angular", "Drives rotation"))
DRIVE_MODES = (("force", "Force", "Force drive"), ("acceleration", "Acceleration", "Mass-independent drive"))
INF = float("inf")


@stored_rows(("joint", "limits"))
class GLTF_PHYSICS_PG_joint_limit(bpy.types.PropertyGroup):
    """One glTF joint limit (``has_*`` False = the value is absent in the file)."""

    kind: EnumProperty(name="Kind", items=LIMIT_KINDS, description="linearAxes or angularAxes of the limit", **SYNC)
    axes: BoolVectorProperty(
        name="Axes",
        size=3,
        description="glTF X, Y, Z of frame A (limits[].linearAxes / angularAxes)",
        **SYNC,
    )
    has_min: BoolProperty(name="Has Min", description="limits[].min present", update=limit_min_changed)
    min: FloatProperty(
        name="Min",
        description="m or rad (limits[].min; Max follows when above it); re-plans the constraint",
        update=limit_min_changed,
    )
    has_max: BoolProperty(name="Has Max", description="limits[].max present", update=limit_max_changed)
    max: FloatProperty(
        name="Max",
        description="m or rad (limits[].max; Min follows when below it); re-plans the constraint",
        update=limit_max_changed,
    )
    has_stiffness: BoolProperty(name="Soft", description="limits[].stiffness present (absent = hard limit)", **SYNC)
    stiffness: FloatProperty(
        name="Stiffness",
        min=0.0,
        description="N/m or N·m/rad (limits[].stiffness); a soft locked axis becomes a Blender spring",
        **SYNC,
    )
    damping: FloatProperty(name="Damping", min=0.0, description="N·s/m or N·m·s/rad (limits[].damping)", **SYNC)
    extras_json: StringProperty(name="Extras", description="Passthrough JSON (extras/extensions)")


@stored_rows(("joint", "drives"))
class GLTF_PHYSICS_PG_joint_drive(bpy.types.PropertyGroup):
    """One glTF joint drive (``has_*`` False = the value is absent in the file)."""

    type: EnumProperty(name="Type", items=DRIVE_TYPES, description="drives[].type", **SYNC)
    mode: EnumProperty(name="Mode", items=DRIVE_MODES, description="drives[].mode", **SYNC)
    axis: IntProperty(name="Axis", min=0, max=2, description="glTF axis of frame A (drives[].axis)", **SYNC)
    has_max_force: BoolProperty(name="Has Max Force", description="drives[].maxForce present", **SYNC)
    max_force: FloatProperty(
        name="Max Force",
        min=0.0,
        description="N or N·m (drives[].maxForce); a velocity drive's MOTOR max impulse",
        **SYNC,
    )
    has_position_target: BoolProperty(name="Has Position Target", description="drives[].positionTarget present", **SYNC)
    position_target: FloatProperty(name="Position Target", description="m or rad (drives[].positionTarget)", **SYNC)
    has_velocity_target: BoolProperty(name="Has Velocity Target", description="drives[].velocityTarget present", **SYNC)
    velocity_target: FloatProperty(
        name="Velocity Target",
        description="m/s or rad/s (drives[].velocityTarget); a MOTOR helper's target velocity",
        **SYNC,
    )
    stiffness: FloatProperty(name="Stiffness", min=0.0, description="N/m or N·m/rad (drives[].stiffness)", **SYNC)
    damping: FloatProperty(name="Damping", min=0.0, description="N·s/m or N·m·s/rad (drives[].damping)", **SYNC)
    extras_json: StringProperty(name="Extras", description="Passthrough JSON (extras/extensions)")


@stored(("joint",))
class GLTF_PHYSICS_PG_joint(bpy.types.PropertyGroup):
    """A glTF joint as the file gave it, stored on its constraint object (``role`` JOINT)."""

    role: EnumProperty(name="Role", items=ROLES)
    joint_name: StringProperty(name="Joint Name", description="Name of the joint description")
    enable_collision: BoolProperty(
        name="Enable Collision",
        description="node.joint.enableCollision; Blender's Disable Collisions is its negation",
        **SYNC,
    )
    node_a: PointerProperty(name="Frame A Node", type=bpy.types.Object, description="Object of the joint node")
    node_b: PointerProperty(name="Frame B Node", type=bpy.types.Object, description="Object of connectedNode")
    # Frames relative to the bodies (glTF values, Y-up, local to the nearest motion ancestor or the world).
    frame_a_translation: FloatVectorProperty(
        name="Frame A Translation",
        size=3,
        description="m, glTF axes: translation of the joint node (frame A) in body A's node",
    )
    frame_a_rotation: FloatVectorProperty(
        name="Frame A Rotation",
        size=4,
        description="Quaternion xyzw, glTF axes: rotation of the joint node (frame A) in body A's node",
    )
    frame_b_translation: FloatVectorProperty(
        name="Frame B Translation",
        size=3,
        description="m, glTF axes: translation of node.joint.connectedNode (frame B) in body B's node",
    )
    frame_b_rotation: FloatVectorProperty(
        name="Frame B Rotation",
        size=4,
        description="Quaternion xyzw, glTF axes: rotation of node.joint.connectedNode (frame B) in body B's node",
    )
    # Frame B relative to frame A at load (zero = coincident frames).
    offset_translation: FloatVectorProperty(
        name="B Offset", size=3, description="m, frame B in frame A at load (glTF axes)"
    )
    offset_rotation: FloatVectorProperty(
        name="B Offset Rotation",
        size=4,
        description="Quaternion xyzw: rotation of frame B in frame A at load (glTF axes)",
    )
    limits: CollectionProperty(type=GLTF_PHYSICS_PG_joint_limit)
    drives: CollectionProperty(type=GLTF_PHYSICS_PG_joint_drive)
    approximated: BoolProperty(name="Approximated", description="Blender cannot hold it exactly")
    notes: StringProperty(name="Notes", description="What the Blender constraint approximates")
    extras_json: StringProperty(name="Extras", description="Passthrough JSON of the joint description")
    node_extras_json: StringProperty(name="Node Extras", description="Passthrough JSON of node.joint")
    source: StringProperty(name="Source", description="Revision the joint was read from")
    is_node: BoolProperty(
        name="Is the Joint Node",
        description="This Empty is the file's joint node itself, turned so its axes are the constraint's (not by an "
        "export-only import); export writes the node back at frame A (not glTF data)",
    )
    planned_axis: IntProperty(
        name="Planned Axis",
        min=-1,
        max=2,
        description="First frame-A axis of the cyclic permutation the constraint Empty carries since the last panel "
        "edit or, on a joint node carrying its constraint, since the import (-1 = as the import or Add glTF Joint "
        "built it; on such a node: no permutation); not glTF data",
    )


CLASSES = (GLTF_PHYSICS_PG_joint_limit, GLTF_PHYSICS_PG_joint_drive, GLTF_PHYSICS_PG_joint)
