"""Benchmark (not a test): two Blender data-API calls whose cost grows with the file, timed with bpy alone (issue 14).

Run: ``.venv/bin/python -P tests/bench/bench_blender_quadratic.py [--sizes 2000 10000]``

* ``names``: N objects ``B…`` and N Empties ``C….frameA`` exist (as after importing the native bench file), then
  N / 2 Empties are created whose names sort between them (``B….joint``, like the import's constraint Empties
  ``<frame A>.joint``) or after all of them (``Z….joint``). Blender keeps ``bpy.data.objects`` sorted by name and
  finds the place of a new name by walking back from the end.
* ``remove``: N mesh objects and N unlinked Empties exist; the Empties are deleted with one
  ``bpy.data.batch_remove`` or one ``bpy.data.objects.remove`` each (what the import does with replaced Empties).
"""

from __future__ import annotations

import argparse
import time

import bpy


def _names(n: int, between: bool) -> float:
    bpy.ops.wm.read_homefile(use_factory_startup=True, use_empty=True)
    for i in range(n):
        bpy.data.objects.new(f"B{i:05d}", None)
    for i in range(n):
        bpy.data.objects.new(f"C{i:05d}.frameA", None)
    start = time.perf_counter()
    for i in range(n // 2):
        bpy.data.objects.new(f"B{i:05d}.joint" if between else f"Z{i:05d}.joint", None)
    return time.perf_counter() - start


def _remove(n: int, batch: bool) -> float:
    bpy.ops.wm.read_homefile(use_factory_startup=True, use_empty=True)
    mesh = bpy.data.meshes.new("m")
    collection = bpy.context.scene.collection
    for i in range(n):
        collection.objects.link(bpy.data.objects.new(f"B{i:05d}", mesh))
    empties = [bpy.data.objects.new(f"E{i:05d}", None) for i in range(n)]
    start = time.perf_counter()
    if batch:
        bpy.data.batch_remove(empties)
    else:
        for empty in empties:
            bpy.data.objects.remove(empty, do_unlink=False)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[2000, 4000, 10000])
    args = parser.parse_args()
    print(f"bpy {bpy.app.version_string}\n")
    print("| N | N/2 names between | N/2 names after | batch_remove of N | N × objects.remove |")
    print("|---|---|---|---|---|")
    for n in args.sizes:
        row = [_names(n, True), _names(n, False), _remove(n, True), _remove(n, False)]
        print(f"| {n:,} | " + " | ".join(f"{t:.3f} s" for t in row) + " |", flush=True)


if __name__ == "__main__":
    main()
