"""Hostile resource URIs and interrupted writes (issue 11, items 1 and 2): ``io.gltf.files.save`` and the
reusable helpers of ``io.gltf.safe_files`` (``safe_resource``, ``atomic_write_bytes``).

Every fixture is built in ``tmp_path``; the layout is ``tmp/secret.txt`` (must never be copied),
``tmp/in/a.gltf`` (input) and ``tmp/out/a.gltf`` (output)."""

from __future__ import annotations

import json
import os
import pathlib
import re
import sys

import pytest

from testkit import ROOT, submodule

files = submodule("io.gltf.files")
diagnostics = submodule("io.diagnostics")
Severity = diagnostics.Severity

SECRET = b"TOP SECRET"


@pytest.fixture(autouse=True)
def _bounded_file_size():
    """Cap file writes at 16 MiB (EFBIG instead of SIGXFSZ) so that a regression copying ``/dev/zero`` fails the
    test instead of filling the disk (it did, before the fix)."""
    try:
        import resource
        import signal
    except ImportError:  # not Unix
        yield
        return
    soft, hard = resource.getrlimit(resource.RLIMIT_FSIZE)
    cap = 16 << 20 if hard == resource.RLIM_INFINITY else min(hard, 16 << 20)
    previous = signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    resource.setrlimit(resource.RLIMIT_FSIZE, (cap, hard))
    try:
        yield
    finally:
        resource.setrlimit(resource.RLIMIT_FSIZE, (soft, hard))
        signal.signal(signal.SIGXFSZ, previous)


def _layout(tmp_path, uris, images=(), name="a"):
    """tmp/secret.txt, tmp/in/a.gltf referencing ``uris`` (buffers) and ``images``; returns (gltf_path, out_path)."""
    (tmp_path / "secret.txt").write_bytes(SECRET)
    src = tmp_path / "in"
    src.mkdir(exist_ok=True)
    doc = {
        "asset": {"version": "2.0"},
        "nodes": [{"name": name}],
        "buffers": [{"uri": uri, "byteLength": 4} for uri in uris],
        "images": [{"uri": uri} for uri in images],
    }
    path = src / "a.gltf"
    path.write_text(json.dumps(doc), encoding="utf-8")
    return path, tmp_path / "out" / "a.gltf"


def _save(path, out):
    source = files.load(path)
    return files.save(source, source.json, out)


def _all_files(root: pathlib.Path) -> set[pathlib.Path]:
    return {p for p in root.rglob("*") if p.is_file() or p.is_symlink()}


def _errors(diags, code=None):
    return [d for d in diags if d.severity >= Severity.ERROR and (code is None or d.code == code)]


# --- item 1: path traversal -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "uri",
    ["../secret.txt", "%2e%2e/secret.txt", "..%2fsecret.txt", "%2E%2E%2Fsecret.txt", "sub/../../secret.txt"],
)
def test_save_refuses_uri_outside_the_input_folder(tmp_path, uri):
    path, out = _layout(tmp_path, ["ok.bin", uri])
    (path.parent / "ok.bin").write_bytes(b"1234")
    before = _all_files(tmp_path)
    diags = _save(path, out)
    refused = _errors(diags, "FILE_RESOURCE_OUTSIDE")
    assert [d.pointer for d in refused] == ["/buffers/1/uri"], diags
    assert _all_files(tmp_path) == before, "nothing is written when a resource is refused"
    assert not (tmp_path / "out").exists() or not any((tmp_path / "out").iterdir())


@pytest.mark.parametrize("kind", ["absolute", "absolute-quoted", "dev-zero", "proc-environ"])
def test_save_refuses_absolute_uris(tmp_path, kind):
    target = {
        "absolute": str(tmp_path / "secret.txt"),
        "absolute-quoted": str(tmp_path / "secret.txt").replace("/", "%2F"),
        "dev-zero": "/dev/zero",
        "proc-environ": "/proc/self/environ",
    }[kind]
    path, out = _layout(tmp_path, [], images=[target])
    diags = _save(path, out)
    assert [d.pointer for d in _errors(diags)] == ["/images/0/uri"], diags
    assert _errors(diags)[0].code in {"FILE_RESOURCE_OUTSIDE", "FILE_RESOURCE_NOT_REGULAR"}
    assert not out.exists()
    assert {p.name for p in _all_files(tmp_path)} == {"secret.txt", "a.gltf"}


@pytest.mark.skipif(not hasattr(os, "symlink") or sys.platform == "win32", reason="symlinks unsupported")
@pytest.mark.parametrize("link_to", ["secret", "dev-zero", "outside-dir"])
def test_save_refuses_symlink_leaving_the_input_folder(tmp_path, link_to):
    uri = "link.bin" if link_to != "outside-dir" else "dir/secret.txt"
    path, out = _layout(tmp_path, [uri])
    target = {"secret": tmp_path / "secret.txt", "dev-zero": pathlib.Path("/dev/zero"), "outside-dir": tmp_path}
    os.symlink(target[link_to], path.parent / uri.split("/")[0])
    diags = _save(path, out)
    assert [(d.code, d.pointer) for d in _errors(diags)] == [("FILE_RESOURCE_OUTSIDE", "/buffers/0/uri")], diags
    assert not (tmp_path / "out").exists() or not any((tmp_path / "out").rglob("*"))


@pytest.mark.parametrize("kind", ["folder", "fifo"])
def test_save_refuses_non_regular_files_without_blocking(tmp_path, kind):
    path, out = _layout(tmp_path, ["thing"])
    if kind == "folder":
        (path.parent / "thing").mkdir()
    else:
        if not hasattr(os, "mkfifo"):
            pytest.skip("no FIFOs here")
        os.mkfifo(path.parent / "thing")
    diags = _save(path, out)
    assert [(d.code, d.pointer) for d in _errors(diags)] == [("FILE_RESOURCE_NOT_REGULAR", "/buffers/0/uri")], diags
    assert not out.exists()


def test_save_reports_missing_resource_as_error_and_still_writes(tmp_path):
    """A missing resource is the input's own defect: reported as an ERROR, the output is written as the input is."""
    path, out = _layout(tmp_path, ["missing.bin", "ok.bin"])
    (path.parent / "ok.bin").write_bytes(b"ok")
    diags = _save(path, out)
    assert [(d.code, d.pointer) for d in _errors(diags)] == [("FILE_RESOURCE_MISSING", "/buffers/0/uri")], diags
    assert files.load(out).json == files.load(path).json
    assert (out.parent / "ok.bin").read_bytes() == b"ok"


def test_save_checks_resources_even_in_the_same_folder(tmp_path):
    path, _ = _layout(tmp_path, ["../secret.txt"])
    diags = _save(path, path.parent / "b.gltf")
    assert [d.code for d in _errors(diags)] == ["FILE_RESOURCE_OUTSIDE"]
    assert not (path.parent / "b.gltf").exists()


def test_save_copies_legitimate_resources(tmp_path):
    path, out = _layout(tmp_path, ["sub/a%20b.bin", "sub/../c.bin"], images=["data:image/png;base64,AAAA"])
    (path.parent / "sub").mkdir()
    (path.parent / "sub" / "a b.bin").write_bytes(b"ab")
    (path.parent / "c.bin").write_bytes(b"c")
    assert not _errors(_save(path, out))
    assert (out.parent / "sub" / "a b.bin").read_bytes() == b"ab"
    assert (out.parent / "c.bin").read_bytes() == b"c"
    assert files.load(out).json == files.load(path).json


# --- item 2: stale resources, atomic writes, lone surrogates ----------------------------------------------------


def test_save_replaces_a_stale_resource_in_the_output_folder(tmp_path):
    path, out = _layout(tmp_path, ["data.bin"])
    (path.parent / "data.bin").write_bytes(b"new!")  # its byteLength: 4
    out.parent.mkdir()
    (out.parent / "data.bin").write_bytes(b"stale!")
    diags = _save(path, out)
    assert (out.parent / "data.bin").read_bytes() == b"new!"
    assert [(d.code, d.pointer) for d in diags] == [("FILE_RESOURCE_REPLACED", "/buffers/0/uri")]
    assert not _errors(diags)
    assert _save(path, out) == [], "an identical resource is left alone, silently"


def test_save_lone_surrogate_is_written_escaped_and_reads_back(tmp_path):
    path, out = _layout(tmp_path, [], name="\ud800")
    out.parent.mkdir()
    out.write_bytes(b"previous")
    assert _save(path, out) == []
    data = out.read_bytes()
    assert data.decode("utf-8")  # valid UTF-8
    assert b"\\ud800" in data
    assert files.load(out).json["nodes"][0]["name"] == "\ud800"


def test_glb_lone_surrogate_is_written_escaped(tmp_path):
    doc = {"asset": {"version": "2.0"}, "nodes": [{"name": "x\udfffy"}]}
    data = files.encode_glb(doc, [])
    out = tmp_path / "s.glb"
    out.write_bytes(data)
    assert files.load(out).json == doc


def test_save_failure_leaves_previous_output_and_no_temp_file(tmp_path, monkeypatch):
    path, out = _layout(tmp_path, [])
    out.parent.mkdir()
    out.write_bytes(b"previous")

    def fail(*args, **kwargs):
        raise OSError("disk full")

    monkeypatch.setattr(os, "replace", fail)
    with pytest.raises(diagnostics.PhysicsDataError) as info:
        _save(path, out)
    assert info.value.diagnostic.code == "FILE_UNWRITABLE"
    assert out.read_bytes() == b"previous"
    assert sorted(p.name for p in out.parent.iterdir()) == ["a.gltf"]


def test_save_unencodable_document_fails_cleanly_before_writing(tmp_path):
    path, out = _layout(tmp_path, [])
    out.parent.mkdir()
    out.write_bytes(b"previous")
    source = files.load(path)
    with pytest.raises(diagnostics.PhysicsDataError):
        files.save(source, {"bad": {1, 2}}, out)  # a set is not JSON
    assert out.read_bytes() == b"previous"
    assert sorted(p.name for p in out.parent.iterdir()) == ["a.gltf"]


# --- the reusable helpers ---------------------------------------------------------------------------------------


def test_safe_resource_returns_a_path_or_a_diagnostic(tmp_path):
    resources = submodule("io.gltf.safe_files")
    (tmp_path / "in").mkdir()
    (tmp_path / "in" / "a.bin").write_bytes(b"a")
    (tmp_path / "secret.txt").write_bytes(SECRET)
    found = resources.safe_resource(tmp_path / "in", "a.bin", "/buffers/0/uri")
    assert found == (tmp_path / "in" / "a.bin").resolve()
    for uri, code in [
        ("../secret.txt", "FILE_RESOURCE_OUTSIDE"),
        ("%2e%2e%2fsecret.txt", "FILE_RESOURCE_OUTSIDE"),
        ("/etc/passwd", "FILE_RESOURCE_OUTSIDE"),
        (".", "FILE_RESOURCE_NOT_REGULAR"),
        ("nope.bin", "FILE_RESOURCE_MISSING"),
        ("a%00.bin", "FILE_RESOURCE_MISSING"),
    ]:
        diag = resources.safe_resource(tmp_path / "in", uri, "/images/3/uri")
        assert isinstance(diag, diagnostics.Diagnostic), uri
        assert (diag.code, diag.pointer, diag.severity) == (code, "/images/3/uri", Severity.ERROR), uri


def test_atomic_write_bytes_replaces_and_cleans_up(tmp_path, monkeypatch):
    resources = submodule("io.gltf.atomic")
    target = tmp_path / "f.bin"
    resources.atomic_write_bytes(target, b"one")
    assert target.read_bytes() == b"one"
    resources.atomic_write_bytes(target, b"two")
    assert target.read_bytes() == b"two"

    def fail(*args, **kwargs):
        raise KeyboardInterrupt  # a kill-like interruption between write and rename

    monkeypatch.setattr(os, "replace", fail)
    with pytest.raises(KeyboardInterrupt):
        resources.atomic_write_bytes(target, b"three")
    assert target.read_bytes() == b"two"
    assert [p.name for p in tmp_path.iterdir()] == ["f.bin"]


def test_atomic_write_bytes_keeps_umask_permissions(tmp_path):
    resources = submodule("io.gltf.atomic")
    target = tmp_path / "f.bin"
    resources.atomic_write_bytes(target, b"x")
    umask = os.umask(0)
    os.umask(umask)
    assert target.stat().st_mode & 0o777 == 0o666 & ~umask


def test_every_file_code_is_documented():
    """The container codes are not in the validator's CODES table: check them against docs/diagnostics.md here."""
    source = "".join(
        (ROOT / "io" / "gltf" / name).read_text(encoding="utf-8") for name in ("files.py", "safe_files.py")
    )
    used = set(re.findall(r'"((?:FILE|GLB)_[A-Z_]+)"', source))
    assert {"FILE_RESOURCE_OUTSIDE", "FILE_RESOURCE_NOT_REGULAR", "FILE_UNWRITABLE"} <= used
    text = (ROOT / "docs" / "diagnostics.md").read_text(encoding="utf-8")
    rows = {line.split("|")[1].strip().strip("`"): line for line in text.splitlines() if line.startswith("| `")}
    for code in sorted(used):
        assert code in rows, code
    assert "| WARNING |" in rows["FILE_RESOURCE_REPLACED"]


@pytest.mark.skipif(not hasattr(os, "symlink") or sys.platform == "win32", reason="symlinks unsupported")
def test_save_never_writes_through_a_symlink_in_the_output_folder(tmp_path):
    path, out = _layout(tmp_path, ["sub/a.bin"])
    (path.parent / "sub").mkdir()
    (path.parent / "sub" / "a.bin").write_bytes(b"a")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    out.parent.mkdir()
    os.symlink(elsewhere, out.parent / "sub")
    diags = _save(path, out)
    assert [(d.code, d.pointer) for d in _errors(diags)] == [("FILE_RESOURCE_OUTSIDE", "/buffers/0/uri")], diags
    assert not any(elsewhere.iterdir())
    assert not out.exists()


def test_save_refuses_a_resource_that_would_overwrite_the_output(tmp_path):
    path, _ = _layout(tmp_path, ["b.gltf"])
    resource = path.parent / "b.gltf"
    resource.write_bytes(b"bin!")  # its byteLength: 4
    diags = _save(path, resource)  # same folder: OUT is the input's resource
    assert [(d.code, d.pointer) for d in _errors(diags)] == [("FILE_RESOURCE_NOT_COPIED", "/buffers/0/uri")]
    assert resource.read_bytes() == b"bin!"


def test_safe_resource_with_a_root_allows_its_folders_and_nothing_beyond(tmp_path):
    root = tmp_path / "library"
    (root / "models").mkdir(parents=True)
    (root / "shared").mkdir()
    (root / "shared" / "a.bin").write_bytes(b"a")
    (tmp_path / "secret.bin").write_bytes(SECRET)
    safe = submodule("io.gltf.safe_files").safe_resource
    models = root / "models"
    assert safe(models, "../shared/a.bin", "/buffers/0/uri", root) == (root / "shared" / "a.bin").resolve()
    assert safe(models, "../shared/a.bin", "/buffers/0/uri").code == "FILE_RESOURCE_OUTSIDE"  # no root: own folder
    for uri in ("../../secret.bin", "%2e%2e/%2e%2e/secret.bin", str(tmp_path / "secret.bin"), "/dev/zero"):
        found = safe(models, uri, "/buffers/0/uri", root)
        assert (found.code, found.pointer) == ("FILE_RESOURCE_OUTSIDE", "/buffers/0/uri"), uri
    if hasattr(os, "symlink") and sys.platform != "win32":
        os.symlink(tmp_path / "secret.bin", root / "shared" / "link.bin")
        assert safe(models, "../shared/link.bin", "/buffers/0/uri", root).code == "FILE_RESOURCE_OUTSIDE"
