"""``extras`` / ``extensions`` / unknown keys of motion, collider, geometry, trigger, shape, material and filter objects
survive import → export unchanged, in every revision that can hold them (tests/fixtures/import/passthrough.gltf)."""

from __future__ import annotations

import json
import math

import bpy
import pytest

from blenderkit import submodule
from export_helpers import REVISIONS, export, node_names
from testkit import FIXTURES

SOURCE = FIXTURES / "import" / "passthrough.gltf"
KINDS = ("motion", "collider", "geometry", "shape", "shape.params", "material", "filter", "trigger")
HOLDS_GEOMETRY = ("2026", "2024-10")  # 2024-07 and OMI have no geometry object


def _fields(obj) -> dict | None:
    if obj is None:
        return None
    out = {"extras": obj.extras, "extensions": obj.extensions, "unknown": obj.unknown}
    return out if obj.extras is not None or obj.extensions or obj.unknown else None


def kept(doc, gltf: dict) -> dict:
    """(node name, kind) → passthrough fields of every object used by a node (empty ones left out)."""
    names = node_names(gltf)
    out = {}

    def put(name, kind, obj):
        fields = _fields(obj)
        if fields is not None:
            out[(name, kind)] = fields

    def geometry(name, prefix, geo):
        if geo is None:
            return
        put(name, prefix + "geometry", geo)
        if geo.shape is not None:
            put(name, prefix + "shape", doc.shapes[geo.shape])
            put(name, prefix + "shape.params", doc.shapes[geo.shape].params)

    for index, physics in doc.nodes.items():
        name = names[index]
        put(name, "motion", physics.motion)
        if physics.collider is not None:
            c = physics.collider
            put(name, "collider", c)
            geometry(name, "", c.geometry)
            put(name, "material", None if c.material is None else doc.materials[c.material])
            put(name, "filter", None if c.filter is None else doc.filters[c.filter])
        if physics.trigger is not None:
            t = physics.trigger
            put(name, "trigger", t)
            geometry(name, "trigger.", t.geometry)
            put(name, "trigger.filter", None if t.filter is None else doc.filters[t.filter])
    return out


def test_import_keeps_the_fields_on_the_objects(clean):
    assert bpy.ops.import_scene.gltf(filepath=str(SOURCE)) == {"FINISHED"}
    body = bpy.data.objects["Body"].gltf_physics
    motion = json.loads(body.motion.passthrough)
    assert motion["extras"] == {"tag": "motion", "list": [1, 2.5, {"deep": True}]}
    assert motion["extensions"]["EXT_vendor_data"]["nested"] == {"level": [{"x": 1}, None, "s"]}
    assert motion["unknown"] == {"vendorKey": {"kept": "motion"}}
    assert json.loads(body.collider.passthrough)["unknown"] == {"vendorKey": {"kept": "collider"}}
    assert json.loads(body.collider.geometry.passthrough) == {"extras": {"of": "geometry"}}
    shape = json.loads(body.collider.geometry.shape_passthrough)
    assert shape["shape"]["extras"]["tag"] == "shape-box" and shape["params"] == {"extras": {"sub": "box"}}
    assert json.loads(body.collider.material.passthrough)["extensions"]["EXT_vendor_data"]["owner"] == "material"
    assert json.loads(body.collider.filter.passthrough)["extras"]["tag"] == "filter"
    sensor = bpy.data.objects["Sensor"].gltf_physics.trigger
    assert json.loads(sensor.passthrough)["unknown"] == {"vendorKey": {"kept": "trigger"}}
    assert json.loads(sensor.filter.passthrough)["extras"]["tag"] == "filter"
    group = bpy.data.objects["Group"].gltf_physics.trigger
    assert json.loads(group.passthrough)["extras"]["tag"] == "compound-trigger"
    assert bpy.data.objects["Part"].gltf_physics.trigger.passthrough == ""  # nothing to keep: nothing stored


@pytest.mark.parametrize("revision", REVISIONS)
def test_export_writes_them_back_unchanged(clean, tmp_path, revision):
    migrate, parse = submodule(clean, "io.gltf.migrate"), submodule(clean, "io.gltf.parse")
    source = json.loads(SOURCE.read_text())
    assert bpy.ops.import_scene.gltf(filepath=str(SOURCE)) == {"FINISHED"}
    out = export(tmp_path / f"out_{revision}.gltf", revision)
    expected_json, _ = migrate.migrate(source, revision)
    expected = kept(parse.parse_gltf(expected_json).document, expected_json)
    got = kept(parse.parse_gltf(out).document, out)
    assert got == expected
    want_kinds = set(KINDS) - (set() if revision in HOLDS_GEOMETRY else {"geometry"})
    assert {kind for _, kind in got} >= want_kinds
    assert {name for name, _ in got} == {"Body", "Sensor", "Group", "Part"}  # Part: its shape's fields


def test_export_2026_json_equals_the_source_objects(clean, tmp_path):
    """The written objects carry exactly the source's extras, extensions and unknown keys (raw JSON)."""
    source = json.loads(SOURCE.read_text())
    assert bpy.ops.import_scene.gltf(filepath=str(SOURCE)) == {"FINISHED"}
    out = export(tmp_path / "out.gltf", "2026")
    nodes = {n["name"]: n for n in out["nodes"]}
    src_body = source["nodes"][0]["extensions"]["KHR_physics_rigid_bodies"]
    body = nodes["Body"]["extensions"]["KHR_physics_rigid_bodies"]
    for kind in ("motion", "collider"):
        for key in ("extras", "extensions", "vendorKey"):
            assert body[kind][key] == src_body[kind][key], (kind, key)
    assert body["collider"]["geometry"]["extras"] == {"of": "geometry"}
    shape = out["extensions"]["KHR_implicit_shapes"]["shapes"][body["collider"]["geometry"]["shape"]]
    src_shape = source["extensions"]["KHR_implicit_shapes"]["shapes"][0]
    assert {k: shape[k] for k in ("extras", "extensions", "vendorKey")} == {
        k: src_shape[k] for k in ("extras", "extensions", "vendorKey")
    }
    assert shape["box"]["extras"] == {"sub": "box"}
    root = out["extensions"]["KHR_physics_rigid_bodies"]
    material = root["physicsMaterials"][body["collider"]["physicsMaterial"]]
    assert (
        material["vendorKey"] == {"kept": "material"}
        and material["extensions"]["EXT_vendor_data"]["owner"] == "material"
    )
    flt = root["collisionFilters"][body["collider"]["collisionFilter"]]
    assert flt["extras"] == source["extensions"]["KHR_physics_rigid_bodies"]["collisionFilters"][0]["extras"]
    trigger = nodes["Sensor"]["extensions"]["KHR_physics_rigid_bodies"]["trigger"]
    assert trigger["vendorKey"] == {"kept": "trigger"}
    group = nodes["Group"]["extensions"]["KHR_physics_rigid_bodies"]["trigger"]
    assert group["extras"]["tag"] == "compound-trigger"
    assert "EXT_vendor_data" in out.get("extensionsUsed", [])


def test_edited_values_win_and_the_fields_stay(clean, tmp_path):
    """An edit in Blender still wins over the stored value; the kept fields are written with the edited value."""
    assert bpy.ops.import_scene.gltf(filepath=str(SOURCE)) == {"FINISHED"}
    body = bpy.data.objects["Body"]
    body.rigid_body.mass = 7.0
    body.rigid_body.friction = 0.9
    out = export(tmp_path / "out.gltf", "2026")
    physics = next(n for n in out["nodes"] if n["name"] == "Body")["extensions"]["KHR_physics_rigid_bodies"]
    assert physics["motion"]["mass"] == 7.0 and physics["motion"]["extras"]["tag"] == "motion"
    material = out["extensions"]["KHR_physics_rigid_bodies"]["physicsMaterials"][physics["collider"]["physicsMaterial"]]
    assert material["frictionCombine"] == "multiply" and math.isclose(material["dynamicFriction"], 0.9, rel_tol=1e-6)
    assert material["vendorKey"] == {"kept": "material"}
