"""What import keeps for export (``Object.gltf_physics``) survives to the final objects.

``replaced.gltf`` (scripts/make_import_fixtures.py): Empty nodes become mesh objects (a body without colliders, a
static collider, a body with its own collider) and a hinge joins two of them. The parametrised test re-reads every
fixture with the bpy-free parser and checks each node's stored motion, collider, trigger and joint values end to end.
"""

from __future__ import annotations

import json

import bpy
import pytest

from blenderkit import submodule
from testkit import FIXTURES

IMPORT = FIXTURES / "import"
ALL_FIXTURES = sorted(IMPORT.glob("*.gltf")) + sorted((FIXTURES / "joints").glob("*.gltf"))


def _import(addon, path):
    assert bpy.ops.import_scene.gltf(filepath=str(path)) == {"FINISHED"}
    return submodule(addon, "io.hooks").last_report("import")


def _vec(v) -> tuple:
    """glTF vector → Blender frame (x, -z, y)."""
    return (v[0], -v[2], v[1])


def test_replaced_empties_keep_stored_values(clean):
    _import(clean, IMPORT / "replaced.gltf")
    drifter = bpy.data.objects["Drifter"]  # motion, no collider: replaced by a mesh holding a 10 cm box
    pg = drifter.gltf_physics
    assert drifter.type == "MESH" and pg.generated_mesh and drifter.rigid_body is not None
    assert (pg.role, pg.node_index, pg.source) == ("NODE", 0, "KHR-2024-10")
    motion = pg.motion
    assert motion.has_motion and motion.mass_mode == "EXPLICIT" and motion.mass == pytest.approx(2.0)
    assert motion.has_center_of_mass and tuple(motion.center_of_mass) == pytest.approx((0.0, 0.0, 0.5))
    assert tuple(motion.linear_velocity) == pytest.approx((0.0, 2.0, 1.0))
    assert motion.gravity_factor == pytest.approx(0.25)
    assert drifter.rigid_body.mass == pytest.approx(2.0)

    slab = bpy.data.objects["Slab"]  # static collider on an Empty
    pg = slab.gltf_physics
    assert slab.type == "MESH" and pg.generated_mesh and slab.rigid_body.type == "PASSIVE"
    assert (pg.role, pg.node_index, pg.source) == ("NODE", 1, "KHR-2024-10")
    collider = pg.collider
    assert collider.has_collider and collider.geometry.kind == "SHAPE" and collider.geometry.shape_index == 0
    assert json.loads(collider.geometry.shape_json)["box"]["size"] == [4.0, 0.5, 4.0]
    material = collider.material
    assert material.has_material and material.index == 0
    assert (material.static_friction, material.dynamic_friction, material.restitution) == pytest.approx((0.8, 0.3, 0.1))
    assert (material.friction_combine, material.restitution_combine) == ("minimum", "maximum")
    assert collider.filter.has_filter and collider.filter.index == 0
    assert json.loads(collider.filter.collision_systems) == ["ground"]
    assert collider.filter.collide_with_systems == ""  # absent stays absent

    lever = bpy.data.objects["Lever"]  # body with its own collider on an Empty
    pg = lever.gltf_physics
    assert lever.type == "MESH" and lever.rigid_body.collision_shape == "SPHERE"
    assert (pg.role, pg.node_index) == ("NODE", 3)
    assert pg.motion.has_motion and pg.motion.mass_mode == "ABSENT"
    assert tuple(pg.motion.angular_velocity) == pytest.approx((1.0, 0.0, 0.0))
    assert pg.collider.material.restitution_combine == "average" and pg.collider.material.friction_combine == "NONE"
    assert pg.collider.filter.name == "LeverOnly"
    assert json.loads(pg.collider.filter.collide_with_systems) == ["ground"]

    empty = bpy.data.objects["Hinge"]  # a leaf joint node carries its constraint
    constraint, joint = empty.rigid_body_constraint, empty.gltf_physics.joint
    assert constraint.object1 == slab and constraint.object2 == lever and not constraint.disable_collisions
    assert joint.role == "JOINT" and joint.joint_name == "SlabHinge" and joint.enable_collision
    assert joint.node_a == bpy.data.objects["Hinge"] and joint.node_b == bpy.data.objects["LeverFrame"]
    assert json.loads(joint.extras_json) == {"extras": {"tag": "hinge"}}
    assert [(lim.kind, tuple(lim.axes), lim.min, lim.max) for lim in joint.limits] == [
        ("LINEAR", (True, True, True), 0.0, 0.0),
        ("ANGULAR", (False, True, True), 0.0, 0.0),
        ("ANGULAR", (True, False, False), -0.5, 1.0),
    ]
    assert not any(ob.name.endswith((".physics", ".replaced")) for ob in bpy.data.objects)  # no temporary names


def test_empty_named_ahead_but_not_replaced_keeps_its_name(clean, tmp_path):
    """A static collider on an Empty is named ahead for its replacement; when no collider can be built (its geometry
    node has no mesh) it stays an Empty and gets its own name back. Extras of a replaced Empty stay on the node."""
    data = json.loads((IMPORT / "replaced.gltf").read_text(encoding="utf-8"))
    collider = {"collider": {"geometry": {"node": 4}}}
    data["nodes"].append({"name": "NoMeshRef", "extensions": {"KHR_physics_rigid_bodies": collider}})
    data["scenes"][0]["nodes"].append(len(data["nodes"]) - 1)
    data["nodes"][1]["extras"] = {"note": "kept"}  # Slab: custom properties move to the replacing mesh object
    path = tmp_path / "no_mesh_ref.gltf"
    path.write_text(json.dumps(data), encoding="utf-8")
    _import(clean, path)
    kept = bpy.data.objects["NoMeshRef"]
    assert kept.type == "EMPTY" and kept.rigid_body is None
    assert kept.gltf_physics.collider.has_collider and kept.gltf_physics.node_index == 5
    slab = bpy.data.objects["Slab"]
    assert slab.type == "MESH" and slab["note"] == "kept"
    assert not any(ob.name.endswith(".replaced") for ob in bpy.data.objects)


def test_empty_bodies_are_created_as_mesh_objects(clean):
    """A body or static collider on an Empty node is created by the importer as a mesh object (a placeholder mesh
    swapped for the shape): no second object created after the nodes, none deleted, the placeholder mesh gone."""
    _import(clean, IMPORT / "replaced.gltf")
    last_node = max(bpy.data.objects[name].session_uid for name in ("Hinge", "LeverFrame"))  # Empties kept
    for name in ("Drifter", "Slab", "Lever"):
        ob = bpy.data.objects[name]
        assert ob.type == "MESH" and ob.gltf_physics.generated_mesh and len(ob.data.vertices) > 0
        assert ob.session_uid < last_node, f"{name} was created after the nodes (replaced)"
    assert not any(mesh.name.startswith(" glTF Physics placeholder") for mesh in bpy.data.meshes)


def test_empty_bodies_in_a_file_without_meshes(clean, tmp_path):
    """The placeholder also works when the file has no ``meshes`` at all; an unnamed node keeps the name the
    importer gives an Empty (not the placeholder mesh's)."""
    shape = {"type": "box", "box": {"size": [1.0, 2.0, 3.0]}}
    body = {"motion": {"mass": 2.0}, "collider": {"geometry": {"shape": 0}}}
    data = {
        "asset": {"version": "2.0"},
        "extensionsUsed": ["KHR_physics_rigid_bodies", "KHR_implicit_shapes"],
        "extensions": {"KHR_implicit_shapes": {"shapes": [shape]}},
        "nodes": [
            {"name": "Crate", "extensions": {"KHR_physics_rigid_bodies": body}},
            {"name": "Marker"},
            {"extensions": {"KHR_physics_rigid_bodies": {"motion": {}}}},  # unnamed: the importer's default name
        ],
        "scenes": [{"nodes": [0, 1, 2]}],
        "scene": 0,
    }
    path = tmp_path / "no_meshes.gltf"
    path.write_text(json.dumps(data), encoding="utf-8")
    _import(clean, path)
    crate = bpy.data.objects["Crate"]
    assert crate.type == "MESH" and crate.rigid_body.collision_shape == "BOX"
    assert tuple(crate.dimensions) == pytest.approx((1.0, 3.0, 2.0))
    assert bpy.data.objects["Marker"].type == "EMPTY"
    assert bpy.data.objects["Node_2"].type == "MESH" and bpy.data.objects["Node_2"].rigid_body is not None
    assert not any(mesh.name.startswith(" glTF Physics placeholder") for mesh in bpy.data.meshes)


def _node_object(nodes: list, index: int):
    name = nodes[index].get("name")
    if not name or sum(1 for n in nodes if n.get("name") == name) != 1:
        return None
    return bpy.data.objects.get(name)


def _check_motion(pg, motion) -> None:
    stored = pg.motion
    assert stored.has_motion and stored.kind == motion.kind
    if motion.mass is None:
        assert stored.mass_mode == "ABSENT"
    elif motion.mass == 0.0:
        assert stored.mass_mode == "INFINITE"
    else:
        assert stored.mass_mode == "EXPLICIT" and stored.mass == pytest.approx(motion.mass)
    assert stored.has_center_of_mass == (motion.center_of_mass is not None)
    if motion.center_of_mass is not None:
        assert tuple(stored.center_of_mass) == pytest.approx(_vec(motion.center_of_mass))
    assert tuple(stored.linear_velocity) == pytest.approx(_vec(motion.linear_velocity))
    assert tuple(stored.angular_velocity) == pytest.approx(_vec(motion.angular_velocity))
    assert stored.gravity_factor == pytest.approx(motion.gravity_factor)


def _check_collider(pg, collider, doc) -> None:
    stored = pg.collider
    assert stored.has_collider
    material = doc.materials[collider.material] if collider.material is not None else None
    assert stored.material.has_material == (material is not None)
    if material is not None:
        got = (stored.material.static_friction, stored.material.dynamic_friction, stored.material.restitution)
        assert got == pytest.approx((material.static_friction, material.dynamic_friction, material.restitution))
        assert stored.material.friction_combine == (material.friction_combine or "NONE")
        assert stored.material.restitution_combine == (material.restitution_combine or "NONE")
    flt = doc.filters[collider.filter] if collider.filter is not None else None
    assert stored.filter.has_filter == (flt is not None)
    if flt is not None and flt.collision_systems is not None:
        assert json.loads(stored.filter.collision_systems) == list(flt.collision_systems)


def _check_joint(nodes: list, index: int, node_joint, doc) -> None:
    owner = _node_object(nodes, index)
    empties = [
        ob
        for ob in bpy.data.objects
        if ob.rigid_body_constraint is not None
        and ob.gltf_physics.joint.role == "JOINT"
        and ob.gltf_physics.joint.node_a == owner
    ]
    assert len(empties) == 1, f"node {index}: {len(empties)} constraint Empties"
    joint, description = empties[0].gltf_physics.joint, doc.joints[node_joint.joint]
    assert joint.joint_name == (description.name or "")
    assert joint.enable_collision == node_joint.enable_collision
    assert [(lim.has_min, lim.has_max) for lim in joint.limits] == [
        (lim.min is not None, lim.max is not None) for lim in description.limits
    ]
    assert [lim.max for lim in joint.limits] == pytest.approx([lim.max or 0.0 for lim in description.limits])
    assert [(d.type, d.axis) for d in joint.drives] == [(d.type, d.axis) for d in description.drives]
    assert joint.source == (description.source or "")


@pytest.mark.parametrize("path", ALL_FIXTURES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_every_stored_value_reaches_the_final_object(clean, path):
    data = json.loads(path.read_text(encoding="utf-8"))
    doc = submodule(clean, "io.gltf.parse").parse_gltf(data).document
    report = _import(clean, path)
    nodes = data["nodes"]
    checked = 0
    for index, physics in sorted(doc.nodes.items()):
        if physics.joint is not None:
            _check_joint(nodes, index, physics.joint, doc)
            checked += 1
        if physics.motion is None and physics.collider is None and physics.trigger is None:
            continue
        ob = _node_object(nodes, index)
        assert ob is not None, f"node {index} has no object"
        pg = ob.gltf_physics
        assert (pg.role, pg.node_index, pg.source) == ("NODE", index, physics.source), f"node {index}"
        if physics.motion is not None:
            _check_motion(pg, physics.motion)
        if physics.collider is not None:
            _check_collider(pg, physics.collider, doc)
        if physics.trigger is not None:
            assert pg.trigger.has_trigger
        checked += 1
    assert checked > 0 and report is not None
    assert not any(ob.name.endswith(".replaced") for ob in bpy.data.objects)


def test_a_failure_storing_one_object_leaves_the_others_and_the_import(clean, monkeypatch):
    """The end of the build writes each object's text on its own: one object whose write fails keeps its old text
    and becomes one WARNING naming it; every other object is written and the import finishes."""
    context = submodule(clean, "io.importer.context")
    write = context.ImportContext._write_stored

    def failing(ob, original, values):
        if ob.name == "Drifter":
            raise RuntimeError("a write that fails")
        write(ob, original, values)

    monkeypatch.setattr(context.ImportContext, "_write_stored", staticmethod(failing))
    report = _import(clean, IMPORT / "replaced.gltf")
    assert bpy.data.objects["Drifter"].gltf_physics.values_json == ""
    stored = [ob.name for ob in bpy.data.objects if ob.gltf_physics.values_json]
    assert stored and "Drifter" not in stored
    failed = [d for d in report.diagnostics if d.code == "GLTF_PHYSICS_IMPORT_FAILED"]
    assert [(d.severity.name, "Drifter" in d.message) for d in failed] == [("WARNING", True)]
