"""``make demo`` (``scripts/demo.py``) says where it wrote its export (issue 34, item 7)."""

from __future__ import annotations

import subprocess
import sys

from testkit import ROOT


def test_demo_says_where_it_wrote_its_export(tmp_path, addon):
    out = tmp_path / "demo" / "scene.gltf"
    command = [sys.executable, "-P", str(ROOT / "scripts" / "demo.py"), str(ROOT / "examples" / "demo_scene.gltf")]
    result = subprocess.run([*command, "--out", str(out)], capture_output=True, text=True, timeout=600, check=False)
    assert result.returncode == 0, result.stdout[-2000:] + result.stderr[-2000:]
    last = result.stdout.strip().splitlines()[-1]
    assert last == f"export written to {out.resolve()} (scene.bin, scene.gltf)", last
    assert out.is_file()
