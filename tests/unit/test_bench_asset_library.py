"""``tests/bench/asset_library.py`` (issue 10's generated library) writes valid physics assets: every kind parses
with no diagnostic, passes the Khronos glTF-Validator, holds the bodies, joints, filters and mesh colliders it says
and is the same for the same seed."""

from __future__ import annotations

import json
import struct

import khronos
import pytest

from testkit import bench_module, submodule

files = submodule("io.gltf.files")
parse = submodule("io.gltf.parse")


@pytest.fixture(scope="module")
def library():
    return bench_module("asset_library")


def test_every_kind_parses_without_a_diagnostic(library, tmp_path):
    paths = library.generate(tmp_path, 10)
    assert [p.parent.name for p in paths] == ["set000"] * 10
    kinds = {}
    for path in paths:
        loaded = files.load(path)
        assert loaded.is_glb
        khronos.check(path)  # the Khronos glTF-Validator at the end of the session: no error
        result = parse.parse_gltf(loaded.json)
        assert result.diagnostics == [], (path.name, result.diagnostics[:3])
        nodes = result.document.nodes.values()
        kinds.setdefault(path.stem.split("_")[0], []).append(
            {
                "bodies": sum(1 for n in nodes if n.motion is not None),
                "colliders": sum(1 for n in nodes if n.collider is not None),
                "joints": sum(1 for n in nodes if n.joint is not None),
                "triggers": sum(1 for n in nodes if n.trigger is not None),
                "triangles": sum(
                    loaded.json["accessors"][p["indices"]]["count"] // 3
                    for m in loaded.json["meshes"]
                    for p in m["primitives"]
                ),
            }
        )
    assert sorted(kinds) == sorted(library.KINDS)
    for counts in kinds["door"]:
        assert (counts["bodies"], counts["colliders"], counts["joints"]) == (1, 2, 1)
    for counts in kinds["vehicle"]:
        assert (counts["bodies"], counts["joints"]) == (5, 4) and counts["colliders"] == 5
    for counts in kinds["crates"]:
        assert counts["triggers"] == 1 and 3 <= counts["bodies"] <= 8
    for counts in kinds["chain"]:
        assert counts["joints"] == counts["bodies"] >= 4
    for each in kinds.values():
        assert all(c["triangles"] >= 300 for c in each)  # render geometry, not just physics


def test_mesh_colliders_and_filters_are_used(library):
    data = library.asset_bytes(4)  # index 4: a rock field
    length = struct.unpack_from("<I", data, 12)[0]
    doc = json.loads(data[20 : 20 + length])
    document = parse.parse_gltf(doc).document
    meshes = [n.collider.geometry for n in document.nodes.values() if n.collider is not None]
    assert any(g.mesh is not None and not g.convex_hull for g in meshes)  # the terrain: triangle mesh
    assert any(g.mesh is not None and g.convex_hull for g in meshes)  # the rocks: convex hulls
    assert len(document.filters) == 3


def test_same_seed_same_bytes(library):
    assert library.asset_bytes(3, seed=1) == library.asset_bytes(3, seed=1)
    assert library.asset_bytes(3, seed=1) != library.asset_bytes(3, seed=2)
