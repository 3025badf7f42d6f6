"""Benchmark (not a test): CPU time of the extension's import hooks per file (issue 10's fixed cost per small file).

Run: ``.venv/bin/python -P tests/bench/bench_import_hooks.py [--runs 5] [--modes disabled off on] [FILE ...]
[--profile N [--sort tottime] [--dump FILE]] [--small-ab N]``

Installs the extension as the Blender test tier does, then imports each file (default: the fixtures of
``tests/fixtures/import`` and ``joints``, the sources of ``bench_convert.py``'s library) ``--runs`` times per mode
after a fresh home file: extension disabled, physics import off, on. Reports, per file and summed: the import's CPU
time (``time.process_time``: less sensitive than wall time to other processes on a shared machine) and the CPU time
spent inside our hook methods (all of them, and ``gather_import_gltf_before_hook`` alone), best of ``--runs`` each.
``--profile N`` then imports the files N times over with physics on and prints a cProfile of our hooks only (the
profiler runs inside the hook methods, so Blender's own import does not show up). ``--small-ab N``: N passes over
the files with physics on, each file imported with ``node_frames.SMALL`` at 0 (numpy for every node count) and at its
value (Python floats for small files) in alternating order: the hooks' CPU time of both, measured side by side in the
same process (robust to other processes on a loaded machine; cold caches count as they do in a real import).
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import importlib
import logging
import pathlib
import pstats
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))  # devkit only; never the repository root
FIXTURES = ROOT / "tests" / "fixtures"
HOOKS = (
    "__init__",
    "gather_import_gltf_before_hook",
    "gather_import_node_before_hook",
    "gather_import_node_after_hook",
    "gather_import_scene_after_nodes_hook",
    "gather_import_scene_after_animation_hook",
)


PROFILE: list[cProfile.Profile] = []  # when set, the hooks run under this profiler


def time_hooks(package: str) -> dict[str, float]:
    """Wrap every import hook method; each call adds its CPU time under its name."""
    spent: dict[str, float] = {}
    hooks = importlib.import_module(f"{package}.io.hooks").GltfPhysicsImport
    for name in HOOKS:
        original = getattr(hooks, name)

        def timed(self, *args, _original=original, _name=name):
            start = time.process_time()
            try:
                if PROFILE:
                    return PROFILE[0].runcall(_original, self, *args)
                return _original(self, *args)
            finally:
                spent[_name] = spent.get(_name, 0.0) + time.process_time() - start

        setattr(hooks, name, timed)
    return spent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="*", type=pathlib.Path)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--profile", type=int, default=0, help="profile our hooks over N passes (physics on)")
    parser.add_argument("--dump", type=pathlib.Path, help="also write the profile there (pstats format)")
    parser.add_argument("--sort", default="tottime", help="profile order: tottime, cumulative, ncalls, ...")
    parser.add_argument("--small-ab", type=int, default=0, help="N passes: node_frames.SMALL 0 vs its value")
    parser.add_argument("--modes", nargs="+", choices=("disabled", "off", "on"), default=["disabled", "off", "on"])
    args = parser.parse_args()
    files = args.files or sorted((FIXTURES / "import").glob("*.gltf")) + sorted((FIXTURES / "joints").glob("*.gltf"))
    import devkit

    addon, _ = devkit.start_installed("gltf_physics_bench_hooks_")
    import addon_utils
    import bpy

    spent = time_hooks(addon.__name__)
    logging.disable(logging.WARNING)  # the import's own console lines are not what is measured

    def once(path: pathlib.Path, mode: str) -> tuple[float, float, float]:
        bpy.ops.wm.read_homefile(use_factory_startup=True, use_empty=True)
        if mode == "disabled":
            addon_utils.disable(devkit.ADDON, default_set=True)
        else:
            devkit.enable()
            bpy.context.scene.gltf_physics.import_physics = mode == "on"
        spent.clear()
        gc.collect()  # no import pays for the previous one's garbage (not timed)
        start = time.process_time()
        bpy.ops.import_scene.gltf(filepath=str(path))
        total = time.process_time() - start
        return total, sum(spent.values()), spent.get("gather_import_gltf_before_hook", 0.0)

    sums = {mode: [0.0, 0.0, 0.0] for mode in args.modes}
    for path in files:
        for mode in args.modes:
            runs = [once(path, mode) for _ in range(args.runs)]
            best = [min(run[k] for run in runs) for k in range(3)]
            sums[mode] = [a + b for a, b in zip(sums[mode], best, strict=True)]
    if args.profile:
        PROFILE.append(cProfile.Profile())
        for _ in range(args.profile):
            for path in files:
                once(path, "on")
        stats = pstats.Stats(PROFILE.pop()).sort_stats(args.sort)
        stats.print_stats(70)
        if args.dump:
            stats.dump_stats(args.dump)
    ab: dict[int, float] = {}
    if args.small_ab:
        frames = importlib.import_module(f"{addon.__name__}.io.gltf.node_frames")
        small = frames.SMALL
        for k in range(args.small_ab):
            for path in files:
                for value in (0, small) if k % 2 else (small, 0):
                    frames.SMALL = value
                    ab[value] = ab.get(value, 0.0) + once(path, "on")[1]
        frames.SMALL = small
    devkit.enable()
    n = len(files)
    for value, hooks in sorted(ab.items()):
        print(f"node_frames.SMALL = {value}: our hooks {hooks * 1e3 / n / args.small_ab:.3f} CPU ms per file (mean)")
    print(f"bpy {bpy.app.version_string}, {n} files, best of {args.runs} per file, CPU ms per file:")
    for mode, (total, hooks, before) in sums.items():
        print(
            f"  {mode:>8}: import {total * 1e3 / n:.3f}, our hooks {hooks * 1e3 / n:.3f} "
            f"(gather_import_gltf_before_hook {before * 1e3 / n:.3f})"
        )


if __name__ == "__main__":
    main()
