"""Odd scenes authored in Blender export valid files in every revision and container, and import back cleanly.

A sweep of such scenes found three bugs (a limit with lower > upper written as ``min > max``, a capsule no taller
than wide written with height 0, descriptions of skipped joints left in the file; each has its own test in
``test_export_plays_same.py`` / ``test_export_native.py``) and, importing its files, a cylinder of radius 0 that
failed the import (``test_import_degenerate_shapes.py``). This keeps the sweep: for each scene, revision and
container the export returns FINISHED without a failed step, writes strict JSON our validator finds no error in,
and importing the file fails no step either. 10 scenes × 8 exports: about 4 s on bpy 5.0.
"""

from __future__ import annotations

import struct

import bpy
import fuzzkit
import pytest

from blenderkit import empty_scene, submodule
from export_helpers import REVISIONS
from scene_helpers import box_mesh, box_object, constraint, rigid_body_world, rigid_box

SHAPES = ["BOX", "SPHERE", "CAPSULE", "CYLINDER", "CONE", "CONVEX_HULL", "MESH", "COMPOUND"]
CONSTRAINTS = ["FIXED", "POINT", "HINGE", "SLIDER", "PISTON", "GENERIC", "GENERIC_SPRING", "MOTOR"]
FAILED = ("GLTF_PHYSICS_INTERNAL_ERROR", "GLTF_PHYSICS_EXPORT_FAILED", "GLTF_PHYSICS_IMPORT_FAILED")


def _body_on(rbw, name: str, mesh, shape: str, location=(0, 0, 0)):
    ob = bpy.data.objects.new(name, mesh)
    ob.location = location
    bpy.context.scene.collection.objects.link(ob)
    rbw.collection.objects.link(ob)
    ob.rigid_body.collision_shape = shape
    return ob


def empty_meshes(rbw):
    for i, shape in enumerate(SHAPES):
        _body_on(rbw, f"Empty{shape}", bpy.data.meshes.new(f"Empty{shape}"), shape, (2 * i, 0, 0))


def one_point_meshes(rbw):
    for i, shape in enumerate(SHAPES):
        mesh = bpy.data.meshes.new(f"Point{shape}")
        mesh.from_pydata([(0, 0, 0)] * 4, [], [(0, 1, 2), (0, 2, 3)])
        _body_on(rbw, f"Point{shape}", mesh, shape, (2 * i, 0, 0))


def flat_meshes(rbw):
    for i, shape in enumerate(SHAPES):
        rigid_box(rbw, f"Flat{shape}", size=(1, 1, 0), shape=shape, location=(2 * i, 0, 0))


def odd_scales(rbw):
    # (1e30 is left out: io_scene_gltf2 itself fails on it, extension disabled or not: OverflowError in __fix_json)
    for j, scale in enumerate([(0, 0, 0), (-1, 1, 1), (-1, -1, -1), (1e6,) * 3, (1e-30,) * 3, (0, 1, 1), (2, 3, 4)]):
        for i, shape in enumerate(SHAPES):
            rigid_box(rbw, f"S{j}{shape}", shape=shape, location=(2 * i, 2 * j, 0)).scale = scale


def odd_constraints(rbw):
    a, b = rigid_box(rbw, "A"), rigid_box(rbw, "B", location=(0, 0, 2))
    hidden = rigid_box(rbw, "Hidden", location=(5, 0, 0))
    hidden.hide_viewport = True
    for i, kind in enumerate(CONSTRAINTS):
        for j, (one, two) in enumerate([(a, None), (None, b), (None, None), (a, a), (a, hidden), (a, b)]):
            c = constraint(rbw, f"C{kind}{j}", one, two, kind, location=(i, j, 1))
            for name in dir(c):
                if name.startswith("use_limit"):
                    setattr(c, name, True)
                elif name.startswith("limit_") and name.endswith(("_lower", "_upper")):
                    setattr(c, name, 5.0 if name.endswith("_lower") else -5.0)  # inverted: free in Bullet
            c.use_motor_ang = c.use_motor_lin = kind == "MOTOR"
            c.motor_ang_target_velocity, c.motor_lin_target_velocity, c.motor_ang_max_impulse = 1e30, -1e30, 1e30
            for axis in "xyz":
                setattr(c, f"use_spring_{axis}", True)
                setattr(c, f"spring_damping_{axis}", 1e30)
                setattr(c, f"use_spring_ang_{axis}", True)
                setattr(c, f"spring_stiffness_ang_{axis}", 1e30)
            c.use_breaking, c.breaking_threshold = True, 0.0


def compounds(rbw):
    parent = rigid_box(rbw, "Parent", shape="COMPOUND")
    for i, shape in enumerate(SHAPES):
        rigid_box(rbw, f"Child{shape}", shape=shape, location=(i, 0, 0), parent=parent)
    nested = rigid_box(rbw, "Nested", shape="COMPOUND", parent=parent)
    rigid_box(rbw, "NestedChild", shape="SPHERE", parent=nested)
    rigid_box(rbw, "LonelyCompound", shape="COMPOUND", location=(0, 5, 0))


def extreme_settings(rbw):
    light = rigid_box(rbw, "Light")
    rb = light.rigid_body
    rb.mass, rb.friction, rb.restitution, rb.use_margin, rb.collision_margin = 0.001, 0.0, 1.0, True, 1.0
    rigid_box(rbw, "Animated", kind="PASSIVE").rigid_body.kinematic = True
    rigid_box(rbw, "Alone").rigid_body.collision_collections = [False] * 20
    rigid_box(rbw, "Everywhere").rigid_body.collision_collections = [True] * 20
    rigid_box(rbw, "Off").rigid_body.enabled = False
    arrayed = rigid_box(rbw, "Arrayed", shape="MESH")
    arrayed.rigid_body.mesh_source = "FINAL"
    arrayed.modifiers.new("Array", "ARRAY").count = 3
    keyed = rigid_box(rbw, "Keyed", shape="MESH")
    keyed.shape_key_add(name="Basis")
    keyed.shape_key_add(name="Key")
    keyed.rigid_body.mesh_source = "DEFORM"
    rbw.effector_weights.gravity = 0.0
    rbw.time_scale = 0.0
    bpy.context.scene.gravity = (1e30, 0, -1e30)


def world_disabled(rbw):
    rigid_box(rbw, "Body")
    rbw.enabled = False


def odd_parents(rbw):
    a = rigid_box(rbw, "PA")
    b = rigid_box(rbw, "PB", parent=a)
    rigid_box(rbw, "PC", parent=b, kind="PASSIVE")
    flat = bpy.data.objects.new("FlatParent", None)
    bpy.context.scene.collection.objects.link(flat)
    flat.scale = (0, 0, 0)
    rigid_box(rbw, "PD", parent=flat)
    skew = box_object("Skew")
    skew.scale, skew.rotation_euler = (1, 5, 1), (0.5, 0.3, 0)
    f = rigid_box(rbw, "PF", parent=skew, shape="SPHERE")
    g = rigid_box(rbw, "PG", parent=skew, shape="CAPSULE")
    f.rotation_euler = g.rotation_euler = (0.7, 0, 0.2)
    constraint(rbw, "Skewed", f, g, "GENERIC", location=(1, 1, 1))


def instances(rbw):
    shared = bpy.data.collections.new("Shared")
    body = rigid_box(rbw, "InstancedBody")
    shared.objects.link(body)
    body.data = box_mesh("InstancedMesh")
    for i in range(3):
        holder = bpy.data.objects.new(f"Instance{i}", None)
        holder.instance_type, holder.instance_collection = "COLLECTION", shared
        holder.location = (3 * i, 0, 0)
        bpy.context.scene.collection.objects.link(holder)


SCENES = [
    empty_meshes,
    one_point_meshes,
    flat_meshes,
    odd_scales,
    odd_constraints,
    compounds,
    extreme_settings,
    world_disabled,
    odd_parents,
    instances,
]


def _json_of(path) -> dict:
    data = path.read_bytes()
    if path.suffix == ".glb":
        length = struct.unpack("<I", data[12:16])[0]
        data = data[20 : 20 + length]
    return fuzzkit.strict_json(data.decode("utf-8"))


@pytest.mark.parametrize("build", SCENES, ids=lambda f: f.__name__)
def test_odd_native_scenes_export_valid_files_that_import(clean, tmp_path, build):
    hooks = submodule(clean, "io.hooks")
    validate = submodule(clean, "io.gltf.validate.document").validate_gltf
    for revision in REVISIONS:
        for container, suffix in (("GLTF_SEPARATE", ".gltf"), ("GLB", ".glb")):
            empty_scene()
            build(rigid_body_world())
            bpy.context.scene.gltf_physics.export_revision = revision
            path = tmp_path / f"{revision}{suffix}"
            assert bpy.ops.export_scene.gltf(filepath=str(path), export_format=container) == {"FINISHED"}
            failed = [str(d) for d in hooks.last_report("export").diagnostics if d.code in FAILED]
            assert not failed, (revision, container, failed)
            errors = [str(d) for d in validate(_json_of(path)) if d.severity.name == "ERROR"]
            assert not errors, (revision, container, errors)
            empty_scene()
            assert bpy.ops.import_scene.gltf(filepath=str(path)) == {"FINISHED"}
            failed = [str(d) for d in hooks.last_report("import").diagnostics if d.code in FAILED]
            assert not failed, (revision, container, failed)
