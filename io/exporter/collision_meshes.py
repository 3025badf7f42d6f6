"""Collision-only meshes written straight from the mesh data: POSITION and triangle indices, nothing else.

A proxy holding a glTF collision mesh, or a node whose mesh was generated for its collider (``selection``:
"collision"), is exported only for its geometry. io_scene_gltf2's mesh export gathers normals, splits vertices by
them and writes a NORMAL accessor the input never had, at a few milliseconds per mesh. A plain collision mesh (no
modifiers, shape keys, materials, UV maps, colours, custom normals or attributes of its own, no loose geometry
to export) that no other object uses is written here with one ``foreach_get`` per array, in the mesh's own vertex
order (the order the import read from the file); anything else goes through io_scene_gltf2 as before (a mesh another
object renders stays one glTF mesh shared by both). A plain mesh without faces (a POINTS or LINES collider) is
written here even when shared: io_scene_gltf2 writes no loose geometry by default, and the collider would be lost.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .. import gltf_addon

_BUILTIN = frozenset({"position", "sharp_face", "sharp_edge", "material_index"})
POINTS, LINES = 0, 1  # glTF primitive modes


def plain_mesh(ob, export_settings) -> bool:
    """``ob``'s mesh holds nothing io_scene_gltf2 would write besides positions and triangles."""
    mesh = ob.data
    if ob.type != "MESH" or len(ob.modifiers) or mesh.shape_keys is not None or len(mesh.materials):
        return False
    if any(slot.material is not None for slot in ob.material_slots):
        return False
    if len(mesh.uv_layers) or len(mesh.color_attributes) or mesh.has_custom_normals:
        return False
    if any(not a.name.startswith(".") and a.name not in _BUILTIN for a in mesh.attributes):
        return False
    settings = export_settings if isinstance(export_settings, dict) else {}
    if settings.get("gltf_draco_mesh_compression") or (settings.get("gltf_extras") and len(mesh.keys())):
        return False
    return not (settings.get("gltf_loose_edges") or settings.get("gltf_loose_points"))


def triangles(mesh) -> tuple[np.ndarray, np.ndarray] | None:
    """(positions float32 (n, 3) in Blender axes, indices (3m,) into them) of the triangulated mesh, only the
    vertices some triangle uses; None without triangles."""
    count = len(mesh.loop_triangles)
    if count == 0:
        return None
    corners = np.empty(count * 3, dtype=np.int32)
    mesh.loop_triangles.foreach_get("vertices", corners)
    positions = np.empty(len(mesh.vertices) * 3, dtype=np.float32)
    mesh.vertices.foreach_get("co", positions)
    positions = positions.reshape(-1, 3)
    used = np.zeros(len(positions), dtype=bool)
    used[corners] = True
    if not used.all():  # loose vertices are not exported (io_scene_gltf2 leaves them out too)
        remap = np.cumsum(used, dtype=np.int64) - 1
        positions, corners = positions[used], remap[corners]
    return positions, corners


def collision_mesh(ob, export_settings, yup: bool, cache: dict) -> Any | None:
    """The glTF mesh for ``ob``'s collision-only mesh, or None (io_scene_gltf2 exports it). Only a mesh no other
    object uses: one that something also renders stays one shared glTF mesh, io_scene_gltf2's (``cache``: per mesh
    data and export)."""
    key = ob.data.as_pointer() if ob.type == "MESH" else None
    if key in cache:
        return cache[key]
    found = None
    if key is not None and plain_mesh(ob, export_settings):
        data = triangles(ob.data) if len(ob.data.polygons) else None
        if data is not None and ob.data.users == 1:
            positions, corners = data
            found = gltf_addon.primitives_mesh(ob.data.name, _axes(positions, yup), [(_indices(corners), None)])
        elif data is None and len(ob.data.vertices):  # io_scene_gltf2 writes no loose geometry (``plain_mesh``)
            positions, parts = loose_geometry(ob.data)  # written even if shared: nobody else writes it
            found = gltf_addon.primitives_mesh(ob.data.name, _axes(positions, yup), parts)
    cache[key] = found
    return found


def loose_geometry(mesh) -> tuple[np.ndarray, list]:
    """(positions float32 (n, 3) in Blender axes, [(indices or None, glTF mode)]) of a mesh without faces, as the
    file had it: its edges as LINES, the vertices no edge uses as POINTS (every vertex, unindexed, without edges)."""
    positions = np.empty(len(mesh.vertices) * 3, dtype=np.float32)
    mesh.vertices.foreach_get("co", positions)
    positions = positions.reshape(-1, 3)
    if not len(mesh.edges):
        return positions, [(None, POINTS)]
    ends = np.empty(len(mesh.edges) * 2, dtype=np.int64)
    mesh.edges.foreach_get("vertices", ends)
    parts = [(_indices(ends), LINES)]
    alone = np.setdiff1d(np.arange(len(positions)), ends)
    if len(alone):
        parts.append((_indices(alone), POINTS))
    return positions, parts


def _axes(positions: np.ndarray, yup: bool) -> np.ndarray:
    """Blender Z up -> glTF Y up: (x, y, z) -> (x, z, -y), as io_scene_gltf2 converts."""
    if not yup:
        return positions
    positions = np.ascontiguousarray(positions[:, [0, 2, 1]])
    positions[:, 2] *= -1.0
    return positions


def _indices(values: np.ndarray) -> np.ndarray:
    """uint16 unless a value reaches 65535 (as io_scene_gltf2: a primitive-restart value in uint16), then uint32."""
    wide = len(values) and int(values.max()) >= 65535
    return values.astype(np.uint32 if wide else np.uint16)
