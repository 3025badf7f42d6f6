"""Import at scale (issue 11 items 3 and 4): what the import stores and walks must not grow with the square of the
input. Structure is asserted, not time (``tests/bench/bench_scaling.py`` measures time and memory)."""

from __future__ import annotations

import json
import re

import bpy
from scaling_scenes import chain, drives, filters, omi_drives

from blenderkit import submodule
from joint_helpers import constraints, import_gltf


def _write(tmp_path, name: str, gltf: dict):
    path = tmp_path / f"{name}.gltf"
    path.write_text(json.dumps(gltf), encoding="utf-8")
    return path


def _stored_text(ob) -> int:
    """Characters of the strings stored on a constraint object's ``gltf_physics.joint`` (notes, passthrough)."""
    pj = ob.gltf_physics.joint
    return sum(len(getattr(pj, name)) for name in ("notes", "extras_json", "node_extras_json", "joint_name"))


def test_motor_helpers_store_a_bounded_amount_whatever_the_number_of_drives(clean, tmp_path):
    """Every MOTOR helper stored the notes of all N drives (N² characters for the joint): 3,000 drives took 2.3 GB."""
    sizes = {}
    for n in (4, 40):
        bpy.ops.wm.read_homefile(use_factory_startup=True, use_empty=True)
        import_gltf(clean, _write(tmp_path, f"drives{n}", drives(n)))
        motors = constraints("MOTOR")
        assert len(motors) == n
        (joint,) = constraints("JOINT")
        assert len(joint.gltf_physics.joint.drives) == n  # the drives are stored once, on the joint
        assert all(len(m.gltf_physics.joint.drives) == 0 for m in motors)
        sizes[n] = max(_stored_text(m) for m in motors)
    assert sizes[40] <= sizes[4] + 8  # a motor keeps its own note ("drive 7" vs "drive 37"), not all of them


def test_omi_joint_drives_become_motors_with_their_own_notes(clean, tmp_path):
    report = import_gltf(clean, _write(tmp_path, "omi", omi_drives(6)))
    motors = constraints("MOTOR")
    assert len(motors) == 6 and report.counts["joints"] == 1
    notes = sorted(m.gltf_physics.joint.notes for m in motors)
    assert all(len(re.findall(r"drive \d+:", note)) == 1 for note in notes), notes


def test_distinct_filters_of_many_bodies_import_exactly(clean, tmp_path):
    """200 bodies, each with its own filter (all pairs collide, self-pairs do not matter): one collection."""
    report = import_gltf(clean, _write(tmp_path, "filters", filters(200)))
    bodies = [ob for ob in bpy.context.scene.objects if ob.rigid_body is not None]
    assert len(bodies) == 200
    assert {tuple(ob.rigid_body.collision_collections) for ob in bodies} == {(True,) + (False,) * 19}
    assert report.counts["collision_collections"] == 1


def test_bodies_under_a_deep_chain_find_their_ancestors_once(clean, tmp_path, monkeypatch):
    """400-deep chain with 300 bodies below it: parent look-ups stay O(nodes) (a walk per node was O(n × depth))."""
    context = submodule(clean, "io.importer.context")
    lookups = [0]

    class Counting(dict):
        def get(self, key, default=None):
            lookups[0] += 1
            return super().get(key, default)

    original = context.parent_map
    monkeypatch.setattr(context, "parent_map", lambda nodes: Counting(original(nodes)))
    report = import_gltf(clean, _write(tmp_path, "chain", chain(400, 300)))
    assert report.counts["rigid_bodies"] == 300
    assert sum(1 for ob in bpy.context.scene.objects if ob.rigid_body is not None) == 300
    assert lookups[0] <= 10 * 700


def test_joints_to_the_world_under_a_deep_chain_find_their_world_side_once(clean, tmp_path, monkeypatch):
    """300 joints whose frame A has no body above it (world side) at the end of a 400-deep chain: the world side
    (nearest static collider at or above the frame, else the anchor) was one walk to the root per joint."""
    gltf = chain(400, 300)
    first_body = len(gltf["nodes"]) - 300
    for i in range(300):
        joint = {"joint": {"connectedNode": first_body + i, "joint": 0}}
        gltf["nodes"][399]["children"].append(len(gltf["nodes"]))
        gltf["nodes"].append({"name": f"W{i}", "extensions": {"KHR_physics_rigid_bodies": joint}})
    point = [{"linearAxes": [0, 1, 2], "min": 0.0, "max": 0.0}]
    gltf["extensions"]["KHR_physics_rigid_bodies"] = {"physicsJoints": [{"limits": point}]}
    context = submodule(clean, "io.importer.context")
    lookups = [0]

    class Counting(dict):
        def get(self, key, default=None):
            lookups[0] += 1
            return super().get(key, default)

    original = context.parent_map
    monkeypatch.setattr(context, "parent_map", lambda nodes: Counting(original(nodes)))
    report = import_gltf(clean, _write(tmp_path, "chain_joints", gltf))
    assert report.counts["joints"] == 300
    anchors = {c.rigid_body_constraint.object1.name for c in constraints("JOINT")}
    assert anchors == {"glTF Physics World Anchor"}
    assert lookups[0] <= 10 * len(gltf["nodes"])
