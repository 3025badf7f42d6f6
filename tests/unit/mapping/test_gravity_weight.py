"""The world gravity weight that reproduces the bodies' gravityFactor (shared by the importer and the panel sync)."""

from __future__ import annotations

import pytest

from testkit import submodule

gravity_weight = submodule("io.mapping.gravity_weight").gravity_weight


@pytest.mark.parametrize("factors", [[], [1.0], [1.0, 1.0, 1.0]])
def test_nothing_to_reproduce(factors):
    assert gravity_weight(factors) is None


def test_shared_factor_is_exact():
    decided = gravity_weight([0.5, 0.5])
    assert (decided.weight, decided.exact) == (0.5, True)
    assert not decided.misses(0.5)


def test_mixed_factors_take_the_most_common_and_report_the_rest():
    decided = gravity_weight([0.5, 0.5, 2.0, 1.0])
    assert (decided.weight, decided.exact) == (0.5, False)
    assert [f for f in (0.5, 2.0, 1.0) if decided.misses(f)] == [2.0, 1.0]


@pytest.mark.parametrize(("factors", "weight"), [([0.0, 1.0], 1.0), ([0.5, 2.0], 0.5), ([3.0, 0.0], 0.0)])
def test_ties_go_to_the_factor_nearest_one(factors, weight):
    assert gravity_weight(factors).weight == weight
