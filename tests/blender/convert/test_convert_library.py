"""``convert`` over a real library (docs/convert.md, "Libraries"): ``X.gltf`` beside ``X.glb`` is converted once
for every ``--format`` (the other listed as skipped with an INFO naming the one converted; ``same`` keeps both),
``--include`` / ``--exclude`` pick the inputs, an OUT inside an input folder is refused (exit 2)."""

from __future__ import annotations

import shutil

import pytest
from convert_helpers import convert, report

from testkit import FIXTURES


def _pair(root):
    (root / "models").mkdir(parents=True)
    shutil.copyfile(FIXTURES / "basic_body.gltf", root / "models" / "box.gltf")
    return root


@pytest.fixture(scope="module")
def library(tmp_path_factory):
    """``models/box.gltf`` and ``models/box.glb`` (the same asset, converted once by ``convert --format glb``),
    plus ``models/hinge.gltf``."""
    root = _pair(tmp_path_factory.mktemp("lib") / "in")
    made = convert(root / "models" / "box.gltf", "-o", root.parent / "glb", "--format", "glb")
    assert made.returncode == 0, made.stderr
    shutil.copyfile(root.parent / "glb" / "box.glb", root / "models" / "box.glb")
    shutil.copyfile(FIXTURES / "joints" / "hinge_x.gltf", root / "models" / "hinge.gltf")
    return root


@pytest.mark.parametrize(
    ("fmt", "converted", "skipped"), [("glb", "box.glb", "box.gltf"), ("gltf", "box.gltf", "box.glb")]
)
def test_the_same_asset_twice_is_converted_once(tmp_path, library, fmt, converted, skipped):
    result = convert(library, "-o", tmp_path / "out", "--format", fmt, "--report", tmp_path / "r.json")
    assert result.returncode == 0, result.stderr
    files = report(tmp_path / "r.json")
    assert files[f"models/{converted}"]["status"] == "converted"
    entry = files[f"models/{skipped}"]
    assert entry["status"] == "skipped" and entry["input"].endswith(skipped)
    (note,) = entry["diagnostics"]
    assert (note["code"], note["severity"]) == ("CONVERT_SAME_ASSET_SKIPPED", "info") and converted in note["message"]
    assert f"same asset as models/{converted}" in result.stderr
    written = sorted(p.name for p in (tmp_path / "out" / "models").iterdir() if p.suffix in (".gltf", ".glb"))
    assert written == sorted({converted, f"hinge.{fmt}"})


def test_include_exclude_and_an_output_inside_the_library(tmp_path, library):
    result = convert(
        library, "-o", tmp_path / "out", "--include", "*.gltf", "--exclude", "*/box.*", "--report", tmp_path / "r.json"
    )
    assert result.returncode == 0, result.stderr
    assert list(report(tmp_path / "r.json")) == ["models/hinge.gltf"]
    inside = convert(library, "-o", library / "converted")
    assert inside.returncode == 2 and "inside the input folder" in inside.stderr
    assert not (library / "converted").exists()
