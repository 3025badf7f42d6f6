"""``gltf-physics metrics``: evaluate joint-limit metrics over sampled joint transforms (format in docs/sim.md).

Input (world transforms of frame A = joint node and frame B = connected node, per joint, per sample):

* JSON: ``{"joints": [{"name", "limits": [glTF limit objects], "samples": {"time": [N], "t_a": [N×3],
  "q_a": [N×4], "t_b": [N×3], "q_b": [N×4]}}]}`` (quaternions x, y, z, w).
* CSV: header ``joint,time,t_a_x,t_a_y,t_a_z,q_a_x,q_a_y,q_a_z,q_a_w,t_b_x,t_b_y,t_b_z,q_b_x,q_b_y,q_b_z,q_b_w``,
  one row per joint and sample; limits from ``--limits`` (the JSON format without ``samples``).
* NPZ: arrays ``<joint>/time``, ``<joint>/t_a``, ``<joint>/q_a``, ``<joint>/t_b``, ``<joint>/q_b`` and optionally
  ``limits``, a JSON string in the ``--limits`` format.

Output: JSON with, per joint and limit, metric statistics, the largest violation and the frames in violation; with
``--plot DIR`` one PNG per joint. Bad input becomes diagnostics, never a traceback. Exit codes: 0 done; 1 the input
has errors (bad samples, limits or CSV rows, no joints; violations with ``--fail-on-violation``); 2 usage error or
unreadable input (missing, not JSON/CSV/NPZ, unknown format, ``--plot`` without matplotlib).
"""

from __future__ import annotations

import argparse
import csv
import hashlib
import json
import math
import os
import pathlib
import re
import sys
import zipfile
from collections.abc import Sequence

import numpy as np

from ..io.diagnostics import (
    NON_FINITE,
    Diagnostic,
    DiagnosticList,
    PhysicsDataError,
    Severity,
    pointer,
    safe_streams,
    strict_json_text,
)
from ..io.gltf.atomic import atomic_write_bytes
from . import limits as limit_metrics

FORMAT = "gltf_physics.joint_metrics/1"
FIELDS = {"t_a": 3, "q_a": 4, "t_b": 3, "q_b": 4}
CSV_COLUMNS = ["joint", "time"] + [f"{name}_{c}" for name, width in FIELDS.items() for c in "xyzw"[:width]]
MAX_LISTED_FRAMES = 1000
#: Codes that make the run a usage / unreadable-input failure (exit code 2); every other error is exit code 1.
USAGE_CODES = frozenset({"METRICS_UNREADABLE", "METRICS_UNKNOWN_FORMAT", "METRICS_NO_MATPLOTLIB"})
#: Most bytes an ``.npz`` input may hold once decompressed (all arrays together): its arrays are read into memory,
#: so a zip bomb or a header claiming billions of rows is refused before anything is decompressed.
MAX_NPZ_BYTES = 1 << 30
#: Longest part of a file name made from a joint's or a file's name (with a hash of the full name when cut): file
#: systems refuse names above 255 bytes, and the prefix and suffix need room.
MAX_NAME_PART = 80


def _fail(code: str, where: str, message: str) -> PhysicsDataError:
    return PhysicsDataError(Diagnostic(Severity.ERROR, code, where, message))


# --------------------------------------------------------------------------------------------------- reading


def _read_limits_document(data, where: str) -> dict[str, list]:
    """``{"joints": [{"name", "limits"}]}`` → name → limits."""
    joints = data.get("joints") if isinstance(data, dict) else None
    if not isinstance(joints, list):
        raise _fail("METRICS_BAD_LIMITS_FILE", where, 'expected an object with a "joints" array')
    found = {}
    for i, joint in enumerate(joints):
        if not isinstance(joint, dict) or not isinstance(joint.get("name"), str):
            raise _fail("METRICS_BAD_JOINT", pointer("joints", i), 'each joint needs a string "name"')
        found[joint["name"]] = joint.get("limits", [])
        if not isinstance(found[joint["name"]], list):
            raise _fail("METRICS_BAD_LIMIT", pointer("joints", i, "limits"), "limits must be an array")
    return found


def _samples_from_columns(columns: dict, where: str) -> dict[str, np.ndarray]:
    out = {}
    try:
        out["time"] = np.asarray(columns["time"], dtype=np.float64).reshape(-1)
        for name, width in FIELDS.items():
            out[name] = np.asarray(columns[name], dtype=np.float64).reshape(-1, width)
    except KeyError as missing:
        raise _fail("METRICS_BAD_SAMPLES", where, f"missing sample array {missing}") from None
    except (TypeError, ValueError, OverflowError) as err:  # OverflowError: an integer beyond float (400 digits)
        raise _fail("METRICS_BAD_SAMPLES", where, f"sample arrays must be numeric N, N×3, N×4: {err}") from None
    counts = {name: len(values) for name, values in out.items()}
    if len(set(counts.values())) != 1 or counts["time"] == 0:
        raise _fail("METRICS_BAD_SAMPLES", where, f"sample arrays must be non-empty and equally long, got {counts}")
    if not all(np.all(np.isfinite(values)) for values in out.values()):
        raise _fail("METRICS_BAD_SAMPLES", where, "sample values must be finite numbers")
    if np.any(np.linalg.norm(out["q_a"], axis=1) == 0) or np.any(np.linalg.norm(out["q_b"], axis=1) == 0):
        raise _fail("METRICS_BAD_SAMPLES", where, "zero-length quaternion")
    return out


def _read_json(path: pathlib.Path) -> list[dict]:
    data = json.loads(path.read_text(encoding="utf-8"))
    limits = _read_limits_document(data, "")
    joints = []
    for i, joint in enumerate(data["joints"]):
        samples = joint.get("samples")
        if not isinstance(samples, dict):
            raise _fail("METRICS_BAD_SAMPLES", pointer("joints", i, "samples"), "missing samples object")
        joints.append(
            {
                "name": joint["name"],
                "limits": limits[joint["name"]],
                "where": ("joints", i),
                **_samples_from_columns(samples, pointer("joints", i, "samples")),
            }
        )
    return joints


def _read_csv(path: pathlib.Path) -> list[dict]:
    try:
        return _read_csv_rows(path)
    except csv.Error as err:  # a field beyond csv.field_size_limit() (128 KiB), a NUL byte
        raise _fail("METRICS_BAD_CSV", "", f"CSV not readable: {err}") from None


def _read_csv_rows(path: pathlib.Path) -> list[dict]:
    with path.open(newline="", encoding="utf-8") as handle:
        reader = csv.reader(row for row in handle if not row.lstrip().startswith("#"))
        header = [h.strip() for h in next(reader, [])]
        if header != CSV_COLUMNS:
            raise _fail("METRICS_BAD_CSV", "", f"CSV header must be: {','.join(CSV_COLUMNS)}")
        rows: dict[str, list] = {}
        for line, row in enumerate(reader, start=2):
            if not row:
                continue
            if len(row) != len(CSV_COLUMNS):
                raise _fail("METRICS_BAD_CSV", f"/row/{line}", f"expected {len(CSV_COLUMNS)} fields, got {len(row)}")
            try:
                rows.setdefault(row[0], []).append([float(v) for v in row[1:]])
            except ValueError as err:
                raise _fail("METRICS_BAD_CSV", f"/row/{line}", str(err)) from None
    joints = []
    for name, values in rows.items():
        table = np.array(values)
        columns = {"time": table[:, 0], "t_a": table[:, 1:4], "q_a": table[:, 4:8]}
        columns |= {"t_b": table[:, 8:11], "q_b": table[:, 11:15]}
        samples = _samples_from_columns(columns, pointer("joints", name))
        joints.append({"name": name, "limits": [], "where": ("joints", name), **samples})
    return joints


def _npz_arrays(path: pathlib.Path) -> dict[str, np.ndarray]:
    """The arrays of an ``.npz``, bounded: the members' declared sizes together at most ``MAX_NPZ_BYTES`` (the
    zip reader never decompresses past a member's declared size) and each array's header no larger than its
    member, so neither a zip bomb nor a header claiming 4e9 rows allocates more than the file says it holds."""
    arrays = {}
    with zipfile.ZipFile(path) as archive:
        members = [info for info in archive.infolist() if info.filename.endswith(".npy")]
        declared = sum(info.file_size for info in members)
        if declared > MAX_NPZ_BYTES:
            raise _fail("METRICS_UNREADABLE", "", f"{path.name}: {declared} bytes decompressed, above {MAX_NPZ_BYTES}")
        for info in members:
            with archive.open(info) as member:
                version = np.lib.format.read_magic(member)
                if version == (1, 0):
                    shape, fortran, dtype = np.lib.format.read_array_header_1_0(member)
                else:
                    shape, fortran, dtype = np.lib.format.read_array_header_2_0(member)
                if dtype.hasobject:
                    raise _fail("METRICS_UNREADABLE", "", f"{info.filename}: object arrays are not read")
                size = math.prod(shape) * dtype.itemsize
                if size > info.file_size:
                    why = f"{info.filename}: header claims {shape} ({size} bytes) in {info.file_size} bytes"
                    raise _fail("METRICS_UNREADABLE", "", why)
                data = member.read(size)
                if len(data) != size:
                    raise _fail("METRICS_UNREADABLE", "", f"{info.filename}: truncated array")
                array = np.frombuffer(data, dtype=dtype)
                array = array.reshape(shape[::-1]).transpose() if fortran else array.reshape(shape)
                arrays[info.filename[: -len(".npy")]] = array
    return arrays


def _read_npz(path: pathlib.Path) -> list[dict]:
    arrays = _npz_arrays(path)
    limits = {}
    if "limits" in arrays:
        limits = _read_limits_document(json.loads(str(arrays.pop("limits"))), "/limits")
    names = sorted({key.rsplit("/", 1)[0] for key in arrays if "/" in key})
    joints = []
    for name in names:
        columns = {field: arrays[f"{name}/{field}"] for field in ["time", *FIELDS] if f"{name}/{field}" in arrays}
        samples = _samples_from_columns(columns, pointer(name))
        joints.append({"name": name, "limits": limits.get(name, []), "where": ("joints", name), **samples})
    return joints


READERS = {".json": _read_json, ".csv": _read_csv, ".npz": _read_npz}


def read_samples(path: pathlib.Path, limits_path: pathlib.Path | None = None) -> list[dict]:
    """Joints with ``name``, ``limits``, ``time``, ``t_a``, ``q_a``, ``t_b``, ``q_b``; PhysicsDataError when bad."""
    reader = READERS.get(path.suffix.lower())
    if reader is None:
        raise _fail("METRICS_UNKNOWN_FORMAT", "", f"{path.name}: expected a .json, .csv or .npz file")
    try:
        joints = reader(path)
        if limits_path is not None:
            extra = _read_limits_document(json.loads(limits_path.read_text(encoding="utf-8")), "")
            for joint in joints:
                joint["limits"] = extra.get(joint["name"], joint["limits"])
    except (
        OSError,
        UnicodeDecodeError,
        zipfile.BadZipFile,
        ValueError,
        RecursionError,
        MemoryError,
    ) as err:  # incl. JSONDecodeError
        raise _fail("METRICS_UNREADABLE", "", f"cannot read input: {err}") from None
    if not joints:
        raise _fail("METRICS_NO_JOINTS", "", f"{path.name} holds no joint samples")
    return joints


# ------------------------------------------------------------------------------------------------ evaluation


def _bound(limit: dict, key: str) -> float | None:
    value = limit.get(key)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ValueError(f"{key} must be a number, got {value!r}")
    try:
        number = float(value)
    except OverflowError:  # an integer of hundreds of digits
        raise ValueError(f"{key} is beyond the range of a float") from None
    if math.isnan(number):
        raise ValueError(f"{key} must be a number, got {value!r}")
    return number


def evaluate_limit(joint: dict, limit: dict, tolerance: float) -> dict:
    """Metric statistics and violations of one glTF limit over one joint's samples; ValueError for a bad limit."""
    if not isinstance(limit, dict):
        raise ValueError("a limit must be an object")
    lower, upper = _bound(limit, "min"), _bound(limit, "max")
    if lower is not None and upper is not None and lower > upper:
        raise ValueError(f"min {lower} exceeds max {upper}")
    kind = limit_metrics.limit_kind(limit.get("linearAxes"), limit.get("angularAxes"))
    metric = limit_metrics.metric_for_limit(limit, joint["t_a"], joint["q_a"], joint["t_b"], joint["q_b"])
    violation = limit_metrics.limit_violation(metric, lower, upper)
    frames = np.nonzero(violation > tolerance)[0]
    axes_key = "linearAxes" if "linearAxes" in limit else "angularAxes"
    return {
        axes_key: [int(a) for a in limit[axes_key]],
        "kind": kind,
        "unit": "m" if axes_key == "linearAxes" else "rad",
        "min": lower,
        "max": upper,
        "metric": {
            "min": float(metric.min()),
            "max": float(metric.max()),
            "mean": float(metric.mean()),
            "first": float(metric[0]),
            "last": float(metric[-1]),
        },
        "max_violation": float(violation.max()),
        "frames_in_violation": len(frames),
        "first_violation_time": float(joint["time"][frames[0]]) if len(frames) else None,
        "violating_frames": frames[:MAX_LISTED_FRAMES].tolist(),
        "_series": metric,
    }


def evaluate(joints: Sequence[dict], tolerance: float, diagnostics: DiagnosticList) -> list[dict]:
    """Per joint, per limit results; a bad limit becomes a diagnostic and is skipped."""
    results = []
    for joint in joints:
        entry = {"name": joint["name"], "samples": len(joint["time"])}
        entry["time"] = {"start": float(joint["time"][0]), "end": float(joint["time"][-1])}
        where = joint["where"]
        if np.any(np.diff(joint["time"]) < 0):
            diagnostics.warning("METRICS_TIME_ORDER", pointer(*where), f"{joint['name']}: times are not sorted")
        if not joint["limits"]:
            diagnostics.warning("METRICS_NO_LIMITS", pointer(*where), f"{joint['name']}: no limits to evaluate")
        entry["limits"] = []
        for i, limit in enumerate(joint["limits"]):
            try:
                entry["limits"].append({"index": i, **evaluate_limit(joint, limit, tolerance)})
            except ValueError as err:
                diagnostics.error("METRICS_BAD_LIMIT", pointer(*where, "limits", i), f"{joint['name']}: {err}")
        results.append(entry)
    return results


# -------------------------------------------------------------------------------------------------- plotting


def plot_text(text: object) -> str:
    """``text`` as matplotlib shows it literally: every ``$`` escaped, so a name like ``$x$`` is never parsed as
    mathtext (a malformed one raised and no plot was written)."""
    return str(text).replace("$", r"\$")


def file_part(name: str, limit: int = MAX_NAME_PART) -> str:
    """``name`` as a safe part of a file name: only ``A-Za-z0-9_.-``, at most ``limit`` characters; a longer one is
    cut and ends with 8 hex digits of the full name's SHA-1, so two long names stay two files."""
    safe = re.sub(r"[^A-Za-z0-9_.-]+", "_", name).strip("._") or "item"
    if len(safe) <= limit:
        return safe
    digest = hashlib.sha1(name.encode("utf-8", "surrogatepass")).hexdigest()[:8]
    return f"{safe[: limit - 9]}-{digest}"


GID_BAND = "limit-band"  # the gid of a limit's [min, max] band (or a locked limit's ± tolerance band)
GID_LOCKED = "limit-locked"  # the gid of a locked limit's line


def draw_limit(ax, lower: float | None, upper: float | None, unit: str, tolerance: float) -> None:
    """The one drawing of a limit's bounds, for ``metrics`` and ``check``: [min, max] as a green band (an open side
    reaches the axes' edge); a locked limit (min = max), whose band would have no height, as a solid line at its
    value with the ± ``tolerance`` band. Call it once the y range is set."""
    low, high = ax.get_ylim()
    if lower is not None and lower == upper:
        edges, band = (lower - tolerance, upper + tolerance), f"± {tolerance:g} {unit}"
        ax.axhspan(*edges, color="tab:green", alpha=0.25, label=band, gid=GID_BAND)
        ax.axhline(lower, color="tab:green", lw=2.0, label=f"locked at {lower:g} {unit}", gid=GID_LOCKED)
    elif lower is not None or upper is not None:
        band_low, band_high = lower if lower is not None else low, upper if upper is not None else high
        ax.axhspan(band_low, band_high, color="tab:green", alpha=0.15, label=f"[min, max] {unit}", gid=GID_BAND)


def joint_figure(joint: dict, entry: dict, tolerance: float):
    """The figure of one joint: each limit's metric over time against its bounds (``draw_limit``), violations in
    red."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    rows = max(1, len(entry["limits"]))
    fig = Figure(figsize=(8, 2.4 * rows), layout="constrained")
    FigureCanvasAgg(fig)
    time = joint["time"]
    for row, result in enumerate(entry["limits"] or [None]):
        ax = fig.add_subplot(rows, 1, row + 1)
        if result is None:
            ax.text(0.5, 0.5, "no valid limits", ha="center", va="center", transform=ax.transAxes)
            continue
        series = result["_series"]
        values = [v for v in (series.min(), series.max(), result["min"], result["max"]) if v is not None]
        pad = max(0.1 * (max(values) - min(values)), 0.01, 5 * tolerance)  # a locked limit is inside, not an edge
        ax.set_ylim(min(values) - pad, max(values) + pad)
        draw_limit(ax, result["min"], result["max"], result["unit"], tolerance)
        ax.plot(time, series, color="tab:blue", lw=1.2, label=plot_text(result["kind"]))
        bad = np.asarray(result["violating_frames"], dtype=int)
        if len(bad):
            ax.plot(time[bad], series[bad], "o", color="tab:red", ms=3, label="violation")
        axes = result.get("linearAxes", result.get("angularAxes"))
        ax.set_ylabel(result["unit"])
        title = f"{entry['name']} — limit {result['index']}: {result['kind']} {axes}"
        ax.set_title(plot_text(title), fontsize=9)
        ax.legend(loc="upper right", fontsize=7)
    fig.axes[-1].set_xlabel("time (s)")
    return fig


def plot_joint(joint: dict, entry: dict, path: pathlib.Path, tolerance: float) -> None:
    """One PNG: ``joint_figure``."""
    joint_figure(joint, entry, tolerance).savefig(path, dpi=90)


def _safe_name(index: int, name: str) -> str:
    return f"{index:02d}_{file_part(name)}.png"


def _tolerance(text: str) -> float:
    """A finite number ≥ 0 (``nan`` compared false with every violation and was written as ``NaN``)."""
    try:
        value = float(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from exc
    if not math.isfinite(value) or value < 0:
        raise argparse.ArgumentTypeError("must be a finite number ≥ 0")
    return value


def _same_file(first: pathlib.Path, second: pathlib.Path | None) -> bool:
    try:
        return second is not None and os.path.samefile(first, second)
    except (OSError, ValueError):
        return False


# ------------------------------------------------------------------------------------------------------- CLI


def add_subcommand(subparsers) -> argparse.ArgumentParser:
    """Register ``metrics`` on an argparse ``subparsers`` object."""
    parser = subparsers.add_parser(
        "metrics",
        help="joint-limit metrics of sampled joint transforms",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    _add_arguments(parser)
    parser.set_defaults(func=run)
    return parser


def _add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("input", type=pathlib.Path, help="samples: .json, .csv or .npz")
    parser.add_argument("--limits", type=pathlib.Path, help='JSON {"joints": [{"name", "limits"}]} (CSV input)')
    parser.add_argument("-o", "--output", type=pathlib.Path, help="write the JSON report here (default: stdout)")
    parser.add_argument("--plot", type=pathlib.Path, metavar="DIR", help="write one PNG per joint into DIR")
    parser.add_argument("--tolerance", type=_tolerance, default=1e-6, help="violations up to this count as inside")
    parser.add_argument("--fail-on-violation", action="store_true", help="exit 1 when any limit is violated")


def run(args: argparse.Namespace) -> int:
    """Run the command; 0 = done, 1 = the input has errors or violations with --fail-on-violation, 2 = usage
    error or unreadable input (``USAGE_CODES``)."""
    diagnostics = DiagnosticList()
    if args.output is not None and (_same_file(args.output, args.input) or _same_file(args.output, args.limits)):
        print(f"error: -o {args.output} is an input: choose another file; nothing written", file=sys.stderr)
        return 2
    try:
        joints = read_samples(args.input, args.limits)
    except PhysicsDataError as err:
        print(err.diagnostic, file=sys.stderr)
        return 2 if err.diagnostic.code in USAGE_CODES else 1
    results = evaluate(joints, args.tolerance, diagnostics)
    if args.plot is not None:
        try:
            import matplotlib  # noqa: F401
        except ImportError:
            diagnostics.error("METRICS_NO_MATPLOTLIB", "", "--plot needs matplotlib: pip install matplotlib")
        else:
            args.plot.mkdir(parents=True, exist_ok=True)
            for i, (joint, entry) in enumerate(zip(joints, results, strict=True)):
                entry["plot"] = str(args.plot / _safe_name(i, joint["name"]))
                plot_joint(joint, entry, pathlib.Path(entry["plot"]), args.tolerance)
    for entry in results:
        for result in entry["limits"]:
            result.pop("_series")
    report = {"format": FORMAT, "input": str(args.input), "tolerance": args.tolerance, "joints": results}
    _, found = strict_json_text(report)
    if found:
        shown = ", ".join(found[:5]) + (f" and {len(found) - 5} more" if len(found) > 5 else "")
        diagnostics.warning(NON_FINITE, "", f"{len(found)} value(s) not finite, written as null: {shown}")
    report["diagnostics"] = [d.to_dict() for d in diagnostics]
    text, _ = strict_json_text(report)
    if args.output is None:
        print(text)
    else:
        try:  # a temporary file beside it, renamed into place: a failed write keeps the previous report
            atomic_write_bytes(args.output, (text + "\n").encode("utf-8"))
        except OSError as exc:
            print(f"error: cannot write {args.output}: {exc.strerror or exc}; nothing written", file=sys.stderr)
            return 2
    for diag in diagnostics:
        print(diag, file=sys.stderr)
    errors = {d.code for d in diagnostics if d.severity >= Severity.ERROR}
    if errors:
        return 2 if errors & USAGE_CODES else 1
    violated = any(r["frames_in_violation"] for entry in results for r in entry["limits"])
    return 1 if violated and args.fail_on_violation else 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="gltf-physics metrics", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    _add_arguments(parser)
    safe_streams()
    return run(parser.parse_args(argv))
