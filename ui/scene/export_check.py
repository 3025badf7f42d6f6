"""Validate what export writes: run the glTF exporter (with our hooks) into a temporary folder and run
``io.validate.validate_gltf`` on the written JSON, plus the warnings of the export run itself.

This goes through the real exporter, so it checks whatever ``io/hooks.GltfPhysicsExport`` writes for the scene's
current export settings (``Scene.gltf_physics.export_revision``); nothing is left on disk. Validator pointers are
into the written file; messages name the node (``node 'Name'``) so artists can find the object.
"""

from __future__ import annotations

import json
import pathlib
import re
import tempfile

import bpy

from ...io.diagnostics import Diagnostic, Severity
from ...io.gltf.validate.document import validate_gltf
from ...io.hooks import last_report

EXPORT_FAILED = "GLTF_PHYSICS_CHECK_EXPORT_FAILED"  # WARNING: the check could not export the scene
_NODE = re.compile(r"^/nodes/(\d+)(/|$)")


def _named(diag: Diagnostic, gltf: dict) -> Diagnostic:
    """The diagnostic with the name of the node its pointer starts at, when there is one."""
    match = _NODE.match(diag.pointer)
    nodes = gltf.get("nodes", []) if isinstance(gltf, dict) else []
    if match is None or int(match.group(1)) >= len(nodes):
        return diag
    name = nodes[int(match.group(1))].get("name")
    if not name:
        return diag
    return Diagnostic(diag.severity, diag.code, diag.pointer, f"{diag.message} (node {name!r})")


def export_and_validate() -> tuple[list[Diagnostic], dict | None]:
    """(diagnostics, written glTF JSON or None when the export failed) for the current scene."""
    with tempfile.TemporaryDirectory(prefix="gltf_physics_check_") as folder:
        path = pathlib.Path(folder) / "check.gltf"
        try:
            result = bpy.ops.export_scene.gltf(filepath=str(path), export_format="GLTF_SEPARATE")
        except (RuntimeError, TypeError, AttributeError) as error:  # exporter missing or reporting an error
            return [Diagnostic(Severity.WARNING, EXPORT_FAILED, "", f"export failed: {error}")], None
        if result != {"FINISHED"} or not path.is_file():
            return [Diagnostic(Severity.WARNING, EXPORT_FAILED, "", f"export returned {sorted(result)}")], None
        gltf = json.loads(path.read_text(encoding="utf-8"))
    found = [_named(d, gltf) for d in validate_gltf(gltf)]
    report = last_report("export")
    if report is not None:
        found += [d for d in report.diagnostics if d.severity >= Severity.WARNING]
    return found, gltf
