"""Shape descriptions shared by ``sim.mass`` and ``sim.queries`` (pure numpy, no bpy).

Conventions: metres, shape space of ``KHR_implicit_shapes`` — the capsule/cylinder axis is +Y, ``height`` is the
distance between the sphere centres (capsule) or the full height (cylinder), ``radius_bottom`` sits at y = −height/2
and ``radius_top`` at y = +height/2. A plane has normal +Y and spans X/Z (``size_x``/``size_z`` None = infinite).
Defaults are the KHR defaults. Quaternions are (x, y, z, w).

Every convex shape has a support function ``support(shape, d)``: the point of the shape furthest along each direction
row of ``d`` (N, 3); GJK (``sim.gjk``) uses it for exact overlap tests.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ..io.diagnostics import Diagnostic, PhysicsDataError, Severity


def bad_shape(message: str, pointer: str = "") -> PhysicsDataError:
    """The error raised for invalid shape parameters (a ``Diagnostic`` with code ``SIM_BAD_SHAPE``)."""
    return PhysicsDataError(Diagnostic(Severity.ERROR, "SIM_BAD_SHAPE", pointer, message))


@dataclass(frozen=True)
class Box:
    """Axis-aligned box centred on the origin; ``size`` = full extents (x, y, z)."""

    size: tuple[float, float, float] = (1.0, 1.0, 1.0)


@dataclass(frozen=True)
class Sphere:
    radius: float = 0.5


@dataclass(frozen=True)
class Capsule:
    """Convex hull of two spheres on the Y axis (tapered when the radii differ)."""

    height: float = 0.5
    radius_bottom: float = 0.25
    radius_top: float = 0.25


@dataclass(frozen=True)
class Cylinder:
    """Cylinder / frustum / cone on the Y axis (a cone has one radius 0)."""

    height: float = 0.5
    radius_bottom: float = 0.25
    radius_top: float = 0.25


@dataclass(frozen=True)
class Plane:
    """Plane y = 0 with normal +Y; finite when ``size_x``/``size_z`` are given; one-sided unless ``double_sided``."""

    size_x: float | None = None
    size_z: float | None = None
    double_sided: bool = False

    @property
    def finite(self) -> bool:
        return self.size_x is not None and self.size_z is not None


@dataclass(frozen=True, eq=False)
class Mesh:
    """Triangle mesh (vertices (V, 3), triangles (T, 3) vertex indices); ``convex`` = use its convex hull."""

    vertices: np.ndarray = field(default_factory=lambda: np.zeros((0, 3)))
    triangles: np.ndarray = field(default_factory=lambda: np.zeros((0, 3), dtype=np.int64))
    convex: bool = False

    def __post_init__(self) -> None:
        object.__setattr__(self, "vertices", np.asarray(self.vertices, dtype=float).reshape(-1, 3))
        object.__setattr__(self, "triangles", np.asarray(self.triangles, dtype=np.int64).reshape(-1, 3))


Shape = Box | Sphere | Capsule | Cylinder | Plane | Mesh


def validate(shape: Shape) -> Shape:
    """Return ``shape`` or raise ``PhysicsDataError`` (SIM_BAD_SHAPE) for degenerate parameters (§4 of the spec)."""
    if isinstance(shape, Box):
        if len(shape.size) != 3 or min(shape.size) <= 0:
            raise bad_shape(f"box size must be three numbers > 0, got {shape.size}")
    elif isinstance(shape, Sphere):
        if not shape.radius > 0:
            raise bad_shape(f"sphere radius must be > 0, got {shape.radius}")
    elif isinstance(shape, Capsule | Cylinder):
        kind = type(shape).__name__.lower()
        if shape.height < 0 or min(shape.radius_bottom, shape.radius_top) < 0:
            raise bad_shape(f"{kind} needs height >= 0 and radii >= 0")
        if max(shape.radius_bottom, shape.radius_top) <= 0:
            raise bad_shape(f"{kind} radii must not both be 0")
        if isinstance(shape, Cylinder) and shape.height <= 0:
            raise bad_shape("cylinder height must be > 0")
    elif isinstance(shape, Plane):
        for size in (shape.size_x, shape.size_z):
            if size is not None and not size > 0:
                raise bad_shape(f"plane sizes must be > 0 when present, got {size}")
    elif isinstance(shape, Mesh):
        tri = shape.triangles
        if len(tri) and (tri.min() < 0 or tri.max() >= len(shape.vertices)):
            raise bad_shape("mesh triangle index out of range")
        if not np.all(np.isfinite(shape.vertices)):
            raise bad_shape("mesh vertices must be finite")
    else:
        raise bad_shape(f"unknown shape {type(shape).__name__}")
    return shape


@dataclass(frozen=True)
class CapsuleSide:
    """The tangent cone of a capsule: the side runs from (rho0 at y0) to (rho1 at y1); ``None`` if degenerate."""

    y0: float
    y1: float
    rho0: float
    rho1: float
    sin_alpha: float


def capsule_side(height: float, radius_bottom: float, radius_top: float) -> CapsuleSide | None:
    """Tangent cone of the two spheres (sin α = (r_bottom − r_top)/h), or None when one sphere contains the other."""
    h, rb, rt = float(height), float(radius_bottom), float(radius_top)
    if h <= abs(rb - rt) or h <= 0.0:
        return None
    s = (rb - rt) / h
    c = np.sqrt(max(1.0 - s * s, 0.0))
    return CapsuleSide(-h / 2 + rb * s, h / 2 + rt * s, rb * c, rt * c, s)


def _unit_rows(d: np.ndarray) -> np.ndarray:
    n = np.linalg.norm(d, axis=-1, keepdims=True)
    return np.divide(d, n, out=np.zeros_like(d), where=n > 0)


def _disc_support(d: np.ndarray, y: float, r: float) -> np.ndarray:
    """Support of the disc of radius r at height y (normal Y) along directions d."""
    radial = d.copy()
    radial[:, 1] = 0.0
    radial = _unit_rows(radial) * r
    radial[:, 1] = y
    return radial


def _best(d: np.ndarray, *candidates: np.ndarray) -> np.ndarray:
    stack = np.stack(candidates)  # (K, N, 3)
    k = np.argmax(np.einsum("knj,nj->kn", stack, d), axis=0)
    return stack[k, np.arange(len(d))]


def support(shape: Shape, d: np.ndarray) -> np.ndarray:
    """Local-space support points (N, 3) of a convex shape for directions d (N, 3).

    A finite plane supports as its zero-thickness rectangle; an infinite plane has no support function (its
    overlap tests are closed-form in ``sim.gjk``). A ``Mesh`` supports as the convex hull of its vertices.
    """
    d = np.atleast_2d(np.asarray(d, dtype=float))
    if isinstance(shape, Box):
        return np.where(d >= 0.0, 0.5, -0.5) * np.asarray(shape.size, dtype=float)
    if isinstance(shape, Sphere):
        return _unit_rows(d) * shape.radius
    if isinstance(shape, Capsule):
        h = shape.height
        u = _unit_rows(d)
        bottom = u * shape.radius_bottom + np.array([0.0, -h / 2, 0.0])
        top = u * shape.radius_top + np.array([0.0, h / 2, 0.0])
        return _best(d, bottom, top)
    if isinstance(shape, Cylinder):
        h = shape.height
        return _best(d, _disc_support(d, -h / 2, shape.radius_bottom), _disc_support(d, h / 2, shape.radius_top))
    if isinstance(shape, Plane):
        if not shape.finite:
            raise bad_shape("an infinite plane has no support function")
        half = np.array([shape.size_x / 2, 0.0, shape.size_z / 2])
        return np.where(d >= 0.0, 1.0, -1.0) * half
    if isinstance(shape, Mesh):
        k = np.argmax(d @ shape.vertices.T, axis=1)
        return shape.vertices[k]
    raise bad_shape(f"no support function for {type(shape).__name__}")


def bounding_radius(shape: Shape) -> float:
    """Radius of a sphere about the local origin enclosing the shape (inf for an infinite plane)."""
    if isinstance(shape, Box):
        return 0.5 * float(np.linalg.norm(shape.size))
    if isinstance(shape, Sphere):
        return float(shape.radius)
    if isinstance(shape, Capsule):
        return shape.height / 2 + max(shape.radius_bottom, shape.radius_top)
    if isinstance(shape, Cylinder):
        return float(np.hypot(shape.height / 2, max(shape.radius_bottom, shape.radius_top)))
    if isinstance(shape, Plane):
        return float(np.hypot(shape.size_x, shape.size_z) / 2) if shape.finite else np.inf
    if isinstance(shape, Mesh):
        return float(np.linalg.norm(shape.vertices, axis=1).max()) if len(shape.vertices) else 0.0
    raise bad_shape(f"unknown shape {type(shape).__name__}")
