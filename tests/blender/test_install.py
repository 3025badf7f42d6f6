"""The zip built by Blender's extension CLI installs, enables, registers cleanly and its hooks run."""

from __future__ import annotations

import io
import json
import pathlib
import sys

import bpy

from blenderkit import submodule
from testkit import fixture


def test_installed_from_zip_into_temporary_user_folder(addon, built_zip):
    assert built_zip.is_file()
    installed = pathlib.Path(addon.__file__).resolve().parent
    assert installed.parent.name == "user_default"
    assert installed.name == "gltf_physics"
    assert installed.is_relative_to(pathlib.Path(bpy.utils.resource_path("USER")).resolve())
    assert addon.__name__ in bpy.context.preferences.addons
    assert not (installed / "tests").exists()


def test_hook_classes_are_visible_to_io_scene_gltf2(addon):
    assert addon.glTF2ImportUserExtension.__name__ == "GltfPhysicsImport"
    assert addon.glTF2ExportUserExtension.__name__ == "GltfPhysicsExport"


def test_stdlib_io_is_the_real_one_while_the_extension_is_loaded(addon):
    assert sys.modules["io"] is io
    assert pathlib.Path(io.__file__).name == "io.py"
    assert hasattr(io, "BytesIO") and not hasattr(io, "hooks")
    ours = submodule(addon, "io")
    assert ours is not io and ours.__name__.endswith("gltf_physics.io")
    assert all(pathlib.Path(p or ".").resolve() != pathlib.Path(addon.__file__).parent for p in sys.path)


def test_export_calls_our_hooks(clean, tmp_path):
    bpy.ops.mesh.primitive_cube_add()
    out = tmp_path / "cube.gltf"
    assert bpy.ops.export_scene.gltf(filepath=str(out), export_format="GLTF_SEPARATE") == {"FINISHED"}
    report = submodule(clean, "io.hooks").last_report("export")
    assert report is not None
    assert "gather_node_hook" in report.hooks_called
    assert "gather_gltf_extensions_hook" in report.hooks_called
    assert report.counts["nodes"] == len(json.loads(out.read_text())["nodes"])


def test_files_requiring_physics_extensions_import(clean):
    assert bpy.ops.import_scene.gltf(filepath=str(fixture("basic_body_required.gltf"))) == {"FINISHED"}
    assert "Box" in bpy.data.objects
    report = submodule(clean, "io.hooks").last_report("import")
    assert report.hooks_called[0] == "gather_import_gltf_before_hook"


def _registration_state(addon) -> dict:
    from io_scene_gltf2 import exporter_extension_layout_draw

    return {
        "scene_pointer": hasattr(bpy.types.Scene, "gltf_physics"),
        "classes": sorted(
            cls.__name__ for module in submodule(addon, "ui")._modules() for cls in module.CLASSES if cls.is_registered
        ),
        "export_draw": addon.__package__ in exporter_extension_layout_draw
        or addon.__name__ in exporter_extension_layout_draw,
    }


def test_register_unregister_register_leaves_no_residue(addon):
    registered = _registration_state(addon)
    assert registered["scene_pointer"] and registered["classes"] and registered["export_draw"]
    addon.unregister()
    gone = _registration_state(addon)
    assert gone == {"scene_pointer": False, "classes": [], "export_draw": False}
    addon.register()
    assert _registration_state(addon) == registered
    addon.unregister()
    addon.register()
    assert _registration_state(addon) == registered
