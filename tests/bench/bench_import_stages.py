"""Benchmark (not a test): where our import hooks spend their time, step by step, per file (issue 10's per-file cost).

Run: ``.venv/bin/python -P tests/bench/bench_import_stages.py [--runs 5] [--limit N] FILE_OR_FOLDER…``

Installs the extension as the Blender test tier does and imports each ``.gltf`` / ``.glb`` (folders walked) ``--runs``
times with physics on after a fresh home file. Every hook method and every step of the import pipeline
(``io/importer/pipeline.py``: world, bodies, replaced Empties, triggers, filters, joints, reproduction) is wrapped
with a CPU timer (``time.process_time``); per file the fastest import is kept with its steps' times, and the mean
over the files is printed: the whole import, then each hook and step, largest first. Steps run inside hooks, so
their times are part of their hook's.
"""

from __future__ import annotations

import argparse
import importlib
import logging
import pathlib
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))  # devkit only; never the repository root

import devkit  # noqa: E402

STEPS = {  # module imported by io/importer/pipeline.py → its function the pipeline calls
    "bodies": "build",
    "triggers": "build",
    "filters": "apply",
    "joints": "build",
    "reproduce": "build",
}
HOOKS = (
    "__init__",
    "gather_import_gltf_before_hook",
    "gather_import_node_before_hook",
    "gather_import_node_after_hook",
    "gather_import_scene_after_nodes_hook",
    "gather_import_scene_after_animation_hook",
)


def wrap(owner, name: str, label: str, spent: dict[str, float]) -> None:
    """Replace ``owner.name`` by a version that adds its CPU time to ``spent[label]``."""
    original = getattr(owner, name)

    def timed(*args, **kwargs):
        start = time.process_time()
        try:
            return original(*args, **kwargs)
        finally:
            spent[label] = spent.get(label, 0.0) + time.process_time() - start

    setattr(owner, name, timed)


def instrument(package: str) -> dict[str, float]:
    spent: dict[str, float] = {}
    pipeline = importlib.import_module(f"{package}.io.importer.pipeline")
    hooks = importlib.import_module(f"{package}.io.hooks")
    for module, function in STEPS.items():
        wrap(getattr(pipeline, module), function, f"step {module}", spent)
    for name in ("ensure_world", "remove_replaced"):
        wrap(pipeline, name, f"step {name}", spent)
    wrap(hooks, "parse_gltf", "parse and validate", spent)
    for name in HOOKS:
        wrap(hooks.GltfPhysicsImport, name, f"hook {name}", spent)
    return spent


def inputs(paths: list[pathlib.Path]) -> list[pathlib.Path]:
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
    parser.add_argument("paths", nargs="+", type=pathlib.Path)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--limit", type=int, default=0, help="only the first N files")
    args = parser.parse_args()
    files = inputs(args.paths)[: args.limit or None]
    addon, _ = devkit.start_installed("gltf_physics_bench_stages_")
    import bpy

    spent = instrument(addon.__name__)
    logging.disable(logging.WARNING)  # the import's own console lines are not what is measured
    totals: dict[str, float] = {}
    whole = 0.0
    for path in files:
        best: tuple[float, dict[str, float]] | None = None
        for _ in range(args.runs):
            bpy.ops.wm.read_homefile(use_factory_startup=True, use_empty=True)
            devkit.enable()
            bpy.context.scene.gltf_physics.import_physics = True
            spent.clear()
            start = time.process_time()
            bpy.ops.import_scene.gltf(filepath=str(path))
            seconds = time.process_time() - start
            if best is None or seconds < best[0]:
                best = (seconds, dict(spent))
        whole += best[0]
        for label, seconds in best[1].items():
            totals[label] = totals.get(label, 0.0) + seconds
    n = max(len(files), 1)
    print(f"bpy {bpy.app.version_string}, {len(files)} files, fastest of {args.runs} imports each, CPU ms per file:")
    print(f"  {'import (physics on)':44s} {whole * 1e3 / n:7.3f}")
    for label, seconds in sorted(totals.items(), key=lambda item: -item[1]):
        print(f"  {label:44s} {seconds * 1e3 / n:7.3f}")


if __name__ == "__main__":
    main()
