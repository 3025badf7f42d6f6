"""gltf_physics.* operators run headless through bpy.ops with a context override and change the scene as expected."""

from __future__ import annotations

import json
import math

import bpy
import pytest

from blenderkit import submodule
from joint_helpers import constraints, import_gltf
from scene_helpers import box_object
from testkit import fixture
from ui_helpers import draw_panel


def _rigid_body(ob, shape="BOX", body_type="ACTIVE"):
    scene = bpy.context.scene
    if scene.rigidbody_world is None:
        with bpy.context.temp_override(scene=scene):
            bpy.ops.rigidbody.world_add()  # test setup only; the operators under test use the data API
    world = scene.rigidbody_world
    if world.collection is None:
        world.collection = bpy.data.collections.new("RigidBodyWorld")
    world.collection.objects.link(ob)
    ob.rigid_body.collision_shape = shape
    ob.rigid_body.type = body_type
    return ob


def _run(op: str, objects, active=None, **props):
    active = active or (objects[0] if objects else None)
    with bpy.context.temp_override(object=active, active_object=active, selected_objects=list(objects)):
        return getattr(bpy.ops.gltf_physics, op)(**props)


def _messages(addon, key):
    return submodule(addon, "ui.operators").LAST_MESSAGES[key]


def test_operators_grey_out_without_a_suitable_selection(addon, clean):
    empty = bpy.data.objects.new("Empty", None)
    bpy.context.scene.collection.objects.link(empty)
    with bpy.context.temp_override(object=empty, active_object=empty, selected_objects=[empty]):
        assert not bpy.ops.gltf_physics.compute_mass.poll()
        assert not bpy.ops.gltf_physics.make_trigger.poll()
        assert not bpy.ops.gltf_physics.add_joint_item.poll()
        assert not bpy.ops.gltf_physics.remove_joint_item.poll()
        assert bpy.ops.gltf_physics.validate_scene.poll()


def test_compute_mass_sets_rigid_body_mass_from_volume_and_density(addon, clean):
    box = _rigid_body(box_object("Box", size=(2.0, 1.0, 0.5)), "BOX")
    ball = _rigid_body(box_object("Ball", size=(1.0, 1.0, 1.0)), "SPHERE")
    ball.scale = (2.0, 2.0, 2.0)
    hull = _rigid_body(box_object("Hull", size=(1.0, 2.0, 3.0), offset=(5.0, 0.0, 0.0)), "CONVEX_HULL")
    skip = box_object("NotABody")
    assert _run("compute_mass", [box, ball, hull, skip], density=500.0) == {"FINISHED"}
    assert box.rigid_body.mass == pytest.approx(500.0 * 1.0)
    assert ball.rigid_body.mass == pytest.approx(500.0 * 4 / 3 * math.pi * 1.0**3, rel=1e-6)  # r 0.5 × scale 2
    assert hull.rigid_body.mass == pytest.approx(500.0 * 6.0, rel=1e-6)  # off-centre hull: the mesh itself
    assert _messages(addon, "compute_mass") == []


def test_compute_mass_uses_the_scene_density_and_keeps_the_gltf_mode(addon, clean):
    bpy.context.scene.gltf_physics.import_reproduce = False  # with it, "Full" is a compound child of its COM helper
    import_gltf(clean, fixture("import/materials_mass.gltf"))
    scene = bpy.context.scene
    scene.gltf_physics.import_density = 250.0
    full, computed, infinite = (bpy.data.objects[n] for n in ("Full", "Computed", "Infinite"))
    assert _run("compute_mass", [full, computed, infinite]) == {"FINISHED"}
    assert computed.rigid_body.mass == pytest.approx(250.0 * 2.0)
    assert full.rigid_body.mass == pytest.approx(250.0 * 2.0)
    assert full.gltf_physics.motion.mass == pytest.approx(500.0)  # explicit glTF mass follows
    assert computed.gltf_physics.motion.mass_mode == "ABSENT"
    assert infinite.rigid_body.mass == pytest.approx(1.0)  # mass 0 (infinite) left alone
    assert _messages(addon, "compute_mass") == ["Infinite: infinite mass (glTF mass 0) kept"]
    assert _run("compute_mass", [full], mark_computed=True) == {"FINISHED"}
    assert full.gltf_physics.motion.mass_mode == "ABSENT"


def test_compute_mass_on_a_compound_body_and_its_child(addon, clean):
    import_gltf(clean, fixture("import/compound.gltf"))
    cart, part = bpy.data.objects["Cart"], bpy.data.objects["CartBox"]
    assert _run("compute_mass", [cart, part], density=1000.0) == {"FINISHED"}
    assert cart.rigid_body.mass == pytest.approx(1000.0 * (1.0 + 4 / 3 * math.pi * 0.125), rel=1e-6)
    assert part.rigid_body.mass == pytest.approx(1.0)
    assert _messages(addon, "compute_mass") == ["CartBox: part of compound body 'Cart'; select the parent"]


def test_make_trigger_turns_meshes_into_trigger_volumes(addon, clean):
    box = box_object("Zone", size=(2.0, 4.0, 6.0))
    hull = box_object("Hull", size=(1.0, 1.0, 1.0))
    off = box_object("Off", size=(1.0, 1.0, 1.0), offset=(3.0, 0.0, 0.0))
    body = _rigid_body(box_object("Body"))
    empty = bpy.data.objects.new("Empty", None)
    bpy.context.scene.collection.objects.link(empty)
    assert _run("make_trigger", [box, off, body, empty], shape="BOX") == {"FINISHED"}
    trig = box.gltf_physics.trigger
    assert trig.has_trigger and box.gltf_physics.role == "NODE"
    assert trig.geometry.kind == "SHAPE"
    assert json.loads(trig.geometry.shape_json) == {"type": "box", "box": {"size": [2.0, 6.0, 4.0]}}  # glTF axes
    assert box.display_type == "BOUNDS" and box.hide_render and box.rigid_body is None
    assert off.gltf_physics.trigger.has_trigger
    assert not body.gltf_physics.trigger.has_trigger and body.rigid_body is not None
    assert _messages(addon, "make_trigger") == [
        "Body: a rigid body; parent a separate mesh to it and make that the trigger",
        "Empty: not a mesh object",
        "Off: mesh not centred on the origin; the box is",
    ]
    assert _run("make_trigger", [hull], shape="CONVEX_HULL") == {"FINISHED"}
    geometry = hull.gltf_physics.trigger.geometry
    assert (geometry.kind, geometry.mesh, geometry.convex_hull) == ("MESH", -1, True)
    assert hull.display_type == "WIRE"


def test_made_triggers_show_in_the_trigger_panel_and_validate(addon, clean):
    zone = box_object("Zone", size=(2.0, 2.0, 2.0))
    assert _run("make_trigger", [zone], shape="SPHERE") == {"FINISHED"}
    panel = submodule(addon, "ui.body.panels_body").GLTF_PHYSICS_PT_trigger
    assert "Shape -1: Sphere r 1 m" in draw_panel(panel, zone).texts()
    assert _run("validate_scene", [zone], check_export=False) == {"FINISHED"}
    assert _messages(addon, "validate_scene") == []


def test_validate_scene_reports_stored_problems(addon, clean):
    import_gltf(clean, fixture("joints/filters.gltf"))
    ghost = bpy.data.objects["Ghost"]
    ghost.gltf_physics.collider.filter.collide_with_systems = '["a"]'
    ghost.gltf_physics.collider.filter.not_collide_with_systems = '["b"]'
    plain = bpy.data.objects["Plain"]
    plain.gltf_physics.motion.mass_mode = "EXPLICIT"
    plain.gltf_physics.motion.mass = 0.0
    plain.gltf_physics.collider.geometry.shape_json = '{"type": "sphere", "sphere": {"radius": -1}}'
    assert _run("validate_scene", [], check_export=False) == {"FINISHED"}
    messages = _messages(addon, "validate_scene")
    assert messages == [
        "ERROR GLTF_PHYSICS_STORED_BAD_VALUE at /objects/Ghost/gltf_physics/collider/filter: "
        "a filter cannot have both collide and not-collide lists",
        "ERROR GLTF_PHYSICS_STORED_BAD_VALUE at /objects/Plain/gltf_physics/motion/mass: "
        "an explicit mass must be > 0 (use Infinite for KHR mass 0)",
        "ERROR GLTF_PHYSICS_STORED_BAD_VALUE at /objects/Plain/gltf_physics/collider/geometry/shape_json: "
        "the stored shape is unreadable or invalid",
    ]


def test_validate_scene_checks_joints(addon, clean):
    import_gltf(clean, fixture("joints/motor_y.gltf"))
    assert _run("validate_scene", [], check_export=False) == {"FINISHED"}
    assert _messages(addon, "validate_scene") == []  # damping with its velocity target: fine
    (joint_ob,) = constraints("JOINT")
    limit = joint_ob.gltf_physics.joint.limits[0]
    with submodule(addon, "io.mapping.sync_gate").paused():  # a script writing past the panel (it pushes the bound)
        limit.has_min, limit.min, limit.has_max, limit.max = True, 1.0, True, -1.0
    drive = joint_ob.gltf_physics.joint.drives[0]
    drive.has_velocity_target = False
    assert _run("validate_scene", [], check_export=False) == {"FINISHED"}
    messages = _messages(addon, "validate_scene")
    assert len(messages) == 2
    assert messages[0].startswith("ERROR GLTF_PHYSICS_STORED_BAD_VALUE at /objects/FrameA/gltf_physics/joint/limits/0")
    assert messages[1].startswith("WARNING GLTF_PHYSICS_STORED_DEPENDENCY at ") and "damping" in messages[1]


def test_add_and_remove_joint_items(addon, clean):
    import_gltf(clean, fixture("joints/motor_y.gltf"))
    (joint_ob,) = constraints("JOINT")
    joint, pg = joint_ob.gltf_physics.joint, joint_ob.gltf_physics
    assert _run("add_joint_item", [joint_ob], kind="LIMIT") == {"FINISHED"}
    assert len(joint.limits) == 3 and pg.active_limit_index == 2
    assert tuple(joint.limits[2].axes) == (True, False, False)
    assert _run("add_joint_item", [joint_ob], kind="DRIVE") == {"FINISHED"}
    assert len(joint.drives) == 2 and pg.active_drive_index == 1
    pg.active_limit_index = 0
    assert _run("remove_joint_item", [joint_ob], kind="LIMIT") == {"FINISHED"}
    assert len(joint.limits) == 2 and tuple(joint.limits[0].axes) == (True, False, True)  # angular X, Z left
    assert _run("remove_joint_item", [joint_ob], kind="DRIVE") == {"FINISHED"}
    assert len(joint.drives) == 1 and pg.active_drive_index == 0


def test_operators_register_an_undo_step(addon):
    ops = submodule(addon, "ui.operators")
    for cls in ops.CLASSES:
        assert cls.bl_idname.startswith("gltf_physics.") and cls.bl_idname == cls.bl_idname.lower()
        assert cls.__name__.startswith("GLTF_PHYSICS_OT_")
        expected = {"REGISTER"} if cls.bl_idname == "gltf_physics.validate_scene" else {"REGISTER", "UNDO"}
        assert set(cls.bl_options) == expected


def test_validate_scene_validates_what_export_writes(addon, clean):
    bpy.ops.mesh.primitive_cube_add()
    assert _run("validate_scene", []) == {"FINISHED"}
    assert _messages(addon, "validate_scene") == []
    import_gltf(clean, fixture("joints/motor_y.gltf"))
    (joint_ob,) = constraints("JOINT")
    limit = joint_ob.gltf_physics.joint.limits[0]
    with submodule(addon, "io.mapping.sync_gate").paused():  # a script writing past the panel (it pushes the bound)
        limit.has_min, limit.min, limit.has_max, limit.max = True, 1.0, True, -1.0
    exported, gltf = submodule(addon, "ui.scene.export_check").export_and_validate()
    assert gltf is not None and "nodes" in gltf  # exported and read back; nothing left on disk
    joints = gltf.get("extensions", {}).get("KHR_physics_rigid_bodies", {}).get("physicsJoints", [])
    ranges = [d for d in exported if d.code == "KHR_RIGID_BODIES_JOINT_INVALID_RANGE"]
    if any(lim.get("min", 0) > lim.get("max", 0) for j in joints for lim in j.get("limits", [])):
        assert ranges and ranges[0].pointer.startswith("/extensions/KHR_physics_rigid_bodies/physicsJoints/")
    assert _run("validate_scene", []) == {"FINISHED"}
    messages = _messages(addon, "validate_scene")
    assert messages[0].startswith("ERROR GLTF_PHYSICS_STORED_BAD_VALUE at /objects/FrameA/")
    assert all(m.startswith("export: ") for m in messages[1:])
    assert len(messages) == 1 + sum(d.severity >= 2 for d in exported)


def test_export_diagnostics_name_their_node(addon):
    check = submodule(addon, "ui.scene.export_check")
    diagnostics = submodule(addon, "io.diagnostics")
    gltf = {"nodes": [{"name": "Floor"}, {}]}
    diag = diagnostics.Diagnostic(
        diagnostics.Severity.ERROR, "X", "/nodes/0/extensions/KHR_physics_rigid_bodies", "bad"
    )
    assert check._named(diag, gltf).message == "bad (node 'Floor')"
    for pointer in ("/nodes/1/mesh", "/nodes/7", "/meshes/0", "/nodes/01x"):
        other = diagnostics.Diagnostic(diagnostics.Severity.ERROR, "X", pointer, "bad")
        assert check._named(other, gltf).message == "bad"


def test_hull_cache_follows_mesh_edits(addon, clean):
    hull = _rigid_body(box_object("Hull", size=(1.0, 1.0, 1.0)), "CONVEX_HULL")
    assert _run("compute_mass", [hull], density=1000.0) == {"FINISHED"}
    assert hull.rigid_body.mass == pytest.approx(1000.0, rel=1e-6)
    for v in hull.data.vertices:  # stretch to 1 × 1 × 3: same vertex count, new coordinates
        v.co.z *= 3.0
    assert _run("compute_mass", [hull], density=1000.0) == {"FINISHED"}
    assert hull.rigid_body.mass == pytest.approx(3000.0, rel=1e-6)
    assert len(submodule(addon, "ui.body.body_shapes")._HULLS) >= 2
