"""io.mapping.support_grid: the pre-roll's support test through footprint cells gives the answer of the test
against every box (``initial_velocity.rests_on_something``), for random worlds with grounds, huge, flat and
non-finite boxes."""

from __future__ import annotations

import math

import numpy as np
import pytest

from testkit import submodule

grid_module = submodule("io.mapping.support_grid")
velocity = submodule("io.mapping.initial_velocity")

GRAVITY = (0.0, 0.0, -9.81)


def _world(rng: np.random.Generator, n: int) -> np.ndarray:
    centre = rng.uniform(-20.0, 20.0, size=(n, 3))
    half = rng.choice([0.0, 0.05, 0.5, 1.0, 3.0], size=(n, 3)) * rng.uniform(0.5, 1.5, size=(n, 3))
    boxes = np.stack([centre - half, centre + half], axis=1)
    for j in range(4, n, 3):  # stacks: a box just above the one before it, overlapping its footprint
        below = boxes[j - 1]
        height = boxes[j, 1, 2] - boxes[j, 0, 2]
        boxes[j, :, :2] = below[:, :2] + rng.uniform(-0.2, 0.2, size=2)
        boxes[j, 0, 2] = below[1, 2] + rng.uniform(0.0, 0.03)
        boxes[j, 1, 2] = boxes[j, 0, 2] + height
    boxes[0] = ((-1000.0, -1000.0, -0.1), (1000.0, 1000.0, 0.0))  # a ground: every query reads it
    if n > 3:
        boxes[1, 0, 0] = math.nan  # broken bounds: read by every query, never a support
        boxes[2, 1, 1] = math.inf
    return boxes


@pytest.mark.parametrize("seed", range(12))
def test_the_grid_answers_like_every_box(seed):
    rng = np.random.default_rng(seed)
    boxes = _world(rng, int(rng.integers(1, 300)))
    grid = grid_module.SupportGrid(boxes)
    agree = hits = 0
    for i in range(len(boxes)):
        own = (tuple(boxes[i, 0]), tuple(boxes[i, 1]))
        v = (0.0, 0.0, float(rng.choice([0.0, 1.0, -2.0])))
        seconds = float(rng.choice([0.05, 0.2]))
        others = np.delete(boxes, i, axis=0)
        expected = velocity.rests_on_something(own, others, v, GRAVITY, seconds)
        assert grid.rests_on_something(own, [i], v, GRAVITY, seconds) == expected
        agree += 1
        hits += expected
    assert agree == len(boxes)
    if len(boxes) > 50:
        assert hits > 0  # the worlds do hold supports


def test_a_query_reads_only_nearby_boxes():
    boxes = np.array([((x, 0.0, 0.0), (x + 1.0, 1.0, 1.0)) for x in range(0, 2000, 2)], dtype=float)
    grid = grid_module.SupportGrid(boxes)
    assert len(grid.candidates(((10.2, 0.2, 2.0), (10.8, 0.8, 3.0)))) <= 3
    assert len(grid.candidates(((-math.inf, 0.0, 0.0), (0.0, 1.0, 1.0)))) == len(boxes)  # non-finite: all


def test_an_empty_world_supports_nothing():
    grid = grid_module.SupportGrid(np.empty((0, 2, 3)))
    assert not grid.rests_on_something(((0, 0, 0), (1, 1, 1)), [], (0, 0, 0), GRAVITY, 0.1)


def test_a_footprint_of_more_cells_than_an_index_holds_is_read_by_every_query():
    """Found by the import fuzz (seed 65): a box 3.5e38 m long made ``len(range(...))`` of its cell columns raise
    OverflowError (more than ``sys.maxsize`` cells), and the initial-velocity pre-roll of the body on it failed."""
    huge = [[-2.0, -1.0, -1.0], [2.0, 1.75e38, 0.0]]
    small = [[0.0, 0.0, 0.0], [1.0, 1.0, 1.0]]
    grid = grid_module.SupportGrid([huge, small])
    assert grid.always == [0]
    assert grid.candidates(small) == [0, 1]
    assert grid.candidates(huge) == [0, 1]  # the query itself covers more cells than any index
