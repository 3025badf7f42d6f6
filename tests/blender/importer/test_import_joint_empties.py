"""Constraint Empties are made next to their joint node (``importer/joint_empties.py``): Blender inserts each new
object name by walking back from the last one, so an Empty made after all of the file's objects walked over every
name sorting after it (quadratic with thousands of joints). Fixture: ``replaced.gltf`` (Slab → Hinge (joint), then
Lever → LeverFrame)."""

from __future__ import annotations

import json

import bpy

from blenderkit import submodule
from testkit import FIXTURES

REPLACED = FIXTURES / "import" / "replaced.gltf"


def _import(addon, path):
    assert bpy.ops.import_scene.gltf(filepath=str(path)) == {"FINISHED"}
    return submodule(addon, "io.hooks").last_report("import")


def test_constraint_empty_is_made_right_after_its_joint_node(clean):
    _import(clean, REPLACED)
    objects = bpy.data.objects
    empty = objects["Hinge.joint"]
    assert empty.rigid_body_constraint is not None and empty.gltf_physics.joint.role == "JOINT"
    assert objects["Hinge"].session_uid < empty.session_uid < objects["Lever"].session_uid
    assert empty.users_collection and empty.name in bpy.context.scene.rigidbody_world.constraints.objects


def test_file_node_named_like_the_empty_keeps_its_name(clean, tmp_path):
    data = json.loads(REPLACED.read_text(encoding="utf-8"))
    data["nodes"][4]["name"] = "Hinge.joint"  # LeverFrame, created after Hinge
    path = tmp_path / "clash.gltf"
    path.write_text(json.dumps(data), encoding="utf-8")
    _import(clean, path)
    assert bpy.data.objects["Hinge.joint"].rigid_body_constraint is None  # the file's node
    assert bpy.data.objects["Hinge.joint.001"].rigid_body_constraint is not None


def test_empty_of_a_skipped_joint_is_deleted(clean, tmp_path):
    data = json.loads(REPLACED.read_text(encoding="utf-8"))
    data["nodes"][2]["extensions"]["KHR_physics_rigid_bodies"]["joint"]["connectedNode"] = 1  # Slab: same body
    path = tmp_path / "skipped.gltf"
    path.write_text(json.dumps(data), encoding="utf-8")
    report = _import(clean, path)
    assert report.counts.get("joints", 0) == 0
    assert not any(ob.name.startswith("Hinge.joint") for ob in bpy.data.objects)
