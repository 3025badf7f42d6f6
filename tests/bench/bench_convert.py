"""Benchmark (not a test): batch conversion speed (``convert``) and the per-file cost of physics.

Run: ``.venv/bin/python -P tests/bench/bench_convert.py [--files 500] [--library fixtures assets] [--corpus]
[--overhead 100] [--runs 3] [--no-speed] [--rounds R] [--with-reproduce]``

1. Generated libraries of ``--files`` files each (``--library``, both by default):
   - ``fixtures``: our unit fixtures (``tests/fixtures/import`` and ``joints``: bodies, compound and mesh colliders,
     every joint type, filters, triggers; 2 to 8 nodes and a few triangles each) copied round-robin into numbered
     folders: the worst case, where physics is most of each file;
   - ``assets``: ``asset_library.py``'s assets (crate stacks, doors, chains, vehicles, rock fields: render meshes of
     0.6k to 7k triangles, bodies, joints, drives, filters, triggers, convex-hull and triangle-mesh colliders, .glb).
   ``convert LIB -o OUT --format glb`` is timed (wall clock, fresh OUT, this Python's bpy) with ``--jobs 1`` and
   ``--jobs 2``: files/s and the ratio of wall times.
2. ``--corpus``: the same for the folder ``../shared/corpus`` (read in place; every ``.gltf`` / ``.glb``, each
   re-exported in its own container: ``--format same``, as the corpus holds ``a.gltf`` beside ``a.glb``).
3. Per-file cost of physics: in one bpy process with the extension installed as the Blender test tier does, each of
   the first ``--overhead`` files of each library is reset + imported + exported as GLB (only import + export timed)
   with the extension disabled (plain Blender glTF, the issue's baseline: no file of the library lists a physics
   extension in ``extensionsRequired``), enabled with ``Scene.gltf_physics`` import and export physics off (our hooks
   return at once) and on as ``convert`` runs a glTF output (Reproduce Motion off: its helpers are for a ``.blend``;
   otherwise the ordinary import and export); best of ``--runs`` per file, summed. With ``--corpus`` the same for
   every corpus file, each re-exported in its own container (``.gltf`` separate, ``.glb``), its best import and best
   export summed, then the import and export time physics adds and the five files that add most; a file that cannot
   be imported in every mode (one that lists a physics extension in ``extensionsRequired`` fails with the extension
   disabled, a malformed validator test file fails in all) is excluded and counted. ``--no-speed`` skips parts 1 and
   2. ``--with-reproduce`` adds a fourth mode per file: physics on with Reproduce Motion (an interactive import and
   export).
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import pathlib
import resource
import shutil
import subprocess
import sys
import tempfile
import time

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))  # tests/bench, for the asset generator (never the repository root)
import asset_library  # noqa: E402

ROOT = HERE.parents[1]
FIXTURES = ROOT / "tests" / "fixtures"
CORPUS = pathlib.Path(os.environ.get("GLTF_PHYSICS_SHARED", ROOT.parent / "shared")) / "corpus"
RESULTS: list[str] = []  # printed at the end: Blender's own log lines go to stdout in between


def result(line: str) -> None:
    RESULTS.append(line)
    print(line, file=sys.stderr, flush=True)


def fixture_library(folder: pathlib.Path, count: int) -> list[pathlib.Path]:
    """``count`` copies of the unit fixtures, round-robin, in numbered folders."""
    sources = sorted((FIXTURES / "import").glob("*.gltf")) + sorted((FIXTURES / "joints").glob("*.gltf"))
    files = []
    for i in range(count):
        source = sources[i % len(sources)]
        target = folder / f"set{i // len(sources):03d}" / source.name
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(source, target)
        files.append(target)
    return files


LIBRARIES = {"fixtures": fixture_library, "assets": asset_library.generate}  # seed 0


def timed_convert(inputs: list[pathlib.Path], jobs: int, work: pathlib.Path, fmt: str) -> tuple[float, dict]:
    out, report = work / f"out{jobs}", work / f"report{jobs}.json"
    shutil.rmtree(out, ignore_errors=True)
    report.unlink(missing_ok=True)
    command = [sys.executable, "-P", str(ROOT / "bin" / "launch.py"), "convert", *map(str, inputs), "-o", str(out)]
    before, start = _children_cpu(), time.perf_counter()
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
    summary["cpu"] = _children_cpu() - before  # the driver and its workers (waited for), user + system
    return seconds, summary


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _load() -> str:
    try:
        return " ".join(pathlib.Path("/proc/loadavg").read_text().split()[:3])
    except OSError:
        return "?"


def speed(name: str, inputs: list[pathlib.Path], work: pathlib.Path, fmt: str = "glb", rounds: int = 1) -> None:
    """``--jobs 1`` and ``--jobs 2`` alternately, ``rounds`` times (a shared machine's load drifts): best of each."""
    times: dict[int, list[float]] = {1: [], 2: []}
    for _ in range(rounds):
        for jobs in (1, 2):
            seconds, summary = timed_convert(inputs, jobs, work, fmt)
            times[jobs].append(seconds)
            done = summary["converted"] + summary["warnings"]
            result(
                f"{name}: --jobs {jobs}: {summary['files']} files in {seconds:.1f} s = "
                f"{summary['files'] / seconds:.1f} files/s, CPU {summary['cpu']:.1f} s (converted {done}, failed "
                f"{summary['failed']}, exit {summary['exit']}; load average {_load()})"
            )
    best = {jobs: min(values) for jobs, values in times.items()}
    result(f"{name}: --jobs 2 wall time = {best[2] / best[1]:.2f} x --jobs 1, best of {rounds} (target <= 0.6)")


WITH_REPRODUCE = "on, Reproduce Motion on"  # ``--with-reproduce``: physics on and the reproduction helpers


def overhead(
    libraries: dict[str, list[pathlib.Path]],
    runs: int,
    work: pathlib.Path,
    corpus: list[pathlib.Path] | None = None,
    with_reproduce: bool = False,
) -> None:
    sys.path.insert(0, str(ROOT / "scripts"))  # devkit only; never the repository root
    import devkit

    devkit.start_installed("gltf_physics_bench_")
    import addon_utils
    import bpy

    def once(path: pathlib.Path, mode: str, container: str) -> tuple[float, float]:
        """Seconds of the import and of the export (the scene reset before them is not timed)."""
        bpy.ops.wm.read_homefile(use_factory_startup=True, use_empty=True)
        if mode == "disabled":
            addon_utils.disable(devkit.ADDON, default_set=True)
        else:
            devkit.enable()
            settings = bpy.context.scene.gltf_physics
            settings.import_physics = settings.export_physics = mode != "off"
            settings.import_reproduce = mode == WITH_REPRODUCE  # convert: only for a .blend output
        out = work / "overhead" / ("overhead.glb" if container == "GLB" else "overhead.gltf")
        out.parent.mkdir(exist_ok=True)
        start = time.perf_counter()
        bpy.ops.import_scene.gltf(filepath=str(path))
        imported = time.perf_counter()
        bpy.ops.export_scene.gltf(filepath=str(out), export_format=container)
        return imported - start, time.perf_counter() - imported

    modes = ("disabled", "off", "on", *([WITH_REPRODUCE] if with_reproduce else []))
    for name, files in libraries.items():
        totals, added = dict.fromkeys(modes, 0.0), []
        for path in files:
            best = {}
            for mode in modes:
                times = [once(path, mode, "GLB") for _ in range(runs)]
                best[mode] = min(times, key=sum)
                totals[mode] += sum(best[mode])
            added.append(([b - a for a, b in zip(best["disabled"], best["on"], strict=True)], path))
        _overhead_result(f"{name} library, import + GLB export, {len(files)} files, best of {runs}", totals, len(files))
        _added_result(f"{name} library", added, by_kind=name == "assets")
    if corpus:  # each file re-exported in its own container, as ``--format same``
        totals, measured, excluded, added = dict.fromkeys(modes, 0.0), 0, [], []
        for path in corpus:
            container = "GLB" if path.suffix.lower() == ".glb" else "GLTF_SEPARATE"
            best = {}
            for mode in modes:
                try:  # a file Blender cannot import without the extension (it requires a physics one) or at all
                    times = [once(path, mode, container) for _ in range(runs)]
                except RuntimeError as exc:
                    excluded.append((path, mode, str(exc).strip().splitlines()[-1][:80]))
                    break
                best[mode] = (min(t[0] for t in times), min(t[1] for t in times))  # import, export: best of each
            if len(best) < len(modes):
                continue
            measured += 1
            for mode in modes:
                totals[mode] += sum(best[mode])
            added.append(([b - a for a, b in zip(best["disabled"], best["on"], strict=True)], path))
        failed = collections.Counter(mode for _, mode, _ in excluded)
        result(
            f"corpus ({CORPUS}): {len(corpus)} files, {len(excluded)} excluded, not importable with the extension "
            + ", ".join(f"{mode}: {count}" for mode, count in failed.items())
        )
        for path, mode, message in excluded:
            print(f"  excluded ({mode}): {path.relative_to(CORPUS)}: {message}", file=sys.stderr)
        _overhead_result(
            f"corpus, import + re-export in its own container, {measured} files, best of {runs}",
            totals,
            measured,
            summed=True,
        )
        _added_result("corpus (best import and best export of each file)", added, summed=True)
    devkit.enable()


def _added_result(
    label: str, added: list[tuple[list[float], pathlib.Path]], by_kind: bool = False, summed: bool = False
) -> None:
    """The import and export time physics adds per file: summed (``summed``), the five largest, and the mean per
    asset kind (``by_kind``)."""
    line = f"{label}, physics on - extension disabled"
    if summed:
        line += f", summed: import +{sum(a[0] for a, _ in added) * 1e3:.0f} ms, export +"
        line += f"{sum(a[1] for a, _ in added) * 1e3:.0f} ms"
    largest = sorted(added, key=lambda row: -sum(row[0]))[:5]
    line += ", largest (import / export): " + ", ".join(
        f"{p.name} +{a[0] * 1e3:.1f} / +{a[1] * 1e3:.1f} ms" for a, p in largest
    )
    if by_kind:  # asset_library.py names its files <kind>_<index>.glb
        kinds: dict[str, list[list[float]]] = {}
        for a, p in added:
            kinds.setdefault(p.stem.split("_")[0], []).append(a)
        means = {
            kind: [sum(column) / len(rows) * 1e3 for column in zip(*rows, strict=True)] for kind, rows in kinds.items()
        }
        line += "; mean per kind: " + ", ".join(
            f"{kind} +{imp:.1f} / +{exp:.1f} ms" for kind, (imp, exp) in sorted(means.items())
        )
    result(line)


def _overhead_result(label: str, totals: dict[str, float], count: int, summed: bool = False) -> None:
    per = {mode: totals[mode] * 1000 / max(count, 1) for mode in totals}
    total = (
        f" (summed: disabled {totals['disabled']:.2f} s, off {totals['off']:.2f} s, on {totals['on']:.2f} s)"
        if summed
        else ""
    )
    result(
        f"{label}: extension disabled {per['disabled']:.1f} ms/file, "
        f"physics off {per['off']:.1f} ms/file, on {per['on']:.1f} ms/file{total}: physics adds "
        f"{100 * (per['on'] / per['disabled'] - 1):.0f} % to the disabled extension, "
        f"{100 * (per['on'] / per['off'] - 1):.0f} % to physics off (target <= 20 %)"
    )
    if WITH_REPRODUCE in per:
        result(
            f"{label}: physics on with Reproduce Motion (an interactive import) {per[WITH_REPRODUCE]:.1f} ms/file: "
            f"adds {100 * (per[WITH_REPRODUCE] / per['disabled'] - 1):.1f} % to the disabled extension "
            f"(as convert runs it: {100 * (per['on'] / per['disabled'] - 1):.1f} %)"
        )


def corpus_files() -> list[pathlib.Path]:
    """Every ``.gltf`` / ``.glb`` of the corpus, read in place; none when it is absent."""
    if not CORPUS.is_dir():
        return []
    return sorted(p for p in CORPUS.rglob("*") if p.suffix.lower() in (".gltf", ".glb") and p.is_file())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--files", type=int, default=500)
    parser.add_argument("--library", nargs="+", choices=sorted(LIBRARIES), default=["fixtures", "assets"])
    parser.add_argument("--corpus", action="store_true")
    parser.add_argument("--overhead", type=int, default=100, help="files for the physics cost (0: skip)")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--no-speed", action="store_true", help="only the per-file cost of physics")
    parser.add_argument("--rounds", type=int, default=1, help="alternate --jobs 1 / --jobs 2 this many times")
    parser.add_argument("--with-reproduce", action="store_true", help="also physics on with Reproduce Motion")
    args = parser.parse_args()
    work = pathlib.Path(tempfile.mkdtemp(prefix="bench_convert_"))
    try:
        libraries = {}
        for name in args.library:
            libraries[name] = LIBRARIES[name](work / name, args.files)
            if not args.no_speed:
                speed(f"{name} library of {args.files}", [work / name], work, rounds=args.rounds)
        if args.corpus and not CORPUS.is_dir():
            result(f"corpus: {CORPUS} not found, skipped")
        if args.corpus and CORPUS.is_dir() and not args.no_speed:
            speed("corpus", [CORPUS], work, "same", args.rounds)  # a.gltf and a.glb side by side: keep each container
        if args.overhead:
            chosen = {name: files[: args.overhead] for name, files in libraries.items()}
            overhead(chosen, args.runs, work, corpus_files() if args.corpus else None, args.with_reproduce)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print("\n".join(["", "== bench_convert", *RESULTS]), flush=True)


if __name__ == "__main__":
    main()
