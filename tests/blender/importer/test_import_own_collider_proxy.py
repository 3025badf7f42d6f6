"""A body whose own collider is not its render mesh (a capsule on a cylinder link) gets a proxy child: the proxy sits
exactly at the body's origin (its own node: no relative transform is computed); the check of the render mesh builds
the shape's outline only (no rings) and the proxy's mesh is built once for all the links."""

from __future__ import annotations

import bpy
from mathutils import Matrix

from blenderkit import empty_scene, submodule
from testkit import bench_module


def _chain(tmp_path):
    path = tmp_path / "chain.glb"
    # index 2: a chain of capsule links on cylinder render meshes
    path.write_bytes(bench_module("asset_library").asset_bytes(2))
    return path


def test_own_collider_proxy_is_exactly_at_the_body_origin(clean, tmp_path, monkeypatch):
    geometry = submodule(clean, "io.importer.geometry")
    built = []
    original = geometry.implicit_mesh

    def counted(shape, *args, outline=False):
        built.append((id(shape), outline))
        return original(shape, *args, outline=outline)

    monkeypatch.setattr(geometry, "implicit_mesh", counted)
    empty_scene()
    assert bpy.ops.import_scene.gltf(filepath=str(_chain(tmp_path))) == {"FINISHED"}
    links = [ob for ob in bpy.data.objects if ob.name.startswith("Link") and ob.rigid_body is not None]
    links = [ob for ob in links if ob.rigid_body.collision_shape == "COMPOUND"]
    assert len(links) >= 4
    for link in links:
        (proxy,) = [child for child in link.children if child.rigid_body is not None]
        assert proxy.rigid_body.collision_shape == "CAPSULE"
        assert proxy.matrix_basis == Matrix.Identity(4) and proxy.matrix_parent_inverse == Matrix.Identity(4)
    assert len(built) == len(set(built))  # nothing built twice
    outlines = [shape for shape, outline in built if outline]
    assert len(outlines) == 2  # the anchor's sphere and the links' capsule, checked against their render meshes
    (full,) = [shape for shape, outline in built if not outline]  # the links' capsule proxy mesh, once
    assert full in outlines
