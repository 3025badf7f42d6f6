"""Packaging: the manifest validates, the zip holds only the extension, and the version lives in one place."""

from __future__ import annotations

import re
import sys
import tomllib
import zipfile

import pytest

from testkit import ROOT, load_package

sys.path.insert(0, str(ROOT / "scripts"))
import devkit

MANIFEST = tomllib.loads((ROOT / "blender_manifest.toml").read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    return devkit.build(tmp_path_factory.mktemp("dist"))


def test_manifest_fields():
    assert MANIFEST["id"] == "gltf_physics"
    assert MANIFEST["name"] == "glTF Physics"
    assert MANIFEST["type"] == "add-on"
    assert MANIFEST["blender_version_min"] == "4.2.0"
    assert MANIFEST["license"] == ["SPDX:GPL-3.0-or-later"]
    assert re.fullmatch(r"\d+\.\d+\.\d+", MANIFEST["version"])
    assert MANIFEST["website"].startswith("https://")
    assert len(MANIFEST["tagline"]) <= 64 and MANIFEST["tagline"][-1].isalnum()


def test_blender_ext_validate_passes_on_source_and_zip(built):
    source = devkit.validate(ROOT)
    assert source.returncode == 0, source.stdout + source.stderr
    packed = devkit.validate(built)
    assert packed.returncode == 0, packed.stdout + packed.stderr


def test_zip_holds_only_the_extension(built):
    names = zipfile.ZipFile(built).namelist()
    assert "__init__.py" in names and "blender_manifest.toml" in names
    assert any(n.startswith("io/") for n in names) and any(n.startswith("sim/") for n in names)
    for name in names:
        parts = name.split("/")
        assert not any(p.startswith(".") for p in parts), name
        assert "__pycache__" not in parts and not name.endswith(".pyc"), name
        assert parts[0] not in {"tests", "docs", "dist", "bin", "scripts", "examples"}, name
        assert parts[0] not in {"Makefile", "ruff.toml", "requirements-test.txt"}, name


def test_version_is_kept_in_the_manifest_only(built):
    package = load_package()
    assert package.__version__ == MANIFEST["version"]
    with zipfile.ZipFile(built) as archive:
        packed = tomllib.loads(archive.read("blender_manifest.toml").decode())
    assert packed["version"] == MANIFEST["version"]
    assert built.name == f"gltf_physics-{MANIFEST['version']}.zip"
    changelog = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    first = re.search(r"^## \[?(\d+\.\d+\.\d+)", changelog, re.MULTILINE)
    assert first and first.group(1) == MANIFEST["version"]


def test_root_package_imports_without_bpy():
    package = load_package()
    assert "bpy" not in sys.modules
    assert callable(package.register) and callable(package.unregister)
    import importlib

    importlib.import_module("gltf_physics.io")
    importlib.import_module("gltf_physics.sim")
    assert "bpy" not in sys.modules
