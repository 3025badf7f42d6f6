"""Evaluate sampled simulation data with ``sim/`` (bpy-free): the report of ``gltf-physics check``.

Input: the samples of ``check.sample.sample_scene`` (plain JSON data, Blender world axes: Z up, metres, quaternions
x, y, z, w). Output (``FORMAT``): per body its trajectory, per joint each limit's appendix metric against the limit
(``sim.joint_report.evaluate_limit``) and each drive against its target, per trigger the enter/exit events
(``sim.overlap.trigger_events``, the ``sim.queries`` colliders).

One threshold per quantity, here and nowhere else: the summary's verdicts, the JSON's counts and flags and the plots'
marks all read ``LIMIT_TOLERANCE``, ``DRIVE_TOLERANCE``, ``SETTLED_SPEED`` and ``SETTLED_SPIN`` (the report lists
them under ``thresholds``), so a text that says "kept" never sits beside a plot full of violations. Every key of a
quantity with a fixed unit ends in it (``travel_m``, ``end_spin_rate_rad_s``); a limit's or drive's values carry
their ``unit`` (m or rad; m/s or rad/s for a velocity drive).
"""

from __future__ import annotations

import numpy as np

from ...sim import quat
from ...sim.joint_report import evaluate_limit
from ...sim.limits import limit_metric
from ...sim.overlap import trigger_events
from ...sim.queries import Collider
from ...sim.shapes import Mesh

FORMAT = "gltf_physics.check/2"
NOT_REPRODUCIBLE = "GLTF_PHYSICS_IMPORT_NOT_REPRODUCIBLE"  # the importer's code (io/importer/reproduce/helpers.py)
LIMIT_TOLERANCE = 1e-3  # m or rad: a limit left by more is violated (text, JSON and plots)
SETTLED_SPEED = 0.05  # m/s: a body slower than this over the last frames is at rest
SETTLED_SPIN = 0.1  # rad/s
DRIVE_TOLERANCE = (0.1, 0.1)  # (absolute, relative) error within which a drive reached its target
THRESHOLDS = {  # what the report's verdicts use, in the JSON
    "limit_violation_m_or_rad": LIMIT_TOLERANCE,
    "drive_error_absolute": DRIVE_TOLERANCE[0],
    "drive_error_relative": DRIVE_TOLERANCE[1],
    "settled_speed_m_s": SETTLED_SPEED,
    "settled_spin_rad_s": SETTLED_SPIN,
}
TAIL = 0.25  # the share of the run whose mean velocity is the "end" velocity of bodies and drives


def _series(entry: dict) -> tuple[np.ndarray, np.ndarray]:
    return np.asarray(entry["position"], dtype=float).reshape(-1, 3), np.asarray(entry["rotation"], dtype=float)


def _tail(count: int) -> int:
    return max(1, min(count - 1, round(count * TAIL)))


def rebound_height(height: np.ndarray) -> float:
    """How high a body rises again after its first impact (the first local minimum of its height); 0 if never."""
    for i in range(1, len(height) - 1):
        if height[i] <= height[i - 1] and height[i + 1] > height[i] + 1e-4:
            return float(height[i:].max() - height[i])
    return 0.0


def body_trajectory(entry: dict, time: np.ndarray) -> dict:
    """Rest height, travel, spin and end speeds of one body."""
    position, rotation = _series(entry)
    n = len(time)
    steps = quat.angle(quat.multiply(quat.conjugate(rotation[:-1]), rotation[1:])) if n > 1 else np.zeros(0)
    k = _tail(n) if n > 1 else 0
    span = time[-1] - time[-1 - k] if n > 1 else 0.0
    end_velocity = (position[-1] - position[-1 - k]) / span if span > 0 else np.zeros(3)
    end_spin = float(steps[-k:].sum() / span) if span > 0 else 0.0
    first = min(n - 1, 3)
    start_velocity = (position[first] - position[0]) / time[first] if first and time[first] > 0 else np.zeros(3)
    start_spin = float(steps[:first].sum() / time[first]) if first and time[first] > 0 else 0.0
    speed = float(np.linalg.norm(end_velocity))
    return {
        "name": entry["name"],
        "node": entry.get("node"),
        "kind": entry["kind"],
        "start_m": position[0].tolist(),
        "end_m": position[-1].tolist(),
        "rest_height_m": float(position[-1, 2]),
        "min_height_m": float(position[:, 2].min()),
        "max_height_m": float(position[:, 2].max()),
        "travel_m": float(np.linalg.norm(position[-1] - position[0])),
        "horizontal_travel_m": float(np.linalg.norm(position[-1, :2] - position[0, :2])),
        "path_length_m": float(np.linalg.norm(np.diff(position, axis=0), axis=1).sum()),
        "spin_rad": float(steps.sum()),
        "rotation_change_rad": float(quat.angle(quat.multiply(quat.conjugate(rotation[0]), rotation[-1]))),
        "start_velocity_m_s": np.asarray(start_velocity).tolist(),
        "start_spin_rate_rad_s": start_spin,
        "end_velocity_m_s": np.asarray(end_velocity).tolist(),
        "end_spin_rate_rad_s": end_spin,
        "rebound_height_m": rebound_height(position[:, 2]),
        "settled": bool(speed < SETTLED_SPEED and end_spin < SETTLED_SPIN),
        "bounds_start_m": entry.get("bounds_start"),
        "bounds_end_m": entry.get("bounds_end"),
    }


def _frames(entry: dict) -> dict:
    return {key: np.asarray(entry[key], dtype=float) for key in ("t_a", "q_a", "t_b", "q_b")}


def drive_result(drive: dict, frames: dict, time: np.ndarray) -> dict:
    """Whether a drive reached its target: the end rate for a velocity drive (no stiffness), else the end value
    against the spring's rest position (positionTarget + damping·velocityTarget / stiffness)."""
    axes = {"angularAxes" if drive.get("type") == "angular" else "linearAxes": [int(drive.get("axis", 0))]}
    metric = limit_metric(frames["t_a"], frames["q_a"], frames["t_b"], frames["q_b"], **_axes_kwargs(axes))
    if "angularAxes" in axes:
        metric = np.unwrap(metric)
    stiffness, damping = float(drive.get("stiffness", 0.0)), float(drive.get("damping", 0.0))
    k = _tail(len(time))
    span = time[-1] - time[-1 - k] if len(time) > 1 else 0.0
    if stiffness > 0:
        kind = "position"
        target = float(drive.get("positionTarget", 0.0)) + damping * float(drive.get("velocityTarget", 0.0)) / stiffness
        measured = float(metric[-1])
        series = metric
    else:
        kind = "velocity"
        target = float(drive.get("velocityTarget", 0.0))
        measured = float((metric[-1] - metric[-1 - k]) / span) if span > 0 else 0.0
        series = np.gradient(metric, time) if len(time) > 1 else np.zeros(len(metric))
    error = measured - target
    tolerance = drive_tolerance(target)
    unit = "rad" if drive.get("type") == "angular" else "m"
    return {
        "type": drive.get("type"),
        "mode": drive.get("mode"),
        "axis": int(drive.get("axis", 0)),
        "target_kind": kind,
        "unit": unit if kind == "position" else f"{unit}/s",
        "target": target,
        "measured": measured,
        "error": error,
        "tolerance": tolerance,
        "reached": bool(abs(error) <= tolerance),
        "_series": series,
    }


def drive_tolerance(target: float) -> float:
    """The error within which a drive reached ``target`` (its unit): max(absolute, relative · |target|)."""
    absolute, relative = DRIVE_TOLERANCE
    return max(absolute, relative * abs(target))


def _axes_kwargs(limit: dict) -> dict:
    if "linearAxes" in limit:
        return {"linear_axes": limit["linearAxes"]}
    return {"angular_axes": limit["angularAxes"]}


def joint_result(entry: dict, time: np.ndarray) -> dict:
    frames = {"time": time, **_frames(entry)}
    limits = []
    for i, limit in enumerate(entry["limits"]):
        try:
            result = evaluate_limit(frames, limit, LIMIT_TOLERANCE)
            limits.append({"index": i, **result, "violated": result["frames_in_violation"] > 0})
        except ValueError as exc:
            limits.append({"index": i, "error": str(exc)})
    drives = [drive_result(d, frames, time) for d in entry["drives"]]
    return {
        "name": entry["name"],
        "type": entry.get("type"),
        "body_a": entry["body_a"],
        "body_b": entry["body_b"],
        "max_violation_m": _worst(limits, "m"),
        "max_violation_rad": _worst(limits, "rad"),
        "violated": any(r.get("violated", False) for r in limits),
        "limits": limits,
        "drives": drives,
        "drives_reached": all(d["reached"] for d in drives),
    }


def _worst(limits: list[dict], unit: str) -> float:
    """The largest violation of the ``unit`` (m or rad) limits (0: none)."""
    return float(max((r["max_violation"] for r in limits if r.get("unit") == unit), default=0.0))


def trigger_results(samples: dict) -> list[dict]:
    """Enter/exit events of every trigger volume with the scene's colliders, frame by frame."""
    triggers, colliders = samples.get("triggers") or [], samples.get("colliders") or []
    if not triggers:
        return []
    volumes = [*triggers, *colliders]
    items = []
    for node, volume in enumerate(volumes):
        is_trigger = node < len(triggers)
        items.append(
            Collider(
                node=node,
                shape=Mesh(np.asarray(volume["vertices"], dtype=float).reshape(-1, 3), convex=True),
                position=volume["position"][0],
                rotation=volume["rotation"][0],
                motion_node=-1 if is_trigger else len(triggers) + [c["body"] for c in colliders].index(volume["body"]),
                is_trigger=is_trigger,
            )
        )
    poses = [
        {node: (volume["position"][f], volume["rotation"][f]) for node, volume in enumerate(volumes)}
        for f in range(len(samples["time"]))
    ]
    events = trigger_events(items, poses, tol=1e-6)
    time = samples["time"]
    out = []
    for t, trigger in enumerate(triggers):
        mine = [e for e in events if e.trigger_node == t]
        out.append(
            {
                "name": trigger["name"],
                "events": [_event(e, time, volumes) for e in mine],
            }
        )
    return out


def _event(e, time, volumes: list[dict]) -> dict:
    return {"frame": e.frame, "time_s": float(time[e.frame]), "kind": e.kind, "body": volumes[e.motion_node]["body"]}


def evaluate(samples: dict, source: str = "") -> dict:
    """The check report of ``samples``; ``_series`` keys (numpy arrays for the plots) are removed by ``public``."""
    time = np.asarray(samples["time"], dtype=float)
    bodies = [body_trajectory(b, time) for b in samples["bodies"]]
    for body, entry in zip(bodies, samples["bodies"], strict=True):
        body["_height"] = np.asarray(entry["position"], dtype=float).reshape(-1, 3)[:, 2]
    joints = [joint_result(j, time) for j in samples["joints"]]
    return {
        "format": FORMAT,
        "input": source or samples.get("scene", ""),
        "frames": int(samples["frames"]),
        "seconds": float(time[-1]) if len(time) else 0.0,
        "_time": time,
        "thresholds": THRESHOLDS,
        "bodies": bodies,
        "joints": joints,
        "triggers": trigger_results(samples),
    }


def finish(samples: dict | None, diagnostics: list[dict], source: str) -> dict | None:
    """The evaluated report with the import's diagnostics and its "not reproducible" list (None: no samples)."""
    if samples is None:
        return None
    report = evaluate(samples, source)
    report["diagnostics"] = diagnostics
    report["not_reproducible"] = [
        {"pointer": d["pointer"], "message": d["message"]} for d in diagnostics if d["code"] == NOT_REPRODUCIBLE
    ]
    report["errors"] = sum(d["severity"] == "error" for d in diagnostics)
    return report


def public(report: dict) -> dict:
    """A copy of ``report`` without the plot series (what the JSON holds)."""
    if isinstance(report, dict):
        return {k: public(v) for k, v in report.items() if not k.startswith("_")}
    if isinstance(report, list):
        return [public(v) for v in report]
    return report
