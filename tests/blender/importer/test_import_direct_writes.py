"""The import's one-update-per-group writes (``io/importer/direct_writes.py``) store exactly what one ``setattr`` per
value stores: every fixture imported both ways reads back the same ``Object.gltf_physics`` values through RNA."""

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


def test_one_update_per_group_reads_back_like_setattr(clean, monkeypatch):
    direct = submodule(clean, "io.importer.direct_writes")
    each = submodule(clean, "io.mapping.stored").assign_each
    stored_values = 0
    for path in PATHS:
        fast = _import_scene(clean, path)
        with monkeypatch.context() as patch:
            patch.setattr(direct, "assign", each)  # the pipeline's writer: one setattr per changed value
            slow = _import_scene(clean, path)
        assert fast.keys() == slow.keys(), path.name
        for name in fast:
            assert fast[name] == slow[name], (path.name, name)
        stored_values += sum(1 for v in fast.values() if v["role"] != "NONE")
    assert stored_values > 50  # the fixtures really store values


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
