"""Blender settings that change how the scene plays and that the written file cannot say: one WARNING
(``GLTF_PHYSICS_EXPORT_PLAYS_DIFFERENTLY``) per setting, naming the objects (or the scene) that carry it.

The rule (docs/export.md, "What Blender plays is what the file says"): every rigid-body, constraint, world and scene
setting that changes the motion is (a) written as Bullet applies it, (b) baked into what is written, or (c) warned
about here. Nothing that changes the motion is a mere note. The Blender-only values are still kept in ``extras``
for the next Blender import (``exporter.blender_settings``); engines do not read them, hence the warning.

How Bullet in Blender applies what the file holds differently (the tests measure each in Blender): a cone and a
triangle mesh are always grown by their collision margin, a convex hull only with *Collision Margin* on, box /
sphere / capsule / cylinder never (Bullet embeds it). Bullet's sphere takes its radius from the X scale, the Z-up
capsule, cylinder and cone from the X or Y scale (``btSphereShape``, ``btCapsuleShapeZ``, ``btCylinderShapeZ``,
``btConeShapeZ`` local scaling); engines scale a shape by the node's scale their own way. A convex hull or mesh
drops the mirror of a negative scale; a compound uses its children's placement, not their own scale.
"""

from __future__ import annotations

import math

import numpy as np

from ..gltf.nodes import affine_inverse
from ..gltf.validate.codes import EXPORT_PLAYS_DIFFERENTLY
from ..mapping.mass_to_gltf import in_compound
from .blender_settings import WRITTEN_CONSTRAINTS
from .context import Builder

MAX_NAMES = 3
SCALE_TOL = 1e-4  # relative: a scale that differs less is uniform (32-bit matrices)

DAMPING = "damping (Blender's default linear 0.04 / angular 0.1 included): glTF has no damping, engines will not damp"
MARGIN = (
    "collision margin grows the collider (always for cones and triangle meshes, for convex hulls with Collision "
    "Margin on): Blender's collider is larger than the written shape"
)
DEACTIVATION = "deactivation (Dynamic > Deactivation): Blender puts slow bodies to sleep by its thresholds"
START_DEACTIVATED = "Start Deactivated: Blender holds the body asleep until something hits it, engines let it fall"
DYNAMIC_OFF = "Dynamic off: written as a dynamic body, Blender holds it still until Dynamic is switched on"
DEFORMING = "Deforming: the collider is the mesh at the exported frame, it does not deform"
SOURCE_BASE = "collision source Base with modifiers: Blender collides with the mesh without modifiers, the file has"
SOURCE_DEFORM = (
    "collision source Deform with modifiers: Blender collides with the mesh after its deform modifiers, the file has"
)
SOURCE_FINAL = "collision source Final without Apply Modifiers: Blender collides with the modified mesh, the file has"
SPHERE_SCALE = "non-uniform scale on a sphere: Blender takes the radius from the X scale, engines their own way"
ROUND_SCALE = (
    "X and Y scales differ on a capsule, cylinder or cone: Blender takes the radius from one of them, engines their "
    "own way"
)
MIRRORED_HULL = (
    "negative scale on a convex hull or mesh collider: Blender's collider is not mirrored, the file's node mirrors it"
)
CHILD_SCALE = "a compound child's own scale: Blender's compound ignores it, the file's node applies it"
BREAKING = "breakable constraints (Breakable): Blender breaks them above the threshold, engines never do"
SOLVER_ITERATIONS = "solver iteration overrides on constraints: engines choose their own"
SPRING1 = "spring type Blender 2.7 (SPRING1): its damping is not the drive damping written (Blender 2.8 / SPRING2 is)"
WORLD_GRAVITY = "scene gravity other than (0, 0, -9.81) or off: glTF has no gravity, engines use 9.81 m/s² down"
WORLD_TIME_SCALE = "rigid-body world Speed (time scale) other than 1: engines play in real time"
WORLD_UNITS = (
    "scene Unit Scale other than 1: the file holds Blender units as metres (sizes, speeds, gravity), not the scene's "
    "units"
)
WORLD_STEPS = "rigid-body world substeps / solver iterations / split impulse changed: engines step their own way"

_MESHED = ("CONVEX_HULL", "MESH")
_SCALE_SENSITIVE = frozenset(("SPHERE", "CAPSULE", "CYLINDER", "CONE", *_MESHED))
# Modifier types that only move vertices: what collision source Deform keeps (Blender's "Deform" modifier category)
DEFORM_MODIFIERS = frozenset(
    (
        "ARMATURE", "CAST", "CURVE", "DISPLACE", "HOOK", "LAPLACIANDEFORM", "LATTICE", "MESH_DEFORM", "SHRINKWRAP",
        "SIMPLE_DEFORM", "SMOOTH", "CORRECTIVE_SMOOTH", "LAPLACIANSMOOTH", "SURFACE_DEFORM", "WARP", "WAVE",
        "MESH_CACHE", "MESH_SEQUENCE_CACHE",
    )
)  # fmt: skip


def enlarging_margin(shape: str, use_margin: bool, margin: float) -> float:
    """How far Blender's collider reaches beyond the shape written (0: the margin is embedded)."""
    if shape in ("CONE", "MESH"):
        return float(margin)
    if shape == "CONVEX_HULL" and use_margin:
        return float(margin)
    return 0.0


def source_problem(rb, ob, apply_modifiers: bool) -> str | None:
    """The message when the hull / mesh Blender collides with is not the mesh the export writes (None: it is).

    Bullet gets the mesh without modifiers (Base), with the deform modifiers only (Deform) or with all of them
    (Final); io_scene_gltf2 writes it with all of them (Apply Modifiers) or none."""
    if rb.collision_shape not in _MESHED or not len(ob.modifiers):
        return None
    source = rb.mesh_source
    if source == "BASE" and apply_modifiers:
        return f"{SOURCE_BASE} the modified mesh (Apply Modifiers)"
    if source == "DEFORM":
        deforming = [m.type in DEFORM_MODIFIERS for m in ob.modifiers]
        if apply_modifiers and not all(deforming):
            return f"{SOURCE_DEFORM} the mesh with every modifier (Apply Modifiers)"
        if not apply_modifiers and any(deforming):
            return f"{SOURCE_DEFORM} the mesh without modifiers"
    if source == "FINAL" and not apply_modifiers:
        return f"{SOURCE_FINAL} the mesh without modifiers"
    return None


def _scales(matrix: np.ndarray) -> tuple[tuple[float, float, float], float]:
    """(column lengths, determinant sign) of a 4×4's basis (plain floats: one 3×3 per body, where numpy's per-call
    cost would dominate)."""
    (a, b, c), (d, e, f), (g, h, i) = (row[:3] for row in np.asarray(matrix, dtype=float).tolist()[:3])
    det = a * (e * i - f * h) - b * (d * i - f * g) + c * (d * h - e * g)
    return (math.hypot(a, d, g), math.hypot(b, e, h), math.hypot(c, f, i)), math.copysign(1.0, det)


def _differ(a: float, b: float) -> bool:
    return not math.isclose(a, b, rel_tol=SCALE_TOL, abs_tol=1e-9)


def scale_problems(b: Builder, ob, shape: str) -> list[str]:
    """The messages of ``ob``'s scale that Bullet applies otherwise than the file's node scale does."""
    found = []
    child = in_compound(ob)
    if shape not in _SCALE_SENSITIVE and not child:  # a box scales per axis in Bullet as in the file
        return found
    scale, sign = _scales(b.session.world(ob))
    if shape == "SPHERE" and (_differ(scale[0], scale[1]) or _differ(scale[0], scale[2])):
        found.append(SPHERE_SCALE)
    if shape in ("CAPSULE", "CYLINDER", "CONE") and _differ(scale[0], scale[1]):
        found.append(ROUND_SCALE)
    if shape in _MESHED and sign < 0:
        found.append(MIRRORED_HULL)
    if child:
        inverse = affine_inverse(b.session.world(ob.parent))
        relative = None if inverse is None else inverse @ b.session.world(ob)
        if relative is not None and any(_differ(s, 1.0) for s in _scales(relative)[0]):
            found.append(CHILD_SCALE)
    return found


def body_settings(b: Builder, ob, rb) -> list[str]:
    """The messages of ``rb``'s settings that change the motion and that the file cannot say (each value read once).

    Damping and deactivation count only for dynamic bodies (deactivation is off for new rigid bodies: their RNA
    default says on, the data's default is off)."""
    found = []
    active = rb.type == "ACTIVE"
    dynamic = active and not rb.kinematic
    shape = rb.collision_shape
    if dynamic and (rb.linear_damping > 0 or rb.angular_damping > 0):
        found.append(DAMPING)
    if enlarging_margin(shape, rb.use_margin, rb.collision_margin) > 0:
        found.append(MARGIN)
    if dynamic and rb.use_deactivation:
        found.append(DEACTIVATION)
        if rb.use_start_deactivated:
            found.append(START_DEACTIVATED)
    if active and not rb.enabled:
        found.append(DYNAMIC_OFF)
    if rb.use_deform:
        found.append(DEFORMING)
    source = source_problem(rb, ob, b.session.apply_modifiers)
    if source is not None:
        found.append(source)
    found.extend(scale_problems(b, ob, shape))
    return found


def constraint_settings(c) -> list[str]:
    """The messages of constraint ``c``'s settings that change the motion and that the file cannot say."""
    found = []
    if c.use_breaking:
        found.append(BREAKING)
    if c.use_override_solver_iterations:
        found.append(SOLVER_ITERATIONS)
    if c.type == "GENERIC_SPRING" and c.spring_type == "SPRING1" and _has_spring(c):
        found.append(SPRING1)
    return found


def _has_spring(c) -> bool:
    return any(getattr(c, f"use_spring{infix}_{axis}") for infix in ("", "_ang") for axis in "xyz")


def world_settings(scene) -> list[str]:
    """The messages of the scene's and its rigid-body world's settings that change the motion."""
    found = []
    gravity = tuple(scene.gravity)
    if not scene.use_gravity or any(_differ(g, d) for g, d in zip(gravity, (0.0, 0.0, -9.81), strict=True)):
        found.append(WORLD_GRAVITY)
    if _differ(scene.unit_settings.scale_length, 1.0):
        found.append(WORLD_UNITS)
    rbw = scene.rigidbody_world
    if rbw is not None:
        if _differ(rbw.time_scale, 1.0):
            found.append(WORLD_TIME_SCALE)
        if rbw.substeps_per_frame != 10 or rbw.solver_iterations != 10 or rbw.use_split_impulse:
            found.append(WORLD_STEPS)
    return found


def warn_unwritten(b: Builder) -> None:
    """One WARNING per setting of the exported rigid bodies, constraints, world and scene that the file cannot say."""
    import bpy

    found: dict[str, list[str]] = {}
    for ob in b.session.objects.values():
        rb = getattr(ob, "rigid_body", None)
        if rb is not None and b.node_indices(ob):
            for message in body_settings(b, ob, rb):
                found.setdefault(message, []).append(repr(ob.name))
    for empty in b.memo.get(WRITTEN_CONSTRAINTS, ()):
        for message in constraint_settings(empty.rigid_body_constraint):
            found.setdefault(message, []).append(repr(empty.name))
    if b.doc.nodes:
        scene = bpy.context.scene
        for message in world_settings(scene):
            found.setdefault(message, []).append(f"scene {scene.name!r}")
    for message, names in found.items():
        names = sorted(names)
        shown = ", ".join(names[:MAX_NAMES])
        more = f" and {len(names) - MAX_NAMES} more" if len(names) > MAX_NAMES else ""
        b.warn(EXPORT_PLAYS_DIFFERENTLY, "", f"plays differently — {message}: {shown}{more}")
