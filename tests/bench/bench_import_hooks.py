"""Benchmark (not a test): CPU time of the extension's import hooks per file (issue 10's fixed cost per small file).

Run: ``.venv/bin/python -P tests/bench/bench_import_hooks.py [--runs 5] [--modes disabled off on] [--steps [--parts]]
[FILE_OR_FOLDER ...] [--profile N [--sort tottime] [--dump FILE]]``

Installs the extension as the Blender test tier does, then imports each file (folders walked for ``.gltf`` / ``.glb``;
default: the fixtures of ``tests/fixtures/import`` and ``joints``) ``--runs`` times per mode after a fresh home file:
extension disabled, physics import off, on. Reports, per file and summed: the import's CPU time
(``time.process_time``: less sensitive than wall time to other processes on a shared machine) and the CPU time spent
inside our hook methods (all of them, and ``gather_import_gltf_before_hook`` alone), best of ``--runs`` each.
``--steps`` also times, with physics on, parsing and validation (``parse_gltf`` as ``ImportRun.read`` calls it) and
each step of the import pipeline (``io/importer/pipeline.py``: world, bodies, replaced Empties, triggers, filters,
joints, reproduction) and every hook on its own: the mean over the files of the fastest import's times, largest first
(steps run inside hooks); ``--parts`` adds the functions inside the body step (``PARTS``: motion bodies, stored
collider values, compound children, proxies, own-shape checks, the stored-value writers, and what ``ImportRun.read``
calls; inclusive times, each call's timer adds ≈ 1 µs). ``--profile N`` then imports the files N times over with
physics on and prints a cProfile of our hooks only (the profiler runs inside the hook methods, so Blender's own import
does not show up).
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
sys.path.insert(0, str(ROOT / "tests" / "bench"))

from timers import add_timer  # noqa: E402

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
    """Wrap every import hook method; each call adds its CPU time under its name (under ``PROFILE`` when set)."""
    spent: dict[str, float] = {}
    hooks = importlib.import_module(f"{package}.io.hooks").GltfPhysicsImport
    for name in HOOKS:
        add_timer(hooks, name, spent, name, runner=lambda: PROFILE[0] if PROFILE else None)
    return spent


STEPS = {  # module imported by io/importer/pipeline.py → its function the pipeline calls
    "bodies": "build",
    "triggers": "build",
    "filters": "apply",
    "joints": "build",
    "reproduce": "build",
}


PARTS = {  # ``--parts``: functions inside the body step (module → names it calls through its own namespace)
    "io.importer.bodies": (
        "_motion_body",
        "_store_collider",
        "_compound_child",
        "_static_collider",
        "_prepare_collider",
        "add_rigid_body",
        "apply_motion",
        "own_shape",
        "new_shape_data",
        "new_child_object",
        "replace_with_mesh_object",
        "relative_transform",
    ),
    "io.importer.geometry": ("mesh_volume", "implicit_mesh", "_scaled_gltf_mesh", "mesh_from_shape", "_own_implicit"),
    "io.mapping.mesh_points": ("is_centred_box", "bounds"),
    "io.importer.pipeline": (  # what ImportRun.read calls through the pipeline's namespace
        "create_world_early",
        "replacement_candidates",
        "EmptyPlaceholders",
        "node_joints",
        "JointEmpties",
        "mark_outside_scene",
        "ImportContext",
    ),
    "io.mapping.stored": ("store_motion", "store_filter", "store_geometry", "store_material", "apply_material"),
    "io.importer.joints": (
        "_build_one",
        "configure_constraint",
        "_store",
        "_on_node",
        "_constraint_empty",
        "_side",
        "plan_joint",
        "store_description",
        "assign",
    ),
    "io.mapping.stored_values": ("dumps", "match_rows"),  # what ImportContext.flush_stored writes through
    "io.mapping.filter_rows": ("rebuild",),
}


def time_steps(package: str, parts: bool = False) -> dict[str, float]:
    """Wrap parsing and the pipeline's steps: CPU time per label (the hooks are ``time_hooks``'); with ``parts`` also
    the functions of ``PARTS`` (inclusive: a part that calls another counts it too)."""
    steps: dict[str, float] = {}
    for module_name, names in PARTS.items() if parts else ():
        module = importlib.import_module(f"{package}.{module_name}")
        for name in names:
            add_timer(module, name, steps, f"part {module_name.rsplit('.', 1)[-1]}.{name}")
    pipeline = importlib.import_module(f"{package}.io.importer.pipeline")
    owners = [(getattr(pipeline, module), function, f"step {module}") for module, function in STEPS.items()]
    owners += [(pipeline, name, f"step {name}") for name in ("ensure_world", "remove_replaced")]
    owners.append((pipeline, "parse_gltf", "parse and validate"))  # ImportRun.read
    context = importlib.import_module(f"{package}.io.importer.context")
    proxies = importlib.import_module(f"{package}.io.importer.proxies")
    owners += [  # the build's own steps around the ones above (classes from their modules: ``PARTS`` wraps names)
        (context.ImportContext, "flush_stored", "step flush_stored"),
        (pipeline, "collect_objects", "step collect_objects"),
        (pipeline.blender_settings, "apply", "step blender_settings"),
        (pipeline.joint_empties, "remove_unused", "step remove_unused_joint_empties"),
        (proxies.EmptyPlaceholders, "finish", "step placeholders.finish"),
        (pipeline, "summary_lines", "step summary_lines"),
    ]
    for owner, name, label in owners:
        add_timer(owner, name, steps, label)
    return steps


def inputs(paths: list[pathlib.Path]) -> list[pathlib.Path]:
    """The files named and the ``.gltf`` / ``.glb`` files of the folders named, in order."""
    found = []
    for path in paths:
        if path.is_dir():
            found.extend(sorted(p for p in path.rglob("*") if p.suffix.lower() in (".gltf", ".glb")))
        elif path.is_file():
            found.append(path)
        else:
            raise SystemExit(f"{path}: no such file or folder")
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="*", type=pathlib.Path)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--profile", type=int, default=0, help="profile our hooks over N passes (physics on)")
    parser.add_argument("--dump", type=pathlib.Path, help="also write the profile there (pstats format)")
    parser.add_argument("--sort", default="tottime", help="profile order: tottime, cumulative, ncalls, ...")
    parser.add_argument("--modes", nargs="+", choices=("disabled", "off", "on"), default=["disabled", "off", "on"])
    parser.add_argument("--steps", action="store_true", help="also time parsing and each import step (physics on)")
    parser.add_argument("--parts", action="store_true", help="with --steps: also the functions of the body step")
    args = parser.parse_args()
    files = inputs(args.files) or sorted((FIXTURES / "import").glob("*.gltf")) + sorted(
        (FIXTURES / "joints").glob("*.gltf")
    )
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
    step_totals: dict[str, float] = {}
    steps_whole = 0.0
    if args.steps:
        steps = time_steps(addon.__name__, args.parts)
        for path in files:
            best: tuple[float, dict[str, float]] | None = None
            for _ in range(args.runs):
                steps.clear()
                total = once(path, "on")[0]
                if best is None or total < best[0]:
                    best = (total, {**{f"hook {k}": v for k, v in spent.items()}, **steps})
            steps_whole += best[0]
            for label, seconds in best[1].items():
                step_totals[label] = step_totals.get(label, 0.0) + seconds
    if args.profile:
        PROFILE.append(cProfile.Profile())
        for _ in range(args.profile):
            for path in files:
                once(path, "on")
        stats = pstats.Stats(PROFILE.pop()).sort_stats(args.sort)
        stats.print_stats(70)
        if args.dump:
            stats.dump_stats(args.dump)
    devkit.enable()
    n = len(files)
    if step_totals:
        print(f"physics on, fastest of {args.runs} imports per file with its steps' times, CPU ms per file (mean):")
        print(f"  {'import':44s} {steps_whole * 1e3 / n:7.3f}")
        for label, seconds in sorted(step_totals.items(), key=lambda item: -item[1]):
            print(f"  {label:44s} {seconds * 1e3 / n:7.3f}")
    print(f"bpy {bpy.app.version_string}, {n} files, best of {args.runs} per file, CPU ms per file:")
    for mode, (total, hooks, before) in sums.items():
        print(
            f"  {mode:>8}: import {total * 1e3 / n:.3f}, our hooks {hooks * 1e3 / n:.3f} "
            f"(gather_import_gltf_before_hook {before * 1e3 / n:.3f})"
        )


if __name__ == "__main__":
    main()
