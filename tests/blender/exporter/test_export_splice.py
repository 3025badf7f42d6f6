"""The physics JSON added to the written file after io_scene_gltf2's passes (``exporter.deferred_json``, bpy 4.5+)
gives the same bytes as the values sent through io_scene_gltf2's plan: imported fixtures and natively authored
scenes (new attachment nodes), .gltf / .glb / embedded, every revision; the fix-up copies equal io_scene_gltf2's
own ``__fix_json`` passes."""

from __future__ import annotations

import importlib
import json
import math
import random

import bpy
import pytest

from blenderkit import submodule
from export_helpers import last_export
from scene_helpers import constraint, rigid_body_world, rigid_box
from testkit import FIXTURES

FORMATS = {"GLTF_SEPARATE": ".gltf", "GLB": ".glb", "GLTF_EMBEDDED": ".gltf"}
SPLICES = bpy.app.version >= (4, 5, 0)
FIXTURE_FILES = [
    "import/rev_2026.gltf",
    "import/compound.gltf",
    "import/triggers.gltf",
    "import/materials_mass.gltf",
    "import/passthrough.gltf",
    "import/omi_legacy.gltf",
    "joints/generic.gltf",
    "joints/motor_y.gltf",
    "joints/filters.gltf",
]


@pytest.fixture(autouse=True)
def splice_small_exports(clean):
    """These tests compare both paths on small scenes: splice whatever the export's size."""
    deferred = submodule(clean, "io.exporter.deferred_json")
    before = deferred.MIN_NODES
    deferred.MIN_NODES = 0
    yield
    deferred.MIN_NODES = before


@pytest.mark.skipif(not SPLICES, reason="bpy 4.2 writes through the plan")
def test_small_export_goes_through_the_plan(clean, tmp_path):
    """Below ``MIN_NODES`` physics nodes re-reading and re-writing the file costs more than the passes it saves."""
    deferred = submodule(clean, "io.exporter.deferred_json")
    _native_scene()
    deferred.MIN_NODES = 10_000
    assert bpy.ops.export_scene.gltf(filepath=str(tmp_path / "small.glb"), export_format="GLB") == {"FINISHED"}
    assert last_export(clean).counts.get("json_after_export") is None
    deferred.MIN_NODES = 0
    assert bpy.ops.export_scene.gltf(filepath=str(tmp_path / "small.glb"), export_format="GLB") == {"FINISHED"}
    assert last_export(clean).counts.get("json_after_export") == 1


@pytest.fixture(autouse=True)
def embedded_allowed():
    """io_scene_gltf2 offers GLTF_EMBEDDED only with its preference on."""
    prefs = bpy.context.preferences.addons["io_scene_gltf2"].preferences
    before = prefs.allow_embedded_format
    prefs.allow_embedded_format = True
    yield
    prefs.allow_embedded_format = before


def _export_both(addon, path, fmt: str, revision: str) -> tuple[bytes, bytes, dict]:
    """(bytes through the plan, bytes spliced after the export, the spliced run's counts)."""
    deferred = submodule(addon, "io.exporter.deferred_json")
    bpy.context.scene.gltf_physics.export_revision = revision
    out = {}
    for enabled in (False, True):
        deferred.ENABLED = enabled
        try:
            result = bpy.ops.export_scene.gltf(filepath=str(path), export_format=fmt)
        finally:
            deferred.ENABLED = True
        assert result == {"FINISHED"}
        out[enabled] = path.read_bytes()
    report = last_export(addon)
    assert not [d for d in report.diagnostics if d.code == "GLTF_PHYSICS_EXPORT_SPLICE"], report.diagnostics
    return out[False], out[True], report.counts


def _native_scene():
    """Bodies of several shapes and one constraint of each type (joints on new attachment nodes)."""
    rbw = rigid_body_world(bpy.context.scene)
    kinds = ("FIXED", "POINT", "HINGE", "SLIDER", "GENERIC", "GENERIC_SPRING")
    shapes = ("BOX", "SPHERE", "CAPSULE", "CYLINDER", "CONVEX_HULL", "BOX")
    for i, (kind, shape) in enumerate(zip(kinds, shapes, strict=True)):
        a = rigid_box(rbw, f"A{i}", shape=shape, location=(3 * i, 0, 0), kind="PASSIVE" if i == 0 else "ACTIVE")
        b = rigid_box(rbw, f"B{i}", size=(0.5, 1, 2), location=(3 * i, 0, 2.5), mass=0.25 + i)
        constraint(rbw, f"C{i}", a, b, kind, location=(3 * i, 0.1, 1.3), rotation=(math.pi / 2, 0.3 * i, 0))
    bpy.context.view_layer.update()


@pytest.mark.parametrize("fmt", list(FORMATS))
@pytest.mark.parametrize("revision", ["2026", "2024-07", "omi"])
def test_native_scene_same_bytes(clean, tmp_path, fmt, revision):
    _native_scene()
    plain, spliced, counts = _export_both(clean, tmp_path / f"native{FORMATS[fmt]}", fmt, revision)
    assert counts["added_nodes"] > 0 and counts["joints"] == 6
    assert counts.get("json_after_export") == (1 if SPLICES else None)
    assert b"gltf-physics-splice" not in spliced
    assert spliced == plain


@pytest.mark.parametrize("name", FIXTURE_FILES)
def test_imported_fixture_same_bytes(clean, tmp_path, name):
    assert bpy.ops.import_scene.gltf(filepath=str(FIXTURES / name)) == {"FINISHED"}
    for ob in bpy.context.scene.objects:  # edited joints: written from Blender on new attachment nodes
        if ob.rigid_body_constraint is not None:
            ob.location.z += 0.01
    bpy.context.view_layer.update()
    for fmt in ("GLTF_SEPARATE", "GLB") if name != "import/passthrough.gltf" else FORMATS:
        plain, spliced, counts = _export_both(clean, tmp_path / f"out{FORMATS[fmt]}", fmt, "2026")
        if SPLICES and name != "import/passthrough.gltf":  # passthrough: nested extension names, through the plan
            assert counts.get("json_after_export") == 1
        assert b"gltf-physics-splice" not in spliced
        assert spliced == plain, (name, fmt)


def test_two_scenes_same_bytes(clean, tmp_path):
    _native_scene()
    second = bpy.data.scenes.new("Second")
    bpy.context.window.scene = second
    rbw = rigid_body_world(second)
    a = rigid_box(rbw, "Other", shape="SPHERE", location=(0, 5, 0))
    b = rigid_box(rbw, "OtherB", location=(0, 5, 3))
    constraint(rbw, "OtherJoint", a, b, "HINGE", location=(0, 5, 1.5))
    bpy.context.view_layer.update()
    plain, spliced, counts = _export_both(clean, tmp_path / "two.gltf", "GLTF_SEPARATE", "2026")
    assert b'"Second"' in plain and counts["added_nodes"] > 0
    assert spliced == plain


def test_version_and_gltfpack_gate(clean):
    gate = submodule(clean, "io.gltf_addon").can_write_after_export
    settings = {"gltf_format": "GLB", "gltf_filepath": "/x/a.glb", "gltf_use_gltfpack": False}
    assert gate(settings) is SPLICES
    assert gate({**settings, "gltf_use_gltfpack": True}) is False  # gltfpack rewrites the file before the hook
    assert gate({**settings, "gltf_format": "USDZ"}) is False


@pytest.mark.skipif(not SPLICES, reason="bpy 4.2 writes through the plan")
def test_symlinked_output_keeps_link_and_permissions(clean, tmp_path):
    _native_scene()
    target = tmp_path / "real" / "scene.glb"
    target.parent.mkdir()
    link = tmp_path / "link.glb"
    link.symlink_to(target)
    plain, spliced, _ = _export_both(clean, link, "GLB", "2026")
    assert link.is_symlink() and spliced == plain == target.read_bytes()
    target.chmod(0o640)
    assert bpy.ops.export_scene.gltf(filepath=str(link), export_format="GLB") == {"FINISHED"}
    assert link.is_symlink() and (target.stat().st_mode & 0o777) == 0o640
    assert last_export(clean).counts.get("json_after_export") == 1


def _wrap_hook(monkeypatch, addon, name, after):
    """Run ``after(args)`` after our hook ``name``, as another add-on's hook would."""
    cls = submodule(addon, "io.hooks").GltfPhysicsExport
    original = getattr(cls, name)

    def hook(self, *args):
        result = original(self, *args)
        after(*args)
        return result

    monkeypatch.setattr(cls, name, hook)


@pytest.mark.skipif(not SPLICES, reason="bpy 4.2 writes through the plan")
def test_encoder_settings_changed_by_another_addon(clean, tmp_path, monkeypatch):
    _native_scene()

    def indent_two(gltf_format, sort_order, export_settings):
        gltf_format.indent, gltf_format.separators = 2, (", ", ": ")

    _wrap_hook(monkeypatch, clean, "gather_gltf_encoded_hook", indent_two)
    plain, spliced, counts = _export_both(clean, tmp_path / "two.gltf", "GLTF_SEPARATE", "2026")
    assert b'\n  "asset": {' in plain and counts.get("json_after_export") == 1
    assert spliced == plain


@pytest.mark.skipif(not SPLICES, reason="bpy 4.2 writes through the plan")
def test_markers_removed_or_changed_by_another_addon(clean, tmp_path, monkeypatch):
    _native_scene()

    def meddle(plan, export_settings):
        bodies = [n for n in plan.nodes if n.extensions and "KHR_physics_rigid_bodies" in n.extensions]
        del bodies[0].extensions["KHR_physics_rigid_bodies"]  # a value removed
        bodies[1].extensions["KHR_physics_rigid_bodies"]["extra"] = 1  # a marker changed

    _wrap_hook(monkeypatch, clean, "gather_gltf_extensions_hook", meddle)
    path = tmp_path / "meddled.glb"
    assert bpy.ops.export_scene.gltf(filepath=str(path), export_format="GLB") == {"FINISHED"}
    data = path.read_bytes()
    assert b"gltf-physics-splice" not in data
    text, _ = submodule(clean, "io.gltf.splice").glb_json(data)
    written = json.loads(text)
    physics = [n["extensions"]["KHR_physics_rigid_bodies"] for n in written["nodes"] if "extensions" in n]
    assert sum("collider" in p for p in physics) == 11 and sum("joint" in p for p in physics) == 6  # 12 - 1 removed
    warnings = [d.message for d in last_export(clean).diagnostics if d.code == "GLTF_PHYSICS_EXPORT_SPLICE"]
    assert any("removed" in m for m in warnings) and any("changed" in m for m in warnings), warnings


def _fix_json_twice(value):
    """io_scene_gltf2's own ``__fix_json``, run twice as ``__export`` does."""
    export = importlib.import_module("io_scene_gltf2.blender.exp.export")
    fix = getattr(export, "__fix_json")
    settings = {"gltf_animated_extensions": [], "gltf_need_to_keep_extension_declaration": []}
    return fix(fix(value, settings), settings)


def _random_value(rng: random.Random, depth: int):
    pick = rng.random()
    if depth > 3 or pick < 0.45:
        return rng.choice([None, 0.0, 1.0, -2.0, 0.5, 3, True, False, "s", 1e20, -0.0, [], {}, "extras"])
    if pick < 0.7:
        return [_random_value(rng, depth + 1) for _ in range(rng.randrange(4))]
    keys = ["a", "b", "extras", "extensions", "KHR_x", "c"]
    return {rng.choice(keys): _random_value(rng, depth + 1) for _ in range(rng.randrange(5))}


@pytest.mark.skipif(not SPLICES, reason="the copies follow io_scene_gltf2 4.5 / 5.0 (4.2 writes through the plan)")
def test_fixups_equal_io_scene_gltf2(clean):
    fixups = submodule(clean, "io.gltf.addon_fixups")
    rng = random.Random(7)
    for _ in range(3000):
        value = {"v": _random_value(rng, 0)}
        expected = _fix_json_twice(value)
        assert fixups.as_exported(value) == expected, value
        assert fixups.encode_as_exported(value, True) == json.dumps(expected, indent="\t", separators=(",", ":"))
    node = {"name": "n", "translation": [1, 2.5, 0], "rotation": [0, 0, 0, 1], "scale": None, "extras": {"x": 1.0}}
    from io_scene_gltf2.io.com import gltf2_io

    expected = _fix_json_twice(gltf2_io.Node.from_dict(dict(node)).to_dict())
    assert fixups.node_as_exported(node) == expected
    assert list(fixups.node_as_exported(node)) == list(expected)


@pytest.mark.skipif(not SPLICES, reason="bpy 4.2 writes through the plan")
@pytest.mark.parametrize("fmt", ["GLTF_SEPARATE", "GLB"])
def test_scene_nodes_written_whole_unless_another_addon_changes_them(clean, tmp_path, monkeypatch, fmt):
    """Body nodes with only our extensions are written whole after the export (io_scene_gltf2 skips them); a node
    another add-on changes after our hook (a field, a list in place, a new extension) is written as it left it."""
    _native_scene()
    seen = {}

    def change(plan, export_settings):
        bodies = {n.name: n for n in plan.nodes if n.name and n.name[0] in "AB" and len(n.name) == 2}
        seen["held"] = sum(type(n).__name__ == "HeldNode" for n in bodies.values())
        bodies["A1"].name = "renamed by another add-on"
        bodies["B1"].translation = [1.0, 2.0, 7.5]
        bodies["A2"].children.append(bodies["A2"].children[0])  # a list changed in place (A2 holds a frame node)
        bodies["B5"].extensions["EXT_other"] = {"x": 1.0}

    _wrap_hook(monkeypatch, clean, "gather_gltf_extensions_hook", change)
    plain, spliced, counts = _export_both(clean, tmp_path / f"changed{FORMATS[fmt]}", fmt, "2026")
    assert counts.get("json_after_export") == 1 and seen["held"] == 12
    assert b"renamed by another add-on" in spliced and b"EXT_other" in spliced
    assert spliced == plain


@pytest.mark.skipif(not SPLICES, reason="bpy 4.2 writes through the plan")
def test_last_value_removed_with_encoder_settings_changed(clean, tmp_path, monkeypatch):
    """Another add-on changes the encoder settings and removes the physics of the last node we write whole: the
    export ends with the "removed" warning and every other value written (the markers' count does not depend on
    the markers found in the file)."""
    _native_scene()

    def indent_two(gltf_format, sort_order, export_settings):
        gltf_format.indent, gltf_format.separators = 2, (", ", ": ")

    def remove_last(plan, export_settings):
        held = [n for n in plan.nodes if type(n).__name__ == "HeldNode"]
        del held[-1].extensions["KHR_physics_rigid_bodies"]

    _wrap_hook(monkeypatch, clean, "gather_gltf_encoded_hook", indent_two)
    _wrap_hook(monkeypatch, clean, "gather_gltf_extensions_hook", remove_last)
    path = tmp_path / "removed.gltf"
    assert bpy.ops.export_scene.gltf(filepath=str(path), export_format="GLTF_SEPARATE") == {"FINISHED"}
    text = path.read_text(encoding="utf-8")
    assert "gltf-physics-splice" not in text and '\n  "asset": {' in text
    physics = [n["extensions"]["KHR_physics_rigid_bodies"] for n in json.loads(text)["nodes"] if "extensions" in n]
    assert sum("collider" in p for p in physics) == 11 and sum("joint" in p for p in physics) == 6
    report = last_export(clean)
    warnings = [d.message for d in report.diagnostics if d.code == "GLTF_PHYSICS_EXPORT_SPLICE"]
    assert any("removed" in m for m in warnings), report.diagnostics
