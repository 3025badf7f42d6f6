"""Benchmark (not a test): the Blender tier's time against an earlier commit's, for the tests both have (issue 32,
"the Blender tier's time at most half of today's for the same behaviour covered").

Run: ``python3 tests/bench/bench_tier.py [--rev 109080b] [--python .venv-5.0/bin/python] [--sweep full]
[--keep DIR]``

``REV`` is checked out as a temporary git worktree ``main/`` with ``../shared`` beside it (a link to this checkout's),
and both trees run ``pytest tests/blender`` with the same Python (bpy), **at the same time** (two processes on the
two cores, so both see the same load), each writing JUnit XML. The working tree runs with ``GLTF_PHYSICS_SWEEP``
(default ``full``: every sweep, as ``make test-5.3`` runs them). The report compares the sums of the per-test times
over the test ids both runs have (same module, same name and parameters: the same behaviour checked), then the
totals and the modules that differ most. The default Python is bpy 5.0.1's: the release the filing commit 109080b
tested on (5.3 did not import its files then).
"""

from __future__ import annotations

import argparse
import collections
import os
import pathlib
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

ROOT = pathlib.Path(__file__).resolve().parents[2]


def check_out(rev: str, into: pathlib.Path, venv: pathlib.Path) -> pathlib.Path:
    """``rev`` as a detached git worktree ``into/main`` with ``into/shared`` linked to this checkout's ``../shared``
    and its ``.venv`` linked to ``venv`` (the old tree's command-line tests run ``.venv/bin/python``)."""
    main = into / "main"
    into.mkdir(parents=True, exist_ok=True)
    subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "-q", "--detach", str(main), rev], check=True)
    shared = ROOT.parent / "shared"
    if shared.exists():
        (into / "shared").symlink_to(shared, target_is_directory=True)
    (main / ".venv").symlink_to(venv, target_is_directory=True)
    node = ROOT / ".node"
    if node.exists():  # the Khronos validator the export tests run
        (main / ".node").symlink_to(node, target_is_directory=True)
    return main


def run_both(python: str, old: pathlib.Path, xml_dir: pathlib.Path, sweep: str) -> dict[str, int]:
    """Both tiers at once; their exit codes."""
    runs, logs = {}, []
    for label, tree in (("old", old), ("new", ROOT)):
        env = {**os.environ, "GLTF_PHYSICS_SWEEP": sweep} if label == "new" else dict(os.environ)
        command = [python, "-P", "-m", "pytest", "-c", "tests/pytest.ini", "tests/blender", "-q",
                   f"--junitxml={xml_dir / (label + '.xml')}"]  # fmt: skip
        logs.append((xml_dir / f"{label}.log").open("w"))
        runs[label] = subprocess.Popen(command, cwd=tree, env=env, stdout=logs[-1], stderr=subprocess.STDOUT)
    codes = {label: proc.wait() for label, proc in runs.items()}
    for log in logs:
        log.close()
    return codes


def times(path: pathlib.Path) -> dict[str, float]:
    """Test id (module::name[params]) → seconds, from JUnit XML."""
    return {
        f"{case.get('classname')}::{case.get('name')}": float(case.get("time") or 0.0)
        for case in ET.parse(path).getroot().iter("testcase")
    }


def by_module(values: dict[str, float], ids) -> collections.Counter:
    totals: collections.Counter = collections.Counter()
    for test_id in ids:
        totals[test_id.split("::")[0]] += values[test_id]
    return totals


def report(old: dict[str, float], new: dict[str, float], rev: str, most: int = 12) -> None:
    common = old.keys() & new.keys()
    old_common, new_common = sum(old[k] for k in common), sum(new[k] for k in common)
    print(f"tests: {rev} {len(old)}, working tree {len(new)}, both {len(common)}")
    print(f"all tests: {sum(old.values()):.1f} s → {sum(new.values()):.1f} s")
    print(f"tests both have: {old_common:.1f} s → {new_common:.1f} s ({new_common / old_common:.2f}×)")
    old_modules, new_modules = by_module(old, common), by_module(new, common)
    print("modules of the tests both have, largest first (s):")
    for module in sorted(old_modules, key=lambda m: -max(old_modules[m], new_modules[m]))[:most]:
        print(f"  {old_modules[module]:7.1f} → {new_modules[module]:7.1f}  {module}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rev", default="109080b")
    parser.add_argument("--python", default=str(ROOT / ".venv-5.0" / "bin" / "python"))
    parser.add_argument("--sweep", default="full", choices=("full", "sample"))
    parser.add_argument("--keep", type=pathlib.Path, help="keep the XML and logs there")
    args = parser.parse_args()
    # not "gltf_physics…": the old corpus tests count an io_scene_gltf2 error naming that as ours
    with tempfile.TemporaryDirectory(prefix="tier_bench_") as scratch:
        scratch = pathlib.Path(scratch)
        old_tree = check_out(args.rev, scratch / "old", pathlib.Path(args.python).parents[1])
        xml_dir = args.keep or scratch
        xml_dir.mkdir(parents=True, exist_ok=True)
        try:
            codes = run_both(args.python, old_tree, xml_dir, args.sweep)
        finally:
            subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(old_tree)], check=False)
        print(f"exit codes: {codes}")
        report(times(xml_dir / "old.xml"), times(xml_dir / "new.xml"), args.rev)
    sys.exit(0 if not any(codes.values()) else 1)


if __name__ == "__main__":
    main()
