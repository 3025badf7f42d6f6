"""Benchmark (not a test): the extension's speed measured fairly (issue 32 item 6); commands and results in
docs/benchmarks.md.

Run: ``.venv/bin/python -P tests/bench/bench_fair.py [--pairs 5] [--bodies 2000] [--json PATH] [--fixtures]
[--linear [--linear-sizes 1000 10000]] [--no-ratio] [--keep-nothing] [--gc default collect] [--plain off|disabled]
[--rev REV]``

Three measurements, each in this one process, the plain and the physics runs interleaved (the order alternates
pair by pair: plain first in even pairs, physics first in odd ones, so neither side always follows the other):

- **ratio** (default; ``--no-ratio`` skips it): import and export of the generated scene of ``bench_import.make_scene``
  (``--bodies`` box bodies, ``--bodies // 2`` joints) — physics vs plain, ``--pairs`` pairs each: best ratio
  (fastest physics / fastest plain) and median ratio (median physics / median plain), wall and CPU time.
- **hooks CPU** (``--fixtures``): every ``tests/fixtures/**/*.gltf`` imported and exported again, plain and physics
  interleaved; ``time.process_time`` summed over every call of our hook methods (the classes the root package gives
  io_scene_gltf2 as ``glTF2ImportUserExtension`` / ``glTF2ExportUserExtension``, wrapped in this process only;
  nested calls counted once) against the CPU time of the plain import + export of the same file (best of
  ``--pairs`` per file, each side).
- **linearity** (``--linear``): import time physics adds per body (physics minus plain, median of the pairs'
  differences) at each of ``--linear-sizes`` (1,000 and 10,000) and the ratio of the last to the first.

A variant of the ratio:

- **nothing kept** (``--keep-nothing``): the same measurements with our property-group writers replaced by no-ops in
  this process (``io.mapping.stored.assign``, as the steps call it): what an import costs when it keeps no value on
  ``Object.gltf_physics`` (joint limit and drive items are still added, with their defaults) — the most issue 32's
  "one stored value per object" (item 3) can save. The export of such a scene writes the Blender-authored physics,
  not the file's: its ratio is not a measurement of the exporter.

"Plain" is the same file imported (or the same scene exported) with ``Scene.gltf_physics.import_physics`` /
``export_physics`` off (``--plain off``, what bench_import.py / bench_export.py use: our hooks run and return at
once) or with the extension disabled (``--plain disabled``: io_scene_gltf2 alone; the extension is disabled and
enabled again between runs, untimed). The collector is treated alike on both sides: ``--gc default`` leaves
Python's collector as it is (no ``gc.freeze``, threshold change or ``gc.disable`` by this script), ``--gc collect``
runs an untimed ``gc.collect()`` before every timed run of both sides; both variants by default. What the extension
itself does to the collector during a run is its own business and is what is measured; each run also records the
collector's full (generation 2) passes and whether the collector's state (enabled, thresholds, freeze count) after
the run differs from before it, printed per side.

The extension is built from the working tree (``--rev REV``: from ``git archive REV`` instead, e.g. ``HEAD`` while
the tree is being edited) and installed into a temporary user folder, as the Blender test tier does. Nothing about
time is asserted; ``--json PATH`` writes every run.
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import gc
import json
import os
import pathlib
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))  # devkit only; never the repository root
sys.path.insert(0, str(ROOT / "tests" / "bench"))

FIXTURES = ROOT / "tests" / "fixtures"
SIDES = ("plain", "physics")


# Pure helpers (no Blender; tests/unit/test_bench_fair.py)


def pair_order(pair: int) -> tuple[str, str]:
    """The two sides of interleaved pair ``pair``: plain first in even pairs, physics first in odd ones."""
    return SIDES if pair % 2 == 0 else SIDES[::-1]


def summarize(plain: list[float], physics: list[float]) -> dict:
    """Ratios of interleaved pairs (``plain[i]`` and ``physics[i]`` measured side by side): best (fastest physics /
    fastest plain), median (median physics / median plain), each pair's, and the added time (median of the pairs'
    differences, and fastest minus fastest)."""
    if len(plain) != len(physics) or not plain:
        raise ValueError("plain and physics need the same number of runs, at least one")
    return {
        "best": min(physics) / min(plain),
        "median": statistics.median(physics) / statistics.median(plain),
        "pairs": [b / a for a, b in zip(plain, physics, strict=True)],
        "added_median": statistics.median(b - a for a, b in zip(plain, physics, strict=True)),
        "added_best": min(physics) - min(plain),
    }


def linearity(rows: list[dict]) -> dict:
    """Rows of {"bodies", "plain", "physics"} (wall times of interleaved imports), smallest size first → added time
    per body at each size (median of the pairs' differences / bodies; and fastest minus fastest / bodies) and the
    ratio of the largest size's to the smallest's (1.0: linear; above: each body costs more in a larger file)."""
    per_body = [summarize(r["plain"], r["physics"])["added_median"] / r["bodies"] for r in rows]
    per_body_best = [summarize(r["plain"], r["physics"])["added_best"] / r["bodies"] for r in rows]
    return {
        "sizes": [r["bodies"] for r in rows],
        "added_per_body": per_body,
        "added_per_body_best": per_body_best,
        "ratio": per_body[-1] / per_body[0] if per_body[0] > 0 else float("nan"),
        "ratio_best": per_body_best[-1] / per_body_best[0] if per_body_best[0] > 0 else float("nan"),
    }


def hooks_share(files: list[dict]) -> dict:
    """Per-file results {"hooks", "plain"} (CPU seconds: our hooks in the physics run, the plain import + export) →
    totals, the total ratio and the largest per-file ratio (the target: at most 0.5)."""
    measured = [f for f in files if "error" not in f]
    hooks, plain = sum(f["hooks"] for f in measured), sum(f["plain"] for f in measured)
    ratios = [f["hooks"] / f["plain"] for f in measured if f["plain"] > 0]
    return {
        "files": len(measured),
        "hooks": hooks,
        "plain": plain,
        "ratio": hooks / plain if plain > 0 else float("nan"),
        "max_file_ratio": max(ratios, default=float("nan")),
        "files_over_half": sum(r > 0.5 for r in ratios),
    }


def collector_state() -> tuple:
    """What a run could leave changed in the collector: enabled, thresholds, ``gc.freeze`` count."""
    return gc.isenabled(), gc.get_threshold(), gc.get_freeze_count()


def full_passes() -> int:
    return gc.get_stats()[2]["collections"]


@contextlib.contextmanager
def quiet():
    """Blender's and io_scene_gltf2's console lines (file descriptors 1 and 2) to /dev/null, so ours stay readable."""
    sys.stdout.flush()
    sys.stderr.flush()
    saved = [os.dup(1), os.dup(2)]
    null = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(null, 1)
        os.dup2(null, 2)
        yield
    finally:
        sys.stdout.flush()
        sys.stderr.flush()
        os.dup2(saved[0], 1)
        os.dup2(saved[1], 2)
        for fd in (*saved, null):
            os.close(fd)


# Blender side


class Harness:
    """The installed extension and one timed import / export, plain or physics."""

    def __init__(self, rev: str | None, plain_mode: str, keep_nothing: bool = False):
        import devkit

        self.devkit = devkit
        self.user = pathlib.Path(tempfile.mkdtemp(prefix="gltf_physics_bench_fair_"))
        devkit.isolate_user_resources(self.user)
        zip_path = build_zip(devkit, self.user, rev)
        self.addon = devkit.install_and_enable(zip_path)
        import bpy

        self.bpy = bpy
        self.plain_mode = plain_mode
        self.hook_cpu: dict[str, float] = {}
        self.physics_counts = ""  # what the last physics import made (counted after the timed run)
        self.hook_classes = [getattr(self.addon, n) for n in ("glTF2ImportUserExtension", "glTF2ExportUserExtension")]
        wrap_hooks(self.hook_classes, self.hook_cpu)
        if keep_nothing:
            keep_nothing_stored(self.addon)

    def _side(self, physics: bool) -> None:
        """The extension enabled or disabled for this side (``--plain disabled``), untimed."""
        import addon_utils

        if physics or self.plain_mode == "off":
            self.devkit.enable()
        elif self.devkit.ADDON in self.bpy.context.preferences.addons:
            addon_utils.disable(self.devkit.ADDON, default_set=True)

    def _settings(self):
        return getattr(self.bpy.context.scene, "gltf_physics", None)

    def _timed(self, operator, collect: bool, **kwargs) -> dict:
        if collect:
            gc.collect()
        before, passes = collector_state(), full_passes()
        self.hook_cpu.clear()
        with quiet():
            wall, cpu = time.perf_counter(), time.process_time()
            result = operator(**kwargs)
            cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
        if result != {"FINISHED"}:
            raise RuntimeError(f"{operator} returned {result}")
        return {
            "wall": wall,
            "cpu": cpu,
            "hooks": sum(self.hook_cpu.values()),
            "full_passes": full_passes() - passes,
            "collector_changed": collector_state() != before,
        }

    def import_file(self, path: pathlib.Path, physics: bool, collect: bool) -> dict:
        bpy = self.bpy
        with quiet():
            bpy.ops.wm.read_homefile(use_factory_startup=True, use_empty=True)
        self._side(physics)
        settings = self._settings()
        if settings is not None:
            settings.import_physics = physics
        timed = self._timed(bpy.ops.import_scene.gltf, collect, filepath=str(path))
        if physics:
            self.physics_counts = self.counts()
        return timed

    def export_scene(self, folder: pathlib.Path, physics: bool, collect: bool) -> dict:
        """Export the current scene as ``folder/fair_<plain|physics>.gltf`` (+ ``.bin``)."""
        path = folder / f"fair_{SIDES[physics]}.gltf"
        self._side(physics)
        settings = self._settings()
        if settings is not None:
            settings.export_physics = physics
        return self._timed(self.bpy.ops.export_scene.gltf, collect, filepath=str(path), export_format="GLTF_SEPARATE")

    def counts(self) -> str:
        objects = self.bpy.context.scene.objects
        bodies = sum(1 for ob in objects if ob.rigid_body)
        constraints = sum(1 for ob in objects if ob.rigid_body_constraint)
        return f"{len(objects)} objects, {bodies} rigid bodies, {constraints} constraints"


def build_zip(devkit, user: pathlib.Path, rev: str | None, package_id: str | None = None) -> pathlib.Path:
    """The extension zip from the working tree, or from ``git archive rev`` (a tree other engineers are editing
    measured at a commit); ``package_id``: the id written into that copy's manifest instead of its own, so that it
    installs beside the working tree's (``bench_ab.py``; the code names no id of its own)."""
    if rev is None:
        return devkit.build(user / "dist")
    source = user / f"source_{rev}"
    source.mkdir()
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", rev], capture_output=True, check=True).stdout
    subprocess.run(["tar", "-x", "-C", str(source)], input=archive, check=True)
    if package_id is not None:
        manifest = source / "blender_manifest.toml"
        text = manifest.read_text(encoding="utf-8")
        marker = f'id = "{devkit.PKG_ID}"'
        if marker not in text:
            raise SystemExit(f"{rev}: its manifest has no {marker!r} line")
        manifest.write_text(text.replace(marker, f'id = "{package_id}"', 1), encoding="utf-8")
    zip_path = user / "dist" / f"{package_id or devkit.PKG_ID}-{devkit.VERSION}.zip"
    zip_path.parent.mkdir(exist_ok=True)
    done = devkit._ext_cli("build", "--source-dir", str(source), "--output-filepath", str(zip_path))
    if done.returncode != 0:
        raise RuntimeError(f"extension build failed:\n{done.stdout}\n{done.stderr}")
    return zip_path


def wrap_hooks(classes: list[type], totals: dict[str, float]) -> None:
    """Wrap ``__init__`` and every ``*_hook`` method of ``classes`` (our own hook classes, in this process only): each
    outermost call adds its ``time.process_time`` to ``totals[<class>.<method>]`` (a hook calling another hook is
    counted once)."""
    depth = [0]

    def wrapper(original, key):
        def timed(*args, **kwargs):
            if depth[0]:
                return original(*args, **kwargs)
            depth[0] += 1
            start = time.process_time()
            try:
                return original(*args, **kwargs)
            finally:
                totals[key] = totals.get(key, 0.0) + time.process_time() - start
                depth[0] -= 1

        timed.__name__ = original.__name__
        return timed

    for cls in classes:
        for name, value in list(vars(cls).items()):
            if callable(value) and (name == "__init__" or name.endswith("_hook")):
                setattr(cls, name, wrapper(value, f"{cls.__name__}.{name}"))


def keep_nothing_stored(addon) -> None:
    """``--keep-nothing``: every ``assign`` our import steps call (property-group values on ``Object.gltf_physics``)
    becomes a no-op in this process, so an import keeps nothing for export; Blender's rigid bodies and constraints
    are built as always."""
    import importlib

    def keep_nothing(pg, **values) -> None:
        return None

    for name in ("io.mapping.stored", "io.importer.joints"):
        module = importlib.import_module(f"{addon.__name__}.{name}")
        module.assign = keep_nothing


def interleaved(run, pairs: int) -> dict[str, list[dict]]:
    """``pairs`` interleaved runs of ``run(physics=...)`` (``pair_order``) → {"plain": [...], "physics": [...]}."""
    out: dict[str, list[dict]] = {side: [] for side in SIDES}
    for pair in range(pairs):
        for side in pair_order(pair):
            out[side].append(run(physics=side == "physics"))
    return out


def fmt_runs(runs: list[dict], key: str = "wall") -> str:
    return "[" + ", ".join(f"{r[key]:.3f}" for r in runs) + "]"


def report_ratio(label: str, runs: dict[str, list[dict]]) -> dict:
    """Print and return the wall and CPU summaries of interleaved runs."""
    out = {}
    for clock in ("wall", "cpu"):
        out[clock] = summarize([r[clock] for r in runs["plain"]], [r[clock] for r in runs["physics"]])
    wall, cpu = out["wall"], out["cpu"]
    print(f"  {label}: ratio best {wall['best']:.2f}x, median {wall['median']:.2f}x (wall); ", end="")
    print(f"CPU best {cpu['best']:.2f}x, median {cpu['median']:.2f}x; added {wall['added_median']:.3f} s (median)")
    for side in SIDES:
        passes = statistics.median(r["full_passes"] for r in runs[side])
        changed = sum(r["collector_changed"] for r in runs[side])
        print(
            f"    {side:>7} wall {fmt_runs(runs[side])} s; full collector passes per run {passes:g}; "
            f"collector state left changed by {changed} of {len(runs[side])} runs"
        )
    print("    pair ratios " + ", ".join(f"{r:.2f}" for r in wall["pairs"]))
    out["split"] = split = hooks_split(runs)
    print(
        f"    CPU, medians: plain {split['plain'] * 1e3:.0f} ms; physics adds {split['hooks'] * 1e3:.0f} ms in our "
        f"hooks and {split['outside'] * 1e3:.0f} ms outside them (ratio with hooks that cost nothing: "
        f"{split['floor']:.2f}x)"
    )
    sys.stdout.flush()
    return out


def hooks_split(runs: dict[str, list[dict]]) -> dict:
    """Where the physics side's added CPU time is (medians over the runs): in our hooks' bodies, or outside them
    (io_scene_gltf2 and Blender handling what the hooks made: objects, rigid bodies, the physics JSON, collector
    passes). ``floor``: the ratio the outside part alone gives (our hooks costing what they cost with physics off),
    the bound of any speed-up inside our hooks."""
    plain, physics = runs["plain"], runs["physics"]
    plain_cpu = statistics.median(r["cpu"] for r in plain)
    outside = statistics.median(r["cpu"] - r["hooks"] for r in physics) - statistics.median(
        r["cpu"] - r["hooks"] for r in plain
    )
    hooks = statistics.median(r["hooks"] for r in physics) - statistics.median(r["hooks"] for r in plain)
    return {"plain": plain_cpu, "hooks": hooks, "outside": outside, "floor": (plain_cpu + outside) / plain_cpu}


def write_generated(harness: Harness, bodies: int, scene: str) -> pathlib.Path:
    path = harness.user / f"fair_{scene}_{bodies}.gltf"
    if not path.exists():
        if scene == "native":
            import native_scene

            native_scene.write_file(bodies, path)
        else:
            import bench_import

            path.write_text(json.dumps(bench_import.make_scene(bodies)), encoding="utf-8")
    return path


def measure_ratio(harness: Harness, args, results: dict) -> None:
    """(a) import and export of the generated scene, physics vs plain, per collector variant."""
    path = write_generated(harness, args.bodies, args.scene)
    out = results.setdefault("ratio", {})
    print(f"\n== ratio: {args.scene} scene of {args.bodies:,} bodies / {args.bodies // 2:,} joints, {args.pairs} pairs")
    for variant in args.gc:
        collect = variant == "collect"
        runs = interleaved(functools.partial(harness.import_file, path, collect=collect), args.pairs)
        print(f" gc {variant}: import (physics side: {harness.physics_counts})")
        out.setdefault(variant, {})["import"] = {**report_ratio("import", runs), "runs": runs}
    harness.import_file(path, True, True)  # the scene every export writes: the file imported with physics
    scene_counts = harness.counts()
    for variant in args.gc:
        collect = variant == "collect"
        runs = interleaved(functools.partial(harness.export_scene, harness.user, collect=collect), args.pairs)
        print(f" gc {variant}: export of the imported scene ({scene_counts})")
        out[variant]["export"] = {**report_ratio("export", runs), "runs": runs}


def fixture_files() -> list[pathlib.Path]:
    return sorted(FIXTURES.rglob("*.gltf"))


def import_export(harness: Harness, path: pathlib.Path, physics: bool, collect: bool) -> dict:
    """One fixture imported, then exported again: the two runs' times summed."""
    imported = harness.import_file(path, physics, collect)
    exported = harness.export_scene(harness.user, physics, collect)
    return {k: imported[k] + exported[k] for k in ("cpu", "wall", "hooks")}


def measure_fixtures(harness: Harness, args, results: dict) -> None:
    """(b) our hooks' CPU per file against the plain import + export of the same file."""
    files = fixture_files()
    out = results.setdefault("fixtures", {})
    for variant in args.gc:
        collect = variant == "collect"
        rows = []

        for path in files:
            name = str(path.relative_to(FIXTURES))
            try:
                runs = interleaved(functools.partial(import_export, harness, path, collect=collect), args.pairs)
            except RuntimeError as exc:
                rows.append({"file": name, "error": str(exc).splitlines()[0][:200]})
                continue
            rows.append(
                {
                    "file": name,
                    "plain": min(r["cpu"] for r in runs["plain"]),
                    "physics": min(r["cpu"] for r in runs["physics"]),
                    "hooks": min(r["hooks"] for r in runs["physics"]),
                    "hooks_in_plain": min(r["hooks"] for r in runs["plain"]),
                }
            )
        share = hooks_share(rows)
        out[variant] = {"files": rows, "total": share}
        print(f"\n== hooks CPU, gc {variant}: {len(files)} fixtures, best of {args.pairs} per file and side, CPU ms")
        print(f"  {'file':44s} {'plain i+e':>9} {'physics':>9} {'hooks':>7} {'share':>6} {'hooks@plain':>11}")
        for row in rows:
            if "error" in row:
                print(f"  {row['file']:44s} not measured: {row['error']}")
                continue
            print(
                f"  {row['file']:44s} {row['plain'] * 1e3:9.2f} {row['physics'] * 1e3:9.2f} {row['hooks'] * 1e3:7.2f} "
                f"{row['hooks'] / row['plain']:6.2f} {row['hooks_in_plain'] * 1e3:11.2f}"
            )
        n = share["files"]
        print(
            f"  total over {n} files: hooks {share['hooks'] * 1e3:.1f} ms, plain import + export "
            f"{share['plain'] * 1e3:.1f} ms: ratio {share['ratio']:.2f} (per file {share['hooks'] * 1e3 / n:.2f} / "
            f"{share['plain'] * 1e3 / n:.2f} ms); largest per file {share['max_file_ratio']:.2f}, "
            f"{share['files_over_half']} files above 0.5"
        )
        sys.stdout.flush()


def measure_linear(harness: Harness, args, results: dict) -> None:
    """(c) import time added per body at each size (interleaved pairs), per collector variant."""
    out = results.setdefault("linear", {})
    for variant in args.gc:
        collect = variant == "collect"
        rows, cpu_rows = [], []
        print(f"\n== linearity, gc {variant}: sizes {args.linear_sizes}, {args.pairs} pairs each")
        for bodies in args.linear_sizes:
            path = write_generated(harness, bodies, args.scene)
            runs = interleaved(functools.partial(harness.import_file, path, collect=collect), args.pairs)
            row = {"bodies": bodies, **{side: [r["wall"] for r in runs[side]] for side in SIDES}}
            rows.append(row)
            cpu_rows.append({"bodies": bodies, **{side: [r["cpu"] for r in runs[side]] for side in SIDES}})
            s = summarize(row["plain"], row["physics"])
            print(
                f"  {bodies:>6,} bodies: plain {fmt_runs(runs['plain'])} s, physics {fmt_runs(runs['physics'])} s; "
                f"added {s['added_median'] / bodies * 1e6:.0f} us per body (median of pairs), "
                f"{s['added_best'] / bodies * 1e6:.0f} us (best); ratio median {s['median']:.2f}x"
            )
            sys.stdout.flush()
        lin, lin_cpu = linearity(rows), linearity(cpu_rows)
        out[variant] = {"rows": rows, "cpu_rows": cpu_rows, **lin, "cpu": lin_cpu}
        print(
            f"  added time per body, {lin['sizes'][-1]:,} vs {lin['sizes'][0]:,} bodies: {lin['ratio']:.2f}x "
            f"(best-based {lin['ratio_best']:.2f}x); CPU time: {lin_cpu['ratio']:.2f}x "
            f"({' / '.join(f'{t * 1e6:.0f}' for t in lin_cpu['added_per_body'])} us per body; "
            f"best-based {lin_cpu['ratio_best']:.2f}x)"
        )


def git_commit() -> dict:
    def git(*words: str) -> str:
        return subprocess.run(["git", "-C", str(ROOT), *words], capture_output=True, text=True).stdout.strip()

    return {"head": git("rev-parse", "--short", "HEAD"), "tree_changes": git("status", "--short", "--", "io", "ui")}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=5, help="interleaved plain / physics pairs per measurement")
    parser.add_argument("--bodies", type=int, default=2000, help="bodies of the ratio scene (bodies // 2 joints)")
    parser.add_argument("--json", type=pathlib.Path, help="write every run there")
    parser.add_argument("--fixtures", action="store_true", help="our hooks' CPU per unit fixture vs plain")
    parser.add_argument("--linear", action="store_true", help="added import time per body at --linear-sizes")
    parser.add_argument("--linear-sizes", type=int, nargs="+", default=[1000, 10000])
    parser.add_argument("--no-ratio", action="store_true", help="skip the import / export ratio")
    parser.add_argument("--gc", nargs="+", choices=("default", "collect"), default=["default", "collect"])
    parser.add_argument("--plain", choices=("off", "disabled"), default="off", help="what the plain side is")
    parser.add_argument("--scene", choices=("generated", "native"), default="generated")
    parser.add_argument("--keep-nothing", action="store_true", help="import keeping no stored values (item 3's bound)")
    parser.add_argument("--rev", help="build the extension from this git revision instead of the working tree")
    args = parser.parse_args()
    commit = git_commit()
    if args.rev:
        commit["measured"] = subprocess.run(
            ["git", "-C", str(ROOT), "rev-parse", "--short", args.rev], capture_output=True, text=True, check=True
        ).stdout.strip()
    harness = Harness(args.rev, args.plain, args.keep_nothing)
    bpy = harness.bpy
    source = f"commit {commit['measured']}" if args.rev else f"working tree on {commit['head']}"
    dirty = "" if args.rev or not commit["tree_changes"] else " (io/ or ui/ changed)"
    print(f"bpy {bpy.app.version_string}, Python {sys.version.split()[0]}; extension from {source}{dirty}; ", end="")
    print(f"plain = {'physics off' if args.plain == 'off' else 'extension disabled'}; gc variants {args.gc}", end="")
    print("; nothing kept on Object.gltf_physics (--keep-nothing)" if args.keep_nothing else "")
    results: dict = {"bpy": bpy.app.version_string, "commit": commit, "args": vars(args) | {"json": str(args.json)}}
    if not args.no_ratio:
        measure_ratio(harness, args, results)
    if args.fixtures:
        measure_fixtures(harness, args, results)
    if args.linear:
        measure_linear(harness, args, results)
    harness.devkit.enable()
    if args.json:
        args.json.write_text(json.dumps(results, indent=1, default=str), encoding="utf-8")
        print(f"\nwrote {args.json}")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
    os._exit(0)  # bpy 4.2 may crash at interpreter exit after a glTF export
