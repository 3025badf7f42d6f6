"""The collision shapes of a Blender body as ``sim`` parts, for the mass read-out and ``gltf_physics.compute_mass``.

Which shape stands for an object:

* an object of a glTF node that stores an implicit shape (``collider.geometry.kind == "SHAPE"``): the file's shape
  under the object's world scale (what export writes);
* otherwise the shape Blender simulates: a primitive sized from the mesh bounds and centred on the origin (as Blender
  does), the convex hull of the mesh (``CONVEX_HULL``) or the closed triangle mesh itself (``MESH``);
* a ``COMPOUND`` rigid body is the sum of its direct rigid-body children (Blender's compound rule).

Everything is expressed in the body frame: the body's world location and rotation, world units (scale applied).
"""

from __future__ import annotations

import hashlib
from collections import OrderedDict

import bmesh
import bpy
import numpy as np
from mathutils import Matrix

from ...io.mapping import mesh_points
from ...io.mapping.axes import SHAPE_TO_BLENDER
from ...io.mapping.values_to_gltf import BLENDER_PRIMITIVES
from .. import readout
from ..readout import Part

MAX_HULL_VERTICES = 200_000  # operators: beyond this a mesh is not evaluated
PANEL_MAX_VERTICES = 10_000  # panels redraw often: a bound on the vertices a read-out reads


def body_frame(ob: bpy.types.Object) -> Matrix:
    """World location and rotation of ``ob`` without scale."""
    loc, rot, _scale = ob.matrix_world.decompose()
    return Matrix.Translation(loc) @ rot.to_matrix().to_4x4()


def _vertices(mesh: bpy.types.Mesh) -> np.ndarray:
    return mesh_points.positions(mesh)


def _triangles(mesh: bpy.types.Mesh) -> np.ndarray:
    mesh.calc_loop_triangles()
    tri = np.empty(len(mesh.loop_triangles) * 3, dtype=np.int64)
    mesh.loop_triangles.foreach_get("vertices", tri)
    return tri.reshape(-1, 3)


_HULLS: OrderedDict[bytes, tuple[np.ndarray, np.ndarray]] = OrderedDict()
HULL_CACHE_SIZE = 16  # panels redraw often; a hull is costly, a cache hit is not


def _hull(vertices: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Convex hull of a point set (cached by the coordinates' digest), as (vertices, triangles)."""
    key = hashlib.blake2b(np.ascontiguousarray(vertices).tobytes(), digest_size=16).digest()
    if key in _HULLS:
        _HULLS.move_to_end(key)
        return _HULLS[key]
    result = _compute_hull(vertices)
    _HULLS[key] = result
    while len(_HULLS) > HULL_CACHE_SIZE:
        _HULLS.popitem(last=False)
    return result


convex_hull = _hull  # public name for the overlay (ui/overlay/overlay_collect.py)


def _compute_hull(vertices: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Convex hull triangles of a point set (bmesh), as (vertices, triangles)."""
    bm = bmesh.new()
    try:
        for v in vertices:
            bm.verts.new(v)
        bmesh.ops.convex_hull(bm, input=list(bm.verts), use_existing_faces=False)
        interior = [v for v in bm.verts if not v.link_faces]
        bmesh.ops.delete(bm, geom=interior, context="VERTS")
        bmesh.ops.triangulate(bm, faces=list(bm.faces))
        bm.verts.index_update()
        verts = np.array([v.co[:] for v in bm.verts], dtype=np.float64).reshape(-1, 3)
        tris = np.array([[v.index for v in f.verts] for f in bm.faces], dtype=np.int64).reshape(-1, 3)
        return verts, tris
    finally:
        bm.free()


def file_shape(ob: bpy.types.Object):
    """The implicit shape the object's glTF collider stores, or None."""
    pg = getattr(ob, "gltf_physics", None)
    if pg is None or not pg.collider.has_collider or pg.collider.disabled:
        return None
    geometry = pg.collider.geometry
    if geometry.kind != "SHAPE" or pg.role != "NODE":
        return None
    return readout.shape_from_json(geometry.shape_json)


def object_part(
    ob: bpy.types.Object, frame_inverse: Matrix, notes: list[str], max_vertices: int = MAX_HULL_VERTICES
) -> Part | None:
    """The collision shape of one object in the body frame (see the module docstring); None = no volume."""
    loc, rot, scale = (frame_inverse @ ob.matrix_world).decompose()
    t, q = tuple(loc), (rot.x, rot.y, rot.z, rot.w)
    shape = file_shape(ob)
    if shape is not None:
        part = readout.placed(shape, SHAPE_TO_BLENDER, tuple(scale), t, q)
        part.label = f"{ob.name}: file {readout.describe_shape(shape)}"
        return part
    if ob.type != "MESH" or ob.data is None or len(ob.data.vertices) == 0:
        notes.append(f"{ob.name}: no mesh")
        return None
    kind = ob.rigid_body.collision_shape if ob.rigid_body is not None else "CONVEX_HULL"
    vertices = _vertices(ob.data)
    if kind in BLENDER_PRIMITIVES:
        derived = readout.blender_primitive(kind, *mesh_points.bounds_of(vertices))
        if derived is None:
            notes.append(f"{ob.name}: degenerate {kind.lower()} bounds")
            return None
        part = readout.placed(derived[0], derived[1], tuple(scale), t, q)
        part.label = f"{ob.name}: Blender {readout.describe_shape(derived[0])}"
        return part
    if len(vertices) > max_vertices:
        notes.append(f"{ob.name}: more than {max_vertices} vertices, not evaluated")
        return None
    if kind == "CONVEX_HULL":
        verts, tris = _hull(vertices)
    elif kind == "MESH":
        verts, tris = vertices, _triangles(ob.data)
    else:
        notes.append(f"{ob.name}: {kind.lower()} shape has no own volume")
        return None
    part = readout.mesh_part(verts, tris, tuple(scale), t, q)
    if part is not None:
        part.label = f"{ob.name}: {kind.lower().replace('_', ' ')} ({len(tris)} triangles)"
    return part


def body_parts(ob: bpy.types.Object, max_vertices: int = MAX_HULL_VERTICES) -> tuple[list[Part], list[str]]:
    """All parts of the body ``ob`` (compound children included) and notes about what was left out."""
    frame_inverse = body_frame(ob).inverted_safe()
    notes: list[str] = []
    rb = ob.rigid_body
    if rb is not None and rb.collision_shape == "COMPOUND":
        members = [child for child in ob.children if child.rigid_body is not None]
        if not members:
            notes.append(f"{ob.name}: compound without rigid-body children")
    else:
        members = [ob]
    parts = [p for p in (object_part(m, frame_inverse, notes, max_vertices) for m in members) if p is not None]
    return parts, notes


def body_mass(
    ob: bpy.types.Object, density: float, max_vertices: int = MAX_HULL_VERTICES
) -> tuple[readout.MassReadout | None, list[str]]:
    """Mass properties of the body at ``density`` (sim.mass), with notes; None when nothing has volume."""
    parts, notes = body_parts(ob, max_vertices)
    try:
        result = readout.mass_readout(parts, density)
    except (ValueError, np.linalg.LinAlgError) as error:  # numerically broken meshes
        notes.append(f"{ob.name}: {error}")
        result = None
    if result is None and parts:
        notes.append(f"{ob.name}: the shapes enclose no volume (open mesh or planes)")
    return result, notes


def local_center_of_mass(ob: bpy.types.Object, result: readout.MassReadout) -> tuple[float, float, float]:
    """The centre of mass in the object's local (node) coordinates: body frame divided by the world scale."""
    scale = ob.matrix_world.to_scale()
    return tuple(c / s if abs(s) > 1e-12 else 0.0 for c, s in zip(result.center_of_mass, scale, strict=True))


def world_inverse_inertia(
    ob: bpy.types.Object | None, density: float, max_vertices: int = PANEL_MAX_VERTICES
) -> np.ndarray | None:
    """World inverse inertia tensor of an ACTIVE, non-animated body (None = immovable or unknown)."""
    if ob is None or ob.rigid_body is None or ob.rigid_body.type != "ACTIVE" or ob.rigid_body.kinematic:
        return None
    result, _notes = body_mass(ob, density, max_vertices)
    if result is None or not result.mass > 0:
        return None
    tensor = result.tensor * (ob.rigid_body.mass / result.mass)  # Blender's mass, the shape's distribution
    rot = np.array(body_frame(ob).to_3x3(), dtype=np.float64)
    try:
        return rot @ np.linalg.inv(tensor) @ rot.T
    except np.linalg.LinAlgError:
        return None


def simulated_mass(ob: bpy.types.Object | None) -> float | None:
    """Blender mass of an ACTIVE, non-animated body; None = immovable (passive, animated, no body)."""
    if ob is None or ob.rigid_body is None or ob.rigid_body.type != "ACTIVE" or ob.rigid_body.kinematic:
        return None
    return float(ob.rigid_body.mass)
