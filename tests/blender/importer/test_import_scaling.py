"""Import at scale (issue 11 items 3 and 4): what the import stores and walks must not grow with the square of the
input. Structure is asserted, not time (``tests/bench/bench_scaling.py`` measures time and memory)."""

from __future__ import annotations

import json
import re

import bpy
import pytest
from scaling_scenes import chain, drives, filters, omi_drives

from blenderkit import submodule
from export_helpers import export, last_export
from joint_helpers import constraints, import_gltf


def _write(tmp_path, name: str, gltf: dict):
    path = tmp_path / f"{name}.gltf"
    path.write_text(json.dumps(gltf), encoding="utf-8")
    return path


def _stored_text(ob) -> int:
    """Characters of the strings stored on a constraint object's ``gltf_physics.joint`` (notes, passthrough)."""
    pj = ob.gltf_physics.joint
    return sum(len(getattr(pj, name)) for name in ("notes", "extras_json", "node_extras_json", "joint_name"))


def _mixed_drives(n: int) -> dict:
    """:func:`scaling_scenes.drives` with every other drive linear: velocity drives on all six (type, axis)."""
    gltf = drives(n)
    for i, drive in enumerate(gltf["extensions"]["KHR_physics_rigid_bodies"]["physicsJoints"][0]["drives"]):
        if i % 2:
            drive["type"] = "linear"
    return gltf


def test_one_motor_helper_per_driven_axis_whatever_the_number_of_drives(clean, tmp_path):
    """One MOTOR Empty per velocity drive: 100,000 drives needed 100,000 Blender objects (3.0 GiB). The drives of
    one (type, axis) add up to one drive, so at most 6 helpers; every drive is still stored on the joint."""
    report = import_gltf(clean, _write(tmp_path, "drives2000", _mixed_drives(2000)))
    motors = constraints("MOTOR")
    assert len(motors) == 6
    assert (
        sorted((m.rigid_body_constraint.use_motor_lin, m.rigid_body_constraint.use_motor_ang) for m in motors)
        == [(False, True)] * 3 + [(True, False)] * 3
    )
    (joint,) = constraints("JOINT")
    assert len(joint.gltf_physics.joint.drives) == 2000
    assert all(len(m.gltf_physics.joint.drives) == 0 for m in motors)
    assert max(_stored_text(m) for m in motors) < 400  # its own note, naming a few drives, not 333 of them
    drive_notes = [d for d in report.diagnostics if "drive" in d.message]
    assert len(drive_notes) == 6, [d.message for d in drive_notes]  # one per MOTOR, not one per drive
    assert all("333 velocity drives" in d.message or "334 velocity drives" in d.message for d in drive_notes)


def test_every_drive_of_a_combined_motor_is_exported_unchanged(clean, tmp_path):
    """The helpers stand for the drives; the export writes the joint's 2,000 stored drives back as they were."""
    gltf = _mixed_drives(2000)
    import_gltf(clean, _write(tmp_path, "drives2000", gltf))
    out = export(tmp_path / "out.gltf", "2026")
    (written,) = out["extensions"]["KHR_physics_rigid_bodies"]["physicsJoints"]
    assert written["drives"] == gltf["extensions"]["KHR_physics_rigid_bodies"]["physicsJoints"][0]["drives"]
    assert last_export(clean).counts.get("joints") == 1


def test_drives_on_one_axis_add_up_to_the_motor_target(clean, tmp_path):
    """Forces of drives on one degree of freedom add: d₁(u₁ − v) + d₂(u₂ − v) = (d₁ + d₂)(ū − v), ū the
    damping-weighted mean target; the max impulse is the sum of the maxForces (OMI, the issue's report)."""
    gltf = omi_drives(2)
    gltf["extensions"]["OMI_physics_joint"]["physicsJoints"][0]["drives"] = [
        {"type": "angular", "mode": "force", "axis": 1, "velocityTarget": 1.0, "damping": 1.0, "maxForce": 4.0},
        {"type": "angular", "mode": "force", "axis": 1, "velocityTarget": 3.0, "damping": 3.0, "maxForce": 6.0},
        {"type": "linear", "mode": "force", "axis": 1, "velocityTarget": 0.5, "damping": 2.0},
    ]
    report = import_gltf(clean, _write(tmp_path, "omi", gltf))
    assert report.counts["joints"] == 1
    angular, linear = sorted(constraints("MOTOR"), key=lambda m: m.rigid_body_constraint.use_motor_lin)
    c = angular.rigid_body_constraint
    assert c.use_motor_ang and not c.use_motor_lin
    assert c.motor_ang_target_velocity == pytest.approx(-2.5)  # −(1·1 + 3·3) / (1 + 3): MOTOR turns about −X
    assert c.motor_ang_max_impulse == pytest.approx(10.0)
    assert re.findall(r"drives? [\d, ]+", angular.gltf_physics.joint.notes) == ["drives 0, 1"]
    assert linear.rigid_body_constraint.motor_lin_target_velocity == pytest.approx(-0.5)
    assert linear.gltf_physics.joint.notes.startswith("drive 2: velocity drive → MOTOR")


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
