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

import math
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
    """The spec's combined friction (dynamic) and restitution of a pair."""
    values = combine_materials(a, b)
    return {name: values[key] for name, key in KEYS}


def _close(a: dict, b: dict) -> bool:
    return all(math.isclose(a[n], b[n], rel_tol=TOLERANCE, abs_tol=TOLERANCE) for n, _ in KEYS)


def _product(a: dict, b: dict) -> dict:
    return {n: a[n] * b[n] for n, _ in KEYS}


def _describe(values: dict) -> str:
    return f"friction {values['friction']:.4g}, restitution {values['restitution']:.4g}"


def plan(dynamic: list[Body], static: list[Body]) -> Plan | None:
    """The Blender values that reproduce the combine modes (None: the default rule is already exact for every
    dynamic–static pair that can touch, nothing to change)."""
    partners = {d.key: [s for s in static if d.collections & s.collections] for d in dynamic}
    now = {b.key: current(b.material) for b in (*dynamic, *static)}
    if all(
        _close(_product(now[d.key], now[s.key]), combined(d.material, s.material))
        for d in dynamic
        for s in partners[d.key]
    ):
        return None
    out = Plan()
    ones = {"friction": 1.0, "restitution": 1.0}
    for s in static:
        if any(s in partners[d.key] for d in dynamic):
            out.values[s.key] = dict(ones)
    for d in dynamic:
        wanted = [combined(d.material, s.material) for s in partners[d.key]]
        if not wanted:
            continue
        out.values[d.key] = wanted[0]
        if all(_close(w, wanted[0]) for w in wanted):
            out.exact.append(d.key)
        else:
            out.problems.append(
                (
                    d.key,
                    f"the static bodies it can touch need different values (kept the first: {_describe(wanted[0])})",
                )
            )
    _dynamic_pairs(dynamic, out, now)
    return out


def _dynamic_pairs(dynamic: list[Body], out: Plan, now: dict) -> None:
    """Report each pair of dynamic-body kinds (material, collections) that can touch and now combines wrongly; one
    report per kind pair, at its first body."""
    kinds: dict = {}
    for d in dynamic:
        kinds.setdefault((d.material, d.collections), []).append(d)
    groups = list(kinds.values())
    for i, first in enumerate(groups):
        for second in groups[i:]:
            a, b = first[0], second[0]
            if (first is second and len(first) < 2) or not a.collections & b.collections:
                continue
            got = _product(out.values.get(a.key, now[a.key]), out.values.get(b.key, now[b.key]))
            want = combined(a.material, b.material)
            if not _close(got, want):
                other = "another body of the same kind" if first is second else f"{b.name or b.key!r}"
                out.approximations.append(
                    (a.key, f"against {other}: the file combines to {_describe(want)}, Blender gives {_describe(got)}")
                )
