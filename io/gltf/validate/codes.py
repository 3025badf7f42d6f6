"""Stable diagnostic codes of the physics validator, with severity, meaning and an example pointer.

Codes without the ``GLTF_PHYSICS_`` prefix are the ones the physics fork of the Khronos glTF-Validator uses
(eoineoineoin/glTF-Validator, branch ``khr_rigid_bodies``), with the same names and pointers; the ``GLTF_PHYSICS_``
codes are ours. ``docs/diagnostics.md`` documents the same table (a unit test keeps them in sync).
"""

from __future__ import annotations

from dataclasses import dataclass

from ...diagnostics import REGISTRY, Severity


@dataclass(frozen=True)
class CodeInfo:
    """Documentation of one validator code: the registry's severity and meaning, and an example pointer."""

    severity: Severity
    meaning: str
    example: str


# Core glTF-Validator codes the physics fork reuses.
TYPE_MISMATCH = "TYPE_MISMATCH"
UNDEFINED_PROPERTY = "UNDEFINED_PROPERTY"
UNEXPECTED_PROPERTY = "UNEXPECTED_PROPERTY"
VALUE_NOT_IN_RANGE = "VALUE_NOT_IN_RANGE"
VALUE_NOT_IN_LIST = "VALUE_NOT_IN_LIST"
ARRAY_LENGTH_NOT_IN_LIST = "ARRAY_LENGTH_NOT_IN_LIST"
EMPTY_ENTITY = "EMPTY_ENTITY"
DUPLICATE_ELEMENTS = "DUPLICATE_ELEMENTS"
INVALID_INDEX = "INVALID_INDEX"
UNRESOLVED_REFERENCE = "UNRESOLVED_REFERENCE"
UNSATISFIED_DEPENDENCY = "UNSATISFIED_DEPENDENCY"
ONE_OF_MISMATCH = "ONE_OF_MISMATCH"
ROTATION_NON_UNIT = "ROTATION_NON_UNIT"

# Physics fork codes (2024-10 names; the 2024-07 branch spells the shape codes KHR_COLLISION_SHAPES_*).
COMPOUND_SHAPE = "COMPOUND_SHAPE"
DEGENERATE_SHAPE = "DEGENERATE_SHAPE"
DUPLICATE_WEIGHTS = "DUPLICATE_WEIGHTS"
SHAPE_WEIGHTS_INVALID = "SHAPE_WEIGHTS_INVALID"
JOINT_INVALID_RANGE = "KHR_RIGID_BODIES_JOINT_INVALID_RANGE"
JOINT_LIMITS_INCORRECT_SIZE = "KHR_RIGID_BODIES_JOINT_LIMITS_INCORRECT_SIZE"
JOINT_LIMITS_INVALID_AXIS = "KHR_RIGID_BODIES_JOINT_LIMITS_INVALID_AXIS"
FILTER_INVALID_SET = "KHR_RIGID_BODIES_COLLISION_FILTER_INVALID_FILTER_SET"
TRIGGER_NODES_INVALID = "KHR_RIGID_BODIES_TRIGGER_NODES_INVALID"

IMPLICIT_PREFIX = "KHR_IMPLICIT_SHAPES_"
COLLISION_PREFIX = "KHR_COLLISION_SHAPES_"

# Our own codes.
OWN_PREFIX = "GLTF_PHYSICS_"
INTERNAL_ERROR = "GLTF_PHYSICS_INTERNAL_ERROR"
VALUE_NOT_USABLE = "GLTF_PHYSICS_VALUE_NOT_USABLE"  # an enum value without a default: the object is unusable
NOT_DECLARED = "GLTF_PHYSICS_EXTENSION_NOT_DECLARED"
INFINITE_MASS = "GLTF_PHYSICS_INFINITE_MASS"
INFINITE_INERTIA = "GLTF_PHYSICS_INFINITE_INERTIA"
JOINT_SELF_CONNECTED = "GLTF_PHYSICS_JOINT_SELF_CONNECTED"
TRIGGER_NODE_NOT_DESCENDANT = "GLTF_PHYSICS_TRIGGER_NODE_NOT_DESCENDANT"
GEOMETRY_NOT_EXACTLY_ONE = "GLTF_PHYSICS_GEOMETRY_NOT_EXACTLY_ONE"
GEOMETRY_NODE_WITHOUT_MESH = "GLTF_PHYSICS_GEOMETRY_NODE_WITHOUT_MESH"
LEGACY_COLLIDER_SHAPE = "GLTF_PHYSICS_LEGACY_COLLIDER_SHAPE"
COLLIDER_ZERO_SCALE = "GLTF_PHYSICS_COLLIDER_ZERO_SCALE"
MOTION_IN_SKIN_JOINTS = "GLTF_PHYSICS_MOTION_IN_SKIN_JOINTS"
UNKNOWN_SHAPE_TYPE = "GLTF_PHYSICS_UNKNOWN_SHAPE_TYPE"
SHAPE_TYPE_MISMATCH = "GLTF_PHYSICS_SHAPE_TYPE_MISMATCH"
SHAPE_PARAMETERS_MISSING = "GLTF_PHYSICS_SHAPE_PARAMETERS_MISSING"
CONVEX_HULL_IGNORED = "GLTF_PHYSICS_CONVEX_HULL_IGNORED"
OMI_DEGENERATE_SHAPE = "GLTF_PHYSICS_DEGENERATE_SHAPE"
OMI_LEGACY_CAPSULE_HEIGHT = "GLTF_PHYSICS_OMI_LEGACY_CAPSULE_HEIGHT"
OMI_LIMIT_BOTH_AXES = "GLTF_PHYSICS_OMI_LIMIT_BOTH_AXES"
OMI_LEGACY_FORM = "GLTF_PHYSICS_OMI_LEGACY_FORM"
OMI_EMPTY_TRIGGER = "GLTF_PHYSICS_OMI_EMPTY_TRIGGER"
DRIVE_TARGET_WITHOUT_GAIN = "GLTF_PHYSICS_DRIVE_TARGET_WITHOUT_GAIN"
OMI_MOTION_TYPE_MISSING = "GLTF_PHYSICS_OMI_MOTION_TYPE_MISSING"
FLOAT32_OVERFLOW = "GLTF_PHYSICS_FLOAT32_OVERFLOW"
OMI_NO_SHAPE = "GLTF_PHYSICS_OMI_NO_SHAPE"

# Codes of the Blender side, not of the validator (docs/export.md, docs/import.md); each has one severity.
# WARNING: a Blender setting changes how the scene plays and the exported file cannot say it (export, convert).
EXPORT_PLAYS_DIFFERENTLY = "GLTF_PHYSICS_EXPORT_PLAYS_DIFFERENTLY"
# WARNING: a Blender setting kept in ``extras`` (``mapping.blender_settings``) cannot be read back: ignored (import).
BLENDER_SETTING_INVALID = "GLTF_PHYSICS_BLENDER_SETTING_INVALID"

_P = "/nodes/0/extensions/KHR_physics_rigid_bodies"
_J = "/extensions/KHR_physics_rigid_bodies/physicsJoints/0"
_S = "/extensions/KHR_implicit_shapes/shapes/0"

#: Code → an example pointer (docs/diagnostics.md's table); severity and meaning are the registry's.
EXAMPLES: dict[str, str] = {
    TYPE_MISMATCH: f"{_P}/collider/geometry/shape",
    UNDEFINED_PROPERTY: f"{_P}/joint",
    UNEXPECTED_PROPERTY: f"{_P}/customProperty",
    VALUE_NOT_IN_RANGE: f"{_P}/motion/mass",
    VALUE_NOT_IN_LIST: "/extensions/KHR_physics_rigid_bodies/physicsMaterials/0/frictionCombine",
    ARRAY_LENGTH_NOT_IN_LIST: f"{_P}/motion/centerOfMass",
    EMPTY_ENTITY: "/extensions/KHR_physics_rigid_bodies/physicsMaterials",
    DUPLICATE_ELEMENTS: f"{_J}/limits/0/linearAxes/1",
    INVALID_INDEX: f"{_J}/limits/0/linearAxes/0",
    UNRESOLVED_REFERENCE: f"{_P}/collider/geometry/shape",
    UNSATISFIED_DEPENDENCY: f"{_P}/collider/geometry",
    ONE_OF_MISMATCH: f"{_P}/trigger",
    ROTATION_NON_UNIT: f"{_P}/motion/inertiaOrientation",
    IMPLICIT_PREFIX + COMPOUND_SHAPE: f"{_S}/box",
    IMPLICIT_PREFIX + DEGENERATE_SHAPE: f"{_S}/sphere/radius",
    COLLISION_PREFIX + COMPOUND_SHAPE: "/extensions/KHR_collision_shapes/shapes/0/box",
    COLLISION_PREFIX + DEGENERATE_SHAPE: "/extensions/KHR_collision_shapes/shapes/0/capsule",
    COLLISION_PREFIX + DUPLICATE_WEIGHTS: "/extensions/KHR_collision_shapes/shapes/0/mesh",
    IMPLICIT_PREFIX + DUPLICATE_WEIGHTS: f"{_S}/mesh",
    SHAPE_WEIGHTS_INVALID: "/extensions/KHR_collision_shapes/shapes/0/mesh/weights",
    JOINT_INVALID_RANGE: f"{_J}/limits/0",
    JOINT_LIMITS_INCORRECT_SIZE: f"{_J}/limits/0/angularAxes",
    JOINT_LIMITS_INVALID_AXIS: f"{_J}/limits/0/linearAxes/0",
    FILTER_INVALID_SET: "/extensions/KHR_physics_rigid_bodies/collisionFilters/0",
    TRIGGER_NODES_INVALID: f"{_P}/trigger/nodes/0",
    INTERNAL_ERROR: f"{_P}",
    VALUE_NOT_USABLE: f"{_J}/drives/0/type",
    NOT_DECLARED: f"{_P}",
    INFINITE_MASS: f"{_P}/motion/mass",
    INFINITE_INERTIA: f"{_P}/motion/inertiaDiagonal/1",
    JOINT_SELF_CONNECTED: f"{_P}/joint/connectedNode",
    TRIGGER_NODE_NOT_DESCENDANT: f"{_P}/trigger/nodes/0",
    GEOMETRY_NOT_EXACTLY_ONE: f"{_P}/collider/geometry",
    GEOMETRY_NODE_WITHOUT_MESH: f"{_P}/collider/geometry/node",
    LEGACY_COLLIDER_SHAPE: f"{_P}/collider/shape",
    COLLIDER_ZERO_SCALE: f"{_P}/collider",
    MOTION_IN_SKIN_JOINTS: f"{_P}/motion",
    UNKNOWN_SHAPE_TYPE: f"{_S}/type",
    SHAPE_TYPE_MISMATCH: f"{_S}/sphere",
    SHAPE_PARAMETERS_MISSING: "/extensions/OMI_physics_shape/shapes/0",
    CONVEX_HULL_IGNORED: "/extensions/KHR_collision_shapes/shapes/0/extensions/KHR_physics_rigid_bodies",
    OMI_DEGENERATE_SHAPE: "/extensions/OMI_physics_shape/shapes/0/sphere/radius",
    OMI_LEGACY_CAPSULE_HEIGHT: "/extensions/OMI_physics_shape/shapes/0/capsule/height",
    OMI_LIMIT_BOTH_AXES: "/extensions/OMI_physics_joint/physicsJoints/0/limits/0",
    OMI_LEGACY_FORM: "/nodes/0/extensions/OMI_physics_body/type",
    DRIVE_TARGET_WITHOUT_GAIN: f"{_J}/drives/0/positionTarget",
    OMI_EMPTY_TRIGGER: "/nodes/0/extensions/OMI_physics_body/trigger",
    OMI_MOTION_TYPE_MISSING: "/nodes/0/extensions/OMI_physics_body/motion",
    FLOAT32_OVERFLOW: f"{_P}/motion/mass",
    OMI_NO_SHAPE: "/nodes/0/extensions/OMI_physics_body/collider/shape",
}

#: The validator's codes as documented: severity and meaning from the one registry (``io/diagnostic_codes``).
CODES: dict[str, CodeInfo] = {
    code: CodeInfo(REGISTRY[code].severity, REGISTRY[code].meaning, example) for code, example in EXAMPLES.items()
}
