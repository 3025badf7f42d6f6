"""Benchmark (not a test): ``parse_gltf`` (validate + read) on the generated bench_import document.

    .venv/bin/python -P tests/bench/bench_validate.py [--bodies 2000] [--runs 9] [--baseline main]

Builds the 2,000-body / 1,000-joint document of ``bench_import.make_scene`` (bpy-free), then times
``io.gltf.parse.parse_gltf`` on it (CPU time, after an untimed ``gc.collect()``), best of ``--runs``. With
``--baseline REF`` the package at git ``REF`` is extracted (``git archive``) into a temporary folder, loaded under
another package name in the same process, and both are timed interleaved; their diagnostics must be identical.
Also reports how many JSON pointers each builds (calls of ``diagnostics.pointer``). ``--file F.gltf`` times that file
instead (e.g. the native 2,000-body bench file: ``native_scene.write_file(2000, path)`` in a bpy session with the
extension installed, as ``bench_import.py --scene native`` writes it).
"""

from __future__ import annotations

import argparse
import gc
import importlib
import importlib.util
import io
import json
import pathlib
import subprocess
import sys
import tarfile
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests"))  # for testkit only; the repository root never goes on sys.path
sys.path.insert(0, str(ROOT / "tests" / "bench"))

from bench_import import make_scene  # noqa: E402

from testkit import load_package  # noqa: E402


def load_at(ref: str, folder: pathlib.Path, name: str):
    """The package as of git ``ref``, extracted into ``folder`` and imported as ``name``."""
    data = subprocess.run(["git", "-C", str(ROOT), "archive", ref], check=True, capture_output=True).stdout
    with tarfile.open(fileobj=io.BytesIO(data)) as tar:
        tar.extractall(folder, filter="data")
    spec = importlib.util.spec_from_file_location(
        name, folder / "__init__.py", submodule_search_locations=[str(folder)]
    )
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def pointer_calls(package: str, gltf: dict) -> int:
    """How many times ``diagnostics.pointer`` runs during one ``parse_gltf``."""
    diagnostics = importlib.import_module(f"{package}.io.diagnostics")
    parse = importlib.import_module(f"{package}.io.gltf.parse")
    original, count = diagnostics.pointer, [0]

    def counting(*parts):
        count[0] += 1
        return original(*parts)

    modules = [
        m for n, m in sys.modules.items() if n.startswith(package + ".") and getattr(m, "pointer", None) is original
    ]
    for module in modules:
        module.pointer = counting
    try:
        parse.parse_gltf(gltf)
    finally:
        for module in modules:
            module.pointer = original
    return count[0]


def timed(func, gltf: dict) -> float:
    gc.collect()
    start = time.process_time()
    func(gltf)
    return time.process_time() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bodies", type=int, default=2000)
    parser.add_argument("--runs", type=int, default=9)
    parser.add_argument("--baseline", metavar="REF", help="git ref to time against, in the same process")
    parser.add_argument("--file", type=pathlib.Path, help="time this .gltf instead of the generated scene")
    args = parser.parse_args()
    gltf = json.loads(args.file.read_text(encoding="utf-8")) if args.file else make_scene(args.bodies)
    what = str(args.file) if args.file else f"{args.bodies} bodies / {args.bodies // 2} joints"
    packages = {"this tree": "gltf_physics"}
    load_package()
    with tempfile.TemporaryDirectory() as tmp:
        if args.baseline:
            load_at(args.baseline, pathlib.Path(tmp), "gltf_physics_baseline")
            packages = {args.baseline: "gltf_physics_baseline", **packages}
        funcs = {label: importlib.import_module(f"{p}.io.gltf.parse").parse_gltf for label, p in packages.items()}
        shown = {label: [str(d) for d in func(gltf).diagnostics] for label, func in funcs.items()}
        if len({tuple(v) for v in shown.values()}) != 1:
            sys.exit("the diagnostics differ between the trees")
        times: dict[str, list[float]] = {label: [] for label in funcs}
        for _ in range(args.runs):
            for label, func in funcs.items():
                times[label].append(timed(func, gltf))
        print(f"parse_gltf, {what}, best of {args.runs} (CPU time):")
        for label, package in packages.items():
            calls = pointer_calls(package, gltf)
            print(f"  {label:>10}: {min(times[label]) * 1000:7.1f} ms, {calls:,} JSON pointers built")
        print(f"  diagnostics: {len(next(iter(shown.values())))} (identical)")


if __name__ == "__main__":
    main()
