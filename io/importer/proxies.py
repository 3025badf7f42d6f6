"""Collision / trigger proxy objects and Empty → mesh replacement (data API only, no ``bpy.ops``).

Blender rigid bodies live only on MESH objects. A glTF node with physics that imported as an Empty is replaced by a
mesh object of the same name, transform, parent, children, custom properties and ``Object.gltf_physics`` values
(the importer's vnode and the import's object maps are updated so animations and later steps target it).
Geometry that differs from a node's render mesh goes onto a generated proxy object: wire display, excluded from
rendering, parented so it moves with its body.
"""

from __future__ import annotations

import contextlib

import bpy
import numpy as np
from mathutils import Matrix, Quaternion, Vector

from .. import gltf_addon
from ..gltf.nodes import decompose
from ..mapping.shapes_to_blender import FaceLayout, ShapeMesh

TEMPORARY_SUFFIX = ".replaced"  # name of an Empty between the importer creating it and its replacement
PLACEHOLDER_NAME = " glTF Physics placeholder"  # sorts first: the importer's look-up by name finds it at once


def mesh_from_shape(name: str, shape_mesh: ShapeMesh) -> bpy.types.Mesh:
    """The mesh ``Mesh.from_pydata(vertices, [], faces)`` + ``update()`` builds (flat shaded), its attributes
    created in the same order, each written from one buffer: ``position`` (float32 of the vertices), the layout's
    ``loop_start``, ``.corner_vert``, ``sharp_face``, and its edges (``.edge_verts``, ``.corner_edge``) numbered as
    ``update(calc_edges=True)`` numbers them (``FaceLayout``). ``from_pydata`` sets ``MeshVertex.co``,
    ``MeshPolygon.vertices`` and ``sharp_face`` item by item, and Blender's edge hashing was half of a sphere
    proxy's creation. ``from_pydata`` when the attributes are missing."""
    mesh = bpy.data.meshes.new(name)
    vertices, faces = shape_mesh.vertices, shape_mesh.faces
    layout = shape_mesh.layout  # the faces' buffers, cached per layout (FaceLayout.of builds them otherwise)
    if layout is None or layout.faces != tuple(faces):  # (the same tuples: compared by identity, no copy of them)
        layout = FaceLayout.of(faces)
    count = len(vertices)
    mesh.vertices.add(count)
    mesh.loops.add(len(layout.corner_verts))
    mesh.polygons.add(len(faces))
    attributes = mesh.attributes
    position, corner_vert = attributes.get("position"), attributes.get(".corner_vert")
    if (count and position is None) or (faces and corner_vert is None):  # not the layout of Blender 4.2 to 5.x
        bpy.data.meshes.remove(mesh)
        mesh = bpy.data.meshes.new(name)
        mesh.from_pydata(vertices, [], faces)
        mesh.update()
        return mesh
    if count:  # float64 → float32 as Blender's own conversion of each float rounds it
        position.data.foreach_set("vector", np.asarray(vertices, dtype=np.float32).reshape(-1))
    if faces:
        mesh.polygons.foreach_set("loop_start", layout.loop_starts)
        corner_vert.data.foreach_set("value", layout.corner_verts)
    attributes.new("sharp_face", "BOOLEAN", "FACE").data.foreach_set("value", layout.face_flags)
    if faces:  # what update(calc_edges=True) adds: ``.edge_verts`` then ``.select_edge`` (all True, ``edges.add``)
        attributes.new(".edge_verts", "INT32_2D", "EDGE")
        mesh.edges.add(len(layout.edge_verts) // 2)
        attributes.get(".edge_verts").data.foreach_set("value", layout.edge_verts)
        attributes.get(".corner_edge").data.foreach_set("value", layout.corner_edges)
    mesh.update()
    return mesh


def empty_mesh(name: str) -> bpy.types.Mesh:
    return bpy.data.meshes.new(name)


def style_as_proxy(ob: bpy.types.Object) -> None:
    """Wire display, not rendered (the glTF node's render meshes stay as they were)."""
    ob.display_type = "WIRE"
    ob.hide_render = True


def _collections_of(ctx, ob: bpy.types.Object | None) -> list:
    """Where a new object next to ``ob`` goes: ``ob``'s collections, else the scene's master collection."""
    return (ctx.collections_of(ob) if ob is not None else []) or [ctx.scene.collection]


def new_child_object(
    ctx, name: str, data, parent: bpy.types.Object | None, matrix_local: Matrix | None = None
) -> bpy.types.Object:
    """A new object parented to ``parent`` (parent inverse identity) with local transform ``matrix_local``."""
    ob = bpy.data.objects.new(name, data)
    collections = _collections_of(ctx, parent)
    for collection in collections:
        collection.objects.link(ob)
    ctx.linked(ob, collections)
    if parent is not None:
        ob.parent = parent
        ob.matrix_parent_inverse = Matrix.Identity(4)
    if matrix_local is not None:
        ob.matrix_basis = matrix_local
    return ob


def replace_with_mesh_object(ctx, index: int, mesh: bpy.types.Mesh) -> bpy.types.Object:
    """Give node ``index``'s object ``mesh``: a placeholder mesh object (``EmptyPlaceholders``) just takes it; an
    Empty is swapped for a new mesh object (``_replace``). Returns the object that holds ``mesh``."""
    ob = ctx.objects[index]
    if ob.type == "MESH" and ctx.placeholder is not None and ob.data == ctx.placeholder:
        ob.data = mesh
        return ob
    return _replace(ctx, index, mesh)


def _replace(ctx, index: int, data) -> bpy.types.Object:
    """Swap the object of node ``index`` for a new one holding ``data`` (None: an Empty); returns the new object.

    The old object is renamed and unlinked at once; it is deleted by ``remove_replaced`` at the end of the body step
    (one ``batch_remove`` instead of a scan of the whole file per ``objects.remove``).
    """
    old = ctx.objects[index]
    name = old.name
    old.name = name + TEMPORARY_SUFFIX
    new = bpy.data.objects.new(name, data)
    collections = ctx.collections_of(old)
    for collection in collections:
        collection.objects.link(new)
        collection.objects.unlink(old)
    ctx.linked(new, collections)
    ctx.linked(old, [])
    if old.parent is not None:
        new.parent = old.parent
        new.parent_type = old.parent_type
        if old.parent_type == "BONE":
            new.parent_bone = old.parent_bone
    new.matrix_parent_inverse = old.matrix_parent_inverse.copy()
    new.rotation_mode = old.rotation_mode
    new.matrix_basis = old.matrix_basis.copy()
    for child in _children(ctx, index, old):
        inverse = child.matrix_parent_inverse.copy()
        child.parent = new
        child.matrix_parent_inverse = inverse
    for key in list(old.keys()):  # custom properties (glTF extras; on 4.x also other add-ons' properties)
        if key == "gltf_physics":  # 4.x keeps it in the same storage: copied through RNA below
            continue
        with contextlib.suppress(TypeError, KeyError):  # unsupported id properties
            new[key] = old[key]
    pg = getattr(old, "gltf_physics", None)
    if pg is not None and len(pg.id_properties_ensure()):  # 5.0 no longer lists add-on properties in keys()
        copy_property_group(pg, new.gltf_physics)
    gltf_addon.set_node_object(ctx.gltf, index, new)
    ctx.move_stored(old, new)
    _remap_context(ctx, index, old, new)
    ctx.cache.setdefault("replaced", []).append(old)
    return new


def _children(ctx, index: int, old: bpy.types.Object) -> list:
    """Objects parented to ``old``: those of the importer's child vnodes (``Object.children`` scans every object
    of the file per call); ``old.children`` when the importer has no vnode for the node."""
    children = gltf_addon.child_objects(ctx.gltf, index, old)
    return list(old.children) if children is None else children


def remove_replaced(ctx) -> None:
    """Turn placeholder mesh objects the body step did not use back into Empties, then delete the replaced objects
    all at once, and the placeholder mesh."""
    placeholder = ctx.placeholder
    if placeholder is not None:
        for index, ob in list(ctx.objects.items()):
            if ob.type == "MESH" and ob.data == placeholder:
                _replace(ctx, index, None)
    replaced = ctx.cache.pop("replaced", [])
    if replaced:
        bpy.data.batch_remove(replaced)
    if placeholder is not None:
        ctx.placeholder = None
        if not placeholder.users:
            bpy.data.meshes.remove(placeholder)


class EmptyPlaceholders:
    """``gather_import_node_before_hook`` / ``_after_hook``: a node whose Empty the body step would replace by a mesh
    object is created by the importer as a mesh object holding one shared, empty placeholder mesh instead; the body
    step only swaps its mesh (``replace_with_mesh_object``). No second object, no rename, no deletion: each of those
    walks or scans every object of the file (quadratic with thousands of bodies)."""

    def __init__(self, candidates: set[int], gltf):
        self.candidates = candidates
        self.gltf = gltf
        self.mesh: bpy.types.Mesh | None = None
        self.given: set[int] = set()

    def before_node(self, vnode, gltf_node, index: int | None) -> None:
        """Node ``index`` (``gltf_addon.node_index``) is about to become an object."""
        if index not in self.candidates or not gltf_addon.plain_empty(vnode):
            return
        if self.mesh is None:
            self.mesh = bpy.data.meshes.new(PLACEHOLDER_NAME)
        if gltf_addon.give_mesh(self.gltf, vnode, gltf_node, index, self.mesh.name):
            self.given.add(index)

    def after_node(self, vnode, gltf_node, index: int | None) -> None:
        if index in self.given:
            gltf_addon.take_mesh(self.gltf, vnode, gltf_node, index)

    def finish(self) -> None:
        """Every node's object exists: the importer's data back as the file has it."""
        gltf_addon.drop_stand_in(self.gltf)


def holds_no_mesh(ctx, ob) -> bool:
    """An Empty, or a placeholder mesh object standing in for one (``EmptyPlaceholders``)."""
    return ob.type == "EMPTY" or (ctx.placeholder is not None and ob.data == ctx.placeholder)


def copy_property_group(src, dst) -> None:
    """Copy the values ``src`` holds (its ID properties: nested groups, collections, object pointers) onto ``dst``,
    replacing dst's. Not through RNA: the shape parameters are computed properties (``ui.body.sync_shapes``) whose
    32-bit floats, set back, rewrote the stored shape (a radius of 1e308 became Infinity)."""
    values = src.id_properties_ensure().to_dict()
    group = dst.id_properties_ensure()
    group.clear()
    group.update(values)


def _remap_context(ctx, index: int, old: bpy.types.Object, new: bpy.types.Object) -> None:
    """Point the import context's entries for node ``index`` (the only keys that can hold ``old``) at ``new``."""
    for mapping in (ctx.objects, ctx.body_objects, ctx.trigger_objects):
        if mapping.get(index) == old:
            mapping[index] = new
    objects = ctx.collider_objects.get(index)
    if objects:
        objects[:] = [new if ob == old else ob for ob in objects]
    if ctx.body_object_of:  # filled at the end of the body step: many nodes share one body object
        for key, ob in ctx.body_object_of.items():
            if ob is not None and ob == old:
                ctx.body_object_of[key] = new


def relative_transform(ctx, body_index: int, node_index: int) -> tuple[Matrix, tuple[float, float, float]]:
    """Node ``node_index`` in body ``body_index``'s local space (Blender axes) as (rotation+translation, |scale|).

    Compound children get no scale of their own: their scale is baked into the proxy mesh (Blender's compound shape
    uses only the children's location and rotation relative to the parent).
    """
    if body_index == node_index:  # a body's own collider: no relative transform (only rounding noise to compute)
        return Matrix.Identity(4), (1.0, 1.0, 1.0)
    body = ctx.node_world_matrix(body_index)
    node = ctx.node_world_matrix(node_index)
    try:
        relative = body.inverted() @ node
    except ValueError:  # singular body transform (zero scale)
        relative = Matrix.Identity(4)
    parts = decompose(relative)  # mathutils rows, read as floats
    if parts is None:
        return Matrix.Identity(4), (0.0, 0.0, 0.0)
    (tx, ty, tz), (qx, qy, qz, qw), scale = parts
    rot = Quaternion((qw, qx, qy, qz)).to_matrix().to_4x4()
    return Matrix.Translation(Vector((tx, ty, tz))) @ rot, tuple(abs(s) for s in scale)
