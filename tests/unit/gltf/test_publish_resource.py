"""``io.gltf.safe_files.publish_resource``: a batch's outputs share a folder, so a resource is never written over a
different file of its name (another output's); it gets a content-hashed name instead, and never lands outside."""

from __future__ import annotations

import hashlib
import os
import sys

import pytest

from testkit import submodule

safe_files = submodule("io.gltf.safe_files")


def _source(tmp_path, data: bytes, name: str = "T.png"):
    folder = tmp_path / "staged"
    folder.mkdir(exist_ok=True)
    (folder / name).write_bytes(data)
    return folder / name


def test_a_new_name_is_written_and_reported_as_created(tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    uri, diag, created = safe_files.publish_resource(_source(tmp_path, b"red"), out, "T.png", "/images/0/uri")
    assert (uri, diag, created) == ("T.png", None, True)
    assert (out / "T.png").read_bytes() == b"red"
    assert sorted(p.name for p in out.iterdir()) == ["T.png"]  # no temporary file left


def test_an_identical_file_is_kept(tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    (out / "T.png").write_bytes(b"red")
    published = safe_files.publish_resource(_source(tmp_path, b"red"), out, "T.png", "/images/0/uri")
    assert published == ("T.png", None, False)


def test_a_different_file_keeps_its_bytes_and_the_resource_gets_a_hashed_name(tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    (out / "My%20T.png").write_bytes(b"not this one")  # a file literally named so: the URI decodes to "My T.png"
    (out / "My T.png").write_bytes(b"red")
    source = _source(tmp_path, b"blue")
    uri, diag, created = safe_files.publish_resource(source, out, "My%20T.png", "/images/3/uri")
    digest = hashlib.sha256(b"blue").hexdigest()[:12]
    assert uri == f"My%20T-{digest}.png" and created
    assert (diag.code, diag.severity.name, diag.pointer) == ("FILE_RESOURCE_RENAMED", "INFO", "/images/3/uri")
    assert (out / "My T.png").read_bytes() == b"red"
    assert (out / f"My T-{digest}.png").read_bytes() == b"blue"
    again = safe_files.publish_resource(source, out, "My%20T.png", "/images/3/uri")  # a re-run reuses it
    assert again[0] == uri and again[1].code == "FILE_RESOURCE_RENAMED" and not again[2]


def test_both_names_taken_by_different_files_is_an_error_and_writes_nothing(tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    digest = hashlib.sha256(b"blue").hexdigest()[:12]
    (out / "T.png").write_bytes(b"red")
    (out / f"T-{digest}.png").write_bytes(b"green")
    uri, diag, created = safe_files.publish_resource(_source(tmp_path, b"blue"), out, "T.png", "/images/0/uri")
    assert (uri, diag.code, diag.severity.name, created) == ("T.png", "FILE_RESOURCE_NOT_COPIED", "ERROR", False)
    assert sorted(p.name for p in out.iterdir()) == sorted(["T.png", f"T-{digest}.png"])


@pytest.mark.parametrize("uri", ["../T.png", "%2e%2e/T.png", "/abs/T.png"])
def test_a_uri_leaving_the_output_folder_is_refused(tmp_path, uri):
    out = tmp_path / "out"
    out.mkdir()
    got, diag, created = safe_files.publish_resource(_source(tmp_path, b"red"), out, uri, "/images/0/uri")
    assert (got, diag.code, created) == (uri, "FILE_RESOURCE_OUTSIDE", False)
    assert not (tmp_path / "T.png").exists() and not any(out.iterdir())


@pytest.mark.skipif(not hasattr(os, "symlink") or sys.platform == "win32", reason="symlinks unsupported")
def test_a_symlink_holding_the_name_is_never_written_through(tmp_path):
    out, elsewhere = tmp_path / "out", tmp_path / "elsewhere"
    out.mkdir()
    elsewhere.mkdir()
    (elsewhere / "victim.png").write_bytes(b"victim")
    os.symlink(elsewhere / "victim.png", out / "T.png")
    uri, diag, _ = safe_files.publish_resource(_source(tmp_path, b"blue"), out, "T.png", "/images/0/uri")
    assert uri != "T.png" and diag.code == "FILE_RESOURCE_RENAMED"
    assert (elsewhere / "victim.png").read_bytes() == b"victim"
    assert list(elsewhere.iterdir()) == [elsewhere / "victim.png"]


def test_hashed_names_keep_the_folder_and_the_extension():
    assert safe_files._hashed("a/b/T.png", "abc") == "a/b/T-abc.png"
    assert safe_files._hashed("T", "abc") == "T-abc"
    assert safe_files._hashed(".png", "abc") == ".png-abc"
    long = safe_files._hashed("x" * 250 + ".bin", "0123456789ab")  # cut to fit the 255-byte name limit
    assert long == "x" * 238 + "-0123456789ab.bin" and len(long) == 255
