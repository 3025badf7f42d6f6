"""An export never asks Blender for ``Object.children`` / ``children_recursive``: each call scans every object of
the file (``_bpy_types``: O(len(bpy.data.objects))), so asking per collider, proxy or compound body made an export
quadratic in the objects. The export reads every object's children from one pass (``ExportSession.children``)."""

from __future__ import annotations

import bpy
import pytest

from blenderkit import empty_scene
from export_helpers import export, last_export
from scene_helpers import count_children_scans
from scene_helpers import rigid_body_world as _world
from scene_helpers import rigid_box as _body
from testkit import bench_module


@pytest.fixture
def scans(monkeypatch):
    return count_children_scans(monkeypatch)


def test_an_imported_chain_exports_without_scanning_children(clean, tmp_path, scans):
    path = tmp_path / "chain.glb"
    path.write_bytes(bench_module("asset_library").asset_bytes(2))  # capsule links on proxies: compound bodies
    empty_scene()
    assert bpy.ops.import_scene.gltf(filepath=str(path)) == {"FINISHED"}
    scans.update(children=0, children_recursive=0)
    gltf = export(tmp_path / "chain_out.gltf", "2026")
    assert last_export(clean).counts.get("colliders", 0) >= 5
    bodies = [n for n in gltf["nodes"] if "motion" in (n.get("extensions") or {}).get("KHR_physics_rigid_bodies", {})]
    assert len(bodies) >= 5
    assert scans == {"children": 0, "children_recursive": 0}


def test_a_native_compound_exports_its_children_without_scanning(clean, tmp_path, scans):
    rbw = _world()
    cart = _body(rbw, "Cart", size=(2, 1, 0.2), shape="COMPOUND", location=(0, 0, 2), mass=4.0)
    _body(rbw, "Wheel", size=(0.4, 0.4, 0.4), shape="SPHERE", location=(0.8, 0, -0.2), parent=cart)
    _body(rbw, "Other", size=(0.4, 0.4, 0.4), location=(5, 0, 0))
    scans.update(children=0, children_recursive=0)
    gltf = export(tmp_path / "compound.gltf", "2026")
    colliders = [n["name"] for n in gltf["nodes"] if "collider" in n.get("extensions", {}).get(RB, {})]
    assert "Wheel" in colliders and "Other" in colliders
    assert scans == {"children": 0, "children_recursive": 0}


RB = "KHR_physics_rigid_bodies"
