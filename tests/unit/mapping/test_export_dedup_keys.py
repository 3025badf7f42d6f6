"""io.exporter.context._key: the de-duplication key of shapes, materials, filters and joints (issue 14: a tuple,
no ``repr`` of the whole object) merges exactly the values that are written alike."""

from __future__ import annotations

import math

from testkit import submodule

context = submodule("io.exporter.context")
model = submodule("io.gltf.model")


def test_equal_values_share_a_key_and_source_is_ignored():
    a = model.Shape(type="box", params=model.BoxShape(size=(1.0, 2.0, 3.0)), source="2026")
    b = model.Shape(type="box", params=model.BoxShape(size=(1.0, 2.0, 3.0)), source="omi")
    assert context._key(a) == context._key(b)
    hash(context._key(a))


def test_values_written_differently_get_different_keys():
    def material(**kwargs):
        return context._key(model.PhysicsMaterial(**kwargs))

    assert material(restitution=0.0) != material(restitution=-0.0)
    assert material(restitution=0.0) != material(restitution=0)
    assert material(restitution=1) != material(restitution=True)
    assert material(restitution=math.nan) == material(restitution=math.nan)
    assert material(name="a") != material(name="b")
    assert material(extras={"a": 1, "b": 2}) != material(extras={"b": 2, "a": 1})  # written in this order
    assert material(extras=[1, [2]]) != material(extras=[[1], 2])
    box = model.Shape(type="box", params=model.BoxShape(size=(1.0, 2.0, 3.0)))
    sphere = model.Shape(type="box", params=model.SphereShape(radius=1.0))
    assert context._key(box) != context._key(sphere)


def test_joint_descriptions_compare_their_limits():
    def joint(*limits):
        return context._key(model.JointDescription(limits=list(limits)))

    fixed = model.JointLimit(linear_axes=(0, 1, 2), min=0.0, max=0.0)
    hinge = model.JointLimit(angular_axes=(0, 1), min=0.0, max=0.0)
    assert joint(fixed, hinge) == joint(fixed, model.JointLimit(angular_axes=(0, 1), min=0.0, max=0.0))
    assert joint(fixed, hinge) != joint(hinge, fixed)
    assert joint(fixed) != joint(fixed, hinge)


def test_exact_input_keys_tell_signed_zeros_apart():
    """context.exact_key: the memo key of the exporter's pure steps (native shapes, materials, Bullet mass values,
    joint descriptions) — equal only for inputs that give the same written values."""
    key = context.exact_key
    assert key("box", 0.5, 1.0) == key("box", 0.5, 1.0)
    assert key("box", 0.0, 1.0) == key("box", 0.0, 1.0)
    assert key("box", 0.0, 1.0) != key("box", -0.0, 1.0)
    assert key("box", 0.0, -0.0) != key("box", -0.0, 0.0)
    assert key("box", 0.5, None) != key("box", None, 0.5)
    assert key("box", float("nan")) != key("box", float("nan"))  # a miss (computed again), never a wrong hit
    assert len({key("m", 1.0, 0.0), key("m", 1.0, -0.0), key("m", 1.0, 0.0)}) == 2
