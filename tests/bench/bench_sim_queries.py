"""Benchmark (not a test): mass properties, filter matrices, segment casts and GJK overlaps of ``sim``.

    .venv/bin/python tests/bench/bench_sim_queries.py [--colliders 2000] [--triangles 200000] [--repeat 5]

Prints best-of-``--repeat`` timings for: polyhedral mass integration of a ``--triangles`` mesh (a triangulated
sphere), the N×N collide matrix of ``--colliders`` random filters over 100 system names (2 uint64 words), one
segment cast against ``--colliders`` implicit colliders (mixed kinds, vectorised per kind) and against the
``--triangles`` mesh (one Möller–Trumbore pass), and GJK overlap tests per second for close capsule pairs.
"""

from __future__ import annotations

import argparse
import pathlib
import sys
import time

import numpy as np

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))  # tests/ (for testkit), never the root

from testkit import submodule

mass = submodule("sim.mass")
pairs = submodule("sim.pairs")
queries = submodule("sim.queries")
overlap = submodule("sim.overlap")
shapes = submodule("sim.shapes")


def best(fn, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return min(times)


def sphere_mesh(n_tri: int) -> tuple[np.ndarray, np.ndarray]:
    """UV sphere with about ``n_tri`` triangles (closed, outward wound)."""
    k = max(4, int(np.sqrt(n_tri / 2)))
    lat = np.linspace(0, np.pi, k + 1)[1:-1]
    lon = np.linspace(0, 2 * np.pi, k, endpoint=False)
    ring = np.stack(
        [np.outer(np.sin(lat), np.cos(lon)), np.repeat(np.cos(lat)[:, None], k, 1), np.outer(np.sin(lat), np.sin(lon))],
        -1,
    ).reshape(-1, 3)
    v = np.vstack([[0, 1, 0], ring, [0, -1, 0]])
    idx = 1 + np.arange(len(lat) * k).reshape(len(lat), k)
    nxt = np.roll(idx, -1, axis=1)
    tris = [np.stack([np.zeros(k, int), nxt[0], idx[0]], 1)]
    tris.append(np.stack([idx[:-1], nxt[:-1], nxt[1:]], -1).reshape(-1, 3))
    tris.append(np.stack([idx[:-1], nxt[1:], idx[1:]], -1).reshape(-1, 3))
    tris.append(np.stack([np.full(k, len(v) - 1), idx[-1], nxt[-1]], 1))
    return v, np.concatenate(tris)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--colliders", type=int, default=2000)
    ap.add_argument("--triangles", type=int, default=200_000)
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    rng = np.random.default_rng(1)

    v, t = sphere_mesh(args.triangles)
    sec = best(lambda: mass.convex_mesh(v, t), args.repeat)
    mp = mass.convex_mesh(v, t)
    print(
        f"mass.convex_mesh: {len(t)} triangles in {sec * 1e3:.1f} ms "
        f"({len(t) / sec / 1e6:.2f} M tri/s); volume/sphere = {mp.mass / mass.sphere(1.0).mass:.5f}"
    )

    names = [f"s{i}" for i in range(100)]
    filters = [
        pairs.CollisionFilter(
            frozenset(rng.choice(names, 2, replace=False)),
            frozenset(rng.choice(names, 60, replace=False)) if rng.random() < 0.5 else None,
        )
        for _ in range(args.colliders)
    ]
    table = pairs.FilterTable(filters)
    sec = best(table.matrix, args.repeat)
    print(
        f"pairs.FilterTable.matrix: {args.colliders}² pairs ({table.words} words) in {sec * 1e3:.1f} ms "
        f"({args.colliders**2 / sec / 1e6:.1f} M pairs/s)"
    )

    kinds = [shapes.Box((1, 2, 0.5)), shapes.Sphere(0.5), shapes.Capsule(1, 0.5, 0.2), shapes.Cylinder(1, 0.5, 0.0)]
    quat = rng.normal(size=(args.colliders, 4))
    cols = [
        queries.Collider(i, kinds[i % 4], position=rng.uniform(-50, 50, 3), rotation=quat[i])
        for i in range(args.colliders)
    ]
    sec = best(lambda: queries.ray_cast(cols, (-60, 0.1, 0.2), (60, 0.3, -0.1), all_hits=True), args.repeat)
    print(f"queries.ray_cast: 1 segment vs {args.colliders} implicit colliders in {sec * 1e3:.1f} ms")
    mesh = [queries.Collider(1, shapes.Mesh(v * 10, t))]
    sec = best(lambda: queries.ray_cast(mesh, (-60, 0.1, 0.2), (60, 0.3, -0.1)), args.repeat)
    print(f"queries.ray_cast: 1 segment vs {len(t)} triangles in {sec * 1e3:.1f} ms ({len(t) / sec / 1e6:.1f} M tri/s)")

    a = queries.Collider(1, shapes.Capsule(1, 0.5, 0.3))
    others = [
        queries.Collider(
            2, shapes.Capsule(1, 0.4, 0.4), position=rng.uniform(-1.5, 1.5, 3), rotation=rng.normal(size=4)
        )
        for _ in range(200)
    ]
    sec = best(lambda: [overlap.overlap(a, b) for b in others], args.repeat)
    print(f"overlap.overlap (GJK, capsule pairs within reach): {len(others) / sec:.0f} pairs/s")


if __name__ == "__main__":
    main()
