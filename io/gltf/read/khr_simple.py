"""The short way of reading a plain KHR node object (issue 14: import speed), bpy-free.

Most physics nodes of a file are a ``motion`` with numbers, a ``collider`` whose ``geometry`` is one shape or mesh,
or a ``joint``, with no ``extras``, ``extensions`` or unknown members. ``read_simple_khr_node`` reads such a node
straight into the model, with the same values ``khr.read_khr_node`` gives it; for anything else (a trigger, a
``geometry.node``, a legacy ``shape``, a passthrough member, a dropped unit anywhere in the file, a value or a
reference the full reader would report) it changes nothing and answers False, and the full reader runs.
"""

from __future__ import annotations

import math

from ..model import (
    DYNAMIC,
    KINEMATIC,
    REV_KHR_2024_07,
    REV_KHR_2024_10,
    REV_KHR_2026,
    Collider,
    Geometry,
    Motion,
    NodeJoint,
    NodePhysics,
    PhysicsDocument,
)
from .common import ReadContext
from .resources import IndexMap

REVISION_ORDER = (REV_KHR_2024_07, REV_KHR_2024_10, REV_KHR_2026)  # the node's source: the newest form it uses
_NODE_KEYS = frozenset({"motion", "collider", "joint"})
_MOTION_KEYS = frozenset(
    {"isKinematic", "mass", "centerOfMass", "inertiaDiagonal", "inertiaOrientation", "linearVelocity"}
    | {"angularVelocity", "gravityFactor"}
)
_COLLIDER_KEYS = frozenset({"geometry", "physicsMaterial", "collisionFilter"})
_GEOMETRY_KEYS = frozenset({"shape", "mesh", "convexHull"})
_JOINT_KEYS = frozenset({"connectedNode", "joint", "enableCollision"})
_EXACT_INT = 2**53  # integers below this convert to float exactly (larger ones take the full reader)
_ZERO = (0.0, 0.0, 0.0)


class KhrMaps:
    """Index maps for one file: implicit shapes, collision shapes, materials, filters, joints (``khr``)."""

    def __init__(self):
        self.implicit = IndexMap("shape")
        self.collision = IndexMap("shape")
        self.materials = IndexMap("physics material")
        self.filters = IndexMap("collision filter")
        self.joints = IndexMap("physics joint")
        self.has_implicit = False
        self.has_collision = False


class _NotSimpleError(Exception):
    """Internal: this node takes the full reader."""


def read_simple_khr_node(ctx: ReadContext, doc: PhysicsDocument, index: int, ext: dict, maps: KhrMaps) -> bool:
    """Read node ``index``'s plain ``KHR_physics_rigid_bodies`` object into ``doc``; False (nothing read) when it
    is not plain."""
    if ctx.dropped or not ext.keys() <= _NODE_KEYS:
        return False
    revs: set[str] = set()
    try:
        motion = _motion(ext["motion"]) if "motion" in ext else None
        collider = _collider(ctx, ext["collider"], maps, revs) if "collider" in ext else None
        joint = _joint(ctx, ext["joint"], maps) if "joint" in ext else None
    except _NotSimpleError:
        return False
    node = NodePhysics(node=index, motion=motion, collider=collider, joint=joint)
    if not revs:
        revs.add(REV_KHR_2024_07 if maps.has_collision and not maps.has_implicit else REV_KHR_2024_10)
    node.source = max(revs, key=REVISION_ORDER.index)
    doc.revisions.update(revs)
    doc.nodes[index] = node
    return True


def _number(value: object) -> float:
    kind = type(value)
    if (kind is float and math.isfinite(value)) or (kind is int and -_EXACT_INT < value < _EXACT_INT):
        return float(value)
    raise _NotSimpleError


def _vector(value: object, size: int) -> tuple:
    if type(value) is not list or len(value) != size:
        raise _NotSimpleError
    return tuple([_number(v) for v in value])


def _object(value: object, keys: frozenset) -> dict:
    if type(value) is not dict or not value.keys() <= keys:
        raise _NotSimpleError
    return value


def _flag(d: dict, key: str) -> bool:
    value = d.get(key, False)
    if type(value) is not bool:
        raise _NotSimpleError
    return value


def _mapped(index_map: IndexMap, value: object) -> int:
    """The model index of a document-level item the file references (kept, not dropped)."""
    if type(value) is not int or value not in index_map.mapping:
        raise _NotSimpleError
    return index_map.mapping[value]


def _motion(value: object) -> Motion:
    d = _object(value, _MOTION_KEYS)
    return Motion(
        kind=KINEMATIC if _flag(d, "isKinematic") else DYNAMIC,
        mass=_number(d["mass"]) if "mass" in d else None,
        center_of_mass=_vector(d["centerOfMass"], 3) if "centerOfMass" in d else None,
        inertia_diagonal=_vector(d["inertiaDiagonal"], 3) if "inertiaDiagonal" in d else None,
        inertia_orientation=_vector(d["inertiaOrientation"], 4) if "inertiaOrientation" in d else None,
        linear_velocity=_vector(d["linearVelocity"], 3) if "linearVelocity" in d else _ZERO,
        angular_velocity=_vector(d["angularVelocity"], 3) if "angularVelocity" in d else _ZERO,
        gravity_factor=_number(d["gravityFactor"]) if "gravityFactor" in d else 1.0,
    )


def _collider(ctx: ReadContext, value: object, maps: KhrMaps, revs: set[str]) -> Collider:
    d = _object(value, _COLLIDER_KEYS)
    if "geometry" not in d:
        raise _NotSimpleError
    g = _object(d["geometry"], _GEOMETRY_KEYS)
    geometry = Geometry(convex_hull=_flag(g, "convexHull"))
    if ("shape" in g) == ("mesh" in g):
        raise _NotSimpleError
    if "shape" in g:  # geometry.shape prefers KHR_implicit_shapes (khr._shape_ref)
        shapes = maps.collision if maps.has_collision and not maps.has_implicit else maps.implicit
        geometry.shape = _mapped(shapes, g["shape"])
    else:
        mesh = g["mesh"]
        if type(mesh) is not int or not 0 <= mesh < ctx.mesh_count:
            raise _NotSimpleError
        geometry.mesh = mesh
        revs.add(REV_KHR_2026)
    return Collider(
        geometry=geometry,
        material=_mapped(maps.materials, d["physicsMaterial"]) if "physicsMaterial" in d else None,
        filter=_mapped(maps.filters, d["collisionFilter"]) if "collisionFilter" in d else None,
    )


def _joint(ctx: ReadContext, value: object, maps: KhrMaps) -> NodeJoint:
    d = _object(value, _JOINT_KEYS)
    connected = d.get("connectedNode")
    if type(connected) is not int or not 0 <= connected < ctx.node_count:
        raise _NotSimpleError
    return NodeJoint(
        connected_node=connected,
        joint=_mapped(maps.joints, d.get("joint")),
        enable_collision=_flag(d, "enableCollision"),
    )
