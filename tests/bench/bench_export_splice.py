"""Benchmark (not a test): the physics JSON through io_scene_gltf2's passes vs added after the export (bpy 4.5+).

Run: ``.venv/bin/python -P tests/bench/bench_export_splice.py [--bodies 2000] [--runs 5] [--formats GLTF_SEPARATE GLB]``

Builds the natively authored scene of ``native_scene.py`` and exports it, per run and format, three times in a row
in one process: physics off (plain), physics through the plan (``deferred_json.ENABLED = False``, the path before
issue 14's splice) and physics added after the export. Times are CPU time of this process (``time.process_time``:
steadier than wall time on a shared machine), best of ``--runs``; an untimed ``gc.collect()`` before each export.
Prints per path: total, ratio to plain, our ``pipeline.build`` (the markers' ``stage`` included), ``finish``
(the splice in ``post_export_hook``) and the rest (io_scene_gltf2 handling our JSON, our other hooks), and whether
both physics files are byte-identical.
"""

from __future__ import annotations

import argparse
import gc
import importlib
import pathlib
import sys
import time

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[1] / "scripts"))  # devkit only; never the repository root
sys.path.insert(0, str(HERE))
import native_scene  # noqa: E402
from timers import add_timer  # noqa: E402

import devkit  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bodies", type=int, default=2000)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--formats", nargs="+", default=["GLTF_SEPARATE", "GLB"], choices=["GLTF_SEPARATE", "GLB"])
    args = parser.parse_args()
    addon, user = devkit.start_installed("gltf_physics_bench_")
    import bpy

    native_scene.build(args.bodies)
    pipeline = importlib.import_module(f"{addon.__name__}.io.exporter.pipeline")
    deferred = importlib.import_module(f"{addon.__name__}.io.exporter.deferred_json")
    totals: dict[str, float] = {}
    add_timer(pipeline, "build", totals, "build")
    add_timer(deferred.DeferredJson, "finish", totals, "finish")
    print(f"bpy {bpy.app.version_string}; native scene of {args.bodies} bodies; CPU time, best of {args.runs}")
    for fmt in args.formats:
        path = user / ("out.glb" if fmt == "GLB" else "out.gltf")
        best: dict[str, tuple[float, dict, bytes]] = {}
        for _ in range(args.runs):
            for mode in ("plain", "through the plan", "added after"):
                bpy.context.scene.gltf_physics.export_physics = mode != "plain"
                deferred.ENABLED = mode == "added after"
                totals.clear()
                gc.collect()
                start = time.process_time()
                assert bpy.ops.export_scene.gltf(filepath=str(path), export_format=fmt) == {"FINISHED"}
                spent = time.process_time() - start
                if mode not in best or spent < best[mode][0]:
                    best[mode] = (spent, dict(totals), path.read_bytes())
        deferred.ENABLED = True
        plain = best["plain"][0]
        for mode in ("through the plan", "added after"):
            spent, parts, _ = best[mode]
            build, finish = parts.get("build", 0.0), parts.get("finish", 0.0)
            print(
                f"{fmt} {mode:>16}: {spent:.3f} s = {spent / plain:.2f}x plain {plain:.3f} s; our build {build:.3f} s, "
                f"finish {finish:.3f} s, rest {spent - plain - build - finish:.3f} s"
            )
        print(f"{fmt} physics files byte-identical: {best['through the plan'][2] == best['added after'][2]}")
        sys.stdout.flush()


if __name__ == "__main__":
    import os

    main()
    os._exit(0)  # bpy 4.2 may crash at interpreter exit after a glTF export
