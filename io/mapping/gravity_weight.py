"""The rigid-body world's gravity weight that reproduces the dynamic bodies' ``gravityFactor`` (bpy-free).

Blender has one gravity weight per rigid-body world, no factor per body. Used by the importer's reproduction step
(``io/importer/reproduce/gravity.py``) and by the Body panel's sync when a gravity factor is edited
(``ui/body/sync_body.py``).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass


@dataclass(frozen=True)
class GravityWeight:
    """``weight``: the world's gravity weight; ``exact``: every dynamic body has that factor (else the bodies whose
    factor differs are not reproducible, to be reported)."""

    weight: float
    exact: bool

    def misses(self, factor: float) -> bool:
        """True when a body of this ``factor`` does not get it in Blender."""
        return factor != self.weight


def gravity_weight(factors: Iterable[float]) -> GravityWeight | None:
    """The shared factor of the dynamic bodies; mixed factors → the most common one (ties: the one nearest 1).
    None when there is no dynamic body or every factor is 1 (nothing to reproduce: the weight stays as it is)."""
    counts: dict[float, int] = {}  # not a Counter: its isinstance(…, Mapping) check is slow when run per body
    for f in factors:  # (the ABC caches are cold there); a dict counts the same, in the same first-seen order
        f = float(f)
        counts[f] = counts.get(f, 0) + 1
    if not counts or set(counts) == {1.0}:
        return None
    chosen = max(counts, key=lambda f: (counts[f], -abs(f - 1.0)))
    return GravityWeight(chosen, len(counts) == 1)
