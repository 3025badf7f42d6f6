"""What a conversion worker and the driver say to each other (bpy-free).

The driver writes one JSON job per line on the worker's stdin; the worker answers on its own copy of stdout (the
process's fd 1 is pointed at stderr, so Blender's and io_scene_gltf2's prints never mix with answers) with lines
``MARK + json``: first ``{"ready": true}``, then one result per job. A result is a dict ``{"status", "seconds",
"counts", "diagnostics"}``, plus ``broken`` (why) when the worker's Blender cannot go on after it; a diagnostic
dict is ``Diagnostic.to_dict()`` plus ``stage`` (``read``, ``import``, ``export``, ``validate``, ``write``,
``worker``).
"""

from __future__ import annotations

import json

from ..diagnostics import Diagnostic, Severity, loses_physics

MARK = "@@gltf_physics-convert@@ "

# Statuses of a file in the report.
CONVERTED = "converted"
WARNINGS = "warnings"  # converted, with at least one WARNING diagnostic
LOSSES = "losses"  # converted, but part of the input's physics did not reach the output (the report says what)
FAILED = "failed"
SKIPPED = "skipped"

# Codes of the conversion itself (the import, export and validator codes keep their own).
IMPORT_FAILED = "CONVERT_IMPORT_FAILED"  # Blender could not read the input
EXPORT_FAILED = "CONVERT_EXPORT_FAILED"  # Blender could not write the output
GLTF_ADDON_ERROR = "CONVERT_GLTF_ADDON_ERROR"  # io_scene_gltf2 logged an error (an export hook raised)
TIMEOUT = "CONVERT_TIMEOUT"  # the worker was killed after --timeout seconds
WORKER_CRASHED = "CONVERT_WORKER_CRASHED"  # the worker process died on this file, twice
WORKER_BROKEN = "CONVERT_WORKER_BROKEN"  # Blender was unusable after this file, twice (each worker replaced)
RETRIED = "CONVERT_RETRIED"  # the first worker crashed or broke on this file; a new worker converted it
IMAGE_RENAMED = "CONVERT_IMAGE_RENAMED"  # an image named like a path, renamed before a .gltf export
INTERNAL = "CONVERT_INTERNAL_ERROR"  # an unexpected exception in the worker
CONTENT_NOT_KEPT = "CONVERT_CONTENT_NOT_KEPT"  # a non-physics extension of the input io_scene_gltf2 drops (WARNING)
SAME_ASSET_SKIPPED = "CONVERT_SAME_ASSET_SKIPPED"  # X.gltf beside X.glb: the other one is converted (INFO)
STRICT_LOSS = "CONVERT_STRICT_LOSS"  # --strict: the file's physics lost something, so it fails (no output)

#: The stages whose diagnostics speak of the input's physics on its way to the output (the others: the files).
PHYSICS_STAGES = ("import", "export")


def diag(stage: str, severity: Severity, code: str, pointer: str, message: str) -> dict:
    return {"stage": stage, **Diagnostic(severity, code, pointer, message).to_dict()}


def staged(stage: str, diagnostic: Diagnostic) -> dict:
    return {"stage": stage, **diagnostic.to_dict()}


def loses(diagnostic: dict) -> bool:
    """True when ``diagnostic`` (a staged dict) says part of the input's physics did not reach the output: an
    import or export diagnostic whose code the registry marks ``loses_physics`` (an object dropped for an ERROR, a
    value left out)."""
    return diagnostic.get("stage") in PHYSICS_STAGES and loses_physics(diagnostic["code"])


def status_of(diagnostics: list[dict]) -> str:
    """The file's status (docs/diagnostics.md, "What a batch does with each severity"): ``failed`` for an ERROR that
    is not a loss of physics (the file could not be read, converted, validated or written; ``--strict`` adds
    ``CONVERT_STRICT_LOSS``), else ``losses`` when physics was lost, else ``warnings`` / ``converted``."""
    error = Severity.ERROR.label
    if any(d["severity"] == error and not loses(d) for d in diagnostics):
        return FAILED
    if any(loses(d) for d in diagnostics):
        return LOSSES
    return WARNINGS if any(d["severity"] == Severity.WARNING.label for d in diagnostics) else CONVERTED


def strict_gate(diagnostics: list[dict], strict: bool) -> None:
    """``convert --strict``: one ``CONVERT_STRICT_LOSS`` ERROR (so the file fails, no output) when physics was lost,
    naming how many losses the report lists."""
    lost = [d for d in diagnostics if loses(d)]
    if strict and lost and not any(d["code"] == STRICT_LOSS for d in diagnostics):
        why = f"--strict: the physics lost {len(lost)} thing(s) on the way (listed in this file's diagnostics)"
        diagnostics.append(diag("worker", Severity.ERROR, STRICT_LOSS, "", why))


def failure(stage: str, code: str, message: str, seconds: float = 0.0) -> dict:
    """The result of a file the worker never finished."""
    return {
        "status": FAILED,
        "seconds": round(seconds, 3),
        "counts": {},
        "diagnostics": [diag(stage, Severity.ERROR, code, "", message)],
    }


def encode(message: dict) -> str:
    return MARK + json.dumps(message, separators=(",", ":")) + "\n"


def decode(line: str) -> dict | None:
    """The message of a protocol line, or None for anything else."""
    if not line.startswith(MARK):
        return None
    try:
        message = json.loads(line[len(MARK) :])
    except json.JSONDecodeError:
        return None
    return message if isinstance(message, dict) else None
