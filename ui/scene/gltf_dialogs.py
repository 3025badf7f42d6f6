"""Our options inside the File > Import/Export glTF 2.0 dialogs (4.2+ ``layout.panel`` API)."""

from __future__ import annotations


def _settings(context):
    return getattr(context.scene, "gltf_physics", None)


def draw_import(context, layout) -> None:
    settings = _settings(context)
    if settings is None:
        return
    header, body = layout.panel("GLTF_PHYSICS_import", default_closed=False)
    header.use_property_split = False
    header.prop(settings, "import_physics", text="")
    header.label(text="Physics")
    if body:
        body.active = settings.import_physics
        body.label(text="KHR and OMI physics: all revisions")
        body.prop(settings, "import_density")
        body.prop(settings, "import_reproduce")


def draw_export(context, layout) -> None:
    settings = _settings(context)
    if settings is None:
        return
    header, body = layout.panel("GLTF_PHYSICS_export", default_closed=False)
    header.use_property_split = False
    header.prop(settings, "export_physics", text="")
    header.label(text="Physics")
    if body:
        body.active = settings.export_physics
        body.prop(settings, "export_revision")
        body.prop(settings, "export_mass_properties")
        body.label(text="Blender's damping is not exported: engines will not damp", icon="INFO")
