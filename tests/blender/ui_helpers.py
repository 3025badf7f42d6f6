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
    """Records ``(call, details)`` into a shared log; children share it. Keyword arguments are checked against the
    parameters of the real ``UILayout`` function of the running Blender version."""

    def __init__(self, log: list | None = None):
        self.log = [] if log is None else log
        self.active = True
        self.enabled = True
        self.alert = False
        self.use_property_split = False
        self.use_property_decorate = True
        self.scale_y = 1.0

    @staticmethod
    def _check(function: str, kwargs: dict) -> None:
        known = {p.identifier for p in bpy.types.UILayout.bl_rna.functions[function].parameters}
        unknown = set(kwargs) - known
        assert not unknown, f"UILayout.{function} has no parameters {unknown} in Blender {bpy.app.version_string}"
        _check_icon(kwargs.get("icon", "NONE"))

    def _child(self, kind: str, kwargs: dict) -> FakeLayout:
        self._check(kind, kwargs)
        self.log.append((kind, kwargs))
        return FakeLayout(self.log)

    def row(self, **kwargs):
        return self._child("row", kwargs)

    def column(self, **kwargs):
        return self._child("column", kwargs)

    def box(self, **kwargs):
        return self._child("box", kwargs)

    def split(self, **kwargs):
        return self._child("split", kwargs)

    def separator(self, **kwargs):
        self._check("separator", kwargs)
        self.log.append(("separator", kwargs))

    def label(self, **kwargs):
        self._check("label", kwargs)
        self.log.append(("label", {"text": kwargs.get("text", ""), "icon": kwargs.get("icon", "NONE")}))

    def prop(self, data, property, **kwargs):
        self._check("prop", kwargs)
        assert property in data.bl_rna.properties, f"{data.bl_rna.identifier} has no property {property!r}"
        if kwargs.get("expand"):
            assert data.bl_rna.properties[property].type == "ENUM", f"expand on non-enum {property!r}"
        self.log.append(("prop", {"data": data, "property": property, "text": kwargs.get("text")}))

    def operator(self, operator, **kwargs):
        self._check("operator", kwargs)
        module, name = operator.split(".")
        rna = getattr(getattr(bpy.ops, module), name).get_rna_type()  # KeyError when not registered
        props = _OperatorProperties(rna)
        self.log.append(("operator", {"idname": operator, "props": props}))
        return props

    def template_list(self, listtype_name, list_id, dataptr, propname, active_dataptr, active_propname, **kwargs):
        self._check("template_list", kwargs)
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
