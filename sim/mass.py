"""Mass properties of solid shapes and compounds (pure numpy; spec digest §9).

Conventions: SI units (kg, m, kg·m²), uniform density (default ``DEFAULT_DENSITY`` = 1000 kg/m³, water — the density
we assume when a KHR file omits ``mass``), shape space with the capsule/cylinder axis +Y and ``radius_bottom`` at −Y.
``MassProperties.inertia`` is the 3×3 tensor about the centre of mass, in shape (or compound) space.

Planes have no mass (an infinite plane has infinite/undefined mass; a finite one has zero volume):
``shape_mass_properties`` returns ``None`` for them and compounds skip ``None`` parts.

Internally the second moment ``C = ∫ρ x xᵀ dV`` (about the COM) is used because it transforms simply under any
linear map ``A``: ``C' = |det A| · A C Aᵀ`` at constant density; the inertia is ``I = tr(C)·E − C``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

import numpy as np

from ..io.gltf.transforms import quat_to_matrix
from .shapes import Box, Capsule, Cylinder, Mesh, Plane, Shape, Sphere, bad_shape, capsule_side, validate

DEFAULT_DENSITY = 1000.0
_GAUSS_X, _GAUSS_W = np.polynomial.legendre.leggauss(8)  # exact for polynomials up to degree 15


@dataclass(frozen=True, eq=False)
class MassProperties:
    """Mass (kg), centre of mass (3,) and inertia tensor about the COM (3, 3)."""

    mass: float
    center_of_mass: np.ndarray
    inertia: np.ndarray

    @property
    def second_moment(self) -> np.ndarray:
        """``C = ∫ρ (x−c)(x−c)ᵀ dV`` about the COM (the inverse of ``I = tr(C)E − C``)."""
        return 0.5 * np.trace(self.inertia) * np.eye(3) - self.inertia

    @classmethod
    def from_second_moment(cls, mass: float, com: np.ndarray, c: np.ndarray) -> MassProperties:
        c = 0.5 * (c + c.T)
        return cls(float(mass), np.asarray(com, dtype=float), np.trace(c) * np.eye(3) - c)

    def transformed(self, translation=None, rotation=None, scale=None) -> MassProperties:
        """The body moved by ``x' = R·diag(scale)·x + t`` (rotation xyzw); density is kept, so scale changes mass."""
        a = quat_to_matrix(rotation) if rotation is not None else np.eye(3)
        if scale is not None:
            a = a @ np.diag(np.asarray(scale, dtype=float))
        det = abs(float(np.linalg.det(a)))
        t = np.zeros(3) if translation is None else np.asarray(translation, dtype=float)
        return MassProperties.from_second_moment(
            self.mass * det, a @ self.center_of_mass + t, det * (a @ self.second_moment @ a.T)
        )

    def with_mass(self, mass: float) -> MassProperties:
        """Same shape with the density scaled so that the total mass is ``mass``."""
        if not self.mass > 0:
            raise bad_shape("cannot rescale a body without volume to a given mass")
        k = float(mass) / self.mass
        return MassProperties(float(mass), self.center_of_mass.copy(), self.inertia * k)

    def __add__(self, other: MassProperties) -> MassProperties:
        return combine([self, other])


def combine(parts: Iterable[MassProperties | None]) -> MassProperties:
    """Sum of bodies in one frame (parallel-axis theorem); ``None`` parts (planes) are skipped."""
    parts = [p for p in parts if p is not None]
    if not parts:
        raise bad_shape("a compound needs at least one part with mass")
    masses = np.array([p.mass for p in parts])
    coms = np.array([p.center_of_mass for p in parts])
    total = float(masses.sum())
    com = (masses @ coms) / total if total > 0 else np.zeros(3)
    rel = coms - com
    c = sum(p.second_moment for p in parts) + np.einsum("k,ki,kj->ij", masses, rel, rel)
    return MassProperties.from_second_moment(total, com, c)


def compound(children: Sequence[tuple], density: float = DEFAULT_DENSITY, mass: float | None = None):
    """Mass properties of child shapes ``(shape, translation, rotation_xyzw[, scale])`` in the parent frame.

    With ``mass`` the common density is scaled so that the total equals ``mass``.
    """
    parts = []
    for child in children:
        shape, translation, rotation, *rest = child
        mp = shape_mass_properties(shape, density)
        if mp is not None:
            parts.append(mp.transformed(translation, rotation, rest[0] if rest else None))
    total = combine(parts)
    return total.with_mass(mass) if mass is not None else total


def _diag(mass: float, com_y: float, ixx: float, iyy: float, izz: float) -> MassProperties:
    return MassProperties(float(mass), np.array([0.0, com_y, 0.0]), np.diag([ixx, iyy, izz]).astype(float))


def box(size: Sequence[float], density: float = DEFAULT_DENSITY) -> MassProperties:
    a, b, c = (float(s) for s in size)
    m = density * a * b * c
    return _diag(m, 0.0, m * (b * b + c * c) / 12, m * (a * a + c * c) / 12, m * (a * a + b * b) / 12)


def sphere(radius: float, density: float = DEFAULT_DENSITY) -> MassProperties:
    m = density * 4.0 / 3.0 * np.pi * radius**3
    i = 0.4 * m * radius * radius
    return _diag(m, 0.0, i, i, i)


def frustum(height: float, radius_bottom: float, radius_top: float, density: float = DEFAULT_DENSITY):
    """Cylinder, cone or frustum (closed form, §9); centred at mid-height, COM below 0 when the bottom is wider."""
    h, r1, r2 = float(height), float(radius_bottom), float(radius_top)
    q = r1 * r1 + r1 * r2 + r2 * r2
    m = density * np.pi * h * q / 3.0
    iyy = 0.3 * m * (r1**4 + r1**3 * r2 + r1**2 * r2**2 + r1 * r2**3 + r2**4) / q
    poly4 = r1**4 + 4 * r1**3 * r2 + 10 * r1**2 * r2**2 + 4 * r1 * r2**3 + r2**4
    poly6 = r1**6 + 2 * r1**5 * r2 + 3 * r1**4 * r2**2 + 3 * r1**3 * r2**3 + 3 * r1**2 * r2**4 + 2 * r1 * r2**5 + r2**6
    ixx = 3.0 * m / 80.0 * (h * h * poly4 + 4.0 * poly6) / (q * q)
    com_y = -h * (r1 * r1 - r2 * r2) / (4.0 * q)
    return _diag(m, com_y, ixx, iyy, ixx)


def cylinder(height: float, radius: float, density: float = DEFAULT_DENSITY) -> MassProperties:
    return frustum(height, radius, radius, density)


def cone(height: float, radius_bottom: float, density: float = DEFAULT_DENSITY) -> MassProperties:
    """Cone with its base (``radius_bottom``) at −height/2 and apex at +height/2."""
    return frustum(height, radius_bottom, 0.0, density)


def capsule(height: float, radius: float, density: float = DEFAULT_DENSITY) -> MassProperties:
    """Equal-radius capsule, closed form (§9): cylinder plus two hemispheres."""
    h, r = float(height), float(radius)
    m = density * np.pi * r * r * (h + 4.0 * r / 3.0)
    iyy = density * np.pi * r**4 * (15 * h + 16 * r) / 30.0
    ixx = density * np.pi * r * r * (5 * h**3 + 20 * h * h * r + 45 * h * r * r + 32 * r**3) / 60.0
    return _diag(m, 0.0, ixx, iyy, ixx)


Profile = Callable[[np.ndarray], np.ndarray]


def revolution(pieces: Iterable[tuple[float, float, Profile]], density: float = DEFAULT_DENSITY):
    """Solid of revolution about Y from pieces ``(y0, y1, r²(y))``, by Gauss–Legendre quadrature along Y.

    Eight nodes per piece integrate polynomials up to degree 15 exactly, so sphere caps and cone sections
    (r² of degree ≤ 2, integrands of degree ≤ 6) come out exact to rounding.
    """
    m = my = iyy = ixx0 = 0.0
    for y0, y1, r2_of in pieces:
        if y1 <= y0:
            continue
        half = 0.5 * (y1 - y0)
        y = 0.5 * (y0 + y1) + half * _GAUSS_X
        w = _GAUSS_W * half
        r2 = np.maximum(r2_of(y), 0.0)
        m += np.pi * w @ r2
        my += np.pi * w @ (r2 * y)
        iyy += 0.5 * np.pi * w @ (r2 * r2)
        ixx0 += np.pi * w @ (0.25 * r2 * r2 + r2 * y * y)
    m, my, iyy, ixx0 = (density * v for v in (m, my, iyy, ixx0))
    com_y = my / m
    ixx = ixx0 - m * com_y * com_y
    return _diag(m, com_y, ixx, iyy, ixx)


def tapered_capsule(height: float, radius_bottom: float, radius_top: float, density: float = DEFAULT_DENSITY):
    """Capsule with different radii: hull of two spheres, side = the cone tangent to both (exact quadrature)."""
    h, rb, rt = float(height), float(radius_bottom), float(radius_top)
    side = capsule_side(h, rb, rt)
    if side is None:  # one sphere contains the other: the larger sphere alone
        y, r = (-h / 2, rb) if rb >= rt else (h / 2, rt)
        return sphere(r, density).transformed(translation=(0.0, y, 0.0))
    span = side.y1 - side.y0
    slope = (side.rho1 - side.rho0) / span if span > 0 else 0.0
    pieces = [
        (-h / 2 - rb, side.y0, lambda y: rb * rb - (y + h / 2) ** 2),
        (side.y0, side.y1, lambda y: (side.rho0 + slope * (y - side.y0)) ** 2),
        (side.y1, h / 2 + rt, lambda y: rt * rt - (y - h / 2) ** 2),
    ]
    return revolution(pieces, density)


def convex_mesh(vertices: np.ndarray, triangles: np.ndarray, density: float = DEFAULT_DENSITY) -> MassProperties:
    """Exact polyhedral integration over signed tetrahedra (closed, consistently wound mesh; either winding).

    Each triangle (a, b, c) forms a tetrahedron with a reference point p (the vertex mean); the tetrahedron's
    second moment about p is ``V/20 · (Σ vᵢvᵢᵀ + s sᵀ)`` with s = a + b + c (relative to p). Vectorised over triangles.
    """
    v = np.asarray(vertices, dtype=float)
    t = np.asarray(triangles, dtype=np.int64)
    if len(t) == 0:
        raise bad_shape("mesh has no triangles")
    p = v.mean(axis=0)
    a, b, c = (v[t[:, k]] - p for k in range(3))
    vol = np.einsum("ij,ij->i", a, np.cross(b, c)) / 6.0
    total = vol.sum()
    if abs(total) <= 1e-15 * max(1.0, np.abs(v).max()) ** 3:
        raise bad_shape("mesh encloses no volume (open or flat)")
    sign = np.sign(total)
    s = a + b + c
    outer = (
        np.einsum("ni,nj->nij", a, a)
        + np.einsum("ni,nj->nij", b, b)
        + np.einsum("ni,nj->nij", c, c)
        + np.einsum("ni,nj->nij", s, s)
    )
    c_p = density * sign * np.einsum("n,nij->ij", vol, outer) / 20.0
    m = density * abs(total)
    com_rel = density * sign * (vol @ (s / 4.0)) / m
    c_com = c_p - m * np.outer(com_rel, com_rel)
    return MassProperties.from_second_moment(m, com_rel + p, c_com)


def shape_mass_properties(shape: Shape, density: float = DEFAULT_DENSITY) -> MassProperties | None:
    """Mass properties of any ``sim.shapes`` shape in its own space; ``None`` for planes (no finite mass)."""
    validate(shape)
    if isinstance(shape, Box):
        return box(shape.size, density)
    if isinstance(shape, Sphere):
        return sphere(shape.radius, density)
    if isinstance(shape, Cylinder):
        return frustum(shape.height, shape.radius_bottom, shape.radius_top, density)
    if isinstance(shape, Capsule):
        if shape.radius_bottom == shape.radius_top:
            return capsule(shape.height, shape.radius_bottom, density)
        return tapered_capsule(shape.height, shape.radius_bottom, shape.radius_top, density)
    if isinstance(shape, Plane):
        return None
    if isinstance(shape, Mesh):
        return convex_mesh(shape.vertices, shape.triangles, density)
    raise bad_shape(f"unknown shape {type(shape).__name__}")
