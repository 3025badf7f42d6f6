"""``gltf-physics migrate`` with hostile paths (issue 11, items 1, 2 and 8), through the real launcher.

Rules checked: a resource URI leaving IN's folder or naming a non-regular file is refused with its JSON pointer and
exit code 1, and nothing is written; OUT == IN (any spelling, symlink, hard link) is refused with exit code 2 and
IN untouched; a lone surrogate in a name never gives a traceback or a 0-byte file; exit codes are 0 clean,
1 input with errors, 2 usage or unreadable input."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from testkit import ROOT, fixture

LAUNCHER = ROOT / "bin" / "gltf-physics"
RAW_SURROGATE_DOC = '{"asset": {"version": "2.0"}, "nodes": [{"name": "\\ud800"}]}'


def run(*args):
    return subprocess.run([str(LAUNCHER), *map(str, args)], capture_output=True, text=True, timeout=120)


def _gltf(path, text=None, uris=()):
    path.parent.mkdir(parents=True, exist_ok=True)
    doc = {"asset": {"version": "2.0"}, "nodes": [{"name": "n"}], "buffers": [{"uri": u} for u in uris]}
    path.write_text(text if text is not None else json.dumps(doc), encoding="utf-8")
    return path


def test_migrate_refuses_path_traversal_and_copies_nothing(tmp_path):
    (tmp_path / "secret.txt").write_text("TOP SECRET", encoding="utf-8")
    source = _gltf(tmp_path / "a" / "b" / "in.gltf", uris=["../../secret.txt"])
    out = tmp_path / "x" / "y" / "z" / "out.gltf"
    result = run("migrate", source, out, "--to", "2026")
    assert result.returncode == 1, result.stderr
    assert "FILE_RESOURCE_OUTSIDE at /buffers/0/uri" in result.stderr
    assert "Traceback" not in result.stderr
    assert not (tmp_path / "x" / "secret.txt").exists()
    assert not out.exists()


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_migrate_refuses_a_fifo_without_hanging(tmp_path):
    source = _gltf(tmp_path / "in" / "a.gltf", uris=["pipe.bin"])
    os.mkfifo(source.parent / "pipe.bin")
    result = run("migrate", source, tmp_path / "out" / "a.gltf", "--to", "omi")
    assert result.returncode == 1
    assert "FILE_RESOURCE_NOT_REGULAR at /buffers/0/uri" in result.stderr


@pytest.mark.parametrize("spelling", ["same", "dotted", "symlink", "hardlink"])
def test_migrate_refuses_output_equal_to_input(tmp_path, spelling):
    source = _gltf(tmp_path / "in" / "a.gltf", text=RAW_SURROGATE_DOC)
    before = source.read_bytes()
    if spelling == "same":
        out = source
    elif spelling == "dotted":
        out = tmp_path / "in" / "." / ".." / "in" / "a.gltf"
    elif spelling == "symlink":
        if not hasattr(os, "symlink") or sys.platform == "win32":
            pytest.skip("symlinks unsupported")
        out = tmp_path / "link.gltf"
        os.symlink(source, out)
    else:
        out = tmp_path / "hard.gltf"
        try:
            os.link(source, out)
        except OSError:
            pytest.skip("hard links unsupported")
    result = run("migrate", source, out, "--to", "2026")
    assert result.returncode == 2, result.stderr
    assert "same file" in result.stderr and "Traceback" not in result.stderr
    assert source.read_bytes() == before


def test_migrate_lone_surrogate_writes_valid_output(tmp_path):
    source = _gltf(tmp_path / "in" / "a.gltf", text=RAW_SURROGATE_DOC)
    out = tmp_path / "out" / "a.gltf"
    out.parent.mkdir()
    out.write_text("previous", encoding="utf-8")
    result = run("migrate", source, out, "--to", "2026")
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr
    data = out.read_bytes()
    assert json.loads(data.decode("utf-8"))["nodes"][0]["name"] == "\ud800"
    assert sorted(p.name for p in out.parent.iterdir()) == ["a.gltf"]


def test_migrate_missing_resource_is_written_but_exits_1(tmp_path):
    source = _gltf(tmp_path / "in" / "a.gltf", uris=["gone.bin"])
    out = tmp_path / "out" / "a.gltf"
    result = run("migrate", source, out, "--to", "2026")
    assert result.returncode == 1, result.stderr
    assert "FILE_RESOURCE_MISSING at /buffers/0/uri" in result.stderr
    assert json.loads(out.read_text(encoding="utf-8"))["buffers"] == [{"uri": "gone.bin"}]


def test_migrate_that_drops_invalid_physics_exits_1_and_does_not_claim_a_clean_run(tmp_path):
    """Item 8: an ERROR-level drop (a negative mass) used to end in "0 lossy conversions" and exit 0."""
    doc = json.loads(fixture("joints/filters.gltf").read_text(encoding="utf-8"))
    doc["nodes"][2]["extensions"]["KHR_physics_rigid_bodies"]["motion"]["mass"] = -1
    source = _gltf(tmp_path / "in" / "a.gltf", text=json.dumps(doc))
    out = tmp_path / "out" / "a.gltf"
    result = run("migrate", source, out, "--to", "2026")
    assert result.returncode == 1, result.stderr
    assert "ERROR VALUE_NOT_IN_RANGE at /nodes/2/extensions/KHR_physics_rigid_bodies/motion/mass" in result.stderr
    lines = result.stderr.strip().splitlines()
    summary, printed = lines[-1], lines[:-1]
    assert summary.endswith(
        "1 error(s), 0 warning(s) (1 of these lose physics): invalid physics not written, missing resources not copied"
    )
    assert len(printed) == 1  # the summary counts exactly the lines it follows
    written = json.loads(out.read_text(encoding="utf-8"))["nodes"][2]
    assert "motion" not in written.get("extensions", {}).get("KHR_physics_rigid_bodies", {})


def test_migrate_stale_resource_is_replaced_and_reported(tmp_path):
    source = _gltf(tmp_path / "in" / "a.gltf", uris=["data.bin"])
    (source.parent / "data.bin").write_bytes(b"fresh")
    out = tmp_path / "out" / "a.gltf"
    out.parent.mkdir()
    (out.parent / "data.bin").write_bytes(b"stale")
    result = run("migrate", source, out, "--to", "2026")
    assert result.returncode == 0, result.stderr
    assert "FILE_RESOURCE_REPLACED at /buffers/0/uri" in result.stderr
    assert (out.parent / "data.bin").read_bytes() == b"fresh"


@pytest.mark.parametrize(
    ("content", "code"),
    [(None, 2), ("{not json", 2), ("[]", 1), ("null", 1)],
    ids=["missing", "not-json", "array", "null"],
)
def test_migrate_exit_codes_for_bad_inputs(tmp_path, content, code):
    source = tmp_path / "in.gltf"
    if content is not None:
        source.write_text(content, encoding="utf-8")
    out = tmp_path / "out.gltf"
    result = run("migrate", source, out, "--to", "2026")
    assert result.returncode == code, result.stderr
    assert "Traceback" not in result.stderr
    assert not out.exists()
