"""Implicit shapes whose size does not fit Blender's 32-bit floats (found by the fuzz: seed 11, case 967, an OMI
collider of radius 1e308 raised OverflowError inside the import and the collider was lost on export).

Blender holds vertex positions as 32-bit floats: a shape beyond them (given, or after the node's scale is baked in)
cannot be built. The import warns at the collider's (trigger's) pointer, builds nothing for it, and the export
writes the file's shape back, each value beyond the float32 range as ±FLOAT32_MAX (a glTF float holds no more; the
writer once dropped the value, leaving a sphere without its radius).
"""

from __future__ import annotations

import copy
import json

import bpy
import pytest

from blenderkit import submodule
from export_helpers import export_clean
from testkit import FIXTURES

RB = "KHR_physics_rigid_bodies"
SHAPES = "KHR_implicit_shapes"
FLOAT32_MAX = 3.4028234663852886e38


def _fixture(name: str) -> dict:
    return json.loads((FIXTURES / "import" / name).read_text(encoding="utf-8"))


def _compound_sphere(radius: float, knob_scale: float = 1.0, static: bool = False) -> dict:
    doc = _fixture("compound.gltf")
    doc["extensions"][SHAPES]["shapes"][1]["sphere"]["radius"] = radius
    if knob_scale != 1.0:
        doc["nodes"][3]["scale"] = [knob_scale] * 3
    if static:  # no motion: Knob and CartBox are static colliders
        del doc["nodes"][0]["extensions"]
    return doc


def _compound_box() -> dict:
    doc = _fixture("compound.gltf")  # shape 0: CartBox (compound child with its own mesh) and Passenger (own body)
    doc["extensions"][SHAPES]["shapes"][0]["box"]["size"] = [1e39, 1.0, 1.0]
    return doc


def _omi_sphere() -> dict:
    doc = _fixture("omi_legacy.gltf")
    doc["extensions"]["OMI_physics_shape"]["shapes"][0]["sphere"]["radius"] = 1e308
    return doc


def _omi_2023_collider() -> dict:
    """The fuzz's finding: an OMI_collider (2023-05 form) child of a rigid OMI body."""
    return {
        "asset": {"version": "2.0"},
        "extensionsUsed": ["OMI_collider", "OMI_physics_body"],
        "extensions": {"OMI_collider": {"colliders": [{"type": "sphere", "radius": 1e308}]}},
        "scene": 0,
        "scenes": [{"nodes": [0]}],
        "nodes": [
            {"name": "RigidBody", "children": [1], "extensions": {"OMI_physics_body": {"type": "rigid"}}},
            {"name": "SphereCollider", "extensions": {"OMI_collider": {"collider": 0}}},
        ],
    }


def _trigger_shapes() -> dict:
    doc = _fixture("triggers.gltf")
    doc["extensions"][SHAPES]["shapes"][0]["box"]["size"] = [1e39, 2.0, 2.0]
    doc["extensions"][SHAPES]["shapes"][1]["sphere"]["radius"] = 1e308
    return doc


CASES = {
    # name: (document, {node name: (part, the huge value its shape holds)})
    "compound child sphere": (_compound_sphere(1e308), {"Knob": ("collider", 1e308)}),
    "compound child sphere after its scale": (_compound_sphere(1e36, knob_scale=1e3), {"Knob": ("collider", 1e36)}),
    "static sphere": (_compound_sphere(1e308, static=True), {"Knob": ("collider", 1e308)}),
    "box of a body and of a compound child": (
        _compound_box(),
        {"CartBox": ("collider", 1e39), "Passenger": ("collider", 1e39)},
    ),
    "OMI sphere": (_omi_sphere(), {"BallShape": ("collider", 1e308)}),
    "OMI 2023-05 collider": (_omi_2023_collider(), {"SphereCollider": ("collider", 1e308)}),
    "trigger shapes": (
        _trigger_shapes(),
        {"Simple": ("trigger", 1e39), "PartA": ("trigger", 1e308), "PartB": ("trigger", 1e308)},
    ),
}


def _shape_values(written: dict, node: dict, part: str) -> list[float]:
    """Every number of the implicit shape the node's collider / trigger refers to."""
    geometry = node["extensions"][RB][part]["geometry"]
    shape = written["extensions"][SHAPES]["shapes"][geometry["shape"]]
    params = shape[shape["type"]]
    return [v for value in params.values() for v in (value if isinstance(value, list) else [value])]


@pytest.mark.parametrize("case", list(CASES))
def test_shapes_beyond_float32_are_kept_not_built(clean, tmp_path, gltf_errors, case):
    doc, expected = copy.deepcopy(CASES[case][0]), CASES[case][1]
    path = tmp_path / "huge.gltf"
    path.write_text(json.dumps(doc), encoding="utf-8")
    assert bpy.ops.import_scene.gltf(filepath=str(path)) == {"FINISHED"}
    report = submodule(clean, "io.hooks").last_report("import")
    texts = [str(d) for d in report.diagnostics]
    assert not [t for t in texts if "IMPORT_FAILED" in t], texts
    index_of = {n["name"]: i for i, n in enumerate(doc["nodes"])}
    for name in expected:  # at the extension the node has (OMI: OMI_physics_shape / OMI_collider for a shape node)
        exts = doc["nodes"][index_of[name]]["extensions"]
        ptrs = [f"/nodes/{index_of[name]}/extensions/{ext}" for ext in exts]
        warned = [t for t in texts if "32-bit" in t and t.startswith("WARNING") and any(p in t for p in ptrs)]
        assert warned, (name, texts)
    for ob in bpy.data.objects:  # nothing Blender holds is beyond float32
        assert max(ob.dimensions) < 3.5e38, (ob.name, tuple(ob.dimensions))
    written = export_clean(tmp_path / "back.gltf", "2026", gltf_errors)
    nodes = {n.get("name"): n for n in written["nodes"]}
    for name, (part, huge) in expected.items():
        assert min(huge, FLOAT32_MAX) in _shape_values(written, nodes[name], part), (name, nodes[name])
