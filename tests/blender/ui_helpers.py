"""Headless panel drawing for the UI tests: a layout stand-in that records calls and checks them against RNA.

``UILayout`` cannot be created without a window, so ``draw_panel`` calls ``Panel.draw(self_like, context)`` with a
``FakeLayout``. Every ``prop`` must name an existing RNA property, every ``operator`` a registered operator (and
only its real properties may be set), every ``template_list`` a registered UIList and collection, every icon an icon
of this Blender version — so a typo or a version difference fails the test instead of showing an empty panel.
"""

from __future__ import annotations

import types

import bpy

_ICONS = set(bpy.types.UILayout.bl_rna.functions["label"].parameters["icon"].enum_items.keys())


def _check_icon(icon: str) -> None:
    assert icon in _ICONS, f"icon {icon!r} does not exist in Blender {bpy.app.version_string}"


class _OperatorProperties:
    def __init__(self, rna):
        object.__setattr__(self, "_rna", rna)
        object.__setattr__(self, "values", {})

    def __setattr__(self, name, value):
        assert name in self._rna.properties, f"operator {self._rna.identifier} has no property {name!r}"
        self.values[name] = value


class FakeLayout:
    """Records ``(call, details)`` into a shared log; children share it."""

    def __init__(self, log: list | None = None):
        self.log = [] if log is None else log
        self.active = True
        self.enabled = True
        self.alert = False
        self.use_property_split = False
        self.use_property_decorate = True
        self.scale_y = 1.0

    def _child(self, kind: str) -> FakeLayout:
        self.log.append((kind, {}))
        return FakeLayout(self.log)

    def row(self, align=False, heading="", **_):
        return self._child("row")

    def column(self, align=False, heading="", **_):
        return self._child("column")

    def box(self):
        return self._child("box")

    def split(self, factor=0.0, align=False):
        return self._child("split")

    def separator(self, **_):
        self.log.append(("separator", {}))

    def label(self, text="", icon="NONE", translate=True, **_):
        _check_icon(icon)
        self.log.append(("label", {"text": text, "icon": icon}))

    def prop(self, data, property, text=None, icon="NONE", expand=False, translate=True, **_):
        _check_icon(icon)
        assert property in data.bl_rna.properties, f"{data.bl_rna.identifier} has no property {property!r}"
        self.log.append(("prop", {"data": data, "property": property, "text": text}))

    def operator(self, operator, text=None, icon="NONE", **_):
        _check_icon(icon)
        module, name = operator.split(".")
        rna = getattr(getattr(bpy.ops, module), name).get_rna_type()  # KeyError when not registered
        props = _OperatorProperties(rna)
        self.log.append(("operator", {"idname": operator, "props": props}))
        return props

    def template_list(self, listtype_name, list_id, dataptr, propname, active_dataptr, active_propname, **_):
        assert issubclass(getattr(bpy.types, listtype_name), bpy.types.UIList), listtype_name
        assert dataptr.bl_rna.properties[propname].type == "COLLECTION"
        assert active_dataptr.bl_rna.properties[active_propname].type == "INT"
        self.log.append(("template_list", {"list": listtype_name, "items": len(getattr(dataptr, propname))}))

    # what the tests look at
    def calls(self, kind: str) -> list[dict]:
        return [details for call, details in self.log if call == kind]

    def texts(self) -> list[str]:
        return [d["text"] for d in self.calls("label")]

    def props(self) -> list[str]:
        return [d["property"] for d in self.calls("prop")]


def draw_panel(panel_cls, ob, header: bool = True) -> FakeLayout | None:
    """Run ``poll``; if it passes, ``draw_header`` and ``draw`` with ``context.object = ob``; None when polled out."""
    with bpy.context.temp_override(object=ob, active_object=ob):
        context = bpy.context
        if not panel_cls.poll(context):
            return None
        layout = FakeLayout()
        self_like = types.SimpleNamespace(layout=layout, bl_label=panel_cls.bl_label)
        if header and hasattr(panel_cls, "draw_header"):
            panel_cls.draw_header(self_like, context)
        panel_cls.draw(self_like, context)
        return layout


def draw_list_item(list_cls, data, item, index: int = 0) -> FakeLayout:
    """``UIList.draw_item`` with a fake layout (``self`` is not used by our lists)."""
    layout = FakeLayout()
    with bpy.context.temp_override():
        list_cls.draw_item(None, bpy.context, layout, data, item, 0, data, "", index)
    return layout
