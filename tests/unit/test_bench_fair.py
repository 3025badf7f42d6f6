"""The pure helpers of ``tests/bench/bench_fair.py`` (issue 32 item 6): the pair order alternates, and the ratios,
added times and linearity are computed from interleaved pairs as docs/benchmarks.md explains them. Nothing about
time is asserted."""

from __future__ import annotations

import math

import pytest

from testkit import bench_module


@pytest.fixture(scope="module")
def fair():
    return bench_module("bench_fair")


def test_pairs_alternate_which_side_runs_first(fair):
    assert [fair.pair_order(i) for i in range(4)] == [("plain", "physics"), ("physics", "plain")] * 2


def test_summary_of_interleaved_pairs(fair):
    s = fair.summarize([1.0, 2.0, 1.5], [1.5, 2.0, 3.0])
    assert s["best"] == 1.5  # fastest physics / fastest plain
    assert s["median"] == 2.0 / 1.5  # median physics / median plain
    assert s["pairs"] == [1.5, 1.0, 2.0]
    assert s["added_median"] == 0.5  # median of the differences 0.5, 0.0, 1.5
    assert s["added_best"] == 0.5
    with pytest.raises(ValueError):
        fair.summarize([1.0], [1.0, 2.0])


def test_linearity_compares_added_time_per_body(fair):
    rows = [
        {"bodies": 1000, "plain": [1.0, 1.2], "physics": [1.1, 1.3]},  # +0.1 s: 100 µs per body
        {"bodies": 10000, "plain": [10.0, 10.0], "physics": [11.2, 11.3]},  # +1.25 s: 125 µs per body
    ]
    lin = fair.linearity(rows)
    assert lin["sizes"] == [1000, 10000]
    assert lin["added_per_body"] == pytest.approx([1e-4, 1.25e-4])
    assert lin["ratio"] == pytest.approx(1.25)
    assert lin["ratio_best"] == pytest.approx((1.2 / 10000) / (0.1 / 1000))
    assert math.isnan(fair.linearity([{"bodies": 1, "plain": [1.0], "physics": [0.5]}])["ratio"])


def test_hooks_share_skips_files_not_measured(fair):
    files = [
        {"file": "a.gltf", "hooks": 1.0, "plain": 4.0},
        {"file": "b.gltf", "hooks": 3.0, "plain": 4.0},
        {"file": "c.gltf", "error": "Bad glTF"},
    ]
    share = fair.hooks_share(files)
    assert (share["files"], share["hooks"], share["plain"]) == (2, 4.0, 8.0)
    assert share["ratio"] == 0.5 and share["max_file_ratio"] == 0.75 and share["files_over_half"] == 1


def test_added_time_split_into_our_hooks_and_the_rest(fair):
    runs = {  # CPU seconds: the plain side's hooks return at once, the physics side's do the work
        "plain": [{"cpu": 1.0, "hooks": 0.01}, {"cpu": 1.2, "hooks": 0.03}, {"cpu": 1.1, "hooks": 0.02}],
        "physics": [{"cpu": 1.6, "hooks": 0.4}, {"cpu": 1.8, "hooks": 0.5}, {"cpu": 1.7, "hooks": 0.45}],
    }
    split = fair.hooks_split(runs)
    assert split["plain"] == pytest.approx(1.1)
    assert split["hooks"] == pytest.approx(0.45 - 0.02)
    assert split["outside"] == pytest.approx((1.7 - 0.45) - (1.1 - 0.02))  # 0.17 s outside our hooks
    assert split["floor"] == pytest.approx((1.1 + 0.17) / 1.1)  # the ratio if our hooks cost nothing more
