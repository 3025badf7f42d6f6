"""Add glTF Joint (gltf_physics.add_joint): every preset between two selected bodies makes the constraint the
importer's mapping plans, stores the preset's glTF joint, and export → import gives the same description back."""

from __future__ import annotations

import dataclasses
import math

import bpy
import numpy as np
import pytest
from mathutils import Vector

from blenderkit import submodule
from export_helpers import close, export
from joint_helpers import constraints, import_gltf
from scene_helpers import rigid_body_world, rigid_box

PRESETS = ("FIXED", "BALL", "HINGE", "SLIDER", "CONE_TWIST", "DISTANCE", "SPRING", "VELOCITY_MOTOR", "POSITION_SERVO")


def _bodies(kind_a="PASSIVE", location_b=(0.0, 0.0, -1.5)):
    rbw = rigid_body_world()
    a = rigid_box(rbw, "Torso", kind=kind_a, location=(0.0, 0.0, 0.0))
    b = rigid_box(rbw, "Arm", size=(1.0, 0.3, 0.3), location=location_b)
    return a, b


def _add(selected, active, **props):
    with bpy.context.temp_override(selected_objects=list(selected), active_object=active, object=active):
        return bpy.ops.gltf_physics.add_joint(**props)


def _plain(description) -> dict:
    data = dataclasses.asdict(description)
    data.pop("source", None)
    return data


@pytest.mark.parametrize("preset", PRESETS)
def test_each_preset_adds_the_planned_constraint_and_round_trips(clean, tmp_path, preset):
    presets = submodule(clean, "io.mapping.joint_presets")
    jm = submodule(clean, "io.mapping.joints_to_blender")
    stored = submodule(clean, "io.mapping.stored")
    a, b = _bodies()
    bpy.context.scene.cursor.location = (0.0, 0.0, -0.75)
    assert _add([a, b], b, preset=preset, axis="X", joint_name="J") == {"FINISHED"}
    (empty,) = constraints("JOINT")
    c = empty.rigid_body_constraint
    params = presets.PresetParams(axis=0)
    expected = presets.describe(preset, params, name="J")
    plan = jm.plan_joint(expected)
    assert (c.type, c.object1, c.object2) == (plan.type, a, b)  # active = body B = object2
    assert len(constraints("MOTOR")) == len(plan.motors)
    assert tuple(empty.matrix_world.translation) == pytest.approx((0.0, 0.0, -0.75))
    assert close(_plain(stored.stored_description(empty.gltf_physics.joint)), _plain(expected))
    # export → import in an empty scene: the same joint description comes back
    export(tmp_path / "joint.gltf", "2026")
    bpy.ops.wm.read_homefile(use_factory_startup=True, use_empty=True)
    import_gltf(clean, tmp_path / "joint.gltf")
    (back,) = constraints("JOINT")
    assert back.rigid_body_constraint.type == plan.type
    assert close(_plain(stored.stored_description(back.gltf_physics.joint)), _plain(expected))


def test_between_places_the_pivot_half_way(clean):
    a, b = _bodies()
    assert _add([a, b], b, preset="BALL", location="BETWEEN") == {"FINISHED"}
    (empty,) = constraints("JOINT")
    assert tuple(empty.matrix_world.translation) == pytest.approx((0.0, 0.0, -0.75))
    pj = empty.gltf_physics.joint
    # frame A in body A (glTF axes: Blender −Z = glTF −Y), frame B in body B
    assert tuple(pj.frame_a_translation) == pytest.approx((0.0, -0.75, 0.0), abs=1e-6)
    assert tuple(pj.frame_b_translation) == pytest.approx((0.0, 0.75, 0.0), abs=1e-6)


@pytest.mark.parametrize(("axis", "perm"), [("X", (1, 2, 0)), ("Y", (0, 1, 2)), ("Z", (2, 0, 1))])
def test_hinge_axis_is_picked_in_blender_axes(clean, axis, perm):
    a, b = _bodies()
    assert _add([a, b], b, preset="HINGE", axis=axis) == {"FINISHED"}
    (empty,) = constraints("JOINT")
    hinge_axis = empty.matrix_world.to_3x3() @ Vector((0.0, 0.0, 1.0))  # Blender's HINGE turns about the Empty's Z
    want = Vector([1.0 if "XYZ".index(axis) == i else 0.0 for i in range(3)])
    assert abs(hinge_axis.dot(want)) == pytest.approx(1.0)


@pytest.mark.parametrize("count", [0, 1, 3])
def test_needs_exactly_two_bodies(clean, count):
    rbw = rigid_body_world()
    bodies = [rigid_box(rbw, f"B{i}", location=(2.0 * i, 0.0, 0.0)) for i in range(count)]
    active = bodies[-1] if bodies else None
    with pytest.raises(RuntimeError, match=f"exactly two selected rigid bodies \\({count} selected\\)"):
        _add(bodies, active, preset="FIXED")
    assert constraints("JOINT") == []


def test_undo_step_and_menu_entry(clean):
    cls = submodule(clean, "ui.joint.joint_presets").GLTF_PHYSICS_OT_add_joint
    assert set(cls.bl_options) == {"REGISTER", "UNDO"}  # the Empty, constraint and stored joint: one undo step
    menu = bpy.types.VIEW3D_MT_object_rigid_body
    ours = submodule(clean, "ui.joint.joint_presets")._menu
    assert ours in menu._dyn_ui_initialize()
    clean.unregister()
    try:
        assert ours not in menu._dyn_ui_initialize()  # unregister leaves no menu entry behind
    finally:
        clean.register()
    assert menu._dyn_ui_initialize().count(ours) == 1


def _gltf_frame(matrix) -> tuple:
    """(translation, xyzw) of a Blender world matrix in glTF world axes."""
    t = matrix.translation
    q = matrix.to_quaternion()
    return (t.x, t.z, -t.y), (q.x, q.z, -q.y, q.w)


def test_cone_twist_stays_within_its_cone_and_twist_for_120_frames(clean):
    limits = submodule(clean, "sim.limits")
    # the arm sticks out along +X from the pivot: gravity swings it down about Y, against the swing cone about X
    a, b = _bodies(location_b=(0.6, 0.0, 0.0))
    bpy.context.scene.cursor.location = (0.0, 0.0, 0.0)
    a.location = (-0.6, 0.0, 0.0)
    swing, twist = 0.4, 0.3
    props = {"swing": swing, "twist_lower": -twist, "twist_upper": twist}
    assert _add([a, b], b, preset="CONE_TWIST", axis="X", **props) == {"FINISHED"}
    scene = bpy.context.scene
    scene.frame_set(scene.frame_start)
    depsgraph = bpy.context.evaluated_depsgraph_get()
    frame0 = bpy.context.scene.cursor.matrix.copy()
    local_b = b.evaluated_get(depsgraph).matrix_world.inverted() @ frame0
    local_a = a.evaluated_get(depsgraph).matrix_world.inverted() @ frame0
    cone, turn = [], []
    for frame in range(scene.frame_start, scene.frame_start + 120):
        scene.frame_set(frame)
        depsgraph = bpy.context.evaluated_depsgraph_get()
        ta, qa = _gltf_frame(a.evaluated_get(depsgraph).matrix_world @ local_a)
        tb, qb = _gltf_frame(b.evaluated_get(depsgraph).matrix_world @ local_b)
        cone.append(float(limits.limit_metric(ta, qa, tb, qb, angular_axes=(1, 2))[0]))
        turn.append(float(limits.limit_metric(ta, qa, tb, qb, angular_axes=(0,))[0]))
    assert max(cone) > 0.5 * swing  # it did swing (the test measures something)
    assert max(cone) <= swing + 0.05, f"cone {max(cone):.3f} rad beyond {swing}"
    assert np.max(np.abs(turn)) <= twist + 0.05
    assert math.isfinite(sum(cone))
    print(f"cone-twist over 120 frames: max swing {max(cone):.4f} rad, max |twist| {np.max(np.abs(turn)):.4f} rad")
