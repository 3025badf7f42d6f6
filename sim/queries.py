"""Scene queries: colliders in world space and the ``rigid_body/rayCast`` segment cast (KHR_interactivity).

Conventions: metres; a collider's world transform is ``x_world = position + R(rotation_xyzw)·diag(|scale|)·x_shape``
(negative scale = its absolute value, spec digest §6.10; any zero scale component disables the collider). Non-uniform
scale is applied exactly as an affine map, so a scaled sphere is an ellipsoid (the spec leaves this open).

Ray-cast semantics (``ray_cast``): the segment ``start → end``; a hit reports the collider's node, the fraction
t ∈ [0, 1] along the segment, the world point and the outward world normal. The nearest hit wins (ties: lower
node id). A segment that starts inside a solid shape hits it at fraction 0 with normal −direction. Planes and
triangle meshes are surfaces: one-sided planes are hit only from their front (+Y) side; mesh triangles are
double-sided with the normal turned towards the start. Triggers are skipped unless ``include_triggers``. A query
filter (the node's ``collisionFilterIndex``) must pass the two-way §6.5 rule against the collider's filter;
``None`` = no filtering.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from ..io.gltf.transforms import quat_to_matrix
from . import raycast
from .pairs import CollisionFilter, FilterTable
from .shapes import Box, Capsule, Cylinder, Mesh, Plane, Shape, Sphere, validate


@dataclass(frozen=True, eq=False)
class Collider:
    """A collider or trigger in world space.

    ``node`` is the glTF node of the shape; ``motion_node`` the node carrying the body's ``motion`` (−1 = static);
    ``trigger_node`` groups compound triggers (the node whose ``trigger.nodes`` lists this one; default ``node``).
    """

    node: int
    shape: Shape
    position: np.ndarray = field(default_factory=lambda: np.zeros(3))
    rotation: np.ndarray = field(default_factory=lambda: np.array([0.0, 0.0, 0.0, 1.0]))
    scale: np.ndarray = field(default_factory=lambda: np.ones(3))
    filter: CollisionFilter | None = None
    motion_node: int = -1
    is_trigger: bool = False
    trigger_node: int | None = None

    def __post_init__(self) -> None:
        validate(self.shape)
        for name in ("position", "rotation", "scale"):
            object.__setattr__(self, name, np.asarray(getattr(self, name), dtype=float).copy())

    @property
    def enabled(self) -> bool:
        return bool(np.all(self.scale != 0.0))

    @property
    def matrix(self) -> np.ndarray:
        """Rotation matrix (3, 3)."""
        return quat_to_matrix(self.rotation)

    @property
    def abs_scale(self) -> np.ndarray:
        return np.abs(self.scale)

    @property
    def group(self) -> int:
        return self.node if self.trigger_node is None else self.trigger_node

    def world_vertices(self) -> np.ndarray:
        """Mesh vertices in world space (meshes only)."""
        return self.shape.vertices * self.abs_scale @ self.matrix.T + self.position


@dataclass(frozen=True, eq=False)
class RayHit:
    node: int
    fraction: float
    point: np.ndarray
    normal: np.ndarray


def _kernel_args(shape: Shape) -> tuple:
    if isinstance(shape, Box):
        return (np.asarray(shape.size, dtype=float) / 2,)
    if isinstance(shape, Sphere):
        return (shape.radius,)
    if isinstance(shape, Capsule | Cylinder):
        return (shape.height, shape.radius_bottom, shape.radius_top)
    if isinstance(shape, Plane):
        inf = np.inf
        return (
            inf if shape.size_x is None else shape.size_x,
            inf if shape.size_z is None else shape.size_z,
            shape.double_sided,
        )
    raise TypeError(type(shape).__name__)


_KERNELS = {
    Box: raycast.box,
    Sphere: raycast.sphere,
    Capsule: raycast.capsule,
    Cylinder: raycast.cylinder,
    Plane: raycast.plane,
}


def _cast_implicit(group: list[Collider], start: np.ndarray, seg: np.ndarray):
    """Vectorised cast of one segment against colliders of one implicit shape type."""
    pos = np.array([c.position for c in group])
    rot = quat_to_matrix(np.array([c.rotation for c in group]))
    scl = np.abs(np.array([c.scale for c in group]))
    o = np.einsum("kji,kj->ki", rot, start - pos) / scl
    d = np.einsum("kji,j->ki", rot, seg) / scl
    args = [np.array(column) for column in zip(*(_kernel_args(c.shape) for c in group), strict=True)]
    t, n, inside = _KERNELS[type(group[0].shape)](o, d, *args)
    n = np.einsum("kij,kj->ki", rot, n / scl)
    n /= np.maximum(np.linalg.norm(n, axis=1, keepdims=True), 1e-300)
    length = np.linalg.norm(seg)
    back = -seg / length if length > 0 else np.zeros(3)
    t = np.where(inside, 0.0, t)
    n = np.where(inside[:, None], back, n)
    return t, n


def _cast_meshes(meshes: list[Collider], start: np.ndarray, seg: np.ndarray):
    """All triangles of all mesh colliders in one Möller–Trumbore call; per-collider nearest hit."""
    tris, owner = [], []
    for k, c in enumerate(meshes):
        v = c.world_vertices()
        tris.append(v[c.shape.triangles])
        owner.append(np.full(len(c.shape.triangles), k))
    tri = np.concatenate(tris) if tris else np.zeros((0, 3, 3))
    owner = np.concatenate(owner) if owner else np.zeros(0, dtype=int)
    t_all, n_all = raycast.triangles(start, seg, tri[:, 0], tri[:, 1], tri[:, 2])
    t = np.full(len(meshes), np.inf)
    n = np.zeros((len(meshes), 3))
    order = np.lexsort((t_all, owner))  # per owner, nearest first
    first = np.ones(len(order), dtype=bool)
    first[1:] = owner[order][1:] != owner[order][:-1]
    best = order[first]
    t[owner[best]] = t_all[best]
    n[owner[best]] = n_all[best]
    return t, n


def filter_mask(colliders: Sequence[Collider], query_filter: CollisionFilter | None) -> np.ndarray:
    """Which colliders a query with ``query_filter`` may report (two-way §6.5 rule; None = all)."""
    if query_filter is None:
        return np.ones(len(colliders), dtype=bool)
    table = FilterTable([query_filter, *[c.filter for c in colliders]])
    return table.collides(0, np.arange(1, len(colliders) + 1))


def ray_cast(
    colliders: Sequence[Collider],
    start,
    end,
    query_filter: CollisionFilter | None = None,
    all_hits: bool = False,
    include_triggers: bool = False,
):
    """Nearest ``RayHit`` of the segment (or None); with ``all_hits`` every hit collider sorted by fraction."""
    start = np.asarray(start, dtype=float)
    seg = np.asarray(end, dtype=float) - start
    keep = filter_mask(colliders, query_filter)
    live = [
        c for c, k in zip(colliders, keep, strict=True) if k and c.enabled and (include_triggers or not c.is_trigger)
    ]
    groups: dict[type, list[Collider]] = {}
    for c in live:
        groups.setdefault(type(c.shape), []).append(c)
    found: list[RayHit] = []
    for kind, group in groups.items():
        t, n = _cast_meshes(group, start, seg) if kind is Mesh else _cast_implicit(group, start, seg)
        for c, tc, nc in zip(group, t, n, strict=True):
            if np.isfinite(tc):
                found.append(RayHit(c.node, float(tc), start + tc * seg, nc))
    found.sort(key=lambda h: (h.fraction, h.node))
    if all_hits:
        return found
    return found[0] if found else None
