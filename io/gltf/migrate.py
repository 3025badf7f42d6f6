"""Migration between physics revisions on glTF JSON: read as whatever it is, write as the target (bpy-free).

Only the physics extensions are replaced (root and node ``extensions``, ``extensionsUsed``,
``extensionsRequired``); everything else keeps its meaning.  Physics extensions go to ``extensionsUsed`` only (specs
§6.14: listing them as required breaks loaders that do not know them).  New nodes (attachment frames of legacy joints,
mesh holders for KHR 2024-10 ``geometry.node``) are appended to ``nodes``.
"""

from __future__ import annotations

from ..diagnostics import Diagnostic, DiagnosticList
from .extensions import OMI_GRAVITY, OMI_SHAPE, PHYSICS_EXTENSIONS, TARGETS
from .parse import parse_gltf
from .write import write_target
from .write.common import WriteOutput

EXTENSION_ORDER = {name: i for i, name in enumerate(PHYSICS_EXTENSIONS)}


def copy_json(value: object) -> object:
    """A deep copy of a JSON value (dicts, lists, scalars), iterative: any nesting depth is safe (``copy.deepcopy``
    recurses and fails near 500 levels)."""
    if not isinstance(value, dict | list):
        return value
    root = {} if isinstance(value, dict) else []
    stack = [(value, root)]
    while stack:
        source, target = stack.pop()
        items = source.items() if isinstance(source, dict) else enumerate(source)
        for key, item in items:
            if isinstance(item, dict | list):
                child = {} if isinstance(item, dict) else []
                stack.append((item, child))
                item = child
            if isinstance(target, dict):
                target[key] = item
            else:
                target.append(item)
    return root


def strip_physics(gltf: dict) -> dict:
    """A deep copy of ``gltf`` without any physics extension (root, nodes, extension lists)."""
    out = copy_json(gltf)
    exts = out.get("extensions")
    if isinstance(exts, dict):
        for name in PHYSICS_EXTENSIONS:
            exts.pop(name, None)
        if not exts:
            del out["extensions"]
    for node in out.get("nodes", []) if isinstance(out.get("nodes"), list) else []:
        node_exts = node.get("extensions") if isinstance(node, dict) else None
        if isinstance(node_exts, dict) and any(n in node_exts for n in PHYSICS_EXTENSIONS):
            for name in PHYSICS_EXTENSIONS:
                node_exts.pop(name, None)
            if not node_exts:
                del node["extensions"]
    for key in ("extensionsUsed", "extensionsRequired"):
        names = out.get(key)
        if isinstance(names, list) and any(n in PHYSICS_EXTENSIONS for n in names):
            out[key] = [n for n in names if n not in PHYSICS_EXTENSIONS]
            if not out[key]:
                del out[key]
    return out


def apply_output(gltf: dict, output: WriteOutput) -> dict:
    """Put a writer's output into a (physics-free) glTF JSON document, in place; returns it."""
    used: set[str] = set(output.root)
    if output.new_nodes:
        gltf.setdefault("nodes", []).extend(copy_json(output.new_nodes))
    nodes = gltf.get("nodes", [])
    for parent, child in output.new_children:
        nodes[parent].setdefault("children", []).append(child)
    for index, node_exts in sorted(output.nodes.items()):
        nodes[index].setdefault("extensions", {}).update(copy_json(node_exts))
        used.update(node_exts)
    if output.root:
        gltf.setdefault("extensions", {}).update(copy_json(output.root))
    if used:
        names = gltf.get("extensionsUsed", [])
        gltf["extensionsUsed"] = list(names) + sorted(used - set(names), key=EXTENSION_ORDER.get)
    return gltf


def migrate(gltf: object, to: str) -> tuple[object, list[Diagnostic]]:
    """Convert the physics of ``gltf`` to target ``to`` ("2026", "2024-10", "2024-07" or "omi").

    Returns (new glTF JSON, diagnostics of reading and writing; lossy conversions are ``PHYSICS_WRITE_LOSSY``).
    A document that is not a JSON object is returned unchanged with the parse diagnostic.
    """
    if to not in TARGETS:
        raise ValueError(f"unknown target {to!r}; expected one of {TARGETS}")
    result = parse_gltf(gltf)
    if not isinstance(gltf, dict):
        return gltf, result.diagnostics
    diags = DiagnosticList(list(result.diagnostics))
    output = write_target(result.document, to, gltf)
    diags.extend(output.diagnostics)
    exts = gltf.get("extensions")
    if to != "omi" and isinstance(exts, dict) and OMI_GRAVITY in exts and OMI_SHAPE in exts:
        diags.warning(
            "PHYSICS_WRITE_LOSSY",
            f"/extensions/{OMI_GRAVITY}",
            f"{OMI_GRAVITY} may refer to {OMI_SHAPE} shapes, which are not written for KHR",
        )
    return apply_output(strip_physics(gltf), output), diags.items
