"""Blender tier: the extension is built into a zip with Blender's extension CLI, installed into a temporary
user-resources folder with ``package_install_files`` and enabled — exactly as users install it.

Fixtures: ``addon`` (the enabled root module ``bl_ext.user_default.gltf_physics``), ``clean`` (an empty scene before
the test), ``gltf_errors`` (io_scene_gltf2's error logger; the autouse guard fails a test that left records there).
"""

from __future__ import annotations

import logging
import os
import pathlib
import sys
import tempfile

# The command-line tests start Blender workers (``convert``, ``check``) that import the extension from this checkout.
# With bytecode writing off (``PYTHONDONTWRITEBYTECODE``, which these machines set) every worker compiled the
# extension's modules again, about 0.4 s of each start and a quarter of those tests' time (docs/testing.md): the
# processes this tier starts write and reuse bytecode, as a user's Blender does (``__pycache__`` is git-ignored and
# left out of the extension's zip by the manifest). This interpreter keeps the setting it started with.
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
_USER = tempfile.mkdtemp(prefix="gltf_physics_user_")
sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2] / "scripts"))
import devkit  # noqa: E402
from blenderkit import ErrorRecords, empty_scene, submodule  # noqa: E402

devkit.isolate_user_resources(pathlib.Path(_USER))

import bpy  # noqa: E402
import pytest  # noqa: E402

_STATE: dict = {}


def _addon():
    if "module" not in _STATE:
        _STATE["zip"] = devkit.build(pathlib.Path(_USER) / "dist")
        _STATE["module"] = devkit.install_and_enable(_STATE["zip"])
    return devkit.enable()


@pytest.fixture(scope="session")
def built_zip() -> pathlib.Path:
    _addon()
    return _STATE["zip"]


@pytest.fixture(scope="session")
def addon():
    return _addon()


@pytest.fixture(autouse=True)
def gltf_errors():
    """Records of io_scene_gltf2's error logger (export-hook exceptions only show up there)."""
    handler = ErrorRecords()
    logger = logging.getLogger("glTFImporter_errors")
    logger.addHandler(handler)
    yield handler.records
    logger.removeHandler(handler)
    if handler.records:  # a test that provokes errors on purpose clears the list
        pytest.fail("io_scene_gltf2 logged errors: " + " | ".join(handler.records))


@pytest.fixture
def clean(addon):
    """An empty scene (``blenderkit.empty_scene``; preferences and enabled extensions kept) and cleared per-run
    reports."""
    empty_scene()
    module = devkit.enable()
    submodule(module, "io.hooks").LAST_REPORTS.clear()
    return module


_EXIT: dict = {}


def pytest_terminal_summary(terminalreporter, exitstatus, config):
    _EXIT["status"] = int(exitstatus)


@pytest.hookimpl(trylast=True)
def pytest_unconfigure(config):
    """bpy 4.2 may segfault at interpreter exit after a glTF export: leave with the real status first."""
    if bpy.app.version < (4, 3, 0) and "status" in _EXIT:
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(_EXIT["status"])
