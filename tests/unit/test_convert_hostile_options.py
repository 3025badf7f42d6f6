"""Hostile options, report paths and input trees of ``convert`` and ``check`` (issue 35, items 2 and 3), bpy-free.

Rules checked: ``--timeout`` / ``--jobs`` / ``--recycle`` / ``--frames`` are validated when the line is parsed
(finite, positive, capped: exit 2 with the rule, no traceback, no worker started); ``--jobs`` above the usable
cores is capped with a warning; ``--report`` (``check --json``) never replaces an input's resource or an output's
file (``IN/door.bin``, ``OUT/door.bin``: exit 2, the file keeps its bytes) but may replace its own previous report;
the walk keeps regular files only (a FIFO or a symlink to ``/dev/zero`` named ``*.gltf`` is skipped with a
message) and walks a tree 1,100 levels deep without a ``RecursionError``."""

from __future__ import annotations

import json
import os
import pathlib
import sys

import pytest

from testkit import submodule

driver = submodule("io.convert.driver")
check_driver = submodule("io.check.driver")
options = submodule("io.convert.options")
plan = submodule("io.convert.plan")
walk = submodule("io.convert.walk")
guard = submodule("io.convert.output_guard")

UNIX = sys.platform != "win32"


def _library(tmp_path: pathlib.Path) -> pathlib.Path:
    src = tmp_path / "in"
    src.mkdir()
    (src / "door.gltf").write_text(json.dumps({"asset": {"version": "2.0"}, "buffers": [{"uri": "door.bin"}]}))
    (src / "door.bin").write_bytes(b"\1\2\3\4")
    return src


def _convert(*args) -> int:
    return driver.main(["convert", *map(str, args)], "t", None, "no-such-python")


@pytest.mark.parametrize("value", ["inf", "-inf", "nan", "1e10", "-1", "0", "x", "86401"])
def test_convert_timeout_is_finite_positive_and_capped_at_parse_time(tmp_path, capsys, value):
    src = _library(tmp_path)
    assert _convert(src, "-o", tmp_path / "out", "--timeout", value) == 2
    err = capsys.readouterr().err
    assert "--timeout" in err and "Traceback" not in err
    assert not (tmp_path / "out").exists()


def test_timeout_accepts_the_range():
    assert options.timeout_seconds("0.5") == 0.5
    assert options.timeout_seconds("86400") == 86400.0


@pytest.mark.parametrize(("option", "value"), [("--jobs", "0"), ("--jobs", "1e3"), ("--recycle", "-5")])
def test_convert_counts_must_be_positive_integers(tmp_path, capsys, option, value):
    assert _convert(_library(tmp_path), "-o", tmp_path / "out", option, value) == 2
    assert option in capsys.readouterr().err


@pytest.mark.parametrize(("option", "value"), [("--timeout", "inf"), ("--timeout", "-1"), ("--frames", "100001")])
def test_check_options_are_validated_at_parse_time(tmp_path, capsys, option, value):
    gltf = _library(tmp_path) / "door.gltf"
    parser = submodule("io.cli").build_parser(["check"])
    with pytest.raises(SystemExit) as caught:
        parser.parse_args(["check", str(gltf), option, value])
    assert caught.value.code == 2
    assert option in capsys.readouterr().err


def test_jobs_far_above_the_cores_are_capped_with_a_warning(monkeypatch):
    monkeypatch.setattr(options, "usable_cores", lambda: 2)
    assert options.capped_jobs(2) == (2, None)
    jobs, warning = options.capped_jobs(12)
    assert jobs == 2 and "--jobs 12 capped at 2" in warning


def test_convert_prints_the_jobs_warning_and_records_the_capped_value(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(options, "usable_cores", lambda: 1)
    code = _convert(_library(tmp_path), "-o", tmp_path / "out", "--jobs", "12", "--report", tmp_path / "r.json")
    assert code == 2  # the worker program does not exist: a start error, after the warning
    assert "--jobs 12 capped at 1" in capsys.readouterr().err


@pytest.mark.parametrize("where", ["in/door.bin", "out/door.bin", "out/door.png", "in"])
def test_report_never_replaces_an_input_resource_or_an_output_file(tmp_path, capsys, where):
    src = _library(tmp_path)
    out = tmp_path / "out"
    out.mkdir()
    (out / "door.bin").write_bytes(b"output buffer")
    before = {p: p.read_bytes() for p in tmp_path.rglob("*") if p.is_file()}
    assert _convert(src, "-o", out, "--format", "gltf", "--report", tmp_path / where) == 2
    assert "--report" in capsys.readouterr().err
    assert {p: p.read_bytes() for p in tmp_path.rglob("*") if p.is_file()} == before


def test_report_may_replace_its_own_previous_report_and_be_new_anywhere(tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    previous = out / "report.json"
    previous.write_text(json.dumps({"files": [], "summary": {}}))
    assert guard.refuse_report("--report", str(previous), out) is None
    assert guard.refuse_report("--report", str(tmp_path / "new.json"), out) is None
    assert guard.refuse_report("--report", str(tmp_path / "in" / "new-report.txt"), out) is None
    (tmp_path / "notes.json").write_text('{"mine": true}')
    assert "not a report" in guard.refuse_report("--report", str(tmp_path / "notes.json"), out)


@pytest.mark.skipif(not UNIX or not hasattr(os, "mkfifo"), reason="FIFOs are Unix")
def test_report_onto_a_fifo_is_refused_without_blocking(tmp_path):
    os.mkfifo(tmp_path / "r.json")
    assert "not a report" in guard.refuse_report("--report", str(tmp_path / "r.json"))


def test_check_json_never_replaces_a_resource(tmp_path, capsys):
    src = _library(tmp_path)
    args = check_driver.argparse.Namespace(
        files=[str(src / "door.gltf")], json=str(src / "door.bin"), plots=None, frames=10, timeout=5.0
    )
    assert check_driver.run(args, python="no-such-python") == 2
    assert "--json" in capsys.readouterr().err
    assert (src / "door.bin").read_bytes() == b"\1\2\3\4"


@pytest.mark.skipif(not UNIX or not hasattr(os, "mkfifo"), reason="FIFOs and /dev/zero are Unix")
def test_walk_skips_fifos_and_devices_named_gltf_with_a_message(tmp_path, capsys):
    src = _library(tmp_path)
    os.mkfifo(src / "fifo.gltf")
    os.symlink("/dev/zero", src / "zero.glb")
    (src / "folder.gltf").mkdir()
    jobs = plan.plan([str(src)], str(tmp_path / "out"), "same")
    assert [job.key for job in jobs] == ["door.gltf"]
    err = capsys.readouterr().err
    assert "fifo.gltf: not a regular file" in err and "zero.glb: not a regular file" in err


@pytest.mark.skipif(not UNIX or not hasattr(os, "mkfifo"), reason="FIFOs are Unix")
def test_a_fifo_given_directly_is_a_usage_error(tmp_path):
    os.mkfifo(tmp_path / "x.gltf")
    with pytest.raises(plan.PlanError, match="not a regular file"):
        plan.plan([str(tmp_path / "x.gltf")], str(tmp_path / "out"), "same")


def test_walk_of_a_tree_1100_levels_deep_needs_no_recursion(tmp_path):
    src = tmp_path / "in"
    src.mkdir()
    levels = [src]
    for _ in range(1100):  # one level at a time: mkdir(parents=True) recurses itself
        levels.append(levels[-1] / "d")
        os.mkdir(levels[-1])
    deep = levels[-1]
    (deep / "a.gltf").write_text("{}")
    (src / "b.gltf").write_text("{}")
    try:
        limit = sys.getrecursionlimit()
        sys.setrecursionlimit(200)  # far below the depth: any recursive walk fails here
        try:
            found, skipped = walk.walk_regular(src, tmp_path / "out", (".gltf",))
        finally:
            sys.setrecursionlimit(limit)
        assert found == [src / "b.gltf", deep / "a.gltf"] and skipped == []
    finally:  # deepest first: pytest's own clean-up of old temporary folders recurses (Python 3.11) and fails on it
        (deep / "a.gltf").unlink()
        for level in reversed(levels[1:]):
            os.rmdir(level)


@pytest.mark.skipif(not UNIX, reason="symlinks")
def test_walk_follows_a_symlink_loop_once(tmp_path):
    src = _library(tmp_path)
    (src / "sub").mkdir()
    (src / "sub" / "a.gltf").write_text("{}")
    os.symlink(src, src / "sub" / "loop")
    found, _ = walk.walk_regular(src, tmp_path / "out", (".gltf",))
    assert found == [src / "door.gltf", src / "sub" / "a.gltf"]


@pytest.mark.skipif(not UNIX or not hasattr(os, "mkfifo"), reason="FIFOs are Unix")
def test_check_names_a_fifo_as_not_a_regular_file(tmp_path, capsys):
    os.mkfifo(tmp_path / "x.gltf")
    args = check_driver.argparse.Namespace(
        files=[str(tmp_path / "x.gltf")], json=None, plots=None, frames=5, timeout=5.0
    )
    assert check_driver.run(args, python="no-such-python") == 2
    assert "not a regular file" in capsys.readouterr().err
