"""``io/check/evaluate`` on synthetic samples (no Blender): trajectories, limit violations, drives, trigger events,
and the JSON / summary / plots of ``io/check/output``."""

from __future__ import annotations

import json
import math
import pathlib

import numpy as np
import pytest

from testkit import submodule

evaluate = submodule("io.check.evaluate")
output = submodule("io.check.output")
FPS = 24.0
N = 49  # two seconds
TIME = [i / FPS for i in range(N)]
IDENTITY = [0.0, 0.0, 0.0, 1.0]


def body(name, positions, rotations=None, kind="dynamic"):
    return {"name": name, "node": None, "kind": kind, "position": positions, "rotation": rotations or [IDENTITY] * N}


def samples(bodies=(), joints=(), triggers=(), colliders=()):
    return {
        "scene": "S",
        "frames": N,
        "time": TIME,
        "bodies": list(bodies),
        "joints": list(joints),
        "triggers": list(triggers),
        "colliders": list(colliders),
    }


def quat_z(angle):
    return [0.0, 0.0, math.sin(angle / 2), math.cos(angle / 2)]


def test_free_fall_then_rest_gives_height_travel_and_settled():
    z = [max(0.5, 5.0 - 0.5 * 9.81 * t * t) for t in TIME]
    report = evaluate.evaluate(samples([body("Crate", [[1.0, 0.0, h] for h in z])]))
    (crate,) = report["bodies"]
    assert crate["rest_height_m"] == pytest.approx(0.5)
    assert crate["travel_m"] == pytest.approx(4.5)
    assert crate["horizontal_travel_m"] == 0.0
    assert crate["settled"] and crate["spin_rad"] == 0.0
    assert crate["start_velocity_m_s"][2] < -0.1


def test_spin_accumulates_beyond_half_a_turn_and_rebound_is_measured():
    rate = 3.0  # rad/s for 2 s: 6 rad, more than pi
    z = [abs(math.cos(2.0 * t)) for t in TIME]  # falls to 0 at t = pi/4, rises again
    report = evaluate.evaluate(samples([body("Top", [[0, 0, h] for h in z], [quat_z(rate * t) for t in TIME])]))
    (top,) = report["bodies"]
    assert top["spin_rad"] == pytest.approx(6.0, rel=1e-6)
    assert top["end_spin_rate_rad_s"] == pytest.approx(3.0, rel=1e-6)
    assert not top["settled"]
    assert top["rebound_height_m"] == pytest.approx(1.0, abs=0.02)


def joint(limits, drives=(), angle=lambda t: 0.0, slide=lambda t: 0.0):
    return {
        "name": "J",
        "type": "GENERIC",
        "body_a": "A",
        "body_b": "B",
        "limits": limits,
        "drives": list(drives),
        "t_a": [[0.0, 0.0, 0.0]] * N,
        "q_a": [IDENTITY] * N,
        "t_b": [[0.0, 0.0, slide(t)] for t in TIME],
        "q_b": [quat_z(angle(t)) for t in TIME],
    }


def test_limit_violation_is_the_largest_distance_outside_the_range():
    j = joint(
        [{"angularAxes": [2], "min": -0.5, "max": 0.5}, {"linearAxes": [2], "min": 0.0, "max": 0.1}],
        angle=lambda t: 0.4 * t,
        slide=lambda t: 0.05,
    )
    (result,) = evaluate.evaluate(samples(joints=[j]))["joints"]
    twist, plane = result["limits"]
    assert twist["kind"] == "angular-twist" and twist["max_violation"] == pytest.approx(0.8 - 0.5, abs=1e-9)
    assert plane["max_violation"] == 0.0
    assert result["max_violation_rad"] == pytest.approx(0.3, abs=1e-9) and result["max_violation_m"] == 0.0
    assert twist["violated"] and not plane["violated"] and result["violated"]


def test_velocity_and_position_drives_against_their_targets():
    spin = {"type": "angular", "mode": "force", "axis": 2, "velocityTarget": 1.5, "damping": 10.0}
    held = {"type": "linear", "mode": "force", "axis": 2, "positionTarget": 0.3, "stiffness": 100.0}
    j = joint([], [spin, held], angle=lambda t: 1.5 * t, slide=lambda t: 0.3)
    (result,) = evaluate.evaluate(samples(joints=[j]))["joints"]
    rate, position = result["drives"]
    assert rate["target_kind"] == "velocity" and rate["measured"] == pytest.approx(1.5, rel=1e-6) and rate["reached"]
    assert position["target_kind"] == "position" and position["reached"]
    j = joint([], [spin], angle=lambda t: 0.5 * t)
    assert not evaluate.evaluate(samples(joints=[j]))["joints"][0]["drives_reached"]


def test_trigger_events_enter_then_exit():
    cube = [[x, y, z] for x in (-0.5, 0.5) for y in (-0.5, 0.5) for z in (-0.5, 0.5)]
    z = [4.0 - 3.0 * t for t in TIME]  # passes the gate at z = 2 (1 m tall gate, 1 m crate)
    trigger = {
        "name": "Gate",
        "body": "Gate",
        "vertices": cube,
        "position": [[0, 0, 2.0]] * N,
        "rotation": [IDENTITY] * N,
    }
    crate = {
        "name": "Crate",
        "body": "Crate",
        "vertices": cube,
        "position": [[0, 0, h] for h in z],
        "rotation": [IDENTITY] * N,
    }
    (gate,) = evaluate.evaluate(samples(triggers=[trigger], colliders=[crate]))["triggers"]
    kinds = [(e["kind"], e["body"]) for e in gate["events"]]
    assert kinds == [("enter", "Crate"), ("exit", "Crate")]
    enter, leave = (e["time_s"] for e in gate["events"])
    assert (
        enter == pytest.approx(1.0 / 3.0, abs=1.0 / FPS) and 1.0 < leave <= 1.0 + 1.0 / FPS
    )  # touching (distance 0) still overlaps


def test_json_summary_and_plots(tmp_path):
    j = joint([{"angularAxes": [2], "min": -0.5, "max": 0.5}], angle=lambda t: 0.4 * t)
    report = evaluate.finish(
        samples([body("Crate", [[0, 0, 1.0]] * N)], [j]),
        [{"severity": "warning", "code": evaluate.NOT_REPRODUCIBLE, "pointer": "/nodes/0", "message": "cone limit"}],
        "scene.gltf",
    )
    data = json.loads(output.to_json(report))
    assert not any(key.startswith("_") for key in data) and "_series" not in json.dumps(data)
    assert data["not_reproducible"] == [{"pointer": "/nodes/0", "message": "cone limit"}]
    lines = output.summary_lines(report)
    assert any("not reproducible in Blender: /nodes/0: cone limit" in line for line in lines)
    assert any(line.startswith("  joint J") and "limits violated by up to 0.3 rad" in line for line in lines)
    written = output.write_plots(report, tmp_path, prefix="x_")
    assert [p.rsplit("/", 1)[1] for p in written] == ["x_heights.png", "x_joint_00_J.png"]
    assert all(pathlib.Path(p).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" for p in written)
    assert np.isfinite(report["joints"][0]["max_violation_rad"])


def test_a_json_report_over_an_input_is_a_usage_error(tmp_path, capsys):
    """``check --json`` onto an input overwrote it (it did): exit 2 before anything runs, the input intact."""
    import argparse

    driver = submodule("io.check.driver")
    source = tmp_path / "a.gltf"
    source.write_text('{"asset": {"version": "2.0"}}')
    args = argparse.Namespace(
        files=[str(source)], frames=5, json=str(tmp_path / "." / "a.gltf"), plots=None, timeout=60, blender=None
    )
    assert driver.run(args, python="x") == 2
    assert "--json" in capsys.readouterr().err
    assert source.read_text() == '{"asset": {"version": "2.0"}}'
