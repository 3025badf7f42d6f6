"""The import's ``mapping.stored.assign``: a fresh group's values in one ID-property update (``stored.writes_with``).

``assign`` reads each value back and writes the ones that differ through RNA, one ``setattr`` each (a write runs
the property's ``update`` callback, a no-op while the import pauses the panels' sync, and tags the depsgraph); the
import stores tens of thousands of values. A group that holds no value yet reads its defaults, so here its values
are compared with those (read through RNA once per class and property) and all the differing ones become the
group's ID properties in one ``IDPropertyGroup.update``: RNA reads back exactly the same. Only plain values take
this path (booleans, ints, floats and their arrays, unlimited strings, enum items) of the exact Python type RNA
accepts and inside the property's hard range / items / length; a group already holding values, anything else, and a
property whose first direct write does not read back equal go through ``setattr`` as before. Values whose ``update``
callback must run even while the sync is paused (the filter texts: their UI list rows) are written by their caller
with ``stored.assign_each``. Which values go which way is worked out once per group class and distinct values (many
groups get the same: shared shapes, materials, defaults); a plan holding a zero float is not kept (0.0 == -0.0).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable

from ..mapping.stored import assign_each

_NUMBERS = (float, int)
_SPECS: dict[type, dict[str, _Spec | None]] = {}  # group class → property name → how to write it directly
MAX_PLANS = 20_000
_PLANS: dict[tuple, tuple[dict, tuple]] = {}  # (class, values, their types) → (direct values, names RNA writes)


class _Spec:
    """One plain property: its kind, what RNA reads while it is unset, its range, items and array length."""

    __slots__ = ("checked", "default", "high", "items", "kind", "low", "size")

    def __init__(self, kind: str, rna, default) -> None:
        self.kind, self.default = kind, default
        self.low, self.high = getattr(rna, "hard_min", None), getattr(rna, "hard_max", None)
        self.size = getattr(rna, "array_length", 0)
        self.items = {item.identifier: item.value for item in rna.enum_items} if kind == "ENUM" else {}
        self.checked = False  # the first direct write read back equal

    def raw(self, value):
        """The ID-property value for ``value``, or None when RNA must write it (NaN and ±inf fail the range)."""
        kind, kind_of = self.kind, type(value)
        if kind == "STRING":
            return value if kind_of is str else None
        if kind == "BOOLEAN":
            return value if kind_of is bool else None
        if kind == "ENUM":
            return self.items.get(value) if kind_of is str else None
        if kind == "FLOAT":
            return float(value) if kind_of in _NUMBERS and self.low <= value <= self.high else None
        if kind == "INT":
            return value if kind_of is int and self.low <= value <= self.high else None
        if kind_of not in (tuple, list) or len(value) != self.size:
            return None
        if kind == "BOOLEAN_ARRAY":
            for v in value:
                if type(v) is not bool:
                    return None
            return list(value)
        low, high = self.low, self.high
        for v in value:
            if type(v) not in _NUMBERS or not low <= v <= high:
                return None
        return [float(v) for v in value]


def _spec(pg, name: str) -> _Spec | None:
    rna = pg.bl_rna.properties.get(name)
    if rna is None or rna.is_readonly:
        return None
    kind = rna.type
    if (kind == "STRING" and rna.length_max == 0) or (kind == "ENUM" and not rna.is_enum_flag and len(rna.enum_items)):
        declared = rna.default
    elif kind in ("BOOLEAN", "FLOAT") or (kind == "INT" and not rna.is_array):
        kind += "_ARRAY" if rna.is_array else ""
        declared = tuple(rna.default_array) if rna.is_array else rna.default
    else:
        return None  # pointers, collections, int arrays, limited strings: RNA writes them
    if kind.startswith(("FLOAT", "INT")) and not (math.isfinite(rna.hard_min) and math.isfinite(rna.hard_max)):
        return None  # the range test is what keeps NaN and ±inf out
    unset = getattr(pg, name)  # the group holds no value: RNA reads the default
    unset = tuple(unset) if kind.endswith("_ARRAY") else unset
    return _Spec(kind, rna, unset) if unset == declared else None


def assign(pg, values: dict) -> None:
    """``stored.assign(pg, **values)`` as seen through RNA, in one ID-property update when ``pg`` holds nothing."""
    group = pg.id_properties_ensure()
    if len(group):
        assign_each(pg, values)
        return
    try:  # many groups get the same values (shared shapes, materials, defaults): their plan is worked out once
        key = (type(pg), tuple(values.items()), tuple(map(type, values.values())))
        plan = _PLANS.get(key)
    except TypeError:  # a list value
        key = plan = None
    fresh = plan is None
    new, rest = plan = _plan(pg, values) if fresh else plan
    if new:
        group.update(new)
    if rest:
        assign_each(pg, {name: values[name] for name in rest})
    if fresh and _checked(pg, values, new) and key is not None:
        if len(_PLANS) >= MAX_PLANS:  # bounded across imports (values met once, e.g. each body's mass, add up)
            _PLANS.clear()
        _PLANS[key] = plan


def forget_plans() -> None:
    """Drop the plans and property specs kept across imports (``bench_import.py --cold``: a file's first import)."""
    _PLANS.clear()
    _SPECS.clear()


def replayed(pg, key: Hashable | None, memo: dict, write: Callable[[], None]) -> None:
    """``write()`` fills the empty group ``pg``; a later group with an equal ``key`` gets a copy of the ID properties
    that left (``IDPropertyGroup.to_dict`` / ``update``, nested groups included: RNA reads back the same values),
    not the values one by one. ``key`` None, or a group that already holds values: ``write()`` every time. Only for
    writes that change nothing but ``pg``'s own values (an update callback may run if it only fills ``pg``, as the
    filter texts' callback fills the panel's rows while the sync is paused: the copy holds what it wrote)."""
    group = pg.id_properties_ensure()
    if key is None or len(group):
        write()
        return
    values = memo.get(key)
    if values is not None:
        group.update(values)
        return
    write()
    memo[key] = group.to_dict()


def _plan(pg, values: dict) -> tuple[dict, tuple]:
    """The ID-property values written directly, and the names RNA writes."""
    specs = _SPECS.setdefault(type(pg), {})
    new, rest = {}, []
    for name, value in values.items():
        spec = specs.get(name, specs)  # the dict itself: not looked at yet
        if spec is specs:
            spec = specs[name] = _spec(pg, name)
        if spec is None:
            rest.append(name)
            continue
        default = spec.default
        if (tuple(value) == default) if type(value) in (tuple, list) else (value == default):
            continue
        raw = spec.raw(value)
        if raw is None:
            rest.append(name)
        else:
            new[name] = raw
    return new, tuple(rest)


def _checked(pg, values: dict, new: dict) -> bool:
    """Check the first direct writes (``_check``); a plan is kept when they all read back and it holds no zero float
    (equal values share a plan, and 0.0 == -0.0: a signed zero is written as given)."""
    specs = _SPECS[type(pg)]
    for name in new:
        if not specs[name].checked:
            _check(pg, name, values[name], specs)
    for name, raw in new.items():
        if specs[name] is None:
            return False
        if (0.0 in raw) if type(raw) is list else (type(raw) is float and raw == 0.0):
            return False
    return True


def _check(pg, name: str, value, specs: dict) -> None:
    """The first direct write of a property reads back through RNA; if it differs, RNA writes it from now on."""
    current = getattr(pg, name)
    if type(value) in (tuple, list):
        same = len(current) == len(value) and all(_close(a, b) for a, b in zip(current, value, strict=False))
    else:
        same = _close(current, value)
    if same:
        specs[name].checked = True
        return
    del pg[name]
    specs[name] = None
    _PLANS.clear()  # plans that write it directly
    setattr(pg, name, value)


def _close(read, value) -> bool:
    if type(value) is float:
        return abs(read - value) <= 1e-6 * max(1.0, abs(value))  # RNA floats are 32-bit
    return read == value
