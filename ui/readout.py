"""Read-outs shown by the panels, computed with ``sim`` from plain values (no ``bpy``: tested in the pure tier).

Frames: a *part* is a ``sim.shapes`` shape placed in a body frame by ``(translation, rotation_xyzw, scale)`` with
``x' = R·diag(scale)·x + t`` (``sim.mass.compound``). Shapes live in the KHR shape space (capsule/cylinder axis +Y);
``SHAPE_TO_BLENDER`` turns that +Y onto Blender's local +Z, exactly the importer's glTF → Blender axis change
(x, y, z) → (x, −z, y). Scales given in Blender axes are swizzled into shape space with ``shape_scale``. Both live in
``io/mapping/axes.py``; the primitive Blender derives from mesh bounds is ``io/mapping/values_to_gltf.derive_shape``.
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from ..io.diagnostics import PhysicsDataError
from ..io.gltf.model import SPHERE
from ..io.mapping.axes import SHAPE_TO_BLENDER, shape_scale
from ..io.mapping.shapes_to_blender import shape_to_json
from ..io.mapping.values_to_gltf import derive_shape
from ..sim import drives, inertia, mass, pairs
from ..sim.quat import multiply
from ..sim.shapes import Box, Capsule, Cylinder, Mesh, Plane, Shape, Sphere, validate

IDENTITY = (0.0, 0.0, 0.0, 1.0)
#: A value smaller than this fraction of its read-out's own scale (a body's size, its largest inertia) is rounding
#: noise of the computation — a centred box's centre of mass comes out as -1.217e-18 — and is shown as 0.
NOISE = 1e-9


def without_noise(values: Sequence[float], scale: float) -> tuple[float, ...]:
    """``values`` with every component below ``NOISE × |scale|`` set to 0 (and no ``-0.0``): what a panel shows."""
    limit = NOISE * abs(scale)
    return tuple(0.0 if abs(v) <= limit else float(v) + 0.0 for v in values)


def _number(sub: dict, key: str, default):
    value = sub.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ValueError(f"{key} must be a number")
    return float(value)


def shape_from_json(text_or_dict) -> Shape | None:
    """A ``sim.shapes`` shape from the stored KHR_implicit_shapes JSON (glTF frame); None for unknown or bad data."""
    try:
        data = json.loads(text_or_dict) if isinstance(text_or_dict, str) else text_or_dict
        kind = data["type"]
        sub = data.get(kind, {}) or {}
        if kind == "box":
            size = sub.get("size", [1.0, 1.0, 1.0])
            if not isinstance(size, list) or len(size) != 3:
                return None
            shape = Box(tuple(float(s) for s in size))
        elif kind == "sphere":
            shape = Sphere(_number(sub, "radius", 0.5))
        elif kind in ("capsule", "cylinder"):
            cls = Capsule if kind == "capsule" else Cylinder
            shape = cls(
                _number(sub, "height", 0.5), _number(sub, "radiusBottom", 0.25), _number(sub, "radiusTop", 0.25)
            )
        elif kind == "plane":
            sx, sz = sub.get("sizeX"), sub.get("sizeZ")
            sx, sz = (None if v is None else float(v) for v in (sx, sz))
            shape = Plane(sx, sz, bool(sub.get("doubleSided")))
        else:
            return None
        return validate(shape)
    except (ValueError, TypeError, KeyError, AttributeError, PhysicsDataError):
        return None


def describe_shape(shape: Shape | None) -> str:
    """One line for the panel, e.g. ``Capsule h 1 m, r 0.25/0.25 m`` (KHR shape space)."""
    if shape is None:
        return "no implicit shape"
    if isinstance(shape, Box):
        return "Box {:.4g} × {:.4g} × {:.4g} m".format(*shape.size)
    if isinstance(shape, Sphere):
        return f"Sphere r {shape.radius:.4g} m"
    if isinstance(shape, Capsule | Cylinder):
        return f"{type(shape).__name__} h {shape.height:.4g} m, r {shape.radius_bottom:.4g}/{shape.radius_top:.4g} m"
    if isinstance(shape, Plane):
        size = "infinite" if not shape.finite else f"{shape.size_x:.4g} × {shape.size_z:.4g} m"
        return f"Plane {size}{', double-sided' if shape.double_sided else ''}"
    return f"Mesh {len(shape.triangles)} triangles"


def blender_primitive(collision_shape: str, bounds_min, bounds_max) -> tuple[Shape, tuple] | None:
    """The shape Blender derives from local mesh bounds (``derive_shape``, unrounded), as ``(shape,
    rotation_xyzw)`` centred on the origin; None for other collision shapes and degenerate bounds."""
    shape = derive_shape(collision_shape, bounds_min, bounds_max, rnd=float)
    if shape is None:
        return None
    part = shape_from_json(shape_to_json(shape))
    if part is None:
        return None
    return part, IDENTITY if shape.type == SPHERE else SHAPE_TO_BLENDER


@dataclass
class Part:
    """A shape in the body frame; ``scale`` in shape space (after ``rotation`` it acts along the body axes)."""

    shape: Shape
    translation: tuple = (0.0, 0.0, 0.0)
    rotation: tuple = IDENTITY
    scale: tuple = (1.0, 1.0, 1.0)
    label: str = ""


def placed(part_shape: Shape, local_rotation, scale_blender, translation=(0.0, 0.0, 0.0), rotation=IDENTITY) -> Part:
    """A shape with its local rotation (``SHAPE_TO_BLENDER`` or identity) under an object at (translation, rotation)
    with world scale ``scale_blender`` (Blender axes of the object). Valid because the local rotation only permutes
    axes: diag(s)·Q = Q·diag(s') with s' the permuted scale."""
    scale = (
        shape_scale(scale_blender)
        if tuple(local_rotation) == SHAPE_TO_BLENDER
        else tuple(abs(float(s)) for s in scale_blender)
    )
    q = multiply(np.asarray(rotation, dtype=float), np.asarray(local_rotation, dtype=float))
    return Part(part_shape, tuple(float(t) for t in translation), tuple(float(c) for c in q), scale)


@dataclass
class MassReadout:
    """Mass properties in the body frame (Blender axes, world units); ``orientation`` is Blender (w, x, y, z)."""

    mass: float
    volume: float
    center_of_mass: tuple[float, float, float]
    inertia_diagonal: tuple[float, float, float]
    orientation: tuple[float, float, float, float]
    tensor: np.ndarray
    parts: int
    skipped: list[str] = field(default_factory=list)


def mass_readout(parts: Sequence[Part], density: float) -> MassReadout | None:
    """``sim.mass.compound`` of the parts at ``density``; None when no part has volume (planes only, nothing)."""
    children = [(p.shape, p.translation, p.rotation, p.scale) for p in parts if not isinstance(p.shape, Plane)]
    if not children or not density > 0:
        return None
    try:
        total = mass.compound(children, density=density)
    except PhysicsDataError:
        return None
    diagonal, q = inertia.principal_axes(total.inertia)
    x, y, z, w = without_noise([float(c) for c in q], 1.0)
    volume = total.mass / density
    return MassReadout(
        mass=total.mass,
        volume=volume,
        center_of_mass=without_noise(total.center_of_mass, volume ** (1.0 / 3.0)),  # the body's size
        inertia_diagonal=without_noise(diagonal, max(abs(float(d)) for d in diagonal)),
        orientation=(w, x, y, z),
        tensor=total.inertia,
        parts=len(children),
    )


def mesh_part(vertices, triangles, scale_blender, translation=(0.0, 0.0, 0.0), rotation=IDENTITY) -> Part | None:
    """A closed triangle mesh (object-local Blender coordinates) as a part; None when it has no triangles."""
    shape = Mesh(np.asarray(vertices, dtype=float), np.asarray(triangles, dtype=np.int64))
    if len(shape.triangles) == 0:
        return None
    return placed(shape, IDENTITY, scale_blender, translation, rotation)


# --- materials and filters ---------------------------------------------------------------------------------------


def material_from_values(static, dynamic, restitution, friction_combine, restitution_combine) -> pairs.PhysicsMaterial:
    """A ``sim.pairs`` material; the panel's ``"NONE"`` combine mode means absent."""
    return pairs.PhysicsMaterial(
        float(static),
        float(dynamic),
        float(restitution),
        None if friction_combine == "NONE" else friction_combine,
        None if restitution_combine == "NONE" else restitution_combine,
    )


def combined_with(material: pairs.PhysicsMaterial, other: pairs.PhysicsMaterial | None) -> dict:
    """Combined coefficients against ``other`` (None = the default material 0.6/0.6/0, no combine mode)."""
    return pairs.combine_materials(material, other)


def json_names(text: str) -> list[str] | None:
    """A stored JSON list of system names: None = absent (''), raises ValueError for anything else."""
    if not text.strip():
        return None
    value = json.loads(text)
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ValueError("expected a JSON list of strings")
    return value


def filter_from_texts(systems: str, collide: str, not_collide: str) -> pairs.CollisionFilter:
    """A ``sim.pairs`` filter from the three stored JSON texts (ValueError for malformed text)."""

    def names(text):
        value = json_names(text)
        return None if value is None else frozenset(value)

    return pairs.CollisionFilter(names(systems), names(collide), names(not_collide))


def filter_summary(flt: pairs.CollisionFilter) -> dict:
    """Does a collider with this filter collide with its own kind, and with colliders without a filter?"""
    return {"self": pairs.filters_collide(flt, flt), "unfiltered": pairs.filters_collide(flt, None)}


# --- drives ------------------------------------------------------------------------------------------------------


@dataclass
class DriveReadout:
    regime: str
    target_kind: str
    target: float | None
    settle_time: float | None
    overshoot: float
    overshoot_ratio: float | None
    effective_mass: float


def drive_readout(
    stiffness: float,
    damping: float,
    position_target: float | None,
    velocity_target: float | None,
    mode: str,
    effective_mass: float,
    x0: float = 0.0,
    v0: float = 0.0,
    tolerance: float = 1e-3,
) -> DriveReadout | None:
    """``sim.drives.settle_preview`` of one drive from (x0, v0); None when it cannot be evaluated.

    An infinite effective mass (both sides immovable) in force mode cannot move: no preview.
    """
    if mode == "force" and not (0 < effective_mass < math.inf):
        return None
    try:
        preview = drives.settle_preview(
            x0,
            v0,
            stiffness=stiffness,
            damping=damping,
            position_target=position_target,
            velocity_target=velocity_target,
            mass=effective_mass if mode == "force" else 1.0,
            mode=mode,
            tolerance=tolerance,
            samples=2,
        )
    except ValueError:
        return None
    return DriveReadout(
        preview.regime,
        preview.target_kind,
        preview.target,
        preview.settle_time,
        preview.overshoot,
        preview.overshoot_ratio,
        effective_mass,
    )


def angular_effective_inertia(axis_world, inverse_tensors: Sequence[np.ndarray | None]) -> float:
    """Effective inertia about a world axis of the bodies with these world inverse inertia tensors (None = fixed)."""
    a, b = [*inverse_tensors, None, None][:2]
    return drives.effective_inertia(axis_world, a, b)
