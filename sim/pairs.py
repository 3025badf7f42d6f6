"""Pair rules: physics-material combine modes (§6.4) and the collision-filter subset rule (§6.5), vectorised.

Combine modes are small integer codes ordered by precedence (average > minimum > maximum > multiply); ``ABSENT``
marks a material without a mode. Choices for what the spec leaves open:

* one side absent: the other side's mode is used;
* both sides absent: ``default`` (``AVERAGE``, the OMI README default; KHR lets the engine choose).
  ``absent_is_default=True`` instead reads an absent mode as ``default`` before precedence (OMI-literal).

Collision filters: a ``FilterTable`` numbers every system name (a name → bit table of any size) and stores each
filter's three sets as uint64 word arrays (N, W). ``accepts(B, A)`` is the spec's one-way test
"A.collisionSystems ⊆ B.collideWithSystems and A.collisionSystems ⊄ B.notCollideWithSystems"; a pair collides iff
both directions pass. Edge cases (decided here, see docs/sim_queries.md):

* an absent ``collideWithSystems`` means "all systems"; an absent ``notCollideWithSystems`` excludes nothing;
* a collider without a filter (``None``) or with empty/absent ``collisionSystems`` belongs to no system: a
  ``collideWithSystems`` whitelist does not include it, a ``notCollideWithSystems`` blacklist cannot exclude it;
  so it collides with every collider that has no whitelist (and whose whitelist-free filter it passes).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np

AVERAGE, MINIMUM, MAXIMUM, MULTIPLY = 0, 1, 2, 3
ABSENT = 255
MODE_CODES = {"average": AVERAGE, "minimum": MINIMUM, "maximum": MAXIMUM, "multiply": MULTIPLY}
BLOCK_WORDS = 1 << 22  # uint64 words per temporary of FilterTable.matrix (32 MiB)


def mode_code(name: str | None) -> int:
    """Code of a combine-mode string; None → ``ABSENT``; unknown strings → ``ABSENT`` (engine's choice)."""
    return ABSENT if name is None else MODE_CODES.get(name, ABSENT)


def effective_mode(mode_a, mode_b, default: int = AVERAGE, absent_is_default: bool = False) -> np.ndarray:
    """Mode used for each pair after precedence (arrays of codes, broadcast)."""
    a = np.asarray(mode_a, dtype=np.int64)
    b = np.asarray(mode_b, dtype=np.int64)
    if absent_is_default:
        a = np.where(a == ABSENT, default, a)
        b = np.where(b == ABSENT, default, b)
    mode = np.minimum(a, b)  # codes are ordered by precedence; ABSENT sorts last
    return np.where(mode == ABSENT, default, mode)


def combine(value_a, value_b, mode_a, mode_b, default: int = AVERAGE, absent_is_default: bool = False) -> np.ndarray:
    """Combined friction or restitution for each pair (arrays broadcast together)."""
    a = np.asarray(value_a, dtype=float)
    b = np.asarray(value_b, dtype=float)
    mode = effective_mode(mode_a, mode_b, default, absent_is_default)
    with np.errstate(over="ignore"):  # a product beyond the float range is inf; the average halves first: no overflow
        return np.choose(mode, [a / 2 + b / 2, np.minimum(a, b), np.maximum(a, b), a * b])


@dataclass(frozen=True)
class PhysicsMaterial:
    """A ``physicsMaterials`` entry with the KHR/OMI defaults."""

    static_friction: float = 0.6
    dynamic_friction: float = 0.6
    restitution: float = 0.0
    friction_combine: str | None = None
    restitution_combine: str | None = None


def combine_materials(a: PhysicsMaterial | None, b: PhysicsMaterial | None, default: int = AVERAGE) -> dict:
    """Combined (staticFriction, dynamicFriction, restitution) of two materials (None = default material)."""
    a, b = a or PhysicsMaterial(), b or PhysicsMaterial()
    fa, fb = mode_code(a.friction_combine), mode_code(b.friction_combine)
    ra, rb = mode_code(a.restitution_combine), mode_code(b.restitution_combine)
    return {
        "staticFriction": float(combine(a.static_friction, b.static_friction, fa, fb, default)),
        "dynamicFriction": float(combine(a.dynamic_friction, b.dynamic_friction, fa, fb, default)),
        "restitution": float(combine(a.restitution, b.restitution, ra, rb, default)),
    }


@dataclass(frozen=True)
class CollisionFilter:
    """A ``collisionFilters`` entry; None = the property is absent."""

    collision_systems: frozenset[str] | None = None
    collide_with_systems: frozenset[str] | None = None
    not_collide_with_systems: frozenset[str] | None = None

    @classmethod
    def from_dict(cls, d: dict) -> CollisionFilter:
        def names(key):
            return frozenset(d[key]) if key in d and d[key] is not None else None

        return cls(names("collisionSystems"), names("collideWithSystems"), names("notCollideWithSystems"))


class FilterTable:
    """Filters encoded as bit sets: ``systems``, ``collide``, ``not_collide`` are uint64 arrays (N, W).

    Row i encodes ``filters[i]``; a ``None`` filter is the "no filter" row (no systems, collide with all).
    """

    def __init__(self, filters: Sequence[CollisionFilter | None], names: Iterable[str] = ()):
        bits: dict[str, int] = {}
        for name in names:
            bits.setdefault(name, len(bits))
        for f in filters:
            for group in (f.collision_systems, f.collide_with_systems, f.not_collide_with_systems) if f else ():
                for name in sorted(group or ()):
                    bits.setdefault(name, len(bits))
        self.bits = bits
        self.words = max(1, -(-len(bits) // 64))
        n = len(filters)
        self.systems = np.zeros((n, self.words), dtype=np.uint64)
        self.collide = np.zeros((n, self.words), dtype=np.uint64)
        self.not_collide = np.zeros((n, self.words), dtype=np.uint64)
        self.collide_all = np.ones(n, dtype=bool)
        for i, f in enumerate(filters):
            if f is None:
                continue
            self.systems[i] = self.encode(f.collision_systems or ())
            self.not_collide[i] = self.encode(f.not_collide_with_systems or ())
            if f.collide_with_systems is not None:
                self.collide_all[i] = False
                self.collide[i] = self.encode(f.collide_with_systems)
        self.no_systems = ~self.systems.any(axis=1)

    def encode(self, names: Iterable[str]) -> np.ndarray:
        """Bit-set words (W,) of a set of system names (names must be in the table)."""
        words = np.zeros(self.words, dtype=np.uint64)
        for name in names:
            bit = self.bits[name]
            words[bit // 64] |= np.uint64(1) << np.uint64(bit % 64)
        return words

    def accepts(self, b, a) -> np.ndarray:
        """One-way test for index arrays: does filter ``b`` accept collisions from filter ``a``? (broadcast)."""
        b = np.asarray(b)
        a = np.asarray(a)
        sa, empty = self.systems[a], self.no_systems[a]
        subset_collide = ~np.any(sa & ~self.collide[b], axis=-1)
        subset_not = ~np.any(sa & ~self.not_collide[b], axis=-1)
        whitelisted = self.collide_all[b] | (~empty & subset_collide)
        excluded = ~empty & subset_not
        return whitelisted & ~excluded

    def collides(self, a, b) -> np.ndarray:
        """Symmetric pair test (both directions must pass) for index arrays ``a``, ``b`` (broadcast)."""
        return self.accepts(b, a) & self.accepts(a, b)

    def matrix(self) -> np.ndarray:
        """The full N×N boolean collide matrix (symmetric); built in row blocks so the temporaries stay at
        ``BLOCK_WORDS`` words (one N×N×W broadcast grew with the cube of the filter count)."""
        n = len(self.systems)
        i = np.arange(n)
        accepted = np.empty((n, n), dtype=bool)  # [b, a]: b accepts a
        rows = max(1, BLOCK_WORDS // max(1, n * self.words))
        for start in range(0, n, rows):
            accepted[start : start + rows] = self.accepts(i[start : start + rows, None], i[None, :])
        return accepted & accepted.T


def filters_collide(a: CollisionFilter | None, b: CollisionFilter | None) -> bool:
    """Scalar convenience: do two filters (None = no filter) let their colliders collide?"""
    return bool(FilterTable([a, b]).collides(0, 1))


class SparseRelation:
    """The collide relation of many filters without an N×N table: each row is kept as a set (``rows[a]`` = the
    filters that collide with filter ``a``, itself included when it collides with a copy of itself), stored as the
    smaller of the set and its complement (``complement[a]`` says which).

    Built from an inverted index (system name → filters listing it in ``collisionSystems``), so the cost is the
    input size plus the number of (whitelist or blacklist name, filter listing that name) hits plus the size of the
    stored rows: linear when filters mostly use their own systems; ``checks`` counts the element operations.
    Same rule as ``FilterTable`` (tested against it).
    """

    def __init__(self, filters: Sequence[CollisionFilter | None]):
        n = self.n = len(filters)
        self.checks = 0
        systems = [frozenset(f.collision_systems or ()) if f else frozenset() for f in filters]
        posting: dict[str, list[int]] = {}
        for a, names in enumerate(systems):
            for name in names:
                posting.setdefault(name, []).append(a)

        def covered(names) -> set[int]:
            """Filters with systems, all of them in ``names``."""
            hits: dict[int, int] = {}
            for name in names or ():
                for a in posting.get(name, ()):
                    hits[a] = hits.get(a, 0) + 1
            self.checks += sum(hits.values()) + len(names or ())
            return {a for a, k in hits.items() if k == len(systems[a])}

        everyone = [f is None or f.collide_with_systems is None for f in filters]
        white = [None if everyone[b] else covered(filters[b].collide_with_systems) for b in range(n)]
        black = [covered(f.not_collide_with_systems) if f else set() for f in filters]
        white_t: list[set[int]] = [set() for _ in range(n)]  # a -> whitelisting filters that accept a
        black_t: list[set[int]] = [set() for _ in range(n)]  # a -> filters that exclude a
        for b in range(n):
            for a in white[b] or ():
                white_t[a].add(b)
            for a in black[b]:
                black_t[a].add(b)
        open_all = {b for b in range(n) if everyone[b]}
        closed = [b for b in range(n) if not everyone[b]]
        self.rows: list[frozenset[int]] = []
        self.complement: list[bool] = []
        for a in range(n):
            # a collides with b iff b accepts a (b in open_all ∪ white_t[a], not in black_t[a]) and a accepts b
            excluded = black_t[a] | black[a]
            if white[a] is not None:  # explicit: a's own whitelist bounds the row
                row = {b for b in white[a] if (b in open_all or b in white_t[a]) and b not in excluded}
                self.checks += len(white[a])
                self._store(row, False)
            elif len(open_all) >= n / 2:  # complement: whitelisting filters that do not take a, and exclusions
                miss = {b for b in closed if b not in white_t[a]} | excluded
                self.checks += len(closed) + len(excluded)
                self._store(miss, True)
            else:
                row = (open_all | white_t[a]) - excluded
                self.checks += len(open_all) + len(white_t[a]) + len(excluded)
                self._store(row, False)

    def _store(self, members: set[int], complement: bool) -> None:
        """Keep the smaller side: the canonical form makes equal rows equal (hashable) whatever their origin."""
        if len(members) > self.n / 2 or (len(members) * 2 == self.n and complement):
            members = set(range(self.n)) - members
            complement = not complement
            self.checks += self.n
        self.rows.append(frozenset(members))
        self.complement.append(complement)

    def collides(self, a: int, b: int) -> bool:
        return (b in self.rows[a]) != self.complement[a]

    def closed_row(self, a: int) -> tuple[bool, frozenset[int]]:
        """Canonical (complement, members) of row ``a`` with ``a`` itself added (its closed neighbourhood)."""
        members, complement = set(self.rows[a]), self.complement[a]
        (members.discard if complement else members.add)(a)
        if len(members) > self.n / 2 or (len(members) * 2 == self.n and complement):
            members = set(range(self.n)) - members
            complement = not complement
        return complement, frozenset(members)
