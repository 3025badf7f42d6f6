"""Deep node hierarchies (issue 11 item 4): ancestor questions cost O(nodes), not O(nodes × depth), and nothing in
validate / parse / migrate recurses along the hierarchy.

Counts operations instead of timing them (speed is measured by ``tests/bench/bench_scaling.py``).
"""

from __future__ import annotations

import random

from testkit import submodule

nodes_mod = submodule("io.gltf.nodes")
context = submodule("io.gltf.validate.context")
validate = submodule("io.gltf.validate.document")
parse = submodule("io.gltf.parse")
migrate = submodule("io.gltf.migrate")

KHR = "KHR_physics_rigid_bodies"


def chain(depth: int, body_every: int | None = None) -> dict:
    """A chain of ``depth`` nodes (node i + 1 is the child of node i); a box body at the leaf, and on every
    ``body_every``-th node when given."""
    nodes = []
    for i in range(depth):
        node: dict = {"children": [i + 1]} if i + 1 < depth else {}
        if i == depth - 1 or (body_every and i % body_every == 0):
            node["extensions"] = {KHR: {"motion": {"mass": 1.0}, "collider": {"geometry": {"shape": 0}}}}
        nodes.append(node)
    return {
        "asset": {"version": "2.0"},
        "extensionsUsed": [KHR, "KHR_implicit_shapes"],
        "extensions": {"KHR_implicit_shapes": {"shapes": [{"type": "box", "box": {"size": [1, 1, 1]}}]}},
        "scenes": [{"nodes": [0]}],
        "scene": 0,
        "nodes": nodes,
    }


def _walk(index, parents, marked):
    """The definition: the first marked node of ``[index, *ancestors(index)]``."""
    return next((a for a in [index, *nodes_mod.ancestors(index, parents)] if a in marked), None)


def test_nearest_marked_matches_the_walk_on_random_forests_with_cycles():
    rng = random.Random(11)
    for _ in range(300):
        n = rng.randint(1, 12)
        parents = {c: rng.randrange(n) for c in range(n) if rng.random() < 0.8}
        parents = {c: p for c, p in parents.items() if c != p}
        marked = {i for i in range(n) if rng.random() < 0.3}
        starts = rng.sample(range(n), rng.randint(1, n))
        got = nodes_mod.nearest_marked(parents, marked, starts)
        for i in starts:
            assert got[i] == _walk(i, parents, marked), (parents, marked, i)


class CountingDict(dict):
    """A parent map that counts its look-ups."""

    lookups = 0

    def get(self, key, default=None):
        CountingDict.lookups += 1
        return super().get(key, default)

    def __getitem__(self, key):
        CountingDict.lookups += 1
        return super().__getitem__(key)

    def __contains__(self, key):
        CountingDict.lookups += 1
        return super().__contains__(key)


def test_validating_many_bodies_in_a_deep_chain_looks_each_parent_up_a_bounded_number_of_times(monkeypatch):
    """A body on every node of a 2,000-deep chain: one ancestor walk per body was 2,000² / 2 parent look-ups."""
    original = context.Ctx.parents

    def counting(self):
        parents = original(self)
        if not isinstance(parents, CountingDict):
            self._parents = CountingDict(parents)
        return self._parents

    monkeypatch.setattr(context.Ctx, "parents", counting)
    CountingDict.lookups = 0
    depth = 2000
    diagnostics = validate.validate_gltf(chain(depth, body_every=1))
    assert not [d for d in diagnostics if d.code == "INTERNAL_ERROR"]
    assert CountingDict.lookups <= 10 * depth


def test_a_64000_deep_chain_validates_parses_and_migrates_without_recursion():
    gltf = chain(64_000)
    diagnostics = validate.validate_gltf(gltf)
    assert not [d for d in diagnostics if d.severity.name == "ERROR"], diagnostics[:5]
    result = parse.parse_gltf(gltf)
    assert result.document.nodes[63_999].motion is not None
    out, diags = migrate.migrate(gltf, "2026")
    assert isinstance(out, dict) and len(out["nodes"]) == 64_000
    assert not [d for d in diags if "Recursion" in d.message or "internal" in d.code.lower()]
