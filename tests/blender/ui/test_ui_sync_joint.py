"""Joint limits and drives edited in glTF terms re-plan the Blender constraint with the importer's mapping (issue 13,
item 1), and the next export writes the edited description (not the constraint: the edit is not a Blender edit)."""

from __future__ import annotations

import bpy
import numpy as np
import pytest
from mathutils import Matrix, Vector

from blenderkit import submodule
from export_helpers import export, last_export
from joint_helpers import constraints, file_frame, import_gltf
from scene_helpers import rigid_body_world, rigid_box
from testkit import fixture
from ui_helpers import draw_panel

KHR = "KHR_physics_rigid_bodies"


def _descriptions(gltf: dict) -> list[dict]:
    return gltf["extensions"][KHR]["physicsJoints"]


def _edited(addon) -> list[str]:
    return [d.message for d in last_export(addon).diagnostics if d.code == "GLTF_PHYSICS_EXPORT_EDITED"]


def _limit(description: dict, key: str, axes: list[int]) -> dict:
    return next(limit for limit in description["limits"] if sorted(limit.get(key, [])) == axes)


def test_limit_edit_moves_the_hinge_range_and_exports_it(clean, tmp_path):
    import_gltf(clean, fixture("joints/hinge_x_limited.gltf"))
    (empty,) = constraints("JOINT")
    c = empty.rigid_body_constraint
    free = next(limit for limit in empty.gltf_physics.joint.limits if limit.kind == "ANGULAR" and limit.axes[0])
    free.max = 0.6
    assert c.type == "HINGE"
    assert (c.limit_ang_z_lower, c.limit_ang_z_upper) == pytest.approx((-0.6, 0.2))  # Blender [-max, -min]
    free.has_min = False  # a half-open range: Blender's lower side opens to -π... upper to +π
    assert c.limit_ang_z_upper == pytest.approx(np.pi)
    (description,) = _descriptions(export(tmp_path / "hinge.gltf", "2026"))
    edited = _limit(description, "angularAxes", [0])
    assert edited["max"] == pytest.approx(0.6) and "min" not in edited
    assert not _edited(clean)


def test_changing_the_hinge_axis_turns_the_empty_and_keeps_the_export_stored(clean, tmp_path):
    path = fixture("joints/hinge_x_limited.gltf")
    import_gltf(clean, path)
    (empty,) = constraints("JOINT")
    pj = empty.gltf_physics.joint
    frame_a = Matrix(file_frame(path, 1).tolist()).to_3x3().normalized()  # the joint node (its Empty turns)
    locked = next(limit for limit in pj.limits if limit.kind == "ANGULAR" and limit.axes[1] and limit.axes[2])
    free = next(limit for limit in pj.limits if limit.kind == "ANGULAR" and limit.axes[0])
    locked.axes = (True, True, False)  # lock X and Y …
    free.axes = (False, False, True)  # … and hinge about glTF Z (Blender −Y of frame A)
    c = empty.rigid_body_constraint
    assert c.type == "HINGE"
    hinge = empty.matrix_world.to_3x3().col[2].normalized()  # Blender's hinge turns about the Empty's Z
    assert abs(hinge.dot(frame_a @ Vector((0.0, 0.0, 1.0)))) == pytest.approx(1.0)  # glTF Z of frame A
    (description,) = _descriptions(export(tmp_path / "axis.gltf", "2026"))
    assert _limit(description, "angularAxes", [2])["max"] == pytest.approx(0.4)
    assert not _edited(clean)


def test_drive_edits_update_the_motor_helpers(clean, tmp_path):
    import_gltf(clean, fixture("joints/motor_y.gltf"))
    (empty,) = constraints("JOINT")
    pj = empty.gltf_physics.joint
    pj.joint_name = "Renamed"  # the helpers are found by bodies and frame, not by name
    pj.drives[0].velocity_target = 2.5
    (motor,) = constraints("MOTOR")
    assert motor.rigid_body_constraint.motor_ang_target_velocity == pytest.approx(-2.5)  # MOTOR: negated
    with bpy.context.temp_override(object=empty, active_object=empty):
        assert bpy.ops.gltf_physics.add_joint_item(kind="DRIVE") == {"FINISHED"}
    second = pj.drives[1]
    second.type, second.axis = "linear", 0
    second.has_velocity_target, second.velocity_target, second.damping = True, 0.5, 3.0
    motors = constraints("MOTOR")
    assert len(motors) == 2
    assert motors[1].rigid_body_constraint.use_motor_lin
    assert motors[1].rigid_body_constraint.motor_lin_target_velocity == pytest.approx(-0.5)
    (description,) = _descriptions(export(tmp_path / "drives.gltf", "2026"))
    assert [d["velocityTarget"] for d in description["drives"]] == pytest.approx([2.5, 0.5])
    assert not _edited(clean)
    pj.active_drive_index = 1
    with bpy.context.temp_override(object=empty, active_object=empty):
        assert bpy.ops.gltf_physics.remove_joint_item(kind="DRIVE") == {"FINISHED"}
    assert len(constraints("MOTOR")) == 1


def test_preset_joint_edit_and_collision_flag(clean, tmp_path):
    rbw = rigid_body_world()
    a = rigid_box(rbw, "Torso", kind="PASSIVE")
    b = rigid_box(rbw, "Arm", location=(0.0, 0.0, -1.5))
    bpy.context.scene.cursor.location = (0.0, 0.0, -0.75)
    with bpy.context.temp_override(selected_objects=[a, b], active_object=b, object=b):
        assert bpy.ops.gltf_physics.add_joint(preset="HINGE", axis="X", use_range=True) == {"FINISHED"}
    (empty,) = constraints("JOINT")
    pj, c = empty.gltf_physics.joint, empty.rigid_body_constraint
    before = np.array(empty.matrix_world)
    free = next(limit for limit in pj.limits if limit.kind == "ANGULAR" and limit.axes[0])
    free.min = -1.0
    assert c.type == "HINGE" and c.limit_ang_z_upper == pytest.approx(1.0)
    assert np.allclose(np.array(empty.matrix_world), before)  # same plan axis: the Empty did not turn
    pj.enable_collision = True
    assert not c.disable_collisions
    gltf = export(tmp_path / "preset.gltf", "2026")
    (description,) = _descriptions(gltf)
    assert _limit(description, "angularAxes", [0])["min"] == pytest.approx(-1.0)
    joints = [n["extensions"][KHR]["joint"] for n in gltf["nodes"] if "joint" in n.get("extensions", {}).get(KHR, {})]
    assert [j["enableCollision"] for j in joints] == [True]
    assert not _edited(clean)
    assert not submodule(clean, "ui.body.sync_body").ERRORS


def test_preset_hinge_axis_change_keeps_frame_a(clean, tmp_path):
    """No frame node (Add glTF Joint): the permutation is measured against body A and the stored frame A, and the
    exported attachment frame keeps frame A's pose (world-aligned) after the Empty turned."""
    rbw = rigid_body_world()
    a = rigid_box(rbw, "Torso", kind="PASSIVE")
    b = rigid_box(rbw, "Arm", location=(0.0, 0.0, -1.5))
    with bpy.context.temp_override(selected_objects=[a, b], active_object=b, object=b):
        assert bpy.ops.gltf_physics.add_joint(preset="HINGE", axis="X") == {"FINISHED"}
    (empty,) = constraints("JOINT")
    pj = empty.gltf_physics.joint
    locked = next(limit for limit in pj.limits if limit.kind == "ANGULAR")
    locked.axes = (True, True, False)  # now the hinge turns about glTF Z (Blender −Y)
    hinge = empty.matrix_world.to_3x3().col[2]
    assert abs(hinge.dot(Vector((0.0, -1.0, 0.0)))) == pytest.approx(1.0)
    gltf = export(tmp_path / "turned.gltf", "2026")
    frames = [n for n in gltf["nodes"] if n.get("name", "").endswith((".frameA", ".frameB"))]
    assert len(frames) == 2
    for node in frames:
        assert np.allclose(node.get("rotation", [0.0, 0.0, 0.0, 1.0]), [0.0, 0.0, 0.0, 1.0], atol=1e-6)
    assert not _edited(clean)


def test_joint_panel_marks_limits_and_drives(clean):
    import_gltf(clean, fixture("joints/motor_y.gltf"))
    (empty,) = constraints("JOINT")
    panel = submodule(clean, "ui.joint.panels_joint").GLTF_PHYSICS_PT_joint
    assert "simulated" in draw_panel(panel, empty).texts()  # a velocity drive → MOTOR
    drive = empty.gltf_physics.joint.drives[0]
    drive.damping, drive.stiffness = 0.0, 50.0
    drive.has_position_target, drive.position_target = True, 0.7  # away from the rest pose: not representable
    sync = submodule(clean, "ui.joint.sync_joint")
    assert sync.drive_status(empty, 0) == "stored only"
    assert not constraints("MOTOR")  # the MOTOR helper went with the velocity drive
    assert "stored only" in draw_panel(panel, empty).texts()
    limit = empty.gltf_physics.joint.limits[0]
    assert sync.limit_status(limit) == "simulated"
    limit.has_stiffness, limit.stiffness = True, 10.0  # soft, locked: a Blender spring
    assert sync.limit_status(limit) == "simulated"
    assert empty.rigid_body_constraint.type == "GENERIC_SPRING"


def test_a_min_above_max_pushes_the_other_bound(clean, tmp_path):
    """Found by a sweep of joint-panel edits: a limit's Min typed above its Max (or Max below Min) was stored and
    exported as ``min > max``, an invalid file (KHR_RIGID_BODIES_JOINT_INVALID_RANGE), while Blender's constraint
    left the axis free. The other bound follows, as Blender's own ranges do: the axis stays limited."""
    import_gltf(clean, fixture("joints/hinge_x_limited.gltf"))
    (empty,) = constraints()
    limit = next(lim for lim in empty.gltf_physics.joint.limits if lim.min == pytest.approx(-0.2))
    limit.min = 0.5
    assert (limit.min, limit.max) == pytest.approx((0.5, 0.5))
    limit.max = -0.3
    assert (limit.min, limit.max) == pytest.approx((-0.3, -0.3))
    limit.max = 0.6
    gltf = export(tmp_path / "ordered.gltf", "2026")
    validate = submodule(clean, "io.gltf.validate.document").validate_gltf
    assert not [str(d) for d in validate(gltf) if d.severity.name == "ERROR"]
    hinge = _limit(_descriptions(gltf)[0], "angularAxes", [0])
    assert (hinge["min"], hinge["max"]) == pytest.approx((-0.3, 0.6))
    assert not _edited(clean)
