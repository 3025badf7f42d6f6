"""Bodies authored in Blender (no stored glTF values): ACTIVE → dynamic body (Animated → kinematic), PASSIVE +
Animated → kinematic, PASSIVE → static collider; the collision shape from the mesh bounds (primitives) or the
exported mesh (convex hull / mesh); friction/restitution as a ``multiply`` material.
"""

from __future__ import annotations

from ..gltf.model import DYNAMIC, KINEMATIC, Collider, Geometry, Motion
from ..mapping.values_to_gltf import BLENDER_PRIMITIVES, derive_shape, native_material, r7
from .context import Builder


def compound_child(ob) -> bool:
    parent = ob.parent
    return (
        ob.rigid_body is not None
        and parent is not None
        and parent.rigid_body is not None
        and parent.rigid_body.collision_shape == "COMPOUND"
    )


def local_bounds(ob) -> tuple[tuple, tuple] | None:
    corners = [tuple(c) for c in ob.bound_box]
    if not corners:
        return None
    return tuple(min(c[i] for c in corners) for i in range(3)), tuple(max(c[i] for c in corners) for i in range(3))


def native_motion(b: Builder, ob, ptr: str) -> Motion | None:
    rb = ob.rigid_body
    if rb is None or compound_child(ob) or ob.type != "MESH":
        return None
    if rb.type == "ACTIVE":
        return Motion(kind=KINEMATIC if rb.kinematic else DYNAMIC, mass=r7(rb.mass))
    if rb.kinematic:  # PASSIVE + Animated: Blender's animated collider
        return Motion(kind=KINEMATIC, mass=r7(rb.mass))
    return None


def native_collider(b: Builder, ob, ptr: str) -> Collider | None:
    rb = ob.rigid_body
    if rb is None or ob.type != "MESH" or rb.collision_shape == "COMPOUND":
        return None
    geometry = blender_geometry(b, ob, ob, "own", ptr + "/collider/geometry")
    if geometry is None:
        return None
    collider = Collider(geometry=geometry, material=b.add_material(native_material(rb.friction, rb.restitution)))
    for index in b.node_indices(ob):
        b.native_colliders[index] = ob.parent if compound_child(ob) else ob
    return collider


def blender_geometry(b: Builder, ob, holder, how: str, ptr: str):
    """Geometry Blender simulates for ``holder``'s rigid body (primitive → shape, hull/mesh → exported mesh)."""
    shape_type = holder.rigid_body.collision_shape
    if shape_type in BLENDER_PRIMITIVES:
        bounds = local_bounds(holder)
        shape = derive_shape(shape_type, *bounds) if bounds is not None else None
        if shape is None:
            return None
        return Geometry(shape=b.add_shape(shape))
    if shape_type in ("CONVEX_HULL", "MESH"):
        return b.mesh_geometry(holder, shape_type == "CONVEX_HULL", how, ptr)
    return None
