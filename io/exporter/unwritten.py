"""Blender rigid-body and constraint settings that glTF cannot hold: one note (``GLTF_PHYSICS_EXPORT_NOT_WRITTEN``)
per setting that is not at Blender's default — damping whenever it is not 0, Blender's own default included, since
engines will not damp — naming the objects that carry it. The export summary lists these notes
(``exporter.pipeline.export_summary_lines``); docs/export.md ("Fate of every Blender setting") has the full table.
"""

from __future__ import annotations

import math

from .context import EXPORT_NOT_WRITTEN, Builder

MAX_NAMES = 3
DEFAULT_MARGIN = 0.04

DAMPING = "damping (Blender's default linear 0.04 / angular 0.1 included): glTF has no damping, engines will not damp"
MARGIN = "a custom collision margin: engines use their own (only the inertia written under Mass Properties holds it)"
DEACTIVATION = "deactivation (Dynamic > Deactivation): engines put bodies to sleep their own way"
DYNAMIC_OFF = "Dynamic off: written as a dynamic body, Blender holds it still until Dynamic is switched on"
DEFORMING = "Deforming: the collider is the mesh at the exported frame, it does not deform"
FINAL_MESH = (
    "collision source Final: the collider is the mesh glTF export writes (the final mesh only with Apply Modifiers)"
)
SOLVER_ITERATIONS = "solver iteration overrides: engines choose their own"


def body_settings(ob, rb) -> list[str]:
    """The messages of ``rb``'s settings that have no glTF field, in the order of the notes (each value read once).

    Deactivation counts only for dynamic bodies (off for new rigid bodies: their RNA default says on, the data's
    default is off); collision source Final only for hull / mesh shapes of an object with modifiers."""
    found = []
    active = rb.type == "ACTIVE"
    dynamic = active and not rb.kinematic
    if dynamic and (rb.linear_damping > 0 or rb.angular_damping > 0):
        found.append(DAMPING)
    if rb.use_margin and not math.isclose(rb.collision_margin, DEFAULT_MARGIN, rel_tol=1e-6):
        found.append(MARGIN)
    if dynamic and rb.use_deactivation:
        found.append(DEACTIVATION)
    if active and not rb.enabled:
        found.append(DYNAMIC_OFF)
    if rb.use_deform:
        found.append(DEFORMING)
    if rb.mesh_source == "FINAL" and rb.collision_shape in ("CONVEX_HULL", "MESH") and len(ob.modifiers) > 0:
        found.append(FINAL_MESH)
    return found


def note_unwritten(b: Builder) -> None:
    """Notes for the exported rigid bodies and constraints whose settings have no glTF field."""
    found: dict[str, list[str]] = {}
    for ob in b.session.objects.values():
        rb = getattr(ob, "rigid_body", None)
        if rb is not None:
            for message in body_settings(ob, rb):
                found.setdefault(message, []).append(ob.name)
        c = getattr(ob, "rigid_body_constraint", None)
        if c is not None and c.enabled and c.use_override_solver_iterations:
            found.setdefault(SOLVER_ITERATIONS, []).append(ob.name)
    for message, names in found.items():
        shown = ", ".join(repr(n) for n in sorted(names)[:MAX_NAMES])
        more = f" and {len(names) - MAX_NAMES} more" if len(names) > MAX_NAMES else ""
        b.note(EXPORT_NOT_WRITTEN, "", f"not written — {message}: {shown}{more}")
