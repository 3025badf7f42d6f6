"""The JSON fix-ups io_scene_gltf2's exporter applies to the plan before encoding it, copied for values written
into the file after the export (``exporter.deferred_json``; bpy-free).

``blender/exp/export.py::__export``: ``Gltf.to_dict`` (a new node through ``Node.from_dict`` / ``to_dict``: fixed
key order, unknown keys dropped, TRS / matrix / weights as floats), then ``__fix_json`` twice: integral floats
become ints, ``None`` and empty objects / arrays are dropped (objects the first pass empties by the second),
``extras`` are kept as they are. Checked against io_scene_gltf2 4.5.51 and 5.0.21. Anything these copies do not
cover raises ``UnspliceableError``: the caller then writes the value through the plan.
"""

from __future__ import annotations

import json
from typing import Any

from .splice import encode_at

_STRING = json.encoder.encode_basestring_ascii
_KEYS: dict[str, str] = {}  # key → its encoded text + ":" (keys repeat across values)


class UnspliceableError(ValueError):
    """A value io_scene_gltf2 would treat in a way ``as_exported`` does not copy: write it through the plan."""


# keys __should_include_json_value keeps (or may keep) with an empty value
_EMPTY_KEPT = frozenset(
    {
        "KHR_materials_unlit",
        "KHR_materials_specular",
        "KHR_materials_clearcoat",
        "KHR_texture_transform",
        "KHR_materials_ior",
        "KHR_materials_emissive_strength",
        "KHR_materials_sheen",
        "KHR_materials_transmission",
        "KHR_materials_volume",
        "KHR_lights_punctual",
        "KHR_materials_anisotropy",
    }
)
#: ``gltf2_io.Node`` fields in ``Node.to_dict`` order
NODE_FIELDS = (
    "camera",
    "children",
    "extensions",
    "extras",
    "matrix",
    "mesh",
    "name",
    "rotation",
    "scale",
    "skin",
    "translation",
    "weights",
)
_NUMBERS = {int, float}
_NODE_FLOATS = ("matrix", "rotation", "scale", "translation", "weights")


def as_exported(value: Any) -> Any:
    """``value`` as io_scene_gltf2's two ``__fix_json`` passes leave it (integral floats → int; None and empty
    objects / arrays dropped, also those emptied by the first pass; ``extras`` kept as they are)."""
    if isinstance(value, dict):
        out = {}
        for key, item in value.items():
            if key == "extras" and item is not None:
                out[key] = item
            elif item is None:
                continue
            elif isinstance(item, dict | list) and (not item or (isinstance(item, dict) and _emptied(item))):
                if key in _EMPTY_KEPT:
                    raise UnspliceableError(f"empty {key!r}")
            else:
                out[key] = as_exported(item)
        return out
    if isinstance(value, list):
        return [as_exported(item) for item in value]
    if isinstance(value, float):
        integral = int(value)
        return integral if integral == value else value
    return value


def _emptied(value: dict) -> bool:
    """The first ``__fix_json`` pass leaves this non-empty object empty."""
    for key, item in value.items():
        if key == "extras" and item is not None:
            return False
        if item is None or (isinstance(item, dict | list) and not item):
            if key in _EMPTY_KEPT:
                raise UnspliceableError(f"empty {key!r}")
            continue
        return False
    return True


def encode_as_exported(value: Any, indented: bool) -> str:
    """``as_exported(value)`` encoded as ``save_gltf`` does (tab-indented at depth 0, or compact), in one pass."""
    return _fused(value, "\n" if indented else None)


def _fused(value: Any, newline: str | None) -> str:
    if isinstance(value, dict):
        inner = None if newline is None else newline + "\t"
        parts = []
        for key, item in value.items():
            kind = type(item)
            if key == "extras":
                if item is None:
                    continue
                text = encode_at(item, inner)  # kept as it is
            elif kind is float:
                integral = int(item)
                text = int.__repr__(integral) if integral == item else float.__repr__(item)
            elif kind is int:
                text = int.__repr__(item)
            elif kind is str:
                text = _STRING(item)
            elif item is None:
                continue
            elif isinstance(item, dict | list) and (not item or (isinstance(item, dict) and _emptied(item))):
                if key in _EMPTY_KEPT:
                    raise UnspliceableError(f"empty {key!r}")
                continue
            else:
                text = _fused(item, inner)
            name = _KEYS.get(key)
            if name is None:
                if not isinstance(key, str):
                    raise TypeError(f"key {key!r} is not a string")
                name = _STRING(key) + ":"
                if len(_KEYS) < 4096:
                    _KEYS[key] = name
            parts.append(name + text)
        return _join("{", parts, "}", newline, inner)
    if isinstance(value, list):
        inner = None if newline is None else newline + "\t"
        parts = []
        for item in value:
            kind = type(item)
            if kind is float:
                integral = int(item)
                parts.append(int.__repr__(integral) if integral == item else float.__repr__(item))
            elif kind is int:
                parts.append(int.__repr__(item))
            else:
                parts.append(_fused(item, inner))
        return _join("[", parts, "]", newline, inner)
    if isinstance(value, float):
        integral = int(value)
        return int.__repr__(integral) if integral == value else float.__repr__(value)
    return encode_at(value, newline)


def _join(opening: str, parts: list[str], closing: str, newline: str | None, inner: str | None) -> str:
    if not parts:
        return opening + closing
    if newline is None:
        return opening + ",".join(parts) + closing
    return opening + inner + ("," + inner).join(parts) + newline + closing


def checked_extension(value: Any) -> dict:
    """A node / root extension object; ``UnspliceableError`` unless it stays a non-empty object when written."""
    if not isinstance(value, dict) or not value or _emptied(value):
        raise UnspliceableError("not a non-empty object")
    return value


def node_as_exported(node: dict, from_dict: bool = True) -> dict:
    """``node_to_dict`` after both ``__fix_json`` passes."""
    return as_exported(node_to_dict(node, from_dict))


def node_to_dict(node: dict, from_dict: bool = True) -> dict:
    """A plain node dict as ``Node.from_dict(node).to_dict()`` gives it (before the fix-ups); with
    ``from_dict=False`` the fields of an existing ``gltf2_io.Node`` (``to_dict`` only: numbers kept as they are)."""
    out = {key: node.get(key) for key in NODE_FIELDS}
    for key in ("camera", "mesh", "skin"):
        if out[key] is not None and (type(out[key]) is not int):
            raise UnspliceableError(key)
    if out["children"] is not None and not (
        type(out["children"]) is list and all(type(c) is int for c in out["children"])
    ):
        raise UnspliceableError("children")
    exts = out["extensions"]
    if exts is not None and not (isinstance(exts, dict) and all(isinstance(v, dict) for v in exts.values())):
        raise UnspliceableError("extensions")
    if out["name"] is not None and not isinstance(out["name"], str):
        raise UnspliceableError("name")
    for key in _NODE_FLOATS:
        numbers = out[key]
        if numbers is not None:
            if type(numbers) is not list or not (
                set(map(type, numbers)) <= _NUMBERS
                or not any(isinstance(x, bool) or not isinstance(x, int | float) for x in numbers)
            ):
                raise UnspliceableError(key)
            if from_dict:
                out[key] = [float(x) for x in numbers]
    return out
