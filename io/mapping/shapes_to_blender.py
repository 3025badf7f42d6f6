"""Collision-proxy geometry for implicit shapes, in Blender's local frame (bpy-free, numpy + stdlib).

glTF shapes are along local +Y; Blender's rigid-body primitives are along local +Z. The glTF importer maps node axes
(x, y, z)glTF → (x, −z, y)Blender (``axes``), so a shape's proxy mesh is built directly in Blender local axes: box size
(sx, sy, sz) → extents (sx, sz, sy); capsule/cylinder axis → +Z (radiusTop at +Z); plane normal +Y → +Z.

Blender derives primitive sizes from the mesh bounds centred on the object origin, so every generated mesh has
bounds equal to the primitive's and is centred. Shapes Blender has no primitive for (tapered capsule, frustum,
inverted cone, round shapes under non-uniform scale) become CONVEX_HULL meshes; planes become a MESH quad.
"""

from __future__ import annotations

import array
import functools
import itertools
import math
from dataclasses import dataclass, field

import numpy as np

from ...sim import mass as sim_mass
from ..gltf.model import (
    BOX,
    CAPSULE,
    CYLINDER,
    PARAM_KEYS,
    PLANE,
    SPHERE,
    BoxShape,
    CapsuleShape,
    CylinderShape,
    PlaneShape,
    Shape,
    SphereShape,
)
from ..gltf.read.common import FLOAT32_MAX
from .axes import scale_to_blender
from .values_to_gltf import BLENDER_PRIMITIVES

SEGMENTS = 32  # multiple of 4: the ±X and ±Y extremes are vertices, so bounds are exact
SPHERE_RINGS = 16  # even: the equator is a ring
CAP_RINGS = 8
INFINITE_PLANE_SIZE = 2000.0  # metres; an absent plane size (infinite) becomes this quad
UNIFORM_TOL = 1e-6


MAX_SINGLE_MAP_FACES = 999  # Blender numbers the edges of larger meshes per thread (see ``FaceLayout``)


@dataclass(frozen=True)
class FaceLayout:
    """Faces of a proxy mesh and the buffers Blender's mesh attributes take: ``loop_start`` per face,
    ``corner_vert`` and ``corner_edge`` per corner, ``edge_verts`` (two per edge) and one ``True`` per face (the
    ``sharp_face`` of a flat-shaded mesh): built once per process per layout and shared, never written to.

    The edges are numbered as ``Mesh.update(calc_edges=True)`` numbers them (``mesh_calc_edges``: each face's corners
    in turn, the edge from the previous corner, numbered when first met; corner i's edge runs to corner i + 1), so a
    proxy written with them is the mesh ``from_pydata`` + ``update`` builds, without Blender's edge hashing (most of
    a sphere proxy's creation). Blender numbers meshes of 1,000 faces or more per thread's hash map: every proxy
    layout has fewer (``MAX_SINGLE_MAP_FACES``; tests compare with ``from_pydata`` on each Blender).
    """

    faces: tuple[tuple[int, ...], ...]
    loop_starts: array.array
    corner_verts: array.array
    corner_edges: array.array
    edge_verts: array.array
    face_flags: memoryview

    @classmethod
    def of(cls, faces) -> FaceLayout:
        faces = tuple(tuple(face) for face in faces)
        starts = array.array("i", itertools.accumulate([len(face) for face in faces[:-1]], initial=0))
        edges: dict[tuple[int, int], int] = {}
        corner_edges = array.array("i")
        for face in faces:
            numbers = [
                edges.setdefault((a, b) if a < b else (b, a), len(edges))
                for a, b in zip(face[-1:] + face[:-1], face, strict=True)
            ]
            corner_edges.extend(numbers[1:] + numbers[:1])
        return cls(
            faces,
            starts if faces else array.array("i"),
            array.array("i", itertools.chain(*faces)),
            corner_edges,
            array.array("i", itertools.chain.from_iterable(edges)),
            memoryview(b"\x01" * len(faces)).cast("?"),
        )


@dataclass
class ShapeMesh:
    """Vertices/faces in Blender local space, the Blender collision shape, volume (m³, None = no volume);
    ``layout``: the cached ``FaceLayout`` of ``faces`` when the builder has one (None: built from ``faces``).
    ``vertices``: (x, y, z) rows: an (n, 3) float64 array for surfaces of revolution (built in a few numpy
    operations, handed to Blender as one buffer), a list of tuples for boxes and planes (a handful of corners)."""

    collision_shape: str
    vertices: list[tuple[float, float, float]] | np.ndarray
    faces: list[tuple[int, ...]]
    volume: float | None
    notes: list[str] = field(default_factory=list)
    layout: FaceLayout | None = None
    box: tuple[tuple, tuple] | None = None  # the vertices' (min, max) per axis, from the builder (exact)

    def bounds(self) -> tuple[np.ndarray, np.ndarray]:
        """Per-axis minimum and maximum of the vertices (``box`` when the builder knows it, else Python ``min`` /
        ``max`` of each axis: a few hundred tuples cost less than one conversion to a numpy array)."""
        if self.box is not None:
            return np.array(self.box[0], dtype=float), np.array(self.box[1], dtype=float)
        axes = list(zip(*self.vertices, strict=True))
        return np.array([min(a) for a in axes], dtype=float), np.array([max(a) for a in axes], dtype=float)


# --- JSON of a shape (kept on the object for export) ------------------------------------------------------------


def shape_to_json(shape: Shape) -> dict:
    """The shape in KHR_implicit_shapes form (glTF frame), every parameter explicit."""
    out: dict = {"type": shape.type}
    params = shape.params
    keys = PARAM_KEYS.get(shape.type)
    if params is not None and keys is not None:
        sub = {}
        for attr, key in keys.items():
            value = getattr(params, attr, None)
            if value is None:
                continue
            sub[key] = list(value) if isinstance(value, tuple) else value
        out[shape.type] = sub
    if shape.name is not None:
        out["name"] = shape.name
    return out


# --- mesh builders -----------------------------------------------------------------------------------------------


@functools.lru_cache(maxsize=8)
def _ring_directions(segments: int) -> tuple[tuple[float, float], ...]:
    """(cos a, sin a) of the ``segments`` angles of a ring, a = 2πk / segments (the same floats for every ring)."""
    return tuple((math.cos(a), math.sin(a)) for a in (2.0 * math.pi * k / segments for k in range(segments)))


def _revolve_parts(profile: list[tuple[float, float]], segments: int = SEGMENTS) -> tuple[np.ndarray, FaceLayout]:
    """Surface of revolution about +Z of a (radius, z) profile from bottom to top; radius 0 = pole vertex.

    The vertices as an (n, 3) float64 array: a ring vertex is (ρ·cos a, ρ·sin a, z), a pole (0, 0, z); numpy's
    products are Python's (one IEEE multiplication each), gathered by the layout's cached per-vertex indices
    (``_revolve_gather``) instead of one tuple per vertex."""
    radii: list[float] = []  # per kept profile point (0.0 for a pole: its x and y are 0.0 · 0.0)
    heights: list[float] = []
    kinds: list[bool] = []  # per kept profile point: True = pole vertex, False = ring of ``segments`` vertices
    last_pole_z: float | None = None
    for rho, z in profile:
        z = float(z)
        if rho <= 1e-12:
            if kinds and kinds[-1] and abs(last_pole_z - z) < 1e-12:
                continue
            radii.append(0.0)
            kinds.append(True)
            last_pole_z = z
        else:
            radii.append(rho)
            kinds.append(False)
        heights.append(z)
    kinds_key = tuple(kinds)
    point, directions = _revolve_gather(kinds_key, segments)
    verts = np.empty((len(point), 3))
    np.multiply(np.array(radii, dtype=float)[point, None], directions, out=verts[:, :2])
    verts[:, 2] = np.array(heights, dtype=float)[point]
    return verts, _revolve_layout(kinds_key, segments)


@functools.lru_cache(maxsize=64)
def _revolve_gather(kinds: tuple[bool, ...], segments: int) -> tuple[np.ndarray, np.ndarray]:
    """Per vertex of ``_revolve_parts``' layout: the index of its profile point and its (cos a, sin a) direction
    ((0, 0) for a pole). Read-only, built once per process per layout."""
    ring = np.array(_ring_directions(segments), dtype=float).reshape(-1, 2)
    point = np.repeat(np.arange(len(kinds)), [1 if pole else segments for pole in kinds]).astype(np.intp)
    rows = [np.zeros((1, 2)) if pole else ring for pole in kinds]
    directions = np.concatenate(rows) if rows else np.zeros((0, 2))
    point.setflags(write=False)
    directions.setflags(write=False)
    return point, directions


def _revolve(profile: list[tuple[float, float]], segments: int = SEGMENTS):
    """(vertices as tuples, faces) of ``_revolve_parts``."""
    verts, layout = _revolve_parts(profile, segments)
    return list(map(tuple, verts.tolist())), list(layout.faces)


@functools.lru_cache(maxsize=64)
def _revolve_layout(kinds: tuple[bool, ...], segments: int) -> FaceLayout:
    """Faces of ``_revolve`` for a sequence of poles (True) and rings (False): they depend on nothing else, so each
    layout is built once per process (immutable; a proxy mesh of the same layout gets a list copy)."""
    rings: list[list[int] | int] = []
    start = 0
    for pole in kinds:
        if pole:
            rings.append(start)
            start += 1
        else:
            rings.append(list(range(start, start + segments)))
            start += segments
    faces: list[tuple[int, ...]] = []
    nxt = [*range(1, segments), 0]
    for lower, upper in itertools.pairwise(rings):
        low_pole, up_pole = isinstance(lower, int), isinstance(upper, int)
        if low_pole and up_pole:
            continue
        if low_pole:
            faces.extend([(lower, upper[k1], upper[k]) for k, k1 in enumerate(nxt)])
        elif up_pole:
            faces.extend([(lower[k], lower[k1], upper) for k, k1 in enumerate(nxt)])
        else:
            faces.extend([(lower[k], lower[k1], upper[k1], upper[k]) for k, k1 in enumerate(nxt)])
    return FaceLayout.of(faces)


def box_mesh(ex: float, ey: float, ez: float):
    hx, hy, hz = ex / 2, ey / 2, ez / 2
    verts = [(sx * hx, sy * hy, sz * hz) for sz in (-1, 1) for sy in (-1, 1) for sx in (-1, 1)]
    return verts, list(_BOX.faces)


_NONE = FaceLayout.of([])  # an outline's (no faces)
_NO_POINTS = np.zeros((0, 3))  # an outline's vertices (never written to)
_NO_POINTS.setflags(write=False)
_BOX = FaceLayout.of([(0, 2, 3, 1), (4, 5, 7, 6), (0, 1, 5, 4), (2, 6, 7, 3), (0, 4, 6, 2), (1, 3, 7, 5)])
_PLANE = FaceLayout.of([(0, 1, 2, 3)])


def sphere_profile(radius: float, rings: int = SPHERE_RINGS) -> list[tuple[float, float]]:
    return [(radius * c, radius * s) for c, s in _latitudes(rings)]


@functools.lru_cache(maxsize=8)
def _latitudes(rings: int) -> tuple[tuple[float, float], ...]:
    """(cos a, sin a) of the ``rings + 1`` latitudes a from −π/2 to π/2 of a sphere profile (once per process)."""
    return tuple((math.cos(a), math.sin(a)) for a in np.linspace(-math.pi / 2, math.pi / 2, rings + 1).tolist())


def capsule_profile(height: float, r_bottom: float, r_top: float) -> list[tuple[float, float]]:
    """Hull of two spheres (centres ∓h/2): both touch the tangent cone at latitude asin((rb − rt)/h)."""
    h = max(float(height), 0.0)
    if h <= abs(r_bottom - r_top):  # degenerate: the larger sphere contains the other
        r = max(r_bottom, r_top)
        c = -h / 2 if r_bottom >= r_top else h / 2
        return [(rho, z + c) for rho, z in sphere_profile(r)]
    tangent = math.asin((r_bottom - r_top) / h) if h > 0 else 0.0
    low = np.linspace(-math.pi / 2, tangent, CAP_RINGS + 1).tolist()
    high = np.linspace(tangent, math.pi / 2, CAP_RINGS + 1).tolist()[1:]
    # the larger sphere's equator is on the hull: keep it as a ring so the bounds are exact (sorted, unique values:
    # np.union1d's result; no −0.0 arises: k·step + start is +0.0 when it rounds to zero)
    low = sorted({*low, 0.0}) if tangent > 0 else low
    high = sorted({*high, 0.0}) if tangent < 0 else high
    profile = [(r_bottom * math.cos(a), -h / 2 + r_bottom * math.sin(a)) for a in low]
    profile += [(r_top * math.cos(a), h / 2 + r_top * math.sin(a)) for a in high]
    return profile


def _revolve_box(profile: list[tuple[float, float]], scale) -> tuple[tuple, tuple]:
    """The exact (min, max) of ``_scaled(_revolve_parts(profile)[0], scale)`` (``scale`` ≥ 0) without building it:
    every ring holds the directions (±1, 0) and (0, ±1) exactly (``SEGMENTS`` a multiple of 4), no |cos| or |sin|
    exceeds 1, and poles sit at x = y = 0."""
    sx, sy, sz = scale
    rings, zs, pole_z = [], [], None  # the points ``_revolve_parts`` keeps (a pole right after an equal one is not)
    for rho, z in profile:
        z = float(z)
        if not rho <= 1e-12:  # as ``_revolve_parts`` decides (NaN: a ring)
            rings.append(rho)
            pole_z = None
        elif pole_z is not None and abs(pole_z - z) < 1e-12:
            continue
        else:
            pole_z = z
        zs.append(z)
    r = max(rings, default=0.0)
    low, high = (-r * sx, -r * sy) if rings else (0.0, 0.0), (r * sx, r * sy) if rings else (0.0, 0.0)
    if len(rings) < len(zs):  # a pole: the axis itself
        low, high = (min(low[0], 0.0), min(low[1], 0.0)), (max(high[0], 0.0), max(high[1], 0.0))
    return (*low, min(zs) * sz), (*high, max(zs) * sz)


def _scanned_box(verts) -> tuple[tuple, tuple]:
    axes = list(zip(*verts, strict=True))
    return tuple(min(a) for a in axes), tuple(max(a) for a in axes)


def _scaled(verts, scale):
    """``verts`` (a list of tuples or an (n, 3) array: the same kind back) times ``scale`` per axis."""
    sx, sy, sz = scale
    if sx == sy == sz == 1.0:  # x * 1.0 is x (the vertices are floats): no copy (most proxies are unscaled)
        return verts
    if isinstance(verts, np.ndarray):
        return verts * np.array((sx, sy, sz), dtype=float)
    return [(x * sx, y * sy, z * sz) for x, y, z in verts]


def _uniform(values) -> bool:
    values = [abs(v) for v in values]
    return max(values) - min(values) <= UNIFORM_TOL * max(max(values), 1.0)


def _mass_volume(mass_properties, *params: float) -> float | None:
    """The volume ``sim.mass``'s ``mass_properties(*params)`` gives; None for parameters it cannot take (a frustum
    with both radii zero divides by zero)."""
    try:
        return float(mass_properties(*params).mass) / sim_mass.DEFAULT_DENSITY
    except (ArithmeticError, ValueError):  # degenerate shape parameters
        return None


def half_extent(shape: Shape) -> float | None:
    """The largest distance of the shape's proxy vertices from its centre along one axis (None: not an implicit
    shape with parameters)."""
    params = shape.params
    if shape.type == BOX and isinstance(params, BoxShape):
        return max(map(abs, params.size)) / 2
    if shape.type == SPHERE and isinstance(params, SphereShape):
        return abs(params.radius)
    if shape.type in (CAPSULE, CYLINDER) and isinstance(params, CapsuleShape | CylinderShape):
        radius = max(abs(params.radius_bottom), abs(params.radius_top))
        return abs(params.height) / 2 + radius  # a capsule's tip; a cylinder's is at most this
    if shape.type == PLANE and isinstance(params, PlaneShape):
        sizes = [INFINITE_PLANE_SIZE if s is None else abs(s) for s in (params.size_x, params.size_z)]
        return max(sizes) / 2
    return None


def fits_blender(shape: Shape, scale=(1.0, 1.0, 1.0)) -> bool:
    """Do the shape's proxy vertices at ``scale`` (its largest parameter at the largest scale, a bound) fit the
    32-bit floats Blender holds them in? Beyond them a proxy cannot be built (nor its volume computed)."""
    extent = half_extent(shape)
    if extent is None:
        return True
    return extent * max(abs(float(s)) for s in scale) <= FLOAT32_MAX  # False for inf and NaN too


def implicit_mesh(
    shape: Shape, bake_scale=(1.0, 1.0, 1.0), object_scale=(1.0, 1.0, 1.0), outline: bool = False
) -> ShapeMesh | None:
    """Proxy mesh of an implicit shape with ``bake_scale`` (Blender axes, |s| applied) baked into the vertices.
    ``outline``: no vertices or faces, only the kind, volume, notes and ``box`` (enough to check a render mesh
    against the shape, ``derived_primitive_matches``; a round shape's rings are not built).

    ``object_scale`` is the (absolute, Blender-axes) world scale the object will still apply; it only decides
    whether a round shape stays a Blender primitive (uniform total scale) or becomes a convex hull.
    None for mesh shapes and unknown shape types.
    """
    params = shape.params
    bake = tuple(abs(float(s)) for s in bake_scale)
    total = tuple(b * abs(float(o)) for b, o in zip(bake, object_scale, strict=True))
    if not fits_blender(shape, total):  # the importer warns first (``importer.geometry.resolve``): never built
        return None
    det = bake[0] * bake[1] * bake[2]
    notes: list[str] = []
    if shape.type == BOX and isinstance(params, BoxShape):
        sx, sy, sz = params.size
        verts, faces = box_mesh(*scale_to_blender(params.size))
        verts = _scaled(verts, bake)
        return ShapeMesh("BOX", verts, faces, abs(sx * sy * sz) * det, layout=_BOX, box=_scanned_box(verts))
    if shape.type == SPHERE and isinstance(params, SphereShape):
        r = params.radius
        profile = sphere_profile(r)
        verts, layout = _revolve_parts(profile) if not outline else (_NO_POINTS, _NONE)
        kind = "SPHERE" if _uniform(total) else "CONVEX_HULL"
        if kind == "CONVEX_HULL":
            notes.append("sphere under non-uniform scale: convex hull of the scaled sphere")
        volume = _mass_volume(sim_mass.sphere, r)
        volume = None if volume is None else volume * det
        return ShapeMesh(
            kind, _scaled(verts, bake), list(layout.faces), volume, notes, layout, _revolve_box(profile, bake)
        )
    if shape.type == CAPSULE and isinstance(params, CapsuleShape):
        h, rb, rt = params.height, params.radius_bottom, params.radius_top
        profile = capsule_profile(h, rb, rt)
        verts, layout = _revolve_parts(profile) if not outline else (_NO_POINTS, _NONE)
        equal = abs(rb - rt) <= 1e-9 * max(rb, rt, 1.0)
        kind = "CAPSULE" if equal and _uniform(total) else "CONVEX_HULL"
        if not equal:
            notes.append("tapered capsule: convex hull mesh")
            volume = _mass_volume(sim_mass.tapered_capsule, h, rb, rt)
        else:
            volume = _mass_volume(sim_mass.capsule, h, rb)
            if kind == "CONVEX_HULL":
                notes.append("capsule under non-uniform scale: convex hull of the scaled capsule")
        volume = None if volume is None else volume * det
        return ShapeMesh(
            kind, _scaled(verts, bake), list(layout.faces), volume, notes, layout, _revolve_box(profile, bake)
        )
    if shape.type == CYLINDER and isinstance(params, CylinderShape):
        h, rb, rt = params.height, params.radius_bottom, params.radius_top
        profile = [(0.0, -h / 2), (rb, -h / 2), (rt, h / 2), (0.0, h / 2)]
        verts, layout = _revolve_parts(profile) if not outline else (_NO_POINTS, _NONE)
        radial_uniform = _uniform(total[:2])
        if abs(rb - rt) <= 1e-9 * max(rb, rt, 1.0) and radial_uniform:
            kind = "CYLINDER"
        elif rt <= 0.0 < rb and radial_uniform:
            kind = "CONE"  # Blender's cone: apex at +Z, centred at mid-height (= KHR radiusTop 0)
        else:
            kind = "CONVEX_HULL"
            notes.append("frustum, inverted cone or non-uniform radial scale: convex hull mesh")
        volume = _mass_volume(sim_mass.frustum, h, rb, rt)
        volume = None if volume is None else volume * det
        return ShapeMesh(
            kind, _scaled(verts, bake), list(layout.faces), volume, notes, layout, _revolve_box(profile, bake)
        )
    if shape.type == PLANE and isinstance(params, PlaneShape):
        size_x = params.size_x if params.size_x is not None else INFINITE_PLANE_SIZE
        size_z = params.size_z if params.size_z is not None else INFINITE_PLANE_SIZE
        if params.size_x is None or params.size_z is None:
            notes.append(f"infinite plane: {INFINITE_PLANE_SIZE:g} m quad")
        if not params.double_sided:
            notes.append("one-sided plane: Blender's triangle mesh collides on both sides")
        hx, hy = size_x / 2, size_z / 2
        verts = _scaled([(-hx, -hy, 0.0), (hx, -hy, 0.0), (hx, hy, 0.0), (-hx, hy, 0.0)], bake)
        return ShapeMesh("MESH", verts, list(_PLANE.faces), None, notes, _PLANE, _scanned_box(verts))
    return None


def derived_primitive_matches(mesh: ShapeMesh, bounds_min, bounds_max, rel_tol: float = 1e-3) -> bool:
    """Would Blender derive the same primitive from a render mesh with these local bounds?

    True only for Blender primitives (BOX, SPHERE, CAPSULE, CYLINDER, CONE): their size comes from the bounds,
    which must be centred and equal to the proxy's bounds.
    """
    if mesh.collision_shape not in BLENDER_PRIMITIVES:
        return False
    lo, hi = mesh.box if mesh.box is not None else mesh.bounds()
    extent = [float(h) - float(v) for v, h in zip(lo, hi, strict=True)]
    if any(e != e for e in extent):  # NaN: never a match
        return False
    tol = rel_tol * max(*extent, 1e-6)
    pairs = [*zip(lo, bounds_min, strict=True), *zip(hi, bounds_max, strict=True)]
    return all(abs(float(a) - float(b)) <= tol for a, b in pairs)  # False for NaN bounds too
