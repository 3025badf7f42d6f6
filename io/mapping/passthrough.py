"""The ``extras`` / ``extensions`` / unknown keys of model objects as JSON text (bpy-free).

The import keeps them on ``Object.gltf_physics`` (one ``passthrough`` string per motion, collider, trigger,
geometry, material and filter; ``shape_passthrough`` for the shape and its parameter object) and the export puts
them back onto the model objects, so the writers write them unchanged. Blender never edits them. Empty text = none.
"""

from __future__ import annotations

import json

from ..gltf.files import MAX_JSON_DEPTH, json_depth_exceeds
from ..gltf.model import MeshShape, Passthrough, Shape

FIELDS = ("extras", "extensions", "unknown")


def as_dict(obj: Passthrough | None) -> dict:
    """The non-empty passthrough fields of ``obj`` (``extras`` None = absent)."""
    if obj is None:
        return {}
    out: dict = {}
    if obj.extras is not None:
        out["extras"] = obj.extras
    if obj.extensions:
        out["extensions"] = obj.extensions
    if obj.unknown:
        out["unknown"] = obj.unknown
    return out


def dumps(obj: Passthrough | None) -> str:
    data = as_dict(obj)
    return json.dumps(data) if data else ""


def stored_json(text: str) -> object:
    """The JSON value of a text the import stored on an object (a filter's systems, a passthrough), read with the
    file reader's limits: ``ValueError`` with the reason for text that is not JSON, nests deeper than
    ``files.MAX_JSON_DEPTH`` levels or holds an integer longer than Python reads. Blender lets a user or a script
    type anything into these texts; a ``RecursionError`` from deep nesting once failed the export of the object."""
    try:
        data = json.loads(text)
    except RecursionError:
        raise ValueError(f"nested deeper than {MAX_JSON_DEPTH} levels") from None
    if json_depth_exceeds(data):
        raise ValueError(f"nested deeper than {MAX_JSON_DEPTH} levels")
    return data


def _loads(text: str) -> dict:
    if not text:
        return {}
    try:
        data = stored_json(text)
    except ValueError:  # not JSON or too deep: nothing kept to put back
        return {}
    return data if isinstance(data, dict) else {}


def _apply(obj: Passthrough, data: object) -> None:
    if not isinstance(data, dict):
        return
    if "extras" in data:
        obj.extras = data["extras"]
    if isinstance(data.get("extensions"), dict):
        obj.extensions = data["extensions"]
    if isinstance(data.get("unknown"), dict):
        obj.unknown = data["unknown"]


def restore(obj, text: str):
    """Put the fields kept in ``text`` onto ``obj`` (a model object or None); returns ``obj``."""
    if obj is not None and text:
        _apply(obj, _loads(text))
    return obj


def shape_dumps(shape: Shape) -> str:
    """The shape object's fields and its parameter object's (``"box": {…}``); mesh shapes are not kept."""
    data: dict = {}
    own = as_dict(shape)
    if own:
        data["shape"] = own
    params = shape.params
    if params is not None and not isinstance(params, MeshShape):
        sub = as_dict(params)
        if sub:
            data["params"] = sub
    return json.dumps(data) if data else ""


def restore_shape(shape: Shape | None, text: str) -> Shape | None:
    if shape is None or not text:
        return shape
    data = _loads(text)
    _apply(shape, data.get("shape"))
    if shape.params is not None and not isinstance(shape.params, MeshShape):
        _apply(shape.params, data.get("params"))
    return shape


def extension_names(value: object) -> set[str]:
    """Names of the extensions nested anywhere in written JSON (keys of ``extensions`` objects; ``extras`` are
    free-form and not looked into), for ``extensionsUsed``."""
    found: set[str] = set()
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            for key, sub in item.items():
                if key == "extras":
                    continue
                if key == "extensions" and isinstance(sub, dict):
                    found.update(k for k in sub if isinstance(k, str))
                stack.append(sub)
        elif isinstance(item, list):
            stack.extend(item)
    return found
