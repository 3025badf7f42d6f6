"""Triggers get the "Overlaps with: …" read-out: the scene's bodies the trigger's stored filter accepts under the
spec's subset rule (checked pair by pair with ``sim.pairs``), cached with the colliders' relation."""

from __future__ import annotations

import json

import bpy

from blenderkit import submodule
from joint_helpers import import_gltf
from scene_helpers import box_object
from testkit import fixture
from ui_helpers import draw_panel

NAMES = ("Ground", "Ghost", "Ghost2", "TeamA", "TeamB", "Plain")
KEYS = {
    "collisionSystems": "collision_systems",
    "collideWithSystems": "collide_with_systems",
    "notCollideWithSystems": "not_collide_with_systems",
}


def _pair_filter(pairs, stored):
    if not stored.has_filter:
        return None
    return pairs.CollisionFilter.from_dict(
        {k: json.loads(getattr(stored, f)) for k, f in KEYS.items() if getattr(stored, f)}
    )


def test_trigger_overlaps_follow_the_subset_rule_and_the_panel_draws_them(clean):
    import_gltf(clean, fixture("joints/filters.gltf"))
    sync = submodule(clean, "ui.filters.sync_filters")
    pairs = submodule(clean, "sim.pairs")
    sensor = box_object("Sensor", (1, 1, 1), location=(0.0, 0.0, 8.0))
    pg = sensor.gltf_physics
    pg.trigger.has_trigger = True
    # no filter: every body whose own filter accepts an unfiltered object (TeamA / TeamB only collide with "team")
    assert sync.overlaps_with(sensor) == ["Ghost", "Ghost2", "Ground", "Plain"]
    pflt = pg.trigger.filter
    pflt.has_filter = True
    pflt.collision_systems = '["sensor"]'
    pflt.collide_with_systems = '["ghost", "world"]'
    hits = sync.overlaps_with(sensor)
    trigger = _pair_filter(pairs, pflt)
    expected = [
        n
        for n in NAMES
        if pairs.filters_collide(trigger, _pair_filter(pairs, bpy.data.objects[n].gltf_physics.collider.filter))
    ]
    assert hits == sorted(expected)
    assert {"Ground", "Ghost", "Ghost2"} <= set(hits) and "TeamA" not in hits
    ghost = bpy.data.objects["Ghost"].gltf_physics.collider.filter
    ghost.not_collide_with_systems = '["sensor"]'  # a collider edit drops the cache: the trigger loses Ghost
    assert "Ghost" not in sync.overlaps_with(sensor)
    panel = submodule(clean, "ui.body.panels_body").GLTF_PHYSICS_PT_trigger
    texts = draw_panel(panel, sensor).texts()
    assert f"Overlaps with: {', '.join(sync.overlaps_with(sensor))}" in texts
    pflt.collide_with_systems = "[broken"
    assert sync.overlaps_with(sensor) is None
    assert sync.overlaps_with(bpy.data.objects["Plain"]) is None  # not a trigger
