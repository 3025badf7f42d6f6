"""Validate the physics extensions of a raw glTF JSON document (every KHR and OMI revision), bpy-free.

``validate_gltf(doc)`` accepts any JSON value and never raises: every problem becomes a ``Diagnostic`` whose pointer
names the offending value, so that a reader can drop the smallest unit containing each ERROR and keep the rest.
Codes and severities: ``validate_codes.CODES`` and ``docs/diagnostics.md``.
"""

from __future__ import annotations

import logging

from ...diagnostics import Diagnostic, Severity, internal_failure
from ..extensions import KHR_RIGID_BODIES as KHR_RB
from ..extensions import NODE_EXTENSIONS, PHYSICS_EXTENSIONS
from ..read.common import physics_nodes
from .bodies import validate_khr_node, validate_khr_root
from .codes import INTERNAL_ERROR, NOT_DECLARED, TYPE_MISMATCH
from .common import Ctx, mismatch, pointer_join, type_name
from .omi import validate_omi_node, validate_omi_roots
from .shapes import validate_shape_roots


def validate_gltf(gltf: object) -> list[Diagnostic]:
    """All physics diagnostics of a parsed glTF JSON document (any JSON value is accepted)."""
    if not isinstance(gltf, dict):
        return [
            Diagnostic(
                Severity.ERROR, TYPE_MISMATCH, "", f"Type mismatch: the document is {type_name(gltf)}, object expected."
            )
        ]
    try:
        ctx = Ctx(gltf)
    except Exception:  # last resort: validation must never raise
        logging.getLogger(__name__).exception("glTF Physics: the validator failed")
        return [Diagnostic(Severity.ERROR, INTERNAL_ERROR, "", internal_failure("validating the document"))]
    ctx.guard("", _validate_document, ctx)
    return list(ctx.out.items)


def _validate_document(ctx: Ctx) -> None:
    doc = ctx.doc
    if "extensions" in doc and not isinstance(doc["extensions"], dict):
        mismatch(ctx, "/extensions", doc["extensions"], "object")
    if "nodes" in doc and not isinstance(doc["nodes"], list):
        mismatch(ctx, "/nodes", doc["nodes"], "array")
    nodes = physics_nodes(ctx.nodes)
    _check_declared(ctx, nodes)
    ctx.guard("/extensions", validate_shape_roots, ctx)
    if KHR_RB in ctx.root_ext:
        ctx.guard(pointer_join("/extensions", KHR_RB), validate_khr_root, ctx)
    ctx.guard("/extensions", validate_omi_roots, ctx)
    for index, extensions in nodes:
        for name in NODE_EXTENSIONS:
            if name in extensions:
                _validate_node_extension(ctx, index, name, extensions[name])


def _validate_node_extension(ctx: Ctx, index: int, name: str, ext: object) -> None:
    ptr = pointer_join("/nodes", index, "extensions", name)
    if not isinstance(ext, dict):
        mismatch(ctx, ptr, ext, "object")
        return
    if name == KHR_RB:
        ctx.guard(ptr, validate_khr_node, ctx, index, ext, ptr)
    else:
        ctx.guard(ptr, validate_omi_node, ctx, index, name, ext, ptr)


def _check_declared(ctx: Ctx, nodes: list[tuple[int, dict]]) -> None:
    """Warn once per physics extension that is used but missing from ``extensionsUsed`` (``nodes``: the nodes
    carrying a node-level physics extension, ``physics_nodes``)."""
    used = ctx.doc.get("extensionsUsed")
    declared = {name for name in used if isinstance(name, str)} if isinstance(used, list) else set()
    first_use: dict[str, str] = {}
    for name in PHYSICS_EXTENSIONS:
        if name in ctx.root_ext:
            first_use.setdefault(name, pointer_join("/extensions", name))
    wanted = {name for name in NODE_EXTENSIONS if name not in declared and name not in first_use}
    for index, extensions in nodes if wanted else ():  # only undeclared names can be reported
        for name in extensions:
            if name in wanted and name not in first_use:
                first_use[name] = pointer_join("/nodes", index, "extensions", name)
    for name, ptr in first_use.items():
        if name not in declared:
            ctx.warning(NOT_DECLARED, ptr, f"{name} is used but not listed in extensionsUsed.")
