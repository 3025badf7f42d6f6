"""The import's one-update-per-group writes (``io/importer/direct_writes.py``) store exactly what one ``setattr`` per
value stores: every fixture imported both ways reads back the same ``Object.gltf_physics`` values through RNA. The
same for colliders alike sharing their stored values (``direct_writes.replayed``)."""

from __future__ import annotations

import bpy
import pytest

from blenderkit import rna_values, submodule
from testkit import FIXTURES

PATHS = sorted((FIXTURES / "import").glob("*.gltf")) + sorted((FIXTURES / "joints").glob("*.gltf"))


def _import_scene(addon, path) -> dict:
    bpy.ops.wm.read_homefile(use_factory_startup=True, use_empty=True)
    assert bpy.ops.import_scene.gltf(filepath=str(path)) == {"FINISHED"}
    return {ob.name: rna_values(ob.gltf_physics) for ob in bpy.data.objects}


def _write_each_time(pg, key, memo, write) -> None:
    write()


def test_one_update_per_group_reads_back_like_setattr(clean, monkeypatch):
    direct = submodule(clean, "io.importer.direct_writes")
    bodies = submodule(clean, "io.importer.bodies")
    each = submodule(clean, "io.mapping.stored").assign_each
    replays = []
    replayed = direct.replayed

    def counted(pg, key, memo, write):
        replays.append(key is not None and key in memo)
        replayed(pg, key, memo, write)

    monkeypatch.setattr(bodies, "replayed", counted)
    stored_values = 0
    for path in PATHS:
        fast = _import_scene(clean, path)
        with monkeypatch.context() as patch:
            patch.setattr(direct, "assign", each)  # the pipeline's writer: one setattr per changed value
            patch.setattr(bodies, "replayed", _write_each_time)  # every collider's values one by one
            slow = _import_scene(clean, path)
        assert fast.keys() == slow.keys(), path.name
        for name in fast:
            assert fast[name] == slow[name], (path.name, name)
        stored_values += sum(1 for v in fast.values() if v["role"] != "NONE")
    assert stored_values > 50  # the fixtures really store values
    assert sum(replays) >= 3 and not all(replays)  # colliders alike really shared their values


def _alike_colliders(path) -> None:
    """Bodies whose colliders are alike (same shape and material), differ in one stored value, or are disabled."""
    import json

    def node(k, shape, material=0, **extra):
        collider = {"geometry": {"shape": shape}, "physicsMaterial": material, **extra}
        body = {"motion": {"mass": 1.0 + k}, "collider": collider}
        return {"name": f"B{k}", "translation": [k * 2.0, 0, 0], "extensions": {"KHR_physics_rigid_bodies": body}}

    nodes = [node(k, 0) for k in range(4)] + [node(4, 1), node(5, 1), node(6, 0, 1)]
    nodes += [node(7, 0, extras={"tag": 7}), {**node(8, 0), "scale": [0, 0, 0]}, {**node(9, 0), "scale": [0, 0, 0]}]
    document = {
        "asset": {"version": "2.0"},
        "extensionsUsed": ["KHR_implicit_shapes", "KHR_physics_rigid_bodies"],
        "scenes": [{"nodes": list(range(len(nodes)))}],
        "scene": 0,
        "nodes": nodes,
        "extensions": {
            "KHR_implicit_shapes": {
                "shapes": [{"type": "box", "box": {"size": [1, 2, 3]}}, {"type": "sphere", "sphere": {"radius": 0.5}}]
            },
            "KHR_physics_rigid_bodies": {
                "physicsMaterials": [{"staticFriction": 0.2, "dynamicFriction": 0.1}, {"restitution": 0.5}]
            },
        },
    }
    path.write_text(json.dumps(document), encoding="utf-8")


def test_alike_colliders_share_their_values_and_read_back_like_one_by_one(clean, monkeypatch, tmp_path):
    bodies = submodule(clean, "io.importer.bodies")
    path = tmp_path / "alike.gltf"
    _alike_colliders(path)
    fast = _import_scene(clean, path)
    with monkeypatch.context() as patch:
        patch.setattr(bodies, "replayed", _write_each_time)
        slow = _import_scene(clean, path)
    assert fast == slow
    shared = {name: values["collider"] for name, values in fast.items() if values["collider"]["has_collider"]}
    assert len(shared) == 10
    assert shared["B1"] == shared["B0"] and shared["B5"] == shared["B4"] and shared["B9"] == shared["B8"]
    assert shared["B4"] != shared["B0"] and shared["B6"] != shared["B0"] and shared["B7"] != shared["B0"]
    assert shared["B8"]["disabled"] and not shared["B0"]["disabled"]


def test_alike_colliders_with_a_filter_share_their_values_rows_included(clean, monkeypatch, tmp_path):
    """Colliders alike that name the same filter share their stored values, the panel's filter rows (filled by the
    texts' update callback for the first) included; another filter is written apart."""
    import json

    bodies, mirror = submodule(clean, "io.importer.bodies"), submodule(clean, "ui.filter_mirror")
    path = tmp_path / "filtered.gltf"
    _alike_colliders(path)
    document = json.loads(path.read_text(encoding="utf-8"))
    document["extensions"]["KHR_physics_rigid_bodies"]["collisionFilters"] = [
        {"collisionSystems": ["props"], "collideWithSystems": ["world", "props"]},
        {"collisionSystems": ["world"], "notCollideWithSystems": ["sensor"]},
    ]
    for k, node in enumerate(document["nodes"][:4]):
        node["extensions"]["KHR_physics_rigid_bodies"]["collider"]["collisionFilter"] = 0 if k < 3 else 1
    path.write_text(json.dumps(document), encoding="utf-8")
    shares = []
    replayed = bodies.replayed

    def counted(pg, key, memo, write):
        shares.append(key is not None and key in memo)
        replayed(pg, key, memo, write)

    with monkeypatch.context() as patch:
        patch.setattr(bodies, "replayed", counted)
        fast = _import_scene(clean, path)
    assert shares[:4] == [False, True, True, False]  # B1 and B2 copy B0's values; B3's filter differs
    filtered = [ob for ob in bpy.data.objects if ob.gltf_physics.collider.filter.has_filter]
    assert sorted(ob.name for ob in filtered) == ["B0", "B1", "B2", "B3"]
    for ob in filtered:
        flt = ob.gltf_physics.collider.filter
        for field in ("collision_systems", "collide_with_systems", "not_collide_with_systems"):
            assert mirror.row_names(flt, field) == mirror.text_names(flt, field), (ob.name, field)
    assert mirror.row_names(bpy.data.objects["B2"].gltf_physics.collider.filter, "collide_with_systems") == (
        "world",
        "props",
    )
    with monkeypatch.context() as patch:
        patch.setattr(bodies, "replayed", _write_each_time)
        slow = _import_scene(clean, path)
    assert fast == slow


def test_a_collider_with_a_filter_fills_the_panel_rows(clean):
    """Its filter texts fill the panel's rows (the texts' update callback, or a copy of an alike collider's)."""
    mirror = submodule(clean, "ui.filter_mirror")
    path = FIXTURES / "joints" / "filters.gltf"
    bpy.ops.wm.read_homefile(use_factory_startup=True, use_empty=True)
    assert bpy.ops.import_scene.gltf(filepath=str(path)) == {"FINISHED"}
    filtered = [ob for ob in bpy.data.objects if ob.gltf_physics.collider.filter.has_filter]
    assert len(filtered) >= 2
    for ob in filtered:
        flt = ob.gltf_physics.collider.filter
        fields = ("collision_systems", "collide_with_systems", "not_collide_with_systems")
        assert any(mirror.text_names(flt, field) for field in fields), ob.name
        for field in fields:
            assert mirror.row_names(flt, field) == mirror.text_names(flt, field), (ob.name, field)


@pytest.mark.parametrize("value", [float("nan"), float("inf"), 1e39, -1e39])
def test_values_outside_the_float_range_go_through_rna(clean, value):
    direct = submodule(clean, "io.importer.direct_writes")
    ob = bpy.data.objects.new("probe", None)
    pm = ob.gltf_physics.motion
    direct.assign(pm, {"gravity_factor": value})
    reference = bpy.data.objects.new("reference", None).gltf_physics.motion
    reference.gravity_factor = value
    assert repr(pm.gravity_factor) == repr(reference.gravity_factor)


def test_groups_with_equal_values_share_a_plan_but_keep_their_ownrna_values(clean):
    """The per-values plan cache: equal values (1 == 1.0 == True, 0.0 == -0.0) still store what each group was given."""
    direct = submodule(clean, "io.importer.direct_writes")
    cases = [
        {"center_of_mass": (1.0, 0.0, 2.0), "gravity_factor": 2.0, "kind": "kinematic"},
        {"center_of_mass": (1.0, -0.0, 2.0), "gravity_factor": 2.0, "kind": "kinematic"},
        {"center_of_mass": (1.0, 0.0, 2.0), "gravity_factor": 2.0, "kind": "kinematic"},
        {"center_of_mass": (1.0, 0.0, 2.0), "gravity_factor": 2, "kind": "kinematic"},
        {"center_of_mass": (1.0, 0.0, 2.0), "gravity_factor": 2.0, "kind": "static"},
    ]
    for values in cases * 2:
        pm = bpy.data.objects.new("probe", None).gltf_physics.motion
        direct.assign(pm, values)
        reference = bpy.data.objects.new("reference", None).gltf_physics.motion
        for name, value in values.items():
            setattr(reference, name, value)
        for name in values:
            read, wanted = getattr(pm, name), getattr(reference, name)
            assert repr(tuple(read) if name == "center_of_mass" else read) == repr(
                tuple(wanted) if name == "center_of_mass" else wanted
            ), (values, name)


def test_the_plan_cache_stays_bounded(clean, monkeypatch):
    direct = submodule(clean, "io.importer.direct_writes")
    monkeypatch.setattr(direct, "MAX_PLANS", 3)
    for k in range(10):
        pm = bpy.data.objects.new("probe", None).gltf_physics.motion
        direct.assign(pm, {"gravity_factor": 2.0 + k})
        assert pm.gravity_factor == 2.0 + k
    assert len(direct._PLANS) <= 3
