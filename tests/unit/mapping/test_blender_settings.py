"""io.mapping.blender_settings: Blender-only settings ⇄ the entries kept in ``extras`` (bpy-free)."""

from __future__ import annotations

import json
import math

import pytest

from testkit import submodule

bs = submodule("io.mapping.blender_settings")


def test_only_values_that_differ_from_the_import_defaults_are_written_with_7_digits():
    values = {name: setting.default for name, setting in bs.BODY.items()}
    assert bs.settings_entry(values, bs.BODY) == {}
    values.update(linear_damping=0.04, use_deactivation=True, mesh_source="FINAL")
    values["collision_margin"] = 0.03999999910593033  # Blender's float32 0.04: the default, not written
    assert bs.settings_entry(values, bs.BODY) == {
        "linear_damping": 0.04,
        "use_deactivation": True,
        "mesh_source": "FINAL",
    }
    world = {"gravity": (0.0, 0.0, -9.8100004196167), "time_scale": 0.5}
    assert bs.settings_entry(world, bs.WORLD) == {"time_scale": 0.5}
    assert bs.settings_entry({"gravity": (0.0, 1.0, -5.0)}, bs.WORLD) == {"gravity": [0.0, 1.0, -5.0]}


def test_entries_go_into_extras_next_to_other_keys_and_leave_when_empty():
    assert bs.with_entry(None, bs.BODY_KEY, {}) == (None, True)
    assert bs.with_entry(None, bs.BODY_KEY, {"enabled": False}) == ({bs.BODY_KEY: {"enabled": False}}, True)
    mine = {"author": "x", bs.BODY_KEY: {"enabled": False}}
    assert bs.with_entry(mine, bs.BODY_KEY, {}) == ({"author": "x"}, True)
    assert bs.with_entry({bs.BODY_KEY: {"enabled": False}}, bs.BODY_KEY, {}) == (None, True)
    assert mine == {"author": "x", bs.BODY_KEY: {"enabled": False}}  # not changed in place
    assert bs.with_entry("a note", bs.BODY_KEY, {"enabled": False}) == ("a note", False)  # cannot hold it
    assert bs.with_entry("a note", bs.BODY_KEY, {}) == ("a note", True)


def test_written_entries_read_back_to_the_same_values():
    values = {
        "linear_damping": 0.25,
        "use_margin": True,
        "collision_margin": 0.125,
        "mesh_source": "BASE",
        "enabled": False,
    }
    entry = json.loads(json.dumps(bs.settings_entry(values, bs.BODY)))
    assert bs.read_settings(entry, bs.BODY, "/p") == (values, [])
    world = {"gravity": (1.0, 2.0, -3.0), "substeps_per_frame": 20, "use_split_impulse": True}
    entry = json.loads(json.dumps(bs.settings_entry(world, bs.WORLD)))
    assert bs.read_settings(entry, bs.WORLD, "/w") == (world, [])
    assert bs.read_settings({"solver_iterations": 20.0}, bs.CONSTRAINT, "/c") == ({"solver_iterations": 20}, [])


@pytest.mark.parametrize(
    "entry, name",
    [
        ({"linear_damping": "much"}, "linear_damping"),
        ({"linear_damping": -1}, "linear_damping"),
        ({"linear_damping": math.inf}, "linear_damping"),
        ({"linear_damping": True}, "linear_damping"),
        ({"use_margin": 1}, "use_margin"),
        ({"mesh_source": "ALL"}, "mesh_source"),
        ({"warp/drive": 1}, "warp~1drive"),
    ],
)
def test_bad_values_are_reported_at_their_pointer_and_left_out(entry, name):
    values, problems = bs.read_settings(entry, bs.BODY, "/nodes/0/extras/blender_rigid_body")
    assert values == {}
    ((ptr, message),) = problems
    assert ptr == f"/nodes/0/extras/blender_rigid_body/{name}" and message


@pytest.mark.parametrize("entry", [[1, 2], "text", 3, None])
def test_an_entry_that_is_not_an_object_is_one_problem(entry):
    values, problems = bs.read_settings(entry, bs.WORLD, "/w")
    assert values == {} and [p for p, _ in problems] == ["/w"]


def test_world_vectors_and_integers_are_checked():
    values, problems = bs.read_settings(
        {"gravity": [0, 0], "substeps_per_frame": 2.5, "solver_iterations": 0, "time_scale": 2}, bs.WORLD, "/w"
    )
    assert values == {"time_scale": 2.0}
    assert sorted(p for p, _ in problems) == ["/w/gravity", "/w/solver_iterations", "/w/substeps_per_frame"]
