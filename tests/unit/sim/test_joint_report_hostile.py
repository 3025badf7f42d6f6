"""``metrics`` on hostile inputs (issue 35, item 4): clear diagnostics, bounded memory, never a traceback.

Rules checked: 400-digit numbers (JSON samples, limits) and 200,000-character CSV fields are diagnostics; an
``.npz`` whose header claims 4e9 rows, or a zip bomb, is refused before anything is decompressed (bounded by
``MAX_NPZ_BYTES`` and each member's declared size); ``--tolerance nan`` / ``inf`` / negative is a usage error;
``-o`` equal to the input (or the limits file) is refused and the input keeps its bytes; the report is strict
JSON; ``$…$`` and 300-character joint names still give their plots."""

from __future__ import annotations

import io
import json
import os
import signal
import stat
import subprocess
import sys
import zipfile

import numpy as np
import pytest
from test_joint_report import LIMITS, hinge_samples, write_json

from testkit import ROOT, submodule

if sys.platform != "win32":
    import resource

R = submodule("sim.joint_report")


def _json_with(tmp_path, edit):
    source = tmp_path / "samples.json"
    write_json(source, hinge_samples())
    document = json.loads(source.read_text())
    edit(document["joints"][0])
    source.write_text(json.dumps(document))
    return source


def test_400_digit_numbers_are_diagnostics(tmp_path, capsys):
    def huge_sample(joint):
        joint["samples"]["time"][3] = 10**400

    assert R.main([str(_json_with(tmp_path, huge_sample))]) == 1
    err = capsys.readouterr().err
    assert "METRICS_BAD_SAMPLES" in err and "Traceback" not in err

    def huge_limit(joint):
        joint["limits"][0]["max"] = 10**400

    assert R.main([str(_json_with(tmp_path, huge_limit))]) == 1
    assert "beyond the range of a float" in capsys.readouterr().err


def test_200k_character_csv_field_is_a_diagnostic(tmp_path, capsys):
    source = tmp_path / "samples.csv"
    source.write_text(",".join(R.CSV_COLUMNS) + "\n" + "x" * 200_000 + ",0" * 15 + "\n")
    assert R.main([str(source)]) == 1
    err = capsys.readouterr().err
    assert "METRICS_BAD_CSV" in err and "Traceback" not in err


def _npz_member(shape_text: str, payload: bytes) -> bytes:
    header = f"{{'descr': '<f8', 'fortran_order': False, 'shape': {shape_text}, }}"
    header += " " * (-(10 + len(header) + 1) % 64) + "\n"
    return b"\x93NUMPY\x01\x00" + len(header).to_bytes(2, "little") + header.encode() + payload


def test_npz_header_claiming_4e9_rows_is_refused_unread(tmp_path, capsys):
    path = tmp_path / "claims.npz"
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("hinge/time.npy", _npz_member("(4000000000,)", b"\0" * 64))
    assert R.main([str(path)]) == 2
    err = capsys.readouterr().err
    assert "METRICS_UNREADABLE" in err and "header claims" in err


def test_zip_bomb_npz_is_refused_before_decompressing(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(R, "MAX_NPZ_BYTES", 16 << 20)  # the rule, at a size this test can write quickly
    path = tmp_path / "bomb.npz"
    with (
        zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED) as archive,
        archive.open("hinge/time.npy", "w", force_zip64=True) as member,
    ):
        member.write(_npz_member(f"({(R.MAX_NPZ_BYTES // 8) + 1},)", b""))
        zeros = bytes(1 << 22)
        for _ in range(R.MAX_NPZ_BYTES // len(zeros) + 1):
            member.write(zeros)
    assert path.stat().st_size < 1 << 20, "a bomb: small on disk"
    assert R.main([str(path)]) == 2
    assert f"above {R.MAX_NPZ_BYTES}" in capsys.readouterr().err


def test_npz_reader_reads_what_numpy_writes(tmp_path):
    buffer = io.BytesIO()
    np.savez_compressed(buffer, **{"a/time": np.arange(3.0), "a/f": np.asfortranarray(np.ones((2, 3)))})
    (tmp_path / "x.npz").write_bytes(buffer.getvalue())
    arrays = R._npz_arrays(tmp_path / "x.npz")
    assert arrays["a/time"].tolist() == [0.0, 1.0, 2.0] and arrays["a/f"].shape == (2, 3)


@pytest.mark.parametrize("value", ["nan", "inf", "-1", "x"])
def test_tolerance_must_be_finite_and_not_negative(tmp_path, capsys, value):
    source = tmp_path / "samples.json"
    write_json(source, hinge_samples())
    with pytest.raises(SystemExit) as caught:
        R.main([str(source), "--tolerance", value])
    assert caught.value.code == 2 and "--tolerance" in capsys.readouterr().err


@pytest.mark.parametrize("which", ["input", "limits"])
def test_output_equal_to_an_input_is_refused(tmp_path, capsys, which):
    source, limits = tmp_path / "samples.json", tmp_path / "limits.json"
    write_json(source, hinge_samples())
    limits.write_text(json.dumps({"joints": [{"name": "door hinge", "limits": LIMITS}]}))
    before = source.read_bytes(), limits.read_bytes()
    target = source if which == "input" else tmp_path / "." / "limits.json"
    assert R.main([str(source), "--limits", str(limits), "-o", str(target)]) == 2
    assert "is an input" in capsys.readouterr().err
    assert (source.read_bytes(), limits.read_bytes()) == before


def test_mathtext_and_300_character_names_still_plot(tmp_path):
    def rename(joint):
        joint["name"] = "$\\frac{$" + "n" * 300

    source = _json_with(tmp_path, rename)
    out, plots = tmp_path / "r.json", tmp_path / "plots"
    assert R.main([str(source), "-o", str(out), "--plot", str(plots)]) == 0
    (png,) = plots.iterdir()
    assert len(png.name) < 120 and png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    json.loads(out.read_text(), parse_constant=lambda c: pytest.fail(f"not JSON: {c}"))


@pytest.mark.skipif(sys.platform == "win32", reason="RLIMIT_FSIZE is POSIX")
def test_a_failure_mid_write_of_o_keeps_the_old_report_and_leaves_no_temporary_file(tmp_path):
    """``-o`` is written atomically: a write that fails halfway (the file-size limit, as a full disk would) leaves
    the previous report byte for byte, no temporary file beside it, and a one-line error (exit 2)."""
    source = tmp_path / "samples.json"
    write_json(source, hinge_samples())
    out = tmp_path / "report.json"
    old = b'{"old": "report"}\n'
    out.write_bytes(old)
    os.chmod(out, 0o640)

    def small_files():  # in the child: writes past 64 bytes fail with EFBIG instead of killing it
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (64, 64))

    command = [sys.executable, "-P", str(ROOT / "bin" / "launch.py"), "metrics", str(source), "-o", str(out)]
    result = subprocess.run(command, capture_output=True, text=True, timeout=120, preexec_fn=small_files)
    assert result.returncode == 2, result.stderr
    assert "Traceback" not in result.stderr and f"cannot write {out}" in result.stderr
    assert out.read_bytes() == old and stat.S_IMODE(out.stat().st_mode) == 0o640
    assert sorted(p.name for p in tmp_path.iterdir()) == ["report.json", "samples.json"]
    done = subprocess.run(command, capture_output=True, text=True, timeout=120)  # no limit: replaced whole
    assert done.returncode == 0, done.stderr
    assert json.loads(out.read_text())["format"] == R.FORMAT and stat.S_IMODE(out.stat().st_mode) == 0o640
