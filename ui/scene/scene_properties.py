"""Scene-level options of File > Import/Export glTF 2.0: ``Scene.gltf_physics``."""

from __future__ import annotations

import bpy
from bpy.props import BoolProperty, EnumProperty, FloatProperty, PointerProperty

EXPORT_REVISIONS = (
    ("2026", "KHR 2026", "KHR_physics_rigid_bodies with geometry.mesh (newest)"),
    ("2024-10", "KHR 2024-10", "KHR_physics_rigid_bodies with geometry.node and KHR_implicit_shapes"),
    ("2024-07", "KHR 2024-07", "KHR_physics_rigid_bodies with KHR_collision_shapes"),
    ("omi", "OMI", "OMI_physics_body, OMI_physics_shape and OMI_physics_joint"),
)
EXPORT_MASS_PROPERTIES = (
    (
        "BLENDER",
        "As Blender Simulates",
        "Write the centre of mass (the object origin) and the inertia Blender's Bullet uses, where an engine "
        "computing them from the shapes would differ (off-centre hulls and compounds, cones, capsules, meshes)",
    ),
    (
        "ENGINE",
        "Engine Computes",
        "Write no centre of mass or inertia: the engine computes them from the exported shapes (solid, uniform "
        "density), so bodies may balance differently than in Blender",
    ),
)


class GLTF_PHYSICS_PG_scene(bpy.types.PropertyGroup):
    """Scene-level options used by File > Import/Export glTF 2.0."""

    import_physics: BoolProperty(
        name="Import Physics",
        default=True,
        description="Turn glTF physics extensions into rigid bodies, constraints and triggers",
    )
    import_density: FloatProperty(
        name="Density",
        default=1000.0,
        min=1e-6,
        unit="NONE",
        description="kg/m³ used to compute the mass of bodies whose file gives none (KHR: engine computes it)",
    )
    import_reproduce: BoolProperty(
        name="Reproduce Motion",
        default=True,
        description="Rebuild what Blender has no setting for so the scene moves as the file says: initial "
        "velocities (a short kinematic pre-roll), gravityFactor (the world's gravity weight), infinite inertia "
        "(a rotation lock), centerOfMass (a compound helper at the centre), friction / restitution combine modes "
        "(pre-combined per contact pair), compound children with their own filters (split off, FIXED); helpers "
        "go in the 'glTF Physics Helpers' collection and are never exported; what stays impossible is reported",
    )
    export_physics: BoolProperty(
        name="Export Physics",
        default=True,
        description="Write rigid bodies, constraints and triggers as glTF physics extensions",
    )
    export_revision: EnumProperty(
        name="Format", items=EXPORT_REVISIONS, default="2026", description="Which physics extension revision to write"
    )
    export_mass_properties: EnumProperty(
        name="Mass Properties",
        items=EXPORT_MASS_PROPERTIES,
        default="BLENDER",
        description="Centre of mass and inertia of bodies authored in Blender (values imported from a glTF file are "
        "written back as they were unless edited)",
    )


CLASSES = (GLTF_PHYSICS_PG_scene,)


def register_properties() -> None:
    bpy.types.Scene.gltf_physics = PointerProperty(type=GLTF_PHYSICS_PG_scene)


def unregister_properties() -> None:
    if hasattr(bpy.types.Scene, "gltf_physics"):
        del bpy.types.Scene.gltf_physics
