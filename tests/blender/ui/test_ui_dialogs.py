"""The glTF dialogs' Physics panels draw headless with the running Blender's ``UILayout`` parameters: the export
panel offers the revision and *Mass Properties* (default: as Blender simulates) and says engines will not damp."""

from __future__ import annotations

import bpy

from blenderkit import submodule
from ui_helpers import FakeLayout


class _DialogLayout(FakeLayout):
    def panel(self, idname, **kwargs):
        self._check("panel", kwargs)
        self.log.append(("panel", {"idname": idname}))
        return FakeLayout(self.log), FakeLayout(self.log)


def test_export_panel_offers_mass_properties(addon, clean):
    layout = _DialogLayout()
    submodule(addon, "ui.scene.gltf_dialogs").draw_export(bpy.context, layout)
    assert layout.props() == ["export_physics", "export_revision", "export_mass_properties"]
    assert "Blender's damping is not exported: engines will not damp" in layout.texts()
    settings = bpy.context.scene.gltf_physics
    assert settings.export_mass_properties == "BLENDER"
    items = settings.bl_rna.properties["export_mass_properties"].enum_items
    assert [i.identifier for i in items] == ["BLENDER", "ENGINE"] and all(i.description for i in items)


def test_import_panel_draws(addon, clean):
    layout = _DialogLayout()
    submodule(addon, "ui.scene.gltf_dialogs").draw_import(bpy.context, layout)
    assert layout.props() == ["import_physics", "import_density", "import_reproduce"]
