"""The figures of ``gltf-physics check --plots`` (bpy-free, matplotlib): what a person looks at to see the motion.

* ``height_figure``: every body's height over time, one (colour, line style) pair per body (``STYLE_CYCLE``), the
  legend outside the axes in as many columns as it needs (``LEGEND_ROWS`` per column) so it is never cut.
* ``joint_figure``: one row per limit (its metric against its bounds drawn as ``metrics`` draws them,
  ``sim.joint_report.draw_limit``: the green [min, max] band; a locked limit, min = max, as a solid line at its value
  with the ± tolerance band, since a band of zero height draws nothing) and one row per drive
  (its value or rate against the dashed target line and the tolerance band around it).

Every mark reads the report's own verdicts, so the plots cannot disagree with the text and the JSON: the red
violation dots are the limit's ``violating_frames`` (``evaluate.LIMIT_TOLERANCE``), the drive band is its
``tolerance``. Marks carry a ``gid`` (``GID_*``) so tests find them among the figure's artists.
"""

from __future__ import annotations

import math

import numpy as np

from ...sim.joint_report import GID_BAND as GID_BAND  # the gids of the limit marks, as metrics draws them
from ...sim.joint_report import GID_LOCKED as GID_LOCKED
from ...sim.joint_report import draw_limit
from .evaluate import LIMIT_TOLERANCE

LEGEND_ROWS = 20  # legend entries per column
LINESTYLES = ("-", "--", "-.", ":")
GID_VIOLATION = "limit-violation"
GID_TARGET = "drive-target"
GID_TARGET_BAND = "drive-tolerance"
GID_SERIES = "series"


def _figure(width: float, height: float):
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    fig = Figure(figsize=(width, height), layout="constrained")
    FigureCanvasAgg(fig)
    return fig


def plain(text: str) -> str:
    """``text`` shown as written: a ``$`` in a file, body or joint name would start matplotlib's mathtext."""
    return str(text).replace("$", r"\$")


def style_cycle(count: int) -> list[tuple]:
    """``count`` distinct (colour, line style) pairs: tab10 for up to 10 lines, else tab20, each colour round with
    the next line style (80 distinct pairs; beyond that they repeat)."""
    from matplotlib import colormaps

    colours = colormaps["tab10" if count <= 10 else "tab20"].colors
    return [(colours[i % len(colours)], LINESTYLES[(i // len(colours)) % len(LINESTYLES)]) for i in range(count)]


def height_figure(report: dict):
    """Height over time of every body, legend outside on the right (columns of ``LEGEND_ROWS``)."""
    bodies = report["bodies"]
    columns = max(1, math.ceil(len(bodies) / LEGEND_ROWS))
    rows = min(len(bodies), LEGEND_ROWS)
    fig = _figure(8 + 1.7 * columns, max(3.2, 0.17 * rows + 1.0))
    ax = fig.add_subplot(1, 1, 1)
    for body, (colour, style) in zip(bodies, style_cycle(len(bodies)), strict=True):
        ax.plot(report["_time"], body["_height"], lw=1.2, color=colour, linestyle=style, label=plain(body["name"]))
    ax.set_xlabel("time (s)")
    ax.set_ylabel("height (m)")
    ax.set_title(f"{plain(report['input'])}: body heights", fontsize=9)
    ax.grid(alpha=0.3)
    if bodies:
        fig.legend(loc="outside right upper", fontsize=7, ncols=columns, title="bodies", title_fontsize=7)
    return fig


def joint_figure(report: dict, joint: dict):
    """One row per evaluated limit and per drive of ``joint``."""
    limits = [li for li in joint["limits"] if "_series" in li]
    rows = max(1, len(limits) + len(joint["drives"]))
    fig = _figure(9, 2.4 * rows)
    time = np.asarray(report["_time"])
    row = 0
    for limit in limits:
        row += 1
        _limit_row(fig.add_subplot(rows, 1, row), time, joint, limit)
    for index, drive in enumerate(joint["drives"]):
        row += 1
        _drive_row(fig.add_subplot(rows, 1, row), time, joint, index, drive)
    if row == 0:
        fig.add_subplot(1, 1, 1).text(0.5, 0.5, "no valid limits or drives", ha="center", va="center")
    fig.axes[-1].set_xlabel("time (s)")
    return fig


def _padded(ax, values: list[float], floor: float) -> None:
    """The y range of ``values`` (the finite ones: a run of zero duration has no rate) padded by 10 %, at least
    ``floor``."""
    values = [v for v in values if v is not None and np.isfinite(v)] or [0.0]
    low, high = min(values), max(values)
    pad = max(0.1 * (high - low), floor)
    ax.set_ylim(low - pad, high + pad)


def _extremes(series: np.ndarray) -> list[float]:
    finite = series[np.isfinite(series)]
    return [float(finite.min()), float(finite.max())] if len(finite) else []


def _limit_row(ax, time: np.ndarray, joint: dict, limit: dict) -> None:
    series, unit = limit["_series"], limit["unit"]
    lower, upper = limit["min"], limit["max"]
    bounds = [v for v in (lower, upper) if v is not None]
    _padded(ax, [*_extremes(series), *bounds], 5 * LIMIT_TOLERANCE)
    draw_limit(ax, lower, upper, unit, LIMIT_TOLERANCE)
    ax.plot(time, series, color="tab:blue", lw=1.2, label=limit["kind"], gid=GID_SERIES)
    bad = np.asarray(limit["violating_frames"], dtype=int)
    if len(bad):
        label = f"violation > {LIMIT_TOLERANCE:g} {unit}"
        ax.plot(time[bad], series[bad], "o", color="tab:red", ms=3, label=label, gid=GID_VIOLATION)
    axes = limit.get("linearAxes", limit.get("angularAxes"))
    verdict = f"violated by up to {limit['max_violation']:.3g} {unit}" if limit["violated"] else "kept"
    ax.set_ylabel(unit)
    ax.set_title(f"{plain(joint['name'])} — limit {limit['index']}: {limit['kind']} {axes}, {verdict}", fontsize=9)
    ax.grid(alpha=0.3)
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=7)


def _drive_row(ax, time: np.ndarray, joint: dict, index: int, drive: dict) -> None:
    series, unit, target, tolerance = drive["_series"], drive["unit"], drive["target"], drive["tolerance"]
    _padded(ax, [*_extremes(series), target - tolerance, target + tolerance], 0.01)
    band = f"± {tolerance:.3g} {unit}"
    ax.axhspan(target - tolerance, target + tolerance, color="tab:orange", alpha=0.15, label=band, gid=GID_TARGET_BAND)
    ax.axhline(target, color="tab:orange", lw=1.5, linestyle="--", label=f"target {target:.3g} {unit}", gid=GID_TARGET)
    what = "rate" if drive["target_kind"] == "velocity" else "value"
    ax.plot(time, series, color="tab:purple", lw=1.2, label=f"{drive['type']} {what}", gid=GID_SERIES)
    verdict = "reached" if drive["reached"] else "NOT reached"
    ax.set_ylabel(unit)
    ax.set_title(
        f"{plain(joint['name'])} — drive {index}: {drive['type']} axis {drive['axis']} ({drive['target_kind']}), "
        f"{verdict} within {tolerance:.3g} {unit}",
        fontsize=9,
    )
    ax.grid(alpha=0.3)
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=7)
