"""Blender UI: property groups, panels, operators and glTF dialog options.

Each module has one ``CLASSES`` tuple; they are registered here in order and unregistered in reverse.
"""

from __future__ import annotations

import importlib

# Registration order matters: property groups before the panels and pointers that use them.
_MODULES = ("joint_properties", "properties")


def _modules():
    return [importlib.import_module(f"{__name__}.{name}") for name in _MODULES]


def register() -> None:
    import bpy

    for module in _modules():
        for cls in module.CLASSES:
            bpy.utils.register_class(cls)
        if hasattr(module, "register_properties"):
            module.register_properties()


def unregister() -> None:
    import bpy

    for module in reversed(_modules()):
        if hasattr(module, "unregister_properties"):
            module.unregister_properties()
        for cls in reversed(module.CLASSES):
            if getattr(cls, "is_registered", False):
                bpy.utils.unregister_class(cls)
