"""Property groups: the glTF physics settings of a scene (import/export options)."""

from __future__ import annotations

import bpy
from bpy.props import BoolProperty, EnumProperty, PointerProperty

EXPORT_REVISIONS = (
    ("2026", "KHR 2026", "KHR_physics_rigid_bodies with geometry.mesh (newest)"),
    ("2024-10", "KHR 2024-10", "KHR_physics_rigid_bodies with geometry.node and KHR_implicit_shapes"),
    ("2024-07", "KHR 2024-07", "KHR_physics_rigid_bodies with KHR_collision_shapes"),
    ("omi", "OMI", "OMI_physics_body, OMI_physics_shape and OMI_physics_joint"),
)


class GLTF_PHYSICS_PG_scene(bpy.types.PropertyGroup):
    """Scene-level options used by File > Import/Export glTF 2.0."""

    import_physics: BoolProperty(
        name="Import Physics",
        default=True,
        description="Turn glTF physics extensions into rigid bodies, constraints and triggers",
    )
    export_physics: BoolProperty(
        name="Export Physics",
        default=True,
        description="Write rigid bodies, constraints and triggers as glTF physics extensions",
    )
    export_revision: EnumProperty(
        name="Format", items=EXPORT_REVISIONS, default="2026", description="Which physics extension revision to write"
    )


CLASSES = (GLTF_PHYSICS_PG_scene,)


def register_properties() -> None:
    bpy.types.Scene.gltf_physics = PointerProperty(type=GLTF_PHYSICS_PG_scene)


def unregister_properties() -> None:
    if hasattr(bpy.types.Scene, "gltf_physics"):
        del bpy.types.Scene.gltf_physics
