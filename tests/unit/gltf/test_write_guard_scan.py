"""io.gltf.write.common.guard_numbers skips objects its quick scan (``_storable``) passes (issue 14: no pointers
built for values that are fine); it must remove exactly what the full walk (``_guard``) removes, with the same
warnings, for every kind of value."""

from __future__ import annotations

import copy
import math

import numpy as np
import pytest

from testkit import submodule

common = submodule("io.gltf.write.common")
diagnostics = submodule("io.diagnostics")

BIG = 3.5e38  # above the float32 range, finite
VALUES = [
    1.0,
    -0.0,
    3.4028234663852886e38,
    -3.4028234663852886e38,
    BIG,
    -BIG,
    math.nan,
    math.inf,
    10**400,
    2**200,
    True,
    None,
    "x",
    np.float64(BIG),
    np.float64(1.0),
    np.float32(2.0),
    (BIG,),
    [BIG],
    [[BIG]],
    [{"a": BIG}],
    {"extras": {"v": BIG}},
    {"extras": {"v": math.nan}},
]


def _full_walk(out):
    """What guard_numbers did before the quick scan: ``_guard`` on everything."""
    for name, ext in out.root.items():
        common._guard(ext, diagnostics.pointer("extensions", name), out.diags)
    for index, exts in out.nodes.items():
        for name, ext in exts.items():
            common._guard(ext, common.node_ptr(index, name), out.diags)
    for offset, node in enumerate(out.new_nodes):
        common._guard(node, diagnostics.pointer("nodes", out.node_base + offset), out.diags)


@pytest.mark.parametrize("value", VALUES, ids=repr)
@pytest.mark.parametrize("where", ["root", "node", "new_node", "extras"])
def test_quick_scan_removes_what_the_full_walk_removes(value, where):
    out = common.WriteOutput(node_base=3)
    body = {"motion": {"mass": 1.0, "v": value, "list": [1.0, value]}, "ok": [1, 2.5]}
    if where == "extras":
        body = {"extras": copy.deepcopy(body)}
    if where == "root":
        out.root["KHR_physics_rigid_bodies"] = body
    elif where == "new_node":
        out.new_nodes.append({"name": "n", "extensions": body})
    else:
        out.nodes[2] = {"KHR_physics_rigid_bodies": body}
    expected = copy.deepcopy(out)
    _full_walk(expected)
    common.guard_numbers(out)
    assert repr(out.root) == repr(expected.root)
    assert repr(out.nodes) == repr(expected.nodes)
    assert repr(out.new_nodes) == repr(expected.new_nodes)
    assert [(d.code, d.pointer, d.message) for d in out.diagnostics] == [
        (d.code, d.pointer, d.message) for d in expected.diagnostics
    ]


def test_clean_output_is_left_alone():
    out = common.WriteOutput(node_base=0)
    out.nodes[0] = {"KHR_physics_rigid_bodies": {"motion": {"mass": 2.0, "centerOfMass": [0.0, 1.0, 2.0]}}}
    before = copy.deepcopy(out.nodes)
    common.guard_numbers(out)
    assert out.nodes == before and not out.diagnostics


def test_numbers_beyond_float32_are_written_clamped():
    """A finite number beyond the float32 range is written as ±FLOAT32_MAX (before: the key was removed, so a
    sphere of radius 1e308 lost its radius and a box one huge size its whole ``size``); NaN and ±inf have no nearest
    value and still go, a list holding one with them; ``extras`` keep big finite numbers as they are."""
    top = common.FLOAT32_MAX
    out = common.WriteOutput(node_base=0)
    out.root["KHR_implicit_shapes"] = {
        "shapes": [
            {"type": "sphere", "sphere": {"radius": 1e308}},
            {"type": "box", "box": {"size": [1e39, 1.0, -(10**400)]}},
            {"type": "box", "box": {"size": [1e39, math.nan, 1.0]}},
            {"type": "sphere", "sphere": {"radius": math.inf}, "extras": {"big": 1e300, "nan": math.nan}},
        ]
    }
    common.guard_numbers(out)
    shapes = out.root["KHR_implicit_shapes"]["shapes"]
    assert shapes[0]["sphere"] == {"radius": top}
    assert shapes[1]["box"] == {"size": [top, 1.0, -top]}
    assert shapes[2]["box"] == {}
    assert shapes[3]["sphere"] == {} and shapes[3]["extras"] == {"big": 1e300}
    lossy = {d.pointer: d.message for d in out.diagnostics if d.code == common.LOSSY}
    assert "written as ±3.402823e+38" in lossy["/extensions/KHR_implicit_shapes/shapes/0/sphere/radius"]
    assert "written as" in lossy["/extensions/KHR_implicit_shapes/shapes/1/box/size/0"]
    assert "not written" in lossy["/extensions/KHR_implicit_shapes/shapes/2/box/size/0"]
    assert "not written" in lossy["/extensions/KHR_implicit_shapes/shapes/3/sphere/radius"]
    assert "not written" in lossy["/extensions/KHR_implicit_shapes/shapes/3/extras/nan"]
