"""``tests/bench/bench_scaling.py`` (issue 11 item 13) still runs: validate and migrate of seven of its scenes at a
small size, each stage in its own process, finish without an error and report what the generated scene holds. The
numbers are in docs/scaling.md; the structural regression tests are ``test_deep_hierarchy``,
``test_filters_scaling`` and ``tests/blender/importer/test_import_scaling.py``."""

from __future__ import annotations

import json
import subprocess
import sys

from testkit import ROOT

BENCH = ROOT / "tests" / "bench" / "bench_scaling.py"
# one process per case and stage: ~0.5 s each
CASES = ("shapes", "joints", "omi_drives", "filters", "chain", "node_colliders", "mesh_chain")


def test_every_scaling_case_validates_and_migrates_at_a_small_size(tmp_path):
    out = tmp_path / "scaling.json"
    args = ["--size", "60", "--stages", "validate", "migrate", "--cases", *CASES, "--json", str(out)]
    done = subprocess.run([sys.executable, "-P", str(BENCH), *args], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    results = json.loads(out.read_text(encoding="utf-8"))
    assert {(r["scene"], r["stage"]) for r in results} == {(c, s) for c in CASES for s in ("validate", "migrate")}
    for r in results:
        assert "error" not in r, r
        assert r["counts"]["errors"] == 0 and r["seconds"] >= 0 and r["peak_mib"] > 0, r
    nodes = {r["scene"]: r["counts"]["nodes"] for r in results if r["stage"] == "migrate"}
    assert nodes["shapes"] == 60 and nodes["joints"] == 180  # 2 bodies + 1 joint node per joint
