"""Helpers the Blender-tier tests import (``conftest.py`` only holds fixtures and hooks)."""

from __future__ import annotations

import importlib
import logging
from types import ModuleType


def submodule(addon: ModuleType, path: str) -> ModuleType:
    """``submodule(addon, "io.hooks")`` imports ``bl_ext.user_default.gltf_physics.io.hooks``."""
    return importlib.import_module(f"{addon.__name__}.{path}")


def rna_values(data) -> dict:
    """Every RNA property of a property group, nested groups and collections included (objects by name)."""
    out = {}
    for prop in data.bl_rna.properties:
        name = prop.identifier
        if name == "rna_type":
            continue
        value = getattr(data, name)
        if prop.type == "POINTER" and prop.fixed_type.identifier == "Object":
            out[name] = getattr(value, "name", None)
        elif prop.type == "POINTER":
            out[name] = rna_values(value)
        elif prop.type == "COLLECTION":
            out[name] = [rna_values(item) for item in value]
        elif getattr(prop, "is_array", False):
            out[name] = tuple(value)
        else:
            out[name] = value
    return out


class ErrorRecords(logging.Handler):
    """A logging handler that keeps the messages of ERROR records (io_scene_gltf2's ``glTFImporter_errors``)."""

    def __init__(self):
        super().__init__(level=logging.ERROR)
        self.records: list[str] = []

    def emit(self, record):
        self.records.append(record.getMessage())
