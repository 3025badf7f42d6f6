"""``centerOfMass`` with ``import_reproduce`` on (issue 9, item 1): the body is re-originated on a compound helper
at the centre, so a cube whose centre of mass lies beyond the ground's edge tips over it, and one whose centre of
mass lies over the ground stays although its middle overhangs; export writes the file's node and motion."""

from __future__ import annotations

import json

import bpy
import pytest
from mathutils import Vector

from blenderkit import submodule
from export_helpers import export
from reproduce_kit import RB, SHAPES, body, ground, import_file, reset, step, tilt_degrees, write

FRAMES = 60


def _cube_at_the_edge(tmp_path, x: float, com_x: float):
    """The ground's top is y = 0 and its edge x = 2; a 1 m cube resting on it at ``x`` with the centre of mass
    ``com_x`` from its middle (node space)."""
    cube = body("Cube", [x, 0.52, 0.0], centerOfMass=[com_x, 0.0, 0.0])
    return write(tmp_path, f"edge_{x}_{com_x}", [ground(), cube])


def _tips(path, reproduce: bool) -> tuple[float, float]:
    import_file(path, reproduce=reproduce)
    step(FRAMES)
    cube = bpy.data.objects["Cube"]
    result = tilt_degrees("Cube"), cube.matrix_world.translation.x
    reset()
    return result


def test_centre_of_mass_beyond_the_edge_tips_the_cube_over_it(clean, tmp_path):
    path = _cube_at_the_edge(tmp_path, 1.7, 0.45)  # middle over the ground, centre of mass beyond the edge
    tilt_off, _ = _tips(path, reproduce=False)
    assert tilt_off < 1.0  # today: Blender's centre is the middle, the cube stays
    tilt_on, x_on = _tips(path, reproduce=True)
    assert tilt_on > 20.0 and x_on > 1.9  # it tips over the edge, towards +x where the centre of mass is


def test_centre_of_mass_over_the_ground_keeps_an_overhanging_cube(clean, tmp_path):
    path = _cube_at_the_edge(tmp_path, 2.3, -0.45)  # middle beyond the edge, centre of mass over the ground
    tilt_off, _ = _tips(path, reproduce=False)
    assert tilt_off > 20.0  # today: it tips off
    tilt_on, x_on = _tips(path, reproduce=True)
    assert tilt_on < 1.0 and x_on == pytest.approx(2.3, abs=0.01)


def test_export_writes_the_node_and_centre_of_mass_of_the_file(clean, tmp_path):
    path = _cube_at_the_edge(tmp_path, 1.7, 0.45)
    import_file(path, reproduce=False)
    reference = export(tmp_path / "off.gltf", "2026")
    reset()
    import_file(path)
    cube = bpy.data.objects["Cube"]
    assert cube.parent is not None and cube.parent.name == "Cube.center_of_mass"
    assert cube.parent.rigid_body.collision_shape == "COMPOUND"
    written = export(tmp_path / "on.gltf", "2026")
    by_name = _resolved(written)
    assert by_name == _resolved(reference)  # the helper is gone, the cube is where the file put it
    assert by_name["Cube"]["extensions"][RB]["motion"]["centerOfMass"] == [0.45, 0.0, 0.0]


def _resolved(gltf: dict) -> dict:
    """Nodes by name with each collider's shape index replaced by the shape (the node order may differ)."""
    shapes = gltf["extensions"][SHAPES]["shapes"]
    out = {}
    for node in gltf["nodes"]:
        node = json.loads(json.dumps(node))
        geometry = node["extensions"][RB]["collider"]["geometry"]
        geometry["shape"] = shapes[geometry["shape"]]
        out[node["name"]] = node
    return out


def test_remove_puts_the_body_back_where_it_was(clean, tmp_path):
    import_file(_cube_at_the_edge(tmp_path, 1.7, 0.45))
    assert bpy.ops.gltf_physics.remove_reproduction_helpers() == {"FINISHED"}
    cube = bpy.data.objects["Cube"]
    assert cube.parent is None and "Cube.center_of_mass" not in bpy.data.objects
    assert tuple(cube.matrix_world.translation) == pytest.approx((1.7, 0.0, 0.52))
    assert cube.rigid_body.type == "ACTIVE" and cube.rigid_body.collision_shape == "BOX"


def test_a_body_under_a_parent_node_is_exported_under_it(clean, tmp_path):
    cube = body("Cube", [0.5, 1.0, 0.0], centerOfMass=[0.0, -0.25, 0.0], linearVelocity=[1.0, 0.0, 0.0])
    root = {
        "name": "Root",
        "translation": [1.0, 2.0, 3.0],
        "rotation": [0.0, 0.3826834, 0.0, 0.9238795],
        "children": [1],
    }
    path = write(tmp_path, "parented", [root, cube])
    import_file(path, reproduce=False)
    reference = export(tmp_path / "off.gltf", "2026")
    reset()
    import_file(path)
    assert bpy.data.objects["Cube"].gltf_physics.gltf_parent == bpy.data.objects["Root"]
    written = export(tmp_path / "on.gltf", "2026")
    assert _resolved_all(written) == _resolved_all(reference)
    bpy.ops.gltf_physics.remove_reproduction_helpers()
    cube = bpy.data.objects["Cube"]
    assert cube.parent == bpy.data.objects["Root"] and cube.gltf_physics.gltf_parent is None


def _resolved_all(gltf: dict) -> dict:
    names = [node["name"] for node in gltf["nodes"]]
    out = {}
    for node in gltf["nodes"]:
        node = json.loads(json.dumps(node))
        node["children"] = sorted(names[c] for c in node.get("children", []))
        node["translation"] = [round(v, 5) for v in node.get("translation", [0.0, 0.0, 0.0])]
        node["rotation"] = [round(v, 5) for v in node.get("rotation", [0.0, 0.0, 0.0, 1.0])]
        node["scale"] = [round(v, 5) for v in node.get("scale", [1.0, 1.0, 1.0])]  # float32 noise of the matrices
        node.get("extensions", {}).get(RB, {}).get("collider", {}).get("geometry", {}).pop("shape", None)
        out[node["name"]] = node
    return out


def test_a_hinged_body_swings_about_its_centre_of_mass(clean, tmp_path):
    """As RigidBodies_Joint_08: a hinge (world side) through the body's origin, the centre of mass beside it."""
    arm = body("Arm", [0.0, 3.0, 0.0], centerOfMass=[0.4, 0.0, 0.0])
    hinge = {"name": "Hinge", "translation": [0.0, 3.0, 0.0]}
    hinge["extensions"] = {RB: {"joint": {"connectedNode": 0, "joint": 0}}}
    limits = [{"linearAxes": [0, 1, 2], "min": 0.0, "max": 0.0}, {"angularAxes": [0, 1], "min": 0.0, "max": 0.0}]
    path = write(tmp_path, "hinge", [arm, hinge], physicsJoints=[{"limits": limits}])
    import_file(path, reproduce=False)
    step(FRAMES)
    assert tilt_degrees("Arm") < 1.0  # today: the centre is on the hinge axis, nothing turns it
    reset()
    import_file(path)
    helper = bpy.data.objects["Arm.center_of_mass"]
    joints = [ob.rigid_body_constraint for ob in bpy.context.scene.rigidbody_world.constraints.objects]
    assert any(helper in (c.object1, c.object2) for c in joints)  # the joint holds the simulated carrier
    scene, arm_ob, tilts = bpy.context.scene, bpy.data.objects["Arm"], []
    for frame in range(scene.frame_start, scene.frame_start + FRAMES):
        scene.frame_set(frame)
        tilts.append(tilt_degrees("Arm"))
        assert (arm_ob.matrix_world.translation - Vector((0.0, 0.0, 3.0))).length < 0.05  # held by the hinge
    assert max(tilts) > 60.0  # and swings down about it (a pendulum from the horizontal)
    bpy.context.scene.frame_set(bpy.context.scene.frame_start)
    bpy.ops.gltf_physics.remove_reproduction_helpers()
    joints = [ob.rigid_body_constraint for ob in bpy.context.scene.rigidbody_world.constraints.objects]
    assert any(arm_ob in (c.object1, c.object2) for c in joints)


def test_a_body_under_a_flat_parent_node_imports_and_is_removed_without_a_failure(clean, tmp_path):
    """A body with a centre of mass under a parent node that is flat (scale 0 along one axis: no inverse): the
    import and Remove run without a failed step or an exception, and Remove leaves the body under its parent."""
    cube = body("Cube", [0.5, 1.0, 0.0], centerOfMass=[0.0, -0.25, 0.0])
    root = {"name": "Root", "translation": [1.0, 2.0, 3.0], "scale": [1.0, 0.0, 1.0], "children": [1]}
    import_file(write(tmp_path, "flat_parent", [root, cube]))
    diagnostics = submodule(clean, "io.hooks").last_report("import").diagnostics
    assert not [str(d) for d in diagnostics if d.code == "GLTF_PHYSICS_IMPORT_FAILED"]
    assert bpy.ops.gltf_physics.remove_reproduction_helpers() == {"FINISHED"}
    assert bpy.data.objects["Cube"].parent == bpy.data.objects["Root"]
    assert "Cube.center_of_mass" not in bpy.data.objects
