"""Bodies authored in Blender (no stored glTF values): ACTIVE → dynamic body (Animated → kinematic), PASSIVE +
Animated → kinematic, PASSIVE → static collider; the collision shape from the mesh bounds (primitives) or the
exported mesh (convex hull / mesh); friction/restitution as a ``multiply`` material. With the export option
*Mass Properties* = BLENDER a dynamic body also gets the centre of mass and inertia Bullet simulates
(``mapping.mass_to_gltf``) where an engine would compute others from the shapes.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from ..gltf.model import DYNAMIC, KINEMATIC, Collider, Geometry, Motion
from ..gltf.nodes import affine_inverse
from ..gltf.numbers import r7
from ..mapping import mesh_points
from ..mapping.mass_to_gltf import MARGINED_SHAPES, Child, blender_mass_values, effective_margin, in_compound
from ..mapping.values_to_gltf import BLENDER_PRIMITIVES, as_simulated, derive_shape, native_material
from .context import Builder, exact_key


def compound_child(ob) -> bool:
    return ob.rigid_body is not None and in_compound(ob)


class NativeBody(NamedTuple):
    """What both ``native_motion`` and ``native_collider`` read of an object, read once (RNA reads dominate)."""

    rb: Any  # the object's rigid body (None: none)
    mesh: bool  # ob.type == "MESH"
    shape: str | None  # rb.collision_shape
    compound_child: bool
    name: str

    @classmethod
    def read(cls, ob, rb=None, kind: str | None = None) -> NativeBody:
        """``rb`` / ``kind``: ``ob.rigid_body`` / ``ob.type`` when the caller has read them."""
        rb = ob.rigid_body if rb is None else rb
        if rb is None:
            return cls(None, (ob.type if kind is None else kind) == "MESH", None, False, ob.name)
        return cls(rb, (ob.type if kind is None else kind) == "MESH", rb.collision_shape, in_compound(ob), ob.name)


def local_bounds(ob) -> tuple[tuple, tuple] | None:
    """(min, max) of the object's local bounding box: Blender's ``bound_box`` holds corner 0 = min and corner 6 =
    max (``BKE_boundbox_init_from_minmax``); two corners read instead of eight."""
    corners = ob.bound_box
    if not len(corners):
        return None
    lo, hi = tuple(corners[0]), tuple(corners[6])
    return tuple(min(a, b) for a, b in zip(lo, hi, strict=True)), tuple(max(a, b) for a, b in zip(lo, hi, strict=True))


_BOUNDS = ("local bounds of every object",)


def _every_object_bounds() -> tuple[dict, list] | None:
    """(name → row, [corner 0, corner 6] per row) of every object from one ``foreach_get`` of ``bound_box`` (the two
    corners ``local_bounds`` reads, float32 values widened); None when names repeat (linked libraries: a name would
    not say which object). Three numpy calls whatever the object count: an export of a few objects pays little."""
    import bpy

    objects = bpy.data.objects
    names = objects.keys()
    if len(set(names)) != len(names):
        return None
    flat = np.empty(len(names) * 24, dtype=np.float32)
    objects.foreach_get("bound_box", flat)
    return {name: row for row, name in enumerate(names)}, flat.reshape(-1, 8, 3)[:, ::6].tolist()


def bounds_of(b: Builder, ob, name: str | None = None) -> tuple[tuple, tuple] | None:
    """``local_bounds(ob)`` from one bulk read of every object's bounds, made when an export first asks (same float32
    values; ``local_bounds`` itself when object names repeat). ``name``: ``ob.name``. Per axis, ``min`` / ``max`` as
    ``local_bounds`` has them: the first corner unless the other is smaller / larger (NaN and signed zeros alike)."""
    table = b.memo.get(_BOUNDS, _BOUNDS)
    if table is _BOUNDS:
        table = b.memo[_BOUNDS] = _every_object_bounds()
    row = None if table is None else table[0].get(ob.name if name is None else name)
    if row is None:
        return local_bounds(ob)
    (f0, f1, f2), (o0, o1, o2) = table[1][row]
    low = (o0 if o0 < f0 else f0, o1 if o1 < f1 else f1, o2 if o2 < f2 else f2)
    high = (o0 if o0 > f0 else f0, o1 if o1 > f1 else f1, o2 if o2 > f2 else f2)
    return low, high


def native_motion(b: Builder, ob, ptr: str, body: NativeBody | None = None) -> Motion | None:
    body = NativeBody.read(ob) if body is None else body
    rb = body.rb
    if rb is None or body.compound_child or not body.mesh:
        return None
    kinematic = rb.kinematic
    if rb.type == "ACTIVE":
        mass = rb.mass
        motion = Motion(kind=KINEMATIC if kinematic else DYNAMIC, mass=r7(mass))
        if not kinematic:
            motion.gravity_factor = gravity_weight(b)
            if b.session.mass_properties == "BLENDER":
                motion.center_of_mass, motion.inertia_diagonal = bullet_mass(b, ob, body, mass)
        return motion
    if kinematic:  # PASSIVE + Animated: Blender's animated collider
        return Motion(kind=KINEMATIC, mass=r7(rb.mass))
    return None


_GRAVITY_WEIGHT = ("gravity weight",)


def gravity_weight(b: Builder) -> float:
    """The rigid-body world's gravity weight (*Field Weights* Gravity × All), which Bullet in Blender applies to
    every dynamic body's gravity: written as each native dynamic body's ``gravityFactor`` (read once per export)."""
    weight = b.memo.get(_GRAVITY_WEIGHT)
    if weight is None:
        import bpy

        rbw = bpy.context.scene.rigidbody_world
        weights = None if rbw is None else rbw.effector_weights
        weight = b.memo[_GRAVITY_WEIGHT] = 1.0 if weights is None else r7(weights.gravity * weights.all)
    return weight


def native_collider(b: Builder, ob, ptr: str, body: NativeBody | None = None) -> Collider | None:
    body = NativeBody.read(ob) if body is None else body
    rb = body.rb
    if rb is None or not body.mesh or body.shape == "COMPOUND":
        return None
    geometry = blender_geometry(b, ob, ob, "own", ptr + "/collider/geometry", body)
    if geometry is None:
        return None
    collider = Collider(geometry=geometry, material=material_index(b, rb.friction, rb.restitution))
    unit = ob.parent if body.compound_child else ob  # whose collision collections filter this collider
    for index in b.node_indices(ob):
        b.native_colliders[index] = unit
    return collider


def material_index(b: Builder, friction: float, restitution: float) -> int:
    """Index of the ``multiply`` material of these Blender values (built and de-duplicated once per value pair)."""
    key = exact_key("material", friction, restitution)
    index = b.memo.get(key)
    if index is None:
        index = b.memo[key] = b.add_material(native_material(friction, restitution))
    return index


def shape_index(b: Builder, shape_type: str, bounds: tuple[tuple, tuple]) -> int | None:
    """Index of the shape Blender simulates for a primitive with these local bounds (derived once per bounds)."""
    key = exact_key(shape_type, *bounds[0], *bounds[1])
    if key in b.memo:
        return b.memo[key]
    shape = derive_shape(shape_type, *bounds)
    index = b.memo[key] = None if shape is None else b.add_shape(as_simulated(shape))
    return index


def blender_geometry(b: Builder, ob, holder, how: str, ptr: str, body: NativeBody | None = None):
    """Geometry Blender simulates for ``holder``'s rigid body (primitive → shape, hull/mesh → exported mesh);
    ``body``: ``holder``'s values when already read."""
    shape_type = holder.rigid_body.collision_shape if body is None else body.shape
    if shape_type in BLENDER_PRIMITIVES:
        bounds = bounds_of(b, holder, None if body is None else body.name)
        index = shape_index(b, shape_type, bounds) if bounds is not None else None
        if index is None:
            return None
        return Geometry(shape=index)
    if shape_type in ("CONVEX_HULL", "MESH"):
        return b.mesh_geometry(holder, shape_type == "CONVEX_HULL", how, ptr)
    return None


def bullet_mass(b: Builder, ob, body: NativeBody | None = None, mass: float | None = None) -> tuple:
    """(centerOfMass, inertiaDiagonal) in glTF axes as Bullet simulates ``ob``'s rigid body (None = not written);
    ``body`` / ``mass``: ``ob``'s values when already read.

    Unscaled local bounds: Blender gives Bullet the inertia of the unscaled shape (measured: a box scaled by 2 swings
    with the inertia of the unscaled box)."""
    body = NativeBody.read(ob) if body is None else body
    rb = body.rb
    kind = body.shape
    mass = rb.mass if mass is None else mass
    margin = effective_margin(kind, rb.use_margin, rb.collision_margin) if kind in MARGINED_SHAPES else 0.0
    if kind == "COMPOUND":
        return blender_mass_values(kind, mass, margin=margin, children=compound_children(b, ob))
    bounds = bounds_of(b, ob, body.name)
    if bounds is None:
        return None, None
    meshed = kind in ("CONVEX_HULL", "MESH")
    if meshed and not _mesh_of_data(ob, rb):  # the evaluated mesh: per object
        return blender_mass_values(kind, mass, *bounds, margin=margin, vertices=mesh_vertices(ob))
    key = exact_key("mass", kind, mass, margin, *bounds[0], *bounds[1], ob.data.as_pointer() if meshed else 0)
    values = b.memo.get(key)
    if values is None:  # the same values for every object of equal settings (and mesh data for hull / mesh)
        vertices = mesh_vertices(ob) if meshed else None
        values = b.memo[key] = blender_mass_values(kind, mass, *bounds, margin=margin, vertices=vertices)
    return values


def _mesh_of_data(ob, rb) -> bool:
    """The rigid body's mesh (``mesh_vertices``) depends on the mesh data alone: source BASE, or an object that
    nothing deforms (no modifiers, no shape keys, parented to an object, if at all — no virtual modifiers)."""
    if rb.mesh_source == "BASE":
        return True
    return not ob.modifiers and ob.data.shape_keys is None and (ob.parent is None or ob.parent_type == "OBJECT")


def compound_children(b: Builder, ob) -> list[Child]:
    """The collision shapes of a COMPOUND body: its children with rigid bodies, placed relative to it."""
    inverse = affine_inverse(b.session.world(ob))
    children = []
    for child in b.session.tree.children(ob):
        crb = child.rigid_body
        bounds = bounds_of(b, child) if crb is not None and child.type == "MESH" else None
        if bounds is None or inverse is None or crb.collision_shape == "COMPOUND":
            continue
        rel = inverse @ b.session.world(child)
        basis = rel[:3, :3]
        rotation = basis / np.linalg.norm(basis, axis=0)
        margin = effective_margin(crb.collision_shape, crb.use_margin, crb.collision_margin)
        children.append(Child(crb.collision_shape, *bounds, rotation, rel[:3, 3], margin))
    return children


def mesh_vertices(ob) -> np.ndarray:
    """Local vertex positions of the mesh Blender's rigid body uses (``mesh_source`` BASE: the mesh data; else the
    evaluated mesh)."""
    holder = ob
    if ob.rigid_body.mesh_source != "BASE":
        import bpy

        holder = ob.evaluated_get(bpy.context.evaluated_depsgraph_get())
    mesh = holder.to_mesh()
    try:
        return mesh_points.positions(mesh)
    finally:
        holder.to_mesh_clear()
