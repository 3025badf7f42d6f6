"""Blender UI: property groups, panels, operators and glTF dialog options, one folder per feature.

* ``body/`` (Body, Collider & Material, Trigger: ``Object.gltf_physics`` and its syncs), ``joint/`` (the Joint panel,
  *Add glTF Joint*), ``filters/`` (collision filters ⇄ collision collections), ``overlay/`` (the viewport overlay),
  ``adopt/`` (*Adopt Physics Settings*), ``scene/`` (import / export options, *Validate Scene*, *Check Simulation*,
  *Remove Reproduction Helpers*);
* shared here: ``panels`` (the parent panel, panel helpers), ``operators`` (the panels' operators and their report
  helper), ``lists`` (the UI lists), ``readout`` (bpy-free read-outs with ``sim``), ``translations``.

Each module has one ``CLASSES`` tuple; they are registered here in order and unregistered in reverse. Optional
module hooks: ``register_properties``/``unregister_properties`` (pointer properties) and
``register_module``/``unregister_module`` (anything else, e.g. translations).
"""

from __future__ import annotations


def _modules() -> list:
    """The UI modules in registration order: property groups before the panels and pointers that use them, the
    parent panel before its sub-panels (imported here, not at module level: they import bpy)."""
    from . import lists, operators, panels, translations
    from .adopt import adopt
    from .body import panels_body, properties
    from .filters import filter_lists
    from .joint import joint_presets, joint_properties, panels_joint
    from .overlay import overlay
    from .scene import operators_check, reproduction, scene_properties

    return [
        joint_properties,
        properties,
        scene_properties,
        lists,
        operators,
        operators_check,
        filter_lists,
        joint_presets,
        adopt,
        panels,
        panels_body,
        panels_joint,
        overlay,
        reproduction,
        translations,
    ]


def register() -> None:
    import bpy

    for module in _modules():
        for cls in module.CLASSES:
            bpy.utils.register_class(cls)
        if hasattr(module, "register_properties"):
            module.register_properties()
        if hasattr(module, "register_module"):
            module.register_module()


def unregister() -> None:
    import bpy

    for module in reversed(_modules()):
        if hasattr(module, "unregister_module"):
            module.unregister_module()
        if hasattr(module, "unregister_properties"):
            module.unregister_properties()
        for cls in reversed(module.CLASSES):
            if getattr(cls, "is_registered", False):
                bpy.utils.unregister_class(cls)
