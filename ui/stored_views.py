"""The property groups of ``Object.gltf_physics`` as views of its one stored text (``io/mapping/stored_values.py``).

:func:`stored` turns each property of a group that ``stored_values.FIELDS`` lists into a ``get`` / ``set`` pair
over ``Object.gltf_physics.values_json``: reading parses the text once (shared by every reader of the same text),
writing rewrites the text and then Blender runs the property's ``update`` as for any other property. The group
keeps its other properties (pointers, the filter lists' rows, UI state) as ordinary ones. Defaults come from
``FIELDS`` only: a view property that names its own ``default`` is refused at class creation.
"""

from __future__ import annotations

import bpy

from ..io.diagnostics import printable
from ..io.mapping import stored_values
from ..io.mapping.stored_values import FIELDS, ROWS, Path

_TEMPLATE = "_stored_template"  # the class's annotations as written, for a copy at another path


def stored(path: Path):
    """Class decorator: the properties of ``FIELDS[path]`` become views of the stored text."""

    def decorate(cls: type) -> type:
        template = dict(cls.__annotations__)
        setattr(cls, _TEMPLATE, template)
        cls.__annotations__.update(_views(path, template))
        return cls

    return decorate


def stored_rows(path: Path):
    """Class decorator for the row group of a stored list (``stored_values.ROWS``): the properties of a row in the
    object's collection are views of the stored row at the same position (the collection's rows hold nothing)."""

    def decorate(cls: type) -> type:
        fields = ROWS[path]
        for key, prop in dict(cls.__annotations__).items():
            if key not in fields:
                continue
            keywords = _checked_keywords(key, prop, fields)
            get, put = _row_accessors(path, key, keywords.get("items"), keywords.get("min"), keywords.get("max"))
            cls.__annotations__[key] = prop.function(**keywords, get=get, set=put)
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
        keywords = _checked_keywords(key, prop, fields)
        get, put = _accessors(path, key, keywords.get("items"), keywords.get("min"), keywords.get("max"))
        out[key] = prop.function(**keywords, get=get, set=put)
    return out


def _checked_keywords(key: str, prop, fields: dict) -> dict:
    keywords = dict(prop.keywords)
    if "default" in keywords:
        raise TypeError(f"{key}: a stored property takes its default from stored_values.FIELDS / ROWS")
    keywords["default"] = fields[key]
    return keywords


def _row_index(row) -> int:
    """The position of ``row`` in its collection (``'gltf_physics.joint.limits[2]'`` → 2)."""
    path = row.path_from_id()
    return int(path[path.rindex("[") + 1 : -1])


def _row_accessors(path: Path, key: str, items, low: float | None, high: float | None) -> tuple:
    """``get`` / ``set`` of one row view (see :func:`_accessors`)."""
    identifiers = [item[0] for item in items] if items else None
    default = ROWS[path][key]

    def get(row):
        value = stored_values.read_row(
            stored_values.parse(row.id_data.gltf_physics.values_json), path, _row_index(row), key
        )
        return _shown(value, identifiers, default)

    def put(row, value) -> None:
        pg = row.id_data.gltf_physics
        values = stored_values.private_copy(pg.values_json)
        stored_values.write_row(values, path, _row_index(row), {key: _given(value, identifiers, low, high)})
        pg.values_json = stored_values.dumps(values)

    return get, put


def _shown(value, identifiers, default):
    """A stored value as the property returns it: an enum's item number, a string Blender can hold."""
    if identifiers is not None:
        return identifiers.index(value) if value in identifiers else identifiers.index(default)
    if type(value) is str and not value.isascii():
        return printable(value)  # a Blender string getter must not return a lone surrogate
    return value


def _given(value, identifiers, low: float | None, high: float | None):
    """A value a ``set`` received as it is stored: an enum's identifier, clamped to ``min`` / ``max``."""
    if identifiers is not None:
        return identifiers[value]
    if low is not None or high is not None:
        return _clamped(value, low, high)
    return value


def _accessors(path: Path, key: str, items, low: float | None, high: float | None) -> tuple:
    """``get`` / ``set`` of one view. Blender hands a Python ``set`` the value unclamped: it is clamped here to the
    property's ``min`` / ``max`` as Blender would."""
    identifiers = [item[0] for item in items] if items else None
    default = FIELDS[path][key]
    read, write, parse = stored_values.read, stored_values.write, stored_values.parse

    def get(group):
        return _shown(read(parse(group.id_data.gltf_physics.values_json), path, key), identifiers, default)

    def put(group, value) -> None:
        pg = group.id_data.gltf_physics
        values = stored_values.private_copy(pg.values_json)
        write(values, path, key, _given(value, identifiers, low, high))
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
