"""What a check prints and writes (bpy-free): the readable summary, the JSON report, the PNG plots."""

from __future__ import annotations

import pathlib

from ...sim.joint_report import file_part
from ..diagnostics import NON_FINITE, finite_json, printable, strict_json_text
from .evaluate import LIMIT_TOLERANCE, NOT_REPRODUCIBLE, public
from .plots import height_figure, joint_figure


def summary_lines(report: dict) -> list[str]:
    """Readable lines: one per body, joint, drive and trigger event, plus the import's problems."""
    lines = [f"{printable(report['input'])}: {report['frames']} frames ({report['seconds']:.2f} s simulated)"]
    for d in report.get("not_reproducible", []):
        lines.append(f"  not reproducible in Blender: {printable(d['pointer'])}: {printable(d['message'])}")
    for b in report["bodies"]:
        state = "at rest" if b["settled"] else "moving"
        lines.append(
            f"  body {printable(b['name'])} [{b['kind']}]: height {b['start_m'][2]:.3g} m -> "
            f"{b['rest_height_m']:.3g} m (min {b['min_height_m']:.3g} m), travel {b['travel_m']:.3g} m, "
            f"spin {b['spin_rad']:.3g} rad, {state}"
        )
    for j in report["joints"]:
        lines.append(f"  joint {printable(j['name'])} [{j['type']}]: {len(j['limits'])} limit(s), {joint_verdict(j)}")
        for li in j["limits"]:
            if "error" in li:
                lines.append(f"    limit {li['index']}: not evaluated ({printable(li['error'])})")
                continue
            axes, unit = li.get("linearAxes", li.get("angularAxes")), li["unit"]
            verdict = (
                f"violated in {li['frames_in_violation']} frame(s) from {li['first_violation_time']:.2f} s"
                if li["violated"]
                else "kept"
            )
            lines.append(
                f"    limit {li['index']} {li['kind']} {axes} [{li['min']}, {li['max']}] {unit}: metric "
                f"{li['metric']['min']:.3g}..{li['metric']['max']:.3g} {unit}, max violation "
                f"{li['max_violation']:.3g} {unit}, {verdict}"
            )
        for d in j["drives"]:
            verdict = "reached" if d["reached"] else "NOT reached"
            unit = d["unit"]
            lines.append(
                f"    drive {d['type']} axis {d['axis']} ({d['target_kind']}): target {d['target']:.3g} {unit}, "
                f"measured {d['measured']:.3g} {unit} (within {d['tolerance']:.3g} {unit}: {verdict})"
            )
    for t in report["triggers"]:
        events = (
            ", ".join(f"{e['kind']} {printable(e['body'])} at {e['time_s']:.2f} s" for e in t["events"]) or "no events"
        )
        lines.append(f"  trigger {printable(t['name'])}: {events}")
    for d in report.get("diagnostics", []):
        if d["severity"] == "warning" and d["code"] != NOT_REPRODUCIBLE:  # errors go to stderr (driver)
            lines.append(f"  {d['severity']} {d['code']} {printable(d['pointer'])}: {printable(d['message'])}")
    return lines


def joint_verdict(joint: dict) -> str:
    """ "limits kept (within 0.001 m / rad)" or "limits violated by up to 0.342 m, 0.12 rad": the joint's
    ``violated`` flag (``evaluate.LIMIT_TOLERANCE``), each unit's worst violation with its unit."""
    if not joint["violated"]:
        return f"limits kept (within {LIMIT_TOLERANCE:g} m / rad)"
    worst = [
        f"{joint[key]:.3g} {unit}"
        for key, unit in (("max_violation_m", "m"), ("max_violation_rad", "rad"))
        if joint[key] > LIMIT_TOLERANCE
    ]
    return "limits violated by up to " + ", ".join(worst)


def problems(report: dict) -> list[str]:
    """One line per joint that leaves its limits and per drive that misses its target (what ``--fail-on-violation``
    fails on, and what the *Check Simulation* operator lists)."""
    out = []
    for j in report["joints"]:
        if j["violated"]:
            out.append(f"joint {j['name']}: {joint_verdict(j)}")
        out += [
            f"joint {j['name']}: drive on axis {d['axis']} NOT reached: measured {d['measured']:.3g} {d['unit']}, "
            f"target {d['target']:.3g} {d['unit']}"
            for d in j["drives"]
            if not d["reached"]
        ]
    return out


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
    """PNG files: height over time of every body (one figure), each limit's metric and each drive's value against
    its limit or target over time per joint (``check.plots``). Returns the written paths (also set as ``plot`` on
    the report's joints and as ``height_plot`` on the report). A plot never replaces a ``protected`` file
    (``OSError`` instead)."""
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    path = _free(folder / f"{prefix}heights.png", protected)
    height_figure(report).savefig(path, dpi=90)
    report["height_plot"] = str(path)
    written.append(str(path))
    for i, joint in enumerate(report["joints"]):
        if not any("_series" in li for li in joint["limits"]) and not joint["drives"]:
            continue
        path = _free(folder / f"{prefix}joint_{i:02d}_{file_part(joint['name'])}.png", protected)
        joint_figure(report, joint).savefig(path, dpi=90)
        joint["plot"] = str(path)
        written.append(str(path))
    return written
