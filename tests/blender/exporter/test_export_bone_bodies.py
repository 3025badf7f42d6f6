"""Physics on nodes that io_scene_gltf2 turns into armature bones survives import → export (issue 34): the import
keeps it on a bone stand-in (``io/mapping/bone_nodes.py``, ``io/importer/bone_stand_ins.py``) with one WARNING
that Blender plays it differently, and the export writes it back onto the bone's own node (``gather_joint_hook``),
its joints' ``connectedNode`` and its shape / material / filter indices renumbered for the written file."""

from __future__ import annotations

import base64
import contextlib
import json
import struct

import bpy
import pytest
from mathutils import Vector

from blenderkit import submodule
from export_helpers import canonical, close, export
from testkit import corpus_files, corpus_id, read_json

RB = "KHR_physics_rigid_bodies"
ROBOTS = corpus_files("*/samples/Robot_skinned/Robot_skinned.gltf", sample=False)
ROBOT_BONES = ("Robot_Robot_Body_RB", "Robot_Robot_Head")  # the two body nodes that become bones


def _skinned_gltf() -> dict:
    """A triangle skinned to two joints: ``Hip`` (a dynamic body with a box collider, a material, a filter and a
    sphere trigger) and its child ``Arm`` (a kinematic body with a sphere, and a box on its child node ``Grip``, not a
    bone: a compound); ``HipFrame`` (a child of the bone ``Hip``) joins the two bodies with ``ArmFrame`` (a child of
    ``Arm``)."""
    positions = struct.pack("<9f", 0, 0, 0, 1, 0, 0, 0, 1, 0)
    joints = struct.pack("<12B", *([0, 1, 0, 0] * 3))
    weights = struct.pack("<12f", *([0.5, 0.5, 0, 0] * 3))
    hip_inverse = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, -0.5, 0, 0, 1]  # Hip at (0.5, 0, 0), Arm 1 m above it
    arm_inverse = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, -0.5, -1, 0, 1]
    binds = struct.pack("<32f", *hip_inverse, *arm_inverse)
    data = positions + joints + weights + binds
    views = [(0, 36, 34962), (36, 12, 34962), (48, 48, 34962), (96, 128, None)]
    return {
        "asset": {"version": "2.0"},
        "extensionsUsed": [RB, "KHR_implicit_shapes"],
        "extensions": {
            "KHR_implicit_shapes": {
                "shapes": [
                    {"type": "box", "box": {"size": [0.4, 0.2, 0.3]}},
                    {"type": "sphere", "sphere": {"radius": 0.15}},
                ]
            },
            RB: {
                "physicsMaterials": [{"staticFriction": 0.3, "dynamicFriction": 0.25, "restitution": 0.1}],
                "collisionFilters": [{"collisionSystems": ["body"], "collideWithSystems": ["world"]}],
                "physicsJoints": [{"limits": [{"linearAxes": [0, 1, 2], "min": 0, "max": 0}]}],
            },
        },
        "scene": 0,
        "scenes": [{"nodes": [0]}],
        "nodes": [
            {"name": "Rig", "children": [1, 2]},
            {"name": "Skin", "mesh": 0, "skin": 0},
            {
                "name": "Hip",
                "translation": [0.5, 0.0, 0.0],
                "children": [3, 4],
                "extensions": {
                    RB: {
                        "motion": {"mass": 2.0, "centerOfMass": [0.0, 0.1, 0.0], "linearVelocity": [0.0, 0.0, 1.0]},
                        "collider": {"geometry": {"shape": 0}, "physicsMaterial": 0, "collisionFilter": 0},
                        "trigger": {"geometry": {"shape": 1}},
                    }
                },
            },
            {
                "name": "Arm",
                "translation": [0.0, 1.0, 0.0],
                "children": [5, 6],
                "extensions": {
                    RB: {"motion": {"mass": 0.5, "isKinematic": True}, "collider": {"geometry": {"shape": 1}}}
                },
            },
            {
                "name": "HipFrame",
                "translation": [0.0, 0.5, 0.0],
                "extensions": {RB: {"joint": {"connectedNode": 5, "joint": 0, "enableCollision": False}}},
            },
            {"name": "ArmFrame", "translation": [0.0, -0.5, 0.0]},
            {
                "name": "Grip",
                "translation": [0.2, 0.0, 0.0],
                "extensions": {RB: {"collider": {"geometry": {"shape": 0}}}},
            },
        ],
        "meshes": [
            {"primitives": [{"attributes": {"POSITION": 0, "JOINTS_0": 1, "WEIGHTS_0": 2}}], "name": "SkinMesh"}
        ],
        "skins": [{"joints": [2, 3], "inverseBindMatrices": 3}],
        "accessors": [
            {"bufferView": 0, "componentType": 5126, "count": 3, "type": "VEC3", "min": [0, 0, 0], "max": [1, 1, 0]},
            {"bufferView": 1, "componentType": 5121, "count": 3, "type": "VEC4"},
            {"bufferView": 2, "componentType": 5126, "count": 3, "type": "VEC4"},
            {"bufferView": 3, "componentType": 5126, "count": 2, "type": "MAT4"},
        ],
        "bufferViews": [
            {"buffer": 0, "byteOffset": offset, "byteLength": length, **({"target": target} if target else {})}
            for offset, length, target in views
        ],
        "buffers": [
            {"byteLength": len(data), "uri": "data:application/octet-stream;base64," + base64.b64encode(data).decode()}
        ],
    }


def _max_diff(a, b) -> float:
    return max(abs(x - y) for row_a, row_b in zip(a, b, strict=True) for x, y in zip(row_a, row_b, strict=True))


def _names(gltf: dict) -> list[str]:
    return [node.get("name", f"Node_{i}") for i, node in enumerate(gltf["nodes"])]


def _by_name(gltf: dict) -> dict[str, dict]:
    return {name: node for name, node in zip(_names(gltf), gltf["nodes"], strict=True)}


def _joint_bodies(gltf: dict) -> list[tuple[str, str, str]]:
    """(joint node name, its body's node name, the connected side's body's node name) of every joint, sorted: the
    bodies are the nearest ancestors-or-self with a ``motion``."""
    nodes, names = gltf["nodes"], _names(gltf)
    parents = {c: i for i, n in enumerate(nodes) for c in n.get("children", [])}

    def body(index):
        while index is not None:
            if "motion" in (nodes[index].get("extensions") or {}).get(RB, {}):
                return names[index]
            index = parents.get(index)
        return None

    out = []
    for i, node in enumerate(nodes):
        joint = (node.get("extensions") or {}).get(RB, {}).get("joint")
        if joint is not None:
            out.append((names[i].split(".")[0], body(i), body(joint["connectedNode"])))
    return sorted(out)


@pytest.mark.parametrize("probes", ["pass", "fail"])
def test_bodies_on_bone_nodes_survive_import_and_export(clean, tmp_path, gltf_errors, capfd, probes):
    """``probes="fail"``: io_scene_gltf2's bone vnodes unused (``gltf_addon.bone_of``'s public-hook path: the bone
    named as the node), the same result."""
    source = tmp_path / "skinned.gltf"
    source.write_text(json.dumps(_skinned_gltf()))
    adapter = submodule(clean, "io.gltf_addon")
    with adapter.probes_failing() if probes == "fail" else contextlib.nullcontext():
        assert bpy.ops.import_scene.gltf(filepath=str(source)) == {"FINISHED"}
    bones = submodule(clean, "io.mapping.bone_nodes")
    imported = submodule(clean, "io.hooks").last_report("import")
    assert not [str(d) for d in imported.diagnostics if d.code == "GLTF_PHYSICS_IMPORT_SKIPPED"]
    warned = [d for d in imported.diagnostics if d.code == "GLTF_PHYSICS_IMPORT_NOT_REPRODUCIBLE"]
    assert sorted(d.pointer for d in warned) == [f"/nodes/{i}/extensions/{RB}" for i in (2, 3)]
    assert all("which became bone" in d.message and ".physics" in d.message for d in warned), warned
    stand_ins = {bones.stand_in_bone(ob)[1]: ob for ob in bpy.data.objects if bones.stand_in_bone(ob)}
    assert sorted(stand_ins) == ["Arm", "Hip"]
    hip, arm = stand_ins["Hip"], stand_ins["Arm"]
    armature = bones.stand_in_bone(hip)[0]
    assert hip.rigid_body.type == "ACTIVE" and not hip.rigid_body.kinematic
    assert hip.rigid_body.mass == pytest.approx(2.0)
    assert arm.rigid_body.kinematic
    # the bone follows the dynamic stand-in; the kinematic one below it is tied to nothing (a tie would loop through
    # the simulation), and the warning says so
    assert [c.target for c in armature.pose.bones["Hip"].constraints] == [hip]
    assert not arm.constraints and not armature.pose.bones["Arm"].constraints
    assert "do not move together" in next(d.message for d in warned if d.pointer.startswith("/nodes/3/"))
    assert arm.rigid_body.collision_shape == "COMPOUND"  # its sphere and Grip's box
    assert len([ob for ob in bpy.data.objects if ob.rigid_body_constraint]) == 1  # the joint between the two
    bpy.context.view_layer.update()  # the ties change nothing at rest
    for ob, at in ((hip, (0.5, 0.0, 0.0)), (arm, (0.5, 0.0, 1.0))):  # Blender axes: glTF +Y is Blender +Z
        assert tuple(ob.matrix_world.translation) == pytest.approx(at, abs=1e-5)
    for pose_bone in armature.pose.bones:
        assert _max_diff(pose_bone.matrix, pose_bone.bone.matrix_local) < 1e-5, pose_bone.name
    scene = bpy.context.scene
    for frame in range(scene.frame_start, scene.frame_start + 12):  # Hip falls and drifts along glTF +Z
        scene.frame_set(frame)
    moved = hip.matrix_world.translation - Vector((0.5, 0.0, 0.0))
    assert moved.length > 0.05
    hip_bone = armature.matrix_world @ armature.pose.bones["Hip"].matrix
    rest = armature.matrix_world @ armature.data.bones["Hip"].matrix_local
    assert tuple(hip_bone.translation - rest.translation) == pytest.approx(tuple(moved), abs=1e-4)
    scene.frame_set(scene.frame_start)
    printed = capfd.readouterr()
    assert "Dependency cycle" not in printed.out + printed.err

    written = export(tmp_path / "out.gltf", "2026")
    gltf_errors.clear()
    exported = submodule(clean, "io.hooks").last_report("export")
    assert not [str(d) for d in exported.diagnostics if d.code == "GLTF_PHYSICS_EXPORT_SKIPPED"]
    parse = submodule(clean, "io.gltf.parse")
    expected = canonical(parse.parse_gltf(_skinned_gltf()).document, _skinned_gltf(), keep_joint_nodes=False)
    got = canonical(parse.parse_gltf(written).document, written, keep_joint_nodes=False)
    for name in ("Hip", "Arm", "Grip"):
        assert close(got["nodes"][name], expected["nodes"][name]), (got["nodes"][name], expected["nodes"][name])
    assert close(got["joints"], expected["joints"])
    assert _joint_bodies(written) == _joint_bodies(_skinned_gltf()) == [("HipFrame", "Hip", "Arm")]
    skin = written["skins"][0]
    assert sorted(_names(written)[j] for j in skin["joints"]) == ["Arm", "Hip"]  # the physics is on the joints
    assert not [n for n in written["nodes"] if n.get("name", "").endswith(".physics")]  # no stand-in node


@pytest.mark.corpus
@pytest.mark.parametrize("path", ROBOTS, ids=corpus_id)
def test_robot_bone_bodies_round_trip(clean, tmp_path, gltf_errors, path):
    """The skinned robot samples: the physics of the two bone nodes and every joint to them, before and after
    (compared after the spec-model migration of the source to 2026, as ``test_export_roundtrip`` does)."""
    migrate, parse = submodule(clean, "io.gltf.migrate"), submodule(clean, "io.gltf.parse")
    source = read_json(path)
    assert bpy.ops.import_scene.gltf(filepath=str(path)) == {"FINISHED"}
    imported = submodule(clean, "io.hooks").last_report("import")
    assert not [str(d) for d in imported.diagnostics if d.code == "GLTF_PHYSICS_IMPORT_SKIPPED"]
    written = export(tmp_path / "out.gltf", "2026")
    gltf_errors.clear()  # the corpus copy lacks its textures (tests/blender/importer/expected_gltf_errors.json)
    exported = submodule(clean, "io.hooks").last_report("export")
    assert not [str(d) for d in exported.diagnostics if d.code == "GLTF_PHYSICS_EXPORT_SKIPPED"]
    expected_json, _ = migrate.migrate(source, "2026")
    expected = canonical(parse.parse_gltf(expected_json).document, expected_json, keep_joint_nodes=False)
    got = canonical(parse.parse_gltf(written).document, written, keep_joint_nodes=False)
    for name in ROBOT_BONES:
        assert close(got["nodes"][name], expected["nodes"][name]), (name, got["nodes"][name], expected["nodes"][name])
        node = _by_name(written)[name]
        assert "mesh" not in node and name in [_names(written)[j] for j in written["skins"][0]["joints"]]
    assert close(got["joints"], expected["joints"])
    to_bones = [j for j in _joint_bodies(source) if set(j[1:]) & set(ROBOT_BONES)]
    assert len(to_bones) == 12  # one of them (node 25) joins the two bone bodies
    assert _joint_bodies(written) == _joint_bodies(source)
