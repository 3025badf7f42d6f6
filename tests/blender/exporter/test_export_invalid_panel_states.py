"""Panel states the file cannot carry (issue 35): a joint limit with its three axes unticked and a compound
trigger's member with *Is Trigger* off. The export writes no invalid physics (the written JSON passes the
project's validator) and warns, naming the object."""

from __future__ import annotations

import bpy

from blenderkit import submodule
from export_helpers import import_edit_export
from testkit import FIXTURES

RB = "KHR_physics_rigid_bodies"


def _errors(addon, written: dict) -> list[str]:
    parse = submodule(addon, "io.gltf.parse")
    return [f"{d.code} {d.pointer}" for d in parse.parse_gltf(written).diagnostics if d.severity.name == "ERROR"]


def _warnings(diagnostics) -> list[str]:
    return [d.message for d in diagnostics if d.severity.name == "WARNING"]


def test_a_limit_with_no_axis_ticked_is_left_out_with_a_warning(addon, tmp_path):
    def untick():
        (empty,) = [ob for ob in bpy.data.objects if ob.gltf_physics.joint.role == "JOINT"]
        limit = empty.gltf_physics.joint.limits[0]
        limit.axes = (False, False, False)
        return empty.name, len(empty.gltf_physics.joint.limits)

    written, diagnostics, (name, before) = import_edit_export(
        addon, FIXTURES / "joints" / "hinge_x.gltf", untick, tmp_path / "out.gltf"
    )
    assert _errors(addon, written) == []
    (joint,) = written["extensions"][RB]["physicsJoints"]
    assert len(joint.get("limits", [])) == before - 1
    assert any(name in m and "no axis" in m for m in _warnings(diagnostics)), _warnings(diagnostics)


def test_a_compound_trigger_member_that_is_no_trigger_is_left_out_with_a_warning(addon, tmp_path):
    def switch_off():
        bpy.data.objects["PartA"].gltf_physics.trigger.has_trigger = False

    written, diagnostics, _ = import_edit_export(
        addon, FIXTURES / "import" / "triggers.gltf", switch_off, tmp_path / "out.gltf"
    )
    assert _errors(addon, written) == []
    nodes = {n["name"]: n.get("extensions", {}).get(RB, {}) for n in written["nodes"]}
    members = [written["nodes"][i]["name"] for i in nodes["Compound"]["trigger"]["nodes"]]
    assert members == ["PartB"]
    assert any("Compound" in m and "PartA" in m for m in _warnings(diagnostics)), _warnings(diagnostics)
