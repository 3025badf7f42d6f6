"""Helpers shared by every test tier: paths, the pure-tier package loader, and the corpus locator.

Never puts the repository root on ``sys.path`` (the root is a package with an ``io`` subpackage).
"""

from __future__ import annotations

import importlib
import importlib.util
import json
import os
import pathlib
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "tests" / "fixtures"
# ../shared beside the checkout; GLTF_PHYSICS_SHARED overrides it (`make test-no-shared` points it nowhere).
SHARED = pathlib.Path(os.environ.get("GLTF_PHYSICS_SHARED", ROOT.parent / "shared"))
CORPUS = SHARED / "corpus"
SCHEMAS = SHARED / "schemas"
PACKAGE = "gltf_physics"


def load_package(name: str = PACKAGE):
    """Import the repository as the package ``name`` without touching ``sys.path``."""
    if name not in sys.modules:
        spec = importlib.util.spec_from_file_location(
            name, ROOT / "__init__.py", submodule_search_locations=[str(ROOT)]
        )
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
    return sys.modules[name]


def bench_module(name: str):
    """``tests/bench/<name>.py`` as a module (the benchmarks' helpers, e.g. the asset generator), loaded once."""
    key = f"gltf_physics_bench_{name}"
    if key not in sys.modules:
        spec = importlib.util.spec_from_file_location(key, ROOT / "tests" / "bench" / f"{name}.py")
        module = importlib.util.module_from_spec(spec)
        sys.modules[key] = module
        spec.loader.exec_module(module)
    return sys.modules[key]


def submodule(path: str, package: str = PACKAGE):
    """Import ``<package>.<path>`` (e.g. ``submodule("sim.quat")``) for the pure tier."""
    load_package(package)
    return importlib.import_module(f"{package}.{path}")


def corpus_dir() -> pathlib.Path:
    """The third-party corpus folder, or skip the calling test when it is absent."""
    if not CORPUS.is_dir():
        pytest.skip("../shared/corpus not found")
    return CORPUS


# `make test` runs every data sweep in full on the newest tier (GLTF_PHYSICS_SWEEP=full, the default) and a spread
# sample on the others (``sample``): each rule is one function of the file whatever the release, so the full sweep
# proves the rule once and the sample proves the release.
SWEEP = os.environ.get("GLTF_PHYSICS_SWEEP", "full")
SAMPLE_STEP = 4  # every 4th item of a sorted sweep, starting with the first


def sweep(items: list, sample: bool = True) -> list:
    """``items`` in full, or a deterministic every-``SAMPLE_STEP``-th sample when this tier samples sweeps.
    ``sample=False``: a sweep every tier runs in full (what "imports on this release" is measured by)."""
    if not sample or SWEEP != "sample":
        return list(items)
    return list(items)[::SAMPLE_STEP]


def corpus_files(*patterns: str, sample: bool = True) -> list[pathlib.Path]:
    """Corpus files matching glob patterns (relative to the corpus), sorted (``sweep``); [] when absent."""
    if not CORPUS.is_dir():
        return []
    found: set[pathlib.Path] = set()
    for pattern in patterns or ("**/*.gltf", "**/*.glb"):
        found.update(CORPUS.glob(pattern))
    return sweep(sorted(found), sample)


def corpus_id(path: object) -> str:
    """A short test id for a corpus file (pytest passes a placeholder when the corpus is absent)."""
    if isinstance(path, pathlib.Path) and path.is_relative_to(CORPUS):
        return str(path.relative_to(CORPUS))
    return str(path)


def import_fixtures(sample: bool = True) -> list[pathlib.Path]:
    """Every import and joint fixture that imports cleanly (``malformed.gltf`` is the one that does not)."""
    files = [*(FIXTURES / "import").glob("*.gltf"), *(FIXTURES / "joints").glob("*.gltf")]
    return sweep(sorted(path for path in files if path.name != "malformed.gltf"), sample)


def fixture(name: str) -> pathlib.Path:
    return FIXTURES / name


def read_json(path: pathlib.Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))
