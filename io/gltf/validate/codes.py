"""Stable diagnostic codes of the physics validator, with severity, meaning and an example pointer.

Codes without the ``GLTF_PHYSICS_`` prefix are the ones the physics fork of the Khronos glTF-Validator uses
(eoineoineoin/glTF-Validator, branch ``khr_rigid_bodies``), with the same names and pointers; the ``GLTF_PHYSICS_``
codes are ours. ``docs/diagnostics.md`` documents the same table (a unit test keeps them in sync).
"""

from __future__ import annotations

from dataclasses import dataclass

from ...diagnostics import Severity

E, W, I = Severity.ERROR, Severity.WARNING, Severity.INFO  # noqa: E741


@dataclass(frozen=True)
class CodeInfo:
    """Documentation of one code."""

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

CODES: dict[str, CodeInfo] = {
    TYPE_MISMATCH: CodeInfo(
        E, "A value has the wrong JSON type (also: the document is not an object).", f"{_P}/collider/geometry/shape"
    ),
    UNDEFINED_PROPERTY: CodeInfo(
        E, "A required property is missing (pointer: the object that lacks it).", f"{_P}/joint"
    ),
    UNEXPECTED_PROPERTY: CodeInfo(W, "A property the schema does not define.", f"{_P}/customProperty"),
    VALUE_NOT_IN_RANGE: CodeInfo(
        E,
        "A number outside its schema range or not finite: negative mass, friction, "
        "restitution, stiffness, damping, maxForce, size or radius; drive axis > 2.",
        f"{_P}/motion/mass",
    ),
    VALUE_NOT_IN_LIST: CodeInfo(
        W,
        "A string outside its enum (combine modes: warning; drive type/mode and OMI "
        "motion/shape types, which make the object unusable: error).",
        "/extensions/KHR_physics_rigid_bodies/physicsMaterials/0/frictionCombine",
    ),
    ARRAY_LENGTH_NOT_IN_LIST: CodeInfo(
        E, "A vector has the wrong length (float3, quaternion).", f"{_P}/motion/centerOfMass"
    ),
    EMPTY_ENTITY: CodeInfo(
        E,
        "An array that must not be empty is empty (empty limit axes count as absent).",
        "/extensions/KHR_physics_rigid_bodies/physicsMaterials",
    ),
    DUPLICATE_ELEMENTS: CodeInfo(E, "An array that must be unique repeats an element.", f"{_J}/limits/0/linearAxes/1"),
    INVALID_INDEX: CodeInfo(E, "An index is negative (OMI: below -1).", f"{_J}/limits/0/linearAxes/0"),
    UNRESOLVED_REFERENCE: CodeInfo(
        E,
        "An index points past the end of its array (shape, material, filter, joint, node, mesh, skin, OMI collider).",
        f"{_P}/collider/geometry/shape",
    ),
    UNSATISFIED_DEPENDENCY: CodeInfo(
        E,
        "A node references a document-level object (shapes, materials, filters, "
        "joints) but that root extension object is missing.",
        f"{_P}/collider/geometry",
    ),
    ONE_OF_MISMATCH: CodeInfo(
        E,
        "Exactly one of two properties must be present: trigger geometry|shape vs nodes, "
        "nodes with collisionFilter, limit linearAxes vs angularAxes.",
        f"{_P}/trigger",
    ),
    ROTATION_NON_UNIT: CodeInfo(E, "inertiaOrientation is not a unit quaternion.", f"{_P}/motion/inertiaOrientation"),
    IMPLICIT_PREFIX + COMPOUND_SHAPE: CodeInfo(E, "A shape carries more than one shape sub-object.", f"{_S}/box"),
    IMPLICIT_PREFIX + DEGENERATE_SHAPE: CodeInfo(
        I,
        "Zero sphere radius, box size, capsule/cylinder height, both radii zero, zero capsule extent, zero plane size.",
        f"{_S}/sphere/radius",
    ),
    COLLISION_PREFIX + COMPOUND_SHAPE: CodeInfo(
        E, "2024-07 spelling of the compound-shape code.", "/extensions/KHR_collision_shapes/shapes/0/box"
    ),
    COLLISION_PREFIX + DEGENERATE_SHAPE: CodeInfo(
        I, "2024-07 spelling of the degenerate-shape code.", "/extensions/KHR_collision_shapes/shapes/0/capsule"
    ),
    COLLISION_PREFIX + DUPLICATE_WEIGHTS: CodeInfo(
        E, "A 2024-07 mesh shape has both weights and useNodeWeights.", "/extensions/KHR_collision_shapes/shapes/0/mesh"
    ),
    IMPLICIT_PREFIX + DUPLICATE_WEIGHTS: CodeInfo(
        E, "Same as above, for mesh shapes found in KHR_implicit_shapes.", f"{_S}/mesh"
    ),
    SHAPE_WEIGHTS_INVALID: CodeInfo(
        E,
        "A mesh shape's weights length differs from the mesh's morph-target count.",
        "/extensions/KHR_collision_shapes/shapes/0/mesh/weights",
    ),
    JOINT_INVALID_RANGE: CodeInfo(
        E, "A joint limit has min > max (also OMI lowerLimit > upperLimit).", f"{_J}/limits/0"
    ),
    JOINT_LIMITS_INCORRECT_SIZE: CodeInfo(
        E, "A limit axes array has more than 3 entries.", f"{_J}/limits/0/angularAxes"
    ),
    JOINT_LIMITS_INVALID_AXIS: CodeInfo(E, "A limit axis index is outside 0..2.", f"{_J}/limits/0/linearAxes/0"),
    FILTER_INVALID_SET: CodeInfo(
        E,
        "A collision filter has both collideWithSystems and notCollideWithSystems.",
        "/extensions/KHR_physics_rigid_bodies/collisionFilters/0",
    ),
    TRIGGER_NODES_INVALID: CodeInfo(
        E, "A compound trigger lists a node that does not carry a simple trigger.", f"{_P}/trigger/nodes/0"
    ),
    INTERNAL_ERROR: CodeInfo(
        E,
        "The validator itself failed on this object (a bug); the object is reported instead of raising.",
        "/nodes/0/extensions/KHR_physics_rigid_bodies",
    ),
    NOT_DECLARED: CodeInfo(
        W,
        "A physics extension is used but not listed in extensionsUsed.",
        "/nodes/0/extensions/KHR_physics_rigid_bodies",
    ),
    INFINITE_MASS: CodeInfo(
        I, "mass is 0: infinite mass per the KHR README (schema says > 0); accepted.", f"{_P}/motion/mass"
    ),
    INFINITE_INERTIA: CodeInfo(
        I, "An inertiaDiagonal component is 0: that axis cannot rotate (KHR README).", f"{_P}/motion/inertiaDiagonal/1"
    ),
    JOINT_SELF_CONNECTED: CodeInfo(
        E, "A joint's connectedNode is its own node (OMI legacy: nodeA == nodeB).", f"{_P}/joint/connectedNode"
    ),
    TRIGGER_NODE_NOT_DESCENDANT: CodeInfo(
        W, "A compound trigger lists a node that is not its descendant.", f"{_P}/trigger/nodes/0"
    ),
    GEOMETRY_NOT_EXACTLY_ONE: CodeInfo(
        E, "A geometry has none or more than one of shape / node / mesh.", f"{_P}/collider/geometry"
    ),
    GEOMETRY_NODE_WITHOUT_MESH: CodeInfo(
        W, "geometry.node points at a node without a mesh in its subtree.", f"{_P}/collider/geometry/node"
    ),
    LEGACY_COLLIDER_SHAPE: CodeInfo(
        I,
        "collider/trigger uses 'shape' (2024-07 form) where 'geometry' is expected; read as geometry.shape.",
        f"{_P}/collider/shape",
    ),
    COLLIDER_ZERO_SCALE: CodeInfo(
        W, "A collider or trigger sits on a node whose scale is all zero (disabled).", f"{_P}/collider"
    ),
    MOTION_IN_SKIN_JOINTS: CodeInfo(
        W, "A motion sits on a skin joint or inside a skin joint hierarchy.", f"{_P}/motion"
    ),
    UNKNOWN_SHAPE_TYPE: CodeInfo(
        W,
        "A KHR shape type we do not know (allowed by the schema, so other extensions "
        "can add types; the shape cannot be simulated).",
        f"{_S}/type",
    ),
    SHAPE_TYPE_MISMATCH: CodeInfo(
        E, "A shape carries a sub-object of another type but not the one of its type.", f"{_S}/sphere"
    ),
    SHAPE_PARAMETERS_MISSING: CodeInfo(
        I,
        "A 2024-07 or OMI primitive shape lacks its sub-object; defaults apply.",
        "/extensions/OMI_physics_shape/shapes/0",
    ),
    CONVEX_HULL_IGNORED: CodeInfo(
        I,
        "convexHull is set on a non-mesh shape, where it has no effect.",
        "/extensions/KHR_collision_shapes/shapes/0/extensions/KHR_physics_rigid_bodies",
    ),
    OMI_DEGENERATE_SHAPE: CodeInfo(
        I,
        "An OMI_physics_shape / OMI_collider shape has a zero size, radius or height.",
        "/extensions/OMI_physics_shape/shapes/0/sphere/radius",
    ),
    OMI_LEGACY_CAPSULE_HEIGHT: CodeInfo(
        W,
        "A legacy OMI capsule {radius, height=total} has height < 2·radius.",
        "/extensions/OMI_physics_shape/shapes/0/capsule/height",
    ),
    OMI_LIMIT_BOTH_AXES: CodeInfo(
        W,
        "An OMI joint limit carries both linearAxes and angularAxes (weld-style); read as two limits.",
        "/extensions/OMI_physics_joint/physicsJoints/0/limits/0",
    ),
    OMI_LEGACY_FORM: CodeInfo(
        I,
        "A legacy OMI form (body 'type', OMI_collider, node-level OMI_physics_shape, "
        "joint constraints/nodeA/nodeB) was recognised.",
        "/nodes/0/extensions/OMI_physics_body/type",
    ),
    DRIVE_TARGET_WITHOUT_GAIN: CodeInfo(
        I,
        "A drive has positionTarget without stiffness, velocityTarget without damping or the reverse (KHR 2024-10 "
        "schema dependencies).",
        "/extensions/KHR_physics_rigid_bodies/physicsJoints/0/drives/0/positionTarget",
    ),
    OMI_EMPTY_TRIGGER: CodeInfo(
        W,
        "An OMI trigger has neither shape nor nodes (used by OMI's own examples to group "
        "descendant triggers); read as such a grouping.",
        "/nodes/0/extensions/OMI_physics_body/trigger",
    ),
    OMI_MOTION_TYPE_MISSING: CodeInfo(
        W,
        "An OMI motion lacks the required 'type' (OMI's triggers example does this); read as dynamic.",
        "/nodes/0/extensions/OMI_physics_body/motion",
    ),
    FLOAT32_OVERFLOW: CodeInfo(
        W,
        "A number is beyond the 32-bit float range glTF stores (|v| > 3.4028235e38); importers and writers drop it.",
        "/nodes/0/extensions/KHR_physics_rigid_bodies/motion/mass",
    ),
    OMI_NO_SHAPE: CodeInfo(
        I,
        "An OMI collider, trigger or node-level shape writes 'shape': -1 (the schema default: no shape) explicitly.",
        "/nodes/0/extensions/OMI_physics_body/collider/shape",
    ),
}
