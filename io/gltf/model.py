"""The normalized, revision-independent physics model (bpy-free).

One model holds the physics data of every supported revision (KHR 2026, KHR 2024-10..2025-10, KHR 2024-07,
OMI current and OMI legacy).  Readers (``read_khr``/``read_omi``, driven by ``parse.parse_gltf``) fill it, writers
(``write_khr``/``write_omi``) serialize it.  Conventions:

* snake_case attributes; the camelCase JSON names are in the ``*_KEYS`` maps next to each class;
* schema defaults are applied where the schema has one; ``None`` means "absent" where absence has a meaning
  (mass absent = computed, limit min/max absent = unbounded, limit stiffness absent = hard limit, combine mode
  absent = engine's choice, center of mass / inertia absent = computed, plane size absent = infinite);
* vectors are tuples of floats; quaternions are glTF order (x, y, z, w);
* every object keeps ``extras`` (``None`` = absent), nested ``extensions`` and ``unknown`` keys verbatim so writers
  can put them back;
* ``source`` records the revision an object was read from (one of the ``REV_*`` constants); it is excluded from
  equality so that a model read back from another revision compares equal when nothing was lost.

Indices (``shape``, ``material``, ``filter``, ``joint``, node and mesh indices) are glTF ids into the document's
lists (``PhysicsDocument.shapes`` …) or into the glTF ``nodes`` / ``meshes`` arrays.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

Vec3 = tuple[float, float, float]
Quat = tuple[float, float, float, float]

# Motion kinds.
DYNAMIC = "dynamic"
KINEMATIC = "kinematic"
STATIC = "static"  # only representable in OMI

# Shape types known to the model (other strings are kept as "unknown" shapes).
BOX, SPHERE, CAPSULE, CYLINDER, PLANE, MESH = "box", "sphere", "capsule", "cylinder", "plane", "mesh"
IMPLICIT_TYPES = (BOX, SPHERE, CAPSULE, CYLINDER, PLANE)
COMBINE_MODES = ("average", "minimum", "maximum", "multiply")


@dataclass(kw_only=True)
class Passthrough:
    """Fields every glTF property has: kept verbatim and written back unchanged."""

    extras: Any = None
    extensions: dict = field(default_factory=dict)
    unknown: dict = field(default_factory=dict)


# --- shapes -----------------------------------------------------------------------------------------------------


@dataclass(kw_only=True)
class BoxShape(Passthrough):
    """Box ``size`` (full extents, local X, Y, Z)."""

    size: Vec3 = (1.0, 1.0, 1.0)


@dataclass(kw_only=True)
class SphereShape(Passthrough):
    radius: float = 0.5


@dataclass(kw_only=True)
class CapsuleShape(Passthrough):
    """Capsule along local Y; ``height`` = distance between the two sphere centres (KHR meaning)."""

    height: float = 0.5
    radius_top: float = 0.25
    radius_bottom: float = 0.25


@dataclass(kw_only=True)
class CylinderShape(Passthrough):
    """Cylinder along local Y centred at the origin; a cone has one radius 0."""

    height: float = 0.5
    radius_top: float = 0.25
    radius_bottom: float = 0.25


@dataclass(kw_only=True)
class PlaneShape(Passthrough):
    """Plane with normal +Y; ``size_x``/``size_z`` None = infinite."""

    size_x: float | None = None
    size_z: float | None = None
    double_sided: bool = False


@dataclass(kw_only=True)
class MeshShape(Passthrough):
    """KHR 2024-07 ``mesh`` shape (``KHR_collision_shapes``); ``convex_hull`` is the shape-level flag."""

    mesh: int
    skin: int | None = None
    weights: tuple[float, ...] | None = None
    use_node_weights: bool = False
    convex_hull: bool = False
    # extras/extensions/unknown of the shape-level KHR_physics_rigid_bodies object (convexHull holder)
    hull_passthrough: Passthrough | None = None


ShapeParams = BoxShape | SphereShape | CapsuleShape | CylinderShape | PlaneShape | MeshShape

BOX_KEYS = {"size": "size"}
SPHERE_KEYS = {"radius": "radius"}
CAPSULE_KEYS = {"height": "height", "radius_top": "radiusTop", "radius_bottom": "radiusBottom"}
CYLINDER_KEYS = CAPSULE_KEYS
PLANE_KEYS = {"size_x": "sizeX", "size_z": "sizeZ", "double_sided": "doubleSided"}
MESH_KEYS = {"mesh": "mesh", "skin": "skin", "weights": "weights", "use_node_weights": "useNodeWeights"}
PARAM_CLASSES: dict[str, type] = {
    BOX: BoxShape,
    SPHERE: SphereShape,
    CAPSULE: CapsuleShape,
    CYLINDER: CylinderShape,
    PLANE: PlaneShape,
    MESH: MeshShape,
}
PARAM_KEYS: dict[str, dict[str, str]] = {
    BOX: BOX_KEYS,
    SPHERE: SPHERE_KEYS,
    CAPSULE: CAPSULE_KEYS,
    CYLINDER: CYLINDER_KEYS,
    PLANE: PLANE_KEYS,
    MESH: MESH_KEYS,
}


@dataclass(kw_only=True)
class Shape(Passthrough):
    """A document-level shape.  ``params`` is None for unknown ``type`` strings (their sub-objects stay in
    ``unknown``)."""

    type: str
    params: ShapeParams | None = None
    name: str | None = None
    source: str | None = field(default=None, compare=False)


# --- document-level resources -------------------------------------------------------------------------------------


@dataclass(kw_only=True)
class PhysicsMaterial(Passthrough):
    static_friction: float = 0.6
    dynamic_friction: float = 0.6
    restitution: float = 0.0
    friction_combine: str | None = None  # None = engine's choice (KHR); OMI README says "average"
    restitution_combine: str | None = None
    name: str | None = None
    source: str | None = field(default=None, compare=False)


MATERIAL_KEYS = {
    "static_friction": "staticFriction",
    "dynamic_friction": "dynamicFriction",
    "restitution": "restitution",
    "friction_combine": "frictionCombine",
    "restitution_combine": "restitutionCombine",
}


@dataclass(kw_only=True)
class CollisionFilter(Passthrough):
    """Lists are None when absent (absent ``collide_with_systems`` = collide with all)."""

    collision_systems: tuple[str, ...] | None = None
    collide_with_systems: tuple[str, ...] | None = None
    not_collide_with_systems: tuple[str, ...] | None = None
    name: str | None = None
    source: str | None = field(default=None, compare=False)


FILTER_KEYS = {
    "collision_systems": "collisionSystems",
    "collide_with_systems": "collideWithSystems",
    "not_collide_with_systems": "notCollideWithSystems",
}


@dataclass(kw_only=True)
class JointLimit(Passthrough):
    """Exactly one of ``linear_axes`` / ``angular_axes`` is set (readers split OMI limits carrying both)."""

    linear_axes: tuple[int, ...] | None = None
    angular_axes: tuple[int, ...] | None = None
    min: float | None = None  # None = unbounded
    max: float | None = None  # None = unbounded
    stiffness: float | None = None  # None = infinitely stiff (hard limit)
    damping: float = 0.0


LIMIT_KEYS = {
    "linear_axes": "linearAxes",
    "angular_axes": "angularAxes",
    "min": "min",
    "max": "max",
    "stiffness": "stiffness",
    "damping": "damping",
}


@dataclass(kw_only=True)
class JointDrive(Passthrough):
    type: str  # "linear" | "angular" | other string
    mode: str  # "force" | "acceleration" | other string
    axis: int
    max_force: float | None = None  # None = unlimited
    position_target: float | None = None
    velocity_target: float | None = None
    stiffness: float = 0.0
    damping: float = 0.0


DRIVE_KEYS = {
    "type": "type",
    "mode": "mode",
    "axis": "axis",
    "max_force": "maxForce",
    "position_target": "positionTarget",
    "velocity_target": "velocityTarget",
    "stiffness": "stiffness",
    "damping": "damping",
}


@dataclass(kw_only=True)
class JointDescription(Passthrough):
    limits: list[JointLimit] = field(default_factory=list)
    drives: list[JointDrive] = field(default_factory=list)
    name: str | None = None
    source: str | None = field(default=None, compare=False)


# --- node-level objects -------------------------------------------------------------------------------------------


@dataclass(kw_only=True)
class Motion(Passthrough):
    """A rigid body.  ``kind`` is dynamic / kinematic / static (static only comes from and goes to OMI)."""

    kind: str = DYNAMIC
    mass: float | None = None  # None = computed from the colliders (KHR); OMI absent is read as 1.0
    center_of_mass: Vec3 | None = None  # None = computed
    inertia_diagonal: Vec3 | None = None  # None = computed; KHR 0 components = infinite (never from OMI)
    inertia_orientation: Quat | None = None  # None = identity / computed
    linear_velocity: Vec3 = (0.0, 0.0, 0.0)
    angular_velocity: Vec3 = (0.0, 0.0, 0.0)
    gravity_factor: float = 1.0


MOTION_KEYS = {
    "mass": "mass",
    "center_of_mass": "centerOfMass",
    "inertia_diagonal": "inertiaDiagonal",
    "inertia_orientation": "inertiaOrientation",
    "linear_velocity": "linearVelocity",
    "angular_velocity": "angularVelocity",
    "gravity_factor": "gravityFactor",
}


@dataclass(kw_only=True)
class Geometry(Passthrough):
    """Collider/trigger geometry: exactly one of ``shape`` (document shape index), ``mesh`` (glTF mesh index,
    KHR 2026 / OMI convex+trimesh) or ``node`` (glTF node index whose mesh is the geometry, KHR 2024-10)."""

    shape: int | None = None
    mesh: int | None = None
    node: int | None = None
    convex_hull: bool = False


@dataclass(kw_only=True)
class Collider(Passthrough):
    """``geometry`` None = OMI compound grouping collider without a shape (not representable in KHR)."""

    geometry: Geometry | None = None
    material: int | None = None
    filter: int | None = None


@dataclass(kw_only=True)
class Trigger(Passthrough):
    """Simple trigger (``geometry``) XOR compound trigger (``nodes``); ``filter`` only with geometry.

    Both None = OMI grouping trigger (``"trigger": {}``): a compound of the descendant simple triggers."""

    geometry: Geometry | None = None
    nodes: tuple[int, ...] | None = None
    filter: int | None = None


@dataclass(kw_only=True)
class Frame:
    """A local transform (translation, rotation xyzw, scale) relative to a node."""

    translation: Vec3 = (0.0, 0.0, 0.0)
    rotation: Quat = (0.0, 0.0, 0.0, 1.0)
    scale: Vec3 = (1.0, 1.0, 1.0)


@dataclass(kw_only=True)
class LegacyPivot:
    """Legacy OMI joint (``{constraints, nodeA, nodeB}``): the joint node is a pivot, not frame A.

    ``body_a``/``body_b`` are the legacy ``nodeA``/``nodeB``; ``frame_a``/``frame_b`` are the joint node's world
    transform expressed in body A's / body B's local space (None when it could not be computed, e.g. a bad
    hierarchy).  Writers of the current form synthesize a child node under each body with these frames; an importer
    puts one constraint object at the joint node's world transform.
    """

    body_a: int
    body_b: int
    frame_a: Frame | None = None
    frame_b: Frame | None = None


@dataclass(kw_only=True)
class NodeJoint(Passthrough):
    """A joint: the node holding it is frame A, ``connected_node`` is frame B (current KHR/OMI form).

    For a legacy OMI joint ``legacy_pivot`` is set: then the holding node is the pivot, ``connected_node`` equals
    ``legacy_pivot.body_b`` and frame A is ``legacy_pivot.frame_a`` under ``legacy_pivot.body_a``.
    """

    connected_node: int
    joint: int
    enable_collision: bool = False
    legacy_pivot: LegacyPivot | None = None


@dataclass(kw_only=True)
class NodePhysics(Passthrough):
    """Everything physics on one glTF node; passthrough fields belong to the node-level extension object
    (``KHR_physics_rigid_bodies`` or ``OMI_physics_body``)."""

    node: int
    motion: Motion | None = None
    collider: Collider | None = None
    trigger: Trigger | None = None
    joint: NodeJoint | None = None
    source: str | None = field(default=None, compare=False)

    def is_empty(self) -> bool:
        return not (self.motion or self.collider or self.trigger or self.joint)


@dataclass(kw_only=True)
class PhysicsDocument:
    """The physics of one glTF document.

    ``root`` keeps the passthrough fields of the document-level extension objects by role: ``"bodies"``
    (``KHR_physics_rigid_bodies`` / ``OMI_physics_body`` root), ``"shapes"`` (``KHR_implicit_shapes`` /
    ``KHR_collision_shapes`` / ``OMI_physics_shape`` root) and ``"joints"`` (``OMI_physics_joint`` root).
    ``revisions`` lists every revision label detected in the file.
    """

    shapes: list[Shape] = field(default_factory=list)
    materials: list[PhysicsMaterial] = field(default_factory=list)
    filters: list[CollisionFilter] = field(default_factory=list)
    joints: list[JointDescription] = field(default_factory=list)
    nodes: dict[int, NodePhysics] = field(default_factory=dict)
    root: dict[str, Passthrough] = field(default_factory=dict)
    revisions: set[str] = field(default_factory=set, compare=False)

    def node(self, index: int) -> NodePhysics:
        """The NodePhysics of glTF node ``index``, created on first use."""
        if index not in self.nodes:
            self.nodes[index] = NodePhysics(node=index)
        return self.nodes[index]

    def is_empty(self) -> bool:
        return not (
            self.shapes
            or self.materials
            or self.filters
            or self.joints
            or any(not n.is_empty() for n in self.nodes.values())
        )
