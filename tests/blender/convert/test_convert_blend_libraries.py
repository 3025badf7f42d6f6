"""A ``.blend``'s linked libraries, read before Blender opens the file, and its stamps (issue 35), in real Blender.

Rules checked: ``blend_file`` reads the library paths of the files this Blender writes (plain, zstd, gzip; a
library's own libraries); a library that is a FIFO fails the file at once on every release, a library's library
too, through the worker and the command as well; without a zstd module Blender 5.2+ lists the paths itself and an
older one says the libraries were not checked before opening; ``--skip-existing`` stamps cover every file the
``.blend`` references: a changed image or library, or a missing image that now exists, converts it again. Every
input is built here with bpy in ``tmp_path``."""

from __future__ import annotations

import gzip
import os
import pathlib
import threading
import time

import bpy
import pytest
from convert_helpers import convert, report
from test_convert_hostile_read import _convert_blend, _job, _textured_box
from test_convert_resources import png

import devkit
from blenderkit import submodule
from scene_helpers import rigid_body_world, rigid_box

needs_fifo = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs are Unix")


@pytest.fixture
def blend_file(addon):
    return submodule(addon, "io.convert.blend_file")


def _fresh() -> None:
    bpy.ops.wm.read_homefile(use_factory_startup=True, use_empty=True)
    devkit.enable()


def _library(path: pathlib.Path, name: str, link_from: pathlib.Path | None = None) -> pathlib.Path:
    """``path``: a ``.blend`` with the rigid box ``name`` (when given, parented to ``Deep`` linked from
    ``link_from``: whoever links ``name`` needs ``link_from`` too)."""
    _fresh()
    path.parent.mkdir(parents=True, exist_ok=True)
    box = rigid_box(rigid_body_world(bpy.context.scene), name)
    bpy.ops.wm.save_as_mainfile(filepath=str(path))
    if link_from is not None:
        box.parent = _link(link_from, "Deep")
        bpy.ops.wm.save_as_mainfile(filepath=str(path))
    return path


def _link(library: pathlib.Path, name: str):
    with bpy.data.libraries.load(str(library), link=True, relative=True) as (_, data_to):
        data_to.objects = [name]
    bpy.context.scene.collection.objects.link(data_to.objects[0])
    return data_to.objects[0]


def _scene(
    folder: pathlib.Path, library: pathlib.Path, name: str, compress: bool = False, image: str = ""
) -> pathlib.Path:
    """``folder/scene.blend``: a rigid box, the object ``name`` linked from ``library`` and (when given) an image."""
    _fresh()
    rigid_box(rigid_body_world(bpy.context.scene), "Box")
    blend = folder / "scene.blend"
    bpy.ops.wm.save_as_mainfile(filepath=str(blend))  # saved first: // paths are relative to it
    _link(library, name)
    if image:
        _textured_box(image)
    bpy.ops.wm.save_as_mainfile(filepath=str(blend), compress=compress, relative_remap=False)
    bpy.ops.wm.read_homefile(use_factory_startup=True, use_empty=True)
    return blend


def _make_fifo(path: pathlib.Path) -> threading.Event:
    """Replace ``path`` by a FIFO. A writer opens it after a while (and closes it at once) so that a regression
    that opens it fails its test instead of hanging the session; the event is set once nobody needs it."""
    path.unlink()
    os.mkfifo(path)
    done = threading.Event()

    def unblock():
        if not done.wait(30):
            fd = os.open(path, os.O_WRONLY)
            os.close(fd)

    threading.Thread(target=unblock, daemon=True).start()
    return done


@pytest.mark.parametrize("compress", [False, True], ids=["plain", "zstd"])
def test_library_paths_are_read_from_the_files_this_blender_writes(blend_file, tmp_path, compress):
    folder = tmp_path / "in"
    deep = _library(folder / "sub" / "deep.blend", "Deep")
    lib = _library(folder / "lib.blend", "LinkedBox", link_from=deep)
    blend = _scene(folder, lib, "LinkedBox", compress=compress)
    assert (blend.read_bytes()[:4] == blend_file.ZSTD_MAGIC) == compress
    # the file names its direct library only: Blender finds deep.blend in lib.blend when it opens that
    assert [library.path for library in blend_file.library_paths(blend)] == ["//lib.blend"]
    assert [library.path for library in blend_file.library_paths(lib)] == ["//sub/deep.blend"]
    assert blend_file.library_paths(deep) == []


def test_library_paths_of_a_gzip_blend_as_older_blender_wrote_it(blend_file, tmp_path):
    folder = tmp_path / "in"
    lib = _library(folder / "lib.blend", "LinkedBox")
    blend = _scene(folder, lib, "LinkedBox")
    data = blend.read_bytes()  # saved with compress=False: the bytes Blender gzipped before 3.0
    assert data.startswith(b"BLENDER")
    zipped = folder / "zipped.blend"
    zipped.write_bytes(gzip.compress(data))
    assert [library.path for library in blend_file.library_paths(zipped)] == ["//lib.blend"]


def _fifo_library_scene(tmp_path: pathlib.Path, nested: bool) -> tuple[pathlib.Path, threading.Event]:
    """IN/scene.blend linking IN/lib.blend; ``nested``: the linked object needs IN/sub/deep.blend (only lib.blend
    names it). The FIFO replaces lib.blend, or deep.blend when ``nested``."""
    folder = tmp_path / "in"
    deep = _library(folder / "sub" / "deep.blend", "Deep")
    lib = _library(folder / "lib.blend", "LinkedBox")
    blend = _scene(folder, lib, "LinkedBox")
    if not nested:
        return blend, _make_fifo(lib)
    _library(lib, "LinkedBox", link_from=deep)
    bpy.ops.wm.read_homefile(use_factory_startup=True, use_empty=True)
    return blend, _make_fifo(deep)


@needs_fifo
@pytest.mark.parametrize("nested", [False, True], ids=["library", "library-of-library"])
def test_a_fifo_library_fails_the_file_at_once_before_blender_opens_it(one_file, tmp_path, nested):
    blend, done = _fifo_library_scene(tmp_path, nested)
    start = time.monotonic()
    try:
        result = _convert_blend(one_file, blend, tmp_path / "out")
    finally:
        done.set()
    assert time.monotonic() - start < 20, "the FIFO was opened"
    assert result["status"] == "failed", result
    errors = [d for d in result["diagnostics"] if d["severity"] == "error"]
    assert [d["code"] for d in errors] == ["FILE_RESOURCE_NOT_REGULAR"], result
    assert errors[0]["message"].startswith("library 'deep.blend'" if nested else "library 'lib.blend'")
    assert not (tmp_path / "out" / "scene.gltf").exists()


@needs_fifo
def test_convert_command_a_fifo_library_ends_promptly_with_the_resource_error(addon, tmp_path):
    """Through the command and its worker: the file fails long before ``--timeout`` with the resource rule's code,
    and the other file of the folder converts."""
    blend, done = _fifo_library_scene(tmp_path, nested=False)
    other = blend.parent / "other"
    _library(other / "ok.blend", "Fine")
    start = time.monotonic()
    try:
        result = convert(blend.parent, "-o", tmp_path / "out", "--report", tmp_path / "r.json", "--timeout", 120)
    finally:
        done.set()
    assert time.monotonic() - start < 100, "the worker waited for --timeout"
    assert result.returncode == 1, result.stderr
    files = report(tmp_path / "r.json")
    errors = [d for d in files["scene.blend"]["diagnostics"] if d["severity"] == "error"]
    assert [d["code"] for d in errors] == ["FILE_RESOURCE_NOT_REGULAR"], result.stderr
    assert "CONVERT_TIMEOUT" not in result.stderr
    assert [f["status"] for name, f in files.items() if name.startswith("other/")] == ["converted"]


def test_without_a_zstd_module_blender_lists_the_libraries_or_the_file_says_they_were_unchecked(
    one_file, blend_file, tmp_path, monkeypatch
):
    folder = tmp_path / "in"
    lib = _library(folder / "lib.blend", "LinkedBox")
    blend = _scene(folder, lib, "LinkedBox", compress=True)
    monkeypatch.setattr(blend_file, "ZSTD_READERS", ())
    with pytest.raises(blend_file.NoDecompressorError):
        blend_file.library_paths(blend)
    result = _convert_blend(one_file, blend, tmp_path / "out")
    codes = [d["code"] for d in result["diagnostics"]]
    if bpy.app.version >= (5, 2, 0):  # bpy.data.libraries.load lists them unopened
        assert "CONVERT_LIBRARIES_UNCHECKED" not in codes, result
    else:
        assert codes.count("CONVERT_LIBRARIES_UNCHECKED") == 1, result
        assert result["status"] == "warnings", result
    assert (tmp_path / "out" / "scene.gltf").is_file()


def test_stamps_of_a_blend_cover_its_images_and_libraries(one_file, addon, tmp_path):
    """``--skip-existing``'s stamp: a changed image, a changed library and a missing image that now exists each
    make the output out of date (``state.up_to_date`` on the stamp the worker wrote)."""
    folder = tmp_path / "in"
    lib = _library(folder / "lib.blend", "LinkedBox")
    (folder / "tex.png").write_bytes(png((1, 2, 3)))
    blend = _scene(folder, lib, "LinkedBox", image="//tex.png")
    _fresh()
    bpy.ops.wm.open_mainfile(filepath=str(blend), load_ui=False, use_scripts=False)
    extra = bpy.data.images.new("Later", 4, 4)
    extra.source = "FILE"
    extra.filepath = "//later.png"  # missing now
    extra.use_fake_user = True
    bpy.ops.wm.save_as_mainfile(filepath=str(blend), relative_remap=False)
    bpy.ops.wm.read_homefile(use_factory_startup=True, use_empty=True)
    stamps = submodule(addon, "io.convert.state")
    out = tmp_path / "out"
    stamp = out / "stamp.json"
    options = {"to": "2026", "validate": False}

    def converted() -> None:
        result = _convert_blend_stamped(one_file, blend, out, stamp)
        assert result["status"] in ("converted", "warnings"), result
        assert stamps.up_to_date(stamp, options, out / "scene.gltf")

    def touch(path: pathlib.Path, data: bytes | None = None) -> None:
        if data is not None:
            path.write_bytes(data)
        info = path.stat()
        os.utime(path, ns=(info.st_atime_ns, info.st_mtime_ns + 10**9))

    converted()
    touch(folder / "tex.png", png((4, 5, 6)))  # a changed image
    assert not stamps.up_to_date(stamp, options, out / "scene.gltf")
    converted()
    touch(lib)  # a changed library
    assert not stamps.up_to_date(stamp, options, out / "scene.gltf")
    converted()
    (folder / "later.png").write_bytes(png((7, 8, 9)))  # the missing image now exists
    assert not stamps.up_to_date(stamp, options, out / "scene.gltf")
    converted()
    assert stamps.up_to_date(stamp, options, out / "scene.gltf")


def _convert_blend_stamped(one_file, blend: pathlib.Path, out: pathlib.Path, stamp: pathlib.Path) -> dict:
    job = {**_job(blend, out / "scene.gltf", blend.parent), "stamp": str(stamp)}
    result = one_file.convert(job, devkit.enable)
    one_file.RESET.opened_blend()
    return result
