"""Hostile resources, the read side (issue 35, item 1): one rule for every URI, bounded reads, regular files only.

Rules checked: every URI io_scene_gltf2 opens as a path (all but ``data:…;base64,``, so ``x://../a`` and
``data:../a`` too) goes through ``safe_resource`` and is refused when it leaves the input's folder; a buffer file
longer than its padded ``byteLength`` is refused before anything reads it (``FILE_RESOURCE_OVERSIZED``), in
``save`` (migrate) as in the mesh reader; our loader reads regular files only (a FIFO or a symlink to
``/dev/zero`` named ``*.gltf`` is one clear diagnostic, at once); a memory error is never called "missing".
Every input is written here in ``tmp_path``: ``tmp/secret.*`` must never be read or copied."""

from __future__ import annotations

import base64
import json
import os
import pathlib
import signal
import subprocess
import sys

import pytest

from testkit import ROOT, submodule

files = submodule("io.gltf.files")
safe_files = submodule("io.gltf.safe_files")
accessors = submodule("io.gltf.accessors")
Severity = submodule("io.diagnostics").Severity

LAUNCHER = ROOT / "bin" / "gltf-physics"
SECRET = b"TOP SECRET!!"
UNIX = sys.platform != "win32"


@pytest.fixture(autouse=True)
def _no_hang():
    """Fail instead of hanging when a FIFO is opened for reading (the bug this file guards against)."""
    if not hasattr(signal, "SIGALRM"):
        yield
        return

    def _hung(*_):
        raise TimeoutError("a FIFO or device was opened: the read blocked")

    previous = signal.signal(signal.SIGALRM, _hung)
    signal.alarm(30)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


def _gltf(tmp_path: pathlib.Path, buffers=(), images=(), name="a.gltf") -> pathlib.Path:
    (tmp_path / "secret.bin").write_bytes(SECRET)
    (tmp_path / "secret.png").write_bytes(SECRET)
    folder = tmp_path / "in" / "deep" / "er"
    folder.mkdir(parents=True, exist_ok=True)
    doc = {
        "asset": {"version": "2.0"},
        "nodes": [{"name": "n"}],
        "buffers": [{"uri": uri, "byteLength": length} for uri, length in buffers],
        "images": [{"uri": uri} for uri in images],
    }
    path = folder / name
    path.write_text(json.dumps(doc), encoding="utf-8")
    return path


def _errors(diags):
    return [(d.code, d.pointer) for d in diags if d.severity >= Severity.ERROR]


def _written(root: pathlib.Path) -> list[pathlib.Path]:
    return [p for p in root.rglob("*") if p.is_file()] if root.exists() else []


@pytest.mark.parametrize(
    ("uri", "blender_opens"),
    [
        ("x://../../../../secret.png", "../../../secret.png"),
        ("data:../../../../secret.bin", "../../secret.bin"),
        ("data:,../../../secret.bin", "../secret.bin"),
        ("https:/../../../../secret.png", "../../../secret.png"),
        ("..\\..\\..\\secret.png", "../../../secret.png"),
    ],
)
def test_urls_and_data_without_base64_are_paths_for_blender_and_refused(tmp_path, uri, blender_opens):
    assert safe_files.blender_relative(uri) == blender_opens
    path = _gltf(tmp_path, images=[uri])
    assert files.resource_uris(files.load(path).json) == [("/images/0/uri", uri)]
    out = tmp_path / "out" / "a.gltf"
    diags = files.save(files.load(path), files.load(path).json, out)
    assert _errors(diags) == [("FILE_RESOURCE_OUTSIDE", "/images/0/uri")], diags
    assert _written(tmp_path / "out") == [], "nothing written, the secret least of all"


def test_embedded_base64_is_the_only_uri_never_treated_as_a_file(tmp_path):
    embedded = "data:application/octet-stream;base64," + base64.b64encode(b"abcd").decode()
    path = _gltf(tmp_path, buffers=[(embedded, 4)], images=["data:image/png;base64,AAAA"])
    assert files.resource_uris(files.load(path).json) == []
    out = tmp_path / "out" / "a.gltf"
    assert files.save(files.load(path), files.load(path).json, out) == []
    assert files.load(out).json == files.load(path).json


def test_a_url_inside_the_folder_is_checked_like_any_path(tmp_path):
    """``https://host/a.png`` is a file ``https:/host/a.png`` for io_scene_gltf2: missing here, reported."""
    path = _gltf(tmp_path, images=["https://example.com/a.png"])
    diags = files.save(files.load(path), files.load(path).json, tmp_path / "out" / "a.gltf")
    assert _errors(diags) == [("FILE_RESOURCE_MISSING", "/images/0/uri")]


def test_sparse_buffer_file_far_longer_than_its_byte_length_is_refused_unread(tmp_path):
    path = _gltf(tmp_path, buffers=[("big.bin", 168)])
    big = path.parent / "big.bin"
    with open(big, "wb") as file:
        file.truncate(2 << 30)  # 2 GB apparent, nothing on disk
    out = tmp_path / "out" / "a.gltf"
    diags = files.save(files.load(path), files.load(path).json, out)
    assert _errors(diags) == [("FILE_RESOURCE_OVERSIZED", "/buffers/0/uri")]
    assert "2147483648 bytes" in diags[0].message and "168" in diags[0].message
    assert _written(tmp_path / "out") == [], "migrate copies nothing (it copied the full apparent size)"


def test_buffer_padding_to_four_bytes_is_allowed(tmp_path):
    path = _gltf(tmp_path, buffers=[("pad.bin", 5)])
    (path.parent / "pad.bin").write_bytes(b"12345\0\0\0")
    out = tmp_path / "out" / "a.gltf"
    assert files.save(files.load(path), files.load(path).json, out) == []
    assert (out.parent / "pad.bin").read_bytes() == b"12345\0\0\0"


def test_mesh_reader_reads_a_buffer_no_further_than_its_byte_length(tmp_path):
    path = _gltf(tmp_path, buffers=[("big.bin", 12)])
    with open(path.parent / "big.bin", "wb") as file:
        file.write(b"\0" * 12)
        file.truncate(8 << 30)
    with pytest.raises(accessors.MeshReadError, match="FILE_RESOURCE_OVERSIZED|more than the 12"):
        accessors._Buffers(path).get(0)
    (path.parent / "ok.bin").write_bytes(b"x" * 12)
    document = json.loads(path.read_text())
    document["buffers"][0]["uri"] = "ok.bin"
    path.write_text(json.dumps(document))
    assert accessors._Buffers(path).get(0) == b"x" * 12


def test_read_regular_is_bounded_and_refuses_what_is_not_a_file(tmp_path):
    data = tmp_path / "d.bin"
    data.write_bytes(b"0123456789")
    assert safe_files.read_regular(data, 4) == b"0123"
    assert safe_files.read_regular(data) == b"0123456789"
    with pytest.raises(safe_files.ResourceReadError, match="not a regular file"):
        safe_files.read_regular(tmp_path)
    if UNIX:
        with pytest.raises(safe_files.ResourceReadError, match="not a regular file"):
            safe_files.read_regular("/dev/zero")
    with pytest.raises(safe_files.ResourceReadError, match="No such file"):
        safe_files.read_regular(tmp_path / "missing")


def test_memory_error_is_reported_as_too_large_never_as_missing(tmp_path, monkeypatch):
    data = tmp_path / "d.bin"
    data.write_bytes(b"0123")

    class _Full:
        def __init__(self, real):
            self.real = real

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            self.real.close()

        def fileno(self):
            return self.real.fileno()

        def read(self, size):
            raise MemoryError

    real_fdopen = os.fdopen
    monkeypatch.setattr(safe_files.os, "fdopen", lambda fd, mode: _Full(real_fdopen(fd, mode)))
    with pytest.raises(safe_files.ResourceReadError, match="do not fit in memory"):
        safe_files.read_regular(data)


@pytest.mark.skipif(not UNIX or not hasattr(os, "mkfifo"), reason="FIFOs and /dev/zero are Unix")
@pytest.mark.parametrize("kind", ["fifo", "dev-zero"])
def test_loader_refuses_a_fifo_or_device_named_gltf_at_once(tmp_path, kind):
    path = tmp_path / "x.gltf"
    if kind == "fifo":
        os.mkfifo(path)
    else:
        os.symlink("/dev/zero", path)
    with pytest.raises(submodule("io.diagnostics").PhysicsDataError) as caught:
        files.load(path)
    assert caught.value.diagnostic.code == "FILE_UNREADABLE"
    assert "not a regular file" in caught.value.diagnostic.message


@pytest.mark.skipif(not UNIX or not hasattr(os, "mkfifo"), reason="FIFOs and /dev/zero are Unix")
def test_validate_on_a_fifo_and_dev_zero_exits_2_without_traceback(tmp_path):
    os.mkfifo(tmp_path / "fifo.gltf")
    os.symlink("/dev/zero", tmp_path / "zero.gltf")
    good = _gltf(tmp_path)
    run = subprocess.run(
        [str(LAUNCHER), "validate", tmp_path / "fifo.gltf", tmp_path / "zero.gltf", good],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert run.returncode == 2, run.stderr
    assert "Traceback" not in run.stdout + run.stderr
    assert run.stdout.count("not a regular file") == 2, run.stdout
    assert f"{good}: ok" in run.stdout, "the other files of the run are still reported"


@pytest.mark.parametrize("uri", ["data:../../../../secret.bin", "x://../../../../../secret.bin"])
def test_migrate_refuses_a_uri_blender_reads_as_a_path_outside_in(tmp_path, uri):
    path = _gltf(tmp_path, buffers=[(uri, len(SECRET))])
    out = tmp_path / "out" / "a.gltf"
    run = subprocess.run(
        [str(LAUNCHER), "migrate", path, out, "--to", "2026"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert run.returncode == 1, run.stderr
    assert "FILE_RESOURCE_OUTSIDE" in run.stderr and "Traceback" not in run.stderr
    assert _written(tmp_path / "out") == []
