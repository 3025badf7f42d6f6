"""The JSON fix-ups io_scene_gltf2's exporter applies to the plan before encoding it, copied for values written
into the file after the export (``exporter.deferred_json``; bpy-free).

``blender/exp/export.py::__export``: ``Gltf.to_dict`` (a new node through ``Node.from_dict`` / ``to_dict``: fixed
key order, unknown keys dropped, TRS / matrix / weights as floats), then ``__fix_json`` twice: integral floats
become ints, ``None`` and empty objects / arrays are dropped (objects the first pass empties by the second),
``extras`` are kept as they are. Checked against io_scene_gltf2 4.5.51 and 5.0.21. Anything these copies do not
cover raises ``UnspliceableError``: the caller then writes the value through the plan.
"""

from __future__ import annotations

from typing import Any


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
_NODE_KEYS = ("camera", "children", "extensions", "extras", "matrix", "mesh", "name", "rotation", "scale", "skin")
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


def extension_as_exported(value: Any) -> dict:
    """A node / root extension object as written; ``UnspliceableError`` unless it stays a non-empty object."""
    if not isinstance(value, dict) or not value or _emptied(value):
        raise UnspliceableError("not a non-empty object")
    return as_exported(value)


def node_as_exported(node: dict) -> dict:
    """A new plain node dict as ``Node.from_dict(node).to_dict()`` and both ``__fix_json`` passes write it."""
    out = {key: node.get(key) for key in (*_NODE_KEYS, "translation", "weights")}
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
            if type(numbers) is not list or any(isinstance(x, bool) or not isinstance(x, int | float) for x in numbers):
                raise UnspliceableError(key)
            out[key] = [float(x) for x in numbers]
    return as_exported(out)
