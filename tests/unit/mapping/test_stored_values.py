"""The one stored value per object (io/mapping/stored_values.py): defaults, writes, the layout key, broken texts."""

from __future__ import annotations

import json

import pytest

from testkit import submodule

sv = submodule("io.mapping.stored_values")


def _view(values: dict | None = None) -> sv.StoredView:
    return sv.StoredView({} if values is None else values, (), None, writable=True)


def test_a_fresh_object_reads_every_default_and_stores_nothing():
    view = _view()
    for path, fields in sv.FIELDS.items():
        group = view
        for key in path:
            group = getattr(group, key)
        for name, default in fields.items():
            assert getattr(group, name) == default, (path, name)
    assert sv.dumps(view._values) == ""


def test_writes_keep_only_what_differs_from_the_default_and_read_back_exactly():
    values: dict = {}
    view = _view(values)
    view.motion.mass = 0.1  # a double the file gave: kept exactly (not float32)
    view.motion.linear_velocity = (1, 2.5, -3)
    view.collider.material.friction_combine = "maximum"
    view.collider.filter.has_filter = False  # the default: nothing stored
    view.role = "NODE"
    text = sv.dumps(values)
    data = json.loads(text)
    assert data == {
        "layout": sv.LAYOUT,
        "role": "NODE",
        "motion": {"mass": 0.1, "linear_velocity": [1.0, 2.5, -3.0]},
        "collider": {"material": {"friction_combine": "maximum"}},
    }
    back = sv.StoredView(sv.parse(text))
    assert back.motion.mass == 0.1
    assert back.motion.linear_velocity == (1.0, 2.5, -3.0)
    assert back.collider.material.friction_combine == "maximum"
    assert back.trigger.geometry.kind == "NONE"
    view.motion.mass = 1.0  # back to the default: the key goes
    assert "mass" not in values["motion"]


def test_the_text_is_ascii_whatever_the_names():
    values: dict = {}
    _view(values).collider.material.name = "caf\u00e9 \ud800"
    text = sv.dumps(values)
    assert text.isascii()
    assert sv.StoredView(sv.parse(text)).collider.material.name == "caf\u00e9 \ud800"


@pytest.mark.parametrize(
    "text",
    ["not json", "[1, 2]", '{"motion": {"mass": 3}}', '{"layout": 99, "motion": {"mass": 3}}', "[" * 100_000],
)
def test_a_broken_or_foreign_text_reads_as_nothing_stored(text):
    assert sv.parse(text) == {}
    assert not sv.readable(text)
    assert sv.StoredView(sv.parse(text)).motion.mass == 1.0


def test_values_of_a_wrong_type_read_as_the_default():
    text = json.dumps({"layout": sv.LAYOUT, "motion": {"mass": "heavy", "linear_velocity": [1, 2], "has_motion": 1}})
    view = sv.StoredView(sv.parse(text))
    assert view.motion.mass == 1.0
    assert view.motion.linear_velocity == (0.0, 0.0, 0.0)
    assert view.motion.has_motion is False


def test_a_read_only_view_refuses_writes_and_names_not_stored_fail():
    view = sv.StoredView(sv.parse(""))
    with pytest.raises(AttributeError):
        view.motion.mass = 2.0
    with pytest.raises(AttributeError):
        view.motion.no_such_value  # noqa: B018


def test_names_not_stored_are_read_from_the_property_group():
    class Group:
        joint = "the joint group"

    view = sv.StoredView({}, (), Group())
    assert view.joint == "the joint group"
