"""Shape–shape overlap tests and trigger enter/exit events (``event/rigid_body_triggerEntered`` / ``…Exited``).

Every collider is split into convex *pieces* with a world-space support function: one piece per implicit shape or
convex mesh (``Mesh.convex``: its vertex hull), one per triangle for a non-convex triangle mesh (a surface: a body
wholly inside a closed triangle mesh does not touch it). Two pieces overlap when their GJK distance is ≤ ``tol``
(exact up to ``tol``, default 1e-9 m; touching counts as overlapping). Planes are exact closed regions: a one-sided
plane is the solid half-space behind it (y ≤ 0 in plane space), a double-sided plane the zero-thickness surface
y = 0, both clipped to ``size_x``/``size_z`` when given; against a piece the unbounded region is replaced by a box
just larger than the piece's extent, which leaves the answer unchanged. Plane–plane pairs are not tested (False).

Trigger events: a trigger (``Collider.is_trigger``; compound triggers share ``trigger_node``) overlaps a collider
when any of its pieces overlaps any piece of the collider and their filters pass the two-way §6.5 rule. Per frame
the set of overlapping (trigger group, collider node) pairs is compared with the previous frame's (initially empty):
new pairs emit "enter", vanished pairs "exit". Colliders on the trigger's own node and other triggers are ignored.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace

import numpy as np

from .gjk import gjk_distance
from .pairs import FilterTable
from .queries import Collider
from .shapes import Mesh, Plane, bounding_radius, support

Support = Callable[[np.ndarray], np.ndarray]


@dataclass(frozen=True, eq=False)
class Piece:
    """A convex part of a collider: world support function plus a bounding sphere (centre, radius)."""

    support: Support
    center: np.ndarray
    radius: float


def _shape_support(c: Collider) -> Support:
    rot, scl, pos, shape = c.matrix, c.abs_scale, c.position, c.shape

    def world(d: np.ndarray) -> np.ndarray:
        local = (rot.T @ d) * scl
        return rot @ (support(shape, local[None, :])[0] * scl) + pos

    return world


def _points_support(points: np.ndarray) -> Support:
    return lambda d: points[int(np.argmax(points @ d))]


def pieces(c: Collider) -> list[Piece]:
    """Convex pieces of a collider (empty for planes and disabled colliders)."""
    if not c.enabled or isinstance(c.shape, Plane):
        return []
    if isinstance(c.shape, Mesh) and not c.shape.convex:
        tris = c.world_vertices()[c.shape.triangles]
        centers = tris.mean(axis=1)
        radii = np.linalg.norm(tris - centers[:, None], axis=2).max(axis=1)
        return [Piece(_points_support(t), m, float(r)) for t, m, r in zip(tris, centers, radii, strict=True)]
    if isinstance(c.shape, Mesh):
        v = c.world_vertices()
        centre = v.mean(axis=0)
        return [Piece(_points_support(v), centre, float(np.linalg.norm(v - centre, axis=1).max()))]
    return [Piece(_shape_support(c), c.position, bounding_radius(c.shape) * float(c.abs_scale.max()))]


def pieces_overlap(a: Piece, b: Piece, tol: float = 1e-9) -> bool:
    """GJK overlap of two convex pieces (distance ≤ tol)."""
    if np.linalg.norm(a.center - b.center) > a.radius + b.radius + tol:
        return False
    return gjk_distance(lambda d: a.support(d) - b.support(-d), stop_above=tol) <= tol


def _plane_overlap(plane: Collider, piece: Piece, tol: float) -> bool:
    """Exact overlap of a convex piece with a (clipped) half-space or plane surface."""
    rot, pos = plane.matrix, plane.position
    sx = np.inf if plane.shape.size_x is None else plane.shape.size_x * plane.abs_scale[0]
    sz = np.inf if plane.shape.size_z is None else plane.shape.size_z * plane.abs_scale[2]
    local = lambda d: rot.T @ (piece.support(rot @ d) - pos)  # noqa: E731  (piece support in plane space)
    axes = np.eye(3)
    hi = np.array([local(e)[i] for i, e in enumerate(axes)])
    lo = np.array([local(-e)[i] for i, e in enumerate(axes)])
    if lo[1] > tol or (plane.shape.double_sided and hi[1] < -tol):
        return False
    half = np.array([sx / 2, 0.0, sz / 2])
    box_lo = np.maximum(-half, lo - 1.0)
    box_hi = np.minimum(half, hi + 1.0)
    box_lo[1] = 0.0 if plane.shape.double_sided else lo[1] - 1.0
    box_hi[1] = 0.0
    if np.any(box_lo > box_hi + tol):
        return False
    region = lambda d: np.where(d >= 0.0, box_hi, box_lo)  # noqa: E731
    return gjk_distance(lambda d: local(d) - region(-d), stop_above=tol) <= tol


def overlap(a: Collider, b: Collider, tol: float = 1e-9) -> bool:
    """Do two colliders (any shapes, world poses) overlap? Filters are not consulted here."""
    if not (a.enabled and b.enabled):
        return False
    a_plane, b_plane = isinstance(a.shape, Plane), isinstance(b.shape, Plane)
    if a_plane and b_plane:
        return False
    if a_plane or b_plane:
        plane, other = (a, b) if a_plane else (b, a)
        return any(_plane_overlap(plane, p, tol) for p in pieces(other))
    pa, pb = pieces(a), pieces(b)
    if not pa or not pb:
        return False
    ca, ra = np.array([p.center for p in pa]), np.array([p.radius for p in pa])
    cb, rb = np.array([p.center for p in pb]), np.array([p.radius for p in pb])
    near = np.linalg.norm(ca[:, None] - cb[None], axis=2) <= ra[:, None] + rb[None] + tol  # vectorised prefilter
    return any(pieces_overlap(pa[i], pb[j], tol) for i, j in zip(*np.nonzero(near), strict=True))


@dataclass(frozen=True)
class TriggerEvent:
    frame: int
    trigger_node: int
    collider_node: int
    motion_node: int
    kind: str  # "enter" | "exit"


Pose = tuple  # (position, rotation_xyzw) or (position, rotation_xyzw, scale)


def overlapping_pairs(colliders: Sequence[Collider], tol: float = 1e-9) -> set[tuple[int, int]]:
    """(trigger group node, collider node) pairs overlapping now, honouring both filters."""
    triggers = [c for c in colliders if c.is_trigger and c.enabled]
    others = [c for c in colliders if not c.is_trigger and c.enabled]
    if not triggers or not others:
        return set()
    table = FilterTable([c.filter for c in triggers] + [c.filter for c in others])
    ok = table.collides(np.arange(len(triggers))[:, None], len(triggers) + np.arange(len(others))[None, :])
    found = set()
    for i, t in enumerate(triggers):
        for j, c in enumerate(others):
            if ok[i, j] and c.node != t.node and (t.group, c.node) not in found and overlap(t, c, tol):
                found.add((t.group, c.node))
    return found


def trigger_events(colliders: Sequence[Collider], frames: Iterable[Mapping[int, Pose]], tol: float = 1e-9):
    """Enter/exit events over frames; each frame maps node → new world pose (unlisted nodes keep theirs)."""
    current = list(colliders)
    motion = {c.node: c.motion_node for c in current if not c.is_trigger}
    previous: set[tuple[int, int]] = set()
    events: list[TriggerEvent] = []
    for f, poses in enumerate(frames):
        for k, c in enumerate(current):
            if c.node in poses:
                pos, rot, *rest = poses[c.node]
                current[k] = replace(c, position=pos, rotation=rot, scale=rest[0] if rest else c.scale)
        now = overlapping_pairs(current, tol)
        for kind, pairs in (("exit", previous - now), ("enter", now - previous)):
            events += [TriggerEvent(f, t, n, motion[n], kind) for t, n in sorted(pairs)]
        previous = now
    return events
