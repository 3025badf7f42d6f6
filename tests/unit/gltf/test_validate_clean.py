"""The validator's shortcut for clean KHR node objects (``validate.clean``, issue 14 import item 1) reports exactly
what the full checks report: same codes, messages and pointers, in the same order, on every fixture, corpus file,
fuzz case and value at or beyond a limit."""

from __future__ import annotations

import copy
import json
import math

import fuzzkit
import pytest

from testkit import FIXTURES, corpus_files, submodule

validate = submodule("io.gltf.validate.document")
bodies = submodule("io.gltf.validate.bodies")
clean = submodule("io.gltf.validate.clean")

RB = "KHR_physics_rigid_bodies"


def _full(doc: object) -> list:
    """``validate_gltf`` with the shortcut switched off: every node object takes the full checks."""
    original = bodies.clean_khr_node
    bodies.clean_khr_node = lambda *_: False
    try:
        return validate.validate_gltf(doc)
    finally:
        bodies.clean_khr_node = original


def _same(doc: object) -> None:
    fast = [(d.severity, d.code, d.pointer, d.message) for d in validate.validate_gltf(doc)]
    assert fast == [(d.severity, d.code, d.pointer, d.message) for d in _full(doc)]


def _documents() -> list[tuple[str, object]]:
    out = []
    for path in sorted(FIXTURES.rglob("*.gltf")) + corpus_files("**/*.gltf"):
        try:
            out.append((path.name, json.loads(path.read_text(encoding="utf-8"))))
        except ValueError:
            continue
    return out


def test_fixtures_and_corpus_report_the_same():
    documents = _documents()
    assert len(documents) >= (40 if corpus_files("**/*.gltf") else 30)  # our own fixtures alone without ../shared
    for _name, doc in documents:
        _same(doc)


def test_fuzz_cases_report_the_same():
    for case in fuzzkit.cases(fuzzkit.budget(400), seed=14):
        _same(case.doc)


def _body_doc() -> dict:
    """A static collider, two bodies (motion + shape / mesh collider) and a joint: every node object but the first
    (which settles the 2024-07 question) takes the shortcut."""
    motion = {
        "isKinematic": False,
        "mass": 2,
        "centerOfMass": [0, 0.5, 0],
        "inertiaDiagonal": [1, 2, 3],
        "inertiaOrientation": [0, 0, 0, 1],
        "linearVelocity": [1.5, 0, 0],
        "angularVelocity": [0, 0, 0],
        "gravityFactor": 0.5,
    }
    collider = {"geometry": {"shape": 0}, "physicsMaterial": 0, "collisionFilter": 0}
    return {
        "asset": {"version": "2.0"},
        "extensionsUsed": [RB, "KHR_implicit_shapes"],
        "extensions": {
            "KHR_implicit_shapes": {"shapes": [{"type": "sphere", "sphere": {"radius": 0.5}}]},
            RB: {
                "physicsMaterials": [{"staticFriction": 0.5}],
                "collisionFilters": [{"collisionSystems": ["a"]}],
                "physicsJoints": [{"limits": [{"linearAxes": [0, 1, 2], "min": 0, "max": 0}]}],
            },
        },
        "meshes": [{"primitives": []}],
        "nodes": [
            {"extensions": {RB: {"collider": {"geometry": {"shape": 0}}}}},
            {"extensions": {RB: {"motion": motion, "collider": collider}}},
            {"extensions": {RB: {"motion": {"mass": 1}, "collider": {"geometry": {"mesh": 0, "convexHull": True}}}}},
            {"extensions": {RB: {"joint": {"connectedNode": 1, "joint": 0, "enableCollision": False}}}},
        ],
    }


def test_clean_bodies_take_the_shortcut(monkeypatch):
    taken = []
    original = bodies.clean_khr_node
    monkeypatch.setattr(bodies, "clean_khr_node", lambda *a: taken.append(original(*a)) or taken[-1])
    assert validate.validate_gltf(_body_doc()) == []
    assert taken == [False, True, True, True]  # the first collider decides the 2024-07 question (full checks)


EDGES = (
    [("motion", "mass", v) for v in (0, 0.0, -0.0, -1, math.nan, math.inf, 1e39, 2**53, 2**70, True, "1", None, [1])]
    + [
        ("motion", key, v)
        for key in ("centerOfMass", "linearVelocity", "angularVelocity", "inertiaDiagonal")
        for v in (
            [0, 0],
            [0, 0, 0, 0],
            [0, -1, 0],
            [1, math.nan, 1],
            [1, 1e39, 1],
            [1, True, 1],
            [0, 1, 1],
            [-0.0, 1, 1],
        )
    ]
    + [
        ("motion", "inertiaOrientation", v)
        for v in ([0, 0, 0, 1.0077], [0, 0, 0, 1.0076], [0, 0, 0, 0.99], [0, 0, 0, 0], [0, 0, 1], [0, 0, 0, math.inf])
    ]
    + [("motion", "isKinematic", v) for v in (1, "true", None)]
    + [("motion", "gravityFactor", v) for v in (-3.5e38, -1e39, math.nan, False, 2**60)]
    + [
        ("motion", "vendorKey", 1),
        ("collider", "shape", 0),
        ("collider", "physicsMaterial", 1),
        ("collider", "physicsMaterial", -1),
        ("collider", "physicsMaterial", True),
        ("collider", "collisionFilter", 5),
        ("collider", "geometry", {"shape": 1}),
        ("collider", "geometry", {"shape": 0, "mesh": 0}),
        ("collider", "geometry", {"node": 1}),
        ("collider", "geometry", {"node": 2}),
        ("collider", "geometry", {"mesh": 3}),
        ("collider", "geometry", {"shape": 0, "convexHull": 1}),
        ("collider", "geometry", {"shape": 0, "other": 1}),
        ("collider", "geometry", []),
        ("joint", "connectedNode", 3),
        ("joint", "connectedNode", 0),
        ("joint", "connectedNode", 9),
        ("joint", "joint", 1),
        ("joint", "enableCollision", 0),
    ]
)


@pytest.mark.parametrize(("unit", "key", "value"), EDGES, ids=lambda v: repr(v)[:24])
def test_values_at_the_limits_report_the_same(unit, key, value):
    doc = _body_doc()
    node = 3 if unit == "joint" else 1
    doc["nodes"][node]["extensions"][RB][unit][key] = value
    _same(doc)
    for without in ("KHR_implicit_shapes", RB):  # references into a missing document-level extension
        other = copy.deepcopy(doc)
        del other["extensions"][without]
        _same(other)


def test_scale_and_skin_checks_still_run():
    doc = _body_doc()
    doc["nodes"][2]["scale"] = [0, 0, 0]
    doc["nodes"].append({"children": [1]})
    doc["skins"] = [{"joints": [4]}]
    codes = [d.code for d in validate.validate_gltf(doc)]
    assert codes == ["GLTF_PHYSICS_MOTION_IN_SKIN_JOINTS", "GLTF_PHYSICS_COLLIDER_ZERO_SCALE"]
    _same(doc)
