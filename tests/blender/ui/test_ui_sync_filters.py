"""Collision filters as lists (issue 13, item 4): the list operators, the two scene buttons and the "collides with"
read-out, each checked against the spec's subset rule evaluated by ``sim.pairs``."""

from __future__ import annotations

import itertools
import json

import bpy
import pytest

from blenderkit import submodule
from export_helpers import export
from joint_helpers import import_gltf
from scene_helpers import rigid_body_world, rigid_box
from testkit import fixture
from ui_helpers import draw_panel

NAMES = ("Ground", "Ghost", "Ghost2", "TeamA", "TeamB", "Plain")


def _spec_relation(addon, objects) -> dict:
    """Pair → collide, from the stored filters under the spec's subset rule (``sim.pairs``)."""
    pairs = submodule(addon, "sim.pairs")

    def flt(ob):
        stored = ob.gltf_physics.collider.filter
        if not stored.has_filter:
            return None
        data = {k: json.loads(getattr(stored, f)) for k, f in KEYS.items() if getattr(stored, f)}
        return pairs.CollisionFilter.from_dict(data)

    return {(a.name, b.name): pairs.filters_collide(flt(a), flt(b)) for a, b in itertools.combinations(objects, 2)}


KEYS = {
    "collisionSystems": "collision_systems",
    "collideWithSystems": "collide_with_systems",
    "notCollideWithSystems": "not_collide_with_systems",
}


def _blender_relation(objects) -> dict:
    """Pair → collide in Blender: the two bodies share a collision collection."""

    def sets(ob):
        return {i for i, on in enumerate(ob.rigid_body.collision_collections) if on}

    return {(a.name, b.name): bool(sets(a) & sets(b)) for a, b in itertools.combinations(objects, 2)}


def _run(operator: str, ob, **props) -> set:
    with bpy.context.temp_override(object=ob, active_object=ob):
        return getattr(bpy.ops.gltf_physics, operator)(**props)


def test_collections_from_filters_reproduce_the_spec_relation(clean):
    import_gltf(clean, fixture("joints/filters.gltf"))
    objects = [bpy.data.objects[n] for n in NAMES]
    spec = _spec_relation(clean, objects)
    assert spec[("TeamA", "TeamB")] and not spec[("Ground", "Ghost")] and not spec[("TeamA", "Plain")]
    for ob in objects:  # scrambled: everything in collection 0 (Blender's default)
        ob.rigid_body.collision_collections = [i == 0 for i in range(20)]
    assert _blender_relation(objects) != spec
    assert _run("collections_from_filters", objects[0]) == {"FINISHED"}
    assert _blender_relation(objects) == spec


def test_filters_from_collections_encode_sharing_a_collection(clean, tmp_path):
    rbw = rigid_body_world()
    sets = {"A": {0}, "B": {1}, "C": {0, 1}, "D": set(), "E": {2, 3}, "F": {3}, "G": {0}}
    objects = []
    for n, (name, chosen) in enumerate(sets.items()):
        ob = rigid_box(rbw, name, location=(2.0 * n, 0.0, 0.0))
        ob.rigid_body.collision_collections = [i in chosen for i in range(20)]
        objects.append(ob)
    blender = _blender_relation(objects)
    assert _run("filters_from_collections", objects[0]) == {"FINISHED"}
    assert all(ob.gltf_physics.collider.filter.has_filter for ob in objects)
    assert _spec_relation(clean, objects) == blender
    # and back: collections solved from those filters give the same relation again
    for ob in objects:
        ob.rigid_body.collision_collections = [i == 0 for i in range(20)]
    assert _run("collections_from_filters", objects[0]) == {"FINISHED"}
    assert _blender_relation(objects) == blender
    export(tmp_path / "filters.gltf", "2026")  # the stored filters are written and validate


def test_list_operators_edit_the_stored_filter_and_resolve_collections(clean, tmp_path):
    import_gltf(clean, fixture("joints/filters.gltf"))
    ghost, ground = bpy.data.objects["Ghost"], bpy.data.objects["Ground"]
    objects = [bpy.data.objects[n] for n in NAMES]
    assert not _blender_relation(objects)[("Ground", "Ghost")]
    flt = ghost.gltf_physics.collider.filter
    assert json.loads(flt.not_collide_with_systems) == ["world"]
    field = "not_collide_with_systems"
    assert _run("filter_remove_system", ghost, target="COLLIDER", field=field, index=0) == {"FINISHED"}
    assert flt.not_collide_with_systems == "[]"
    assert _blender_relation(objects)[("Ground", "Ghost")]  # the edit re-solved the collision collections
    assert _blender_relation(objects) == _spec_relation(clean, objects)
    assert _run("filter_add_system", ghost, target="COLLIDER", field=field, name="team") == {"FINISHED"}
    assert json.loads(flt.not_collide_with_systems) == ["team"]
    assert _run("filter_remove_system", ghost, target="COLLIDER", field=field, index=-1) == {"FINISHED"}
    assert flt.not_collide_with_systems == ""  # absent
    assert _run("filter_add_system", ghost, target="COLLIDER", field="collide_with_systems", existing="world") == {
        "FINISHED"
    }
    assert json.loads(flt.collide_with_systems) == ["world"]
    assert _blender_relation(objects) == _spec_relation(clean, objects)
    sync = submodule(clean, "ui.filters.sync_filters")
    assert sync.scene_system_names(bpy.context.scene) == ["ghost", "team", "world"]
    gltf = export(tmp_path / "edited.gltf", "2026")
    written = gltf["extensions"]["KHR_physics_rigid_bodies"]["collisionFilters"]
    assert {"collisionSystems": ["ghost"], "collideWithSystems": ["world"]} in written
    assert ground.rigid_body is not None


def test_collides_with_readout_follows_the_subset_rule(clean):
    import_gltf(clean, fixture("joints/filters.gltf"))
    sync = submodule(clean, "ui.filters.sync_filters")
    objects = [bpy.data.objects[n] for n in NAMES]
    spec = _spec_relation(clean, objects)
    for ob in objects:
        expected = sorted(
            other.name
            for other in objects
            if other is not ob and spec.get((ob.name, other.name), spec.get((other.name, ob.name)))
        )
        assert sync.collides_with(ob) == expected
    assert sync.collides_with(bpy.data.objects["TeamA"]) == ["TeamB"]
    body = submodule(clean, "ui.body.panels_body")
    texts = draw_panel(body.GLTF_PHYSICS_PT_collider, bpy.data.objects["TeamA"]).texts()
    assert "Collides with: TeamB" in texts
    bpy.data.objects["TeamB"].gltf_physics.collider.filter.collide_with_systems = "[]"  # cache invalidated
    assert sync.collides_with(bpy.data.objects["TeamA"]) == []


@pytest.mark.parametrize("target", ["COLLIDER", "TRIGGER"])
def test_list_operators_refuse_malformed_text(clean, target):
    import_gltf(clean, fixture("joints/filters.gltf"))
    ghost = bpy.data.objects["Ghost"]
    group = ghost.gltf_physics.collider.filter if target == "COLLIDER" else ghost.gltf_physics.trigger.filter
    group.has_filter = True
    group.collision_systems = "[not json"
    with pytest.raises(RuntimeError, match="not a JSON list"):
        _run("filter_add_system", ghost, target=target, field="collision_systems", name="x")
    assert group.collision_systems == "[not json"


def test_bodies_authored_in_blender_keep_their_relation(clean):
    """A filter edit re-solves the whole scene: bodies without a stored filter enter with the filter export writes
    for their collections, so their collide / not-collide answers stay as the export will have them."""
    import_gltf(clean, fixture("joints/filters.gltf"))
    rbw = bpy.context.scene.rigidbody_world
    natives = []
    for n, chosen in enumerate(({5}, {5}, {6})):
        ob = rigid_box(rbw, f"Native{n}", location=(0.0, 3.0 * n, 5.0))
        ob.rigid_body.collision_collections = [i in chosen for i in range(20)]
        natives.append(ob)
    before = _blender_relation(natives)
    assert before == {("Native0", "Native1"): True, ("Native0", "Native2"): False, ("Native1", "Native2"): False}
    ghost = bpy.data.objects["Ghost"].gltf_physics.collider.filter
    for text in ('["team"]', '["world"]', '["team"]'):  # repeated re-solves do not drift
        ghost.not_collide_with_systems = text
        relation = _blender_relation([*natives, *(bpy.data.objects[n] for n in NAMES)])
        assert {pair: relation[pair] for pair in before} == before
        assert not any(relation[pair] for pair in relation if "Native2" in pair)  # in no collection after the solve
        imported = [bpy.data.objects[n] for n in NAMES]
        assert _blender_relation(imported) == _spec_relation(clean, imported)
    sync = submodule(clean, "ui.filters.sync_filters")
    assert sync.collides_with(natives[0]) == ["Native1"]


def test_readout_cache_follows_blender_edits_and_handlers_unregister(clean):
    import_gltf(clean, fixture("joints/filters.gltf"))
    sync = submodule(clean, "ui.filters.sync_filters")
    lists = submodule(clean, "ui.filters.filter_lists")
    native = rigid_box(bpy.context.scene.rigidbody_world, "Native", location=(0.0, 0.0, 5.0))
    plain = bpy.data.objects["Plain"]
    assert "Native" in sync.collides_with(plain)  # authored in Blender, collection 0 only: no filter
    native.rigid_body.collision_collections = [False] * 20  # Blender's own panel: no filter edit involved
    bpy.context.view_layer.update()  # the depsgraph update drops the cache
    assert "Native" not in sync.collides_with(plain)
    assert sync.collides_with(native) == []
    assert all(sync.invalidate in getattr(bpy.app.handlers, name) for name in lists.HANDLERS)
    try:
        clean.unregister()
        assert not any(sync.invalidate in getattr(bpy.app.handlers, name) for name in lists.HANDLERS)
    finally:
        clean.register()


def test_a_filter_edit_reaches_a_body_with_a_centre_of_mass(clean, tmp_path):
    """Reproduce Motion simulates a body with a centre of mass through its helper ``<body>.center_of_mass`` (the
    compound): its filter is solved with the others and the helper gets the collections (before: the body was left
    out of the solve and the helper kept the file's collections: edited to collide with the Box, it still did not)."""
    from reproduce_kit import RB, body, import_file, write

    nodes = [body("Ball", [0.0, 5.0, 0.0], centerOfMass=[0.2, 0.0, 0.0]), body("Box", [3.0, 5.0, 0.0])]
    nodes.append(body("Cube", [6.0, 5.0, 0.0]))
    for node, index in zip(nodes, range(3), strict=True):
        node["extensions"][RB]["collider"]["collisionFilter"] = index
    filters = [
        {"collisionSystems": ["a"], "collideWithSystems": ["x"]},  # the Ball collides with nothing
        {"collisionSystems": ["b"], "collideWithSystems": ["a", "c"]},
        {"collisionSystems": ["c"], "collideWithSystems": ["b"]},
    ]
    import_file(write(tmp_path, "filtered", nodes, collisionFilters=filters))
    ball, box, cube = (bpy.data.objects[n] for n in ("Ball", "Box", "Cube"))
    carrier = ball.parent

    def collections(ob) -> set[int]:
        return {i for i, on in enumerate(ob.rigid_body.collision_collections) if on}

    assert carrier.name == "Ball.center_of_mass"
    assert not collections(carrier) & (collections(box) | collections(cube)) and collections(box) & collections(cube)
    ball.gltf_physics.collider.filter.collide_with_systems = json.dumps(["b"])  # now it collides with the Box
    assert collections(carrier) & collections(box) and not collections(carrier) & collections(cube)
    assert collections(box) & collections(cube)
