"""Collision-filter solver at scale (issue 11 item 3): no N×N (or N×N×W) tables for many distinct filters, the same
results as before for small inputs. Counts operations instead of timing them (``tests/bench/bench_scaling.py``
measures time and memory)."""

from __future__ import annotations

import itertools
import json
import pathlib
import random

from filter_cases import cases

from testkit import submodule

solver = submodule("io.mapping.filters_to_blender")
model = submodule("io.gltf.model")
pairs = submodule("sim.pairs")
SNAPSHOT = pathlib.Path(__file__).parent / "snapshots" / "filter_solver_small.json"


def make(systems=None, collide=None, not_collide=None):
    return model.CollisionFilter(
        collision_systems=systems, collide_with_systems=collide, not_collide_with_systems=not_collide
    )


def _filters(raw: list) -> dict:
    return {i: None if f is None else make(f["collision"], f["collide"], f["not_collide"]) for i, f in enumerate(raw)}


def test_small_inputs_give_the_results_of_the_original_solver():
    """The snapshot was written by the solver before this change (commit ce02da1): ``solve(..., tries=6)`` on
    ``filter_cases.cases()``, keeping each input's collections, cliques needed and wrong pairs. Rewritten once when
    twin classes used once stopped being merged (wip/filters): 40 of the 150 inputs changed, each with fewer wrong
    pairs (none more), e.g. 8 → 0 and 26 → 12."""
    expected = json.loads(SNAPSHOT.read_text(encoding="utf-8"))
    for (raw, counts), want in zip(cases(), expected, strict=True):
        result = solver.solve(_filters(raw), dict(enumerate(counts)), tries=6)
        got = {
            "collections": [list(result.collections[i]) for i in range(len(raw))],
            "cliques_needed": result.cliques_needed,
            "wrong_pairs": result.wrong_pairs,
        }
        assert got == want, raw


def test_sparse_relation_is_the_filter_table_rule():
    for raw, _counts in cases(60, seed=5):
        filters = [solver.to_pair_filter(f) for f in _filters(raw).values()]
        sparse = pairs.SparseRelation(filters)
        matrix = pairs.FilterTable(filters).matrix()
        for a, b in itertools.product(range(len(filters)), repeat=2):
            assert sparse.collides(a, b) == bool(matrix[a, b]), (raw, a, b)


def test_the_many_keys_path_never_claims_more_than_it_does():
    """``solve_many`` on small random inputs: an exact claim is exact, every mismatch is real, and it is exact
    whenever the original search is (on these inputs)."""
    for raw, counts in cases(80, seed=7):
        filters, counts = _filters(raw), dict(enumerate(counts))
        rel = solver.relation(filters)
        many = solver.solve_many(filters, counts, tries=6)
        truth = solver.verify(many.collections, rel, counts)
        assert many.exact == (not truth)
        assert many.wrong_pairs == (sum(m.weight for m in truth) if not many.approximate else 0)
        assert many.exact or not solver.solve(filters, counts, tries=6).exact


def test_merged_classes_keep_mismatch_weights_of_their_colliders():
    # 70 keys: one class (A) that only accepts B, used twice, and 69 distinct filters of system B (each blacklists
    # a system nobody uses): the A colliders must hit every B but not each other, which collections cannot say
    filters = {0: make(("A",), ("B",))} | {i: make(("B",), None, (f"x{i}",)) for i in range(1, 70)}
    counts = {0: 2} | dict.fromkeys(range(1, 70), 1)
    result = solver.solve(filters, counts)
    assert not result.exact and result.wrong_pairs == solver.solve_many(filters, counts).wrong_pairs
    assert all(result.collections[i] == result.collections[1] for i in range(1, 70))


class _Counter:
    pairs = 0


def _count_pairs(monkeypatch):
    """Count the filter pairs ``FilterTable.accepts`` evaluates (the size of its broadcast)."""
    original = pairs.FilterTable.accepts

    def accepts(self, b, a):
        import numpy as np

        _Counter.pairs += int(np.broadcast(np.asarray(b), np.asarray(a)).size)
        return original(self, b, a)

    monkeypatch.setattr(pairs.FilterTable, "accepts", accepts)
    _Counter.pairs = 0


def test_distinct_filters_cost_linear_pair_evaluations(monkeypatch):
    """1,000 bodies, each with its own system that its filter blacklists (all collide; self-pairs do not matter):
    the relation was a 1,000² table (1,000²×16 words in ``FilterTable.matrix``)."""
    _count_pairs(monkeypatch)
    n = 1000
    filters = {i: make((f"s{i}",), None, (f"s{i}",)) for i in range(n)}
    stats: dict = {}
    result = solver.solve_many(filters, stats=stats) if hasattr(solver, "solve_many") else solver.solve(filters)
    assert result.exact and set(result.collections.values()) == {(0,)}
    assert _Counter.pairs + stats.get("checks", 0) <= 20 * n
    _Counter.pairs = 0
    assert solver.solve(filters).collections == result.collections
    assert _Counter.pairs <= 20 * n


def test_many_distinct_classes_are_reported_without_enumerating_pairs(monkeypatch):
    _count_pairs(monkeypatch)
    n = 2000  # a ring: each class collides with itself and its two neighbours, needing ~n collections
    filters = {i: make((f"s{i}",), (f"s{i}", f"s{(i + 1) % n}", f"s{(i - 1) % n}")) for i in range(n)}
    stats: dict = {}
    result = solver.solve_many(filters, stats=stats)
    assert not result.exact and "2000 distinct filter classes" in result.approximate
    assert stats["classes"] == n and stats["checks"] <= 20 * n and _Counter.pairs == 0


def test_filter_table_matrix_builds_in_bounded_blocks(monkeypatch):
    """``FilterTable.matrix`` of many filters with distinct systems: no N×N×W temporary (it grew with N³)."""
    _count_pairs(monkeypatch)
    biggest = []
    original = pairs.FilterTable.accepts

    def accepts(self, b, a):
        import numpy as np

        biggest.append(int(np.broadcast(np.asarray(b), np.asarray(a)).size) * self.words)
        return original(self, b, a)

    monkeypatch.setattr(pairs.FilterTable, "accepts", accepts)
    rng = random.Random(3)
    n = 1500
    filters = [pairs.CollisionFilter(frozenset({f"s{i}"}), frozenset({f"s{rng.randrange(n)}"})) for i in range(n)]
    table = pairs.FilterTable(filters)
    matrix = table.matrix()
    assert matrix.shape == (n, n) and max(biggest) <= pairs.BLOCK_WORDS
    assert bool(matrix[5, 7]) == bool(table.collides(5, 7))
