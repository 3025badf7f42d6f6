"""``convert`` builds Reproduce Motion's helpers only for a ``.blend`` output: a glTF output is the same file an import
with the helpers exports (they are dropped on export), without the cost of building them."""

from __future__ import annotations

import json

import bpy

import devkit
from blenderkit import submodule
from export_helpers import export
from testkit import FIXTURES

MOVING = FIXTURES / "import" / "replaced.gltf"  # centre of mass carriers and initial velocities: helpers


def _convert(one_file, dst):
    job = {"input": str(MOVING), "output": str(dst), "to": "2026", "validate": False}
    result = one_file.convert(job, devkit.enable)
    assert result["status"] in ("converted", "warnings"), result


def _plain(gltf: dict) -> dict:
    gltf.pop("asset", None)
    for buffer in gltf.get("buffers", []):
        buffer.pop("uri", None)
    return gltf


def test_gltf_output_without_helpers_is_the_file_an_import_with_them_exports(addon, one_file, tmp_path):
    has_reproduction = submodule(addon, "io.importer.reproduce.cleanup").has_reproduction
    _convert(one_file, tmp_path / "converted" / "replaced.gltf")
    assert not has_reproduction(bpy.context.scene)
    converted = json.loads((tmp_path / "converted" / "replaced.gltf").read_text())

    bpy.ops.wm.read_homefile(use_factory_startup=True, use_empty=True)
    devkit.enable()
    assert bpy.context.scene.gltf_physics.import_reproduce  # the default
    assert bpy.ops.import_scene.gltf(filepath=str(MOVING)) == {"FINISHED"}
    assert has_reproduction(bpy.context.scene)
    (tmp_path / "direct").mkdir()
    direct = export(tmp_path / "direct" / "replaced.gltf", "2026")
    assert _plain(converted) == _plain(direct)


def test_blend_output_keeps_reproduce_motion(addon, one_file, tmp_path):
    _convert(one_file, tmp_path / "replaced.blend")
    assert submodule(addon, "io.importer.reproduce.cleanup").has_reproduction(bpy.context.scene)


def test_check_reads_a_file_with_reproduce_motion(addon, one_file):
    """``check`` reads its input with ``read_input``'s default: the scene must move as the file says."""
    out: list = []
    assert one_file.read_input(MOVING, out, {}, devkit.enable), out
    assert submodule(addon, "io.importer.reproduce.cleanup").has_reproduction(bpy.context.scene)
