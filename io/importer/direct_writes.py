"""The import's ``mapping.stored.assign``: a group's new values in one ID-property update (``stored.writes_with``).

``assign`` reads every value back and writes the ones that differ through RNA, one ``setattr`` each: a read, a write
that runs the property's ``update`` callback (a no-op while the import pauses the panels' sync) and a depsgraph tag,
and the import stores tens of thousands of values. Here a value the group has never held is compared with the
property's default (what RNA reads for it), and all the differing ones become the group's ID properties in one
``IDPropertyGroup.update`` call: RNA reads back exactly the same. Only plain values take this path (booleans, ints,
floats and their arrays, unlimited strings, enum items) of the exact Python type RNA accepts and
inside the property's hard range / items / length; anything else, a value the group already holds, and any property
whose default or first direct write does not read back as expected goes through ``setattr`` as before. Values
whose ``update`` callback must run even while the sync is paused (the filter texts: their UI list rows) are written
with ``stored._assign_each`` by their caller.
"""

from __future__ import annotations

import math

_PLANS: dict[tuple[type, str], _Plan | None] = {}


class _Plan:
    """How one property of one property-group class is written directly (from its RNA definition)."""

    __slots__ = ("checked", "default", "high", "items", "kind", "low", "size")

    def __init__(self, kind: str, rna) -> None:
        self.kind = kind
        self.low = getattr(rna, "hard_min", None)
        self.high = getattr(rna, "hard_max", None)
        self.size = getattr(rna, "array_length", 0)
        self.items = {item.identifier: item.value for item in rna.enum_items} if kind == "ENUM" else {}
        self.default = tuple(rna.default_array) if kind.endswith("_ARRAY") else rna.default
        self.checked = False  # the default and the first direct write read back as expected

    def raw(self, value):
        """The ID-property value for ``value``, or None when RNA must do the write."""
        kind, kind_of = self.kind, type(value)
        if kind == "STRING":
            return value if kind_of is str else None
        if kind == "BOOLEAN":
            return value if kind_of is bool else None
        if kind == "ENUM":
            return self.items.get(value) if kind_of is str else None
        if kind == "INT":
            return value if kind_of is int and self.low <= value <= self.high else None
        if kind == "FLOAT":
            return float(value) if self._number(value) else None
        if not isinstance(value, tuple | list) or len(value) != self.size:
            return None
        if kind == "BOOLEAN_ARRAY":
            return list(value) if all(type(v) is bool for v in value) else None
        if kind == "INT_ARRAY":
            return list(value) if all(type(v) is int and self.low <= v <= self.high for v in value) else None
        return [float(v) for v in value] if all(self._number(v) for v in value) else None

    def _number(self, value) -> bool:
        return type(value) in (float, int) and math.isfinite(value) and self.low <= value <= self.high


def _plan(pg, name: str) -> _Plan | None:
    rna = pg.bl_rna.properties.get(name)
    if rna is None or rna.is_readonly:
        return None
    kind = rna.type
    if kind == "STRING" and rna.length_max == 0:
        return _Plan("STRING", rna)
    if kind == "ENUM" and not rna.is_enum_flag and len(rna.enum_items):
        return _Plan("ENUM", rna)
    if kind in ("BOOLEAN", "INT", "FLOAT"):
        return _Plan(kind + ("_ARRAY" if rna.is_array else ""), rna)
    return None  # pointers, collections, limited strings: RNA writes them


def _same(current, value) -> bool:
    """``assign``'s test: does the group already read ``value``?"""
    if isinstance(value, tuple | list):
        return tuple(current) == tuple(value)
    return current == value


def assign(pg, values: dict) -> None:
    """``setattr`` of every value of ``values`` that differs from what ``pg`` reads, as seen through RNA."""
    group = pg.id_properties_ensure()
    new: dict = {}
    for name, value in values.items():
        key = (type(pg), name)
        plan = _PLANS[key] if key in _PLANS else _PLANS.setdefault(key, _plan(pg, name))
        if plan is None or name in group:  # not plain, or set before: read it back, write through RNA
            if not _same(getattr(pg, name), value):
                setattr(pg, name, value)
            continue
        if not plan.checked and not _same(getattr(pg, name), plan.default):
            _PLANS[key] = None  # RNA does not read the default we expect: leave this property to RNA
            if not _same(getattr(pg, name), value):
                setattr(pg, name, value)
            continue
        if _same(plan.default, value):
            continue
        raw = plan.raw(value)
        if raw is None:
            setattr(pg, name, value)
        else:
            new[name] = raw
    if new:
        group.update(new)
        for name in new:
            if not _PLANS[(type(pg), name)].checked:
                _check(pg, name, values[name])


def _check(pg, name: str, value) -> None:
    """First direct write of a property: read it back through RNA; if it differs, RNA writes it from now on."""
    key = (type(pg), name)
    current = getattr(pg, name)
    if isinstance(value, tuple | list):
        same = len(current) == len(value) and all(_close(a, b) for a, b in zip(current, value, strict=False))
    else:
        same = _close(current, value)
    if same:
        _PLANS[key].checked = True
        return
    del pg[name]
    _PLANS[key] = None
    setattr(pg, name, value)


def _close(read, value) -> bool:
    if isinstance(value, float) and not isinstance(read, bool):
        return abs(read - value) <= 1e-6 * max(1.0, abs(value))  # RNA floats are 32-bit
    return read == value
