"""Blender rigid bodies → model ``motion`` / ``collider`` / ``trigger`` (one exported object at a time).

Two sources, per object:

* **stored** (the object came from a glTF import: ``Object.gltf_physics`` holds the file's values): the stored
  values are written back exactly as long as the Blender settings still are what the import made of them (body
  type, mass, friction/restitution, primitive size); a setting the user changed wins and is reported
  (``GLTF_PHYSICS_EXPORT_EDITED``).
* **native** (authored in Blender): ACTIVE → dynamic body (Animated → kinematic), PASSIVE + Animated → kinematic,
  PASSIVE → static collider; the collision shape from the mesh bounds (primitives) or the exported mesh (convex
  hull / mesh); friction/restitution as a ``multiply`` material; collision collections → filters.
"""

from __future__ import annotations

import json
import math

import numpy as np

from . import blender_physics_props as props
from .blender_export import EXPORT_EDITED, EXPORT_SKIPPED, Builder
from .diagnostics import pointer
from .export_mapping import (
    derive_shape,
    filters_from_collections,
    native_material,
    quat_to_gltf,
    scale_to_gltf,
    shape_from_json,
    shapes_close,
    vec_to_gltf,
)
from .model import DYNAMIC, KINEMATIC, STATIC, Collider, CollisionFilter, Motion, NodePhysics, PhysicsMaterial, Trigger
from .passthrough_text import restore, restore_shape

PROXY_ROLES = ("PROXY", "TRIGGER_PROXY")
PRIMITIVES = ("BOX", "SPHERE", "CAPSULE", "CYLINDER", "CONE")


def _r7(value: float) -> float:
    """A value stored in a (32-bit) Blender float property, back to its shortest decimal form."""
    return float(f"{float(value):.7g}")


def _vec(values, convert) -> tuple:
    return tuple(_r7(v) for v in convert(values))


def pg_of(ob):
    return getattr(ob, "gltf_physics", None)


def has_stored(pg) -> bool:
    return pg is not None and (pg.motion.has_motion or pg.collider.has_collider or pg.trigger.has_trigger)


def is_helper(ob) -> bool:
    """Objects the import made that are not glTF nodes of their own (never exported as physics nodes)."""
    pg = pg_of(ob)
    return pg is not None and (pg.joint.role in ("JOINT", "MOTOR", "ANCHOR") or pg.role in PROXY_ROLES)


def compound_child(ob) -> bool:
    parent = ob.parent
    return (
        ob.rigid_body is not None
        and parent is not None
        and parent.rigid_body is not None
        and parent.rigid_body.collision_shape == "COMPOUND"
    )


def add_object(b: Builder, ob) -> None:
    """Motion, collider and trigger of one exported object (written on each of its nodes)."""
    indices = b.node_indices(ob)
    if not indices or ob.type not in ("MESH", "EMPTY"):
        return
    pg = pg_of(ob)
    if pg is not None and (
        pg.joint.role in ("JOINT", "MOTOR", "ANCHOR") or (pg.role in PROXY_ROLES and not has_stored(pg))
    ):
        return
    ptr = pointer("nodes", indices[0], "extensions", "KHR_physics_rigid_bodies")
    stored = has_stored(pg)
    motion = b.guarded(ptr + "/motion", "motion", _stored_motion if stored else _native_motion, b, ob, ptr)
    collider = b.guarded(ptr + "/collider", "collider", _stored_collider if stored else _native_collider, b, ob, ptr)
    trigger = b.guarded(ptr + "/trigger", "trigger", _stored_trigger, b, ob, ptr) if stored else None
    if motion is None and collider is None and trigger is None:
        return
    for index in indices:
        b.doc.nodes[index] = NodePhysics(node=index, motion=motion, collider=collider, trigger=trigger)
    if pg is not None and pg.gltf_parent is not None and motion is not None:
        b.reparent.append((ob, pg.gltf_parent))
    if len(indices) > 1:
        b.note(EXPORT_SKIPPED, ptr, f"{ob.name!r} is exported {len(indices)} times (instancing): physics on each")


# --- motion -----------------------------------------------------------------------------------------------------


def _native_motion(b: Builder, ob, ptr: str) -> Motion | None:
    rb = ob.rigid_body
    if rb is None or compound_child(ob) or ob.type != "MESH":
        return None
    if rb.type == "ACTIVE":
        return Motion(kind=KINEMATIC if rb.kinematic else DYNAMIC, mass=_r7(rb.mass))
    if rb.kinematic:  # PASSIVE + Animated: Blender's animated collider
        return Motion(kind=KINEMATIC, mass=_r7(rb.mass))
    return None


def _expected_state(pm) -> tuple[str, bool | None]:
    """(rigid body type, kinematic) the import gave this stored motion; None = either."""
    if pm.kind == STATIC:
        return "PASSIVE", pm.animated
    if pm.mass_mode == "INFINITE":
        return "PASSIVE", True
    return "ACTIVE", pm.kind == KINEMATIC or pm.animated


def _stored_motion(b: Builder, ob, ptr: str) -> Motion | None:
    pg, rb = pg_of(ob), ob.rigid_body
    pm = pg.motion
    if not pm.has_motion:
        if rb is not None and rb.type == "ACTIVE" and not compound_child(ob):
            b.note(EXPORT_EDITED, ptr + "/motion", f"{ob.name!r} was made an active body in Blender: motion added")
            return _native_motion(b, ob, ptr)
        return None
    if rb is None:
        b.note(EXPORT_EDITED, ptr + "/motion", f"{ob.name!r} has no rigid body any more: motion not written")
        return None
    if (rb.type, bool(rb.kinematic)) != _expected_state(pm):
        b.note(EXPORT_EDITED, ptr + "/motion", f"body type of {ob.name!r} changed in Blender: written from Blender")
        native = _native_motion(b, ob, ptr)
        if native is None:
            return None
        kept = _stored_extras(pm)
        native.center_of_mass, native.inertia_diagonal, native.inertia_orientation = kept[:3]
        native.linear_velocity, native.angular_velocity, native.gravity_factor = kept[3:]
        return restore(native, pm.passthrough)  # extras / extensions / unknown keys: never edited in Blender
    motion = Motion(kind=pm.kind)
    if pm.mass_mode == "INFINITE":
        motion.mass = 0.0
    elif pm.mass_mode == "EXPLICIT":
        if math.isclose(rb.mass, pm.mass, rel_tol=1e-6):
            motion.mass = _r7(pm.mass)
        else:
            motion.mass = _r7(rb.mass)
            b.note(EXPORT_EDITED, ptr + "/motion/mass", f"mass of {ob.name!r} changed in Blender: {rb.mass:g} kg")
    kept = _stored_extras(pm)
    motion.center_of_mass, motion.inertia_diagonal, motion.inertia_orientation = kept[:3]
    motion.linear_velocity, motion.angular_velocity, motion.gravity_factor = kept[3:]
    return restore(motion, pm.passthrough)


def _stored_extras(pm) -> tuple:
    """Centre of mass, inertia, velocities, gravity factor from the stored (Blender-frame) values."""
    com = _vec(pm.center_of_mass, vec_to_gltf) if pm.has_center_of_mass else None
    inertia = _vec(pm.inertia_diagonal, scale_to_gltf) if pm.has_inertia_diagonal else None
    orientation = None
    if pm.has_inertia_orientation:
        q = np.array(quat_to_gltf(pm.inertia_orientation), dtype=float)
        q = q / (np.linalg.norm(q) or 1.0)
        orientation = tuple(_r7(v) for v in q)
    return (
        com,
        inertia,
        orientation,
        _vec(pm.linear_velocity, vec_to_gltf),
        _vec(pm.angular_velocity, vec_to_gltf),
        _r7(pm.gravity_factor),
    )


# --- colliders --------------------------------------------------------------------------------------------------


def local_bounds(ob) -> tuple[tuple, tuple] | None:
    corners = [tuple(c) for c in ob.bound_box]
    if not corners:
        return None
    return tuple(min(c[i] for c in corners) for i in range(3)), tuple(max(c[i] for c in corners) for i in range(3))


def _native_collider(b: Builder, ob, ptr: str) -> Collider | None:
    rb = ob.rigid_body
    if rb is None or ob.type != "MESH" or rb.collision_shape == "COMPOUND":
        return None
    geometry = _blender_geometry(b, ob, ob, "own", ptr + "/collider/geometry")
    if geometry is None:
        return None
    collider = Collider(geometry=geometry, material=b.add_material(native_material(rb.friction, rb.restitution)))
    for index in b.node_indices(ob):
        b.native_colliders[index] = ob.parent if compound_child(ob) else ob
    return collider


def _blender_geometry(b: Builder, ob, holder, how: str, ptr: str):
    """Geometry Blender simulates for ``holder``'s rigid body (primitive → shape, hull/mesh → exported mesh)."""
    shape_type = holder.rigid_body.collision_shape
    if shape_type in PRIMITIVES:
        bounds = local_bounds(holder)
        shape = derive_shape(shape_type, *bounds) if bounds is not None else None
        if shape is None:
            return None
        from .model import Geometry

        return Geometry(shape=b.add_shape(shape))
    if shape_type in ("CONVEX_HULL", "MESH"):
        return b.mesh_geometry(holder, shape_type == "CONVEX_HULL", how, ptr)
    return None


def realizer(b: Builder, ob, node_index: int, role: str = "PROXY"):
    """The object whose rigid body realises a stored collider (the object itself or an import proxy)."""
    if role == "PROXY" and ob.rigid_body is not None and ob.rigid_body.collision_shape != "COMPOUND":
        return ob
    owners = [ob]
    parent = ob.parent
    while parent is not None:
        owners.append(parent)
        parent = parent.parent
    for owner in owners:
        for child in owner.children:
            pg = pg_of(child)
            usable = role == "TRIGGER_PROXY" or child.rigid_body is not None
            if pg is not None and pg.role == role and pg.proxy_node == node_index and child is not ob and usable:
                return child
    return None


def _holder_shape(b: Builder, ob, holder):
    """The primitive Blender simulates for ``holder`` expressed in ``ob``'s node frame; None when it is not a
    primitive or the holder (an import proxy) is not at the node's origin with the node's axes."""
    bounds = local_bounds(holder)
    if bounds is None:
        return None
    lo, hi = np.asarray(bounds[0], dtype=float), np.asarray(bounds[1], dtype=float)
    if holder is not ob:
        from .export_mapping import affine_inverse
        from .gltf_nodes import decompose

        inverse = affine_inverse(b.session.world(ob))
        parts = None if inverse is None else decompose(inverse @ b.session.world(holder))
        if parts is None:
            return None
        t, q, scale = parts
        if max(abs(v) for v in t) > 1e-4 or abs(abs(q[3]) - 1.0) > 1e-6:
            return None
        lo, hi = lo * np.abs(scale), hi * np.abs(scale)
    return derive_shape(holder.rigid_body.collision_shape, lo, hi)


def is_mesh_geometry(pgeo) -> bool:
    """Stored geometry made of a glTF mesh (2026 mesh, 2024-10 node, 2024-07 ``mesh`` shape, OMI convex/trimesh)."""
    if pgeo.kind in ("MESH", "NODE"):
        return True
    return pgeo.kind == "SHAPE" and '"type": "mesh"' in pgeo.shape_json


def _stored_geometry(b: Builder, ob, holder, pgeo, ptr: str):
    """The stored geometry, unless the object's own primitive was resized / retyped in Blender."""
    from .model import Geometry

    if pgeo.kind == "SHAPE" and not is_mesh_geometry(pgeo):
        shape = shape_from_json(json.loads(pgeo.shape_json)) if pgeo.shape_json else None
        if shape is None:
            b.warn(EXPORT_SKIPPED, ptr, "stored shape unreadable: geometry skipped")
            return None
        if holder is not None and holder.rigid_body is not None:
            derived = _holder_shape(b, ob, holder)
            if derived is not None and not shapes_close(derived, shape):
                b.note(EXPORT_EDITED, ptr, f"collision shape of {ob.name!r} changed in Blender: written from Blender")
                shape = derived
        shape = restore_shape(shape, pgeo.shape_passthrough)
        return restore(Geometry(shape=b.add_shape(shape), convex_hull=pgeo.convex_hull), pgeo.passthrough)
    if is_mesh_geometry(pgeo):
        if holder is None:
            b.warn(EXPORT_SKIPPED, ptr, f"no object holds the collision mesh of {ob.name!r}: geometry skipped")
            return None
        convex = pgeo.convex_hull
        if holder.rigid_body is not None and holder.rigid_body.collision_shape in ("CONVEX_HULL", "MESH"):
            convex = holder.rigid_body.collision_shape == "CONVEX_HULL"
        if holder is not ob:
            how = "orphan"
        else:
            how = "unrender" if pg_of(ob).generated_mesh else "own"
        return restore(b.mesh_geometry(holder, convex, how, ptr), pgeo.passthrough)
    return None


def _stored_material(b: Builder, pmat, rb, ptr: str) -> int | None:
    """The file's material while Blender's friction/restitution still are what the import derived from it."""
    combine_f = None if pmat.friction_combine == "NONE" else pmat.friction_combine
    combine_r = None if pmat.restitution_combine == "NONE" else pmat.restitution_combine
    friction = pmat.dynamic_friction if pmat.has_material else props.SPEC_FRICTION
    restitution = pmat.restitution if pmat.has_material else props.SPEC_RESTITUTION
    if rb is not None and not (
        math.isclose(rb.friction, props.blender_coefficient(friction, combine_f), rel_tol=1e-5, abs_tol=1e-6)
        and math.isclose(rb.restitution, props.blender_coefficient(restitution, combine_r), rel_tol=1e-5, abs_tol=1e-6)
    ):
        b.note(EXPORT_EDITED, ptr, "friction/restitution changed in Blender: written as a multiply material")
        return b.add_material(restore(native_material(rb.friction, rb.restitution), pmat.passthrough))
    if not pmat.has_material:
        return None
    material = PhysicsMaterial(
        static_friction=_r7(pmat.static_friction),
        dynamic_friction=_r7(pmat.dynamic_friction),
        restitution=_r7(pmat.restitution),
        friction_combine=combine_f,
        restitution_combine=combine_r,
        name=pmat.name or None,
    )
    return b.add_material(restore(material, pmat.passthrough))


def _stored_filter(b: Builder, pflt) -> int | None:
    if not pflt.has_filter:
        return None

    def lst(text: str):
        return None if not text else tuple(str(v) for v in json.loads(text))

    flt = CollisionFilter(
        collision_systems=lst(pflt.collision_systems),
        collide_with_systems=lst(pflt.collide_with_systems),
        not_collide_with_systems=lst(pflt.not_collide_with_systems),
        name=pflt.name or None,
    )
    return b.add_filter(restore(flt, pflt.passthrough))


def _stored_collider(b: Builder, ob, ptr: str) -> Collider | None:
    pc = pg_of(ob).collider
    if not pc.has_collider:
        return None
    ptr += "/collider"
    holder = realizer(b, ob, pg_of(ob).node_index) if pg_of(ob).role != "PROXY" else ob
    if holder is None and not pc.disabled:
        b.note(EXPORT_EDITED, ptr, f"the rigid body realising the collider of {ob.name!r} was removed: not written")
        return None
    if pc.geometry.kind == "NONE":
        geometry = None
    else:
        geometry = _stored_geometry(b, ob, holder, pc.geometry, ptr + "/geometry")
        if geometry is None:
            return None
    rb = holder.rigid_body if holder is not None else None
    collider = Collider(geometry=geometry, material=_stored_material(b, pc.material, rb, ptr + "/physicsMaterial"))
    collider.filter = _stored_filter(b, pc.filter)  # collections of imported colliders came from the filters
    return restore(collider, pc.passthrough)


def _stored_trigger(b: Builder, ob, ptr: str) -> Trigger | None:
    pt = pg_of(ob).trigger
    if not pt.has_trigger:
        return None
    ptr += "/trigger"
    if pt.nodes:
        wanted = [int(i) for i in json.loads(pt.nodes)]
        found = {}
        for child in ob.children_recursive:
            pg = pg_of(child)
            if pg is not None and pg.node_index in wanted and pg.role == "NODE":
                index = b.node_index(child)
                if index is not None:
                    found[pg.node_index] = index
        missing = [i for i in wanted if i not in found]
        if missing:
            b.warn(EXPORT_SKIPPED, ptr + "/nodes", f"trigger nodes {missing} are not exported: left out")
        nodes = tuple(found[i] for i in wanted if i in found)
        return restore(Trigger(nodes=nodes), pt.passthrough) if nodes else None
    holder = realizer(b, ob, pg_of(ob).node_index, "TRIGGER_PROXY")  # a volume, never the node's rigid body
    geometry = _stored_geometry(b, ob, holder, pt.geometry, ptr + "/geometry") if pt.geometry.kind != "NONE" else None
    if geometry is None and pt.geometry.kind != "NONE":
        return None
    return restore(Trigger(geometry=geometry, filter=_stored_filter(b, pt.filter)), pt.passthrough)


# --- native collision filters -------------------------------------------------------------------------------------


def assign_native_filters(b: Builder) -> None:
    """Filters from the collision collections of every collider without a stored filter (see
    ``export_mapping.filters_from_collections``)."""
    sets = {}
    for index, unit in b.native_colliders.items():
        rb = getattr(unit, "rigid_body", None)
        if rb is not None:
            sets[index] = frozenset(i for i, on in enumerate(rb.collision_collections) if on)
    if not sets:
        return
    filters, wrong = filters_from_collections(sets)
    for index, flt in filters.items():
        physics = b.doc.nodes.get(index)
        if flt is not None and physics is not None and physics.collider is not None:
            physics.collider.filter = b.add_filter(flt)
    if wrong:
        from .blender_export import EXPORT_APPROXIMATED

        b.note(
            EXPORT_APPROXIMATED,
            pointer("extensions", "KHR_physics_rigid_bodies", "collisionFilters"),
            f"collision collections approximated by KHR filters: {wrong} body pair(s) differ",
        )
