"""Benchmark (not a test): *Adopt Physics Settings* on a scene of many bodies carrying the other glTF-physics
add-on's settings (``khr_physics_extra_props``), at several sizes, to see the cost per object and whether it grows.

Run: ``.venv/bin/python -P tests/bench/bench_adopt.py [--sizes 1000 4000]``

Per size: a fresh scene of N box bodies, each with a gravity factor, a velocity and a friction combine mode of the
other add-on, then one ``gltf_physics.adopt_settings``; wall and CPU time of the operator, and per object.
"""

from __future__ import annotations

import argparse
import pathlib
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))  # devkit only; never the repository root
sys.path.insert(0, str(ROOT / "tests" / "blender"))

import devkit  # noqa: E402

SETTINGS = {"gravity_factor": 0.5, "linear_velocity": [1.0, 2.0, 3.0], "friction_combine": 1}


def adopt_once(bpy, count: int) -> tuple[float, float]:
    from scene_helpers import rigid_body_world, rigid_box

    bpy.ops.wm.read_homefile(use_factory_startup=True, use_empty=True)
    devkit.enable()  # read_factory_settings / factory start-up disables user extensions
    rbw = rigid_body_world()
    for i in range(count):
        ob = rigid_box(rbw, f"Crate{i:05d}", location=(i * 2.0, 0.0, 0.0), mass=3.0)
        ob["khr_physics_extra_props"] = dict(SETTINGS)
    wall, cpu = time.perf_counter(), time.process_time()
    result = bpy.ops.gltf_physics.adopt_settings()
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    if result != {"FINISHED"}:
        raise RuntimeError(f"adopt returned {result}")
    return wall, cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 4000])
    args = parser.parse_args()
    devkit.start_installed("gltf_physics_bench_")
    import bpy

    print(f"bpy {bpy.app.version_string}")
    for count in args.sizes:
        wall, cpu = adopt_once(bpy, count)
        print(f"  {count:>6} objects: wall {wall:.3f} s, CPU {cpu:.3f} s, {1e6 * cpu / count:.0f} µs CPU per object")


if __name__ == "__main__":
    main()
