"""Benchmark (not a test): two trees of the extension in one Blender process, their imports interleaved with the plain
import of the same file: an A/B for a change smaller than the machine's drift between two processes.

Run: ``.venv/bin/python -P tests/bench/bench_ab.py --rev REV [--pairs 7] [--bodies 2000] [--export] [FILE]``

The working tree is installed as the extension users get (``gltf_physics``); ``REV`` (``git archive``) is installed
beside it under the id ``gltf_physics_rev`` (its manifest's id changed in the copy: the code names no id of its
own). One of the two is enabled at a time (untimed). Each round imports FILE (default: ``bench_import.make_scene``'s
generated scene of ``--bodies`` bodies) three times after a fresh home file, in an order that turns round by one
each round: plain (the working tree with *Import Physics* off, as ``bench_fair.py`` measures plain), REV, the
working tree. Reported: the import's CPU time (``time.process_time``) and our hooks' CPU time (every hook method of
each tree wrapped, nested calls once), median and best of the rounds, and the medians of the per-round ratios
(tree / plain import; working tree / REV hooks). Both trees see the same machine within each round, so a drift of
the machine's speed (seen here: the same plain import took 0.77–1.14 s within one hour) moves both alike.
``--export`` also exports each physics import's scene (both trees' exports timed the same way; no plain export: a
plain export of an imported scene writes the import's helpers as nodes).
"""

from __future__ import annotations

import argparse
import gc
import json
import pathlib
import statistics
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))  # devkit only; never the repository root
sys.path.insert(0, str(ROOT / "tests" / "bench"))

import bench_import  # noqa: E402
from bench_fair import build_zip, quiet, wrap_hooks  # noqa: E402

REV_ID = "gltf_physics_rev"
SIDES = ("plain", "rev", "tree")


class Trees:
    """Both trees installed; ``use(side)`` enables the one a side runs (the working tree for plain), untimed."""

    def __init__(self, rev: str):
        import devkit

        self.devkit = devkit
        user = pathlib.Path(tempfile.mkdtemp(prefix="gltf_physics_bench_ab_"))
        devkit.isolate_user_resources(user)
        tree = devkit.install_and_enable(devkit.build(user / "dist"))
        import addon_utils
        import bpy

        self.bpy, self.addon_utils = bpy, addon_utils
        self.modules = {"tree": devkit.ADDON, "rev": devkit.ADDON.rsplit(".", 1)[0] + "." + REV_ID}
        addon_utils.disable(self.modules["tree"], default_set=True)
        result = bpy.ops.extensions.package_install_files(
            filepath=str(build_zip(devkit, user, rev, REV_ID)), repo=devkit.REPO_MODULE, enable_on_install=True
        )
        if result != {"FINISHED"}:
            raise RuntimeError(f"package_install_files returned {result}")
        rev_module = sys.modules[self.modules["rev"]]
        self.hooks: dict[str, dict[str, float]] = {"tree": {}, "rev": {}}
        for side, module in (("tree", tree), ("rev", rev_module)):
            classes = [getattr(module, n) for n in ("glTF2ImportUserExtension", "glTF2ExportUserExtension")]
            wrap_hooks(classes, self.hooks[side])

    def use(self, side: str) -> None:
        wanted = self.modules["tree" if side == "plain" else side]
        prefs = self.bpy.context.preferences.addons
        for module in self.modules.values():
            if module != wanted and module in prefs:
                self.addon_utils.disable(module, default_set=True)
        if wanted not in prefs and self.addon_utils.enable(wanted, default_set=True, handle_error=None) is None:
            raise RuntimeError(f"could not enable {wanted}")

    def timed(self, side: str, operator, **kwargs) -> dict[str, float]:
        hooks = self.hooks["tree" if side == "plain" else side]
        hooks.clear()
        gc.collect()  # no run pays for the one before it (not timed)
        with quiet():
            start = time.process_time()
            result = operator(**kwargs)
            cpu = time.process_time() - start
        if result != {"FINISHED"}:
            raise RuntimeError(f"{operator} returned {result}")
        return {"cpu": cpu, "hooks": sum(hooks.values())}

    def import_file(self, side: str, path: pathlib.Path) -> dict[str, float]:
        bpy = self.bpy
        with quiet():
            bpy.ops.wm.read_homefile(use_factory_startup=True, use_empty=True)
        self.use(side)
        bpy.context.scene.gltf_physics.import_physics = side != "plain"
        return self.timed(side, bpy.ops.import_scene.gltf, filepath=str(path))

    def export_scene(self, side: str, folder: pathlib.Path) -> dict[str, float]:
        self.bpy.context.scene.gltf_physics.export_physics = True
        path = folder / f"ab_{side}.gltf"
        return self.timed(side, self.bpy.ops.export_scene.gltf, filepath=str(path), export_format="GLTF_SEPARATE")


def median_ratio(rounds: list[dict], top: str, bottom: str, key: str, bottom_key: str | None = None) -> float:
    return statistics.median(r[top][key] / r[bottom][bottom_key or key] for r in rounds)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("file", nargs="?", type=pathlib.Path)
    parser.add_argument("--rev", required=True, help="the git revision to compare the working tree with")
    parser.add_argument("--pairs", type=int, default=7, help="rounds (each: plain, REV and the working tree)")
    parser.add_argument("--bodies", type=int, default=2000)
    parser.add_argument("--export", action="store_true", help="also time the export of each physics import")
    args = parser.parse_args()
    trees = Trees(args.rev)
    scratch = pathlib.Path(tempfile.mkdtemp(prefix="gltf_physics_bench_ab_out_"))
    path = args.file
    if path is None:
        path = scratch / f"scene_{args.bodies}.gltf"
        path.write_text(json.dumps(bench_import.make_scene(args.bodies)))
    imports: list[dict] = []
    exports: list[dict] = []
    for k in range(args.pairs + 1):  # round 0 warms both trees up (not counted)
        order = SIDES[k % 3 :] + SIDES[: k % 3]
        row, out = {}, {}
        for side in order:
            row[side] = trees.import_file(side, path)
            if args.export and side != "plain":
                out[side] = trees.export_scene(side, scratch)
        if k:
            imports.append(row)
            exports.append(out)
    bpy = trees.bpy
    print(f"bpy {bpy.app.version_string}; {path.name}; working tree vs {args.rev}; {args.pairs} rounds, CPU ms")
    for side in SIDES:
        cpu = [r[side]["cpu"] * 1e3 for r in imports]
        hooks = [r[side]["hooks"] * 1e3 for r in imports]
        print(
            f"  import {side:5s}: median {statistics.median(cpu):7.1f} (best {min(cpu):7.1f}); our hooks median "
            f"{statistics.median(hooks):6.1f} (best {min(hooks):6.1f})"
        )
    for side in ("rev", "tree"):
        print(
            f"  import {side} / plain, median of the rounds' ratios: {median_ratio(imports, side, 'plain', 'cpu'):.3f}x"
            f"; hooks / plain import {median_ratio(imports, side, 'plain', 'hooks', 'cpu'):.3f}"
        )
    print(f"  our import hooks, working tree / {args.rev}: {median_ratio(imports, 'tree', 'rev', 'hooks'):.3f}x")
    if args.export:
        for side in ("rev", "tree"):
            cpu = [r[side]["cpu"] * 1e3 for r in exports]
            hooks = [r[side]["hooks"] * 1e3 for r in exports]
            median_cpu, median_hooks = statistics.median(cpu), statistics.median(hooks)
            print(f"  export {side:5s}: median {median_cpu:7.1f}; our hooks median {median_hooks:6.1f}")
        print(
            f"  export, working tree / {args.rev}: {median_ratio(exports, 'tree', 'rev', 'cpu'):.3f}x; "
            f"our export hooks {median_ratio(exports, 'tree', 'rev', 'hooks'):.3f}x"
        )


if __name__ == "__main__":
    main()
