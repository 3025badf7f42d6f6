"""Finite input never becomes NaN / Infinity / a value a 32-bit float cannot hold (issue 11, item 7)."""

from __future__ import annotations

import json
import math

import pytest

from testkit import submodule

migrate = submodule("io.gltf.migrate")
parse = submodule("io.gltf.parse")
validate = submodule("io.gltf.validate.document")
write = submodule("io.gltf.write")
model = submodule("io.gltf.model")

FLOAT32_MAX = 3.4028234663852886e38
BODY = "/nodes/0/extensions/OMI_physics_body"


def _numbers(value):
    if isinstance(value, bool):
        return
    if isinstance(value, int | float):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from _numbers(item)
    elif isinstance(value, list):
        for item in value:
            yield from _numbers(item)


def _assert_storable(out: dict, input_nodes: int = 0) -> None:
    """Valid JSON; every number the writer produced (physics extensions, new nodes) fits a 32-bit float."""
    json.dumps(out, allow_nan=False)  # raises on NaN / Infinity
    nodes = out.get("nodes", [])
    written = [node.get("extensions", {}) for node in nodes[:input_nodes]] + nodes[input_nodes:]
    for number in _numbers(written):
        assert abs(number) <= FLOAT32_MAX, number
    for number in _numbers(out.get("extensions", {})):
        assert abs(number) <= FLOAT32_MAX, number


def _legacy_body(tensor) -> dict:
    return {
        "asset": {"version": "2.0"},
        "extensionsUsed": ["OMI_physics_body"],
        "nodes": [
            {"extensions": {"OMI_physics_body": {"type": "rigid", "mass": 2, "inertiaTensor": tensor}}},
            {"extensions": {"OMI_physics_body": {"type": "static"}}},
        ],
    }


HUGE_TENSORS = [
    [1e308, 0, 0, 0, 1e308, 0, 0, 0, 1e308],
    [-1e308, 0, 0, 0, 1e308, 0, 0, 0, 1e308],
    [1e308] * 9,
    [1e300, 0, 0, 0, 1e300, 0, 0, 0, 1e300],
    [1e-320, 0, 0, 0, 1e-320, 0, 0, 0, 1e-320],
]


@pytest.mark.parametrize("to", ["2026", "omi"])
@pytest.mark.parametrize("tensor", HUGE_TENSORS)
def test_legacy_inertia_tensor_out_of_range_is_rejected_at_its_pointer(tensor, to):
    out, diags = migrate.migrate(_legacy_body(tensor), to)
    _assert_storable(out, input_nodes=2)
    assert not [d for d in diags if d.pointer == "" or "INTERNAL" in d.code]
    assert any(d.pointer == f"{BODY}/inertiaTensor" and d.severity.name == "WARNING" for d in diags), diags
    # every OMI object of the file survives: both bodies are written
    assert all(node.get("extensions") for node in out["nodes"][:2]) if to == "omi" else out["nodes"][0]["extensions"]


def test_large_inertia_tensor_that_fits_is_diagonalised_exactly():
    s = 1e30
    tensor = [2 * s, s, 0, s, 2 * s, 0, 0, 0, 3 * s]
    result = parse.parse_gltf(_legacy_body(tensor))
    motion = result.document.nodes[0].motion
    assert sorted(motion.inertia_diagonal) == pytest.approx([s, 3 * s, 3 * s], rel=1e-12)
    assert math.fsum(v * v for v in motion.inertia_orientation) == pytest.approx(1.0, abs=1e-12)


def test_legacy_inertia_tensor_not_positive_definite_is_reported():
    out, diags = migrate.migrate(_legacy_body([1, 1, 0, 1, 1, 0, 0, 0, 1]), "omi")
    assert any(d.pointer == f"{BODY}/inertiaTensor" and d.severity.name == "WARNING" for d in diags), diags
    assert "inertiaDiagonal" not in out["nodes"][0]["extensions"]["OMI_physics_body"]["motion"]


def _legacy_joint(node_a: dict, node_b: dict, joint: dict) -> dict:
    body = {"OMI_physics_body": {"type": "rigid"}}
    ext = {"OMI_physics_joint": {"nodeA": 0, "nodeB": 1, "constraints": [{"linearAxes": [0, 1, 2]}]}}
    return {
        "asset": {"version": "2.0"},
        "extensionsUsed": ["OMI_physics_body", "OMI_physics_joint"],
        "nodes": [{**node_a, "extensions": body}, {**node_b, "extensions": body}, {**joint, "extensions": ext}],
    }


JOINT_CASES = [
    ({"scale": [1e-200] * 3}, {}, {"translation": [1, 0, 0]}),
    ({"scale": [1e200] * 3}, {}, {"translation": [1, 0, 0]}),
    ({"translation": [1e308, 0, 0]}, {"translation": [-1e308, 0, 0]}, {"translation": [1e308, 0, 0]}),
    ({"scale": [1e-150] * 3}, {}, {"translation": [1e200, 0, 0], "rotation": [0.3, 0.2, 0.1, 0.9]}),
    ({"scale": [1e-5] * 3}, {}, {"translation": [1e35, 0, 0]}),
    ({"matrix": [1e-160, 0, 0, 0, 0, 1e-160, 0, 0, 0, 0, 1e-160, 0, 0, 0, 0, 1]}, {}, {"translation": [1, 0, 0]}),
]


@pytest.mark.parametrize("to", ["2026", "2024-10", "omi"])
@pytest.mark.parametrize("case", JOINT_CASES)
def test_legacy_joint_frames_of_extreme_transforms_never_write_non_finite_or_non_unit(case, to):
    out, diags = migrate.migrate(_legacy_joint(*case), to)
    _assert_storable(out, input_nodes=3)
    for node in out["nodes"][3:]:  # the attachment frames the writer added
        if "rotation" in node:
            assert math.fsum(v * v for v in node["rotation"]) == pytest.approx(1.0, abs=1e-6), node
    if len(out["nodes"]) == 3:  # frames not written: said so at the joint's node references
        joint = "/nodes/2/extensions/OMI_physics_joint"
        assert any(d.pointer in (f"{joint}/nodeA", f"{joint}/nodeB") for d in diags), diags


def test_legacy_joint_with_a_sane_pivot_still_gets_unit_frames():
    out, _ = migrate.migrate(_legacy_joint({"scale": [2, 2, 2]}, {}, {"translation": [1, 0, 0]}), "2026")
    frames = [node for node in out["nodes"] if node.get("name", "").startswith("joint_2_frame")]
    assert len(frames) == 2
    assert frames[0]["translation"] == pytest.approx([0.5, 0, 0])


def _khr_body(mass) -> dict:
    return {
        "asset": {"version": "2.0"},
        "extensionsUsed": ["KHR_physics_rigid_bodies"],
        "nodes": [{"extensions": {"KHR_physics_rigid_bodies": {"motion": {"mass": mass}}}}],
    }


@pytest.mark.parametrize("mass", [1e39, -1e39, 1e308])
def test_validator_flags_a_number_a_float32_cannot_hold(mass):
    diags = validate.validate_gltf(_khr_body(mass))
    assert any(d.pointer == "/nodes/0/extensions/KHR_physics_rigid_bodies/motion/mass" for d in diags), diags


def test_validator_accepts_float32_max():
    diags = validate.validate_gltf(_khr_body(3.4e38))
    assert not [d for d in diags if d.pointer.endswith("/mass")], diags


@pytest.mark.parametrize("to", ["2026", "2024-10", "2024-07", "omi"])
@pytest.mark.parametrize("mass", [1e39, math.inf, math.nan])
def test_writers_refuse_values_a_float32_cannot_hold(to, mass):
    document = parse.parse_gltf(_khr_body(2.0)).document
    document.nodes[0].motion.mass = mass  # as a Blender-side or computed value could be
    output = write.write_target(document, to, _khr_body(2.0))
    gltf = migrate.apply_output(migrate.strip_physics(_khr_body(2.0)), output)
    _assert_storable(gltf, input_nodes=1)
    ext = "OMI_physics_body" if to == "omi" else "KHR_physics_rigid_bodies"
    ptr = f"/nodes/0/extensions/{ext}/motion/mass"
    assert any(d.pointer == ptr and d.severity.name == "WARNING" for d in output.diagnostics), output.diagnostics
