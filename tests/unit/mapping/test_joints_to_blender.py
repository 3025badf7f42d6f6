"""glTF joint descriptions → Blender constraint plans (types, axis permutations, limit signs, approximations)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from mathkit import NodeFrames
from testkit import corpus_files, corpus_id, read_json, submodule

jm = submodule("io.mapping.joints_to_blender")
model = submodule("io.gltf.model")
parse = submodule("io.gltf.parse")


def lim(lin=None, ang=None, lo=None, hi=None, stiffness=None):
    return model.JointLimit(
        linear_axes=tuple(lin) if lin else None,
        angular_axes=tuple(ang) if ang else None,
        min=lo,
        max=hi,
        stiffness=stiffness,
    )


def desc(*limits, drives=()):
    return model.JointDescription(limits=list(limits), drives=list(drives))


LOCK_LIN = lim(lin=(0, 1, 2), lo=0.0, hi=0.0)
LOCK_ANG = lim(ang=(0, 1, 2), lo=0.0, hi=0.0)


@pytest.mark.parametrize(
    ("description", "kind", "perm"),
    [
        (desc(LOCK_LIN, LOCK_ANG), "FIXED", (0, 1, 2)),
        (desc(LOCK_LIN), "POINT", (0, 1, 2)),
        (desc(LOCK_LIN, lim(ang=(1, 2), lo=0.0, hi=0.0)), "HINGE", (1, 2, 0)),
        (desc(LOCK_LIN, lim(ang=(0, 2), lo=0.0, hi=0.0)), "HINGE", (2, 0, 1)),
        (desc(LOCK_LIN, lim(ang=(0, 1), lo=0.0, hi=0.0)), "HINGE", (0, 1, 2)),
        (desc(lim(lin=(0, 1), lo=0.0, hi=0.0), LOCK_ANG), "SLIDER", (2, 0, 1)),
        (desc(lim(lin=(1, 2), lo=0.0, hi=0.0), lim(ang=(1, 2), lo=0.0, hi=0.0)), "PISTON", (0, 1, 2)),
        (desc(lim(lin=(0,), lo=0.0, hi=0.0), LOCK_ANG), "GENERIC", (0, 1, 2)),
    ],
)
def test_native_types_and_axis_on_the_empty(description, kind, perm):
    plan = jm.plan_joint(description)
    assert (plan.type, plan.perm) == (kind, perm)
    assert not plan.notes


def test_hinge_range_is_negated_for_blender():
    plan = jm.plan_joint(desc(LOCK_LIN, lim(ang=(1, 2), lo=0.0, hi=0.0), lim(ang=(0,), lo=-0.2, hi=0.7)))
    assert plan.type == "HINGE" and plan.perm == (1, 2, 0)
    assert plan.ang[2] == pytest.approx((-0.7, 0.2))


def test_generic_keeps_linear_signs_and_negates_angular():
    plan = jm.plan_joint(desc(lim(lin=(2,), lo=-0.5, hi=0.25), lim(ang=(1,), lo=-0.1, hi=0.3)))
    assert plan.type == "GENERIC" and plan.perm == (0, 1, 2)
    assert plan.lin == [None, None, pytest.approx((-0.5, 0.25))]
    assert plan.ang == [None, pytest.approx((-0.3, 0.1)), None]


def test_half_bounded_limits_use_far_values():
    plan = jm.plan_joint(desc(lim(lin=(0,), lo=0.0), lim(ang=(2,), hi=0.5)))
    assert plan.lin[0] == (0.0, jm.FAR)
    assert plan.ang[2] == pytest.approx((-0.5, math.pi))


def test_cone_and_distance_limits_are_reported_approximations():
    plan = jm.plan_joint(desc(lim(lin=(0, 1, 2), lo=0.0, hi=0.4), lim(ang=(0, 2), hi=0.3)))
    assert plan.type == "GENERIC"
    assert plan.lin == [pytest.approx((-0.4, 0.4))] * 3
    assert plan.ang == [pytest.approx((-0.3, 0.3)), None, pytest.approx((-0.3, 0.3))]
    assert any("distance" in n for n in plan.notes) and any("cone" in n for n in plan.notes)


def test_velocity_drive_becomes_negated_motor_on_its_axis():
    drive = model.JointDrive(type="angular", mode="force", axis=2, velocity_target=1.5, damping=2.0, max_force=7.0)
    plan = jm.plan_joint(desc(LOCK_LIN, lim(ang=(0, 1), lo=0.0, hi=0.0), drives=[drive]))
    assert plan.type == "HINGE"
    (motor,) = plan.motors
    assert (motor.kind, motor.axis, motor.perm) == ("ANGULAR", 2, (2, 0, 1))
    assert motor.target_velocity == -1.5 and motor.max_impulse == 7.0


def test_position_drive_away_from_rest_is_kept_not_simulated():
    drive = model.JointDrive(type="linear", mode="force", axis=0, position_target=1.0, stiffness=5.0)
    plan = jm.plan_joint(desc(drives=[drive]))
    assert plan.type == "GENERIC" and not plan.motors
    assert any("not representable" in n for n in plan.notes)


def test_soft_locked_limit_becomes_spring():
    plan = jm.plan_joint(desc(lim(lin=(1,), lo=0.0, hi=0.0, stiffness=30.0)))
    assert plan.type == "GENERIC_SPRING"
    assert plan.lin_springs[1] == (30.0, 0.0) and plan.lin[1] is None


def test_offset_along_the_hinge_axis_stays_exact():
    # frame B one metre along frame A's X; locked at x = 1 by the file: Blender's rest pose is that offset
    plan = jm.plan_joint(
        desc(lim(lin=(0,), lo=1.0, hi=1.0), lim(lin=(1, 2), lo=0.0, hi=0.0), lim(ang=(1, 2), lo=0.0, hi=0.0)),
        offset_t=(1.0, 0.0, 0.0),
    )
    assert plan.type == "HINGE" and not plan.notes


def test_rotated_frame_b_shifts_the_twist_limit():
    q = (0.0, math.sin(0.2), 0.0, math.cos(0.2))  # frame B turned 0.4 rad about Y
    plan = jm.plan_joint(desc(LOCK_LIN, lim(ang=(0, 2), lo=0.0, hi=0.0), lim(ang=(1,), lo=-1.0, hi=1.0)), offset_q=q)
    assert plan.type == "HINGE"
    assert plan.ang[2] == pytest.approx((-0.6, 1.4))  # glTF [-1.4, 0.6] after the shift, negated


def test_joints_sharing_a_description_and_a_memo_get_the_plans_each_gets_alone():
    shared = desc(LOCK_LIN, lim(ang=(0, 2), lo=0.0, hi=0.0), lim(ang=(1,), lo=-1.0, hi=1.0), lim(ang=(0, 1), hi=0.5))
    offsets = [
        ((0.0, 0.0, 0.0), (0.0, 0.0, 0.0, 1.0)),
        ((0.0, 0.0, 0.0), (0.0, math.sin(0.2), 0.0, math.cos(0.2))),  # turned: the twist limit shifts
        ((1.0, 0.0, 0.0), (0.0, 0.0, 0.0, 1.0)),
        ((0.0, 0.0, 0.0), (0.0, 0.0, 0.0, 1.0)),
    ]
    memo: dict = {}
    for offset_t, offset_q in offsets:
        alone = jm.plan_joint(shared, offset_t, offset_q)
        remembered = jm.plan_joint(shared, offset_t, offset_q, memo)
        assert remembered == alone  # what one plan changes (its offsets, its notes) never reaches the next
    assert len(memo) == 1


def test_frames_world_matrices_and_empty_orientation():
    nodes = [
        {"children": [1], "translation": [1, 2, 3], "rotation": [0, math.sin(math.pi / 4), 0, math.cos(math.pi / 4)]},
        {"translation": [1, 0, 0], "scale": [2, 2, 2]},
    ]
    frames = NodeFrames(nodes)
    np.testing.assert_allclose(frames.world(1)[:3, 3], [1, 2, 2], atol=1e-12)  # +90° about Y maps X to −Z
    np.testing.assert_allclose(np.linalg.det(frames.rigid(1)[:3, :3]), 1.0)
    empty = jm.empty_matrix(frames.rigid(1), (1, 2, 0))
    np.testing.assert_allclose(empty[:3, 3], [1, -2, 2], atol=1e-12)  # Blender (x, −z, y)
    # the Empty's Z axis is frame A's X axis (hinge about glTF X) converted to Blender
    np.testing.assert_allclose(
        empty[:3, 2], submodule("io.mapping.axes").AXIS_CHANGE[:3, :3] @ frames.rigid(1)[:3, 0], atol=1e-12
    )


EXPECTED = {  # RigidBodies_Joint_NN: Blender type, Empty axes, linear X range on the Empty, motors
    "00": ("FIXED", (0, 1, 2), None, []),
    "01": ("POINT", (0, 1, 2), None, []),
    "02": ("HINGE", (1, 2, 0), None, []),
    "03": ("HINGE", (2, 0, 1), None, []),
    "04": ("HINGE", (0, 1, 2), None, []),
    "05": ("SLIDER", (1, 2, 0), (-4.0, 0.0), []),
    "06": ("SLIDER", (1, 2, 0), (-4.0, 0.0), []),
    "07": ("GENERIC", (0, 1, 2), (-1.5, 0.5), []),
    "08": ("HINGE", (1, 2, 0), None, []),
    "09": ("HINGE", (1, 2, 0), None, [("ANGULAR", 0, -1.5707964)]),
    "10": ("GENERIC_SPRING", (0, 1, 2), (0.0, 0.0), []),
}


@pytest.mark.corpus
@pytest.mark.parametrize("path", corpus_files("glTF_Physics/tests/RigidBodies_Joint/*.gltf"), ids=corpus_id)
def test_conformance_joint_plans(path):
    gltf = read_json(path)
    doc = parse.parse_gltf(gltf).document
    frames = NodeFrames(gltf["nodes"])
    ((index, node),) = [(i, n) for i, n in doc.nodes.items() if n.joint]
    t, q = submodule("io.gltf.nodes").relative_offset(frames.rigid(index), frames.rigid(node.joint.connected_node))
    plan = jm.plan_joint(doc.joints[node.joint.joint], t, q)
    kind, perm, lin_x, motors = EXPECTED[path.stem[-2:]]
    assert (plan.type, plan.perm) == (kind, perm)
    if lin_x is not None:
        assert plan.lin[0] == pytest.approx(lin_x, abs=1e-6)
    assert [(m.kind, m.axis, pytest.approx(m.target_velocity)) for m in plan.motors] == motors
    if path.stem.endswith("_10"):  # positionTarget 2 = the load pose: a spring on glTF Y
        assert plan.lin_springs[1] == (100.0, 1.0) and plan.lin[1] == pytest.approx((-4.0, 0.0), abs=1e-6)
    assert bool(plan.notes) == (path.stem[-2:] in ("07", "09", "10"))


class _FreshConstraint:
    """What a new Blender constraint reads (checked on 4.2, 4.5 and 5.0): FIXED, collisions disabled, every limit and
    spring switch off; records every attribute written."""

    def __init__(self):
        self.type, self.disable_collisions, self.spring_type = "FIXED", True, "SPRING2"
        for kind in ("lin", "ang"):
            for axis in "xyz":
                setattr(self, f"use_limit_{kind}_{axis}", False)
        for infix in ("", "_ang"):
            for axis in "xyz":
                setattr(self, f"use_spring{infix}_{axis}", False)
        object.__setattr__(self, "written", [])

    def __setattr__(self, name, value):
        self.__dict__.setdefault("written", []).append(name)
        object.__setattr__(self, name, value)

    def state(self) -> dict:
        return {k: v for k, v in vars(self).items() if k != "written"}


SPRING = lim(lin=(1,), lo=0.0, hi=0.0, stiffness=30.0)


@pytest.mark.parametrize(
    "description",
    [
        desc(LOCK_LIN, LOCK_ANG),
        desc(LOCK_LIN),
        desc(LOCK_LIN, lim(ang=(0, 1), lo=0.0, hi=0.0), lim(ang=(2,), lo=-0.5)),
        desc(lim(lin=(1, 2), lo=0.0, hi=0.0), LOCK_ANG, lim(lin=(0,), lo=-1.0, hi=2.0)),
        desc(lim(lin=(0, 1), lo=0.0, hi=0.0), lim(ang=(0, 1), lo=0.0, hi=0.0), lim(lin=(2,), hi=0.3)),
        desc(lim(lin=(0,), lo=-0.1, hi=0.2), lim(ang=(2,), lo=-0.3, hi=0.4)),
        desc(SPRING, lim(ang=(0, 1, 2), lo=0.0, hi=0.0)),
    ],
)
@pytest.mark.parametrize("enable_collision", [False, True])
def test_a_fresh_constraint_ends_up_the_same_with_fewer_writes(description, enable_collision):
    """``configure_constraint(..., fresh=True)`` (the importer's new constraints) skips writing Blender's defaults:
    the constraint reads exactly as with every write."""
    plan = jm.plan_joint(description)
    full, fresh = _FreshConstraint(), _FreshConstraint()
    jm.configure_constraint(full, plan, "A", "B", enable_collision)
    jm.configure_constraint(fresh, plan, "A", "B", enable_collision, fresh=True)
    assert fresh.state() == full.state()
    assert len(fresh.written) <= len(full.written)
