"""Benchmark (not a test): the per-object checks issue 10's round 2 made cheaper, each against the formulation it
replaced, side by side in one process (best of ``--repeat``, process time).

Run: ``.venv/bin/python -P tests/bench/bench_mesh_checks.py [--repeat 7] [--carts 2000]``

1. A render mesh's bounds (a UV sphere of 2,401 vertices): ``foreach_get`` into float64 and ``min(axis=0)`` /
   ``max(axis=0)`` on (n, 3), against ``mapping.mesh_points.bounds`` (float32, per-axis rows).
2. Checking a render mesh against a capsule collider: the full proxy mesh (``implicit_mesh``) and the numpy
   comparison the importer used, against the outline (``outline=True``) and ``derived_primitive_matches``.
3. The viewport overlay's redraw without changes with ``--carts`` selected compound bodies (a box with a sphere child
   each): ``Object.children`` per body (patched back in) against the redraw's ``ObjectTree``.
"""

from __future__ import annotations

import argparse
import importlib
import pathlib
import sys
import time

import numpy as np

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))  # devkit only; never the repository root
sys.path.insert(0, str(ROOT / "tests" / "blender"))


def _best(fn, repeat: int, number: int = 1) -> float:
    times = []
    for _ in range(repeat):
        start = time.process_time()
        for _ in range(number):
            fn()
        times.append((time.process_time() - start) / number)
    return min(times)


def _old_bounds(mesh):
    co = np.empty(len(mesh.vertices) * 3, dtype=np.float64)
    mesh.vertices.foreach_get("co", co)
    co = co.reshape(-1, 3)
    return co.min(axis=0), co.max(axis=0)


def _old_matches(proxy, bounds_min, bounds_max, rel_tol: float = 1e-3) -> bool:
    lo, hi = proxy.bounds() if proxy.box is None else (np.array(proxy.box[0]), np.array(proxy.box[1]))
    other_lo, other_hi = np.asarray(bounds_min, dtype=float), np.asarray(bounds_max, dtype=float)
    tol = rel_tol * max(float(np.max(hi - lo)), 1e-6)
    return bool(np.all(np.abs(lo - other_lo) <= tol) and np.all(np.abs(hi - other_hi) <= tol))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--carts", type=int, default=2000)
    args = parser.parse_args()
    import devkit

    devkit.start_installed("gltf_physics_bench_checks_")
    import bmesh
    import bpy

    from scene_helpers import rigid_body_world, rigid_box

    package = devkit.ADDON
    points = importlib.import_module(package + ".io.mapping.mesh_points")
    shapes = importlib.import_module(package + ".io.mapping.shapes_to_blender")
    model = importlib.import_module(package + ".io.gltf.model")
    collect = importlib.import_module(package + ".ui.overlay.overlay_collect")
    results = []

    mesh = bpy.data.meshes.new("sphere")
    bm = bmesh.new()
    bmesh.ops.create_uvsphere(bm, u_segments=48, v_segments=51, radius=1.0)
    bm.to_mesh(mesh)
    bm.free()
    assert [v.tolist() for v in _old_bounds(mesh)] == [v.tolist() for v in points.bounds(mesh)]
    old = _best(lambda: _old_bounds(mesh), args.repeat, 200)
    new = _best(lambda: points.bounds(mesh), args.repeat, 200)
    results.append(
        f"bounds of {len(mesh.vertices)} vertices: float64 min(axis=0) {old * 1e6:.1f} us, "
        f"mesh_points.bounds {new * 1e6:.1f} us ({old / new:.1f}x)"
    )

    capsule = model.Shape(
        type=model.CAPSULE, params=model.CapsuleShape(height=0.3, radius_bottom=0.05, radius_top=0.05)
    )
    lo, hi = (-0.05, -0.05, -0.2), (0.05, 0.05, 0.2)
    old = _best(lambda: _old_matches(shapes.implicit_mesh(capsule), lo, hi), args.repeat, 200)
    new = _best(
        lambda: shapes.derived_primitive_matches(shapes.implicit_mesh(capsule, outline=True), lo, hi), args.repeat, 200
    )
    proxy = shapes.implicit_mesh(capsule)
    match_old = _best(lambda: _old_matches(proxy, lo, hi), args.repeat, 200)
    match_new = _best(lambda: shapes.derived_primitive_matches(proxy, lo, hi), args.repeat, 200)
    results.append(
        f"capsule against a render mesh: full proxy + numpy comparison {old * 1e6:.1f} us, outline + "
        f"derived_primitive_matches {new * 1e6:.1f} us; the comparison alone {match_old * 1e6:.1f} -> "
        f"{match_new * 1e6:.1f} us"
    )

    bpy.ops.wm.read_homefile(use_factory_startup=True, use_empty=True)
    devkit.enable()
    rbw = rigid_body_world()
    carts = []
    for i in range(args.carts):
        cart = rigid_box(rbw, f"Cart{i}", shape="COMPOUND", location=(3.0 * i, 0.0, 0.0))
        rigid_box(rbw, f"Wheel{i}", size=(0.5, 0.5, 0.5), shape="SPHERE", location=(1.0, 0.0, 0.0), parent=cart)
        carts.append(cart)
    bpy.context.view_layer.update()
    times = {}
    for label, per_body in (("ObjectTree", False), ("Object.children per body", True), ("ObjectTree", False)):
        original = collect.ObjectTree.children
        if per_body:
            collect.ObjectTree.children = lambda self, ob: ob.children
        try:
            cache = collect.LineCache()
            cache.collect(carts)
            best = _best(lambda cache=cache: cache.collect(carts), 3)
        finally:
            collect.ObjectTree.children = original
        times[label] = min(times.get(label, best), best)
    results.append(
        f"overlay redraw without changes, {args.carts} selected compound bodies: "
        + ", ".join(f"{label} {t * 1e3:.1f} ms" for label, t in times.items())
    )
    print("\n== bench_mesh_checks (bpy " + bpy.app.version_string + ")", file=sys.stderr)
    for line in results:
        print(line, file=sys.stderr)


if __name__ == "__main__":
    main()
