"""The physics goes into io_scene_gltf2's plan in its written form (``gltf_addon.written_form``), so the file is the
same whether io_scene_gltf2 fixes the physics (4.2 – 5.0, and 5.2+ for an extension it is not told to pass
through) or passes it through (5.2+, the ``passthrough_extension_data`` hook): the same bytes both ways, on every
fixture and the demo scene; and the written form is a fixed point of io_scene_gltf2's own fix."""

from __future__ import annotations

import importlib

import bpy
import pytest

from blenderkit import empty_scene, submodule
from export_helpers import export
from testkit import FIXTURES, ROOT

FILES = [
    ROOT / "examples" / "demo_scene.gltf",
    *sorted((FIXTURES / "import").glob("*.gltf")),
    *sorted((FIXTURES / "joints").glob("*.gltf")),
]
VALUES = [
    {"mass": 2.0, "inertia": [1.0, 0.5, 3.0], "name": "x", "count": 3, "flag": True, "off": False},
    {"a": None, "b": {}, "c": [], "d": {"e": None}, "f": {"g": {"h": None}}, "i": [None, {}, [], 1.0]},
    {"extras": {"kept": 1.0, "empty": {}, "none": None}, "other": {"extras": {}}},
    {"extensions": {"KHR_materials_unlit": {}, "EXT_x": {"v": -0.0, "w": 1e30, "u": 0.25}}},
    [1.0, 2.5, {"k": 4.0}],
    7.0,
]


def _fix_json():
    try:
        export_module = importlib.import_module("io_scene_gltf2.blender.exp.export")
    except ModuleNotFoundError:  # 4.2's name
        export_module = importlib.import_module("io_scene_gltf2.blender.exp.gltf2_blender_export")
    fix = getattr(export_module, "__fix_json")  # module-level, not mangled
    settings = {"gltf_need_to_keep_extension_declaration": [], "gltf_animated_extensions": {}}
    return lambda value: fix(value, settings)


@pytest.mark.parametrize("value", VALUES, ids=range(len(VALUES)))
def test_the_written_form_is_what_io_scene_gltf2_writes(addon, value):
    written_form, fix = submodule(addon, "io.gltf_addon").written_form, _fix_json()
    form = written_form(value)
    assert fix(form) == form and repr(fix(form)) == repr(form)  # a fixed point: 4.x leaves it as it is
    twice = fix(fix(value))
    if value is not VALUES[1]:
        assert repr(form) == repr(twice)  # what io_scene_gltf2 wrote before (ints where it made them ints)
    else:  # two passes leave an empty object where a null was three levels down; the fixed point drops it
        assert twice["f"] == {} and "f" not in form and form["i"] == [None, {}, [], 1]


def test_passed_through_and_fixed_physics_write_the_same_file(addon, clean, tmp_path, monkeypatch):
    run_class = submodule(addon, "io.exporter.pipeline").ExportRun
    hooks = submodule(addon, "io.hooks")
    for folder in ("through", "fixed"):
        (tmp_path / folder).mkdir()
    for path in FILES:
        empty_scene()
        assert bpy.ops.import_scene.gltf(filepath=str(path)) == {"FINISHED"}
        export(tmp_path / "through" / "out.gltf", "2026")  # one file name: the buffer's name is in the JSON
        through = (tmp_path / "through" / "out.gltf").read_bytes()
        told = "passthrough_extension_data" in hooks.last_report("export").hooks_called
        assert told == (bpy.app.version >= (5, 2, 0)), path.name  # the hook exists from io_scene_gltf2 5.2 on
        with monkeypatch.context() as patch:
            patch.setattr(run_class, "passthrough_extension_data", lambda self, names: None)
            export(tmp_path / "fixed" / "out.gltf", "2026")
        assert (tmp_path / "fixed" / "out.gltf").read_bytes() == through, path.name
