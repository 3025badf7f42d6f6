"""One stored value per object: the glTF physics an object carries, as one JSON text (bpy-free).

``Object.gltf_physics.values_json`` is the one source of truth of what an import kept and what a panel edited: the
role and node of the object, its motion, collider and trigger with their geometry, material and filter, and the
glTF joint of a constraint object with its limits and drives, exactly as the file gave them (vectors in Blender's
frame, shapes and passthrough as the JSON texts ``mapping/stored.py`` makes). Its layout is the property groups'
(``ui/body/properties.py``, ``ui/joint/joint_properties.py``): a group is an object of the text, a property is a key
of it, and a key that is absent reads as the property's default (``FIELDS``), so a fresh object has the text ``''``
and a typical body a few hundred bytes. A list of rows (``ROWS``: the joint's limits and drives) is a JSON list of
row objects; the property group's collection holds one empty row per stored row, whose properties are views of the
stored row at the same position (a UI list needs the collection; :func:`match_rows` keeps its length).

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

from . import filter_rows

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

_LIMIT = {
    "kind": "LINEAR",
    "axes": (False, False, False),
    "has_min": False,
    "min": 0.0,
    "has_max": False,
    "max": 0.0,
    "has_stiffness": False,
    "stiffness": 0.0,
    "damping": 0.0,
    "extras_json": "",
}
_DRIVE = {
    "type": "angular",
    "mode": "force",
    "axis": 0,
    "has_max_force": False,
    "max_force": 0.0,
    "has_position_target": False,
    "position_target": 0.0,
    "has_velocity_target": False,
    "velocity_target": 0.0,
    "stiffness": 0.0,
    "damping": 0.0,
    "extras_json": "",
}
FIELDS[("joint",)] = {
    "role": "NONE",
    "joint_name": "",
    "enable_collision": False,
    "frame_a_translation": (0.0, 0.0, 0.0),
    "frame_a_rotation": (0.0, 0.0, 0.0, 1.0),
    "frame_b_translation": (0.0, 0.0, 0.0),
    "frame_b_rotation": (0.0, 0.0, 0.0, 1.0),
    "offset_translation": (0.0, 0.0, 0.0),
    "offset_rotation": (0.0, 0.0, 0.0, 1.0),
    "approximated": False,
    "notes": "",
    "extras_json": "",
    "node_extras_json": "",
    "source": "",
    "is_node": False,
    "planned_axis": -1,
}

#: Stored lists of rows: list path → {property name: default} of one row. A row is an object of the list (absent
#: keys read as the defaults); the list is the text's, in order (the joint's limits and drives, as the file has them).
JOINT_LIMITS, JOINT_DRIVES = ("joint", "limits"), ("joint", "drives")
ROWS: dict[Path, dict[str, object]] = {JOINT_LIMITS: _LIMIT, JOINT_DRIVES: _DRIVE}

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


_COMPACT = json.JSONEncoder(separators=(",", ":"))  # made once: ``json.dumps`` with options builds one per call


def dumps(values: dict) -> str:
    """The stored text of ``values`` (empty groups left out; ``''`` when nothing is stored). ASCII JSON: a Blender
    string holds it whatever the names (lone surrogates escaped)."""
    if values.keys() - {LAYOUT_KEY}:
        text = _COMPACT.encode({**values, LAYOUT_KEY: LAYOUT})
        if '":{}' not in text and '":[]' not in text:  # no empty group or list: nothing to prune (the usual text)
            return text
    pruned = _pruned(values)
    if not pruned:
        return ""
    pruned[LAYOUT_KEY] = LAYOUT
    return _COMPACT.encode(pruned)


def _pruned(values: dict) -> dict:
    out = {}
    for key, value in values.items():
        if key == LAYOUT_KEY:
            continue
        if isinstance(value, dict):
            value = _pruned(value)
            if not value:
                continue
        elif value == []:  # a list of rows without rows
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
    group = group_values(values, path)
    if group is None:
        return FIELDS[path][name]
    return _read_value(group, FIELDS[path][name], name)


def _read_value(group: dict, default, name: str):
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
    group = group_values(values, path)
    if group is not None:
        _write_items(group, _FIELD_SPECS[path], items)
        return
    group = {}  # a group is added only when it holds a value (so a text rarely has an empty group to prune)
    _write_items(group, _FIELD_SPECS[path], items)
    if group:
        _ensure_group(values, path[:-1])[path[-1]] = group


def _ensure_group(values: dict, path: Path) -> dict:
    group = values
    for key in path:
        child = group.get(key)
        if not isinstance(child, dict):
            child = group[key] = {}
        group = child
    return group


def _write_items(group: dict, spec: dict, items: dict) -> None:
    """Write ``items`` into ``group`` by ``spec`` (:func:`_spec`); the import's hot path (tens of thousands of values
    per large file), hence one look-up per value and no conversion of a value already of its stored type."""
    for name, value in items.items():
        kind, convert, default = spec[name]
        if type(value) is not kind:
            value = convert(value)
        if value != default:
            group[name] = value
        elif name in group:  # a default: absent from the text (a fresh group, the import's, has nothing to remove)
            del group[name]


def _spec(fields: dict) -> dict:
    """Per property: (the type a value needs no conversion from, a conversion to the stored type, the default as
    stored). Sequences are stored as lists of their default's item type, of its length (always converted: a list of
    ints for a vector of floats would read back as ints)."""
    out = {}
    for name, default in fields.items():
        if isinstance(default, tuple):
            out[name] = (None, _sequence_of(type(default[0]), len(default)), list(default))  # always converted
        else:
            out[name] = (type(default), type(default), default)
    return out


def _sequence_of(item: type, length: int):
    def convert(value) -> list:
        out = [*map(item, value)]
        if len(out) != length:
            raise ValueError(f"{length} values expected, not {len(out)}")
        return out

    return convert


def rows_of(values: dict, path: Path) -> list:
    """The rows of list ``path`` (``ROWS``) in ``values``: a list of row objects (``[]`` when none is stored; an entry a
    script broke reads as a row of defaults)."""
    group = group_values(values, path[:-1])
    rows = group.get(path[-1]) if group is not None else None
    return rows if isinstance(rows, list) else []


def written_rows(path: Path, rows: list[dict]) -> list[dict]:
    """``rows`` (each a dict of row properties of list ``path``, ``ROWS``) as the text stores them: each value as its
    default's type, one equal to its default left out. Made once for rows that many objects share (the import's
    joints of one description) and appended to each with :meth:`StoredView.add_rows`."""
    spec = _ROW_SPECS[path]
    written = []
    for items in rows:
        row: dict = {}
        _write_items(row, spec, items)
        written.append(row)
    return written


def read_row(values: dict, path: Path, index: int, name: str):
    """Property ``name`` of row ``index`` of list ``path`` (the default for a row the text does not hold)."""
    rows = rows_of(values, path)
    row = rows[index] if 0 <= index < len(rows) else None
    default = ROWS[path][name]
    return _read_value(row, default, name) if isinstance(row, dict) else default


def write_row(values: dict, path: Path, index: int, items: dict) -> None:
    """Set properties of row ``index`` of list ``path`` in ``values`` (rows up to it added as rows of defaults: a row a
    list shows before the text holds it)."""
    group = _ensure_group(values, path[:-1])
    rows = group.get(path[-1])
    if not isinstance(rows, list):
        rows = group[path[-1]] = []
    while len(rows) <= index:
        rows.append({})
    if not isinstance(rows[index], dict):
        rows[index] = {}
    _write_items(rows[index], _ROW_SPECS[path], items)


def remove_row(values: dict, path: Path, index: int) -> None:
    """Remove row ``index`` of list ``path`` from ``values`` (nothing when the text holds no such row)."""
    rows = rows_of(values, path)
    if 0 <= index < len(rows):
        del rows[index]


def match_rows(pg, values: dict) -> None:
    """Make each ``ROWS`` collection of the property group ``pg`` (``Object.gltf_physics``) as long as its stored
    list: the collections' rows are views of the text's rows by position (``ui/stored_views.py``), a UI list needs
    them to exist. Attribute access only."""
    for path in ROWS:
        group = pg
        for key in path[:-1]:
            group = getattr(group, key)
        collection = getattr(group, path[-1])
        count = len(rows_of(values, path))
        while len(collection) > count:
            collection.remove(len(collection) - 1)
        while len(collection) < count:
            collection.add()


def private_copy(text: str) -> dict:
    """The values of a stored text as a dict of the caller's own (to write into, then :func:`dumps`)."""
    values = parse(text)
    return json.loads(json.dumps(values)) if values else {}


def _writable(view) -> None:
    """Refuse a write through a read-only view (``StoredView`` / ``StoredRow``)."""
    if not view._writable:
        raise AttributeError("a read-only view of stored values")


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
        _writable(self)
        write_group(self._values, self._path, values)

    def add_rows(self, name: str, rows: list[dict]) -> None:
        """Append ``rows`` to this group's stored list ``name`` (``ROWS``), each as :func:`written_rows` gives it (a
        copy of each row is appended: the same written rows serve many objects)."""
        _writable(self)
        if rows:
            group = _ensure_group(self._values, self._path)
            existing = group.get(name)
            group[name] = (existing if isinstance(existing, list) else []) + [dict(row) for row in rows]

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
        if sub in ROWS:
            return StoredRows(self._values, sub, self._writable)
        return getattr(self._group(), name)

    def __setattr__(self, name: str, value) -> None:
        if name in FIELDS[self._path]:
            if not self._writable:
                raise AttributeError(f"{name}: a read-only view of stored values")
            write(self._values, self._path, name, value)
        else:
            setattr(self._group(), name, value)


class StoredRows:
    """The rows of one stored list (``ROWS``) as a sequence of :class:`StoredRow` views, like the collection the
    property group has: ``len``, iteration and indexing (rows are added by :meth:`StoredView.add_rows`)."""

    __slots__ = ("_path", "_values", "_writable")

    def __init__(self, values: dict, path: Path, writable: bool) -> None:
        self._values, self._path, self._writable = values, path, writable

    def __len__(self) -> int:
        return len(rows_of(self._values, self._path))

    def __getitem__(self, index: int) -> StoredRow:
        count = len(self)
        if not -count <= index < count:
            raise IndexError(index)
        return StoredRow(self._values, self._path, index % count, self._writable)

    def __iter__(self) -> Iterator[StoredRow]:
        return (StoredRow(self._values, self._path, i, self._writable) for i in range(len(self)))


class StoredRow:
    """Attribute access to one row of a stored list (``view.joint.limits[0].min``)."""

    __slots__ = ("_index", "_path", "_values", "_writable")

    def __init__(self, values: dict, path: Path, index: int, writable: bool) -> None:
        object.__setattr__(self, "_values", values)
        object.__setattr__(self, "_path", path)
        object.__setattr__(self, "_index", index)
        object.__setattr__(self, "_writable", writable)

    def assign(self, values: dict) -> None:
        """Set several properties of this row at once."""
        _writable(self)
        write_row(self._values, self._path, self._index, values)

    def __getattr__(self, name: str):
        if name not in ROWS[self._path]:
            raise AttributeError(name)
        return read_row(self._values, self._path, self._index, name)

    def __setattr__(self, name: str, value) -> None:
        if name not in ROWS[self._path]:
            raise AttributeError(name)
        self.assign({name: value})


def stored_fields(values: dict, path: Path) -> dict:
    """The properties of group ``path`` that ``values`` holds, each as :func:`read` gives it (the others read as
    their defaults, ``FIELDS``): one pass over the group, for a reader that keeps the defaults elsewhere."""
    group = group_values(values, path)
    if not group:
        return {}
    fields = FIELDS[path]
    return {name: _read_value(group, fields[name], name) for name in group.keys() & fields.keys()}


def rows_text(values: dict, path: Path) -> str:
    """The stored list ``path`` (``ROWS``) of ``values`` as compact JSON text: equal texts, equal rows (an exact memo
    key for what is built from the rows)."""
    return _COMPACT.encode(rows_of(values, path))


def view_of(ob) -> StoredView | None:
    """A read-only view of ``ob``'s stored values (None when ``ob`` has no ``gltf_physics``)."""
    pg = getattr(ob, "gltf_physics", None)
    if pg is None:
        return None
    return StoredView(parse(pg.values_json), (), pg)


@contextmanager
def editing(ob) -> Iterator[StoredView]:
    """A writable view of ``ob``'s stored values, written back as one text when the block ends (a batch of edits
    costs one RNA write: operators that set many values use it); the lists' collections follow (:func:`match_rows`).
    Property updates do not run for these writes. Write nothing of ``ob``'s stored values through its property group
    inside the block: the block's text replaces it."""
    pg = ob.gltf_physics
    original = pg.values_json
    values = private_copy(original)
    yield StoredView(values, (), pg, writable=True)
    write_text(pg, values, original)


def write_text(pg, values: dict, original: str) -> None:
    """Write ``values`` as the stored text of the property group ``pg`` (``Object.gltf_physics``) when it differs from
    ``original`` (the text they were read from), then the rows that are views of the text: the filter lists' rows
    (``filter_rows.rebuild``) and the joint lists' length (:func:`match_rows`). The import's flush and
    :func:`editing` write through here. Attribute access only."""
    text = dumps(values)
    if text != original:
        pg.values_json = text
    for group in ("collider", "trigger"):
        if group_values(values, (group, "filter")):
            filter_rows.rebuild(getattr(pg, group).filter)
    if "joint" in values:
        match_rows(pg, values)


_FIELD_SPECS = {path: _spec(fields) for path, fields in FIELDS.items()}
_ROW_SPECS = {path: _spec(fields) for path, fields in ROWS.items()}
