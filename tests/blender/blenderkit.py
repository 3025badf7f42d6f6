"""Helpers the Blender-tier tests import (``conftest.py`` only holds fixtures and hooks)."""

from __future__ import annotations

import importlib
from types import ModuleType


def submodule(addon: ModuleType, path: str) -> ModuleType:
    """``submodule(addon, "io.hooks")`` imports ``bl_ext.user_default.gltf_physics.io.hooks``."""
    return importlib.import_module(f"{addon.__name__}.{path}")
