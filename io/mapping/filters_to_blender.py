"""Collision filters → Blender's 20 collision collections (bpy-free).

Blender lets two bodies collide iff they share at least one of 20 collision collections. The KHR rule (specs.md
§6.5, implemented in ``sim.pairs``) is a subset test evaluated both ways. Colliders using the same filter form a
*class*; the spec relation between classes is a graph ("collides"), with a self-loop when two colliders of one class
collide with each other. A collection is a clique of that graph, so an exact assignment is an **edge clique cover**
with at most 20 cliques: every edge inside some clique, no non-edge inside any clique.

* Classes with identical relations (same row of the collide matrix, self-pair included) are merged first.
* Randomised greedy clique covers (deterministic seed) find a cover; the smallest one wins.
* More than 20 cliques: cliques are merged or dropped one at a time, choosing the step that adds the fewest wrong
  collider pairs (weighted by how many colliders use each class), until 20 remain. Such a result is approximate.
* :func:`verify` recomputes every pair from the assignment and returns the mismatches.

A self-pair only matters when at least two colliders use the class (``counts``); a class used once may share a
collection with others even if it would not collide with a copy of itself. :func:`solve_units` uses that: a filter
that ignores its own kind but collides with something gets one class per Blender body using it (sharing a collection
is not transitive, so each may share one with the ground and none with each other).
"""

from __future__ import annotations

import functools
import itertools
import random
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, field

from ...sim.pairs import CollisionFilter as PairFilter
from ...sim.pairs import FilterTable, SparseRelation

COLLECTIONS = 20
SMALL = 64  # up to this many keys the full relation table is built (the original search, unchanged results)
QUOTIENT = SMALL  # most merged classes the cover search runs on in solve_many
Key = Hashable  # a filter index, or None for "collider without a filter"


@dataclass(frozen=True)
class Mismatch:
    """A pair of classes whose Blender behaviour differs from the spec (``expected`` = spec says collide)."""

    a: Key
    b: Key
    expected: bool
    weight: int


@dataclass
class FilterAssignment:
    """Collections (0..19) per class key; ``exact`` when :func:`verify` finds no mismatch."""

    collections: dict[Key, tuple[int, ...]]
    mismatches: list[Mismatch] = field(default_factory=list)
    cliques_needed: int = 0
    approximate: str = ""  # why the result is approximate when mismatches were not enumerated (solve_many)

    @property
    def exact(self) -> bool:
        return not self.mismatches and not self.approximate

    @property
    def wrong_pairs(self) -> int:
        """Number of collider pairs that behave differently from the spec."""
        return sum(m.weight for m in self.mismatches)


def to_pair_filter(f) -> PairFilter | None:
    """A model ``CollisionFilter`` (tuples, None = absent) as the ``sim.pairs`` filter (frozensets)."""
    if f is None:
        return None

    def names(values):
        return None if values is None else frozenset(values)

    return PairFilter(names(f.collision_systems), names(f.collide_with_systems), names(f.not_collide_with_systems))


def relation(filters: Mapping[Key, object]) -> dict[tuple[Key, Key], bool]:
    """The spec's collide relation for every ordered pair of class keys (self-pairs included)."""
    keys = list(filters)
    rows = _collide_rows(tuple(to_pair_filter(filters[k]) for k in keys))
    return {(a, b): value for a, row in zip(keys, rows, strict=True) for b, value in zip(keys, row, strict=True)}


@functools.lru_cache(maxsize=128)
def _collide_rows(filters: tuple[PairFilter | None, ...]) -> tuple[tuple[bool, ...], ...]:
    """The collide matrix of ``filters`` (frozen values) as rows of bools, once per process for the same filters in
    the same order: the files of a library mostly share their filters (a batch conversion imports them one by one)."""
    return tuple(map(tuple, FilterTable(list(filters)).matrix().tolist()))


def _pair_weight(counts: Mapping[Key, int], a: Key, b: Key) -> int:
    if a == b:
        n = counts.get(a, 1)
        return n * (n - 1) // 2
    return counts.get(a, 1) * counts.get(b, 1)


def verify(
    collections: Mapping[Key, Sequence[int]],
    rel: Mapping[tuple[Key, Key], bool],
    counts: Mapping[Key, int] | None = None,
) -> list[Mismatch]:
    """Every class pair (self-pairs of classes used at least twice) where sharing a collection ≠ the spec."""
    counts = counts or {}
    keys = list(collections)
    sets = {k: set(collections[k]) for k in keys}
    out = []
    for i, a in enumerate(keys):
        for b in keys[i:]:
            weight = _pair_weight(counts, a, b)
            if weight == 0:
                continue
            expected = rel[(a, b)]
            if bool(sets[a] & sets[b]) != expected:
                out.append(Mismatch(a, b, expected, weight))
    return out


class _Graph:
    """Merged classes (vertices), their edges (incl. relevant self-loops) and pair weights."""

    def __init__(self, rel, counts):
        keys = list(dict.fromkeys(k for k, _ in rel))
        self.counts = {k: counts.get(k, 1) for k in keys}
        groups: dict[tuple, list] = {}
        for k in keys:
            signature = (rel[(k, k)], *(rel[(k, o)] for o in keys))
            if not rel[(k, k)] and self.counts[k] < 2:
                signature = ("alone", k)  # merged with a twin it could no longer sit in any collection
            groups.setdefault(signature, []).append(k)
        self.members = list(groups.values())  # vertex -> original keys
        n = len(self.members)
        rep = [m[0] for m in self.members]
        self.size = [sum(self.counts[k] for k in m) for m in self.members]
        self.adj = [[rel[(rep[i], rep[j])] for j in range(n)] for i in range(n)]
        self.n = n

    def weight(self, i: int, j: int) -> int:
        if i == j:
            return self.size[i] * (self.size[i] - 1) // 2
        return self.size[i] * self.size[j]

    def self_ok(self, i: int) -> bool:
        """May vertex i sit in a collection? (It collides with itself, or its self-pair does not matter.)"""
        return self.adj[i][i] or self.weight(i, i) == 0

    def edges(self) -> set[tuple[int, int]]:
        out = set()
        for i in range(self.n):
            for j in range(i, self.n):
                if self.adj[i][j] and self.weight(i, j) > 0 and self.self_ok(i) and self.self_ok(j):
                    out.add((i, j))
        return out


def _greedy_cover(graph: _Graph, order: list[int]) -> list[frozenset[int]]:
    uncovered = graph.edges()
    cliques: list[frozenset[int]] = []
    while uncovered:
        i, j = min(uncovered, key=lambda e: (order.index(e[0]), order.index(e[1])))
        clique = {i, j}
        candidates = [v for v in order if v not in clique and graph.self_ok(v)]
        while True:
            best, gain = None, -1
            for v in candidates:
                if v in clique or not all(graph.adj[v][u] for u in clique):
                    continue
                g = sum(1 for u in clique if (min(u, v), max(u, v)) in uncovered)
                if g > gain:
                    best, gain = v, g
            if best is None:
                break
            clique.add(best)
        cliques.append(frozenset(clique))
        uncovered -= {(a, b) for a in clique for b in clique if a <= b}
    return cliques


def _wrong_weight(graph: _Graph, cliques: list[frozenset[int]]) -> int:
    member = [set() for _ in range(graph.n)]
    for c, clique in enumerate(cliques):
        for v in clique:
            member[v].add(c)
    total = 0
    for i in range(graph.n):
        for j in range(i, graph.n):
            if bool(member[i] & member[j]) != graph.adj[i][j]:
                total += graph.weight(i, j)
    return total


def _reduce(graph: _Graph, cliques: list[frozenset[int]], limit: int) -> list[frozenset[int]]:
    """Merge or drop cliques until ``limit`` remain, each step adding the fewest wrong pairs."""
    cliques = list(cliques)
    while len(cliques) > limit:
        options = []
        for k in range(len(cliques)):
            options.append(cliques[:k] + cliques[k + 1 :])
        for a, b in itertools.combinations(range(len(cliques)), 2):
            merged = cliques[a] | cliques[b]
            options.append([c for k, c in enumerate(cliques) if k not in (a, b)] + [merged])
        cliques = min(options, key=lambda opt: _wrong_weight(graph, opt))
    return cliques


def solve(
    filters: Mapping[Key, object],
    counts: Mapping[Key, int] | None = None,
    *,
    limit: int = COLLECTIONS,
    tries: int = 24,
    seed: int = 0,
    small: int = SMALL,
) -> FilterAssignment:
    """Collections for each class key of ``filters`` (key → model ``CollisionFilter`` or None = no filter).

    ``counts`` = how many colliders use each key (default 1 each): it decides which self-pairs matter and weighs
    the wrong pairs of an approximation. More than ``small`` keys: :func:`solve_many` (same rule, no N×N tables).
    """
    if len(filters) > small:
        return solve_many(filters, counts, limit=limit, tries=tries, seed=seed)
    counts = dict(counts or {})
    key = (tuple((k, to_pair_filter(f), counts.get(k)) for k, f in filters.items()), limit, tries, seed)
    found = _SOLVED.get(key)
    if found is None:
        found = _solve_table(filters, counts, relation(filters), limit, tries, seed)
        if len(_SOLVED) >= SOLVED_KEPT:
            _SOLVED.pop(next(iter(_SOLVED)))
        _SOLVED[key] = found
    return FilterAssignment(dict(found.collections), list(found.mismatches), found.cliques_needed, found.approximate)


SOLVED_KEPT = 128  # table solves remembered per process (oldest dropped first)
_SOLVED: dict[tuple, FilterAssignment] = {}  # the same filters, counts and search settings give the same answer


def _solve_table(filters, counts, rel, limit, tries, seed) -> FilterAssignment:
    """The cover search on a full relation table (every ordered key pair)."""
    graph = _Graph(rel, counts)
    rng = random.Random(seed)
    best: list[frozenset[int]] | None = None
    base = sorted(range(graph.n), key=lambda v: -sum(graph.adj[v]))
    for attempt in range(max(1, tries)):
        order = base if attempt == 0 else rng.sample(base, len(base))
        cover = _greedy_cover(graph, order)
        if best is None or len(cover) < len(best):
            best = cover
        if len(best) <= 1:
            break
    cliques_needed = len(best)
    if len(best) > limit:
        best = _reduce(graph, best, limit)
    collections: dict[Key, tuple[int, ...]] = {}
    for v, keys in enumerate(graph.members):
        sets = tuple(c for c, clique in enumerate(best) if v in clique)
        for k in keys:
            collections[k] = sets
    ordered = {k: collections[k] for k in filters}
    return FilterAssignment(ordered, verify(ordered, rel, counts), cliques_needed)


def solve_many(
    filters: Mapping[Key, object],
    counts: Mapping[Key, int] | None = None,
    *,
    limit: int = COLLECTIONS,
    tries: int = 24,
    seed: int = 0,
    stats: dict | None = None,
) -> FilterAssignment:
    """:func:`solve` for many keys in O(input + stored rows) instead of O(keys²) tables.

    Keys with the same closed neighbourhood (they collide with each other and with exactly the same others, and
    their own self-pair is fine) are one class for Blender: they can share every collection. The relation comes
    from ``sim.pairs.SparseRelation``; the cover search then runs on one representative per class (weights = the
    colliders of the class), and mismatches name representatives. More than ``QUOTIENT`` classes: every class that
    may collide sits in collection 0 and the result says why it is approximate (the pairs are not enumerated).
    ``stats`` (optional) receives ``checks`` (element operations of the relation) and ``classes``.
    """
    counts = dict(counts or {})
    keys = list(filters)
    sparse = SparseRelation([to_pair_filter(filters[k]) for k in keys])
    groups: dict[tuple, list[int]] = {}
    for a, key in enumerate(keys):
        self_ok = sparse.collides(a, a) or counts.get(key, 1) < 2
        signature = (*sparse.closed_row(a), self_ok) if self_ok else (False, frozenset({a}), False)
        groups.setdefault(signature, []).append(a)
    members = list(groups.values())
    if stats is not None:
        stats.update(checks=sparse.checks, classes=len(members))
    reps = [keys[m[0]] for m in members]
    size = {keys[m[0]]: sum(counts.get(keys[a], 1) for a in m) for m in members}
    if len(members) > QUOTIENT:
        ok = [sparse.collides(m[0], m[0]) or size[keys[m[0]]] < 2 for m in members]
        collections = {keys[a]: ((0,) if ok[v] else ()) for v, m in enumerate(members) for a in m}
        reason = (
            f"{len(members)} distinct filter classes (the search handles {QUOTIENT}): "
            "every class that may collide shares collection 0"
        )
        return FilterAssignment({k: collections[k] for k in keys}, [], len(members), reason)
    rel = {(keys[u[0]], keys[v[0]]): sparse.collides(u[0], v[0]) for u in members for v in members}
    for m in members:  # a merged class: its colliders collide with each other (equal closed neighbourhoods)
        rel[(keys[m[0]], keys[m[0]])] |= len(m) > 1
    result = _solve_table(dict.fromkeys(reps), size, rel, limit, tries, seed)
    collections = {keys[a]: result.collections[keys[m[0]]] for m in members for a in m}
    return FilterAssignment({k: collections[k] for k in keys}, result.mismatches, result.cliques_needed)


@dataclass(frozen=True)
class Instance:
    """The class of one filter on one unit (a Blender body), for filters that must not collide with themselves."""

    key: Key
    unit: int


@dataclass
class UnitAssignment:
    """Collections per unit and filter key (``per_unit[u][key]``) and the assignment of the classes solved."""

    per_unit: list[dict[Key, tuple[int, ...]]]
    assignment: FilterAssignment
    crowded: dict[Key, int] = field(default_factory=dict)  # such filters on more units than collections: unit count


def _self_ignoring(filters: Mapping[Key, object], counts: Mapping[Key, int]) -> set[Key]:
    """Keys used by 2+ units that do not collide with themselves but with some used key."""
    candidates = [k for k, n in counts.items() if n >= 2]
    if not candidates:
        return set()
    keys = list(filters)
    sparse = SparseRelation([to_pair_filter(filters[k]) for k in keys])
    index = {k: i for i, k in enumerate(keys)}

    def hits_another(a: int) -> bool:  # a's row (without a itself) is not empty: O(1) on the stored form
        members = sparse.rows[a]
        return len(members) < sparse.n if sparse.complement[a] else bool(members)

    return {k for k in candidates if not sparse.collides(index[k], index[k]) and hits_another(index[k])}


def solve_units(
    filters: Mapping[Key, object],
    units: Sequence[Sequence[Key]],
    *,
    limit: int = COLLECTIONS,
    tries: int = 24,
    seed: int = 0,
) -> UnitAssignment:
    """:func:`solve` for colliders grouped into units (``units[u]`` = the filter keys of unit u's colliders).

    A filter that ignores its own kind but collides with another used by 2..``limit`` units gets an
    :class:`Instance` class per unit, so that each can share a collection with its partners; with more units the
    classes could not be disjoint, and the per-filter result (no collection, reported as a mismatch) stays.
    """
    counts: dict[Key, int] = {}
    for keys in units:
        for k in dict.fromkeys(keys):
            counts[k] = counts.get(k, 0) + 1
    ignoring = _self_ignoring({k: filters[k] for k in counts}, counts)
    split = {k for k in ignoring if counts[k] <= limit}
    classes: dict[Key, object] = {}
    class_counts: dict[Key, int] = {}
    chosen: list[dict[Key, Key]] = []
    for u, keys in enumerate(units):
        row = {k: (Instance(k, u) if k in split else k) for k in dict.fromkeys(keys)}
        for k, c in row.items():
            classes[c] = filters[k]
            class_counts[c] = class_counts.get(c, 0) + 1
        chosen.append(row)
    result = solve(classes, class_counts, limit=limit, tries=tries, seed=seed)
    per_unit = [{k: result.collections[c] for k, c in row.items()} for row in chosen]
    return UnitAssignment(per_unit, result, {k: counts[k] for k in ignoring - split})
