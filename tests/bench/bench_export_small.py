"""Benchmark (not a test): the fixed cost of our export hooks on small files (issue 10, per-file overhead).

Run: ``.venv/bin/python -P tests/bench/bench_export_small.py [--exports 40] [--parts] [--with-reproduce]
[--profile N [--sort tottime] [--callers REGEX]] [FILES…]``

Each file (default: the one-body ``tests/fixtures/basic_body.gltf`` and every file of ``tests/fixtures/import`` and
``joints`` that imports) is imported once with physics (as ``convert`` imports for a glTF output: Reproduce Motion off;
``--with-reproduce``: with it, as an interactive import), then exported as GLB ``--exports`` times with physics on;
per file the mean of the faster half of the whole export time (wall clock) and of the CPU time spent inside our export
hooks (``GltfPhysicsExport``: construction + every hook call, summed per export; process time, so other processes on
a loaded machine do not count). An export with physics off is no baseline for an imported file: the import helpers
(constraint Empties, proxies) are then exported as nodes. ``--parts`` also prints the CPU time of every hook method and
of the export pipeline's steps (``PARTS``, ``Builder``'s node passes, ``pipeline._report_export``; inclusive, each
call's timer adds ≈ 1 µs), per export, averaged over the files.
``--profile N``: cProfile of N physics exports of the first file, our functions by cumulative time (``--sort``);
``--callers REGEX``: then who calls the functions matching REGEX (e.g. ``stored_values.py:.*__getattr__``: which
steps read stored values, how often).
"""

from __future__ import annotations

import argparse
import cProfile
import pathlib
import pstats
import sys
import time

HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(ROOT / "scripts"))  # devkit only; never the repository root

import devkit  # noqa: E402


def default_files() -> list[pathlib.Path]:
    fixtures = ROOT / "tests" / "fixtures"
    joints = sorted((fixtures / "joints").glob("*.gltf"))
    return [fixtures / "basic_body.gltf", *sorted((fixtures / "import").glob("*.gltf")), *joints]


def fast_half_mean(values: list[float]) -> float:
    ordered = sorted(values)
    half = ordered[: max(1, len(ordered) // 2)]
    return sum(half) / len(half)


def time_hooks(cls) -> list[float]:
    """Wrap the hook class's constructor and hook methods: their CPU time is summed into the returned one-item list."""
    inside = [0.0]
    for name in ["__init__", *(n for n in vars(cls) if n.startswith("gather_"))]:
        original = getattr(cls, name)

        def timed(*args, _original=original):
            start = time.process_time()
            try:
                return _original(*args)
            finally:
                inside[0] += time.process_time() - start

        timed.__name__ = name
        setattr(cls, name, timed)
    return inside


PARTS = {  # ``--parts``: module → functions called through its namespace (inclusive CPU time, ≈ 1 µs per call)
    "io.exporter.pipeline": (
        "build",
        "write_target",
        "apply_output",
        "extension_names",
        "_report_export",
        "session_decision",  # the tree filter's per-object questions
        "moves_nodes",
    ),
    "io.exporter.selection": ("export_decision", "stand_in_bone", "is_helper_joint", "has_stored"),
    "io.exporter.bodies": ("add_object", "assign_native_filters", "stored_motion", "stored_collider", "stored_trigger"),
    "io.exporter.unwritten": ("warn_unwritten",),
    "io.exporter.stored": ("realizer", "_stored_geometry", "_stored_material", "_stored_filter", "_stored_extras"),
    "io.exporter.joints": (
        "add_joints",
        "restore_nodes",
        "drop_unused_descriptions",
        "_one",
        "_write_stored",
        "stored_description",
        "plan_joint",
    ),
}


def time_parts(package: str, totals: dict[str, float]) -> None:
    """Wrap every hook method on its own and the functions of ``PARTS`` (``--parts``)."""
    import importlib

    sys.path.insert(0, str(HERE))  # tests/bench, for timers
    from timers import add_timer

    for module_name, names in PARTS.items():
        module = importlib.import_module(f"{package}.{module_name}")
        for name in names:  # a name that is gone fails here: PARTS follows the pipeline
            add_timer(module, name, totals, f"part {module_name.rsplit('.', 1)[-1]}.{name}")
    builder = importlib.import_module(f"{package}.io.exporter.context").Builder
    add_timer(builder, "restore_parents", totals, "part Builder.restore_parents")
    add_timer(builder, "finish_nodes", totals, "part Builder.finish_nodes")
    add_timer(builder, "__init__", totals, "part Builder.__init__")
    cls = importlib.import_module(f"{package}.io.hooks").GltfPhysicsExport
    for name in ["__init__", *(n for n in vars(cls) if n.startswith(("gather_", "post_")))]:
        add_timer(cls, name, totals, f"hook {name}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="*", type=pathlib.Path)
    parser.add_argument("--exports", type=int, default=40)
    parser.add_argument("--profile", type=int, default=0)
    parser.add_argument("--callers", default="", help="with --profile: who calls the functions matching this regex")
    parser.add_argument("--sort", default="cumulative", help="the profile's order (cProfile sort key)")
    parser.add_argument("--parts", action="store_true", help="CPU time per hook and per pipeline step")
    parser.add_argument("--with-reproduce", action="store_true", help="import with Reproduce Motion (interactive)")
    args = parser.parse_args()
    reproduce = args.with_reproduce
    addon, user = devkit.start_installed("gltf_physics_bench_")
    import bpy

    out = user / "small.glb"
    parts: dict[str, float] = {}
    if args.parts:
        time_parts(addon.__name__, parts)
    inside = time_hooks(__import__(f"{addon.__name__}.io.hooks", fromlist=["GltfPhysicsExport"]).GltfPhysicsExport)

    def export(on: bool) -> tuple[float, float]:
        bpy.context.scene.gltf_physics.export_physics = on
        inside[0] = 0.0
        start = time.perf_counter()
        bpy.ops.export_scene.gltf(filepath=str(out), export_format="GLB")
        return time.perf_counter() - start, inside[0]

    def load(path: pathlib.Path) -> bool:
        bpy.ops.wm.read_homefile(use_factory_startup=True, use_empty=True)
        devkit.enable()
        settings = bpy.context.scene.gltf_physics
        settings.import_physics = True
        settings.import_reproduce = reproduce  # off, as ``convert`` imports for a glTF output
        try:
            bpy.ops.import_scene.gltf(filepath=str(path))
        except RuntimeError:  # a malformed fixture
            return False
        return True

    rows, part_totals = [], {}
    for path in args.files or default_files():
        if not load(path):
            continue
        export(True)  # warm up
        parts.clear()
        runs = [export(True) for _ in range(args.exports)]
        for key, value in parts.items():
            part_totals[key] = part_totals.get(key, 0.0) + value / args.exports
        rows.append((path.name, fast_half_mean([r[0] for r in runs]), fast_half_mean([r[1] for r in runs])))
    if args.profile:
        load((args.files or default_files())[0])
        export(True)
        profile = cProfile.Profile(time.process_time)
        profile.enable()
        for _ in range(args.profile):
            export(True)
        profile.disable()
        stats = pstats.Stats(profile).sort_stats(args.sort)
        stats.print_stats("gltf_physics", 40)
        if args.callers:
            stats.print_callers(args.callers)
    for name, total, hooks in rows:
        print(f"{name:28s} export {total * 1000:7.3f} ms, CPU time in our hooks {hooks * 1000:6.3f} ms")
    if part_totals:
        print("\nCPU ms per export (mean over the exports, then over the files), largest first:")
        for key, value in sorted(part_totals.items(), key=lambda kv: -kv[1]):
            print(f"  {key:50s} {value * 1000 / len(rows):7.3f}")
    total = sum(r[1] for r in rows) / len(rows)
    hooks = sum(r[2] for r in rows) / len(rows)
    print(
        f"\nbpy {bpy.app.version_string}, {len(rows)} files, {args.exports} exports each (mean of the faster half): "
        f"export with physics {total * 1000:.3f} ms/file, CPU time in our hooks {hooks * 1000:.3f} ms/file"
    )
    sys.stdout.flush()


if __name__ == "__main__":
    import os

    main()
    os._exit(0)  # bpy 4.2 may crash at interpreter exit after a glTF export
