"""Joint limits Blender cannot reproduce (``io/mapping/not_reproducible``)."""

from __future__ import annotations

from testkit import submodule

nr = submodule("io.mapping.not_reproducible")
model = submodule("io.gltf.model")


def _reasons(*limits) -> list[tuple[int, str]]:
    return nr.joint_limits(model.JointDescription(limits=list(limits)))


def test_distance_and_cone_limits_with_a_range():
    found = _reasons(
        model.JointLimit(linear_axes=(0, 1, 2), min=0.0, max=1.0),
        model.JointLimit(angular_axes=(1, 2), max=0.5),
        model.JointLimit(angular_axes=(0, 1, 2), max=0.5),
    )
    assert [n for n, _ in found] == [0, 1, 2]
    assert "3-axis distance limit" in found[0][1] and "cone" in found[1][1] and "total-angle" in found[2][1]


def test_exact_limits_are_not_reported():
    assert (
        _reasons(
            model.JointLimit(linear_axes=(0, 1, 2), min=0.0, max=0.0),  # a locked point: exact
            model.JointLimit(angular_axes=(0,), min=-1.0, max=1.0),  # one axis with a range: exact
            model.JointLimit(angular_axes=(1, 2), min=0.0, max=0.0),
            model.JointLimit(linear_axes=(0, 1)),  # no bounds: nothing to hold
        )
        == []
    )


def test_soft_limits_beyond_a_range():
    found = _reasons(
        model.JointLimit(linear_axes=(0,), min=-1.0, max=1.0, stiffness=10.0),
        model.JointLimit(linear_axes=(1,), min=0.0, max=0.0, stiffness=10.0),  # spring to the rest pose: not here
    )
    assert found == [(0, "a soft limit with a range (Blender's spring pulls toward the rest pose, not beyond it)")]
