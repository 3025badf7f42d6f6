"""Collision filters → 20 Blender collision collections: exact covers, approximations, verification."""

from __future__ import annotations

import itertools
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from testkit import corpus_files, corpus_id, read_json, submodule

solver = submodule("io.mapping.filters_to_blender")
model = submodule("io.gltf.model")
pairs = submodule("sim.pairs")
parse = submodule("io.gltf.parse")

SYSTEMS = ("a", "b", "c", "d")


def make(systems=None, collide=None, not_collide=None):
    return model.CollisionFilter(
        collision_systems=systems, collide_with_systems=collide, not_collide_with_systems=not_collide
    )


def shares(assignment, a, b) -> bool:
    return bool(set(assignment.collections[a]) & set(assignment.collections[b]))


def test_two_groups_that_ignore_each_other():
    filters = {0: make(("a",), ("a",)), 1: make(("b",), ("b",)), None: None}
    result = solver.solve(filters, {0: 2, 1: 2, None: 2})
    assert result.exact
    assert shares(result, 0, 0) and shares(result, 1, 1)
    assert not shares(result, 0, 1)
    # a collider without a filter has no systems: a collideWith whitelist does not include it
    assert not shares(result, None, 0) and not shares(result, None, 1)
    assert shares(result, None, None)


def test_not_collide_blacklist_against_unfiltered_colliders():
    filters = {0: make(("ghost",), None, ("world",)), 1: make(("world",)), None: None}
    result = solver.solve(filters, {0: 2, 1: 3, None: 1})
    assert result.exact
    assert not shares(result, 0, 1)
    assert shares(result, 0, 0) and shares(result, 1, 1) and shares(result, None, 0) and shares(result, None, 1)


def test_class_that_does_not_collide_with_itself_used_twice_is_an_approximation():
    # A only accepts B and B only accepts A: two A colliders must not collide, but an A must hit a B.
    filters = {0: make(("A",), ("B",)), 1: make(("B",), ("A",))}
    exact_single = solver.solve(filters, {0: 1, 1: 1})
    assert exact_single.exact and shares(exact_single, 0, 1)
    result = solver.solve(filters, {0: 2, 1: 1})
    assert not result.exact
    assert result.wrong_pairs == 2  # the two (A, B) pairs cannot collide without the (A, A) pair colliding
    assert result.mismatches == solver.verify(result.collections, solver.relation(filters), {0: 2, 1: 1})


def test_more_than_twenty_collections_needed_gives_closest_approximation():
    # 24 classes, each colliding only with itself and its successor (a path with self-loops): 47 edges need
    # at least 24 cliques (every edge (i, i+1) is a maximal clique), i.e. more than 20 collections.
    names = [f"s{i}" for i in range(24)]
    filters = {}
    for i, name in enumerate(names):
        friends = {name} | ({names[i - 1]} if i else set()) | ({names[i + 1]} if i + 1 < len(names) else set())
        filters[i] = make((name,), tuple(sorted(friends)))
    counts = dict.fromkeys(filters, 2)
    result = solver.solve(filters, counts, tries=4)
    assert result.cliques_needed > solver.COLLECTIONS
    assert not result.exact
    assert all(c < solver.COLLECTIONS for cols in result.collections.values() for c in cols)
    assert len({c for cols in result.collections.values() for c in cols}) <= solver.COLLECTIONS
    assert result.mismatches == solver.verify(result.collections, solver.relation(filters), counts)
    # merging two neighbours into one collection only breaks a few pairs, never most of them
    total = sum(solver._pair_weight(counts, a, b) for a, b in itertools.combinations_with_replacement(filters, 2))
    assert 0 < result.wrong_pairs < total / 4


filter_strategy = st.builds(
    make,
    st.one_of(st.none(), st.lists(st.sampled_from(SYSTEMS), max_size=2, unique=True).map(tuple)),
    st.one_of(st.none(), st.lists(st.sampled_from(SYSTEMS), max_size=3, unique=True).map(tuple)),
    st.one_of(st.none(), st.lists(st.sampled_from(SYSTEMS), max_size=2, unique=True).map(tuple)),
)


@settings(max_examples=80, deadline=None)
@given(
    st.lists(st.one_of(st.none(), filter_strategy), min_size=1, max_size=7),
    st.lists(st.integers(1, 3), min_size=7, max_size=7),
)
def test_random_filters_exact_claims_hold_and_match_sim_pairs(filter_list, count_list):
    filters = dict(enumerate(filter_list))
    counts = {k: count_list[k] for k in filters}
    result = solver.solve(filters, counts, tries=6)
    table = pairs.FilterTable([solver.to_pair_filter(f) for f in filter_list])
    # the relation is sim.pairs' rule
    for a, b in itertools.product(filters, repeat=2):
        assert solver.relation(filters)[(a, b)] == bool(table.collides(a, b))
    # an exact claim means every relevant pair behaves like the spec, checked independently here
    for a, b in itertools.combinations_with_replacement(filters, 2):
        if a == b and counts[a] < 2:
            continue
        wrong = shares(result, a, b) != bool(table.collides(a, b))
        assert wrong == any({m.a, m.b} == {a, b} for m in result.mismatches)
    if result.exact:
        assert result.wrong_pairs == 0
    # with at most 7 classes a 20-collection cover exists whenever every class collides with itself
    if all(bool(table.collides(k, k)) for k in filters):
        assert result.exact


def _collider_filters(path):
    doc = parse.parse_gltf(read_json(path)).document
    used = {}
    for node in doc.nodes.values():
        if node.collider is not None:
            key = node.collider.filter
            used[key] = used.get(key, 0) + 1
    return doc, used


@pytest.mark.corpus
@pytest.mark.parametrize("path", corpus_files("glTF_Physics/tests/RigidBodies_CollisionFilter/*.gltf"), ids=corpus_id)
def test_conformance_collision_filters(path):
    doc, used = _collider_filters(path)
    filters = {k: (None if k is None else doc.filters[k]) for k in used}
    result = solver.solve(filters, used)
    rel = solver.relation(filters)
    # a class whose colliders must not hit each other but must hit another class cannot be expressed by
    # "share any collection" once two colliders use it (_03: notCollideWith its own system)
    impossible = {k for k in filters if used[k] > 1 and not rel[(k, k)] and any(rel[(k, o)] for o in filters if o != k)}
    assert result.exact == (not impossible)
    assert (path.stem.endswith("_03")) == bool(impossible)
    for a, b in itertools.combinations_with_replacement(filters, 2):
        if (a != b or used[a] > 1) and not ({a, b} & impossible):
            assert shares(result, a, b) == rel[(a, b)]
    assert all({m.a, m.b} & impossible for m in result.mismatches)
    # these scenes exist to show a pair that does NOT collide
    assert not all(rel.values())


# RigidBodies_CollisionFilter_03: "hit" ignores its own kind but hits the ground; "ghost" ignores the ground.
GHOST = make(("Dynamic",), None, ("Static",))
HIT = make(("Dynamic",), None, ("Dynamic",))
GROUND = make(("Static",))


def test_identical_filters_used_once_each_are_not_merged_into_one_that_cannot_collide():
    # two filter indices with the same definition, one collider each: each may share a collection with the ground
    # (Blender's sharing is not transitive), they just must not share one with each other
    filters = {1: HIT, 3: HIT, 2: GROUND}
    result = solver.solve(filters, {1: 1, 3: 1, 2: 1})
    assert result.exact, result.mismatches
    assert shares(result, 1, 2) and shares(result, 3, 2) and not shares(result, 1, 3)


def test_a_filter_that_ignores_itself_gets_collections_per_body_when_it_hits_something():
    # two compound bodies, each with a ghost and a hit child, over a ground: the per-filter cover cannot give "hit"
    # a collection (two hit colliders must not collide); one class per body can
    filters = {0: GHOST, 1: HIT, 2: GROUND}
    assert not solver.solve(filters, {0: 2, 1: 2, 2: 1}).exact
    units = [(0, 1), (0, 1), (2,)]
    result = solver.solve_units(filters, units)
    assert result.assignment.exact, result.assignment.mismatches
    first, second, ground = (result.per_unit[u] for u in range(3))

    def meet(a, b) -> bool:
        return bool(set(a) & set(b))

    assert meet(first[1], ground[2]) and meet(second[1], ground[2]) and not meet(first[1], second[1])
    assert meet(first[0], second[0]) and not meet(first[0], ground[2]) and not meet(first[0], second[1])
    assert all(len(keys) == len(units[u]) for u, keys in enumerate(result.per_unit))


def test_per_body_classes_only_where_they_help():
    # a filter that ignores itself and everything: no collection is exact, no per-body class is made
    filters = {0: make(("A",), ("B",)), 1: GROUND}
    result = solver.solve_units(filters, [(0,), (0,), (1,)])
    assert result.assignment.exact
    assert result.per_unit[0][0] == result.per_unit[1][0] == ()
    assert set(result.assignment.collections) == {0, 1}
    # more bodies than collections: per-body classes cannot be disjoint, the per-filter result stays
    many = [(1,)] * 25 + [(2,)]
    result = solver.solve_units({1: HIT, 2: GROUND}, many)
    assert set(result.assignment.collections) == {1, 2} and not result.assignment.exact
    assert result.crowded == {1: 25}


def test_per_body_classes_agree_with_the_relation_on_random_filters():
    """Every filter ``solve_units`` splits per body ignores itself and collides with another used filter."""
    rng = random.Random(3)
    splits = 0
    for _ in range(40):
        filters = {}
        for i in range(5):
            names, kind = tuple(rng.sample(SYSTEMS, rng.randint(1, 3))), rng.randrange(3)
            # the schema forbids both lists: a whitelist, a blacklist or neither
            filters[i] = make((rng.choice(SYSTEMS),), names if kind == 0 else None, names if kind == 1 else None)
        units = [(rng.randrange(5),) for _ in range(6)]
        result = solver.solve_units(filters, units)
        rel = solver.relation(filters)
        used = {k for unit in units for k in unit}
        split = {c.key for c in result.assignment.collections if isinstance(c, solver.Instance)}
        for k in used:
            count = sum(k in unit for unit in units)
            wanted = count >= 2 and not rel[(k, k)] and any(rel[(k, o)] for o in used if o != k)
            assert (k in split) == wanted, (filters, units, k)
        splits += len(split)
    assert splits > 0  # the random cases do exercise the split


def test_a_solve_is_remembered_by_value_and_never_shared():
    """The same filters (equal values, other objects), counts and settings reuse the first answer (a library's
    files share their filters); each caller gets its own copy, and other counts or filters are solved anew."""
    solver._SOLVED.clear()
    solver._collide_rows.cache_clear()
    first = solver.solve({0: make(("a",), ("b",)), 1: make(("b",), ("a",)), 2: make(("c",), ())}, {0: 2, 1: 1, 2: 3})
    assert len(solver._SOLVED) == 1
    again = solver.solve({0: make(("a",), ("b",)), 1: make(("b",), ("a",)), 2: make(("c",), ())}, {0: 2, 1: 1, 2: 3})
    assert len(solver._SOLVED) == 1 and solver._collide_rows.cache_info().hits == 0  # answered without a solve
    assert again.collections == first.collections and again.mismatches == first.mismatches
    assert again is not first and again.collections is not first.collections
    again.collections[0] = ()
    assert (
        solver.solve(
            {0: make(("a",), ("b",)), 1: make(("b",), ("a",)), 2: make(("c",), ())}, {0: 2, 1: 1, 2: 3}
        ).collections
        == first.collections
    )
    solver.solve({0: make(("a",), ("b",)), 1: make(("b",), ("a",)), 2: make(("c",), ())}, {0: 2, 1: 1, 2: 1})
    assert len(solver._SOLVED) == 2  # another count: another answer (the relation rows are reused)
    assert solver._collide_rows.cache_info().hits == 1


def test_remembered_solves_are_bounded():
    solver._SOLVED.clear()
    for n in range(solver.SOLVED_KEPT + 5):
        solver.solve({0: make(("a",), ("a",))}, {0: n + 2})
    assert len(solver._SOLVED) == solver.SOLVED_KEPT
