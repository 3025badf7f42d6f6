"""Collision collections authored in Blender export as KHR filters that keep Blender's rule (two bodies collide iff
they share a collection) for overlapping sets too (issue 12): the scene is played in Blender, exported, and the
written filters are read back with the project's reference filter rule (``sim.pairs``)."""

from __future__ import annotations

import bpy

from blenderkit import submodule
from export_helpers import export, last_export
from scene_helpers import rigid_body_world, rigid_box

RB = "KHR_physics_rigid_bodies"
FRAMES = 40


def _box(rbw, name, size, location, kind, collections):
    """A box rigid body in the given collision collections (indices into Blender's 20-bool array)."""
    ob = rigid_box(rbw, name, size, kind=kind, location=location)
    ob.rigid_body.collision_collections = [i in collections for i in range(20)]
    return ob


def _issue_scene():
    """Ground {1} (PASSIVE), a box {1, 3} above it, two boxes {3} beside it: Blender drops the {3}-only boxes
    through the ground."""
    rbw = rigid_body_world()
    _box(rbw, "Ground", (12, 12, 1), (0, 0, 0), "PASSIVE", {1})
    _box(rbw, "Box", (1, 1, 1), (0, 0, 1.5), "ACTIVE", {1, 3})
    _box(rbw, "BoxesA", (1, 1, 1), (4, 0, 1.5), "ACTIVE", {3})
    _box(rbw, "BoxesB", (1, 1, 1), (-4, 0, 1.5), "ACTIVE", {3})


def _heights_after_play() -> dict[str, float]:
    scene = bpy.context.scene
    for frame in range(scene.frame_start, scene.frame_start + FRAMES):
        scene.frame_set(frame)
    depsgraph = bpy.context.evaluated_depsgraph_get()
    names = ("Box", "BoxesA", "BoxesB")
    return {n: scene.objects[n].evaluated_get(depsgraph).matrix_world.translation.z for n in names}


def test_overlapping_collections_export_as_blender_plays_them(clean, tmp_path):
    _issue_scene()
    out = export(tmp_path / "collections.gltf", "2026")
    pairs = submodule(clean, "sim.pairs")
    filters = out["extensions"][RB]["collisionFilters"]

    def flt(name):
        (node,) = [n for n in out["nodes"] if n.get("name") == name]
        return pairs.CollisionFilter.from_dict(filters[node["extensions"][RB]["collider"]["collisionFilter"]])

    def collide(a, b):
        return pairs.filters_collide(flt(a), flt(b))

    assert collide("Ground", "Box")
    assert not collide("Ground", "BoxesA") and not collide("Ground", "BoxesB")
    assert collide("Box", "BoxesA") and collide("BoxesA", "BoxesB")
    assert flt("Box").collision_systems == {"collections_1_3"}
    assert flt("Ground").collision_systems == {"collection_1"}
    report = last_export(clean)
    assert not [d for d in report.diagnostics if "collision collections" in d.message]  # exact: nothing to report
    # Blender itself (the oracle): the {1, 3} box rests on the ground, the {3}-only boxes fall through it.
    heights = _heights_after_play()
    assert heights["Box"] > 0.9, heights
    assert heights["BoxesA"] < -1.0 and heights["BoxesB"] < -1.0, heights
