"""Hostile inputs on the read side of ``convert`` and ``check`` (issue 35, item 1), in real Blender.

Rules checked: a glTF URI that io_scene_gltf2 would open as a path outside IN (``x://../…``, ``data:../…``) fails
the file with ``FILE_RESOURCE_OUTSIDE`` and nothing of it reaches OUT; a buffer file far longer than its
``byteLength`` is refused before Blender reads it; a ``.blend`` whose image or linked library lies outside IN, or
whose image is a FIFO, fails with a diagnostic (never copied, never exported, never hanging the worker). Every
input is built here in ``tmp_path``: ``tmp/secret/`` must never be read into OUT."""

from __future__ import annotations

import json
import os
import pathlib

import bpy
import pytest
from convert_helpers import convert, report
from test_convert_resources import png

import devkit
from scene_helpers import rigid_body_world, rigid_box
from testkit import FIXTURES, read_json

SECRET_PNG = png((1, 2, 3))


def _secret(tmp_path: pathlib.Path) -> pathlib.Path:
    secret = tmp_path / "secret"
    secret.mkdir(exist_ok=True)
    (secret / "secret.png").write_bytes(SECRET_PNG)
    (secret / "secret.bin").write_bytes(b"\0" * 4096)
    return secret


def _everything_in(folder: pathlib.Path) -> list[bytes]:
    return [p.read_bytes() for p in folder.rglob("*") if p.is_file()] if folder.exists() else []


def _job(src: pathlib.Path, out: pathlib.Path, root: pathlib.Path) -> dict:
    return {"input": str(src), "output": str(out), "root": str(root), "to": "2026", "validate": False}


@pytest.mark.parametrize("uri", ["x://../../../secret/secret.png", "data:../../../../secret/secret.png"])
def test_gltf_image_uri_blender_reads_as_a_path_outside_in_fails_the_file(one_file, tmp_path, uri):
    _secret(tmp_path)
    src = tmp_path / "in" / "sub"
    src.mkdir(parents=True)
    document = read_json(FIXTURES / "basic_body.gltf")
    document["images"] = [{"uri": uri}]
    document["textures"] = [{"source": 0}]
    document["materials"] = [{"pbrMetallicRoughness": {"baseColorTexture": {"index": 0}}}]
    for mesh in document["meshes"]:
        for primitive in mesh["primitives"]:
            primitive["material"] = 0
    (src / "door.gltf").write_text(json.dumps(document))
    out = tmp_path / "out"
    result = one_file.convert(_job(src / "door.gltf", out / "door.gltf", tmp_path / "in"), devkit.enable)
    assert result["status"] == "failed", result
    codes = [(d["code"], d["pointer"]) for d in result["diagnostics"] if d["severity"] == "error"]
    assert codes == [("FILE_RESOURCE_OUTSIDE", "/images/0/uri")], result
    assert SECRET_PNG not in _everything_in(out)
    assert not any(image.filepath and "secret" in image.filepath for image in bpy.data.images)


def test_gltf_buffer_data_uri_without_base64_outside_in_fails_the_file(one_file, tmp_path):
    _secret(tmp_path)
    src = tmp_path / "in"
    src.mkdir()
    document = read_json(FIXTURES / "basic_body.gltf")
    document["buffers"].append({"uri": "data:../../../secret/secret.bin", "byteLength": 4096})
    (src / "door.gltf").write_text(json.dumps(document))
    result = one_file.convert(_job(src / "door.gltf", tmp_path / "out" / "door.gltf", src), devkit.enable)
    assert result["status"] == "failed"
    assert [d["code"] for d in result["diagnostics"] if d["severity"] == "error"] == ["FILE_RESOURCE_OUTSIDE"]
    assert _everything_in(tmp_path / "out") == []


def test_sparse_buffer_far_longer_than_its_byte_length_is_refused_before_blender_reads_it(one_file, tmp_path):
    src = tmp_path / "in"
    src.mkdir()
    document = read_json(FIXTURES / "basic_body.gltf")
    document["buffers"].append({"uri": "huge.bin", "byteLength": 168})
    (src / "door.gltf").write_text(json.dumps(document))
    with open(src / "huge.bin", "wb") as file:
        file.truncate(8 << 30)  # 8 GB apparent size, nothing on disk
    result = one_file.convert(_job(src / "door.gltf", tmp_path / "out" / "door.gltf", src), devkit.enable)
    assert result["status"] == "failed"
    errors = [d for d in result["diagnostics"] if d["severity"] == "error"]
    assert [d["code"] for d in errors] == ["FILE_RESOURCE_OVERSIZED"], result
    assert "Missing" not in errors[0]["message"]


def _blend_with(tmp_path: pathlib.Path, build) -> pathlib.Path:
    """A saved ``IN/scene.blend`` holding one rigid box and whatever ``build(folder)`` adds."""
    folder = tmp_path / "in"
    folder.mkdir(exist_ok=True)
    bpy.ops.wm.read_homefile(use_factory_startup=True, use_empty=True)
    devkit.enable()
    rigid_box(rigid_body_world(bpy.context.scene), "Box")
    blend = folder / "scene.blend"
    bpy.ops.wm.save_as_mainfile(filepath=str(blend))  # saved first: // paths are relative to it
    build(folder)
    bpy.ops.wm.save_as_mainfile(filepath=str(blend), relative_remap=False)
    bpy.ops.wm.read_homefile(use_factory_startup=True, use_empty=True)
    return blend


def _textured_box(filepath: str) -> None:
    image = bpy.data.images.new("Tex", 4, 4)
    image.source = "FILE"
    image.filepath = filepath
    material = bpy.data.materials.new("Painted")
    material.use_nodes = True
    node = material.node_tree.nodes.new("ShaderNodeTexImage")
    node.image = image
    principled = material.node_tree.nodes["Principled BSDF"]
    material.node_tree.links.new(node.outputs["Color"], principled.inputs["Base Color"])
    bpy.data.objects["Box"].data.materials.append(material)


def _convert_blend(one_file, blend: pathlib.Path, out: pathlib.Path) -> dict:
    result = one_file.convert(_job(blend, out / "scene.gltf", blend.parent), devkit.enable)
    one_file.RESET.opened_blend()
    return result


def test_blend_image_outside_in_is_refused_and_never_copied(one_file, tmp_path):
    _secret(tmp_path)
    blend = _blend_with(tmp_path, lambda folder: _textured_box("//../secret/secret.png"))
    result = _convert_blend(one_file, blend, tmp_path / "out")
    assert result["status"] == "failed", result
    errors = [d for d in result["diagnostics"] if d["severity"] == "error"]
    assert [d["code"] for d in errors] == ["FILE_RESOURCE_OUTSIDE"], result
    assert "image 'Tex'" in errors[0]["message"]
    assert SECRET_PNG not in _everything_in(tmp_path / "out")


def test_blend_library_outside_in_is_refused_and_nothing_exported(one_file, tmp_path):
    secret = _secret(tmp_path)
    bpy.ops.wm.read_homefile(use_factory_startup=True, use_empty=True)
    devkit.enable()
    rigid_box(rigid_body_world(bpy.context.scene), "SecretBox")
    bpy.ops.wm.save_as_mainfile(filepath=str(secret / "lib.blend"))

    def link(folder):
        with bpy.data.libraries.load(str(secret / "lib.blend"), link=True, relative=True) as (_, data_to):
            data_to.objects = ["SecretBox"]
        bpy.context.scene.collection.objects.link(data_to.objects[0])

    blend = _blend_with(tmp_path, link)
    result = _convert_blend(one_file, blend, tmp_path / "out")
    assert result["status"] == "failed", result
    messages = [d["message"] for d in result["diagnostics"] if d["code"] == "FILE_RESOURCE_OUTSIDE"]
    assert any(m.startswith("library 'lib.blend'") for m in messages), result
    assert _everything_in(tmp_path / "out") == []


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs are Unix")
def test_blend_image_that_is_a_fifo_fails_at_once_without_hanging(one_file, tmp_path):
    blend = _blend_with(tmp_path, lambda folder: _textured_box("//tex.png"))
    os.mkfifo(blend.parent / "tex.png")  # after saving: nothing may open it
    result = _convert_blend(one_file, blend, tmp_path / "out")
    assert result["status"] == "failed", result
    assert [d["code"] for d in result["diagnostics"] if d["severity"] == "error"] == ["FILE_RESOURCE_NOT_REGULAR"]


def test_blend_with_a_missing_image_inside_in_still_converts_with_a_warning(one_file, tmp_path):
    blend = _blend_with(tmp_path, lambda folder: _textured_box("//gone.png"))
    result = _convert_blend(one_file, blend, tmp_path / "out")
    assert result["status"] == "warnings", result
    assert [d["code"] for d in result["diagnostics"] if d["code"].startswith("FILE_")] == ["FILE_IMAGE_MISSING"]
    assert (tmp_path / "out" / "scene.gltf").is_file()


def test_convert_command_x_uri_outside_in_fails_with_its_pointer(tmp_path):
    """Through the real command and worker: the report names the code and the pointer; OUT holds no secret."""
    _secret(tmp_path)
    src = tmp_path / "in"
    src.mkdir()
    document = read_json(FIXTURES / "basic_body.gltf")
    document["images"] = [{"uri": "x://../../../secret/secret.png"}]
    (src / "door.gltf").write_text(json.dumps(document))
    result = convert(src, "-o", tmp_path / "out", "--report", tmp_path / "r.json", "--timeout", 120)
    assert result.returncode == 1, result.stderr
    entry = report(tmp_path / "r.json")["door.gltf"]
    assert [(d["code"], d["pointer"]) for d in entry["diagnostics"] if d["severity"] == "error"] == [
        ("FILE_RESOURCE_OUTSIDE", "/images/0/uri")
    ]
    assert SECRET_PNG not in _everything_in(tmp_path / "out")


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs are Unix")
def test_blend_library_that_is_a_fifo_is_refused_before_blender_opens_the_file(one_file, tmp_path):
    """The library paths are read from the file's bytes (``blend_file``) on every release: a FIFO library is
    refused before ``open_mainfile`` would block on it."""
    secret = _secret(tmp_path)
    bpy.ops.wm.read_homefile(use_factory_startup=True, use_empty=True)
    devkit.enable()
    rigid_box(rigid_body_world(bpy.context.scene), "LinkedBox")
    (tmp_path / "in").mkdir()
    library = tmp_path / "in" / "lib.blend"
    bpy.ops.wm.save_as_mainfile(filepath=str(library))

    def link(folder):
        with bpy.data.libraries.load(str(library), link=True, relative=True) as (_, data_to):
            data_to.objects = ["LinkedBox"]
        bpy.context.scene.collection.objects.link(data_to.objects[0])

    blend = _blend_with(tmp_path, link)
    library.unlink()
    os.mkfifo(library)  # the library is now a FIFO: opening the main file would block on it
    result = _convert_blend(one_file, blend, tmp_path / "out")
    assert result["status"] == "failed", result
    assert [d["code"] for d in result["diagnostics"] if d["severity"] == "error"] == ["FILE_RESOURCE_NOT_REGULAR"]
    assert secret.is_dir()
