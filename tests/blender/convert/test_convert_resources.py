"""Resources of ``.gltf`` outputs in ``convert``: image names that are paths never make io_scene_gltf2 (4.5+) write
outside the output folder; two outputs of one folder never overwrite each other's images; a refused resource leaves
no other file of that output behind."""

from __future__ import annotations

import base64
import json
import os
import pathlib
import struct
import urllib.parse
import zlib

import bpy
import pytest
from convert_helpers import STATE, convert, report, written

from blenderkit import submodule
from testkit import FIXTURES, read_json


def png(rgb: tuple[int, int, int]) -> bytes:
    """A 1×1 RGB PNG of one colour."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    header = struct.pack(">IIBBBBB", 1, 1, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(bytes((0, *rgb))))
        + chunk(b"IEND", b"")
    )


def textured(images: list[tuple[str, tuple[int, int, int]]]) -> dict:
    """``basic_body.gltf`` with one material using ``images`` (name, colour) as embedded PNG textures."""
    document = read_json(FIXTURES / "basic_body.gltf")
    document["images"] = [
        {"name": name, "uri": "data:image/png;base64," + base64.b64encode(png(rgb)).decode()} for name, rgb in images
    ]
    document["textures"] = [{"source": i} for i in range(len(images))]
    slots = ("baseColorTexture", "emissiveTexture")
    material = {"name": "Painted", "pbrMetallicRoughness": {}}
    for i, slot in enumerate(slots[: len(images)]):
        (material["pbrMetallicRoughness"] if i == 0 else material)[slot] = {"index": i}
    document["materials"] = [material]
    for mesh in document["meshes"]:
        for primitive in mesh["primitives"]:
            primitive["material"] = 0
    return document


def files_under(folder: pathlib.Path) -> set[pathlib.Path]:
    return {p for p in folder.rglob("*") if p.is_file() and STATE not in p.parts}


def colour(path: pathlib.Path) -> tuple[int, ...]:
    """The first pixel of an image file, 0–255 per channel (read by Blender)."""
    image = bpy.data.images.load(str(path))
    try:
        return tuple(round(v * 255) for v in image.pixels[:3])
    finally:
        bpy.data.images.remove(image)


def image_files(gltf: pathlib.Path) -> list[pathlib.Path]:
    document = json.loads(gltf.read_text(encoding="utf-8"))
    return [gltf.parent / urllib.parse.unquote(image["uri"]) for image in document.get("images", [])]


def test_image_names_that_are_paths_stay_inside_the_output_folder(tmp_path):
    src, out = tmp_path / "lib" / "in", tmp_path / "lib" / "out"
    src.mkdir(parents=True)
    names = [("../../../ESCAPED", (255, 0, 0)), (str(tmp_path / "ABSOLUTE"), (0, 255, 0))]
    (src / "evil.gltf").write_text(json.dumps(textured(names)))
    before = files_under(tmp_path)
    result = convert(src, "-o", out, "--format", "gltf", "--report", tmp_path / "report.json")
    assert files_under(tmp_path) - before - files_under(out) == {tmp_path / "report.json"}, result.stderr
    assert result.returncode == 0, result.stderr
    entry = report(tmp_path / "report.json")["evil.gltf"]
    renamed = [d for d in entry["diagnostics"] if d["code"] == "CONVERT_IMAGE_RENAMED"]
    assert len(renamed) == 2 and {d["severity"] for d in renamed} == {"warning"}, entry
    written = image_files(out / "evil.gltf")
    assert len(written) == 2 and all(p.parent == out and p.is_file() for p in written)
    assert sorted(colour(p) for p in written) == [(0, 255, 0), (255, 0, 0)]


def test_same_named_images_of_two_outputs_do_not_overwrite_each_other(tmp_path):
    src, out = tmp_path / "in", tmp_path / "out"
    src.mkdir()
    colours = {"red": (255, 0, 0), "blue": (0, 0, 255)}
    for name, rgb in colours.items():
        (src / f"{name}.gltf").write_text(json.dumps(textured([("Texture", rgb)])))
    result = convert(src, "-o", out, "--format", "gltf")
    assert result.returncode == 0, result.stderr
    for name, rgb in colours.items():  # each output shows its own texture, whichever was converted last
        (image,) = image_files(out / f"{name}.gltf")
        assert image.parent == out and colour(image) == rgb, name
    again = convert(src, "-o", out, "--format", "gltf")  # a second run reuses the files it finds identical
    assert again.returncode == 0, again.stderr
    assert len([p for p in out.iterdir() if p.suffix == ".png"]) == 2


@pytest.fixture
def commit(addon):
    return submodule(addon, "io.convert.one_file")._commit_gltf


def test_a_refused_resource_leaves_no_other_file_of_that_output(tmp_path, commit):
    staged, out = tmp_path / "out" / ".body.gltf.partial", tmp_path / "out"
    staged.mkdir(parents=True)
    (staged / "body.bin").write_bytes(b"\0" * 8)
    (tmp_path / "out" / "secret.png").write_bytes(png((1, 2, 3)))
    document = {
        "asset": {"version": "2.0"},
        "buffers": [{"uri": "body.bin", "byteLength": 8}],
        "images": [{"uri": "../secret.png"}],
    }
    (staged / "body.gltf").write_text(json.dumps(document))
    diagnostics: list[dict] = []
    commit(staged / "body.gltf", out / "body.gltf", diagnostics)
    assert [d["code"] for d in diagnostics] == ["FILE_RESOURCE_OUTSIDE"]
    assert sorted(p.name for p in out.iterdir() if p.is_file()) == ["secret.png"]  # no body.bin, no body.gltf


def with_buffer(uri: str) -> tuple[dict, bytes]:
    """``basic_body.gltf`` with its buffer at ``uri``, and the buffer's bytes."""
    document = read_json(FIXTURES / "basic_body.gltf")
    data = base64.b64decode(document["buffers"][0]["uri"].split(",", 1)[1])
    document["buffers"][0] = {"uri": uri, "byteLength": len(data)}
    return document, data


def test_inputs_read_resources_only_inside_the_input_folder(tmp_path):
    """A shared folder inside IN is fine; a buffer beyond IN (a local file a hostile file would copy into its
    output), a device and a FIFO are refused before Blender opens them; Blender's own failure is one line."""
    src, out = tmp_path / "library", tmp_path / "out"
    (src / "models").mkdir(parents=True)
    (src / "shared").mkdir()
    document, data = with_buffer("../shared/body.bin")
    (src / "shared" / "body.bin").write_bytes(data)
    (src / "models" / "shared.gltf").write_text(json.dumps(document))
    (tmp_path / "secret.bin").write_bytes(data)  # a valid buffer: Blender would import it and write it out
    (src / "models" / "beyond.gltf").write_text(json.dumps(with_buffer("../../secret.bin")[0]))
    (src / "models" / "device.gltf").write_text(json.dumps(with_buffer("/dev/zero")[0]))
    (src / "models" / "short.gltf").write_text(json.dumps(with_buffer("short.bin")[0]))
    (src / "models" / "short.bin").write_bytes(data[:100])  # the accessors read past its end
    (src / "models" / "missing.gltf").write_text(json.dumps(with_buffer("gone.bin")[0]))
    no_image = textured([("Texture", (1, 2, 3))])
    no_image["images"][0]["uri"] = "gone.png"
    (src / "models" / "no_image.gltf").write_text(json.dumps(no_image))
    expected = {
        "models/shared.gltf": [],
        "models/beyond.gltf": [("FILE_RESOURCE_OUTSIDE", "/buffers/0/uri")],
        "models/device.gltf": [("FILE_RESOURCE_OUTSIDE", "/buffers/0/uri")],
        "models/missing.gltf": [("FILE_RESOURCE_MISSING", "/buffers/0/uri")],
        "models/no_image.gltf": [],
    }
    if hasattr(os, "mkfifo"):
        os.mkfifo(src / "models" / "pipe.bin")
        (src / "models" / "fifo.gltf").write_text(json.dumps(with_buffer("pipe.bin")[0]))
        expected["models/fifo.gltf"] = [("FILE_RESOURCE_NOT_REGULAR", "/buffers/0/uri")]
    result = convert(src, "-o", out, "--format", "glb", "--report", tmp_path / "report.json", "--timeout", 60)
    assert result.returncode == 1, result.stderr
    files = report(tmp_path / "report.json")
    for name, codes in expected.items():
        entry = files[name.replace(".gltf", ".glb")]
        assert [(d["code"], d["pointer"]) for d in entry["diagnostics"] if d["severity"] == "error"] == codes, entry
        assert (out / name).with_suffix(".glb").is_file() == (not codes)
    (failure,) = files["models/short.glb"]["diagnostics"]
    assert failure["code"] == "CONVERT_IMPORT_FAILED" and "Traceback" not in failure["message"], failure
    assert "\n" not in failure["message"] and "buffer" in failure["message"], failure
    warned = [(d["code"], d["pointer"], d["severity"]) for d in files["models/no_image.glb"]["diagnostics"]]
    assert ("FILE_IMAGE_MISSING", "/images/0/uri", "warning") in warned
    assert written(out) == ["models/no_image.glb", "models/shared.glb"]
