"""What a check prints and writes (bpy-free): the readable summary, the JSON report, the PNG plots."""

from __future__ import annotations

import pathlib

import numpy as np

from ...sim.joint_report import file_part, plot_joint, plot_text
from ..diagnostics import NON_FINITE, finite_json, printable, strict_json_text
from .evaluate import NOT_REPRODUCIBLE, public

LIMIT_SHOWN = 1e-3  # violations below this are printed as "kept"


def _v(values) -> str:
    return "(" + ", ".join(f"{x:.3g}" for x in values) + ")"


def summary_lines(report: dict) -> list[str]:
    """Readable lines: one per body, joint, drive and trigger event, plus the import's problems."""
    lines = [f"{printable(report['input'])}: {report['frames']} frames ({report['seconds']:.2f} s simulated)"]
    for d in report.get("not_reproducible", []):
        lines.append(f"  not reproducible in Blender: {printable(d['pointer'])}: {printable(d['message'])}")
    for b in report["bodies"]:
        state = "at rest" if b["settled"] else "moving"
        lines.append(
            f"  body {printable(b['name'])} [{b['kind']}]: height {b['start'][2]:.3g} -> {b['rest_height']:.3g} m "
            f"(min {b['min_height']:.3g}), travel {b['travel']:.3g} m, spin {b['spin']:.3g} rad, {state}"
        )
    for j in report["joints"]:
        kept = "limits kept" if j["max_violation"] < LIMIT_SHOWN else f"max violation {j['max_violation']:.3g}"
        lines.append(f"  joint {printable(j['name'])} [{j['type']}]: {len(j['limits'])} limit(s), {kept}")
        for li in j["limits"]:
            if "error" in li:
                lines.append(f"    limit {li['index']}: not evaluated ({printable(li['error'])})")
                continue
            axes = li.get("linearAxes", li.get("angularAxes"))
            lines.append(
                f"    limit {li['index']} {li['kind']} {axes} [{li['min']}, {li['max']}] {li['unit']}: metric "
                f"{li['metric']['min']:.3g}..{li['metric']['max']:.3g}, max violation {li['max_violation']:.3g}"
            )
        for d in j["drives"]:
            verdict = "reached" if d["reached"] else "NOT reached"
            lines.append(
                f"    drive {d['type']} axis {d['axis']} ({d['target_kind']}): target {d['target']:.3g}, "
                f"measured {d['measured']:.3g}, {verdict}"
            )
    for t in report["triggers"]:
        events = ", ".join(f"{e['kind']} {printable(e['body'])} @{e['time']:.2f}s" for e in t["events"]) or "no events"
        lines.append(f"  trigger {printable(t['name'])}: {events}")
    for d in report.get("diagnostics", []):
        if d["severity"] == "warning" and d["code"] != NOT_REPRODUCIBLE:  # errors go to stderr (driver)
            lines.append(f"  {d['severity']} {d['code']} {printable(d['pointer'])}: {printable(d['message'])}")
    return lines


def to_json(report: dict) -> str:
    """The run's JSON: strict (``allow_nan=False``); a value of a file's report that is not finite (Bullet
    overflowing float32) is written as ``null`` and named in a WARNING ``REPORT_NON_FINITE`` of that file."""
    run = public(report)
    for entry in run.get("files", []):
        entry["report"], found = finite_json(entry.get("report"), "/report")
        if found:
            shown = ", ".join(found[:5]) + (f" and {len(found) - 5} more" if len(found) > 5 else "")
            why = f"{len(found)} value(s) not finite (the simulation overflowed), written as null: {shown}"
            entry.setdefault("diagnostics", []).append(
                {"stage": "check", "severity": "warning", "code": NON_FINITE, "pointer": "", "message": why}
            )
    text, _ = strict_json_text(run)
    return text


def _free(path: pathlib.Path, protected: frozenset[pathlib.Path]) -> pathlib.Path:
    """``path``, unless it is a ``protected`` file (an input, or a file an input references): ``OSError`` then."""
    if path.resolve() in protected:
        raise OSError(f"{path} is an input or an input's resource: not overwritten")
    return path


def write_plots(
    report: dict, folder: pathlib.Path, prefix: str = "", protected: frozenset[pathlib.Path] = frozenset()
) -> list[str]:
    """PNG files: height over time of every body (one figure), metric vs limit over time per joint. Returns the
    written paths (also set as ``plot`` on the report's joints and as ``height_plot`` on the report). A plot never
    replaces a ``protected`` file (``OSError`` instead)."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    folder.mkdir(parents=True, exist_ok=True)
    time = report["_time"]
    written = []
    fig = Figure(figsize=(8, 3.2), layout="constrained")
    FigureCanvasAgg(fig)
    ax = fig.add_subplot(1, 1, 1)
    for body in report["bodies"]:
        ax.plot(time, body["_height"], lw=1.2, label=plot_text(body["name"]))
    ax.set_xlabel("time (s)")
    ax.set_ylabel("height (m)")
    ax.set_title(plot_text(f"{report['input']}: body heights"), fontsize=9)
    if report["bodies"]:
        ax.legend(loc="best", fontsize=7)
    path = _free(folder / f"{prefix}heights.png", protected)
    fig.savefig(path, dpi=90)
    report["height_plot"] = str(path)
    written.append(str(path))
    for i, joint in enumerate(report["joints"]):
        valid = [li for li in joint["limits"] if "_series" in li]
        if not valid:
            continue
        path = _free(folder / f"{prefix}joint_{i:02d}_{file_part(joint['name'])}.png", protected)
        plot_joint({"time": np.asarray(time)}, {"name": joint["name"], "limits": valid}, path)
        joint["plot"] = str(path)
        written.append(str(path))
    return written
