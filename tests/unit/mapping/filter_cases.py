"""Seeded random collision-filter inputs for the solver's snapshot test (``test_filters_scaling.py``)."""

from __future__ import annotations

import random

SYSTEMS = "abcdef"


def _names(rng: random.Random, most: int):
    return None if rng.random() < 0.4 else tuple(rng.sample(SYSTEMS, rng.randint(0, most)))


def cases(count: int = 150, seed: int = 11):
    """``count`` (filters as dicts or None, counts) inputs of 1..30 keys (some keys None = collider without filter)."""
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        n = rng.randint(1, 30)
        filters = []
        for _ in range(n):
            if rng.random() < 0.15:
                filters.append(None)
            else:
                filters.append({"collision": _names(rng, 2), "collide": _names(rng, 4), "not_collide": _names(rng, 2)})
        out.append((filters, [rng.randint(1, 3) for _ in range(n)]))
    return out
