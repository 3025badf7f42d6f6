"""Copy model values onto ``Object.gltf_physics`` (for export) and onto Blender's rigid body (for simulation).

Vectors go to Blender's frame with exact swizzles (see ``ui/properties.py``); shapes/filters are kept as JSON.
"""

from __future__ import annotations

import json
import math

from .model import KINEMATIC, CollisionFilter, Geometry, Motion, PhysicsDocument, PhysicsMaterial
from .shape_geometry import quat_to_blender, scale_to_blender, shape_to_json, vec_to_blender

SPEC_FRICTION = 0.6  # KHR/OMI default static and dynamic friction
SPEC_RESTITUTION = 0.0


def store_motion(pg, motion: Motion, animated: bool) -> None:
    pg.has_motion = True
    pg.kind = motion.kind if motion.kind in ("dynamic", "kinematic", "static") else "dynamic"
    if motion.mass is None:
        pg.mass_mode = "ABSENT"
    elif motion.mass == 0.0:
        pg.mass_mode = "INFINITE"
        pg.mass = 0.0
    else:
        pg.mass_mode = "EXPLICIT"
        pg.mass = motion.mass
    pg.has_center_of_mass = motion.center_of_mass is not None
    if motion.center_of_mass is not None:
        pg.center_of_mass = vec_to_blender(motion.center_of_mass)
    pg.has_inertia_diagonal = motion.inertia_diagonal is not None
    if motion.inertia_diagonal is not None:
        pg.inertia_diagonal = scale_to_blender(motion.inertia_diagonal)
    pg.has_inertia_orientation = motion.inertia_orientation is not None
    if motion.inertia_orientation is not None:
        pg.inertia_orientation = quat_to_blender(motion.inertia_orientation)
    pg.linear_velocity = vec_to_blender(motion.linear_velocity)
    pg.angular_velocity = vec_to_blender(motion.angular_velocity)
    pg.gravity_factor = motion.gravity_factor
    pg.animated = animated


def stored_only_motion_fields(motion: Motion) -> list[str]:
    """Motion values Blender does not simulate (kept for export)."""
    out = []
    if motion.center_of_mass is not None and any(motion.center_of_mass):  # origin = what Blender uses
        out.append("centerOfMass")
    if motion.inertia_diagonal is not None:
        out.append("inertiaDiagonal")
    if motion.inertia_orientation is not None:
        out.append("inertiaOrientation")
    if any(motion.linear_velocity):
        out.append("linearVelocity")
    if any(motion.angular_velocity):
        out.append("angularVelocity")
    if motion.gravity_factor != 1.0:
        out.append("gravityFactor")
    return out


def is_kinematic(motion: Motion) -> bool:
    return motion.kind == KINEMATIC


def store_material(pg, material: PhysicsMaterial | None, index: int | None) -> None:
    pg.has_material = material is not None
    pg.index = -1 if index is None else index
    if material is None:
        return
    pg.name = material.name or ""
    pg.static_friction = material.static_friction
    pg.dynamic_friction = material.dynamic_friction
    pg.restitution = material.restitution
    pg.friction_combine = material.friction_combine or "NONE"
    pg.restitution_combine = material.restitution_combine or "NONE"


def blender_coefficient(value: float, combine: str | None) -> float:
    """The single value written to Blender, which multiplies the two bodies' values.

    ``multiply``: the value itself (exact). Any other or no combine mode: its square root, so two bodies with the
    same material get exactly the file's value and two different ones get the geometric mean (between minimum and
    maximum, close to the average).
    """
    value = max(float(value), 0.0)
    return value if combine == "multiply" else math.sqrt(value)


def apply_material(rb, material: PhysicsMaterial | None) -> None:
    """Blender friction from ``dynamicFriction`` (the sliding friction Bullet applies), restitution as is."""
    friction = material.dynamic_friction if material is not None else SPEC_FRICTION
    restitution = material.restitution if material is not None else SPEC_RESTITUTION
    rb.friction = blender_coefficient(friction, material.friction_combine if material else None)
    rb.restitution = blender_coefficient(restitution, material.restitution_combine if material else None)


def _json_list(values) -> str:
    return "" if values is None else json.dumps(list(values))


def store_filter(pg, flt: CollisionFilter | None, index: int | None) -> None:
    pg.has_filter = flt is not None
    pg.index = -1 if index is None else index
    if flt is None:
        return
    pg.name = flt.name or ""
    pg.collision_systems = _json_list(flt.collision_systems)
    pg.collide_with_systems = _json_list(flt.collide_with_systems)
    pg.not_collide_with_systems = _json_list(flt.not_collide_with_systems)


def store_geometry(pg, document: PhysicsDocument, geometry: Geometry | None) -> None:
    if geometry is None:
        pg.kind = "NONE"
        return
    pg.convex_hull = geometry.convex_hull
    if geometry.shape is not None:
        pg.kind = "SHAPE"
        pg.shape_index = geometry.shape
        if 0 <= geometry.shape < len(document.shapes):
            pg.shape_json = json.dumps(shape_to_json(document.shapes[geometry.shape]))
    elif geometry.mesh is not None:
        pg.kind = "MESH"
        pg.mesh = geometry.mesh
    elif geometry.node is not None:
        pg.kind = "NODE"
        pg.node = geometry.node


def lookup(items: list, index: int | None):
    """``items[index]`` or None (absent or out of range)."""
    if index is None or not 0 <= index < len(items):
        return None
    return items[index]
