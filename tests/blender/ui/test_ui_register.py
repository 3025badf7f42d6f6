"""Registration of the UI modules: register → unregister → register leaves no residue (classes, operators,
pointer properties, translations), and the translation table covers every panel and operator label."""

from __future__ import annotations

import bpy
import pytest

from blenderkit import submodule

UI_MODULES = {  # module name → its path under ui/
    "lists": "lists",
    "operators": "operators",
    "operators_check": "scene.operators_check",
    "panels": "panels",
    "panels_body": "body.panels_body",
    "panels_joint": "joint.panels_joint",
    "reproduction": "scene.reproduction",
    "translations": "translations",
}


class _Spy:
    """Records translation (un)registrations and forwards them to Blender."""

    def __init__(self):
        self.calls: list[tuple] = []

    def register(self, key, table):
        self.calls.append(("register", key, table))
        bpy.app.translations.register(key, table)

    def unregister(self, key):
        self.calls.append(("unregister", key))
        bpy.app.translations.unregister(key)


def _ours(addon) -> list:
    return [cls for path in UI_MODULES.values() for cls in submodule(addon, f"ui.{path}").CLASSES]


def _state(addon) -> dict:
    return {
        "registered": sorted(cls.__name__ for cls in _ours(addon) if cls.is_registered),
        "types": sorted(cls.__name__ for cls in _ours(addon) if hasattr(bpy.types, cls.__name__)),
        "operators": sorted(name for name in dir(bpy.ops.gltf_physics) if _operator_exists(name)),
        "object_pointer": hasattr(bpy.types.Object, "gltf_physics"),
        "frame_handlers": sorted(h.__name__ for h in bpy.app.handlers.frame_change_pre if _ours_handler(addon, h)),
        "update_handlers": sorted(
            h.__name__ for h in bpy.app.handlers.depsgraph_update_post if _ours_handler(addon, h)
        ),
    }


def _ours_handler(addon, handler) -> bool:
    return getattr(handler, "__module__", "").startswith(addon.__name__)


def _operator_exists(name: str) -> bool:
    try:
        getattr(bpy.ops.gltf_physics, name).get_rna_type()
    except (KeyError, AttributeError):
        return False
    return True


def test_ui_modules_are_registered_in_order(addon):
    names = tuple(module.__name__.rsplit(".", 1)[1] for module in submodule(addon, "ui")._modules())
    assert names[:2] == ("joint_properties", "properties")
    assert set(UI_MODULES) <= set(names)
    assert names.index("panels") < names.index("panels_body") < names.index("panels_joint")


def test_register_unregister_register_leaves_no_residue(addon, monkeypatch):
    translations = submodule(addon, "ui.translations")
    spy = _Spy()
    monkeypatch.setattr(translations, "API", spy)
    before = _state(addon)
    assert len(before["registered"]) == len(_ours(addon)) > 0
    assert before["types"] == before["registered"]
    assert before["frame_handlers"] == []  # playing runs no Python of ours: the pre-roll is drivers (issue 34)
    assert before["update_handlers"] == ["invalidate", "on_depsgraph_update"]  # editing: filters, joints made
    assert before["operators"] == [
        "add_joint",
        "add_joint_item",
        "adopt_settings",
        "check_simulation",
        "collections_from_filters",
        "compute_mass",
        "filter_add_system",
        "filter_remove_system",
        "filters_from_collections",
        "make_trigger",
        "remove_joint_item",
        "remove_reproduction_helpers",
        "validate_scene",
    ]
    try:
        addon.unregister()
        gone = _state(addon)
        assert gone == {
            "registered": [],
            "types": [],
            "operators": [],
            "object_pointer": False,
            "frame_handlers": [],
            "update_handlers": [],
        }
        assert spy.calls == [("unregister", translations.__package__)]
        addon.register()
        assert _state(addon) == before
        assert spy.calls[-1] == ("register", translations.__package__, translations.TRANSLATIONS)
        addon.unregister()
        addon.register()
        assert _state(addon) == before
        assert [c[0] for c in spy.calls] == ["unregister", "register", "unregister", "register"]
    finally:
        if not hasattr(bpy.types.Scene, "gltf_physics"):
            addon.register()


def test_translation_table_covers_panels_and_operators(addon):
    translations = submodule(addon, "ui.translations")
    labels = {cls.bl_label for cls in _ours(addon) if hasattr(cls, "bl_label") and "Joint Limit" not in cls.bl_label}
    assert {"glTF Physics", "Body", "Collider & Material", "Trigger", "Joint", "Compute Mass"} <= labels
    for locale in ("de_DE", "fr_FR"):
        table = translations.TRANSLATIONS[locale]
        assert all(ctx == "*" and text and text != msgid for (ctx, msgid), text in table.items())
        missing = {label for label in labels if ("*", label) not in table}
        assert not missing, f"{locale} lacks {missing}"
        for (_ctx, msgid), text in table.items():  # format templates keep their placeholders
            assert msgid.count("{") == text.count("{"), (locale, msgid)


@pytest.mark.parametrize("locale", ["de_DE", "fr_FR"])
def test_translated_templates_format_like_the_originals(addon, locale):
    table = submodule(addon, "ui.translations").TRANSLATIONS[locale]
    text = table[("*", "Overshoot: {:.4g} {} ({:.1f} %)")]
    assert text.format(0.25, "m", 12.5).count("0.25") == 1 and "12.5" in text.format(0.25, "m", 12.5)
