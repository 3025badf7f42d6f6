"""Combine modes pre-combined per contact pair (bpy-free).

Bullet multiplies the two bodies' friction and restitution. The import's default rule (``stored.blender_coefficient``:
the square root, or the value for ``multiply``) is exact for two bodies with the same material, not for the spec's
combine precedence between different ones (average > minimum > maximum > multiply, ``sim.pairs``). Where the
partners are known this plan is exact: each dynamic body gets the combined value with the static bodies it can touch
(their collision collections overlap) and those static bodies get 1, so Blender's product is the combined value.
That is exact for "bodies on a ground"; a dynamic body whose static partners would need different values is a problem,
two dynamic bodies that could touch each other (whether they ever meet is not known here) an approximation, each
reported with what Blender gives instead.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Iterable
from dataclasses import dataclass, field

from ...sim.pairs import PhysicsMaterial, combine_materials
from .stored import blender_coefficient

KEYS = (("friction", "dynamicFriction"), ("restitution", "restitution"))  # Blender name, combined key
TOLERANCE = 1e-6


@dataclass(frozen=True)
class Body:
    """A body as the planner sees it: ``key`` identifies it to the caller, ``material`` is the one Blender gets
    (None = the default material), ``collections`` the indices of its collision collections."""

    key: object
    material: PhysicsMaterial | None
    collections: frozenset[int]
    name: str = ""


@dataclass
class Plan:
    values: dict = field(default_factory=dict)  # key → {"friction": f, "restitution": r} to set in Blender
    exact: list = field(default_factory=list)  # keys of dynamic bodies now exact against every static partner
    problems: list = field(default_factory=list)  # (key, message): a body that stays inexact on the ground
    approximations: list = field(default_factory=list)  # (key, message): dynamic pairs inexact if they ever touch


def current(material: PhysicsMaterial | None) -> dict:
    """What the import's default rule gives a body in Blender."""
    m = material or PhysicsMaterial()
    return {
        "friction": blender_coefficient(m.dynamic_friction, m.friction_combine),
        "restitution": blender_coefficient(m.restitution, m.restitution_combine),
    }


def combined(a: PhysicsMaterial | None, b: PhysicsMaterial | None) -> dict:
    """The spec's combined friction (dynamic) and restitution of a pair (a new dict each call)."""
    return dict(zip((name for name, _ in KEYS), _combined(a, b), strict=True))


@functools.lru_cache(maxsize=1024)
def _combined(a: PhysicsMaterial | None, b: PhysicsMaterial | None) -> tuple[float, ...]:
    """Materials are frozen values: each pair is combined once per session (a few numpy calls per pair are most of
    the step's cost in a small file)."""
    values = combine_materials(a, b)
    return tuple(values[key] for _, key in KEYS)


def _close(a: dict, b: dict) -> bool:
    return all(math.isclose(a[n], b[n], rel_tol=TOLERANCE, abs_tol=TOLERANCE) for n, _ in KEYS)


def _product(a: dict, b: dict) -> dict:
    return {n: a[n] * b[n] for n, _ in KEYS}


def _describe(values: dict) -> str:
    return f"friction {values['friction']:.4g}, restitution {values['restitution']:.4g}"


def _kinds(bodies: list[Body]) -> list[list[Body]]:
    """Bodies grouped by (material, collections): everything here depends on those only, so the work is per kind
    pair, not per body pair (a scene of 10,000 bodies has a handful of kinds)."""
    kinds: dict = {}
    for body in bodies:
        kinds.setdefault((body.material, body.collections), []).append(body)
    return list(kinds.values())


def default_rule_exact(materials: Iterable[PhysicsMaterial | None]) -> bool:
    """True when the default rule is exact for every pair of ``materials`` (None = the default material): then
    ``plan`` returns None for any bodies carrying them, so an import can skip gathering its bodies (a file written by
    Blender multiplies everywhere)."""
    kinds = list(set(materials))
    return all(_close(_product(current(a), current(b)), combined(a, b)) for a in kinds for b in kinds)


def plan(dynamic: list[Body], static: list[Body]) -> Plan | None:
    """The Blender values that reproduce the combine modes (None: the default rule is already exact for every
    dynamic–static pair that can touch, nothing to change). ``exact`` and ``problems`` name the first body of each
    kind of dynamic body."""
    dynamic_kinds, static_kinds = _kinds(dynamic), _kinds(static)
    partners = [[k for k in static_kinds if d[0].collections & k[0].collections] for d in dynamic_kinds]
    if all(
        _close(_product(current(d[0].material), current(s[0].material)), combined(d[0].material, s[0].material))
        for d, kinds in zip(dynamic_kinds, partners, strict=True)
        for s in kinds
    ):
        return None
    out = Plan()
    touched = {id(k) for kinds in partners for k in kinds}
    for kind in static_kinds:
        if id(kind) in touched:
            out.values.update({s.key: {"friction": 1.0, "restitution": 1.0} for s in kind})
    for kind, kinds in zip(dynamic_kinds, partners, strict=True):
        wanted = [combined(kind[0].material, s[0].material) for s in kinds]
        if not wanted:
            continue
        out.values.update({d.key: dict(wanted[0]) for d in kind})
        if all(_close(w, wanted[0]) for w in wanted):
            out.exact.append(kind[0].key)
        else:
            message = f"the static bodies it can touch need different values (kept the first: {_describe(wanted[0])})"
            out.problems.append((kind[0].key, message))
    _dynamic_pairs(dynamic_kinds, out)
    return out


def _dynamic_pairs(groups: list[list[Body]], out: Plan) -> None:
    """Report each pair of dynamic-body kinds that can touch and now combines wrongly; one report per kind pair, at
    its first body."""
    for i, first in enumerate(groups):
        for second in groups[i:]:
            a, b = first[0], second[0]
            if (first is second and len(first) < 2) or not a.collections & b.collections:
                continue
            got = _product(out.values.get(a.key, current(a.material)), out.values.get(b.key, current(b.material)))
            want = combined(a.material, b.material)
            if not _close(got, want):
                other = "another body of the same kind" if first is second else f"{b.name or b.key!r}"
                out.approximations.append(
                    (a.key, f"against {other}: the file combines to {_describe(want)}, Blender gives {_describe(got)}")
                )
