"""Mass properties as Blender's Bullet simulates them → ``motion.centerOfMass`` / ``inertiaDiagonal`` (bpy-free).

Blender builds one Bullet collision shape per rigid body from the object's local bounds (``rigidbody.cc``) and lets
Bullet derive the inertia with ``btCollisionShape::calculateLocalInertia``; the centre of mass is always the object
origin. An engine reading a glTF file without ``centerOfMass`` / ``inertiaDiagonal`` computes both from the shapes
instead (the exact solid), so the exporter writes Bullet's values where the two differ (docs/export.md, "Mass
properties"). Each formula names the Bullet source it follows (bulletphysics/bullet3,
``src/BulletCollision/CollisionShapes/``, as bundled in Blender's ``extern/bullet2``):

* BOX — ``btBoxShape.h``: exact solid box of the full extents (Blender's margin is embedded in the box).
* SPHERE — ``btSphereShape.cpp``: exact, 2/5·m·r², r = half the largest extent.
* CYLINDER — ``btCylinderShape.cpp`` (Z axis): exact, Izz = m·r²/2, Ixx = Iyy = m·h²/12 + m·r²/4.
* CAPSULE — ``btCapsuleShape.cpp``: the box around the two spheres, (2r, 2r, max(h, 2r)).
* CONE — ``btConeShape.h``: the box of its AABB, centred on the origin (the cone sits at the centre of its bounds);
  the AABB reaches 2 collision margins beyond the cone (Blender always uses the object's margin for cones).
* CONVEX_HULL — ``btPolyhedralConvexShape.cpp``: the box of the hull's AABB. Blender shrinks the hull by its
  default margin and Bullet adds it back (the box of the mesh bounds); with "Collision Margin" enabled the hull is
  not shrunk and the box reaches one margin beyond the bounds.
* MESH (an active body is a GImpact mesh) — ``Gimpact/btGImpactShape.cpp`` (``CALC_EXACT_INERTIA``): the mass split
  equally over the mesh vertices as point masses about the origin.
* COMPOUND — ``btCompoundShape.cpp``: the box of the compound's AABB (union of the children's AABBs in the parent
  frame, plus the compound's margin on each side); the children's own inertias are not used.

Margins as ``effective_margin`` gives them; every case was measured in Blender with a pendulum (the period of a
hinged body gives its inertia, ``tests/blender/exporter/test_export_mass.py``).

All values here are in Blender object axes (Z up); ``axes.scale_to_gltf`` turns a diagonal into glTF axes. Bullet's
local inertia is diagonal in the object's axes, so ``inertiaOrientation`` is never needed.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ...sim import mass as sim_mass
from ..gltf.numbers import r7
from ..gltf.transforms import matrix_to_quat
from .axes import scale_to_gltf

BLENDER_MARGIN = 0.04  # Blender's collision margin when "Collision Margin" is not enabled (RBO_GET_MARGIN)
CONE_MARGINS = 2  # a cone's AABB reaches 2 margins beyond the cone (btConvexInternalShape::getAabbSlow)
EXACT_INERTIA = ("BOX", "SPHERE", "CYLINDER")  # Bullet's inertia equals the exact solid's (an engine's)
_SHAPE_TO_BLENDER = np.array([[1.0, 0.0, 0.0], [0.0, 0.0, -1.0], [0.0, 1.0, 0.0]])  # shape +Y → Blender +Z
CENTRED = ("BOX", "SPHERE", "CAPSULE", "CYLINDER")  # exported shapes whose own centre of mass is the origin
MARGINED_SHAPES = frozenset(("CONE", "CONVEX_HULL", "COMPOUND"))  # the shapes whose ``effective_margin`` can be > 0


def in_compound(ob) -> bool:
    """Is ``ob`` (a Blender object, duck-typed) one shape of a COMPOUND body, i.e. its parent is one?"""
    parent = ob.parent
    prb = None if parent is None else parent.rigid_body
    return prb is not None and prb.collision_shape == "COMPOUND"


def effective_margin(kind: str, use_margin: bool, collision_margin: float) -> float:
    """The margin that grows a shape's AABB beyond its bounds (``RBO_GET_MARGIN`` in Blender's
    ``BKE_rigidbody.h``): cones always use the object's margin, a hull only when "Collision Margin" is enabled (else it
    is embedded), a compound the object's margin or Blender's default; box, sphere, capsule, cylinder and mesh
    inertias do not depend on it."""
    if kind not in MARGINED_SHAPES:
        return 0.0
    if kind == "CONE":
        return float(collision_margin)
    if kind == "CONVEX_HULL":
        return float(collision_margin) if use_margin else 0.0
    return float(collision_margin) if use_margin else BLENDER_MARGIN  # COMPOUND


def box_inertia(mass: float, extents) -> np.ndarray:
    """Solid box of full ``extents`` (x, y, z): m/12·(y²+z², x²+z², x²+y²)."""
    x2, y2, z2 = (float(e) ** 2 for e in extents)
    return float(mass) / 12.0 * np.array([y2 + z2, x2 + z2, x2 + y2])


def primitive_half_extents(kind: str, lo, hi) -> np.ndarray:
    """Half extents of the primitive Blender builds from local bounds (``rigidbody.cc``: quadrics stand on local Z,
    radius = half the larger X/Y extent; sphere radius = half the largest extent)."""
    h = (np.asarray(hi, dtype=float) - np.asarray(lo, dtype=float)) / 2.0
    if kind == "SPHERE":
        return np.full(3, h.max())
    if kind in ("CAPSULE", "CYLINDER", "CONE"):
        r = max(h[0], h[1])
        return np.array([r, r, max(h[2], r) if kind == "CAPSULE" else h[2]])
    return h


def bullet_inertia(kind: str, mass: float, lo, hi, margin: float = 0.0, vertices=None) -> np.ndarray:
    """Bullet's local inertia diagonal (Blender axes) of one collision shape with local bounds ``lo``..``hi``
    (``margin``: ``effective_margin``; ``vertices``: the mesh's, for MESH)."""
    m = float(mass)
    h = primitive_half_extents(kind, lo, hi)
    if kind == "SPHERE":
        return np.full(3, 0.4 * m * h[0] ** 2)
    if kind == "CYLINDER":
        r2 = h[0] ** 2
        t1 = m * (2.0 * h[2]) ** 2 / 12.0 + m * r2 / 4.0
        return np.array([t1, t1, m * r2 / 2.0])
    if kind == "CONE":
        return box_inertia(m, 2.0 * (h + CONE_MARGINS * float(margin)))
    if kind == "MESH" and vertices is not None and len(vertices):
        v = np.asarray(vertices, dtype=float)
        sq = v * v
        return (
            m
            / len(v)
            * np.array([(sq[:, 1] + sq[:, 2]).sum(), (sq[:, 0] + sq[:, 2]).sum(), (sq[:, 0] + sq[:, 1]).sum()])
        )
    if kind == "CONVEX_HULL":
        return box_inertia(m, 2.0 * (h + float(margin)))
    return box_inertia(m, 2.0 * h)  # BOX, CAPSULE (and MESH without vertices)


@dataclass(frozen=True)
class Child:
    """One collision shape of a compound in the parent's frame: rotation (3×3) and translation (3,)."""

    kind: str
    lo: tuple
    hi: tuple
    rotation: np.ndarray
    translation: np.ndarray
    margin: float = 0.0  # effective_margin of the child


def child_aabb(child: Child) -> tuple[np.ndarray, np.ndarray]:
    """The child's AABB in the parent frame as Bullet's ``getAabb`` gives it (primitives centred on the child's
    origin, hull / mesh bounds where they are; a sphere's AABB does not turn with it; margins as in
    ``bullet_inertia``)."""
    if child.kind in ("CONVEX_HULL", "MESH"):
        lo, hi = np.asarray(child.lo, dtype=float), np.asarray(child.hi, dtype=float)
        centre, half = (lo + hi) / 2.0, (hi - lo) / 2.0
        if child.kind == "CONVEX_HULL":
            half = half + child.margin
    else:
        centre, half = np.zeros(3), primitive_half_extents(child.kind, child.lo, child.hi)
        if child.kind == "CONE":
            half = half + CONE_MARGINS * child.margin
    rot = np.asarray(child.rotation, dtype=float)
    extent = half if child.kind == "SPHERE" else np.abs(rot) @ half
    mid = rot @ centre + np.asarray(child.translation, dtype=float)
    return mid - extent, mid + extent


def compound_inertia(mass: float, children, margin: float = BLENDER_MARGIN) -> np.ndarray:
    """``btCompoundShape::calculateLocalInertia``: the box of the children's AABB grown by the compound margin."""
    boxes = [child_aabb(c) for c in children]
    lo = np.min([b[0] for b in boxes], axis=0) - float(margin)
    hi = np.max([b[1] for b in boxes], axis=0) + float(margin)
    return box_inertia(mass, hi - lo)


def point_symmetric(vertices, tol: float = 1e-6) -> bool:
    """Every vertex has its mirror image through the origin (then a hull's / closed mesh's centre of mass is 0)."""
    v = np.asarray(vertices, dtype=float)
    if not len(v):
        return False
    scale = max(float(np.abs(v).max()), 1.0)
    grid = np.round(v / (tol * scale)).astype(np.int64)  # round half to even: the mirror of -p is exactly -grid
    keys = set(map(tuple, grid.tolist()))
    return all(key in keys for key in map(tuple, (-grid).tolist()))


def _solid(kind: str, lo, hi) -> sim_mass.MassProperties | None:
    """The exact solid an engine computes for an exported primitive (Blender axes, unit density); None otherwise."""
    h = primitive_half_extents(kind, lo, hi)
    if kind == "BOX":
        return sim_mass.box(2.0 * h, 1.0)
    if kind == "SPHERE":
        return sim_mass.sphere(h[0], 1.0)
    if kind == "CYLINDER":
        mp = sim_mass.cylinder(2.0 * h[2], h[0], 1.0)
    elif kind == "CONE":
        mp = sim_mass.cone(2.0 * h[2], h[0], 1.0)
    elif kind == "CAPSULE":
        mp = sim_mass.capsule(max(2.0 * h[2] - 2.0 * h[0], 0.0), h[0], 1.0)
    else:
        return None
    rot = _SHAPE_TO_BLENDER
    com = rot @ mp.center_of_mass
    return sim_mass.MassProperties(mp.mass, com, rot @ mp.inertia @ rot.T)


def engine_com_at_origin(kind: str, lo, hi, vertices=None, children=None, tol: float = 1e-6) -> bool:
    """True when an engine computing the centre of mass from the exported shapes finds the object origin."""
    if kind in CENTRED:
        return True
    if kind == "CONE":
        return primitive_half_extents(kind, lo, hi)[2] <= tol
    if kind in ("CONVEX_HULL", "MESH"):
        return vertices is not None and point_symmetric(vertices, tol)
    if kind == "COMPOUND" and children:
        parts = []
        for c in children:
            solid = _solid(c.kind, c.lo, c.hi)
            if solid is None:
                return False
            parts.append(solid.transformed(translation=c.translation, rotation=_quat(c.rotation)))
        return bool(np.linalg.norm(sim_mass.combine(parts).center_of_mass) <= tol)
    return False


def _quat(rotation) -> np.ndarray:
    return matrix_to_quat(rotation)


def blender_mass_values(kind: str, mass: float, lo=None, hi=None, margin=0.0, vertices=None, children=None):
    """(``centerOfMass`` or None, ``inertiaDiagonal`` or None) in glTF axes, rounded with ``r7``, for a dynamic body
    with Blender collision shape ``kind`` (``margin``: ``effective_margin``; ``children``: ``Child`` list of a
    COMPOUND): the values Bullet simulates, written only where an engine computing them from the exported shapes would
    get something else."""
    com = None if engine_com_at_origin(kind, lo, hi, vertices, children) else (0.0, 0.0, 0.0)
    if kind in EXACT_INERTIA:
        return com, None
    if kind == "COMPOUND":
        if not children:
            return com, None
        diagonal = compound_inertia(mass, children, margin)
    else:
        diagonal = bullet_inertia(kind, mass, lo, hi, margin, vertices)
    return com, tuple(r7(v) for v in scale_to_gltf(diagonal))
