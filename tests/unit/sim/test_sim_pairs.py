"""sim.pairs: combine-mode precedence (§6.4) and the two-way collision-filter subset rule (§6.5)."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from testkit import submodule

pairs = submodule("sim.pairs")
F = pairs.CollisionFilter

MODES = ["average", "minimum", "maximum", "multiply", None]


def reference_combine(a, b, ma, mb, default="average"):
    """The README's if/else chain, written out literally."""
    modes = {ma, mb}
    if "average" in modes:
        return (a + b) / 2
    if "minimum" in modes:
        return min(a, b)
    if "maximum" in modes:
        return max(a, b)
    if "multiply" in modes:
        return a * b
    return reference_combine(a, b, default, default)


@pytest.mark.parametrize("ma", MODES)
@pytest.mark.parametrize("mb", MODES)
def test_combine_precedence_table(ma, mb):
    got = pairs.combine(0.8, 0.3, pairs.mode_code(ma), pairs.mode_code(mb))
    assert float(got) == pytest.approx(reference_combine(0.8, 0.3, ma, mb))


def test_combine_is_vectorised_over_pairs():
    va, vb = np.array([0.2, 0.2, 0.2, 0.2, 0.2]), np.array([0.5, 0.5, 0.5, 0.5, 0.5])
    ma = np.array([pairs.MULTIPLY, pairs.MAXIMUM, pairs.MULTIPLY, pairs.ABSENT, pairs.ABSENT])
    mb = np.array([pairs.AVERAGE, pairs.MULTIPLY, pairs.MULTIPLY, pairs.MINIMUM, pairs.ABSENT])
    np.testing.assert_allclose(pairs.combine(va, vb, ma, mb), [0.35, 0.5, 0.1, 0.2, 0.35])
    np.testing.assert_allclose(pairs.combine(va, vb, ma, mb, default=pairs.MULTIPLY)[-1], 0.1)


def test_combining_huge_values_neither_overflows_nor_warns():
    """An average of two values near the float limit is that value, not inf; a product beyond it is inf; and numpy
    prints no RuntimeWarning (the import fuzz, seed 45: the pre-combine of friction 1e308 warned on the console)."""
    import warnings

    big, modes = 1e308, [pairs.AVERAGE, pairs.MULTIPLY, pairs.MAXIMUM]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        got = pairs.combine([big, big, big], [big, big, 2.0], modes, pairs.ABSENT)
    assert got.tolist() == [big, float("inf"), big]


def test_absent_is_default_reads_absent_as_average():
    got = pairs.combine(0.2, 0.5, pairs.MULTIPLY, pairs.ABSENT, absent_is_default=True)
    assert float(got) == pytest.approx(0.35)
    assert float(pairs.combine(0.2, 0.5, pairs.MULTIPLY, pairs.ABSENT)) == pytest.approx(0.1)


def test_unknown_mode_string_is_absent():
    assert pairs.mode_code("bogus") == pairs.ABSENT


def test_combine_materials_with_defaults():
    ice = pairs.PhysicsMaterial(0.1, 0.05, 0.2, "minimum", "maximum")
    out = pairs.combine_materials(ice, None)
    assert out == pytest.approx({"staticFriction": 0.1, "dynamicFriction": 0.05, "restitution": 0.2})
    out = pairs.combine_materials(
        pairs.PhysicsMaterial(10.0, 2.0, 0.5, "multiply", "multiply"),
        pairs.PhysicsMaterial(0.5, 0.5, 0.5, "multiply", "multiply"),
    )
    assert out == pytest.approx({"staticFriction": 5.0, "dynamicFriction": 1.0, "restitution": 0.25})


# ---------------------------------------------------------------- filters
CHAR = F(frozenset({"character"}), frozenset({"landscape", "debris"}))
LAND = F(frozenset({"landscape"}))
DEBRIS = F(frozenset({"debris"}), not_collide_with_systems=frozenset({"debris"}))
GHOST = F(frozenset({"character"}), not_collide_with_systems=frozenset({"character"}))


@pytest.mark.parametrize(
    ("a", "b", "expected"),
    [
        (CHAR, LAND, True),  # spec example: character collides with landscape
        (CHAR, DEBRIS, True),
        (DEBRIS, DEBRIS, False),  # debris opts out of debris
        (CHAR, CHAR, False),  # character is not in its own whitelist
        (CHAR, None, False),  # an unfiltered collider is in no system: CHAR's whitelist excludes it
        (LAND, None, True),  # no whitelist on either side: collide
        (None, None, True),
        (GHOST, CHAR, False),
        (GHOST, LAND, True),
        (F(frozenset({"a", "b"})), F(frozenset({"c"}), not_collide_with_systems=frozenset({"a"})), True),  # ⊄
        (F(frozenset({"a", "b"})), F(frozenset({"c"}), not_collide_with_systems=frozenset({"a", "b"})), False),
        (F(frozenset({"a", "b"})), F(frozenset({"c"}), frozenset({"a"})), False),  # {a,b} ⊄ whitelist {a}
        (F(frozenset()), F(frozenset({"c"}), not_collide_with_systems=frozenset({"x"})), True),  # empty systems
        (F(frozenset()), F(frozenset({"c"}), frozenset({"x"})), False),
    ],
)
def test_filter_rule_cases(a, b, expected):
    assert pairs.filters_collide(a, b) is expected
    assert pairs.filters_collide(b, a) is expected


def test_asymmetric_acceptance_needs_both_directions():
    table = pairs.FilterTable([CHAR, F(frozenset({"landscape"}), frozenset({"debris"}))])
    assert table.accepts(0, 1)  # CHAR accepts the landscape-only-with-debris filter...
    assert not table.accepts(1, 0)  # ...but that filter does not accept a character
    assert not table.collides(0, 1)


def test_from_dict_and_absent_lists():
    f = F.from_dict({"collisionSystems": ["x"], "notCollideWithSystems": ["y"]})
    assert f.collide_with_systems is None and f.not_collide_with_systems == {"y"}


def test_more_than_64_names_use_several_words():
    names = [f"s{i}" for i in range(150)]
    filters = [F(frozenset({n}), frozenset(names[: i + 1])) for i, n in enumerate(names)]
    table = pairs.FilterTable(filters)
    assert table.words == 3
    m = table.matrix()
    # filter i accepts j iff j <= i, so a pair collides iff i == j
    np.testing.assert_array_equal(m, np.eye(150, dtype=bool))


def scalar_accepts(b, a):
    """Literal set-based statement of the documented rule (the oracle for the vectorised table)."""
    sys_a = (a.collision_systems or frozenset()) if a else frozenset()
    cw = b.collide_with_systems if b else None
    ncw = (b.not_collide_with_systems or frozenset()) if b else frozenset()
    whitelisted = cw is None or (bool(sys_a) and sys_a <= cw)
    excluded = bool(sys_a) and sys_a <= ncw
    return whitelisted and not excluded


name_sets = st.frozensets(st.sampled_from(["a", "b", "c", "d", "e"]), max_size=4)
filters_st = st.one_of(
    st.none(), st.builds(F, name_sets, st.one_of(st.none(), name_sets), st.one_of(st.none(), name_sets))
)


@settings(max_examples=100, deadline=None)
@given(st.lists(filters_st, min_size=1, max_size=8))
def test_matrix_matches_set_oracle(filters):
    m = pairs.FilterTable(filters).matrix()
    expected = np.array([[scalar_accepts(b, a) and scalar_accepts(a, b) for b in filters] for a in filters])
    np.testing.assert_array_equal(m, expected)
    np.testing.assert_array_equal(m, m.T)
