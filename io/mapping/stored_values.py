"""One stored value per object: the glTF physics an object carries, as one JSON text (bpy-free).

``Object.gltf_physics.values_json`` is the one source of truth of what an import kept and what a panel edited: the
role and node of the object, its motion, collider and trigger with their geometry, material and filter, exactly as
the file gave them (vectors in Blender's frame, shapes and passthrough as the JSON texts ``mapping/stored.py``
makes). Its layout is the property groups' (``ui/body/properties.py``): a group is an object of the text, a property
is a key of it, and a key that is absent reads as the property's default (``FIELDS``), so a fresh object has the
text ``''`` and a typical body a few hundred bytes.

Every reader reads the text: the exporter, ``check`` and the import's own later steps through a :class:`StoredView`
(plain Python attribute access, one parse per text), the panels through the property groups, whose properties are
``get`` / ``set`` views of the text (nothing else is stored; an edit rewrites the text and then runs the
property's ``update``). The import fills one writable view per object and writes each text once
(``importer/context.py``): one RNA write per object instead of one per value that differs from its default.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager

Path = tuple[str, ...]

_GEOMETRY = {
    "kind": "NONE",
    "shape_index": -1,
    "shape_json": "",
    "mesh": -1,
    "node": -1,
    "convex_hull": False,
    "passthrough": "",
    "shape_passthrough": "",
}
_FILTER = {
    "has_filter": False,
    "index": -1,
    "name": "",
    "collision_systems": "",
    "collide_with_systems": "",
    "not_collide_with_systems": "",
    "passthrough": "",
}

#: Every stored property: group path → {property name: default}. The property groups take their defaults from here.
FIELDS: dict[Path, dict[str, object]] = {
    (): {
        "role": "NONE",
        "node_index": -1,
        "source": "",
        "generated_mesh": False,
        "proxy_node": -1,
        "file_name": "",
        "outside_scene": False,
    },
    ("motion",): {
        "has_motion": False,
        "kind": "dynamic",
        "mass_mode": "EXPLICIT",
        "mass": 1.0,
        "has_center_of_mass": False,
        "center_of_mass": (0.0, 0.0, 0.0),
        "has_inertia_diagonal": False,
        "inertia_diagonal": (0.0, 0.0, 0.0),
        "has_inertia_orientation": False,
        "inertia_orientation": (1.0, 0.0, 0.0, 0.0),
        "linear_velocity": (0.0, 0.0, 0.0),
        "angular_velocity": (0.0, 0.0, 0.0),
        "gravity_factor": 1.0,
        "animated": False,
        "reproduced_mass": -1.0,
        "passthrough": "",
    },
    ("collider",): {
        "has_collider": False,
        "disabled": False,
        "approximated": "",
        "passthrough": "",
    },
    ("collider", "geometry"): _GEOMETRY,
    ("collider", "material"): {
        "has_material": False,
        "index": -1,
        "name": "",
        "static_friction": 0.6,
        "dynamic_friction": 0.6,
        "restitution": 0.0,
        "friction_combine": "NONE",
        "restitution_combine": "NONE",
        "passthrough": "",
        "reproduced": False,
        "reproduced_values": (0.0, 0.0, 0.0, 0.0),
    },
    ("collider", "filter"): _FILTER,
    ("trigger",): {
        "has_trigger": False,
        "nodes": "",
        "passthrough": "",
    },
    ("trigger", "geometry"): _GEOMETRY,
    ("trigger", "filter"): _FILTER,
}

#: The text's own layout version: a text of another layout reads as nothing stored (0.1.0 is unreleased).
LAYOUT_KEY, LAYOUT = "layout", 1

_PARSED: dict[str, dict] = {}
_PARSED_LIMIT = 1 << 14  # texts kept parsed (an export reads each object's text in several steps)


def parse(text: str) -> dict:
    """The values of a stored text, shared by every reader of the same text (never mutate the result). Text that is
    not a JSON object of this layout (a script wrote it, an older extension saved it) reads as nothing stored; see
    :func:`readable`."""
    values = _PARSED.get(text)
    if values is None:
        values = _load(text)
        if len(_PARSED) >= _PARSED_LIMIT:
            _PARSED.clear()
        _PARSED[text] = values
    return values


def _load(text: str) -> dict:
    if not text:
        return {}
    try:
        values = json.loads(text)
    except (ValueError, RecursionError):
        return {}
    if not isinstance(values, dict) or values.get(LAYOUT_KEY) != LAYOUT:
        return {}
    return values


def readable(text: str) -> bool:
    """True for ``''`` and for a text of this layout (what the exporter warns about otherwise)."""
    return not text or bool(parse(text))


def dumps(values: dict) -> str:
    """The stored text of ``values`` (empty groups left out; ``''`` when nothing is stored). ASCII JSON: a Blender
    string holds it whatever the names (lone surrogates escaped)."""
    pruned = _pruned(values)
    if not pruned:
        return ""
    pruned[LAYOUT_KEY] = LAYOUT
    return json.dumps(pruned, separators=(",", ":"))


def _pruned(values: dict) -> dict:
    out = {}
    for key, value in values.items():
        if key == LAYOUT_KEY:
            continue
        if isinstance(value, dict):
            value = _pruned(value)
            if not value:
                continue
        out[key] = value
    return out


def group_values(values: dict, path: Path) -> dict | None:
    """The object of group ``path`` in ``values`` (None when nothing of it is stored)."""
    for key in path:
        values = values.get(key)
        if not isinstance(values, dict):
            return None
    return values


def read(values: dict, path: Path, name: str):
    """Property ``name`` of group ``path``: the stored value (sequences as tuples) or the default."""
    default = FIELDS[path][name]
    group = group_values(values, path)
    if group is None:
        return default
    value = group.get(name, default)
    if isinstance(default, tuple):
        if not isinstance(value, list | tuple) or len(value) != len(default):
            return default
        return tuple(value)
    if type(value) is not type(default) and not (type(default) is float and type(value) is int):
        return default  # a text a script broke: the default, never a wrong type
    return value


def write(values: dict, path: Path, name: str, value) -> None:
    """Set property ``name`` of group ``path`` in ``values`` (a value equal to the default is left out)."""
    write_group(values, path, {name: value})


def write_group(values: dict, path: Path, items: dict) -> None:
    """Set several properties of group ``path`` in ``values``: each value as its default's type (sequences as lists
    of floats), one equal to its default left out (empty groups are left out by :func:`dumps`)."""
    fields = FIELDS[path]
    group = values
    for key in path:
        child = group.get(key)
        if not isinstance(child, dict):
            child = group[key] = {}
        group = child
    for name, value in items.items():
        default = fields[name]
        if isinstance(default, tuple):
            value = [float(v) for v in value]
            equal = tuple(value) == default
        else:
            value = type(default)(value)
            equal = value == default
        if equal:
            group.pop(name, None)
        else:
            group[name] = value


def private_copy(text: str) -> dict:
    """The values of a stored text as a dict of the caller's own (to write into, then :func:`dumps`)."""
    values = parse(text)
    return json.loads(json.dumps(values)) if values else {}


class StoredView:
    """Attribute access to one group of stored values, like the property group's: ``view.motion.mass``. A name that
    is not stored (``joint``, ``gltf_parent``, the filter lists' rows) is read from the object's property group
    ``rna`` at the same path, when there is one (looked up only then). Writable when made so: every assignment
    changes ``values``."""

    __slots__ = ("_path", "_rna", "_values", "_writable")

    def __init__(self, values: dict, path: Path = (), rna=None, writable: bool = False) -> None:
        object.__setattr__(self, "_values", values)
        object.__setattr__(self, "_path", path)
        object.__setattr__(self, "_rna", rna)
        object.__setattr__(self, "_writable", writable)

    def assign(self, values: dict) -> None:
        """Set several properties of this group at once (what ``mapping.stored.assign`` does for any group)."""
        if not self._writable:
            raise AttributeError("a read-only view of stored values")
        write_group(self._values, self._path, values)

    def _group(self):
        """The property group at this view's path (AttributeError without one)."""
        if self._rna is None:
            raise AttributeError(self._path)
        group = self._rna
        for key in self._path:
            group = getattr(group, key)
        return group

    def __getattr__(self, name: str):
        path = self._path
        if name in FIELDS[path]:
            return read(self._values, path, name)
        sub = (*path, name)
        if sub in FIELDS:
            return StoredView(self._values, sub, self._rna, self._writable)
        return getattr(self._group(), name)

    def __setattr__(self, name: str, value) -> None:
        if name in FIELDS[self._path]:
            if not self._writable:
                raise AttributeError(f"{name}: a read-only view of stored values")
            write(self._values, self._path, name, value)
        else:
            setattr(self._group(), name, value)


def view_of(ob) -> StoredView | None:
    """A read-only view of ``ob``'s stored values (None when ``ob`` has no ``gltf_physics``)."""
    pg = getattr(ob, "gltf_physics", None)
    if pg is None:
        return None
    return StoredView(parse(pg.values_json), (), pg)


@contextmanager
def editing(ob) -> Iterator[StoredView]:
    """A writable view of ``ob``'s stored values, written back as one text when the block ends (a batch of edits
    costs one RNA write: operators that set many values use it)."""
    pg = ob.gltf_physics
    values = private_copy(pg.values_json)
    yield StoredView(values, (), pg, writable=True)
    text = dumps(values)
    if text != pg.values_json:
        pg.values_json = text
