"""The one adapter for io_scene_gltf2 internals (imported lazily: the glTF add-on may be disabled).

Checked against io_scene_gltf2 4.2.83 (blender-v4.2-release), 4.5.51 (blender-v4.5-release) and 5.0.21
(blender-v5.0-release): ``io.com.gltf2_io_extensions`` kept its path through the 4.3 renames.
"""

from __future__ import annotations

from typing import Any

PHYSICS_EXTENSIONS = (
    "KHR_physics_rigid_bodies",
    "KHR_implicit_shapes",
    "KHR_collision_shapes",
    "OMI_physics_body",
    "OMI_physics_shape",
    "OMI_physics_joint",
    "OMI_collider",
)


def extension_classes() -> tuple[type, type]:
    """``(Extension, ChildOfRootExtension)`` from the glTF add-on."""
    from io_scene_gltf2.io.com.gltf2_io_extensions import ChildOfRootExtension, Extension

    return Extension, ChildOfRootExtension


def handled_extensions() -> list[Any]:
    """``Extension`` objects that make the importer accept our names in ``extensionsRequired``."""
    extension, _ = extension_classes()
    return [extension(name=name, extension={}, required=True) for name in PHYSICS_EXTENSIONS]


def blender_version() -> tuple[int, int, int]:
    import bpy

    return tuple(bpy.app.version)
