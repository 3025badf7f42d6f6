"""Conformance joints (glTF_Physics/tests/RigidBodies_Joint_00…10) field by field in Blender's frame."""

from __future__ import annotations

import math

import bpy
import pytest
from mathutils import Vector

from joint_helpers import axis, constraints, import_gltf
from testkit import CORPUS, corpus_files, corpus_id

S = math.sqrt(0.5)
# file → (type, Empty location (Blender), (local axis index, world direction) of the hinge/slider axis)
EXPECTED = {
    "00": ("FIXED", (0, 0, -0.5), None),
    "01": ("POINT", (0.5, -0.5, -0.5), None),
    "02": ("HINGE", (0.5, -0.5, -0.5), (2, (1, 0, 0))),  # hinge free about glTF X = Blender X
    "03": ("HINGE", (0.5, -0.5, -0.5), (2, (0, -1, 0))),  # frame A's Y, turned 90° about X = glTF Z = Blender −Y
    "04": ("HINGE", (0.5, -0.5, -0.5), (2, (0, -1, 0))),  # glTF Z = Blender −Y
    "05": ("SLIDER", (0, 0, 0), (0, (-S, 0, S))),  # frame A's Y turned 45° about glTF Z
    "06": ("SLIDER", (0, 0, 0), (0, (-S, 0, S))),
    "07": ("GENERIC", (0, 0, -0.5), (1, (0, 0, 1))),  # Empty axes = glTF axes: local Y = glTF Y = Blender Z
    "08": ("HINGE", (0, 0, 0), (2, (1, 0, 0))),
    "09": ("HINGE", (0, 0, 0), (2, (1, 0, 0))),
    "10": ("GENERIC_SPRING", (0, 0, 0), (1, (0, 0, 1))),
}
JOINT_FILES = corpus_files("glTF_Physics/tests/RigidBodies_Joint/*.gltf", sample=False)


@pytest.mark.corpus
@pytest.mark.parametrize("path", JOINT_FILES, ids=corpus_id)
def test_conformance_joint(clean, path):
    report = import_gltf(clean, path)
    case = path.stem[-2:]
    kind, location, special = EXPECTED[case]
    (empty,) = constraints("JOINT")
    c = empty.rigid_body_constraint
    assert c.type == kind
    assert empty.name in bpy.context.scene.rigidbody_world.constraints.objects
    assert c.object1.rigid_body.type == "PASSIVE" and c.object2.rigid_body.type == "ACTIVE"
    # a body re-originated for its centre of mass (08, import_reproduce) is simulated by its carrier helper
    body2 = c.object2.gltf_physics.joint.node_b if c.object2.gltf_physics.joint.role == "REPRODUCTION" else c.object2
    assert c.object1.gltf_physics.node_index == 0 and body2.gltf_physics.node_index == 3
    assert c.disable_collisions == (case != "06")
    assert tuple(empty.matrix_world.translation) == pytest.approx(location, abs=1e-5)
    if special is not None:
        index, direction = special
        assert tuple(axis(empty, index)) == pytest.approx(direction, abs=1e-5)
    pj = empty.gltf_physics.joint
    assert pj.node_a is not None and pj.node_b is not None and pj.node_a != pj.node_b
    assert pj.enable_collision == (case == "06")
    assert [(li.kind, tuple(li.axes)) for li in pj.limits]  # exact limits kept for export
    assert report.counts["joints"] == 1


@pytest.mark.corpus
@pytest.mark.parametrize("case", ["05", "10"])
def test_slider_range_is_shifted_to_the_load_pose(clean, case):
    import_gltf(clean, CORPUS / f"glTF_Physics/tests/RigidBodies_Joint/RigidBodies_Joint_{case}.gltf")
    c = constraints("JOINT")[0].rigid_body_constraint
    # glTF Y in [-2, 2]; frame B starts 2 m along frame A's Y: Blender's rest pose is y = 2, so [-4, 0]
    lin = "x" if case == "05" else "y"
    assert getattr(c, f"use_limit_lin_{lin}")
    assert (getattr(c, f"limit_lin_{lin}_lower"), getattr(c, f"limit_lin_{lin}_upper")) == pytest.approx(
        (-4.0, 0.0), abs=1e-5
    )
    if case == "10":  # positionTarget 2 = the load pose: a spring along glTF Y (stiffness 100, damping 1)
        assert c.spring_type == "SPRING2" and c.use_spring_y and not c.use_spring_x
        assert (c.spring_stiffness_y, c.spring_damping_y) == pytest.approx((100.0, 1.0))
        assert all(getattr(c, f"use_limit_ang_{a}") for a in "xyz")
        drive = constraints("JOINT")[0].gltf_physics.joint.drives[0]
        assert (drive.type, drive.mode, drive.axis, drive.position_target, drive.stiffness) == (
            "linear",
            "acceleration",
            1,
            2.0,
            100.0,
        )


@pytest.mark.corpus
def test_stiff_spring_distance_limit_is_a_reported_box(clean):
    report = import_gltf(clean, CORPUS / "glTF_Physics/tests/RigidBodies_Joint/RigidBodies_Joint_07.gltf")
    c = constraints("JOINT")[0].rigid_body_constraint
    ranges = [(getattr(c, f"limit_lin_{a}_lower"), getattr(c, f"limit_lin_{a}_upper")) for a in "xyz"]
    assert ranges == [pytest.approx(r) for r in [(-1.5, 0.5), (-1.0, 1.0), (-1.5, 0.5)]]
    assert not any(getattr(c, f"use_limit_ang_{a}") for a in "xyz")
    assert any("distance limit" in d.message for d in report.diagnostics)
    limit = constraints("JOINT")[0].gltf_physics.joint.limits[0]
    assert (limit.kind, tuple(limit.axes), limit.has_min, limit.min, limit.max) == (
        "LINEAR",
        (True, True, True),
        True,
        0.0,
        1.0,
    )


@pytest.mark.corpus
def test_angular_drive_becomes_a_motor_about_the_hinge_axis(clean):
    import_gltf(clean, CORPUS / "glTF_Physics/tests/RigidBodies_Joint/RigidBodies_Joint_09.gltf")
    (motor,) = constraints("MOTOR")
    m = motor.rigid_body_constraint
    assert m.type == "MOTOR" and m.use_motor_ang and not m.use_motor_lin
    assert m.motor_ang_target_velocity == pytest.approx(-1.5707964)  # MOTOR turns object2 about −X
    assert tuple(axis(motor, 0)) == pytest.approx((1, 0, 0), abs=1e-6)
    hinge = constraints("JOINT")[0].rigid_body_constraint
    assert (m.object1, m.object2) == (hinge.object1, hinge.object2)
    assert Vector(axis(constraints("JOINT")[0], 2)).dot(axis(motor, 0)) == pytest.approx(1.0)
