"""The conversion worker's scene reset (issue 10, per-file cost): after the first home file a reset only swaps in a
new scene and removes the data-blocks (``io/convert/scene_reset.py``, ≈ 0.4 ms instead of 11-20 ms). It must
convert exactly as a full ``read_homefile`` does: the same output bytes for every file, whatever came before."""

from __future__ import annotations

import bpy

import devkit
from scene_helpers import rigid_body_world, rigid_box
from testkit import FIXTURES

FILES = [  # bodies, compound / mesh colliders, joints with drives, filters, triggers, materials, two containers
    "import/rev_2026.gltf",
    "import/triggers.gltf",
    "joints/hinge_x.gltf",
    "joints/motor_y.gltf",
    "joints/filters.gltf",
    "basic_body.gltf",
]


def _convert(one_file, src, out, fmt: str = ".glb") -> bytes:
    dst = out / (src.stem + fmt)
    job = {"input": str(src), "output": str(dst), "to": "2026", "validate": False}
    result = one_file.convert(job, devkit.enable)
    assert result["status"] in ("converted", "warnings"), result
    return dst.read_bytes()


def test_a_wiped_scene_converts_byte_for_byte_like_a_home_file(one_file, tmp_path):
    sources = [FIXTURES / name for name in FILES]
    wiped = {}
    for n, src in enumerate(sources):  # one worker's sequence: a home file first, then wipes after other files
        wiped[src] = _convert(one_file, src, tmp_path / f"wiped{n}", ".gltf" if n % 2 else ".glb")
        assert one_file.RESET.home
    for n, src in enumerate(sources):
        one_file.RESET.opened_blend()  # force the full reset of before
        full = _convert(one_file, src, tmp_path / f"full{n}", ".gltf" if n % 2 else ".glb")
        assert full == wiped[src], src.name
    assert len(bpy.data.objects) > 0 and len(bpy.data.scenes) == 1


def test_the_wipe_leaves_one_empty_scene_and_no_data(one_file, tmp_path):
    _convert(one_file, FIXTURES / "joints/motor_y.gltf", tmp_path)
    one_file.RESET.reset(devkit.enable)
    assert one_file.RESET.home
    assert [s.name for s in bpy.data.scenes] == ["Scene"] and bpy.context.scene.name == "Scene"
    assert bpy.context.scene.rigidbody_world is None and len(bpy.context.scene.objects) == 0
    for name in ("objects", "meshes", "materials", "collections", "images", "actions", "node_groups"):
        assert len(getattr(bpy.data, name)) == 0, name


def test_after_a_blend_input_the_next_reset_is_a_home_file(one_file, tmp_path):
    bpy.ops.wm.read_homefile(use_factory_startup=True, use_empty=True)
    devkit.enable()
    world = rigid_body_world(bpy.context.scene)
    rigid_box(world, "Box")
    blend = tmp_path / "scene.blend"
    bpy.ops.wm.save_as_mainfile(filepath=str(blend), copy=True)
    one_file.RESET.reset(devkit.enable)  # the worker has a home file
    result = one_file.convert({"input": str(blend), "output": str(tmp_path / "o.glb"), "to": "2026"}, devkit.enable)
    assert result["status"] in ("converted", "warnings"), result
    assert not one_file.RESET.home  # open_mainfile replaced it: the next reset reads the home file again
    _convert(one_file, FIXTURES / "joints/hinge_x.gltf", tmp_path)
    assert one_file.RESET.home
