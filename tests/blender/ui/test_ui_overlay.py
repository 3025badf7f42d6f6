"""Viewport overlay (ui/overlay/overlay.py, overlay_collect.py): the draw handler and the sidebar toggles register and
go away with the extension; the per-object lines are built headless (the GPU part is skipped in background mode)
from the stored glTF values and the Blender settings, in world space, and cached until something they depend on
changes."""

from __future__ import annotations

import json
import math
import types

import bpy
import numpy as np
import pytest
from numpy.testing import assert_allclose

from blenderkit import submodule
from scene_helpers import count_children_scans, rigid_body_world, rigid_box
from ui_helpers import draw_panel


def _lines(addon, objects):
    overlay = submodule(addon, "ui.overlay.overlay")
    with bpy.context.temp_override(selected_objects=list(objects)):
        return overlay.selected_lines(bpy.context)


def _capsule_node(location=(0.0, 0.0, 0.0)):
    rbw = rigid_body_world()
    ob = rigid_box(rbw, "Capsule", shape="CAPSULE", location=location)
    pg = ob.gltf_physics
    pg.role = "NODE"
    pg.collider.has_collider = True
    pg.collider.geometry.kind = "SHAPE"
    pg.collider.geometry.shape_json = json.dumps(
        {"type": "capsule", "capsule": {"height": 1.0, "radiusTop": 0.1, "radiusBottom": 0.3}}
    )
    bpy.context.view_layer.update()
    return ob


def test_draw_handler_and_toggles_register_and_leave_nothing_behind(addon):
    overlay = submodule(addon, "ui.overlay.overlay")
    first = overlay.handle()
    assert first is not None
    assert hasattr(bpy.types.WindowManager, "gltf_physics_overlay")
    assert overlay.GLTF_PHYSICS_PT_overlay.is_registered
    popover = bpy.types.VIEW3D_PT_overlay_object
    assert popover._dyn_ui_initialize().count(overlay.overlay_popover) == 1
    try:
        addon.unregister()
        assert overlay.overlay_popover not in popover._dyn_ui_initialize()
        assert overlay.handle() is None
        assert not hasattr(bpy.types.WindowManager, "gltf_physics_overlay")
        assert not overlay.GLTF_PHYSICS_PT_overlay.is_registered
        with pytest.raises(ValueError):  # the handler is gone from Blender, not only from our module
            bpy.types.SpaceView3D.draw_handler_remove(first, "WINDOW")
        addon.register()
        assert overlay.handle() is not None and overlay.handle() is not first
        assert popover._dyn_ui_initialize().count(overlay.overlay_popover) == 1
    finally:
        if not hasattr(bpy.types.WindowManager, "gltf_physics_overlay"):
            addon.register()


def test_sidebar_panel_draws_the_toggles(clean):
    from ui_helpers import FakeLayout

    overlay = submodule(clean, "ui.overlay.overlay")
    popover = FakeLayout()
    overlay.overlay_popover(types.SimpleNamespace(layout=popover), bpy.context)
    assert popover.props() == ["show"]
    layout = draw_panel(overlay.GLTF_PHYSICS_PT_overlay, None)
    assert layout.props() == ["show", "show_shapes", "show_joints", "show_mass", "show_velocity"]
    assert overlay.GLTF_PHYSICS_PT_overlay.bl_category == "glTF Physics"
    adopt = submodule(clean, "ui.adopt.adopt")
    adopt.PENDING[:] = ["Crate"]
    try:
        offered = draw_panel(overlay.GLTF_PHYSICS_PT_overlay, None)
    finally:
        adopt.PENDING.clear()
    assert [d["idname"] for d in offered.calls("operator")] == ["gltf_physics.adopt_settings"]


def test_nothing_selected_or_overlay_off_builds_nothing(clean):
    overlay = submodule(clean, "ui.overlay.overlay")
    ob = _capsule_node()
    builds = overlay.CACHE.builds
    assert _lines(clean, []) == {}
    bpy.context.window_manager.gltf_physics_overlay.show = False
    try:
        assert _lines(clean, [ob]) == {}
    finally:
        bpy.context.window_manager.gltf_physics_overlay.show = True
    assert overlay.CACHE.builds == builds
    assert overlay.batches({}) == []


def test_stored_tapered_capsule_is_drawn_with_the_file_parameters_in_world_space(clean):
    ob = _capsule_node(location=(2.0, 0.0, 1.0))
    lines = _lines(clean, [ob])
    v = lines["collider"].astype(np.float64) - (2.0, 0.0, 1.0)
    assert_allclose(v[:, 2].max(), 0.5 + 0.1, atol=1e-5)  # top cap tip: height/2 + radiusTop along Blender Z
    assert_allclose(v[:, 2].min(), -0.5 - 0.3, atol=1e-5)  # the render mesh is a 1 m box: not what is drawn
    bottom = v[np.isclose(v[:, 2], -0.5, atol=1e-6)]
    assert_allclose(np.linalg.norm(bottom[:, :2], axis=1).max(), 0.3, atol=1e-5)
    assert "trigger" not in lines


def test_native_box_body_draws_the_primitive_export_derives(clean):
    rbw = rigid_body_world()
    ob = rigid_box(rbw, "Crate", size=(2.0, 1.0, 0.5), location=(0.0, 3.0, 0.0))
    ob.rotation_euler = (0.0, 0.0, math.pi / 2)
    bpy.context.view_layer.update()
    v = _lines(clean, [ob])["collider"].astype(np.float64)
    assert_allclose(v.max(axis=0) - v.min(axis=0), [1.0, 2.0, 0.5], atol=1e-5)  # turned 90° about Z
    assert_allclose(v.mean(axis=0), [0.0, 3.0, 0.0], atol=1e-5)


def test_centre_of_mass_and_velocities_follow_the_stored_motion(clean):
    ob = _capsule_node(location=(0.0, 0.0, 2.0))
    pm = ob.gltf_physics.motion
    pm.has_motion = True
    pm.has_center_of_mass = True
    pm.center_of_mass = (0.0, 0.0, 0.5)
    pm.linear_velocity = (1.5, 0.0, 0.0)
    pm.angular_velocity = (0.0, 0.0, 2.0)
    lines = _lines(clean, [ob])
    assert_allclose(lines["mass"].astype(np.float64).mean(axis=0), [0.0, 0.0, 2.5], atol=1e-6)
    velocity = lines["velocity"].astype(np.float64)
    assert_allclose(velocity[1], [1.5, 0.0, 2.5], atol=1e-6)  # linear arrow tip: 1 s of travel
    spin = velocity[6:8]  # first segment of the angular part: the spin axis arrow along +Z
    assert_allclose(spin[1] - spin[0], [0.0, 0.0, 0.25], atol=1e-6)


def test_hinge_joint_frames_limit_arc_and_drive_in_world_space(clean):
    rbw = rigid_body_world()
    a = rigid_box(rbw, "Door frame", kind="PASSIVE")
    b = rigid_box(rbw, "Door", location=(1.5, 0.0, 0.0))
    bpy.context.scene.cursor.location = (0.5, 0.0, 1.0)
    bpy.context.view_layer.update()
    with bpy.context.temp_override(selected_objects=[a, b], active_object=b, object=b):
        result = bpy.ops.gltf_physics.add_joint(preset="HINGE", axis="Z", use_range=True, lower=-0.5, upper=1.0)
    assert result == {"FINISHED"}
    empty = next(ob for ob in bpy.data.objects if ob.gltf_physics.joint.role == "JOINT")
    lines = _lines(clean, [empty])
    pivot = np.array([0.5, 0.0, 1.0])
    y_axis = lines["axis_y"].astype(np.float64)[:2]  # frame A's glTF Y = the hinge axis = Blender Z
    assert_allclose(y_axis[0], pivot, atol=1e-6)
    assert_allclose(y_axis[1] - pivot, [0.0, 0.0, 0.3], atol=1e-6)
    arc = lines["limit"].astype(np.float64) - pivot
    assert_allclose(arc[:, 2], 0.0, atol=1e-6)  # about the hinge axis
    radii = np.linalg.norm(arc, axis=1)
    on_arc = arc[radii > 0.2]
    assert_allclose(np.linalg.norm(on_arc, axis=1), 0.25, atol=1e-6)
    # angle 0 about glTF Y is glTF Z = Blender −Y, turning towards glTF X = Blender X
    angles = np.arctan2(on_arc[:, 0], -on_arc[:, 1])
    assert_allclose([angles.min(), angles.max()], [-0.5, 1.0], atol=1e-5)
    assert "drive" not in lines


def test_lines_are_cached_until_their_values_change_and_follow_moves(clean):
    overlay = submodule(clean, "ui.overlay.overlay")
    ob = _capsule_node()
    _lines(clean, [ob])
    builds = overlay.CACHE.builds
    _lines(clean, [ob])
    assert overlay.CACHE.builds == builds  # unchanged: served from the cache
    ob.location = (0.0, 1.0, 0.0)
    bpy.context.view_layer.update()
    moved = _lines(clean, [ob])["collider"].astype(np.float64)
    assert overlay.CACHE.builds == builds  # a move only places the cached pieces elsewhere
    assert_allclose(moved.mean(axis=0)[1], 1.0, atol=1e-5)
    ob.gltf_physics.collider.geometry.shape_json = json.dumps({"type": "sphere", "sphere": {"radius": 0.4}})
    sphere = _lines(clean, [ob])["collider"].astype(np.float64)
    assert overlay.CACHE.builds == builds + 1
    assert_allclose(np.linalg.norm(sphere - (0.0, 1.0, 0.0), axis=1), 0.4, atol=1e-5)
    _lines(clean, [])
    assert overlay.CACHE.entries == {}  # deselected objects leave the cache


@pytest.mark.parametrize("locale", ["de_DE", "fr_FR"])
def test_translations_cover_the_overlay_and_adopt_texts(clean, locale):
    table = submodule(clean, "ui.translations").TRANSLATIONS[locale]
    overlay = submodule(clean, "ui.overlay.overlay")
    adopt = submodule(clean, "ui.adopt.adopt")
    texts = {overlay.GLTF_PHYSICS_PT_overlay.bl_label, adopt.GLTF_PHYSICS_OT_adopt_settings.bl_label}
    rnas = ((overlay.GLTF_PHYSICS_PG_overlay, overlay.GLTF_PHYSICS_PG_overlay.bl_rna),)
    rnas += ((adopt.GLTF_PHYSICS_OT_adopt_settings, bpy.ops.gltf_physics.adopt_settings.get_rna_type()),)
    for cls, rna in rnas:
        texts |= {rna.properties[name].name for name in cls.__annotations__}
        texts |= {rna.properties[name].description for name in cls.__annotations__}
    texts.add(adopt.GLTF_PHYSICS_OT_adopt_settings.bl_description)
    texts |= {"Selected objects: {}", "Other add-on's settings on {} object(s)"}
    texts |= {"Adopted the physics settings of {} object(s)"}
    motion = bpy.types.Object.bl_rna.properties["gltf_physics"].fixed_type.properties["motion"].fixed_type
    texts |= {motion.properties[n].description for n in ("center_of_mass", "linear_velocity", "angular_velocity")}
    missing = {t for t in texts if ("*", t) not in table}
    assert not missing, missing
    for text in texts:
        assert table[("*", text)].count("{}") == text.count("{}")


@pytest.mark.parametrize(
    ("fixture", "layers"),
    [
        ("import/compound.gltf", {"collider", "mass"}),
        ("import/triggers.gltf", {"trigger"}),
        ("import/scales.gltf", {"collider"}),
        ("joints/cone.gltf", {"axis_x", "axis_y", "axis_z", "limit"}),
        ("joints/motor_y.gltf", {"axis_x", "drive"}),
        ("joints/generic.gltf", {"limit"}),
    ],
)
def test_every_object_of_imported_fixtures_draws_without_errors(clean, fixture, layers):
    from joint_helpers import import_gltf
    from testkit import ROOT

    overlay = submodule(clean, "ui.overlay.overlay")
    import_gltf(clean, ROOT / "tests" / "fixtures" / fixture)
    objects = list(bpy.context.scene.objects)
    found = set()
    for ob in objects:  # one object at a time: every kind (bodies, proxies, joints, helpers, anchors) on its own
        lines = _lines(clean, [ob])
        for layer, v in lines.items():
            assert v.dtype == np.float32 and v.shape[1] == 3 and len(v) % 2 == 0, (ob.name, layer)
            assert np.isfinite(v).all(), (ob.name, layer)
        found |= set(lines)
    assert layers <= found, (fixture, found)
    everything = _lines(clean, objects)
    assert set(everything) == found
    with bpy.context.temp_override(selected_objects=objects):
        overlay.draw()  # background mode: collects, makes no batch, raises nothing


def test_imported_joint_frames_sit_on_their_frame_nodes(clean):
    from joint_helpers import constraints, file_frame, import_gltf
    from testkit import ROOT

    collect = submodule(clean, "ui.overlay.overlay_collect")
    path = ROOT / "tests" / "fixtures" / "joints" / "offset_fixed.gltf"
    import_gltf(clean, path)
    (empty,) = constraints("JOINT")
    pj = empty.gltf_physics.joint
    assert pj.node_a is not None and pj.node_b is not None
    _description, frame_a, frame_b = collect.joint_frames(empty)
    nodes = [n["name"] for n in json.loads(path.read_text(encoding="utf-8"))["nodes"]]
    for frame, node in ((frame_a, pj.node_a), (frame_b, pj.node_b)):
        bpy.context.view_layer.update()
        expected = file_frame(path, nodes.index(node.name))  # the node's glTF axes in Blender world
        assert_allclose(frame[:3, 3], expected[:3, 3], atol=1e-5)
        assert_allclose(frame[:3, :3], expected[:3, :3] / np.linalg.norm(expected[:3, :3], axis=0), atol=1e-5)
    assert np.linalg.norm(frame_b[:3, 3] - frame_a[:3, 3]) > 0.1  # the fixture's frames are apart


def test_native_constraint_limits_are_drawn_as_export_writes_them(clean):
    """A constraint made in Blender: the frame is the Empty's own axes and an angular range [lo, hi] is the glTF
    range [−hi, −lo] (``joints_to_gltf``: Blender bounds object1 relative to object2)."""
    from scene_helpers import constraint

    rbw = rigid_body_world()
    a = rigid_box(rbw, "A", kind="PASSIVE")
    b = rigid_box(rbw, "B", location=(2.0, 0.0, 0.0))
    c = constraint(rbw, "Generic", a, b, "GENERIC", location=(1.0, 0.0, 0.5))
    c.use_limit_ang_z, c.limit_ang_z_lower, c.limit_ang_z_upper = True, -0.2, 0.6
    bpy.context.view_layer.update()
    lines = _lines(clean, [c.id_data])
    arc = lines["limit"].astype(np.float64) - (1.0, 0.0, 0.5)
    on_arc = arc[np.linalg.norm(arc, axis=1) > 0.2]
    assert_allclose(on_arc[:, 2], 0.0, atol=1e-6)
    angles = np.arctan2(on_arc[:, 1], on_arc[:, 0])  # about Z, angle 0 on X
    assert_allclose([angles.min(), angles.max()], [-0.6, 0.2], atol=1e-5)
    x_axis = lines["axis_x"].astype(np.float64)[:2]
    assert_allclose(x_axis[1] - x_axis[0], [0.3, 0.0, 0.0], atol=1e-6)  # frames A = B at the Empty, its own axes


def test_a_selected_compound_body_draws_its_child_shapes_and_follows_them(clean):
    overlay = submodule(clean, "ui.overlay.overlay")
    rbw = rigid_body_world()
    parent = rigid_box(rbw, "Cart", shape="COMPOUND")
    wheel = rigid_box(rbw, "Wheel", size=(0.5, 0.5, 0.5), shape="SPHERE", location=(1.0, 0.0, 0.0), parent=parent)
    bpy.context.view_layer.update()
    v = _lines(clean, [parent])["collider"].astype(np.float64)
    assert_allclose(np.linalg.norm(v - (1.0, 0.0, 0.0), axis=1), 0.25, atol=1e-5)  # only the child's sphere
    builds = overlay.CACHE.builds
    wheel.location.x = 2.0
    bpy.context.view_layer.update()
    moved = _lines(clean, [parent])["collider"].astype(np.float64)
    assert overlay.CACHE.builds == builds + 1  # a child's move invalidates the parent's lines
    assert_allclose(moved.mean(axis=0), [2.0, 0.0, 0.0], atol=1e-5)


def test_a_compound_body_scaled_to_zero_does_not_hide_the_other_selected_bodies(clean):
    """A compound body at scale 0 (a "pop-in" animation's first frame) has no inverse world matrix: its children's
    shapes cannot be put in its frame, so it draws no shape lines, and every other selected body still draws
    (before, ``np.linalg.inv`` raised in the draw callback and the whole overlay disappeared)."""
    rbw = rigid_body_world()
    parent = rigid_box(rbw, "Cart", shape="COMPOUND")
    rigid_box(rbw, "Wheel", size=(0.5, 0.5, 0.5), shape="SPHERE", location=(1.0, 0.0, 0.0), parent=parent)
    parent.scale = (0.0, 0.0, 0.0)
    capsule = _capsule_node(location=(5.0, 0.0, 0.0))
    alone = _lines(clean, [capsule])["collider"]
    lines = _lines(clean, [parent, capsule])
    assert_allclose(lines["collider"], alone)  # only the capsule's shape: the cart's children have no frame


def test_a_falling_body_is_not_rebuilt_while_the_simulation_plays(clean):
    from joint_helpers import step

    overlay = submodule(clean, "ui.overlay.overlay")
    ob = _capsule_node(location=(0.0, 0.0, 5.0))
    scene = bpy.context.scene
    scene.frame_set(scene.frame_start)
    start = _lines(clean, [ob])["collider"].astype(np.float64).mean(axis=0)
    builds = overlay.CACHE.builds
    step(scene, scene.frame_start + 20)
    fallen = _lines(clean, [ob])["collider"].astype(np.float64).mean(axis=0)
    assert fallen[2] < start[2] - 0.5  # the lines follow the simulated body
    assert_allclose(fallen[2] - start[2], ob.matrix_world.translation.z - 5.0, atol=1e-4)
    assert overlay.CACHE.builds == builds


def test_unchanged_redraws_return_the_same_lines_for_the_gpu_batches(clean):
    ob = _capsule_node()
    first = _lines(clean, [ob])
    assert _lines(clean, [ob]) is first  # GPU batches made from it are reused
    ob.location.x += 1.0
    bpy.context.view_layer.update()
    assert _lines(clean, [ob]) is not first


def test_many_selected_compound_bodies_are_drawn_without_a_children_scan_each(clean, monkeypatch):
    """``Object.children`` scans every object per call: asked for every selected compound body on every redraw, a
    redraw grew with the square of the objects. One pass per redraw now, and the same lines."""
    rbw = rigid_body_world()
    carts = []
    for i in range(12):
        cart = rigid_box(rbw, f"Cart{i}", shape="COMPOUND", location=(3.0 * i, 0.0, 0.0))
        rigid_box(rbw, f"Wheel{i}", size=(0.5, 0.5, 0.5), shape="SPHERE", location=(1.0, 0.0, 0.0), parent=cart)
        carts.append(cart)
    bpy.context.view_layer.update()
    scans = count_children_scans(monkeypatch)
    v = _lines(clean, carts)["collider"].astype(np.float64)
    centres = sorted({round(float(x)) for x in v[:, 0]})
    assert centres == [3 * i + 1 for i in range(12)]  # each cart draws its wheel
    _lines(clean, carts)  # a redraw without changes
    assert scans == {"children": 0, "children_recursive": 0}
