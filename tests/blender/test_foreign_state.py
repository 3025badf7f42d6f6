"""Only our own state: after every import and export path — finished, refused or aborted half-way — Python's
collector and io_scene_gltf2 are as they were before (design rule "Only our own state", issue 32).

Checked after each path: the collector is enabled, its thresholds and freeze count are unchanged, and every class
and function attribute of every loaded ``io_scene_gltf2`` module is the object it was before (no wrapper, no class
swap). The aborting failures are those users meet: a malformed file, a refused ``extensionsRequired``, a failure of
io_scene_gltf2 itself after our hooks ran (the animation step), and an export whose encoder fails.
"""

from __future__ import annotations

import gc
import sys

import bpy
import pytest

from testkit import FIXTURES

REPLACED = FIXTURES / "import" / "replaced.gltf"


def _gltf_addon_attributes() -> dict[tuple[str, str, str], object]:
    """(module, class or "", attribute) → the object, for every class and function of io_scene_gltf2."""
    out: dict[tuple[str, str, str], object] = {}
    for name, module in list(sys.modules.items()):
        if not name.startswith("io_scene_gltf2") or module is None:
            continue
        for attr, value in list(vars(module).items()):
            out[(name, "", attr)] = value
            if isinstance(value, type) and value.__module__ == name:
                for member, inner in list(vars(value).items()):
                    out[(name, attr, member)] = inner
    return out


def _state() -> dict:
    return {
        "enabled": gc.isenabled(),
        "thresholds": gc.get_threshold(),
        "frozen": gc.get_freeze_count(),
        "attributes": _gltf_addon_attributes(),
    }


def _assert_as_before(before: dict) -> None:
    after = _state()
    assert after["enabled"] == before["enabled"]
    assert after["thresholds"] == before["thresholds"]
    assert after["frozen"] == before["frozen"]
    changed = {k for k, v in before["attributes"].items() if after["attributes"].get(k, v) is not v}
    assert changed == set(), f"io_scene_gltf2 attributes replaced: {sorted(changed)[:5]}"
    ours = {k for k, v in after["attributes"].items() if _defined_by_us(v)}
    assert ours == set(), f"io_scene_gltf2 attributes that are our functions: {sorted(ours)[:5]}"


def _defined_by_us(value: object) -> bool:
    """A function (or static / class method) of this extension: a wrapper we put into io_scene_gltf2."""
    function = getattr(value, "__func__", value)
    return callable(function) and "gltf_physics" in (getattr(function, "__module__", None) or "")


@pytest.fixture
def before(clean, tmp_path):
    """The state once io_scene_gltf2 and our hooks have run once (every lazily imported module is loaded)."""
    assert bpy.ops.import_scene.gltf(filepath=str(REPLACED)) == {"FINISHED"}
    assert bpy.ops.export_scene.gltf(filepath=str(tmp_path / "warm.glb")) == {"FINISHED"}
    bpy.ops.wm.read_homefile(use_factory_startup=True, use_empty=True)
    return _state()


def _scene_module():
    try:
        from io_scene_gltf2.blender.imp import scene  # 4.3+
    except ImportError:
        from io_scene_gltf2.blender.imp import gltf2_blender_scene as scene  # 4.2
    return scene


def test_finished_import_and_export(before, tmp_path):
    assert bpy.ops.import_scene.gltf(filepath=str(REPLACED)) == {"FINISHED"}
    _assert_as_before(before)
    assert bpy.ops.export_scene.gltf(filepath=str(tmp_path / "out.gltf"), export_format="GLTF_SEPARATE") == {"FINISHED"}
    _assert_as_before(before)


def test_import_aborted_after_our_hooks(before, monkeypatch):
    scene = _scene_module().BlenderScene

    def broken(gltf):
        raise RuntimeError("animation import failed")

    with monkeypatch.context() as patch:
        patch.setattr(scene, "create_animations", staticmethod(broken))
        with pytest.raises(RuntimeError, match="animation import failed"):
            bpy.ops.import_scene.gltf(filepath=str(REPLACED))
    _assert_as_before(before)


def test_malformed_file(before, tmp_path, gltf_errors):
    bad = tmp_path / "bad.gltf"
    bad.write_text('{"asset": {"version": "2.0"}, "extensionsUsed": ["KHR_physics_rigid_bodies"], "nodes": [')
    with pytest.raises(RuntimeError):
        bpy.ops.import_scene.gltf(filepath=str(bad))
    gltf_errors.clear()
    _assert_as_before(before)


def test_refused_extensions_required(before, tmp_path, gltf_errors):
    refused = tmp_path / "refused.gltf"
    text = REPLACED.read_text()
    refused.write_text(text.replace('"extensionsUsed"', '"extensionsRequired": ["EXT_not_there"], "extensionsUsed"', 1))
    with pytest.raises(RuntimeError):
        bpy.ops.import_scene.gltf(filepath=str(refused))
    gltf_errors.clear()
    _assert_as_before(before)


def test_export_aborted_in_the_encoder(before, monkeypatch, tmp_path, gltf_errors):
    assert bpy.ops.import_scene.gltf(filepath=str(REPLACED)) == {"FINISHED"}
    try:
        from io_scene_gltf2.blender.exp import export as exporter  # 4.3+
    except ImportError:
        from io_scene_gltf2.blender.exp import gltf2_blender_export as exporter  # 4.2
    with monkeypatch.context() as patch:

        def broken(*args, **kwargs):
            raise RuntimeError("encoder failed")

        patch.setattr(exporter, "__write_file", broken)  # io_scene_gltf2's file writer (a module function)
        with pytest.raises(RuntimeError):
            bpy.ops.export_scene.gltf(filepath=str(tmp_path / "out.gltf"), export_format="GLTF_SEPARATE")
    gltf_errors.clear()
    _assert_as_before(before)
