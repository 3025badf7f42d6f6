"""Recognise, cheaply, the KHR node objects the validator has nothing to report about (issue 14: import speed).

``clean_khr_node`` answers True only when the full checks of ``bodies.validate_khr_node`` (members, types, ranges,
references) would report nothing for the node's ``motion`` / ``collider`` / ``joint``: then only the checks that
depend on the hierarchy run (skin joints, zero scales). Anything it does not recognise (a trigger, a ``geometry.node``,
a legacy ``shape``, an unexpected member, any value near a limit) answers False and the full checks run, so the
diagnostics are the same either way; it never builds a JSON pointer and never raises.
"""

from __future__ import annotations

import math

from ..extensions import KHR_IMPLICIT_SHAPES
from ..extensions import KHR_RIGID_BODIES as KHR_RB
from ..read.common import FLOAT32_MAX
from .context import Ctx

_NODE_KEYS = frozenset({"motion", "collider", "joint", "extensions", "extras"})
_MOTION_KEYS = frozenset(
    {"isKinematic", "mass", "centerOfMass", "inertiaDiagonal", "inertiaOrientation", "linearVelocity"}
    | {"angularVelocity", "gravityFactor", "extensions", "extras"}
)
_COLLIDER_KEYS = frozenset({"geometry", "physicsMaterial", "collisionFilter", "extensions", "extras"})
_GEOMETRY_KEYS = frozenset({"shape", "mesh", "convexHull", "extensions", "extras"})
_JOINT_KEYS = frozenset({"connectedNode", "joint", "enableCollision", "extensions", "extras"})
_EXACT_INT = 2**53  # integers below this convert to float exactly (larger ones take the full checks)
#: Tolerance on |1 - ‖q‖| for unit quaternions (the reference validator's value).
UNIT_LENGTH_THRESHOLD = 0.00769


def clean_khr_node(ctx: Ctx, index: int, ext: dict) -> bool:
    """True when ``validate_khr_node`` would report nothing but the hierarchy checks for this node object."""
    if not ext.keys() <= _NODE_KEYS:
        return False
    motion, collider, joint = ext.get("motion"), ext.get("collider"), ext.get("joint")
    if "motion" in ext and not (type(motion) is dict and _clean_motion(motion)):
        return False
    if "collider" in ext and not (type(collider) is dict and _clean_collider(ctx, collider)):
        return False
    return "joint" not in ext or (type(joint) is dict and _clean_joint(ctx, index, joint))


def _number(value: object, minimum: float = -FLOAT32_MAX) -> bool:
    """A JSON number ``check_number`` accepts without a note: finite, ≥ ``minimum``, within the float32 range."""
    kind = type(value)
    if kind is float or (kind is int and -_EXACT_INT < value < _EXACT_INT):
        return minimum <= value <= FLOAT32_MAX  # NaN and infinities fail here
    return False


def _vector(value: object, size: int, minimum: float = -FLOAT32_MAX) -> bool:
    return type(value) is list and len(value) == size and all(_number(v, minimum) for v in value)


def _index(value: object, count: int) -> bool:
    return type(value) is int and 0 <= value < count


def _root_count(ctx: Ctx, root_name: str, key: str) -> int:
    """Length of ``/extensions/<root_name>/<key>``; 0 (no valid index) when the root or the array is missing."""
    root = ctx.root(root_name)
    items = root.get(key) if root is not None else None
    return len(items) if type(items) is list else 0


def _clean_motion(motion: dict) -> bool:
    if not motion.keys() <= _MOTION_KEYS:
        return False
    if "isKinematic" in motion and type(motion["isKinematic"]) is not bool:
        return False
    if "mass" in motion and not (_number(motion["mass"], 0.0) and motion["mass"] != 0):  # mass 0: a note
        return False
    for key in ("centerOfMass", "linearVelocity", "angularVelocity"):
        if key in motion and not _vector(motion[key], 3):
            return False
    if "inertiaDiagonal" in motion:
        diagonal = motion["inertiaDiagonal"]
        if not _vector(diagonal, 3, 0.0) or 0 in diagonal:  # a zero component: a note
            return False
    if "inertiaOrientation" in motion:
        quat = motion["inertiaOrientation"]
        if not _vector(quat, 4):
            return False
        length = math.sqrt(sum(q * q for q in [float(v) for v in quat]))
        if not abs(1.0 - length) <= UNIT_LENGTH_THRESHOLD:
            return False
    return "gravityFactor" not in motion or _number(motion["gravityFactor"])


def _clean_collider(ctx: Ctx, collider: dict) -> bool:
    """A 2024-10+ collider with ``geometry.shape`` or ``geometry.mesh`` and valid material / filter references."""
    if not collider.keys() <= _COLLIDER_KEYS or "geometry" not in collider or ctx.legacy_khr is not False:
        return False  # legacy_khr None: not known yet (the full checks compute it)
    geometry = collider["geometry"]
    if type(geometry) is not dict or not geometry.keys() <= _GEOMETRY_KEYS:
        return False
    if "convexHull" in geometry and type(geometry["convexHull"]) is not bool:
        return False
    if ("shape" in geometry) == ("mesh" in geometry):  # exactly one of shape, mesh (node: full checks)
        return False
    if "shape" in geometry and not _index(geometry["shape"], _root_count(ctx, KHR_IMPLICIT_SHAPES, "shapes")):
        return False
    if "mesh" in geometry and not _index(geometry["mesh"], len(ctx.meshes)):
        return False
    for key, array in (("physicsMaterial", "physicsMaterials"), ("collisionFilter", "collisionFilters")):
        if key in collider and not _index(collider[key], _root_count(ctx, KHR_RB, array)):
            return False
    return True


def _clean_joint(ctx: Ctx, index: int, joint: dict) -> bool:
    if not joint.keys() <= _JOINT_KEYS or "joint" not in joint or "connectedNode" not in joint:
        return False
    if not _index(joint["joint"], _root_count(ctx, KHR_RB, "physicsJoints")):
        return False
    connected = joint["connectedNode"]
    if not _index(connected, len(ctx.nodes)) or connected == index:
        return False
    return "enableCollision" not in joint or type(joint["enableCollision"]) is bool
