"""``check`` for CI and for people (issue 34, item 3), on synthetic samples (no Blender): one threshold per quantity
shared by the summary, the JSON and the plots; units in the text and in the JSON keys; ``--fail-on-violation``'s exit
code; the plots draw drive targets and locked limits, and the height legend fits with a distinct style per body."""

from __future__ import annotations

import json
import math
import re

import numpy as np
import pytest

from testkit import submodule

evaluate = submodule("io.check.evaluate")
output = submodule("io.check.output")
plots = submodule("io.check.plots")
driver = submodule("io.check.driver")
FPS = 24.0
N = 49
TIME = [i / FPS for i in range(N)]
IDENTITY = [0.0, 0.0, 0.0, 1.0]
TOLERANCE = evaluate.LIMIT_TOLERANCE


def _joint(limits, drives=(), angle=lambda t: 0.0, slide=lambda t: 0.0, name="J"):
    return {
        "name": name,
        "type": "GENERIC",
        "body_a": "A",
        "body_b": "B",
        "limits": limits,
        "drives": list(drives),
        "t_a": [[0.0, 0.0, 0.0]] * N,
        "q_a": [IDENTITY] * N,
        "t_b": [[0.0, 0.0, slide(t)] for t in TIME],
        "q_b": [[0.0, 0.0, math.sin(angle(t) / 2), math.cos(angle(t) / 2)] for t in TIME],
    }


def _body(name, height=1.0):
    return {"name": name, "node": None, "kind": "dynamic", "position": [[0, 0, height]] * N, "rotation": [IDENTITY] * N}


def _report(bodies=(), joints=()):
    samples = {"scene": "S", "frames": N, "time": TIME, "bodies": list(bodies), "joints": list(joints)}
    return evaluate.finish(samples, [], "scene.gltf")


def _slide_over(excess):
    """A prismatic limit [0, 0.1] m left by ``excess`` from t = 1 s on."""
    limit = {"linearAxes": [2], "min": 0.0, "max": 0.1}
    return _report(joints=[_joint([limit], slide=lambda t: 0.1 + (excess if t >= 1.0 else 0.0))])


@pytest.mark.parametrize("excess", [0.3 * TOLERANCE, 0.9 * TOLERANCE, 1.5 * TOLERANCE, 0.342])
def test_text_json_and_plot_agree_on_a_violation(excess):
    """Before: "limits kept" below 1e-3 in the text while the plot marked every frame above 1e-4 in red."""
    report = _slide_over(excess)
    violated = excess > TOLERANCE
    data = json.loads(output.to_json(report))
    (joint,) = data["joints"]
    (limit,) = joint["limits"]
    assert data["thresholds"]["limit_violation_m_or_rad"] == TOLERANCE
    assert limit["violated"] is joint["violated"] is violated
    assert (limit["frames_in_violation"] > 0) is violated
    text = "\n".join(output.summary_lines(report))
    assert ("limits kept" in text) is not violated
    assert ("violated by up to" in text) is violated
    assert bool(output.problems(report)) is violated
    fig = plots.joint_figure(report, report["joints"][0])
    dots = [a for a in fig.findobj() if a.get_gid() == plots.GID_VIOLATION]
    assert (len(dots) == 1) is violated
    if violated:
        assert len(dots[0].get_xdata()) == limit["frames_in_violation"]


def test_units_in_the_text_and_in_the_json_keys():
    limit = {"angularAxes": [2], "min": -0.5, "max": 0.5}
    spin = {"type": "angular", "mode": "force", "axis": 2, "velocityTarget": 1.5, "damping": 10.0}
    report = _report([_body("Crate")], [_joint([limit], [spin], angle=lambda t: 0.4 * t)])
    text = "\n".join(output.summary_lines(report))
    assert "limits violated by up to 0.3 rad" in text  # before: "max violation 0.3" (no unit)
    assert re.search(r"metric -?[\d.]+\.\.[\d.]+ rad, max violation 0\.3 rad", text)
    assert re.search(r"target 1\.5 rad/s, measured [\d.]+ rad/s \(within 0\.15 rad/s: NOT reached\)", text)
    assert re.search(r"height 1 m -> 1 m \(min 1 m\), travel 0 m, spin 0 rad", text)
    data = json.loads(output.to_json(report))
    (body,) = data["bodies"]
    unitless = {"name", "node", "kind", "settled"}
    assert all(re.search(r"_(m|rad|m_s|rad_s)$", key) for key in set(body) - unitless), sorted(body)
    (joint,) = data["joints"]
    assert joint["max_violation_rad"] == pytest.approx(0.3) and joint["max_violation_m"] == 0.0
    assert joint["limits"][0]["unit"] == "rad" and joint["drives"][0]["unit"] == "rad/s"
    assert joint["drives"][0]["tolerance"] == pytest.approx(0.15)


def test_fail_on_violation_exit_codes():
    kept, violated = _slide_over(0.0), _slide_over(0.05)
    missed = _report(joints=[_joint([], [{"type": "linear", "axis": 2, "positionTarget": 0.5, "stiffness": 10.0}])])
    entry = lambda report, status="ok": {"status": status, "report": report}  # noqa: E731
    assert driver.exit_code([entry(kept)], True) == 0
    assert driver.exit_code([entry(violated)], False) == 0  # as before: a report, not a gate
    assert driver.exit_code([entry(violated)], True) == 1
    assert driver.exit_code([entry(missed)], True) == 1  # a drive NOT reached
    assert driver.exit_code([entry(kept), entry(None, "failed")], False) == 1


def test_the_joint_plot_draws_drive_targets_and_locked_limits():
    locked = {"linearAxes": [0], "min": 0.0, "max": 0.0}  # before: a band of zero height, invisible
    ranged = {"angularAxes": [2], "min": -0.5, "max": 0.5}
    held = {"type": "linear", "mode": "force", "axis": 2, "positionTarget": 0.3, "stiffness": 100.0}
    spin = {"type": "angular", "mode": "force", "axis": 2, "velocityTarget": 1.5, "damping": 10.0}
    report = _report(joints=[_joint([locked, ranged], [held, spin], angle=lambda t: 1.5 * t, slide=lambda t: 0.3)])
    (joint,) = report["joints"]
    fig = plots.joint_figure(report, joint)
    assert len(fig.axes) == 4  # two limits, two drives
    gids = (plots.GID_LOCKED, plots.GID_TARGET, plots.GID_TARGET_BAND, plots.GID_BAND)
    marks = {gid: [a for a in fig.findobj() if a.get_gid() == gid] for gid in gids}
    (line,) = marks[plots.GID_LOCKED]
    assert set(line.get_ydata()) == {0.0} and line.get_linewidth() >= 2.0
    low, high = fig.axes[0].get_ylim()
    assert high - low >= 10 * TOLERANCE  # the locked value is inside a visible range, not on an edge
    targets = sorted(set(a.get_ydata()) for a in marks[plots.GID_TARGET])
    assert targets == [{0.3}, {1.5}]
    assert len(marks[plots.GID_TARGET_BAND]) == 2
    labels = [t.get_text() for ax in fig.axes for t in ax.get_legend().get_texts()]
    assert "locked at 0 m" in labels and "target 0.3 m" in labels and "target 1.5 rad/s" in labels


def _legend_fits(fig) -> bool:
    fig.canvas.draw()
    box = fig.legends[0].get_window_extent()
    width, height = fig.canvas.get_width_height()
    return box.x0 >= 0 and box.y0 >= 0 and box.x1 <= width and box.y1 <= height


@pytest.mark.parametrize("count", [3, 20, 45])
def test_the_height_legend_fits_with_a_distinct_style_per_body(count):
    """Before: 20 bodies repeated matplotlib's 10 colours and the legend inside the axes was cut."""
    report = _report([_body(f"Crate.{i:03d}", height=0.1 * i) for i in range(count)])
    fig = plots.height_figure(report)
    lines = [a for a in fig.axes[0].get_lines()]
    styles = {
        (
            tuple(np.round(line.get_color(), 4)) if not isinstance(line.get_color(), str) else line.get_color(),
            line.get_linestyle(),
        )
        for line in lines
    }
    assert len(lines) == count and len(styles) == count
    assert len(fig.legends[0].get_texts()) == count
    assert _legend_fits(fig)


def test_names_with_dollar_signs_are_drawn_as_written():
    """A ``$`` in a name would start matplotlib's mathtext: ``$\\frac$`` failed the whole plot."""
    name = r"crate $\frac$"
    report = _report([_body(name)], [_joint([{"angularAxes": [2], "min": -0.5, "max": 0.5}], name=name)])
    for fig in (plots.height_figure(report), plots.joint_figure(report, report["joints"][0])):
        fig.canvas.draw()  # mathtext would raise ValueError here
    assert plots.height_figure(report).legends[0].get_texts()[0].get_text() == r"crate \$\frac\$"


@pytest.mark.parametrize("times", [[0.0], [0.0] * 5], ids=["one frame", "time scale 0"])
def test_a_run_without_duration_still_plots(times, tmp_path):
    """One frame, or a world whose time scale is 0: no rate to draw, the plots are still written."""
    count = len(times)
    spin = {"type": "angular", "mode": "force", "axis": 2, "velocityTarget": 1.5, "damping": 10.0}
    joint = {
        key: value[:count] if isinstance(value, list) and len(value) == N else value
        for key, value in _joint([{"angularAxes": [2], "min": 0.0, "max": 0.0}], [spin]).items()
    }
    body = {**_body("Crate"), "position": [[0, 0, 1.0]] * count, "rotation": [IDENTITY] * count}
    samples = {"scene": "S", "frames": count, "time": times, "bodies": [body], "joints": [joint]}
    report = evaluate.finish(samples, [], "still.gltf")
    assert len(output.write_plots(report, tmp_path)) == 2
    assert json.loads(output.to_json(report))["joints"][0]["drives"][0]["measured"] == 0.0
