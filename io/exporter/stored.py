"""Bodies that came from a glTF import (``Object.gltf_physics`` holds the file's values): the stored values are
written back exactly as long as the Blender settings still are what the import made of them (body type, mass,
friction/restitution, primitive size); a setting the user changed wins and is reported (``GLTF_PHYSICS_EXPORT_EDITED``).
"""

from __future__ import annotations

import json
import math

import numpy as np

from ..gltf.model import (
    DYNAMIC,
    KINEMATIC,
    STATIC,
    Collider,
    CollisionFilter,
    Geometry,
    Motion,
    PhysicsMaterial,
    Trigger,
)
from ..gltf.nodes import affine_inverse, decompose
from ..gltf.numbers import r7
from ..mapping import stored as props
from ..mapping.axes import quat_to_gltf, scale_to_gltf, vec_to_gltf
from ..mapping.initial_velocity import preroll_driven
from ..mapping.passthrough import restore, restore_shape, stored_json
from ..mapping.values_to_gltf import native_material, shape_from_json, shapes_close
from .context import EXPORT_EDITED, EXPORT_SKIPPED, STORED_UNREADABLE, Builder, exact_key
from .native import bounds_of, compound_child, derive_shape, native_motion

_SHAPE_KEY = ("stored shape",)  # Builder.memo key prefixes: implicit shapes, filters, materials
_FILTER_KEY, _MATERIAL_KEY = ("stored filter",), ("stored material",)


def _vec(values, convert) -> tuple:
    return tuple(r7(v) for v in convert(values))


def _expected_state(pm) -> tuple[str, bool | None]:
    """(rigid body type, kinematic) the import gave this stored motion; None = either."""
    if pm.kind == STATIC:
        return "PASSIVE", pm.animated
    if pm.mass_mode == "INFINITE":
        return "PASSIVE", True
    return "ACTIVE", pm.kind == KINEMATIC or pm.animated


def stored_motion(b: Builder, ob, ptr: str) -> Motion | None:
    pg = b.session.pg_of(ob)
    pm = pg.motion
    rb = ob.rigid_body
    if not pm.has_motion:
        if pm.reproduced_mass >= 0.0:  # a compound's shape the import's Reproduce Motion split off: no motion
            return None
        if rb is not None and rb.type == "ACTIVE" and not compound_child(ob):
            b.note(EXPORT_EDITED, ptr + "/motion", f"{ob.name!r} was made an active body in Blender: motion added")
            return native_motion(b, ob, ptr)
        return None
    if rb is None:
        b.note(EXPORT_EDITED, ptr + "/motion", f"{ob.name!r} has no rigid body any more: motion not written")
        return None
    prerolled = rb.kinematic and pm.kind == DYNAMIC and preroll_driven(ob)  # import's initial-velocity pre-roll
    if (rb.type, bool(rb.kinematic)) != _expected_state(pm) and not prerolled:
        b.note(EXPORT_EDITED, ptr + "/motion", f"body type of {ob.name!r} changed in Blender: written from Blender")
        native = native_motion(b, ob, ptr)
        if native is None:
            return None
        kept = _stored_extras(pm)
        native.center_of_mass, native.inertia_diagonal, native.inertia_orientation = kept[:3]
        native.linear_velocity, native.angular_velocity, native.gravity_factor = kept[3:]
        return restore(native, pm.passthrough)  # extras / extensions / unknown keys: never edited in Blender
    mass = pm.mass
    if pm.mass_mode == "EXPLICIT":
        split = pm.reproduced_mass >= 0.0 and math.isclose(rb.mass, pm.reproduced_mass, rel_tol=1e-6)
        if not math.isclose(rb.mass, mass, rel_tol=1e-6) and not split:  # split: the import's Reproduce Motion
            mass = rb.mass
            b.note(EXPORT_EDITED, ptr + "/motion/mass", f"mass of {ob.name!r} changed in Blender: {rb.mass:g} kg")
    return _as_stored(pm, mass)


def _as_stored(pm, mass: float) -> Motion:
    """The stored motion ``pm`` with ``mass`` (an explicit mass: the stored one, or Blender's when edited)."""
    motion = Motion(kind=pm.kind)
    if pm.mass_mode == "INFINITE":
        motion.mass = 0.0
    elif pm.mass_mode == "EXPLICIT":
        motion.mass = r7(mass)
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
        orientation = tuple(r7(v) for v in q)
    return (
        com,
        inertia,
        orientation,
        _vec(pm.linear_velocity, vec_to_gltf),
        _vec(pm.angular_velocity, vec_to_gltf),
        r7(pm.gravity_factor),
    )


def realizer(b: Builder, ob, node_index: int, role: str = "PROXY"):
    """The object whose rigid body realises a stored collider (the object itself or an import proxy)."""
    if role == "PROXY" and ob.rigid_body is not None and ob.rigid_body.collision_shape != "COMPOUND":
        return ob
    owners = [ob]
    parent = ob.parent
    while parent is not None:
        owners.append(parent)
        parent = parent.parent
    owners.extend(b.session.bone_owners(ob))  # a node object under a bone whose body is a stand-in
    for owner in owners:
        for child in b.session.tree.children(owner):
            pg = b.session.pg_of(child)
            usable = role == "TRIGGER_PROXY" or child.rigid_body is not None
            if pg is not None and pg.role == role and pg.proxy_node == node_index and child is not ob and usable:
                return child
    return None


def _holder_shape(b: Builder, ob, holder, view: tuple | None = None):
    """The primitive Blender simulates for ``holder`` expressed in ``ob``'s node frame; None when it is not a
    primitive or the holder (an import proxy) is not at the node's origin with the node's axes. ``view``: the
    holder's ``_holder_view`` when already read."""
    view = _holder_view(b, ob, holder) if view is None else view
    if view is None:
        return None
    if view[0] is not None:
        return derive_shape(*view)
    lo, hi = (np.asarray(v, dtype=float) for v in view[1:])
    inverse = affine_inverse(b.session.world(ob))
    parts = None if inverse is None else decompose(inverse @ b.session.world(holder))
    if parts is None:
        return None
    t, q, scale = parts
    if max(abs(v) for v in t) > 1e-4 or abs(abs(q[3]) - 1.0) > 1e-6:
        return None
    return derive_shape(holder.rigid_body.collision_shape, lo * np.abs(scale), hi * np.abs(scale))


def _holder_view(b: Builder, ob, holder) -> tuple | None:
    """What ``_holder_shape`` derives the primitive from: (collision shape, local bounds min, max) for a holder in
    ``ob``'s frame (``ob`` itself or an import proxy at its origin); (None, min, max) when the holder is elsewhere
    (its world matrix decides); None without bounds."""
    bounds = bounds_of(b, holder)
    if bounds is None:
        return None
    lo, hi = bounds  # tuples of floats
    if holder is not ob and not _at_parent_origin(holder, ob):
        return None, lo, hi
    return holder.rigid_body.collision_shape, lo, hi


def _at_parent_origin(holder, ob) -> bool:
    """``holder`` is a child of ``ob`` at ``ob``'s origin with ``ob``'s axes (an import proxy as made): its frame is
    ``ob``'s without inverting and decomposing world matrices."""
    return (
        holder.parent == ob
        and holder.parent_type == "OBJECT"
        and not holder.constraints
        and holder.matrix_parent_inverse.is_identity
        and holder.matrix_basis.is_identity
    )


def is_mesh_geometry(pgeo) -> bool:
    """Stored geometry made of a glTF mesh (2026 mesh, 2024-10 node, 2024-07 ``mesh`` shape, OMI convex/trimesh)."""
    kind = pgeo.kind
    return _is_mesh(kind, pgeo.shape_json if kind == "SHAPE" else "")


def _is_mesh(kind: str, shape_json: str) -> bool:
    return kind in ("MESH", "NODE") or (kind == "SHAPE" and '"type": "mesh"' in shape_json)


def _stored_geometry(b: Builder, ob, holder, pgeo, ptr: str):
    """The stored geometry, unless the object's own primitive was resized / retyped in Blender."""
    kind = pgeo.kind  # each property read is an RNA look-up: read once
    shape_json = pgeo.shape_json if kind == "SHAPE" else ""
    mesh = _is_mesh(kind, shape_json)
    if kind == "SHAPE" and not mesh:
        usable = holder is not None and holder.rigid_body is not None
        view = _holder_view(b, ob, holder) if usable else None
        shape_passthrough = pgeo.shape_passthrough
        # colliders alike (a chain's links, a stack's crates) share one result per export, keyed by every input (a
        # holder away from its node's origin is not: its world matrix decides)
        key = None
        if view is None or view[0] is not None:
            seen = () if view is None else (view[0], *view[1], *view[2])
            key = _SHAPE_KEY + exact_key(shape_json, shape_passthrough, *seen)
        shape = b.memo.get(key) if key is not None else None
        if shape is None:
            found = _stored_shape(b, ob, holder, shape_json, shape_passthrough, usable, view, ptr)
            if found is None:
                return None
            shape, as_stored = found
            if as_stored and key is not None:  # written from Blender (edited): noted per object, never shared
                b.memo[key] = shape
        return restore(Geometry(shape=shape, convex_hull=pgeo.convex_hull), pgeo.passthrough)
    if mesh:
        if holder is None:
            b.warn(EXPORT_SKIPPED, ptr, f"no object holds the collision mesh of {ob.name!r}: geometry skipped")
            return None
        convex = pgeo.convex_hull
        if holder.rigid_body is not None and holder.rigid_body.collision_shape in ("CONVEX_HULL", "MESH"):
            convex = holder.rigid_body.collision_shape == "CONVEX_HULL"
        if holder is not ob:
            how = "orphan"
        else:
            how = "unrender" if b.session.pg_of(ob).generated_mesh else "own"
        return restore(b.mesh_geometry(holder, convex, how, ptr), pgeo.passthrough)
    return None


def _stored_shape(b: Builder, ob, holder, shape_json: str, shape_passthrough: str, usable: bool, view, ptr: str):
    """(shape index, as stored) of a stored implicit shape: as stored, the same for every collider with these inputs;
    else written from Blender (edited or unreadable: noted per object). None when skipped."""
    shape = _read_shape(shape_json)
    if shape is None:  # a script or an old file broke the text: what Blender simulates, if it is a primitive
        derived = _holder_shape(b, ob, holder, view) if usable and view is not None else None
        if derived is None:
            b.warn(EXPORT_SKIPPED, ptr, f"stored shape of {ob.name!r} unreadable: geometry skipped")
            return None
        b.warn(STORED_UNREADABLE, ptr, f"stored shape of {ob.name!r} unreadable: written from Blender")
        return b.add_shape(derived), False
    edited = False
    if usable and shape.params is not None and view is not None:  # unknown type: kept
        derived = _holder_shape(b, ob, holder, view)
        if derived is not None and not shapes_close(derived, shape):
            b.note(EXPORT_EDITED, ptr, f"collision shape of {ob.name!r} changed in Blender: written from Blender")
            shape, edited = derived, True
    return b.add_shape(restore_shape(shape, shape_passthrough)), not edited


def _read_shape(text: str):
    """The model shape of a stored shape text, None when it is empty or unreadable."""
    try:
        return shape_from_json(json.loads(text)) if text else None
    except ValueError:
        return None


def _stored_material(b: Builder, pmat, rb, ptr: str) -> int | None:
    """The file's material while Blender's friction/restitution still are what the import derived from it."""
    present = pmat.has_material  # switched off: the spec's defaults without a combine mode, as the import gives them
    combine_f = None if pmat.friction_combine == "NONE" or not present else pmat.friction_combine
    combine_r = None if pmat.restitution_combine == "NONE" or not present else pmat.restitution_combine
    friction = pmat.dynamic_friction if pmat.has_material else props.SPEC_FRICTION
    restitution = pmat.restitution if pmat.has_material else props.SPEC_RESTITUTION
    if (
        rb is not None
        and not (
            math.isclose(rb.friction, props.blender_coefficient(friction, combine_f), rel_tol=1e-5, abs_tol=1e-6)
            and math.isclose(
                rb.restitution, props.blender_coefficient(restitution, combine_r), rel_tol=1e-5, abs_tol=1e-6
            )
        )
        and not _pre_combined(pmat, rb)
    ):
        b.note(EXPORT_EDITED, ptr, "friction/restitution changed in Blender: written as a multiply material")
        return b.add_material(restore(native_material(rb.friction, rb.restitution), pmat.passthrough))
    if not present:
        return None
    static_friction, name, passthrough = pmat.static_friction, pmat.name, pmat.passthrough
    key = (*_MATERIAL_KEY, combine_f, combine_r, name, passthrough, *exact_key(static_friction, friction, restitution))
    index = b.memo.get(key)
    if index is None:
        material = PhysicsMaterial(
            static_friction=r7(static_friction),
            dynamic_friction=r7(friction),
            restitution=r7(restitution),
            friction_combine=combine_f,
            restitution_combine=combine_r,
            name=name or None,
        )
        index = b.memo[key] = b.add_material(restore(material, passthrough))
    return index


def _pre_combined(pmat, rb) -> bool:
    """Friction / restitution still what the import's Reproduce Motion pre-combined for the contact partners."""
    if not pmat.reproduced:
        return False
    friction, restitution = pmat.reproduced_values[:2]
    return math.isclose(rb.friction, friction, rel_tol=1e-5, abs_tol=1e-6) and math.isclose(
        rb.restitution, restitution, rel_tol=1e-5, abs_tol=1e-6
    )


def _stored_filter(b: Builder, pflt, ptr: str, name: str) -> int | None:
    """The index of the stored collision filter of object ``name`` (None without one). A systems text that is not
    a JSON array of names (edited in Blender, nested too deep) leaves the filter out with a WARNING at ``ptr``: the
    collider is written without it, so it collides with everything; never the collider."""
    if not pflt.has_filter:
        return None
    texts = (pflt.collision_systems, pflt.collide_with_systems, pflt.not_collide_with_systems)
    key = (*_FILTER_KEY, *texts, pflt.name, pflt.passthrough)  # strings only: equal keys, equal filters
    index = b.memo.get(key)
    if index is None:

        def lst(text: str):
            if not text:
                return None
            values = stored_json(text)
            if not isinstance(values, list) or any(isinstance(v, dict | list) for v in values):
                raise ValueError("not an array of names")
            return tuple(str(v) for v in values)

        try:
            systems = [lst(text) for text in texts]
        except ValueError:
            why = (
                f"the stored collision filter of {name!r} is not readable (not a JSON array of names): "
                "it is written without its filter"
            )
            b.warn(STORED_UNREADABLE, ptr, why)
            return None
        flt = CollisionFilter(
            collision_systems=systems[0],
            collide_with_systems=systems[1],
            not_collide_with_systems=systems[2],
            name=key[-2] or None,
        )
        index = b.memo[key] = b.add_filter(restore(flt, key[-1]))
    return index


def stored_collider(b: Builder, ob, ptr: str) -> Collider | None:
    pg = b.session.pg_of(ob)
    pc = pg.collider
    if not pc.has_collider:
        return None
    ptr += "/collider"
    pgeo = pc.geometry
    holder = realizer(b, ob, pg.node_index) if pg.role != "PROXY" else ob
    if holder is None and not pc.disabled:
        b.note(EXPORT_EDITED, ptr, f"the rigid body realising the collider of {ob.name!r} was removed: not written")
        return None
    if pgeo.kind == "NONE":
        geometry = None
    else:
        geometry = _stored_geometry(b, ob, holder, pgeo, ptr + "/geometry")
        if geometry is None:
            return None
    rb = holder.rigid_body if holder is not None else None
    collider = Collider(geometry=geometry, material=_stored_material(b, pc.material, rb, ptr + "/physicsMaterial"))
    # collections of imported colliders came from the filters
    collider.filter = _stored_filter(b, pc.filter, ptr + "/collisionFilter", ob.name)
    return restore(collider, pc.passthrough)


def stored_trigger(b: Builder, ob, ptr: str) -> Trigger | None:
    pt = b.session.pg_of(ob).trigger
    if not pt.has_trigger:
        return None
    ptr += "/trigger"
    if pt.nodes:
        wanted = [int(i) for i in json.loads(pt.nodes)]
        found = {}
        for child in b.session.tree.descendants(ob):
            pg = b.session.pg_of(child)
            if pg is not None and pg.node_index in wanted and pg.role == "NODE":
                index = b.node_index(child)
                if index is not None:
                    found[pg.node_index] = index
        missing = [i for i in wanted if i not in found]
        if missing:
            b.warn(EXPORT_SKIPPED, ptr + "/nodes", f"trigger nodes {missing} are not exported: left out")
        nodes = tuple(found[i] for i in wanted if i in found)
        return restore(Trigger(nodes=nodes), pt.passthrough) if nodes else None
    holder = realizer(b, ob, b.session.pg_of(ob).node_index, "TRIGGER_PROXY")  # never the node's body
    geometry = _stored_geometry(b, ob, holder, pt.geometry, ptr + "/geometry") if pt.geometry.kind != "NONE" else None
    if geometry is None and pt.geometry.kind != "NONE":
        return None
    flt = _stored_filter(b, pt.filter, ptr + "/collisionFilter", ob.name)
    return restore(Trigger(geometry=geometry, filter=flt), pt.passthrough)
