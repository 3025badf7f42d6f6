"""Deep node hierarchies (issue 11 item 4): ancestor questions cost O(nodes), not O(nodes × depth), and nothing in
validate / parse / migrate recurses along the hierarchy.

Counts operations instead of timing them (speed is measured by ``tests/bench/bench_scaling.py``). The same for
questions about a node's subtree: the validator's "has a mesh below" and the writer's "has meshes below".
"""

from __future__ import annotations

import random

from testkit import submodule

nodes_mod = submodule("io.gltf.nodes")
context = submodule("io.gltf.validate.context")
validate = submodule("io.gltf.validate.document")
parse = submodule("io.gltf.parse")
migrate = submodule("io.gltf.migrate")
model = submodule("io.gltf.model")

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


class CountingNode(dict):
    """A node object that counts how often its ``children`` are read."""

    reads = 0

    def get(self, key, default=None):
        if key == "children":
            CountingNode.reads += 1
        return super().get(key, default)


def test_colliders_naming_a_meshless_subtree_read_each_node_a_bounded_number_of_times():
    """2,000 colliders whose ``geometry.node`` is the head of a 2,000-node chain without a mesh: one subtree walk per
    collider read 2,000² children lists (a hostile file of this shape took minutes to validate)."""
    depth = 2000
    nodes = [CountingNode({"children": [i + 1]} if i + 1 < depth else {}) for i in range(depth)]
    collider = {KHR: {"collider": {"geometry": {"node": 0}}}}
    nodes += [CountingNode({"extensions": collider}) for _ in range(depth)]
    gltf = {"asset": {"version": "2.0"}, "extensionsUsed": [KHR], "nodes": nodes}
    CountingNode.reads = 0
    diagnostics = validate.validate_gltf(gltf)
    assert sum(d.code == "GLTF_PHYSICS_GEOMETRY_NODE_WITHOUT_MESH" for d in diagnostics) == depth
    assert CountingNode.reads <= 10 * len(nodes)


def _walk_has_mesh(nodes: list, index) -> bool:
    """The definition: a ``mesh`` on the node or on a node reachable from it through ``children`` (JSON objects
    only, whatever the graph's shape)."""
    stack, seen = [index], set()
    while stack:
        current = stack.pop()
        ok = type(current) is int and 0 <= current < len(nodes) and isinstance(nodes[current], dict)
        if current in seen or not ok:
            continue
        seen.add(current)
        if "mesh" in nodes[current]:
            return True
        children = nodes[current].get("children")
        stack.extend(c for c in (children if isinstance(children, list) else []) if type(c) is int)
    return False


def _random_nodes(rng, n: int, junk: list, mesh_p: float, meshes: list | None, children_p: float, bad: list) -> list:
    """``n`` nodes: one in ten not a JSON object (from ``junk``); a ``mesh`` with probability ``mesh_p`` (one of
    ``meshes``, or 0 without them: present is what counts); ``children`` with probability ``children_p``: indices
    from -1 to n (some missing), a string, or the non-index values ``bad``."""
    nodes: list = []
    for _ in range(n):
        if rng.random() < 0.1:
            nodes.append(rng.choice(junk))
            continue
        node: dict = {}
        if rng.random() < mesh_p:
            node["mesh"] = rng.choice(meshes) if meshes else 0
        if rng.random() < children_p:
            node["children"] = rng.choice([[rng.randrange(-1, n + 1) for _ in range(rng.randint(0, 3))], "0", bad])
        nodes.append(node)
    return nodes


def test_subtree_has_mesh_matches_the_walk_on_random_graphs():
    rng = random.Random(5)
    for _ in range(400):
        n = rng.randint(1, 10)
        nodes = _random_nodes(rng, n, [None, 3, "node", [1]], 0.25, [0, None, "x"], 0.8, [True, 1.0, None])
        ctx = context.Ctx({"nodes": nodes})
        for index in [*range(-1, n + 1), True, "0", None]:
            assert ctx.subtree_has_mesh(index) == _walk_has_mesh(nodes, index), (nodes, index)


write_common = submodule("io.gltf.write.common")


def test_migrating_colliders_whose_nodes_hold_meshes_reads_each_node_a_bounded_number_of_times():
    """A 2,000-node chain, each node with a mesh and a 2024-10 collider naming its own node: the writer asked for
    every collider whether meshes lie below its node by listing the whole subtree (2,000² / 2 children reads)."""
    depth = 2000
    nodes = []
    for i in range(depth):
        node = CountingNode({"mesh": 0, "extensions": {KHR: {"collider": {"geometry": {"node": i}}}}})
        if i + 1 < depth:
            node["children"] = [i + 1]
        nodes.append(node)
    gltf = {"asset": {"version": "2.0"}, "extensionsUsed": [KHR], "nodes": nodes, "meshes": [{"primitives": []}]}
    CountingNode.reads = 0
    _, diagnostics = migrate.migrate(gltf, "2026")
    assert sum("has child meshes" in d.message for d in diagnostics) == depth - 1  # all but the leaf
    assert CountingNode.reads <= 20 * depth


def _listed_meshes_below(nodes: list, index: int) -> bool:
    """The definition: a node other than ``index`` reachable from it through ``children`` (integers naming existing
    nodes) has a ``mesh``."""

    def node(i):
        return nodes[i] if 0 <= i < len(nodes) and isinstance(nodes[i], dict) else {}

    out, stack, seen = [], [index], {index}
    while stack:
        children = node(stack.pop()).get("children")
        for child in children if isinstance(children, list) else []:
            if isinstance(child, int) and child not in seen and 0 <= child < len(nodes):
                seen.add(child)
                out.append(child)
                stack.append(child)
    return any("mesh" in node(c) for c in out)


def test_meshes_below_matches_the_definition_on_random_graphs():
    rng = random.Random(7)
    for _ in range(500):
        n = rng.randint(1, 9)
        nodes = _random_nodes(rng, n, [None, 3, [1]], 0.3, None, 0.85, [True, False, 1.0])
        ctx = write_common.WriteContext(model.PhysicsDocument(), {"nodes": nodes})
        for index in range(n):
            assert ctx.meshes_below(index) == _listed_meshes_below(nodes, index), (nodes, index)
