"""The Khronos glTF-Validator harness (``tests/khronos.py``, issue 11 item 12): a written file with an error fails
the run, an error its source already has does not; skipped cleanly without Node or the npm package."""

from __future__ import annotations

import json

import khronos
import pytest


@pytest.fixture
def isolated():
    """Run ``finish`` on this test's entries only (the session's own registrations are kept for its end)."""
    saved = list(khronos.PENDING)
    khronos.PENDING[:] = []
    yield
    khronos.PENDING[:] = saved


def _gltf(tmp_path, name: str, rotation) -> object:
    path = tmp_path / name
    doc = {"asset": {"version": "2.0"}, "scenes": [{"nodes": [0]}], "nodes": [{"rotation": rotation}]}
    path.write_text(json.dumps(doc))
    return path


def _need_validator():
    reason = khronos.available()
    if reason is not None:
        pytest.skip(reason)


def test_a_written_file_with_an_error_fails_the_run(tmp_path, isolated):
    _need_validator()
    khronos.check(_gltf(tmp_path, "good.gltf", [0, 0, 0, 1]))
    khronos.check(_gltf(tmp_path, "bad.gltf", [0, 0, 0, 2]))
    lines, failed = khronos.finish()
    assert failed
    assert lines[0].startswith("Khronos glTF-Validator: 2 written files, 1 with errors (")
    assert any("bad.gltf" in line for line in lines) and not any("good.gltf" in line for line in lines)
    assert any("VALUE_NOT_IN_RANGE at /nodes/0/rotation/3" in line for line in lines), lines


def test_an_error_the_source_already_has_does_not_count(tmp_path, isolated):
    _need_validator()
    source = _gltf(tmp_path, "source.gltf", [0, 0, 0, 2])
    khronos.check_json(json.loads(source.read_text()), source)
    lines, failed = khronos.finish()
    assert not failed, lines
    assert len(lines) == 1 and lines[0].startswith("Khronos glTF-Validator: 1 written files, 0 with errors (")


def test_without_node_the_check_is_skipped_with_one_line(tmp_path, isolated, monkeypatch):
    monkeypatch.setattr(khronos.shutil, "which", lambda name: None)
    khronos.check(_gltf(tmp_path, "bad.gltf", [0, 0, 0, 2]))
    lines, failed = khronos.finish()
    assert not failed and len(lines) == 1 and "skipped (node is not on PATH)" in lines[0]
