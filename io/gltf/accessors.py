"""A glTF mesh's triangles from the file's own accessors (bpy-free): positions and triangle indices.

The import's public-hook path for collision meshes no node renders (``gltf_addon``'s ``mesh_builder`` probe
failed): the same geometry io_scene_gltf2 would build (one vertex per accessor element of each primitive, in order),
without normals, UVs or materials, which a collider does not use. Reads float32 / normalized integer positions,
byte strides, sparse accessors and the TRIANGLES, TRIANGLE_STRIP and TRIANGLE_FAN modes; other modes add vertices
without faces, as in io_scene_gltf2.
"""

from __future__ import annotations

import base64
import pathlib

import numpy as np

from ..diagnostics import Diagnostic
from .files import CHUNK_BIN, load, resource_limit
from .safe_files import ResourceReadError, is_embedded, read_regular, safe_resource

_COMPONENTS = {5120: np.int8, 5121: np.uint8, 5122: np.int16, 5123: np.uint16, 5125: np.uint32, 5126: np.float32}
_WIDTH = {"SCALAR": 1, "VEC2": 2, "VEC3": 3, "VEC4": 4, "MAT2": 4, "MAT3": 9, "MAT4": 16}
_NORMALIZED = {5120: 127.0, 5121: 255.0, 5122: 32767.0, 5123: 65535.0}


class MeshReadError(ValueError):
    """The mesh's accessors cannot be read (a missing buffer, a view out of range)."""


class _Buffers:
    def __init__(self, path: pathlib.Path):
        self.file = load(path)
        self.folder = path.parent
        self.cache: dict[int, bytes] = {}

    def get(self, index: int) -> bytes:
        if index not in self.cache:
            buffers = self.file.json.get("buffers") or []
            buffer = buffers[index]
            uri = buffer.get("uri")
            if uri is None:  # the GLB's binary chunk
                chunk = next((data for kind, data in self.file.chunks if kind == CHUNK_BIN), None)
                if chunk is None or index != 0:
                    raise MeshReadError(f"/buffers/{index} has no data")
                data = chunk
            elif is_embedded(uri):
                data = base64.b64decode(uri.split(",", 1)[1])
            else:  # the one path-safety rule for resources: never a file outside the glTF's folder
                where = f"/buffers/{index}/uri"
                limit = resource_limit(self.file.json, where)
                found = safe_resource(self.folder, uri, where, max_bytes=limit)
                if isinstance(found, Diagnostic):
                    raise MeshReadError(found.message)
                try:
                    data = read_regular(found, limit)
                except ResourceReadError as exc:
                    raise MeshReadError(f"{where}: {exc}") from exc
            self.cache[index] = data
        return self.cache[index]


def _accessor(document: dict, buffers: _Buffers, index: int) -> np.ndarray:
    """Accessor ``index`` as an (count, width) array (float64 for normalized integers)."""
    accessor = document["accessors"][index]
    dtype = np.dtype(_COMPONENTS[accessor["componentType"]]).newbyteorder("<")
    width, count = _WIDTH[accessor["type"]], int(accessor["count"])
    out = np.zeros((count, width), dtype=dtype)
    if "bufferView" in accessor:
        view = document["bufferViews"][accessor["bufferView"]]
        data = buffers.get(view["buffer"])
        start = int(view.get("byteOffset", 0)) + int(accessor.get("byteOffset", 0))
        stride = int(view.get("byteStride") or dtype.itemsize * width)
        end = start + stride * (count - 1) + dtype.itemsize * width if count else start
        if end > len(data):
            raise MeshReadError(f"/accessors/{index} reads past its buffer")
        raw = np.frombuffer(data, dtype=np.uint8, count=end - start, offset=start)
        rows = np.lib.stride_tricks.as_strided(raw, shape=(count, dtype.itemsize * width), strides=(stride, 1))
        out = rows.copy().view(dtype).reshape(count, width)
    sparse = accessor.get("sparse")
    if sparse:
        take = int(sparse["count"])
        where = sparse["indices"]
        kind = np.dtype(_COMPONENTS[where["componentType"]]).newbyteorder("<")
        place = _view_array(document, buffers, where, kind, take, 1).ravel().astype(np.int64)
        values = _view_array(document, buffers, sparse["values"], dtype, take, width)
        out = out.copy()
        out[place] = values
    if accessor.get("normalized") and accessor["componentType"] in _NORMALIZED:
        return np.maximum(out.astype(np.float64) / _NORMALIZED[accessor["componentType"]], -1.0)
    return out


def _view_array(document: dict, buffers: _Buffers, ref: dict, dtype: np.dtype, count: int, width: int) -> np.ndarray:
    view = document["bufferViews"][ref["bufferView"]]
    data = buffers.get(view["buffer"])
    start = int(view.get("byteOffset", 0)) + int(ref.get("byteOffset", 0))
    return np.frombuffer(data, dtype=dtype, count=count * width, offset=start).reshape(count, width)


def _triangles(mode: int, indices: np.ndarray) -> np.ndarray:
    if mode == 4:
        usable = len(indices) - len(indices) % 3
        return indices[:usable].reshape(-1, 3)
    if mode == 5 and len(indices) >= 3:  # strip: every other triangle flipped to keep the winding
        tris = np.stack([indices[:-2], indices[1:-1], indices[2:]], axis=1)
        tris[1::2] = tris[1::2][:, [1, 0, 2]]
        return tris
    if mode == 6 and len(indices) >= 3:
        return np.stack([np.full(len(indices) - 2, indices[0]), indices[1:-1], indices[2:]], axis=1)
    return np.zeros((0, 3), dtype=np.int64)


def mesh_triangles(path: str | pathlib.Path, document: dict, mesh_index: int) -> tuple[np.ndarray, np.ndarray]:
    """(positions (n, 3) float64 in glTF axes, triangles (m, 3) int64) of mesh ``mesh_index`` of the file at
    ``path`` whose JSON is ``document``: every primitive's vertices in order, its faces offset by those before."""
    buffers = _Buffers(pathlib.Path(path))
    positions, faces, offset = [], [], 0
    try:
        for primitive in document["meshes"][mesh_index].get("primitives") or []:
            points = _accessor(document, buffers, primitive["attributes"]["POSITION"]).astype(np.float64)
            if "indices" in primitive:
                order = _accessor(document, buffers, primitive["indices"]).ravel().astype(np.int64)
            else:
                order = np.arange(len(points), dtype=np.int64)
            tris = _triangles(int(primitive.get("mode", 4)), order)
            positions.append(points[:, :3])
            faces.append(tris[(tris < len(points)).all(axis=1)] + offset)
            offset += len(points)
    except (KeyError, IndexError, TypeError, OSError) as exc:
        raise MeshReadError(f"/meshes/{mesh_index}: {type(exc).__name__}: {exc}") from exc
    if not positions:
        return np.zeros((0, 3)), np.zeros((0, 3), dtype=np.int64)
    return np.concatenate(positions), np.concatenate(faces)
