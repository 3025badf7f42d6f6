"""Entry point of the spec model: glTF JSON -> ``PhysicsDocument`` + diagnostics.  Never raises (bpy-free).

Usage::

    result = parse_gltf(gltf_json)          # any JSON value
    result.document.nodes[3].collider       # the normalized model (see model.py)
    result.diagnostics                      # validator + parser diagnostics, each with a JSON pointer

Flow: ``validate.validate_gltf`` runs first; every ERROR at pointer P drops the deepest droppable unit containing P
(node-level motion / collider / trigger / joint, a document-level shape / material / filter / joint description, a
limit or a drive).  The readers then read what is left, type-defensively; anything they cannot read becomes a
``PHYSICS_PARSE_*`` diagnostic and drops its unit.  A reference to a dropped item drops the referring unit.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field

from ..diagnostics import Diagnostic, Severity, internal_failure
from .model import PhysicsDocument
from .read.common import INTERNAL, INVALID_TYPE, ReadContext
from .read.khr import read_khr
from .read.omi import read_omi
from .validate.document import validate_gltf

log = logging.getLogger(__name__)


@dataclass
class ParseResult:
    document: PhysicsDocument
    diagnostics: list[Diagnostic] = field(default_factory=list)

    @property
    def errors(self) -> list[Diagnostic]:
        return [d for d in self.diagnostics if d.severity >= Severity.ERROR]


def run_validator(gltf: object) -> list[Diagnostic]:
    """``validate.validate_gltf`` guarded: a crash in it becomes one diagnostic instead of an exception."""
    try:
        return list(validate_gltf(gltf))
    except Exception:
        log.exception("glTF Physics: the validator failed")
        return [Diagnostic(Severity.ERROR, INTERNAL, "", internal_failure("validating the physics"))]


def parse_gltf(gltf: object, *, validate: bool = True) -> ParseResult:
    """Read the physics of a glTF JSON document into the normalized model.  Never raises."""
    document = PhysicsDocument()
    if not isinstance(gltf, dict):
        diag = Diagnostic(
            Severity.ERROR, INVALID_TYPE, "", f"a glTF document is a JSON object, got {type(gltf).__name__}"
        )
        return ParseResult(document, [diag])
    validator_diags = run_validator(gltf) if validate else []
    ctx = ReadContext(gltf, validator_diags)
    try:
        exts = gltf.get("extensions", {})
        if not isinstance(exts, dict):
            ctx.report(Severity.ERROR, INVALID_TYPE, "/extensions", "expected a JSON object")
            exts = {}
        read_khr(ctx, document, exts)
        read_omi(ctx, document, exts)
    except Exception:
        log.exception("glTF Physics: reading the physics failed")
        ctx.diags.error(INTERNAL, "", internal_failure("reading the rest of the physics"))
    return ParseResult(document, validator_diags + ctx.diags.items)
