"""A glTF mesh collider's volume (a BMesh of the whole mesh) is computed only for a body without a mass, where the
mass is ``Scene.gltf_physics.import_density`` × that volume (``importer/geometry.GeometryData.volume``).
Fixture ``rev_2026.gltf``: a static mesh collider (Ground, a 2-triangle mesh) and a convex-hull body with mass 2."""

from __future__ import annotations

import json

import bpy
import pytest

from blenderkit import submodule
from testkit import FIXTURES

SOURCE = FIXTURES / "import" / "rev_2026.gltf"


@pytest.fixture
def volumes(clean, monkeypatch):
    """The meshes whose volume the import computed."""
    geometry = submodule(clean, "io.importer.geometry")
    measure, seen = geometry.mesh_volume, []

    def counted(mesh):
        seen.append(mesh.name)
        return measure(mesh)

    monkeypatch.setattr(geometry, "mesh_volume", counted)
    return seen


def test_no_volume_when_every_body_has_a_mass(volumes):
    assert bpy.ops.import_scene.gltf(filepath=str(SOURCE)) == {"FINISHED"}
    assert bpy.data.objects["Hull"].rigid_body.mass == pytest.approx(2.0)
    assert bpy.data.objects["Ground"].rigid_body.type == "PASSIVE"
    assert volumes == []


def test_body_without_mass_gets_density_times_its_mesh_volume(volumes, clean, tmp_path):
    data = json.loads(SOURCE.read_text(encoding="utf-8"))
    del data["nodes"][1]["extensions"]["KHR_physics_rigid_bodies"]["motion"]["mass"]
    path = tmp_path / "no_mass.gltf"
    path.write_text(json.dumps(data), encoding="utf-8")
    for name in {b["uri"] for b in data.get("buffers", []) if "uri" in b and not b["uri"].startswith("data:")}:
        (tmp_path / name).write_bytes((SOURCE.parent / name).read_bytes())
    bpy.context.scene.gltf_physics.import_density = 250.0
    assert bpy.ops.import_scene.gltf(filepath=str(path)) == {"FINISHED"}
    hull = bpy.data.objects["Hull"]
    assert len(volumes) == 1  # the hull's mesh only, once
    assert tuple(hull.scale) == pytest.approx((1.0, 1.0, 1.0))
    volume = submodule(clean, "io.importer.geometry").mesh_volume(hull.data)
    assert volume is not None and volume > 0.0
    assert hull.rigid_body.mass == pytest.approx(250.0 * volume, rel=1e-6)
