"""Blender rigid-body and constraint settings that glTF cannot hold: one note (``GLTF_PHYSICS_EXPORT_NOT_WRITTEN``)
per setting that is not at Blender's default — damping whenever it is not 0, Blender's own default included, since
engines will not damp — naming the objects that carry it. The export summary lists these notes
(``hooks.export_summary_lines``); docs/export.md ("Fate of every Blender setting") has the full table.
"""

from __future__ import annotations

import math

from .context import EXPORT_NOT_WRITTEN, Builder

MAX_NAMES = 3
DEFAULT_MARGIN = 0.04


def _dynamic(rb) -> bool:
    return rb.type == "ACTIVE" and not rb.kinematic


def _deactivation(rb) -> bool:
    """Deactivation is off for new rigid bodies (their RNA default says on; the data's default is off)."""
    return _dynamic(rb) and rb.use_deactivation


def _final_mesh(ob, rb) -> bool:
    return rb.mesh_source == "FINAL" and rb.collision_shape in ("CONVEX_HULL", "MESH") and len(ob.modifiers) > 0


BODY_SETTINGS = (
    (
        lambda rb: _dynamic(rb) and (rb.linear_damping > 0 or rb.angular_damping > 0),
        "damping (Blender's default linear 0.04 / angular 0.1 included): glTF has no damping, engines will not damp",
    ),
    (
        lambda rb: rb.use_margin and not math.isclose(rb.collision_margin, DEFAULT_MARGIN, rel_tol=1e-6),
        "a custom collision margin: engines use their own (only the inertia written under Mass Properties holds it)",
    ),
    (_deactivation, "deactivation (Dynamic > Deactivation): engines put bodies to sleep their own way"),
    (
        lambda rb: rb.type == "ACTIVE" and not rb.enabled,
        "Dynamic off: written as a dynamic body, Blender holds it still until Dynamic is switched on",
    ),
    (lambda rb: rb.use_deform, "Deforming: the collider is the mesh at the exported frame, it does not deform"),
)
MESH_SETTINGS = (
    (
        _final_mesh,
        "collision source Final: the collider is the mesh glTF export writes (the final mesh only with Apply "
        "Modifiers)",
    ),
)
CONSTRAINT_SETTINGS = (
    (lambda c: c.use_override_solver_iterations, "solver iteration overrides: engines choose their own"),
)


def note_unwritten(b: Builder) -> None:
    """Notes for the exported rigid bodies and constraints whose settings have no glTF field."""
    found: dict[str, list[str]] = {}
    for ob in b.session.objects.values():
        rb = getattr(ob, "rigid_body", None)
        if rb is not None:
            for test, message in BODY_SETTINGS:
                if test(rb):
                    found.setdefault(message, []).append(ob.name)
            for test, message in MESH_SETTINGS:
                if test(ob, rb):
                    found.setdefault(message, []).append(ob.name)
        c = getattr(ob, "rigid_body_constraint", None)
        if c is not None and c.enabled:
            for test, message in CONSTRAINT_SETTINGS:
                if test(c):
                    found.setdefault(message, []).append(ob.name)
    for message, names in found.items():
        shown = ", ".join(repr(n) for n in sorted(names)[:MAX_NAMES])
        more = f" and {len(names) - MAX_NAMES} more" if len(names) > MAX_NAMES else ""
        b.note(EXPORT_NOT_WRITTEN, "", f"not written — {message}: {shown}{more}")
