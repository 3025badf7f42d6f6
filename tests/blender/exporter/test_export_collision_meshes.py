"""Collision-only meshes (``io/exporter/collision_meshes.py``): written as POSITION + triangle indices straight from
the mesh, the same triangles io_scene_gltf2 writes, without the NORMAL accessor the file never had; meshes that
something renders, or that hold more than positions, still go through io_scene_gltf2 (shared, nothing lost)."""

from __future__ import annotations

import base64
import json
import pathlib

import bpy
import numpy as np
import pytest

from blenderkit import submodule
from export_helpers import export

RB = "KHR_physics_rigid_bodies"
BOX = np.array([[x, y, z] for x in (-1.0, 2.0) for y in (-0.5, 0.5) for z in (-3.0, 1.0)], dtype=np.float32)
BOX_TRIANGLES = np.array(
    [0, 1, 3, 0, 3, 2, 4, 6, 7, 4, 7, 5, 0, 4, 5, 0, 5, 1, 2, 3, 7, 2, 7, 6, 0, 2, 6, 0, 6, 4, 1, 5, 7, 1, 7, 3],
    dtype=np.uint16,
)
TETRA = np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1]], dtype=np.float32)
TETRA_TRIANGLES = np.array([0, 2, 1, 0, 1, 3, 0, 3, 2, 1, 2, 3], dtype=np.uint16)


class _Builder:
    """A glTF document with one embedded buffer."""

    def __init__(self):
        self.data = bytearray()
        self.doc: dict = {"asset": {"version": "2.0"}, "extensionsUsed": [RB], "bufferViews": [], "accessors": []}

    def accessor(self, array: np.ndarray, kind: str, component: int) -> int:
        while len(self.data) % 4:
            self.data.append(0)
        self.doc["bufferViews"].append({"buffer": 0, "byteOffset": len(self.data), "byteLength": array.nbytes})
        self.data += array.tobytes()
        entry = {"bufferView": len(self.doc["bufferViews"]) - 1, "componentType": component, "count": len(array)}
        entry["type"] = kind
        if kind == "VEC3":
            entry["min"], entry["max"] = array.min(axis=0).tolist(), array.max(axis=0).tolist()
        self.doc["accessors"].append(entry)
        return len(self.doc["accessors"]) - 1

    def mesh(self, name: str, positions, triangles, mode: int = 4, **extra) -> int:
        attributes = {"POSITION": self.accessor(positions, "VEC3", 5126)}
        for key, array in extra.items():
            attributes[key] = self.accessor(array, "VEC2" if key.startswith("TEXCOORD") else "VEC3", 5126)
        primitive = {"attributes": attributes}
        if triangles is not None:
            primitive["indices"] = self.accessor(triangles, "SCALAR", 5123)
        if mode != 4:
            primitive["mode"] = mode
        self.doc.setdefault("meshes", []).append({"name": name, "primitives": [primitive]})
        return len(self.doc["meshes"]) - 1

    def write(self, path: pathlib.Path, nodes: list[dict]) -> pathlib.Path:
        uri = "data:application/octet-stream;base64," + base64.b64encode(bytes(self.data)).decode()
        self.doc["buffers"] = [{"byteLength": len(self.data), "uri": uri}]
        children = {c for node in nodes for c in node.get("children", [])}
        roots = [i for i in range(len(nodes)) if i not in children]
        self.doc.update(nodes=nodes, scenes=[{"nodes": roots}], scene=0)
        path.write_text(json.dumps(self.doc))
        return path


def _collider(mesh: int, convex: bool = False, **node) -> dict:
    geometry = {"mesh": mesh, **({"convexHull": True} if convex else {})}
    return {**node, "extensions": {RB: {"collider": {"geometry": geometry}}}}


def _accessor(gltf: dict, folder: pathlib.Path, index: int) -> np.ndarray:
    accessor = gltf["accessors"][index]
    view = gltf["bufferViews"][accessor["bufferView"]]
    data = (folder / gltf["buffers"][view["buffer"]]["uri"]).read_bytes()
    dtype = {5126: np.float32, 5123: np.uint16, 5125: np.uint32}[accessor["componentType"]]
    width = {"SCALAR": 1, "VEC2": 2, "VEC3": 3}[accessor["type"]]
    start = view.get("byteOffset", 0) + accessor.get("byteOffset", 0)
    values = np.frombuffer(data, dtype=dtype, count=accessor["count"] * width, offset=start)
    return values.reshape(-1, width) if width > 1 else values


def _collision_mesh(gltf: dict, name: str) -> dict:
    """The glTF mesh the collider of node ``name`` uses (``geometry.mesh``, or the mesh of ``geometry.node``)."""
    node = next(n for n in gltf["nodes"] if n.get("name") == name)
    geometry = node["extensions"][RB]["collider"]["geometry"]
    index = geometry["mesh"] if "mesh" in geometry else gltf["nodes"][geometry["node"]]["mesh"]
    return gltf["meshes"][index]


def _triangles(gltf: dict, folder: pathlib.Path, mesh: dict) -> list[bytes]:
    """The mesh's triangles as sorted position triples (independent of vertex order and numbering)."""
    (primitive,) = mesh["primitives"]
    positions = _accessor(gltf, folder, primitive["attributes"]["POSITION"])
    return _expected(positions, _accessor(gltf, folder, primitive["indices"]))


def _expected(positions: np.ndarray, triangles: np.ndarray) -> list[bytes]:
    return sorted(triangle.tobytes() for triangle in positions.astype(np.float32)[triangles.reshape(-1, 3)])


def _import(builder: _Builder, tmp_path: pathlib.Path, nodes: list[dict]) -> None:
    path = builder.write(tmp_path / "source.gltf", nodes)
    assert bpy.ops.import_scene.gltf(filepath=str(path)) == {"FINISHED"}
    for folder in ("out", "ours", "theirs"):  # bpy 4.2 does not create missing folders
        (tmp_path / folder).mkdir()


def test_collider_only_mesh_is_positions_and_triangles(clean, tmp_path):
    builder = _Builder()
    loose = np.vstack([BOX, [[9.0, 9.0, 9.0]]]).astype(np.float32)  # a vertex no triangle uses
    box = builder.mesh("Box", loose, BOX_TRIANGLES)
    hull = builder.mesh("Tetra", TETRA, TETRA_TRIANGLES)
    nodes = [_collider(box, name="Ground", translation=[0, -1, 0]), _collider(hull, True, name="Hull")]
    _import(builder, tmp_path, nodes)

    out = export(tmp_path / "out" / "box.gltf", "2026")
    folder = tmp_path / "out"
    for name, positions, triangles in (("Ground", BOX, BOX_TRIANGLES), ("Hull", TETRA, TETRA_TRIANGLES)):
        mesh = _collision_mesh(out, name)
        (primitive,) = mesh["primitives"]
        assert set(primitive["attributes"]) == {"POSITION"}, mesh
        assert "material" not in primitive and primitive.get("mode", 4) == 4
        assert _triangles(out, folder, mesh) == _expected(positions, triangles)
        accessor = out["accessors"][primitive["attributes"]["POSITION"]]
        assert accessor["count"] == len(positions)  # the loose vertex is not written
        assert accessor["min"] == positions.min(axis=0).tolist() and accessor["max"] == positions.max(axis=0).tolist()
    assert len(out["meshes"]) == 2


@pytest.mark.parametrize("yup", [True, False])
def test_same_triangles_as_io_scene_gltf2(clean, tmp_path, monkeypatch, yup):
    """Written here or by io_scene_gltf2 (forced by a mesh our writer declines): the same triangles, Y up or not."""
    builder = _Builder()
    nodes = [_collider(builder.mesh("Box", BOX, BOX_TRIANGLES), name="Ground", rotation=[0, 0.38268343, 0, 0.9238795])]
    _import(builder, tmp_path, nodes)

    ours = export(tmp_path / "ours" / "box.gltf", "2026", export_yup=yup)
    monkeypatch.setattr(submodule(clean, "io.exporter.collision_meshes"), "plain_mesh", lambda ob, settings: False)
    theirs = export(tmp_path / "theirs" / "box.gltf", "2026", export_yup=yup)

    mine, reference = _collision_mesh(ours, "Ground"), _collision_mesh(theirs, "Ground")
    assert "NORMAL" in reference["primitives"][0]["attributes"]  # what io_scene_gltf2 adds
    assert set(mine["primitives"][0]["attributes"]) == {"POSITION"}
    assert _triangles(ours, tmp_path / "ours", mine) == _triangles(theirs, tmp_path / "theirs", reference)
    assert len(_triangles(ours, tmp_path / "ours", mine)) == 12


def test_rendered_collision_mesh_stays_one_shared_mesh(clean, tmp_path):
    """A mesh a node renders and another node only collides with: still one glTF mesh (io_scene_gltf2's)."""
    builder = _Builder()
    tetra = builder.mesh("Tetra", TETRA, TETRA_TRIANGLES)  # positions only: our writer could take it
    nodes = [{"name": "Visual", "mesh": tetra}, _collider(tetra, True, name="Hull", translation=[3, 0, 0])]
    _import(builder, tmp_path, nodes)

    out = export(tmp_path / "out" / "shared.gltf", "2026")
    assert len(out["meshes"]) == 1, out["meshes"]
    assert _collision_mesh(out, "Hull") is out["meshes"][0]
    assert "NORMAL" in out["meshes"][0]["primitives"][0]["attributes"]


def test_collision_mesh_with_uvs_keeps_them(clean, tmp_path):
    """More than positions (a UV map): io_scene_gltf2 writes the mesh, nothing of it is lost."""
    builder = _Builder()
    uvs = np.array([[0, 0], [1, 0], [0, 1], [1, 1]], dtype=np.float32)
    nodes = [_collider(builder.mesh("Tetra", TETRA, TETRA_TRIANGLES, TEXCOORD_0=uvs), True, name="Hull")]
    _import(builder, tmp_path, nodes)

    out = export(tmp_path / "out" / "uv.gltf", "2026")
    mesh = _collision_mesh(out, "Hull")
    assert "TEXCOORD_0" in mesh["primitives"][0]["attributes"]
    assert _triangles(out, tmp_path / "out", mesh) == _expected(TETRA, TETRA_TRIANGLES)


@pytest.mark.parametrize("revision", ["2026", "2024-10"])
def test_compound_of_mesh_colliders(clean, tmp_path, revision):
    """A body with mesh colliders on itself and on a child: the import builds a compound of proxies holding the
    meshes; the export writes each one (ours) and both colliders reference it (2024-10: through ``geometry.node``)."""
    builder = _Builder()
    box, tetra = builder.mesh("Box", BOX, BOX_TRIANGLES), builder.mesh("Tetra", TETRA, TETRA_TRIANGLES)
    body = _collider(box, name="Body", children=[1])
    body["extensions"][RB]["motion"] = {"mass": 1.0}
    child = _collider(tetra, True, name="Child", translation=[0, 2, 0])
    _import(builder, tmp_path, [body, child])

    out = export(tmp_path / "out" / "compound.gltf", revision)
    for name, positions, triangles in (("Body", BOX, BOX_TRIANGLES), ("Child", TETRA, TETRA_TRIANGLES)):
        geometry = next(n for n in out["nodes"] if n.get("name") == name)["extensions"][RB]["collider"]["geometry"]
        assert ("node" if revision == "2024-10" else "mesh") in geometry, geometry
        mesh = _collision_mesh(out, name)
        assert set(mesh["primitives"][0]["attributes"]) == {"POSITION"}, mesh
        assert _triangles(out, tmp_path / "out", mesh) == _expected(positions, triangles)


def test_glb_export_writes_collision_meshes(clean, tmp_path):
    builder = _Builder()
    _import(builder, tmp_path, [_collider(builder.mesh("Box", BOX, BOX_TRIANGLES), name="Ground")])
    path = tmp_path / "out" / "box.glb"
    assert bpy.ops.export_scene.gltf(filepath=str(path), export_format="GLB") == {"FINISHED"}
    re_read = submodule(clean, "io.gltf.files").load(path)
    mesh = _collision_mesh(re_read.json, "Ground")
    assert set(mesh["primitives"][0]["attributes"]) == {"POSITION"}


POINTS, LINES = 0, 1
BOX_EDGES = np.array([0, 1, 1, 3, 3, 2, 2, 0, 4, 5, 5, 7, 7, 6, 6, 4, 0, 4, 1, 5, 2, 6, 3, 7], dtype=np.uint16)


def _vertices_and_edges(gltf: dict, folder: pathlib.Path, mesh: dict) -> tuple[list[bytes], list[bytes]]:
    """The mesh's POINTS positions and LINES segments (sorted position pairs), whatever the primitive layout."""
    points, segments = [], []
    for primitive in mesh["primitives"]:
        positions = _accessor(gltf, folder, primitive["attributes"]["POSITION"]).astype(np.float32)
        mode = primitive.get("mode", 4)
        if mode == POINTS:
            used = _accessor(gltf, folder, primitive["indices"]) if "indices" in primitive else range(len(positions))
            points.extend(positions[i].tobytes() for i in used)
        elif mode == LINES:
            pairs = _accessor(gltf, folder, primitive["indices"]).reshape(-1, 2)
            segments.extend(b"".join(sorted(positions[i].tobytes() for i in pair)) for pair in pairs)
    return sorted(points), sorted(segments)


@pytest.mark.parametrize("rendered", [False, True], ids=["collision only", "also rendered"])
@pytest.mark.parametrize("convex", [False, True], ids=["triangle mesh", "convex hull"])
def test_point_and_line_collision_meshes_are_written_back(clean, tmp_path, rendered, convex):
    """Found by a sweep of primitive modes: a collider whose mesh is POINTS or LINES imported (Blender keeps loose
    vertices / edges), but io_scene_gltf2 exports no loose geometry by default, so the export dropped the collider
    ("the mesh ... was not exported"). Such a mesh is now written here, in its own mode."""
    builder = _Builder()
    cloud = builder.mesh("Cloud", BOX, None, mode=POINTS)
    wire = builder.mesh("Wire", BOX, BOX_EDGES, mode=LINES)
    nodes = [_collider(cloud, convex, name="Cloud"), _collider(wire, convex, name="Wire", translation=[4, 0, 0])]
    if rendered:
        nodes += [{"name": "SeeCloud", "mesh": cloud}, {"name": "SeeWire", "mesh": wire}]
    _import(builder, tmp_path, nodes)

    out = export(tmp_path / "out" / "loose.gltf", "2026")
    folder = tmp_path / "out"
    points, _ = _vertices_and_edges(out, folder, _collision_mesh(out, "Cloud"))
    assert points == sorted(p.tobytes() for p in BOX)
    _, segments = _vertices_and_edges(out, folder, _collision_mesh(out, "Wire"))
    assert len(segments) == len(BOX_EDGES) // 2
    for name in ("Cloud", "Wire"):
        geometry = next(n for n in out["nodes"] if n.get("name") == name)["extensions"][RB]["collider"]["geometry"]
        assert geometry.get("convexHull", False) == convex
