"""A body authored in Blender in no collision collection collides with nothing in Blender; the exported filters must
say so also against imported colliders that keep their file's filters (``/tmp/notes/sync.md``, "Exporter problem"):
the written JSON is read back and every pair is evaluated with the spec's subset rule (``sim.pairs``)."""

from __future__ import annotations

from blenderkit import submodule
from export_helpers import export
from joint_helpers import import_gltf
from scene_helpers import rigid_body_world, rigid_box
from testkit import fixture

RB = "KHR_physics_rigid_bodies"


def _written_filters(addon, gltf: dict) -> dict:
    pairs = submodule(addon, "sim.pairs")
    table = gltf["extensions"][RB].get("collisionFilters", [])
    out = {}
    for node in gltf["nodes"]:
        collider = node.get("extensions", {}).get(RB, {}).get("collider")
        if collider is not None:
            index = collider.get("collisionFilter")
            out[node["name"]] = None if index is None else pairs.CollisionFilter.from_dict(table[index])
    return out


def test_body_in_no_collection_collides_with_nothing_among_imported_filters(clean, tmp_path):
    import_gltf(clean, fixture("joints/filters.gltf"))  # Ground {world}, Ghost {ghost} not world, teams, Plain
    rbw = rigid_body_world()
    loner = rigid_box(rbw, "Loner", location=(0.0, 0.0, 9.0))
    loner.rigid_body.collision_collections = [False] * 20  # Blender: collides with nothing
    other = rigid_box(rbw, "Native", location=(3.0, 0.0, 9.0))  # collection 0
    pairs = submodule(clean, "sim.pairs")
    written = _written_filters(clean, export(tmp_path / "isolated.gltf", "2026"))
    assert {"Loner", "Native", "Ground", "Ghost", "Plain"} <= set(written)
    touching = sorted(n for n, f in written.items() if n != "Loner" and pairs.filters_collide(written["Loner"], f))
    assert touching == []
    assert written["Loner"].collide_with_systems == frozenset({"collides_with_nothing"})  # no collider's system
    assert other.rigid_body.collision_collections[0] and written["Native"] is not None
