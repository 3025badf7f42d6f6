"""Benchmark (not a test): batch conversion speed (``convert``) and the per-file cost of physics.

Run: ``.venv/bin/python -P tests/bench/bench_convert.py [--files 500] [--corpus] [--overhead 100] [--runs 3]``

1. A generated library of ``--files`` glTF files: our fixtures (``tests/fixtures/import`` and ``joints``: bodies,
   compound and mesh colliders, every joint type, filters, triggers) copied round-robin into numbered folders.
   ``convert LIB -o OUT --format glb`` is timed (wall clock, fresh OUT, this Python's bpy) with ``--jobs 1`` and
   ``--jobs 2``: files/s and the ratio of wall times.
2. ``--corpus``: the same for the folder ``../shared/corpus`` (read in place; every ``.gltf`` / ``.glb``, each
   re-exported in its own container: ``--format same``, as the corpus holds ``a.gltf`` beside ``a.glb``).
3. Per-file cost of physics: in one bpy process with the extension installed as the Blender test tier does, each of
   ``--overhead`` library files is reset + imported + exported as GLB with ``Scene.gltf_physics`` import and export
   physics off (plain Blender glTF; our hooks return at once) and on; best of ``--runs`` per file, summed.
"""

from __future__ import annotations

import argparse
import json
import os
import pathlib
import shutil
import subprocess
import sys
import tempfile
import time

HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE.parents[1]
FIXTURES = ROOT / "tests" / "fixtures"
CORPUS = pathlib.Path(os.environ.get("GLTF_PHYSICS_SHARED", ROOT.parent / "shared")) / "corpus"
RESULTS: list[str] = []  # printed at the end: Blender's own log lines go to stdout in between


def result(line: str) -> None:
    RESULTS.append(line)
    print(line, file=sys.stderr, flush=True)


def library(folder: pathlib.Path, count: int) -> list[pathlib.Path]:
    sources = sorted((FIXTURES / "import").glob("*.gltf")) + sorted((FIXTURES / "joints").glob("*.gltf"))
    files = []
    for i in range(count):
        source = sources[i % len(sources)]
        target = folder / f"set{i // len(sources):03d}" / source.name
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(source, target)
        files.append(target)
    return files


def timed_convert(inputs: list[pathlib.Path], jobs: int, work: pathlib.Path, fmt: str) -> tuple[float, dict]:
    out, report = work / f"out{jobs}", work / f"report{jobs}.json"
    shutil.rmtree(out, ignore_errors=True)
    report.unlink(missing_ok=True)
    command = [sys.executable, "-P", str(ROOT / "bin" / "launch.py"), "convert", *map(str, inputs), "-o", str(out)]
    start = time.perf_counter()
    result = subprocess.run(
        [*command, "--format", fmt, "--jobs", str(jobs), "--report", str(report)],
        capture_output=True,
        text=True,
        check=False,
    )
    seconds = time.perf_counter() - start
    if not report.is_file():
        raise SystemExit(f"convert failed (exit {result.returncode}): {result.stderr[-2000:]}")
    summary = json.loads(report.read_text())["summary"]
    summary["exit"] = result.returncode
    return seconds, summary


def speed(name: str, inputs: list[pathlib.Path], work: pathlib.Path, fmt: str = "glb") -> None:
    times = {}
    for jobs in (1, 2):
        seconds, summary = timed_convert(inputs, jobs, work, fmt)
        times[jobs] = seconds
        done = summary["converted"] + summary["warnings"]
        result(
            f"{name}: --jobs {jobs}: {summary['files']} files in {seconds:.1f} s = {summary['files'] / seconds:.1f} "
            f"files/s (converted {done}, failed {summary['failed']}, exit {summary['exit']})"
        )
    result(f"{name}: --jobs 2 wall time = {times[2] / times[1]:.2f} x --jobs 1 (target <= 0.6)")


def overhead(files: list[pathlib.Path], runs: int, work: pathlib.Path) -> None:
    sys.path.insert(0, str(ROOT / "scripts"))  # devkit only; never the repository root
    import devkit

    devkit.start_installed("gltf_physics_bench_")
    import bpy

    def once(path: pathlib.Path, physics: bool) -> float:
        bpy.ops.wm.read_homefile(use_factory_startup=True, use_empty=True)
        devkit.enable()
        settings = bpy.context.scene.gltf_physics
        settings.import_physics = settings.export_physics = physics
        start = time.perf_counter()
        bpy.ops.import_scene.gltf(filepath=str(path))
        bpy.ops.export_scene.gltf(filepath=str(work / "overhead.glb"), export_format="GLB")
        return time.perf_counter() - start

    totals = {False: 0.0, True: 0.0}
    for path in files:
        for physics in (False, True):
            totals[physics] += min(once(path, physics) for _ in range(runs))
    per_off, per_on = (totals[k] * 1000 / len(files) for k in (False, True))
    result(
        f"import + GLB export, {len(files)} files, best of {runs}: physics off {per_off:.1f} ms/file, on "
        f"{per_on:.1f} ms/file: physics adds {100 * (per_on / per_off - 1):.0f} % (target <= 20 %)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--files", type=int, default=500)
    parser.add_argument("--corpus", action="store_true")
    parser.add_argument("--overhead", type=int, default=100, help="files for the physics cost (0: skip)")
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    work = pathlib.Path(tempfile.mkdtemp(prefix="bench_convert_"))
    try:
        files = library(work / "lib", args.files)
        speed(f"library of {args.files}", [work / "lib"], work)
        if args.corpus and CORPUS.is_dir():
            speed("corpus", [CORPUS], work, "same")  # a.gltf and a.glb side by side: keep each container
        if args.overhead:
            overhead(files[: args.overhead], args.runs, work)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print("\n".join(["", "== bench_convert", *RESULTS]), flush=True)


if __name__ == "__main__":
    main()
