"""The property groups of ``Object.gltf_physics`` as views of its one stored text (``io/mapping/stored_values.py``).

:func:`stored` turns each property of a group that ``stored_values.FIELDS`` lists into a ``get`` / ``set`` pair
over ``Object.gltf_physics.values_json``: reading parses the text once (shared by every reader of the same text),
writing rewrites the text and then Blender runs the property's ``update`` as for any other property. The group
keeps its other properties (pointers, the filter lists' rows, UI state) as ordinary ones. Defaults come from
``FIELDS`` only: a view property that names its own ``default`` is refused at class creation.
"""

from __future__ import annotations

import bpy

from ...io.diagnostics import printable
from ...io.mapping import stored_values
from ...io.mapping.stored_values import FIELDS, Path

_TEMPLATE = "_stored_template"  # the class's annotations as written, for a copy at another path


def stored(path: Path):
    """Class decorator: the properties of ``FIELDS[path]`` become views of the stored text."""

    def decorate(cls: type) -> type:
        template = dict(cls.__annotations__)
        setattr(cls, _TEMPLATE, template)
        cls.__annotations__.update(_views(path, template))
        return cls

    return decorate


def stored_copy(cls: type, name: str, path: Path) -> type:
    """A property-group class like ``cls`` (made by :func:`stored`) whose views read group ``path`` instead: the
    geometry and filter groups exist under both the collider and the trigger."""
    template = getattr(cls, _TEMPLATE)
    annotations = {**template, **_views(path, template)}
    return type(name, (bpy.types.PropertyGroup,), {"__annotations__": annotations, "__doc__": cls.__doc__})


def _views(path: Path, template: dict) -> dict:
    fields = FIELDS[path]
    out = {}
    for key, prop in template.items():
        if key not in fields:
            continue
        keywords = dict(prop.keywords)
        if "default" in keywords:
            raise TypeError(f"{key}: a stored property takes its default from stored_values.FIELDS")
        keywords["default"] = fields[key]
        get, put = _accessors(path, key, keywords.get("items"), keywords.get("min"), keywords.get("max"))
        out[key] = prop.function(**keywords, get=get, set=put)
    return out


def _accessors(path: Path, key: str, items, low: float | None, high: float | None) -> tuple:
    """``get`` / ``set`` of one view. Blender hands a Python ``set`` the value unclamped: it is clamped here to the
    property's ``min`` / ``max`` as Blender would."""
    identifiers = [item[0] for item in items] if items else None
    default = FIELDS[path][key]
    read, write, parse = stored_values.read, stored_values.write, stored_values.parse

    def get(group):
        value = read(parse(group.id_data.gltf_physics.values_json), path, key)
        if identifiers is not None:
            return identifiers.index(value) if value in identifiers else identifiers.index(default)
        if type(value) is str and not value.isascii():
            return printable(value)  # a Blender string getter must not return a lone surrogate
        return value

    def put(group, value) -> None:
        pg = group.id_data.gltf_physics
        values = stored_values.private_copy(pg.values_json)
        if identifiers is not None:
            value = identifiers[value]
        elif low is not None or high is not None:
            value = _clamped(value, low, high)
        write(values, path, key, value)
        pg.values_json = stored_values.dumps(values)

    return get, put


def _clamped(value, low: float | None, high: float | None):
    if not isinstance(value, int | float):
        return tuple(_clamped(v, low, high) for v in value)
    if low is not None and value < low:
        return low
    if high is not None and value > high:
        return high
    return value
