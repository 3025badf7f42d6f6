"""The other add-on's settings (ID properties) → values (io/mapping/adopt_extra_props.py, bpy-free)."""

from __future__ import annotations

import math

import pytest
from numpy.testing import assert_allclose

from mathkit import rodrigues
from testkit import submodule

ax = submodule("io.mapping.adopt_extra_props")
quat = submodule("io.gltf.transforms")


def test_defaults_fill_what_was_never_set():
    s, bad = ax.body_settings({})
    assert bad == []
    assert s["gravity_factor"] == 1.0 and s["inertia_major_axis"] == (1.0, 1.0, 1.0)
    assert s["friction_combine"] == "average" and ax.combine_for_file("average") is None
    assert s["cone_capsule_height"] == 1.0 and not s["is_trigger"]


@pytest.mark.parametrize(("stored", "name"), [(0, "average"), (1, "minimum"), (2, "maximum"), (3, "multiply")])
def test_combine_enums_read_from_their_index_or_identifier(stored, name):
    assert ax.body_settings({"friction_combine": stored})[0]["friction_combine"] == name
    assert ax.body_settings({"restitution_combine": name.upper()})[0]["restitution_combine"] == name


def test_unreadable_values_fall_back_to_defaults_and_are_named():
    s, bad = ax.body_settings({"gravity_factor": "heavy", "friction_combine": 9, "linear_velocity": [1.0, 2.0]})
    assert s["gravity_factor"] == 1.0 and s["friction_combine"] == "average"
    assert s["linear_velocity"] == (0.0, 0.0, 0.0)
    assert sorted(bad) == ["friction_combine", "gravity_factor", "linear_velocity"]


@pytest.mark.parametrize("euler", [(0.3, 0.0, 0.0), (0.0, -0.7, 0.0), (0.2, 0.5, -1.1), (1.0, 2.0, 3.0)])
def test_euler_xyz_quaternion_is_rz_ry_rx(euler):
    w, x, y, z = ax.euler_xyz_to_quat(euler)
    expected = rodrigues((0, 0, 1), euler[2]) @ rodrigues((0, 1, 0), euler[1]) @ rodrigues((1, 0, 0), euler[0])
    assert_allclose(quat.quat_to_matrix((x, y, z, w)), expected, atol=1e-12)
    assert math.isclose(w * w + x * x + y * y + z * z, 1.0)


def test_shape_override_only_for_capsule_cylinder_cone():
    s, _ = ax.body_settings({"cone_capsule_override": True, "cone_capsule_height": 2.0, "cone_capsule_radius_top": 0.1})
    capsule = ax.override_shape(s, "CAPSULE")
    assert capsule.type == "capsule"
    assert (capsule.params.height, capsule.params.radius_top, capsule.params.radius_bottom) == (2.0, 0.1, 1.0)
    assert ax.override_shape(s, "CONE").type == "cylinder"
    assert ax.override_shape(s, "BOX") is None
    assert ax.override_shape(ax.body_settings({})[0], "CAPSULE") is None


def test_drives_in_empty_axes_with_max_force_only_when_limited():
    stored = {
        "use_ang_drive_z": True,
        "ang_z_drive_mode": 1,
        "ang_z_drive_pos_target": 0.5,
        "ang_z_drive_stiffness": 10.0,
        "ang_z_drive_damping": 2.0,
        "ang_z_drive_force_limited": True,
        "ang_z_drive_max_force": 50.0,
        "use_lin_drive_y": True,
        "lin_y_drive_vel_target": 0.7,
        "lin_y_drive_max_force": 9.0,  # set but not force-limited: not written
        "use_lin_drive_x": False,
        "lin_x_drive_vel_target": 3.0,
    }
    drives, bad = ax.drives(stored)
    assert bad == []
    lin, ang = drives
    assert (lin.type, lin.mode, lin.axis, lin.velocity_target, lin.position_target) == ("linear", "force", 1, 0.7, 0.0)
    assert lin.max_force is None
    assert (ang.type, ang.mode, ang.axis, ang.position_target) == ("angular", "acceleration", 2, 0.5)
    assert (ang.max_force, ang.stiffness, ang.damping, ang.velocity_target) == (50.0, 10.0, 2.0, 0.0)


def test_filter_systems_name_each_collision_collection():
    flags = [True, False, True] + [False] * 17
    assert ax.filter_systems(flags) == ["System_0", "System_2"]
