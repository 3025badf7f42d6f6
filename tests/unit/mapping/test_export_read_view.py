"""io.exporter.context.ReadView: the export's read-only view of an object's stored values reads every property as
``stored_values.read`` does (stored value or default, a broken value as the default), sub-groups and rows as the
``StoredView`` of the same text does, the property group's own properties from the object, and never writes."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from testkit import submodule

context = submodule("io.exporter.context")
stored_values = submodule("io.mapping.stored_values")

TEXT = (
    '{"role":"NODE","node_index":7,"motion":{"has_motion":true,"mass":2.5,"linear_velocity":[0,1,0],'
    '"gravity_factor":"broken"},"collider":{"has_collider":true,"geometry":{"kind":"SHAPE","shape_index":3}},'
    '"joint":{"role":"JOINT","is_node":true,"limits":[{"kind":"ANGULAR","min":-1.0},{}]},"layout":1}'
)


def _every_property(view, reference, path=()) -> None:
    """``view`` reads every property of every group under ``path`` as ``reference`` (a ``StoredView``) does."""
    for sub, fields in stored_values.FIELDS.items():
        if sub[: len(path)] != path:
            continue
        v, r = view, reference
        for key in sub[len(path) :]:
            v, r = getattr(v, key), getattr(r, key)
        for name in fields:
            assert getattr(v, name) == getattr(r, name), (sub, name)
            assert type(getattr(v, name)) is type(getattr(r, name)), (sub, name)


def test_every_property_reads_as_the_stored_view_of_the_same_text():
    values = stored_values.parse(TEXT)
    view = context.read_view(values)
    _every_property(view, stored_values.StoredView(values))
    assert view.motion.mass == 2.5 and view.motion.linear_velocity == (0.0, 1.0, 0.0)
    assert view.motion.gravity_factor == 1.0  # a value a script broke reads as the default
    assert view.trigger.has_trigger is False and view.collider.material.static_friction == 0.6  # defaults


def test_an_empty_text_reads_the_defaults():
    view = context.read_view(stored_values.parse(""))
    _every_property(view, stored_values.StoredView({}))
    assert not context.has_stored(view) and context.joint_role(view) == "NONE" and not context.is_helper_joint(view)


def test_the_per_object_questions_read_the_values():
    view = context.read_view(stored_values.parse(TEXT))
    assert context.has_stored(view) and context.joint_role(view) == "JOINT"
    assert not context.is_helper_joint(view)  # the joint node itself carries its constraint
    helper = context.read_view({"joint": {"role": "MOTOR"}, "layout": 1})
    assert context.is_helper_joint(helper) and not context.has_stored(helper)
    assert context.has_stored(context.read_view({"trigger": {"has_trigger": True}}))


def test_rows_and_the_property_groups_own_properties():
    pg = SimpleNamespace(gltf_parent="parent object", joint=SimpleNamespace(node_a="frame A object"))
    view = context.read_view(stored_values.parse(TEXT), (), pg)
    limits = view.joint.limits
    assert len(limits) == 2 and limits[0].kind == "ANGULAR" and limits[0].min == -1.0 and limits[1].kind == "LINEAR"
    assert view.joint.rows_text("limits") == '[{"kind":"ANGULAR","min":-1.0},{}]'
    assert view.gltf_parent == "parent object" and view.joint.node_a == "frame A object"
    with pytest.raises(AttributeError):
        _ = context.read_view({}).gltf_parent  # no property group to ask


def test_a_view_never_writes():
    view = context.read_view(stored_values.parse(TEXT))
    with pytest.raises(AttributeError):
        view.role = "PROXY"
    with pytest.raises(AttributeError):
        view.motion.mass = 1.0
    assert view.role == "NODE" and view.motion.mass == 2.5
