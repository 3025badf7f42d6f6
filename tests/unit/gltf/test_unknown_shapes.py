"""Issue 11 item 10: explicit OMI ``shape: -1`` gets an INFO note; an unknown implicit shape type (the draft
``EXT_implicit_*`` region shapes) is kept as raw JSON, written back unchanged, with exactly one warning."""

from __future__ import annotations

import copy

import pytest

from testkit import submodule

migrate = submodule("io.gltf.migrate")
validate = submodule("io.gltf.validate.document")

REGION = {
    "type": "EXT_implicit_region",
    "EXT_implicit_region": {"radius": 2.0, "falloff": [0.5, 1]},
    "extensions": {"EXT_implicit_region": {"mode": "inside"}},
    "extras": {"note": "kept"},
    "name": "region",
}


def _khr(family: str = "KHR_implicit_shapes") -> dict:
    geometry = {"shape": 0} if family == "KHR_collision_shapes" else {"geometry": {"shape": 0}}
    return {
        "asset": {"version": "2.0"},
        "extensionsUsed": ["KHR_physics_rigid_bodies", family, "EXT_implicit_region"],
        "extensions": {family: {"shapes": [copy.deepcopy(REGION), {"type": "sphere", "sphere": {"radius": 1.0}}]}},
        "nodes": [
            {"extensions": {"KHR_physics_rigid_bodies": {"motion": {"mass": 1.0}, "collider": geometry}}},
            {"extensions": {"KHR_physics_rigid_bodies": {"trigger": geometry}}},
        ],
    }


def _about_shape(diags, family: str) -> list:
    return [d for d in diags if d.pointer.startswith(f"/extensions/{family}/shapes/0") and d.severity.name != "INFO"]


@pytest.mark.parametrize("family", ["KHR_implicit_shapes", "KHR_collision_shapes"])
def test_unknown_implicit_shape_type_is_one_warning(family):
    found = _about_shape(validate.validate_gltf(_khr(family)), family)
    assert [(d.severity.name, d.code) for d in found] == [("WARNING", "GLTF_PHYSICS_UNKNOWN_SHAPE_TYPE")], found
    assert found[0].pointer == f"/extensions/{family}/shapes/0/type"


@pytest.mark.parametrize("to", ["2026", "2024-10", "2024-07"])
def test_unknown_implicit_shape_is_written_back_unchanged(to):
    out, diags = migrate.migrate(_khr(), to)
    family = "KHR_collision_shapes" if to == "2024-07" else "KHR_implicit_shapes"
    assert out["extensions"][family]["shapes"][0] == REGION
    assert len(_about_shape(diags, "KHR_implicit_shapes")) == 1
    body = out["nodes"][0]["extensions"]["KHR_physics_rigid_bodies"]
    assert body["collider"] == ({"shape": 0} if to == "2024-07" else {"geometry": {"shape": 0}})


def _omi(collider: dict) -> dict:
    return {
        "asset": {"version": "2.0"},
        "extensionsUsed": ["OMI_physics_body", "OMI_physics_shape"],
        "extensions": {"OMI_physics_shape": {"shapes": [{"type": "box", "box": {"size": [1, 1, 1]}}]}},
        "nodes": [{"extensions": {"OMI_physics_body": {"motion": {"type": "dynamic"}, "collider": collider}}}],
    }


def test_explicit_omi_shape_minus_one_gets_an_info_note():
    diags = validate.validate_gltf(_omi({"shape": -1}))
    notes = [d for d in diags if d.pointer == "/nodes/0/extensions/OMI_physics_body/collider/shape"]
    assert [d.severity.name for d in notes] == ["INFO"], diags
    assert not [d for d in validate.validate_gltf(_omi({"shape": 0})) if d.pointer.endswith("/shape")]


def test_omi_trigger_with_nodes_and_shape_minus_one_is_not_a_one_of_error():
    gltf = _omi({"shape": 0})
    gltf["nodes"][0]["extensions"]["OMI_physics_body"]["trigger"] = {"shape": -1, "nodes": [1]}
    gltf["nodes"].append({"extensions": {"OMI_physics_body": {"trigger": {"shape": 0}}}})
    gltf["nodes"][0]["children"] = [1]
    diags = validate.validate_gltf(gltf)
    assert not [d for d in diags if d.severity.name == "ERROR"], diags
    assert any(d.pointer == "/nodes/0/extensions/OMI_physics_body/trigger/shape" for d in diags)
