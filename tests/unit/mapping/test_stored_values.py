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
    class Joint:
        node_a = "object A"

    class Group:
        gltf_parent = "the parent object"
        joint = Joint()

    view = sv.StoredView({}, (), Group())
    assert view.gltf_parent == "the parent object"
    assert view.joint.node_a == "object A"  # a pointer of a stored group: the property group's own
    assert view.joint.role == "NONE"  # a stored value of the same group: the text's


def test_rows_are_lists_of_row_objects_in_the_text():
    values: dict = {}
    view = sv.StoredView(values, (), None, writable=True)
    assert len(view.joint.limits) == 0 and list(view.joint.drives) == []
    rows = sv.written_rows(
        ("joint", "limits"), [{"kind": "ANGULAR", "axes": (True, False, True), "has_min": True, "min": -1}, {}]
    )
    view.joint.add_rows("limits", rows)
    view.joint.add_rows("drives", [])
    view.joint.limits[1].max = 2.5
    text = sv.dumps(values)
    stored = json.loads(text)["joint"]["limits"]
    assert stored == [{"kind": "ANGULAR", "axes": [True, False, True], "has_min": True, "min": -1.0}, {"max": 2.5}]
    read = sv.StoredView(sv.parse(text))
    assert [row.kind for row in read.joint.limits] == ["ANGULAR", "LINEAR"]  # absent keys: the defaults
    assert read.joint.limits[0].axes == (True, False, True) and type(read.joint.limits[0].axes[0]) is bool
    assert read.joint.limits[-1].max == 2.5 and read.joint.limits[1].damping == 0.0
    with pytest.raises(IndexError):
        read.joint.limits[2]
    with pytest.raises(AttributeError):
        read.joint.limits[0].min = 0.0  # read-only view
    with pytest.raises(AttributeError):
        read.joint.limits[0].no_such_value  # noqa: B018


def test_written_rows_shared_by_two_objects_are_copied_into_each():
    rows = sv.written_rows(("joint", "drives"), [{"axis": 2, "has_velocity_target": True, "velocity_target": 1}])
    assert rows == [{"axis": 2, "has_velocity_target": True, "velocity_target": 1.0}]  # as the text stores them
    first, second = {}, {}
    for values in (first, second):
        sv.StoredView(values, (), None, writable=True).joint.add_rows("drives", rows)
    sv.StoredView(first, (), None, writable=True).joint.drives[0].velocity_target = 5.0
    assert sv.StoredView(second).joint.drives[0].velocity_target == 1.0  # the other object's row is its own
    assert rows[0]["velocity_target"] == 1.0


def test_a_row_written_past_the_end_pads_with_default_rows_and_removal_keeps_the_order():
    values: dict = {}
    sv.write_row(values, ("joint", "drives"), 2, {"velocity_target": 3.0})
    assert sv.rows_of(values, ("joint", "drives")) == [{}, {}, {"velocity_target": 3.0}]
    assert sv.read_row(values, ("joint", "drives"), 1, "type") == "angular"
    assert sv.read_row(values, ("joint", "drives"), 7, "type") == "angular"  # a row the text does not hold
    sv.remove_row(values, ("joint", "drives"), 0)
    assert sv.read_row(values, ("joint", "drives"), 1, "velocity_target") == 3.0
    sv.remove_row(values, ("joint", "drives"), 5)  # nothing to remove
    sv.remove_row(values, ("joint", "drives"), 0)
    sv.remove_row(values, ("joint", "drives"), 0)
    assert sv.dumps(values) == ""  # an empty list is left out like an empty group


def test_match_rows_makes_each_collection_as_long_as_its_stored_list():
    class Collection(list):
        def add(self):
            self.append(object())

        def remove(self, index):
            del self[index]

    class Joint:
        limits, drives = Collection(), Collection([object()] * 3)

    class Group:
        joint = Joint()

    values = {"joint": {"limits": [{}, {"max": 1.0}]}}
    sv.match_rows(Group(), values)
    assert (len(Joint.limits), len(Joint.drives)) == (2, 0)


def test_a_broken_row_reads_as_defaults():
    text = json.dumps({"layout": sv.LAYOUT, "joint": {"limits": [7, {"min": "x"}], "drives": "no list"}})
    view = sv.StoredView(sv.parse(text))
    assert len(view.joint.limits) == 2 and view.joint.limits[0].min == 0.0 and view.joint.limits[1].min == 0.0
    assert len(view.joint.drives) == 0
