"""Benchmark (not a test): joint-limit metrics on N samples vs a plain einsum pass and a per-sample mathutils loop.

    .venv/bin/python tests/bench/bench_limits.py [--samples 5000000] [--repeat 7] [--subset 50000] [--json PATH]

For every metric kind: joint-samples per second of ``sim.limit_metric`` (best of ``--repeat``; CPU time by default,
so other users' load on a shared machine does not count; ``--clock wall`` for wall time), its cost relative to
one ``np.einsum('ij,ij->i', q_a, q_b)`` pass over the same inputs, and the speed-up over a per-sample Python loop with
Blender's ``mathutils`` (timed on ``--subset`` samples and scaled linearly; the output says so). The mathutils loop
reads pre-built Python tuples, so only the per-sample work is timed. Each metric is also checked against mathutils.
"""

from __future__ import annotations

import argparse
import gc
import json
import math
import pathlib
import sys
import time

import numpy as np

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests"))  # for testkit only; the repository root never goes on sys.path

from testkit import submodule  # noqa: E402

limits = submodule("sim.limits")

KINDS = [
    ("linear", (0,)),
    ("linear", (1,)),
    ("linear", (2,)),
    ("linear", (0, 2)),
    ("linear", (0, 1, 2)),
    ("angular", (0,)),
    ("angular", (1,)),
    ("angular", (2,)),
    ("angular", (0, 1)),
    ("angular", (0, 1, 2)),
]


def load_mathutils():
    try:
        import mathutils
    except ImportError:
        import bpy  # noqa: F401  (the bpy wheel provides mathutils only after bpy is imported)
        import mathutils
    return mathutils


CLOCKS = {"cpu": time.process_time, "wall": time.perf_counter}
CLOCK = CLOCKS["cpu"]


def best_of(repeat: int, func) -> float:
    times = []
    gc.disable()  # no collector pauses inside a timing (favours the allocation-heavy mathutils loop)
    try:
        for _ in range(repeat):
            start = CLOCK()
            func()
            times.append(CLOCK() - start)
    finally:
        gc.enable()
    return min(times)


def mathutils_loop(mu, kind: str, axes: tuple[int, ...], data: dict, from_rows: bool = False) -> list[float]:
    """The per-sample reference: one mathutils Quaternion/Vector computation per joint sample.

    ``data`` holds pre-built (w, x, y, z) tuples, or with ``from_rows`` the numpy inputs (x, y, z, w rows, read and
    reordered per sample).
    """
    Quaternion, Vector = mu.Quaternion, mu.Vector
    quat = (lambda q: Quaternion((q[3], q[0], q[1], q[2]))) if from_rows else Quaternion
    out = []
    if kind == "angular":
        names = "XYZ"
        basis = [Vector((1, 0, 0)), Vector((0, 1, 0)), Vector((0, 0, 1))]
        for qa, qb in zip(data["q_a"], data["q_b"], strict=True):
            a, b = quat(qa), quat(qb)
            if len(axes) == 1:
                out.append((a.conjugated() @ b).to_swing_twist(names[axes[0]])[1])
            elif len(axes) == 2:
                e = basis[3 - sum(axes)]
                out.append(math.acos(max(-1.0, min(1.0, (a @ e).dot(b @ e)))))
            else:
                rel = a.conjugated() @ b
                out.append(2.0 * math.acos(min(1.0, abs(rel.w))))
        return out
    for ta, qa, tb in zip(data["t_a"], data["q_a"], data["t_b"], strict=True):
        delta = Vector(tb) - Vector(ta)
        if len(axes) == 3:
            out.append(delta.length)
            continue
        d = quat(qa).conjugated() @ delta
        out.append(d[axes[0]] if len(axes) == 1 else math.hypot(d[axes[0]], d[axes[1]]))
    return out


def make_inputs(n: int, seed: int = 7) -> tuple[np.ndarray, ...]:
    rng = np.random.default_rng(seed)
    q_a, q_b = rng.normal(size=(n, 4)), rng.normal(size=(n, 4))
    q_a /= np.linalg.norm(q_a, axis=1, keepdims=True)
    q_b /= np.linalg.norm(q_b, axis=1, keepdims=True)
    return rng.normal(size=(n, 3)), q_a, rng.normal(size=(n, 3)), q_b


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--samples", type=int, default=5_000_000)
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--subset", type=int, default=50_000)
    parser.add_argument("--json", type=pathlib.Path)
    parser.add_argument(
        "--clock", choices=sorted(CLOCKS), default="cpu", help="cpu: process time (robust on a shared machine)"
    )
    args = parser.parse_args(argv)
    global CLOCK
    CLOCK = CLOCKS[args.clock]

    t_a, q_a, t_b, q_b = make_inputs(args.samples)
    baseline = best_of(args.repeat, lambda: np.einsum("ij,ij->i", q_a, q_b))
    m = min(args.subset, args.samples)
    mu = load_mathutils()
    wxyz = lambda q: [(r[3], r[0], r[1], r[2]) for r in q[:m].tolist()]  # noqa: E731
    subset = {"t_a": [tuple(r) for r in t_a[:m].tolist()], "t_b": [tuple(r) for r in t_b[:m].tolist()]}
    subset |= {"q_a": wxyz(q_a), "q_b": wxyz(q_b)}

    arrays = {"t_a": t_a[:m], "q_a": q_a[:m], "t_b": t_b[:m], "q_b": q_b[:m]}

    rows = []
    for kind, axes in KINDS:
        kwargs = {f"{kind}_axes": list(axes)}
        ours = best_of(args.repeat, lambda kw=kwargs: limits.limit_metric(t_a, q_a, t_b, q_b, **kw))
        loop = best_of(2 * args.repeat, lambda k=kind, a=axes: mathutils_loop(mu, k, a, subset))
        loop_rows = best_of(args.repeat, lambda k=kind, a=axes: mathutils_loop(mu, k, a, arrays, True))
        reference = np.array(mathutils_loop(mu, kind, axes, subset))
        diff = np.abs(limits.limit_metric(t_a[:m], q_a[:m], t_b[:m], q_b[:m], **kwargs) - reference)
        if kind == "angular" and len(axes) == 1:
            diff = np.minimum(diff, np.abs(diff - 2 * math.pi))  # ±π branch cut may differ
        loop_full = loop * args.samples / m
        rows.append(
            {
                "limit": f"{kind} {list(axes)}",
                "kind": limits.KIND_NAMES[(kind, len(axes))],
                "seconds": ours,
                "samples_per_second": args.samples / ours,
                "cost_vs_einsum": ours / baseline,
                "mathutils_seconds_scaled": loop_full,
                "mathutils_ns_per_sample": 1e9 * loop / m,
                "speedup_vs_mathutils": loop_full / ours,
                "speedup_vs_mathutils_rows": loop_rows * args.samples / m / ours,
                "max_abs_diff_vs_mathutils": float(diff.max()),
            }
        )

    print(f"samples: {args.samples:,}  best of {args.repeat} ({args.clock} clock)  numpy {np.__version__}")
    print(f"baseline np.einsum('ij,ij->i', q_a, q_b): {baseline * 1e3:.1f} ms")
    print(f"mathutils loop timed on the first {m:,} samples and scaled linearly to {args.samples:,}")
    header = f"{'limit':<22}{'kind':<15}{'ms':>8}{'Msamp/s':>9}{'×einsum':>9}{'mu ns/s':>9}{'speed-up':>10}"
    header += f"{'vs rows':>9}{'max|Δ|':>10}"
    print(header)
    print("-" * len(header))
    for r in rows:
        print(
            f"{r['limit']:<22}{r['kind']:<15}{r['seconds'] * 1e3:8.1f}{r['samples_per_second'] / 1e6:9.1f}"
            f"{r['cost_vs_einsum']:9.2f}{r['mathutils_ns_per_sample']:9.0f}{r['speedup_vs_mathutils']:10.0f}"
            f"{r['speedup_vs_mathutils_rows']:9.0f}{r['max_abs_diff_vs_mathutils']:10.1e}"
        )
    print("speed-up: vs the mathutils loop over pre-built tuples; vs rows: the same loop over the numpy inputs")
    if args.json:
        meta = {"samples": args.samples, "repeat": args.repeat, "clock": args.clock, "mathutils_subset": m}
        meta["einsum_seconds"] = baseline
        args.json.write_text(json.dumps({**meta, "rows": rows}, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
