"""sim.joint_report: the ``metrics`` command end to end on generated CSV / JSON / NPZ samples, with PNG plots."""

import argparse
import csv
import json
import math
import os
import subprocess
import sys

import numpy as np
import pytest

from testkit import ROOT, submodule

R = submodule("sim.joint_report")
Q = submodule("sim.quat")

TIME = np.linspace(0.0, 2 * math.pi, 60)
ANGLE = 1.2 * np.sin(TIME)  # hinge about X swinging past ±1 rad
LIMITS = [
    {"angularAxes": [0], "min": -1.0, "max": 1.0},
    {"angularAxes": [1, 2], "min": 0.0, "max": 0.0},
    {"linearAxes": [0, 1, 2], "max": 0.0},
    {"linearAxes": [2], "min": -0.05},
]


def hinge_samples():
    n = len(TIME)
    q_a = np.tile(Q.from_axis_angle([0, 0, 1], 0.4), (n, 1))  # frame A rotated: axes are A's, not the world's
    t_a = np.tile([0.5, -0.5, 0.5], (n, 1))
    q_b = Q.multiply(q_a, Q.from_axis_angle([1, 0, 0], ANGLE))
    t_b = t_a + Q.rotate(q_a, np.stack([0 * TIME, 0 * TIME, -0.1 * np.sin(TIME)], axis=1))
    return {"time": TIME, "t_a": t_a, "q_a": q_a, "t_b": t_b, "q_b": q_b}


def write_json(path, samples, limits=LIMITS):
    joint = {"name": "door hinge", "limits": limits, "samples": {k: v.tolist() for k, v in samples.items()}}
    path.write_text(json.dumps({"joints": [joint]}))


def write_csv(path, samples, name="door/hinge"):
    with path.open("w", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(R.CSV_COLUMNS)
        for i in range(len(samples["time"])):
            row = [name, samples["time"][i]]
            for key in ("t_a", "q_a", "t_b", "q_b"):
                row += list(samples[key][i])
            writer.writerow(row)


def check_report(report, name):
    (joint,) = report["joints"]
    assert joint["name"] == name and joint["samples"] == len(TIME)
    twist, cone, point, plane = joint["limits"]
    expected = np.maximum(np.abs(ANGLE) - 1.0, 0.0)
    assert twist["kind"] == "angular-twist" and twist["unit"] == "rad"
    assert twist["max_violation"] == pytest.approx(expected.max(), abs=1e-9)
    assert twist["frames_in_violation"] == int(np.sum(expected > 1e-6))
    assert twist["violating_frames"] == np.nonzero(expected > 1e-6)[0].tolist()
    assert twist["first_violation_time"] == pytest.approx(TIME[np.nonzero(expected > 1e-6)[0][0]])
    assert twist["metric"]["min"] == pytest.approx(ANGLE.min(), abs=1e-9)
    assert twist["metric"]["max"] == pytest.approx(ANGLE.max(), abs=1e-9)
    assert cone["frames_in_violation"] == 0 and cone["max_violation"] < 1e-9
    assert point["kind"] == "linear-point" and point["unit"] == "m"
    assert point["metric"]["max"] == pytest.approx(0.1 * np.abs(np.sin(TIME)).max(), abs=1e-9)
    assert point["frames_in_violation"] == int(np.sum(0.1 * np.abs(np.sin(TIME)) > 1e-6))
    assert plane["max_violation"] == pytest.approx(max(0.0, (0.1 * np.sin(TIME)).max() - 0.05), abs=1e-9)
    assert plane["min"] == -0.05 and plane["max"] is None
    assert report["diagnostics"] == []


def test_json_input_to_report_and_png(tmp_path):
    source = tmp_path / "samples.json"
    write_json(source, hinge_samples())
    out, plots = tmp_path / "report.json", tmp_path / "plots"
    assert R.main([str(source), "-o", str(out), "--plot", str(plots)]) == 0
    report = json.loads(out.read_text())
    assert report["format"] == R.FORMAT
    check_report(report, "door hinge")
    png = plots / "00_door_hinge.png"
    assert report["joints"][0]["plot"] == str(png)
    data = png.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR" and data[-8:-4] == b"IEND"
    image = pytest.importorskip("matplotlib.image").imread(png)
    assert image.shape[0] > 100 and image.shape[1] > 100


def test_metrics_draws_a_locked_limit_as_check_does(tmp_path):
    pytest.importorskip("matplotlib")
    source = tmp_path / "samples.json"
    write_json(source, hinge_samples())
    joints = R.read_samples(source, None)
    (entry,) = R.evaluate(joints, 1e-6, R.DiagnosticList())
    fig = R.joint_figure(joints[0], entry, 1e-6)
    marks = lambda gid: [a for a in fig.axes[1].findobj() if a.get_gid() == gid]  # noqa: E731
    (line,) = marks(R.GID_LOCKED)  # limit 1 is locked (min = max = 0): before, a band of zero height, invisible
    assert set(line.get_ydata()) == {0.0} and line.get_linewidth() >= 2.0
    low, high = fig.axes[1].get_ylim()
    assert low < -0.005 and high > 0.005  # the locked value inside a visible range, not on an edge
    labels = [t.get_text() for t in fig.axes[1].get_legend().get_texts()]
    assert "locked at 0 rad" in labels
    assert len([a for a in fig.axes[0].findobj() if a.get_gid() == R.GID_BAND]) == 1  # a range: the band
    assert submodule("io.check.plots").draw_limit is R.draw_limit  # check draws limits with the same rule


def test_csv_input_with_limits_file(tmp_path, capsys):
    source, limits = tmp_path / "samples.csv", tmp_path / "limits.json"
    write_csv(source, hinge_samples())
    limits.write_text(json.dumps({"joints": [{"name": "door/hinge", "limits": LIMITS}]}))
    assert R.main([str(source), "--limits", str(limits)]) == 0
    check_report(json.loads(capsys.readouterr().out), "door/hinge")
    assert R.main([str(source), "--limits", str(limits), "--fail-on-violation"]) == 1


def test_npz_input(tmp_path, capsys):
    samples = hinge_samples()
    arrays = {f"hinge/{k}": v for k, v in samples.items()}
    arrays["limits"] = np.array(json.dumps({"joints": [{"name": "hinge", "limits": LIMITS}]}))
    np.savez(tmp_path / "samples.npz", **arrays)
    assert R.main([str(tmp_path / "samples.npz")]) == 0
    check_report(json.loads(capsys.readouterr().out), "hinge")


def test_bad_limit_is_a_diagnostic_and_others_still_evaluate(tmp_path, capsys):
    source = tmp_path / "samples.json"
    bad = [*LIMITS, {"angularAxes": [3]}, {"linearAxes": [0], "min": 1, "max": 0}, {"linearAxes": [0], "min": "x"}]
    write_json(source, hinge_samples(), limits=bad)
    assert R.main([str(source)]) == 1  # the input has errors (issue 11, item 8; was 2 before)
    captured = capsys.readouterr()
    report = json.loads(captured.out)
    assert len(report["joints"][0]["limits"]) == len(LIMITS)
    pointers = [d["pointer"] for d in report["diagnostics"]]
    assert pointers == ["/joints/0/limits/4", "/joints/0/limits/5", "/joints/0/limits/6"]
    assert {d["code"] for d in report["diagnostics"]} == {"METRICS_BAD_LIMIT"}
    assert "Traceback" not in captured.err and "METRICS_BAD_LIMIT" in captured.err


@pytest.mark.parametrize(
    "name, content, code, exit_code",
    [
        ("s.csv", "joint,time\nx,1\n", "METRICS_BAD_CSV", 1),
        ("s.json", "{not json", "METRICS_UNREADABLE", 2),
        ("s.json", '{"joints": [{"name": "a", "samples": {"time": [0, 1]}}]}', "METRICS_BAD_SAMPLES", 1),
        ("s.json", '{"joints": [{"name": "a", "limits": 3, "samples": {}}]}', "METRICS_BAD_LIMIT", 1),
        ("s.json", '{"joints": []}', "METRICS_NO_JOINTS", 1),
        ("s.json", "[" * 50_000 + "]" * 50_000, "METRICS_UNREADABLE", 2),  # deeper than json parses (3.11, 3.13)
        ("s.npz", "not a zip", "METRICS_UNREADABLE", 2),
        ("s.txt", "", "METRICS_UNKNOWN_FORMAT", 2),
    ],
    ids=["csv", "not-json", "samples", "limits", "no-joints", "deep", "npz", "txt"],
)
def test_bad_input_exit_code_without_traceback(tmp_path, capsys, name, content, code, exit_code):
    """Exit codes (issue 11, item 8): 1 the input has errors, 2 unreadable input (was 2 for both before)."""
    path = tmp_path / name
    path.write_text(content)
    assert R.main([str(path)]) == exit_code
    err = capsys.readouterr().err
    assert code in err and "Traceback" not in err


def test_hostile_joint_name_is_escaped_on_stderr(tmp_path, capfd):
    """Issue 11, items 5 and 9: a lone surrogate, ESC and a newline in a joint name reach stderr escaped."""
    source = tmp_path / "samples.json"
    samples = {k: v.tolist() for k, v in hinge_samples().items()}
    joint = {"name": "a\ud800\x1b[31m\nERROR x", "limits": [{"linearAxes": [0], "min": 1, "max": 0}]}
    source.write_text(json.dumps({"joints": [joint | {"samples": samples}]}), encoding="utf-8")
    cmd = [sys.executable, "-P", str(ROOT / "bin" / "launch.py"), "metrics", str(source)]
    done = subprocess.run(cmd, capture_output=True, timeout=120, env=dict(os.environ, PYTHONIOENCODING="ascii"))
    assert done.returncode == 1
    err = done.stderr.decode("ascii")
    assert "METRICS_BAD_LIMIT" in err and "a\\ud800\\x1b[31m\\nERROR x" in err and "Traceback" not in err
    assert json.loads(done.stdout)["joints"][0]["name"] == joint["name"]


def test_missing_file_and_nonfinite_samples(tmp_path, capsys):
    assert R.main([str(tmp_path / "absent.json")]) == 2
    samples = hinge_samples()
    samples["q_b"][3, 0] = np.nan
    write_json(tmp_path / "nan.json", samples)
    assert R.main([str(tmp_path / "nan.json")]) == 1
    err = capsys.readouterr().err
    assert "METRICS_UNREADABLE" in err and "METRICS_BAD_SAMPLES" in err


def test_plot_without_matplotlib_is_a_clear_message(tmp_path, capsys, monkeypatch):
    source = tmp_path / "samples.json"
    write_json(source, hinge_samples())
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    assert R.main([str(source), "--plot", str(tmp_path / "plots")]) == 2
    assert "pip install matplotlib" in capsys.readouterr().err
    assert not (tmp_path / "plots").exists()


def test_add_subcommand_registers_metrics(tmp_path, capsys):
    parser = argparse.ArgumentParser(prog="gltf-physics")
    R.add_subcommand(parser.add_subparsers(dest="command"))
    source = tmp_path / "samples.json"
    write_json(source, hinge_samples())
    args = parser.parse_args(["metrics", str(source), "--tolerance", "0.5"])
    assert args.func(args) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["tolerance"] == 0.5 and report["joints"][0]["limits"][0]["frames_in_violation"] == 0


def test_bin_gltf_physics_metrics(tmp_path):
    source = tmp_path / "samples.json"
    write_json(source, hinge_samples())
    cmd = [sys.executable, "-P", str(ROOT / "bin" / "launch.py"), "metrics", str(source), "--fail-on-violation"]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    assert done.returncode == 1, done.stderr
    check_report(json.loads(done.stdout), "door hinge")
