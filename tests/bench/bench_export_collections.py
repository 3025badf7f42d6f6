"""Benchmark (not a test): where the collector's passes of an export happen, and what our export hooks cost in CPU.

Run: ``.venv/bin/python -P tests/bench/bench_export_collections.py [--bodies 2000] [--pairs 5]``

The scene of ``bench_fair.py``'s ratio (``bench_import.make_scene``: ``--bodies`` box bodies, half as many joints) is
imported once with physics, then exported (``GLTF_SEPARATE``) with ``Scene.gltf_physics.export_physics`` off (plain)
and on, interleaved (plain first in even pairs), the collector left as it is (no ``gc.collect``, freeze or threshold
change here). Per run: CPU time of the export, CPU time inside our hook methods (``GltfPhysicsExport``: construction
and every ``gather_*`` hook, nested calls counted once) and the collector's passes per generation, split into those
that ran while one of our hooks was running and the others (io_scene_gltf2's own code). Then the medians and the
ratio of the medians. docs/benchmarks.md quotes it.
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import importlib
import io
import json
import pathlib
import statistics
import sys
import time

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[1] / "scripts"))  # devkit only; never the repository root
sys.path.insert(0, str(HERE))
import bench_import  # noqa: E402

import devkit  # noqa: E402


class Probe:
    """Our hooks' CPU time and the collector's passes (generation, inside our hooks) of the current run."""

    def __init__(self, cls) -> None:
        self.cpu, self.depth, self.passes = 0.0, 0, {}
        for name in ["__init__", *(n for n in vars(cls) if n.startswith("gather_"))]:
            setattr(cls, name, self._timed(getattr(cls, name)))
        gc.callbacks.append(self._collected)

    def _timed(self, original):
        def timed(*args):
            self.depth += 1
            start = time.process_time()
            try:
                return original(*args)
            finally:
                self.depth -= 1
                if self.depth == 0:
                    self.cpu += time.process_time() - start

        timed.__name__ = original.__name__
        return timed

    def _collected(self, phase: str, info: dict) -> None:
        if phase == "stop":
            key = (info["generation"], self.depth > 0)
            self.passes[key] = self.passes.get(key, 0) + 1

    def reset(self) -> None:
        self.cpu, self.passes = 0.0, {}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bodies", type=int, default=2000)
    parser.add_argument("--pairs", type=int, default=5)
    args = parser.parse_args()
    addon, user = devkit.start_installed("gltf_physics_collections_")
    import bpy

    source, out = user / "scene.gltf", user / "out.gltf"
    source.write_text(json.dumps(bench_import.make_scene(args.bodies)))
    bpy.ops.wm.read_homefile(use_factory_startup=True, use_empty=True)
    bpy.context.scene.gltf_physics.import_physics = True
    with contextlib.redirect_stdout(io.StringIO()):
        assert bpy.ops.import_scene.gltf(filepath=str(source)) == {"FINISHED"}
    probe = Probe(importlib.import_module(f"{addon.__name__}.io.hooks").GltfPhysicsExport)

    def export(physics: bool) -> dict:
        bpy.context.scene.gltf_physics.export_physics = physics
        probe.reset()
        with contextlib.redirect_stdout(io.StringIO()):
            start = time.process_time()
            assert bpy.ops.export_scene.gltf(filepath=str(out), export_format="GLTF_SEPARATE") == {"FINISHED"}
            cpu = time.process_time() - start
        return {"cpu": cpu, "hooks": probe.cpu, "passes": dict(probe.passes)}

    export(False), export(True)  # untimed: first-run costs (imports, caches) out of the pairs
    runs: dict[bool, list[dict]] = {False: [], True: []}
    for pair in range(args.pairs):
        for physics in (False, True) if pair % 2 == 0 else (True, False):
            runs[physics].append(export(physics))
    median = statistics.median
    print(f"bpy {bpy.app.version_string}: export of {args.bodies} bodies, {args.pairs} interleaved pairs, CPU s")
    for physics, label in ((False, "plain  "), (True, "physics")):
        side = runs[physics]
        cpu = [r["cpu"] for r in side]
        line = f"  {label} export median {median(cpu):.3f} best {min(cpu):.3f}"
        if physics:
            hooks = [r["hooks"] for r in side]
            line += f"; our hooks median {median(hooks):.3f} best {min(hooks):.3f}"
        print(line)
        for gen in (0, 1, 2):
            inside = [r["passes"].get((gen, True), 0) for r in side]
            outside = [r["passes"].get((gen, False), 0) for r in side]
            print(f"    generation {gen} passes per run: in our hooks {inside}, elsewhere {outside}")
    plain, physics = median(r["cpu"] for r in runs[False]), median(r["cpu"] for r in runs[True])
    print(f"  ratio of the medians {physics / plain:.2f}")
    sys.stdout.flush()


if __name__ == "__main__":
    import os

    main()
    os._exit(0)  # bpy 4.2 may crash at interpreter exit after a glTF export
