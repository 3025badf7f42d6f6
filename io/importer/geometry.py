"""Collider/trigger geometry → Blender mesh data and collision shape (implicit proxies and glTF mesh colliders)."""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field

import bmesh
import bpy
from mathutils import Matrix

from .. import gltf_addon
from ..gltf.accessors import mesh_triangles
from ..gltf.model import MESH, Geometry, MeshShape, Shape
from ..mapping import mesh_points
from ..mapping.axes import points_to_blender
from ..mapping.shapes_to_blender import ShapeMesh, derived_primitive_matches, fits_blender, implicit_mesh
from .context import NOT_SIMULATED, SKIPPED, ImportContext
from .proxies import mesh_from_shape


@dataclass
class ResolvedGeometry:
    """Either an implicit ``shape`` or a glTF ``mesh_index`` (with ``convex`` = convex hull)."""

    shape: Shape | None = None
    mesh_index: int | None = None
    convex: bool = False
    notes: list[str] = field(default_factory=list)


@dataclass
class GeometryData:
    """A collider's mesh and Blender collision shape. Its volume (``density × volume`` is the mass of a body without
    one) is computed when first read: a glTF mesh's volume needs a BMesh of the whole mesh, and most bodies have a
    mass and static colliders none."""

    mesh: bpy.types.Mesh
    collision_shape: str
    volume_of: Callable[[], float | None]
    notes: list[str] = field(default_factory=list)

    @property
    def volume(self) -> float | None:
        return self.volume_of()


def _known(volume: float | None) -> Callable[[], float | None]:
    return lambda: volume


def _scaled_mesh_volume(ctx: ImportContext, mesh: bpy.types.Mesh, factor: float) -> Callable[[], float | None]:
    """The volume of ``mesh`` times ``factor``, computed when read (once per mesh and import)."""

    def volume() -> float | None:
        unscaled = _mesh_volume(ctx, mesh)
        return None if unscaled is None else unscaled * factor

    return volume


def resolve(ctx: ImportContext, geometry: Geometry, ptr: str, scale=(1.0, 1.0, 1.0)) -> ResolvedGeometry | None:
    """The shape or mesh a geometry stands for; None (with a warning) when it points at nothing usable or at an
    implicit shape that, at the node's world ``scale``, is beyond Blender's 32-bit floats (kept for export)."""
    doc = ctx.document
    if geometry.shape is not None:
        if not 0 <= geometry.shape < len(doc.shapes):
            ctx.warn(SKIPPED, ptr + "/shape", f"shape {geometry.shape} does not exist")
            return None
        shape = doc.shapes[geometry.shape]
        if shape.type == MESH and isinstance(shape.params, MeshShape):
            notes = ["skin/morph weights of the mesh shape ignored"] if shape.params.skin is not None else []
            hull = shape.params.convex_hull  # stored as the geometry's convex hull too (``stored.store_geometry``)
            return ResolvedGeometry(mesh_index=shape.params.mesh, convex=hull, notes=notes)
        if shape.params is None:
            # The validator already warned once at the shape; the shape is kept as raw JSON for export.
            ctx.note(NOT_SIMULATED, ptr + "/shape", f"shape type {shape.type!r} is unknown: not simulated, kept")
            return None
        if not fits_blender(shape, scale):
            ctx.warn(
                SKIPPED,
                ptr + "/shape",
                f"shape {geometry.shape} ({shape.type}) at this node's scale is beyond the 32-bit floats Blender "
                "holds: not built or simulated, kept for export",
            )
            return None
        return ResolvedGeometry(shape=shape)
    if geometry.mesh is not None:
        return ResolvedGeometry(mesh_index=geometry.mesh, convex=geometry.convex_hull)
    if geometry.node is not None:
        node = ctx.json_nodes[geometry.node] if 0 <= geometry.node < len(ctx.json_nodes) else None
        mesh = node.get("mesh") if isinstance(node, dict) else None
        if not isinstance(mesh, int) or isinstance(mesh, bool):
            ctx.warn(SKIPPED, ptr + "/node", f"geometry node {geometry.node} has no mesh")
            return None
        notes = []
        if isinstance(node.get("children"), list) and node["children"]:
            notes.append("child meshes of the geometry node are not included")
        if node.get("skin") is not None or node.get("weights") is not None:
            notes.append("skin/morph deformation of the geometry node ignored (rest shape used)")
        return ResolvedGeometry(mesh_index=mesh, convex=geometry.convex_hull, notes=notes)
    return None


def _mesh_count(ctx: ImportContext) -> int:
    meshes = ctx.json.get("meshes")
    return len(meshes) if isinstance(meshes, list) else 0


def _primitive_key(ctx: ImportContext, mesh_index: int):
    mesh = ctx.json["meshes"][mesh_index]
    prims = mesh.get("primitives") if isinstance(mesh, dict) else None
    if not isinstance(prims, list):
        return None
    return [
        (p.get("attributes", {}).get("POSITION"), p.get("indices"), p.get("mode", 4))
        for p in prims
        if isinstance(p, dict) and isinstance(p.get("attributes"), dict)
    ]


def same_mesh(ctx: ImportContext, node_index: int, mesh_index: int) -> bool:
    """Does node ``node_index`` render exactly mesh ``mesh_index`` (same index, or same position/index data)?"""
    node = ctx.json_nodes[node_index] if 0 <= node_index < len(ctx.json_nodes) else None
    own = node.get("mesh") if isinstance(node, dict) else None
    if not isinstance(own, int) or not 0 <= own < _mesh_count(ctx) or not 0 <= mesh_index < _mesh_count(ctx):
        return False
    if own == mesh_index:
        return True
    key = _primitive_key(ctx, own)
    return bool(key) and key == _primitive_key(ctx, mesh_index)


def mesh_volume(mesh: bpy.types.Mesh) -> float | None:
    """Enclosed volume of a mesh (unsigned; open meshes give a rough number, 0 → None)."""
    bm = bmesh.new()
    try:
        bm.from_mesh(mesh)
        volume = abs(bm.calc_volume(signed=False))
    finally:
        bm.free()
    return volume if volume > 1e-12 else None


def _product(values) -> float:
    """``float(np.prod(values))`` of a few floats (the same left-to-right products) without a numpy call."""
    return float(math.prod(values))


def _memo(ctx: ImportContext, key: tuple, compute):
    """``compute()`` once per import for ``key`` (many bodies share one mesh and one shape)."""
    if key not in ctx.cache:
        ctx.cache[key] = compute()
    return ctx.cache[key]


def _mesh_volume(ctx: ImportContext, mesh: bpy.types.Mesh) -> float | None:
    return _memo(ctx, ("volume", mesh.as_pointer()), lambda: mesh_volume(mesh))


def _hull_shape(ctx: ImportContext, mesh: bpy.types.Mesh, geo: ResolvedGeometry) -> str:
    """BOX when the convex hull of ``mesh`` is exactly the box Blender derives from its bounds (all 8 corners of the
    bounds present, no other points, centred on the origin), else CONVEX_HULL (built by Bullet, with a margin)."""
    return _memo(ctx, ("hull", mesh.as_pointer()), lambda: "BOX" if mesh_points.is_centred_box(mesh) else "CONVEX_HULL")


def own_shape(ctx: ImportContext, index: int, ob, geo: ResolvedGeometry, object_scale) -> GeometryData | None:
    """When node ``index``'s own render mesh can carry this collider unchanged: its shape data, else None."""
    if ob is None or ob.type != "MESH" or ob.data is None or ob.modifiers or ob.data == ctx.placeholder:
        return None
    mesh = ob.data
    scale = tuple(object_scale)
    if geo.shape is not None:  # the answer depends only on (mesh, shape, scale): computed once per combination
        key = ("own", mesh.as_pointer(), id(geo.shape), scale)

        def outline() -> ShapeMesh | None:  # kind, volume and bounds: the rings of a round shape are not built
            return implicit_mesh(geo.shape, (1.0, 1.0, 1.0), scale, outline=True)

        return _memo(ctx, key, lambda: _own_implicit(mesh, _memo(ctx, ("outline", *key[2:]), outline), scale))
    if geo.mesh_index is not None and same_mesh(ctx, index, geo.mesh_index):
        shape = _hull_shape(ctx, mesh, geo) if geo.convex else "MESH"
        return GeometryData(mesh, shape, _scaled_mesh_volume(ctx, mesh, _product(scale)), list(geo.notes))
    return None


def _own_implicit(mesh: bpy.types.Mesh, proxy: ShapeMesh | None, scale: tuple) -> GeometryData | None:
    bounds = mesh_points.bounds(mesh)
    if proxy is None or bounds is None or not derived_primitive_matches(proxy, *bounds):
        return None
    volume = None if proxy.volume is None else proxy.volume * _product(scale)
    return GeometryData(mesh, proxy.collision_shape, _known(volume), proxy.notes)


def new_shape_data(
    ctx: ImportContext, name: str, geo: ResolvedGeometry, bake_scale=(1.0, 1.0, 1.0), object_scale=(1.0, 1.0, 1.0)
) -> GeometryData | None:
    """Mesh data for a proxy: implicit shape mesh, or the glTF mesh (a scaled copy if ``bake_scale``).

    Proxies of the same shape at the same scales share one mesh datablock (and one volume computation).
    """
    det = _product(object_scale)
    bake_scale, object_scale = tuple(bake_scale), tuple(object_scale)
    if geo.shape is not None:
        key = ("implicit", id(geo.shape), bake_scale, object_scale)
        return _memo(
            ctx, key, lambda: _implicit_data(name, implicit_mesh(geo.shape, bake_scale, object_scale), object_scale)
        )
    if geo.mesh_index is None or not 0 <= geo.mesh_index < _mesh_count(ctx):
        return None
    mesh = _memo(ctx, ("mesh", geo.mesh_index, bake_scale), lambda: _scaled_gltf_mesh(ctx, geo.mesh_index, bake_scale))
    shape = _hull_shape(ctx, mesh, geo) if geo.convex else "MESH"
    return GeometryData(mesh, shape, _scaled_mesh_volume(ctx, mesh, det), list(geo.notes))


def _implicit_data(name: str, proxy: ShapeMesh | None, object_scale: tuple) -> GeometryData | None:
    if proxy is None:
        return None
    volume = None if proxy.volume is None else proxy.volume * _product(object_scale)
    return GeometryData(mesh_from_shape(name, proxy), proxy.collision_shape, _known(volume), proxy.notes)


def _scaled_gltf_mesh(ctx: ImportContext, mesh_index: int, bake_scale: tuple) -> bpy.types.Mesh:
    mesh = gltf_addon.blender_mesh(ctx.gltf, mesh_index)
    if mesh is None:  # the public-hook path: the mesh of a node that renders it, else the file's accessors
        mesh = _rendered_mesh(ctx, mesh_index) or _mesh_from_accessors(ctx, mesh_index)
    if any(abs(s - 1.0) > 1e-9 for s in bake_scale):
        mesh = mesh.copy()
        mesh.transform(Matrix.Diagonal((*bake_scale, 1.0)))
    return mesh


def _rendered_mesh(ctx: ImportContext, mesh_index: int) -> bpy.types.Mesh | None:
    """The Blender mesh io_scene_gltf2 built for an unskinned node without morph weights that renders glTF mesh
    ``mesh_index`` (the mesh its cache would have handed out). The nodes are grouped by mesh once per import."""
    renderers = ctx.cache.get("renderers_by_mesh")
    if renderers is None:
        renderers = ctx.cache["renderers_by_mesh"] = {}
        for index, node in enumerate(ctx.json_nodes):
            if isinstance(node, dict) and node.get("skin") is None and isinstance(node.get("mesh"), int):
                renderers.setdefault(node["mesh"], []).append(index)
    for index in renderers.get(mesh_index, ()):
        ob = ctx.objects.get(index)
        if ob is not None and ob.type == "MESH" and ob.data is not None and ob.data.shape_keys is None:
            return ob.data
    return None


def _mesh_from_accessors(ctx: ImportContext, mesh_index: int) -> bpy.types.Mesh:
    """A geometry-only Blender mesh of glTF mesh ``mesh_index`` read from the file (``gltf.accessors``)."""
    positions, triangles = mesh_triangles(ctx.gltf.filename, ctx.json, mesh_index)
    meshes = ctx.json.get("meshes") or []
    name = meshes[mesh_index].get("name") if isinstance(meshes[mesh_index], dict) else None
    mesh = bpy.data.meshes.new(name or f"Mesh_{mesh_index}")
    mesh.from_pydata(points_to_blender(positions).tolist(), [], triangles.tolist())
    mesh.update()
    return mesh
