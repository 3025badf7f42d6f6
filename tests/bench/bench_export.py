"""Benchmark (not a test): physics export cost on the 2,000-body / 1,000-joint scene of bench_import.py.

Run: ``.venv/bin/python -P tests/bench/bench_export.py [--bodies 2000 | --sizes 1000 2000 4000 10000] [--runs 3]
[--budget 10] [--scene imported|nudged|native|native-empties] [--profile [--sort tottime] [--profile-only REGEX]]
[--profile-diff] [--gc-stats]``

``--scene native`` (issue 14) exports the natively authored scene of ``native_scene.py`` (five shapes, six
constraint types, generated here with the data API); ``native-empties`` imports that scene's file with its bodies on
Empties and exports it again. ``--sizes`` measures each size in the same process (plain and physics exports
interleaved, an untimed ``gc.collect()`` before each) and ends with a markdown table (runs, ratio, added time per
body). Each size gets ``--runs`` runs, then more while it has taken fewer than ``--budget`` seconds (10; at most 25).

Installs the extension as the test tier does, imports the generated file once (physics on), then exports the
scene alternately with ``scene.gltf_physics.export_physics`` off (plain Blender glTF export; our hooks return at
once) and on. ``--native`` first turns every imported joint into an edited one (the Empties are nudged), so the
joints are written from the Blender constraints on new attachment nodes. Reports the best of ``--runs``.
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import json
import pathlib
import pstats
import sys
import time

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[1] / "scripts"))  # devkit only; never the repository root
sys.path.insert(0, str(HERE))
import bench_import  # noqa: E402
import native_scene  # noqa: E402
from timers import add_timer  # noqa: E402

import devkit  # noqa: E402


def time_steps(package: str) -> dict[str, float]:
    """Wrap the export steps to sum their time per run (reset by the caller)."""
    import importlib

    totals: dict[str, float] = {}
    targets = {
        "bodies": ("io.exporter.bodies", "add_object"),
        "filters": ("io.exporter.bodies", "assign_native_filters"),
        "joints": ("io.exporter.joints", "add_joints"),
        "write": ("io.exporter.pipeline", "write_target"),
        "apply": ("io.exporter.pipeline", "apply_output"),
        "build": ("io.exporter.pipeline", "build"),
        "tree filter": ("io.hooks", "GltfPhysicsExport.gather_tree_filter_tag_hook"),
        "node hooks": ("io.hooks", "GltfPhysicsExport.gather_node_hook"),
        "mesh hooks": ("io.hooks", "GltfPhysicsExport.gather_node_mesh_hook"),
    }
    for key, (module_name, path) in targets.items():
        module = importlib.import_module(f"{package}.{module_name}")
        *owner_path, name = path.split(".")
        for part in owner_path:  # a hook method: wrapped on its class
            module = getattr(module, part)
        add_timer(module, name, totals, key, clock=time.perf_counter)
    return totals


PASSES = native_scene.FullPasses()  # the collector's full passes of the last export (printed with --gc-stats)


def export_once(path: pathlib.Path, physics: bool) -> float:
    import bpy

    bpy.context.scene.gltf_physics.export_physics = physics
    PASSES.reset()
    start = time.perf_counter()
    assert bpy.ops.export_scene.gltf(filepath=str(path), export_format="GLTF_SEPARATE") == {"FINISHED"}
    return time.perf_counter() - start


def _self_times(path: pathlib.Path, physics: bool) -> dict[tuple[str, str], float]:
    gc.collect()
    profile = cProfile.Profile()
    profile.enable()
    export_once(path, physics)
    profile.disable()
    return {(f"{pathlib.Path(k[0]).name}", k[2]): v[2] for k, v in pstats.Stats(profile).stats.items()}


def print_profile_diff(path: pathlib.Path, top: int = 30) -> None:
    """One profiled plain and one profiled physics export: the functions whose self time grew most."""
    plain, physics = _self_times(path, False), _self_times(path, True)
    print(f"profiled: plain {sum(plain.values()):.3f} s, with physics {sum(physics.values()):.3f} s (self times)")
    grown = sorted(((physics.get(k, 0.0) - plain.get(k, 0.0), k) for k in set(plain) | set(physics)), reverse=True)
    for delta, (file, function) in grown[:top]:
        print(f"{delta:8.3f} s  {file}:{function}")


def prepare(bpy, user: pathlib.Path, scene: str, bodies: int) -> None:
    """Put the scene to export into ``bpy.context.scene``: ``imported`` (bench_import's generated file imported with
    physics), ``nudged`` (the same with every joint edited, so written from the Blender constraints), ``native`` (the
    natively authored scene of ``native_scene``) or ``native-empties`` (that scene's file with its bodies on Empties,
    imported with physics)."""
    if scene == "native":
        native_scene.build(bodies)
        return
    source = user / f"scene_{scene}_{bodies}.gltf"
    if scene == "native-empties":
        native_scene.write_file(bodies, source, empties=True)
    else:
        source.write_text(json.dumps(bench_import.make_scene(bodies)))
    bpy.ops.wm.read_homefile(use_factory_startup=True, use_empty=True)
    bpy.context.scene.gltf_physics.import_physics = True
    assert bpy.ops.import_scene.gltf(filepath=str(source)) == {"FINISHED"}
    if scene == "nudged":
        for ob in bpy.context.scene.objects:
            if ob.rigid_body_constraint is not None:
                ob.location.z += 0.01
    bpy.context.view_layer.update()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bodies", type=int, default=2000)
    parser.add_argument("--sizes", type=int, nargs="+", help="several body counts: one markdown table row each")
    parser.add_argument("--runs", type=int, default=3, help="runs per size, at least")
    parser.add_argument(
        "--budget", type=float, default=10.0, help="more runs while a size took fewer seconds (0: none)"
    )
    parser.add_argument("--scene", choices=("imported", "nudged", "native", "native-empties"), default="imported")
    parser.add_argument("--native", action="store_true", help="= --scene nudged (every joint written from Blender)")
    parser.add_argument("--profile", action="store_true", help="print the top functions of one physics export")
    parser.add_argument("--sort", default="cumulative", help="pstats sort key of --profile (e.g. tottime)")
    parser.add_argument("--profile-only", default="", help="regex of --profile's lines (e.g. gltf_physics)")
    parser.add_argument("--profile-diff", action="store_true", help="self time per function: physics minus plain")
    parser.add_argument("--gc-stats", action="store_true", help="time of full collector passes in each export")
    args = parser.parse_args()
    if args.native:
        args.scene = "nudged"
    addon, user = devkit.start_installed("gltf_physics_bench_")
    import bpy

    out = user / "out.gltf"
    totals = time_steps(addon.__name__)
    if args.gc_stats:
        PASSES.start()
    rows = []
    for bodies in args.sizes or [args.bodies]:
        prepare(bpy, user, args.scene, bodies)
        plain, physics, steps = [], [], []
        for _ in native_scene.repetitions(args.runs, args.budget):
            gc.collect()  # no export pays for the previous one's garbage (not timed)
            plain.append(export_once(out, False))
            collected = PASSES.text()
            totals.clear()
            gc.collect()
            physics.append(export_once(out, True))
            steps.append(dict(totals))
            if args.gc_stats:
                print(f"full collector passes: plain {collected}, physics {PASSES.text()}")
        rows.append({"bodies": bodies, "plain": plain, "physics": physics})
        hooks = __import__(f"{addon.__name__}.io.hooks", fromlist=["last_report"])
        report = hooks.last_report("export")
        written = json.loads(out.read_text())
        joints = sum(
            "joint" in (n.get("extensions") or {}).get("KHR_physics_rigid_bodies", {}) for n in written["nodes"]
        )
        nodes = len(written["nodes"])
        print(f"bpy {bpy.app.version_string}; {args.scene} scene of {bodies} bodies: {nodes} nodes written, ")
        print(f"  {joints} joints; counts {report.counts}")
        print(f"plain glTF export (physics off): best {min(plain):.3f} s  runs {[round(t, 3) for t in plain]}")
        print(f"with physics export:             best {min(physics):.3f} s  runs {[round(t, 3) for t in physics]}")
        print(f"ratio: {min(physics) / min(plain):.2f}x  (physics part: {min(physics) - min(plain):.3f} s)")
        best = steps[physics.index(min(physics))]
        print("steps of the best physics run: " + ", ".join(f"{k} {v:.3f} s" for k, v in best.items()))
        sys.stdout.flush()
    print(f"\nbpy {bpy.app.version_string}, {args.scene} scene, best of the interleaved runs (at least {args.runs}):\n")
    print(native_scene.markdown_table(rows, "export"))
    if args.profile:
        profile = cProfile.Profile()
        profile.enable()
        export_once(out, True)
        profile.disable()
        pstats.Stats(profile).sort_stats(args.sort).print_stats(*([args.profile_only] if args.profile_only else []), 50)
    if args.profile_diff:
        print_profile_diff(out)
    sys.stdout.flush()


if __name__ == "__main__":
    import os

    main()
    os._exit(0)  # bpy 4.2 may crash at interpreter exit after a glTF export
