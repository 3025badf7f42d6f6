"""Adopt Physics Settings (gltf_physics.adopt_settings): a .blend with the other glTF-physics add-on's settings left
as ID properties (that add-on is not installed) is saved, reloaded (the load check finds it), adopted and exported
with the real glTF exporter; the written JSON carries what that add-on's exporter documents for those settings."""

from __future__ import annotations

import math

import bpy
import numpy as np
import pytest

from blenderkit import submodule
from export_helpers import export
from scene_helpers import box_object, constraint, rigid_body_world, rigid_box

CRATE = {
    "gravity_factor": 0.5,
    "linear_velocity": [1.0, 2.0, 3.0],
    "angular_velocity": [0.1, 0.2, 0.3],
    "enable_com_override": True,
    "center_of_mass": [0.1, 0.2, 0.3],
    "enable_inertia_override": True,
    "inertia_major_axis": [1.0, 2.0, 3.0],
    "inertia_orientation": [0.3, 0.0, 0.0],
    "friction_combine": 1,  # minimum
    "restitution_combine": 3,  # multiply
}
DRIVES = {
    "use_ang_drive_z": True,
    "ang_z_drive_mode": 1,  # acceleration
    "ang_z_drive_pos_target": 0.5,
    "ang_z_drive_stiffness": 10.0,
    "ang_z_drive_damping": 2.0,
    "ang_z_drive_force_limited": True,
    "ang_z_drive_max_force": 50.0,
    "use_lin_drive_y": True,
    "lin_y_drive_vel_target": 0.7,
    "lin_y_drive_damping": 5.0,
}


def _build(path):
    rbw = rigid_body_world()
    crate = rigid_box(rbw, "Crate", location=(0.0, 0.0, 2.0), mass=3.0)
    crate.rigid_body.friction, crate.rigid_body.restitution = 0.4, 0.2
    crate["khr_physics_extra_props"] = CRATE
    heavy = rigid_box(rbw, "Heavy", location=(3.0, 0.0, 0.0))
    heavy["khr_physics_extra_props"] = {"infinite_mass": True}
    lift = rigid_box(rbw, "Lift", location=(6.0, 0.0, 0.0))
    lift.rigid_body.kinematic = True
    lift["khr_physics_extra_props"] = {"gravity_factor": 0.0}
    sensor = rigid_box(rbw, "Sensor", size=(2.0, 1.0, 1.0), kind="PASSIVE", location=(-3.0, 0.0, 0.0))
    sensor["khr_physics_extra_props"] = {"is_trigger": True}
    pill = rigid_box(rbw, "Pill", size=(0.5, 0.5, 1.5), shape="CAPSULE", location=(0.0, 3.0, 0.0))
    pill["khr_physics_extra_props"] = {
        "cone_capsule_override": True,
        "cone_capsule_height": 1.0,
        "cone_capsule_radius_top": 0.25,
        "cone_capsule_radius_bottom": 0.25,
    }
    cone = rigid_box(rbw, "Cone", shape="CONE", location=(0.0, -3.0, 0.0))
    cone["khr_physics_extra_props"] = {"cone_capsule_override": True, "cone_capsule_radius_top": 0.1}
    plain = rigid_box(rbw, "Plain", location=(5.0, -5.0, 0.0), mass=2.0)  # untouched: the add-on's defaults
    plain.rigid_body.friction = 0.3
    loose = box_object("Loose", location=(5.0, 5.0, 0.0))
    loose["khr_physics_extra_props"] = {"gravity_factor": 2.0}
    ghost = rigid_box(rbw, "Ghost", kind="PASSIVE", location=(0.0, 0.0, -3.0))
    ghost["khr_physics_extra_props"] = {"non_renderable": True}
    base = rigid_box(rbw, "Base", kind="PASSIVE", location=(0.0, 0.0, 0.0))
    c = constraint(rbw, "Motor", base, crate, "GENERIC", location=(0.0, 0.0, 1.0))
    for kind in ("lin", "ang"):
        for axis in "xyz":
            if (kind, axis) != ("ang", "z"):
                setattr(c, f"use_limit_{kind}_{axis}", True)
                setattr(c, f"limit_{kind}_{axis}_lower", 0.0)
                setattr(c, f"limit_{kind}_{axis}_upper", 0.0)
    base["khr_physics_extra_constraint_props"] = {}  # an empty group holds only defaults: nothing to adopt
    bpy.data.objects["Motor"]["khr_physics_extra_constraint_props"] = DRIVES
    bpy.ops.wm.save_as_mainfile(filepath=str(path))


def _ext(gltf: dict, name: str) -> dict:
    node = next(n for n in gltf["nodes"] if n.get("name") == name)
    return node.get("extensions", {}).get("KHR_physics_rigid_bodies", {})


def _root(gltf: dict, key: str, index: int) -> dict:
    return gltf["extensions"]["KHR_physics_rigid_bodies"][key][index]


def _shape(gltf: dict, geometry: dict) -> dict:
    return gltf["extensions"]["KHR_implicit_shapes"]["shapes"][geometry["shape"]]


def _world(nodes_mod, gltf: dict, index: int) -> np.ndarray:
    parents = nodes_mod.parent_map(gltf["nodes"])
    m, i = np.eye(4), index
    while i is not None:
        m = nodes_mod.local_matrix(gltf["nodes"][i]) @ m
        i = parents.get(i)
    return m


def test_adopt_after_reload_exports_what_the_other_addon_documents(clean, tmp_path):
    adopt = submodule(clean, "ui.adopt.adopt")
    path = tmp_path / "authored.blend"
    _build(path)
    assert bpy.ops.wm.open_mainfile(filepath=str(path)) == {"FINISHED"}
    assert not hasattr(bpy.types.Object, "khr_physics_extra_props")  # that add-on is not installed
    assert sorted(adopt.PENDING) == ["Cone", "Crate", "Ghost", "Heavy", "Lift", "Loose", "Motor", "Pill", "Sensor"]
    before = {
        ob.name: ob["khr_physics_extra_props"].to_dict() for ob in bpy.data.objects if ob.get("khr_physics_extra_props")
    }
    assert bpy.ops.gltf_physics.adopt_settings() == {"FINISHED"}
    after = {
        ob.name: ob["khr_physics_extra_props"].to_dict() for ob in bpy.data.objects if ob.get("khr_physics_extra_props")
    }
    assert after == before  # the original properties are left untouched
    assert adopt.PENDING == []
    report = adopt.LAST_REPORT
    assert report["not_converted"] == ["Loose: no rigid body: the other add-on writes nothing for it; not converted"]
    assert any(line.startswith("Cone: cone_capsule_* → the shape, simulated on") for line in report["converted"])
    proxy = bpy.data.objects["Cone.collider"]  # the frustum Blender cannot simulate goes onto a generated proxy
    assert (proxy.parent.name, proxy.rigid_body.collision_shape) == ("Cone", "CONVEX_HULL")
    assert bpy.data.objects["Cone"].rigid_body.collision_shape == "COMPOUND"
    assert any(line.startswith("Motor: drives") for line in report["converted"])
    gltf = export(tmp_path / "adopted.gltf", "2024-10")

    crate = _ext(gltf, "Crate")
    motion = crate["motion"]
    assert motion["mass"] == pytest.approx(3.0)
    assert motion["gravityFactor"] == pytest.approx(0.5)
    assert motion["linearVelocity"] == pytest.approx([1.0, 3.0, -2.0])  # Blender (x, y, z) → glTF (x, z, −y)
    assert motion["angularVelocity"] == pytest.approx([0.1, 0.3, -0.2])
    assert motion["centerOfMass"] == pytest.approx([0.1, 0.3, -0.2])
    assert motion["inertiaDiagonal"] == pytest.approx([1.0, 3.0, 2.0])
    assert motion["inertiaOrientation"] == pytest.approx([math.sin(0.15), 0.0, 0.0, math.cos(0.15)], abs=1e-6)
    assert motion.get("isKinematic", False) is False  # absent or false: the same meaning
    assert _shape(gltf, crate["collider"]["geometry"]) == {"type": "box", "box": {"size": [1.0, 1.0, 1.0]}}
    material = _root(gltf, "physicsMaterials", crate["collider"]["physicsMaterial"])
    assert material["staticFriction"] == pytest.approx(0.4) and material["dynamicFriction"] == pytest.approx(0.4)
    assert material["restitution"] == pytest.approx(0.2)
    assert (material["frictionCombine"], material["restitutionCombine"]) == ("minimum", "multiply")
    flt = _root(gltf, "collisionFilters", crate["collider"]["collisionFilter"])
    assert flt["collisionSystems"] == flt["collideWithSystems"] == ["System_0"]
    # Blender now multiplies √0.4 · √0.4 for two crates (minimum combine), restitution exact (multiply)
    assert bpy.data.objects["Crate"].rigid_body.friction == pytest.approx(math.sqrt(0.4), rel=1e-6)
    assert bpy.data.objects["Crate"].rigid_body.restitution == pytest.approx(0.2, rel=1e-6)

    plain = _ext(gltf, "Plain")  # no settings group: what that add-on wrote for its defaults
    assert plain["motion"]["mass"] == pytest.approx(2.0) and "gravityFactor" not in plain["motion"]
    plain_material = _root(gltf, "physicsMaterials", plain["collider"]["physicsMaterial"])
    assert plain_material["dynamicFriction"] == pytest.approx(0.3) and plain_material[
        "staticFriction"
    ] == pytest.approx(0.3)
    assert "frictionCombine" not in plain_material and "restitutionCombine" not in plain_material
    assert _root(gltf, "collisionFilters", plain["collider"]["collisionFilter"])["collisionSystems"] == ["System_0"]
    assert _ext(gltf, "Heavy")["motion"]["mass"] == 0.0
    lift = _ext(gltf, "Lift")["motion"]
    assert lift["isKinematic"] is True and lift["gravityFactor"] == 0.0
    sensor = _ext(gltf, "Sensor")
    assert "collider" not in sensor and "motion" not in sensor
    assert _shape(gltf, sensor["trigger"]["geometry"]) == {"type": "box", "box": {"size": [2.0, 1.0, 1.0]}}
    pill = _shape(gltf, _ext(gltf, "Pill")["collider"]["geometry"])
    assert pill["type"] == "capsule"
    assert [pill["capsule"][k] for k in ("height", "radiusTop", "radiusBottom")] == pytest.approx([1.0, 0.25, 0.25])
    cone = _shape(gltf, _ext(gltf, "Cone")["collider"]["geometry"])
    assert cone["type"] == "cylinder"
    assert [cone["cylinder"][k] for k in ("height", "radiusTop", "radiusBottom")] == pytest.approx([1.0, 0.1, 1.0])
    assert not any(n.get("name", "").endswith(".collider") for n in gltf["nodes"])  # the proxy is not a node
    ghost = next(n for n in gltf["nodes"] if n.get("name") == "Ghost")
    assert "mesh" not in ghost and "collider" in _ext(gltf, "Ghost")

    # drives: the other add-on writes them in its frame (glTF X, Y, Z = Empty X, Z, −Y); this extension in the
    # Empty's own axes. Compared in Blender world terms: axis direction × target, and the other fields as written.
    nodes_mod = submodule(clean, "io.gltf.nodes")
    axes_mod = submodule(clean, "io.mapping.axes")
    index = next(
        i for i, n in enumerate(gltf["nodes"]) if "joint" in n.get("extensions", {}).get("KHR_physics_rigid_bodies", {})
    )
    joint = _root(
        gltf, "physicsJoints", gltf["nodes"][index]["extensions"]["KHR_physics_rigid_bodies"]["joint"]["joint"]
    )
    rotation = (axes_mod.AXIS_CHANGE @ _world(nodes_mod, gltf, index))[:3, :3]
    by_type = {d["type"]: d for d in joint["drives"]}
    lin, ang = by_type["linear"], by_type["angular"]
    lin_world = rotation @ np.eye(3)[lin["axis"]] * lin["velocityTarget"]
    assert lin_world == pytest.approx([0.0, 0.7, 0.0], abs=1e-6)  # 0.7 m/s along the Empty's Y (world Y)
    assert (lin["mode"], lin["damping"], lin["stiffness"], lin["positionTarget"]) == ("force", 5.0, 0.0, 0.0)
    assert "maxForce" not in lin
    ang_world = rotation @ np.eye(3)[ang["axis"]] * ang["positionTarget"]
    assert ang_world == pytest.approx([0.0, 0.0, 0.5], abs=1e-6)  # 0.5 rad about the Empty's Z (world Z)
    assert (ang["mode"], ang["stiffness"], ang["damping"], ang["maxForce"]) == ("acceleration", 10.0, 2.0, 50.0)
    assert ang["velocityTarget"] == 0.0


def test_load_check_and_menu_entry_go_away_on_unregister(addon):
    adopt = submodule(addon, "ui.adopt.adopt")
    assert adopt.check_on_load in bpy.app.handlers.load_post
    try:
        addon.unregister()
        assert adopt.check_on_load not in bpy.app.handlers.load_post
        assert not adopt.GLTF_PHYSICS_OT_adopt_settings.is_registered
    finally:
        if not hasattr(bpy.types.Scene, "gltf_physics"):
            addon.register()
    assert bpy.app.handlers.load_post.count(adopt.check_on_load) == 1


def test_nothing_to_adopt_greys_the_operator_out(clean):
    rbw = rigid_body_world()
    rigid_box(rbw, "Plain")
    assert not bpy.ops.gltf_physics.adopt_settings.poll()


def test_settings_kept_by_the_installed_addon_on_blender_5_are_found(clean):
    """Blender 5.0 keeps the values of registered ``bpy.props`` apart from custom properties."""
    steps = submodule(clean, "ui.adopt.adopt_steps")
    ob = rigid_box(rigid_body_world(), "Installed")
    if not hasattr(ob, "bl_system_properties_get"):
        pytest.skip("Blender < 5.0 keeps them as custom properties (covered above)")
    ob.bl_system_properties_get(do_create=True)["khr_physics_extra_props"] = {"gravity_factor": 0.25}
    assert steps.has_legacy(ob) and ob.get("khr_physics_extra_props") is None
    assert steps.stored_props(ob, "khr_physics_extra_props") == {"gravity_factor": 0.25}
    assert bpy.ops.gltf_physics.adopt_settings() == {"FINISHED"}
    assert ob.gltf_physics.motion.gravity_factor == pytest.approx(0.25)


def test_adopted_objects_are_skipped_unless_adopting_again(clean):
    steps = submodule(clean, "ui.adopt.adopt_steps")
    rbw = rigid_body_world()
    body = rigid_box(rbw, "Body")
    body["khr_physics_extra_props"] = {"gravity_factor": 0.5}
    other = rigid_box(rbw, "Other", kind="PASSIVE", location=(2.0, 0.0, 0.0))
    c = constraint(rbw, "Drive", other, body, "GENERIC", location=(1.0, 0.0, 0.0))
    c.id_data["khr_physics_extra_constraint_props"] = {
        "use_ang_drive_x": True,
        "ang_x_drive_vel_target": 1.0,
        "ang_x_drive_damping": 10.0,
    }
    assert bpy.ops.gltf_physics.adopt_settings() == {"FINISHED"}
    assert steps.adopted(body) and steps.adopted(c.id_data)
    motors = [ob for ob in bpy.data.objects if ob.gltf_physics.joint.role == "MOTOR"]
    assert len(motors) == 1  # the velocity drive's MOTOR helper
    body["khr_physics_extra_props"]["gravity_factor"] = 0.25
    assert bpy.ops.gltf_physics.adopt_settings() == {"FINISHED"}
    assert body.gltf_physics.motion.gravity_factor == pytest.approx(0.5)
    assert bpy.ops.gltf_physics.adopt_settings(again=True) == {"FINISHED"}
    assert body.gltf_physics.motion.gravity_factor == pytest.approx(0.25)
    assert len(c.id_data.gltf_physics.joint.drives) == 1  # the joint is not converted twice
    assert len([ob for ob in bpy.data.objects if ob.gltf_physics.joint.role == "MOTOR"]) == 1
    not_converted = submodule(clean, "ui.adopt.adopt").LAST_REPORT["not_converted"]
    assert any("already a glTF joint" in line for line in not_converted)


def test_whole_scene_off_leaves_bodies_without_settings_to_the_native_export(clean, tmp_path):
    rbw = rigid_body_world()
    marked = rigid_box(rbw, "Marked")
    marked["khr_physics_extra_props"] = {"gravity_factor": 0.5}
    plain = rigid_box(rbw, "Plain", location=(3.0, 0.0, 0.0))
    plain.rigid_body.friction = 0.3
    assert bpy.ops.gltf_physics.adopt_settings(whole_scene=False) == {"FINISHED"}
    assert not submodule(clean, "ui.adopt.adopt_steps").adopted(plain)
    gltf = export(tmp_path / "partial.gltf", "2024-10")
    material = _root(gltf, "physicsMaterials", _ext(gltf, "Plain")["collider"]["physicsMaterial"])
    assert material["frictionCombine"] == "multiply"  # this extension's exact encoding of Blender's friction
