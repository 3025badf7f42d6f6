"""Benchmark (not a test): the Blender tier's empty scene per test, ``read_homefile`` against ``convert``'s wipe.

Run: ``.venv/bin/python -P tests/bench/bench_scene_reset.py [--resets 20] [--rounds 3]``

Installs the extension as the tier does, then per round times ``--resets`` of each, interleaved round by round in one
process: ``wm.read_homefile(use_factory_startup=True, use_empty=True)`` (the tier's reset before 2026-12-08) and
``io/convert/scene_reset.wipe`` (the reset ``tests/blender/blenderkit.empty_scene`` makes, and ``convert``'s workers
between two files). Each reset follows one small glTF import, so that there is a scene's worth of data to remove, as
between two tests. Prints the mean wall time per reset of each, per round.
"""

from __future__ import annotations

import argparse
import importlib
import pathlib
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))  # devkit only; never the repository root

import devkit  # noqa: E402

FIXTURE = ROOT / "tests" / "fixtures" / "joints" / "hinge_x.gltf"


def timed_resets(bpy, reset, count: int) -> float:
    """Mean seconds of ``reset()`` over ``count`` resets, each after importing the fixture."""
    total = 0.0
    for _ in range(count):
        if bpy.ops.import_scene.gltf(filepath=str(FIXTURE)) != {"FINISHED"}:
            raise RuntimeError(f"could not import {FIXTURE}")
        start = time.perf_counter()
        reset()
        total += time.perf_counter() - start
    return total / count


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--resets", type=int, default=20)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    addon, _user = devkit.start_installed("gltf_physics_bench_")
    import bpy

    scene_reset = importlib.import_module(f"{addon.__name__}.io.convert.scene_reset")

    def home() -> None:
        bpy.ops.wm.read_homefile(use_factory_startup=True, use_empty=True)

    def wipe() -> None:
        if not scene_reset.wipe(bpy):
            raise RuntimeError("no window: the wipe cannot run here")

    print(f"bpy {bpy.app.version_string}, {args.resets} resets of each per round, each after importing {FIXTURE.name}")
    for round_ in range(1, args.rounds + 1):
        home_s, wipe_s = timed_resets(bpy, home, args.resets), timed_resets(bpy, wipe, args.resets)
        print(f"  round {round_}: read_homefile {home_s * 1e3:.2f} ms, wipe {wipe_s * 1e3:.2f} ms per reset")


if __name__ == "__main__":
    main()
