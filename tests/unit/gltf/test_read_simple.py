"""The reader's short way for plain KHR node objects (``read.khr_simple``, issue 14 import item 1) gives the same
model (every field, ``source`` and the document's revisions included) and the same diagnostics as the full reader,
on every fixture, corpus file, fuzz case and value at or beyond a limit."""

from __future__ import annotations

import json
import math

import fuzzkit
import pytest

from testkit import FIXTURES, corpus_files, submodule

parse = submodule("io.gltf.parse")
khr = submodule("io.gltf.read.khr")
simple = submodule("io.gltf.read.khr_simple")
model = submodule("io.gltf.model")

RB = "KHR_physics_rigid_bodies"


def _result(doc: object) -> list[tuple]:
    """The model and diagnostics, with the validator (an error there drops its unit) and without (the reader's own
    checks alone decide)."""
    out = []
    for validate in (True, False):
        result = parse.parse_gltf(doc, validate=validate)
        document = result.document
        sources = {i: n.source for i, n in document.nodes.items()}  # compare=False fields: compared here
        out.append((repr(document), sorted(document.revisions), sources, [str(d) for d in result.diagnostics]))
    return out


def _same(doc: object) -> None:
    fast = _result(doc)
    original = khr.read_simple_khr_node
    khr.read_simple_khr_node = lambda *_: False
    try:
        assert fast == _result(doc)
    finally:
        khr.read_simple_khr_node = original


def test_fixtures_and_corpus_read_the_same():
    corpus = corpus_files("**/*.gltf")
    paths = sorted(FIXTURES.rglob("*.gltf")) + corpus
    read = 0
    for path in paths:
        try:
            doc = json.loads(path.read_text(encoding="utf-8"))
        except ValueError:
            continue
        _same(doc)
        read += 1
    assert read >= (40 if corpus else 30)  # our own fixtures alone when ../shared is absent


def test_fuzz_cases_read_the_same():
    for case in fuzzkit.cases(fuzzkit.budget(400), seed=41):
        _same(case.doc)


def _doc() -> dict:
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
            {
                "extensions": {
                    RB: {
                        "motion": {"isKinematic": True, "mass": 2, "inertiaOrientation": [0, 0, 0, 1]},
                        "collider": {"geometry": {"shape": 0}, "physicsMaterial": 0, "collisionFilter": 0},
                    }
                }
            },
            {"extensions": {RB: {"motion": {}, "collider": {"geometry": {"mesh": 0, "convexHull": True}}}}},
            {"extensions": {RB: {"joint": {"connectedNode": 0, "joint": 0, "enableCollision": True}}}},
            {"extensions": {RB: {}}},
        ],
    }


def test_plain_nodes_take_the_short_way(monkeypatch):
    taken = []
    original = simple.read_simple_khr_node
    monkeypatch.setattr(khr, "read_simple_khr_node", lambda *a: taken.append(original(*a)) or taken[-1])
    result = parse.parse_gltf(_doc())
    assert result.diagnostics == []
    assert taken == [True, True, True, True]
    nodes = result.document.nodes
    assert [nodes[i].source for i in range(3)] == [model.REV_KHR_2024_10, model.REV_KHR_2026, model.REV_KHR_2024_10]
    assert nodes[0].motion.kind == model.KINEMATIC and nodes[0].motion.mass == 2.0 and nodes[2].joint.enable_collision


EDGES = (
    [(0, "motion", "mass", v) for v in (0, -1, math.nan, math.inf, 2**53, 2**70, True, "1", None)]
    + [
        (0, "motion", key, v)
        for key in ("centerOfMass", "linearVelocity", "angularVelocity", "inertiaDiagonal", "inertiaOrientation")
        for v in ([0, 0], [1, math.nan, 1], [1, True, 1], [1, 2**60, 1], (1, 2, 3), [0, 0, 0, 2])
    ]
    + [(0, "motion", "isKinematic", v) for v in (1, None, "true")]
    + [(0, "motion", "gravityFactor", v) for v in (math.inf, False, 2**60, -0.0)]
    + [
        (0, "motion", "extras", {"a": 1}),
        (0, "motion", "extensions", {"EXT_x": {}}),
        (0, "motion", "vendor", 1),
        (0, "collider", "shape", 0),
        (0, "collider", "physicsMaterial", 1),
        (0, "collider", "physicsMaterial", -1),
        (0, "collider", "physicsMaterial", True),
        (0, "collider", "collisionFilter", "0"),
        (0, "collider", "geometry", {"shape": 1}),
        (0, "collider", "geometry", {"shape": 0, "mesh": 0}),
        (0, "collider", "geometry", {"node": 1}),
        (0, "collider", "geometry", {"mesh": 1}),
        (0, "collider", "geometry", {"shape": 0, "convexHull": 0}),
        (0, "collider", "geometry", {"shape": 0, "extras": 1}),
        (0, "collider", "geometry", {}),
        (0, "collider", "geometry", [0]),
        (2, "joint", "connectedNode", 4),
        (2, "joint", "connectedNode", -1),
        (2, "joint", "joint", 1),
        (2, "joint", "joint", None),
        (2, "joint", "enableCollision", 1),
        (2, "joint", "extras", None),
    ]
)


@pytest.mark.parametrize(("node", "unit", "key", "value"), EDGES, ids=lambda v: repr(v)[:24])
def test_values_at_the_limits_read_the_same(node, unit, key, value):
    doc = _doc()
    doc["nodes"][node]["extensions"][RB][unit][key] = value
    _same(doc)


@pytest.mark.parametrize(
    "change",
    [
        lambda d: d["extensions"].pop("KHR_implicit_shapes"),
        lambda d: d["extensions"].update(KHR_collision_shapes={"shapes": [{"type": "sphere"}]}),
        lambda d: d["extensions"][RB]["physicsMaterials"].insert(0, {"staticFriction": -1}),  # dropped: indices shift
        lambda d: d["extensions"][RB]["physicsJoints"].insert(0, 7),
        lambda d: d["nodes"][3]["extensions"][RB].update(trigger={"nodes": [0]}),
        lambda d: d["nodes"][0]["extensions"][RB].update(extras={"x": 1}),
        lambda d: d["nodes"][1]["extensions"][RB].update(motion=[]),
    ],
)
def test_document_changes_read_the_same(change):
    doc = _doc()
    change(doc)
    _same(doc)
