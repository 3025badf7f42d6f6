"""Combine modes pre-combined per contact pair (``io/mapping/combine_pairs``): exact for bodies on a ground, the
rest reported."""

from __future__ import annotations

import pytest

from testkit import submodule

cp = submodule("io.mapping.combine_pairs")
PM = submodule("sim.pairs").PhysicsMaterial
ALL = frozenset({0})


def _material(friction: float, restitution: float, mode: str | None) -> object:
    return PM(
        dynamic_friction=friction,
        static_friction=friction,
        restitution=restitution,
        friction_combine=mode,
        restitution_combine=mode,
    )


GROUND = cp.Body("ground", _material(0.8, 0.8, "multiply"), ALL)


@pytest.mark.parametrize(
    ("mode", "expected"), [("average", 0.5), ("minimum", 0.2), ("maximum", 0.8), ("multiply", 0.16)]
)
def test_bodies_on_a_ground_get_the_combined_value_and_the_ground_one(mode, expected):
    body = cp.Body("cube", _material(0.2, 0.2, mode), ALL)
    plan = cp.plan([body], [GROUND])
    if mode == "multiply":  # multiply against multiply: Blender's product already is the file's value
        assert plan is None and cp.current(body.material)["friction"] * 0.8 == pytest.approx(expected)
        return
    assert plan.values["ground"] == {"friction": 1.0, "restitution": 1.0}
    assert plan.values["cube"] == pytest.approx({"friction": expected, "restitution": expected})
    assert plan.exact == ["cube"] and not plan.problems


def test_same_materials_need_nothing():
    material = _material(0.5, 0.3, "average")
    assert cp.plan([cp.Body("a", material, ALL), cp.Body("b", material, ALL)], [cp.Body("g", material, ALL)]) is None
    assert cp.plan([cp.Body("a", None, ALL)], [cp.Body("g", None, ALL)]) is None  # default materials


def test_a_body_that_cannot_touch_the_ground_is_left_alone():
    body = cp.Body("cube", _material(0.2, 0.2, "average"), frozenset({1}))
    touching = cp.Body("other", _material(0.2, 0.2, "minimum"), ALL)
    plan = cp.plan([body, touching], [GROUND])
    assert "cube" not in plan.values and plan.values["other"]["friction"] == pytest.approx(0.2)


def test_different_static_partners_are_reported():
    grounds = [GROUND, cp.Body("ice", _material(0.0, 0.0, "minimum"), ALL)]
    plan = cp.plan([cp.Body("cube", _material(0.2, 0.2, "average"), ALL)], grounds)
    assert plan.exact == [] and [key for key, _ in plan.problems] == ["cube"]
    assert "static bodies it can touch need different values" in plan.problems[0][1]


def test_dynamic_pairs_that_combine_wrongly_are_reported_once_per_kind_pair():
    a = [cp.Body(f"a{i}", _material(0.2, 0.2, "average"), ALL) for i in range(3)]
    b = cp.Body("b", _material(0.2, 0.2, "maximum"), ALL)
    plan = cp.plan([*a, b], [GROUND])
    keys = [key for key, _ in plan.approximations]
    assert keys == ["a0", "a0"]  # a-a and a-b, at the first body of the first kind; b-b not (one body)
    assert all("Blender gives" in message for _, message in plan.approximations)
    assert not plan.problems  # on the ground every body is exact


def test_many_bodies_are_planned_per_kind():
    import time

    kinds = [_material(0.1 * (i + 1), 0.1 * i, mode) for i, mode in enumerate(("average", "minimum", "maximum"))]
    dynamic = [cp.Body(i, kinds[i % 3], ALL) for i in range(30_000)]
    static = [cp.Body(-1 - i, GROUND.material, ALL) for i in range(10_000)]
    began = time.perf_counter()
    plan = cp.plan(dynamic, static)
    assert time.perf_counter() - began < 2.0  # per kind pair: not 3 × 10^8 body pairs
    assert len(plan.values) == 40_000 and plan.exact == [0, 1, 2]
    assert plan.values[29_999] == pytest.approx(cp.combined(kinds[2], GROUND.material))


@pytest.mark.parametrize(
    ("materials", "exact"),
    [
        ([_material(0.2, 0.1, "multiply"), _material(0.8, 0.5, "multiply")], True),  # Blender's own rule
        ([_material(0.5, 0.3, "average")], True),  # one material: the square root is exact against itself
        ([_material(0.5, 0.3, "average"), None], False),  # two materials averaged: not a product
        ([_material(0.2, 0.1, "minimum"), _material(0.8, 0.5, "multiply")], False),
        ([None, None], True),
    ],
)
def test_default_rule_exact_says_when_no_pair_needs_a_plan(materials, exact):
    """The import's shortcut (``reproduce.combine.build``): when it says exact, ``plan`` returns None for any bodies
    with these materials, whatever their roles and collections."""
    assert cp.default_rule_exact(materials) is exact
    bodies = [cp.Body(i, m, ALL) for i, m in enumerate(materials)]
    for dynamic in bodies:
        result = cp.plan([dynamic], [b for b in bodies if b is not dynamic] or [dynamic])
        if exact:
            assert result is None
    if not exact:
        assert any(cp.plan([d], [s]) is not None for d in bodies for s in bodies if d is not s)
