"""Which object carries a joint's constraint (``importer/joint_empties.py``).

* A joint node that is a plain leaf Empty carries its own constraint, turned to the constraint Empty's pose C·A·P.
* Any other joint node gets a constraint Empty made next to it: Blender inserts each new object name by walking back
  from the last one, so an Empty made after all of the file's objects walked over every name sorting after it
  (quadratic with thousands of joints).

Fixture: ``replaced.gltf`` (Slab → Hinge (joint), then Lever → LeverFrame)."""

from __future__ import annotations

import json

import bpy
import numpy as np
import pytest

from blenderkit import empty_scene, submodule
from testkit import FIXTURES

REPLACED = FIXTURES / "import" / "replaced.gltf"


def _import(addon, path):
    assert bpy.ops.import_scene.gltf(filepath=str(path)) == {"FINISHED"}
    return submodule(addon, "io.hooks").last_report("import")


def _variant(tmp_path, change) -> object:
    """``replaced.gltf`` changed by ``change(data)``, written to ``tmp_path``."""
    data = json.loads(REPLACED.read_text(encoding="utf-8"))
    change(data)
    path = tmp_path / "variant.gltf"
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def _with_child(data) -> None:
    """Hinge gets a child node: it is no plain leaf Empty, a separate constraint Empty carries its joint."""
    data["nodes"][2]["children"] = [len(data["nodes"])]
    data["nodes"].append({"name": "HingeMarker", "translation": [0.0, 0.1, 0.0]})


def test_a_leaf_joint_node_carries_its_constraint_at_the_constraint_pose(clean):
    report = _import(clean, REPLACED)
    hinge = bpy.data.objects["Hinge"]
    assert hinge.rigid_body_constraint is not None and hinge.gltf_physics.joint.role == "JOINT"
    assert hinge.gltf_physics.joint.is_node and hinge.gltf_physics.joint.node_a == hinge
    assert not any(ob.name.startswith("Hinge.joint") for ob in bpy.data.objects)
    assert hinge.name in bpy.context.scene.rigidbody_world.constraints.objects
    assert report.counts["joints"] == 1 and report.counts["constraints"] == 1
    # the pose a separate constraint Empty gets: C·A·P(perm), A = the joint node's glTF world frame
    mapping = submodule(clean, "io.mapping.joints_to_blender")
    perm = mapping.cyclic(hinge.gltf_physics.joint.planned_axis)
    frame_a = np.eye(4)
    frame_a[:3, 3] = (0.0, 1.0, 0.0)  # Slab at the origin, Hinge at +1 glTF Y
    bpy.context.view_layer.update()
    np.testing.assert_allclose(np.array(hinge.matrix_world), mapping.empty_matrix(frame_a, perm), atol=1e-6)


@pytest.mark.parametrize(
    "change",
    [
        _with_child,
        lambda data: data["nodes"][2].update(mesh=0, extensions=data["nodes"][2]["extensions"]),
        lambda data: data.update(
            animations=[
                {
                    "channels": [{"sampler": 0, "target": {"node": 1, "path": "translation"}}],
                    "samplers": [{"input": 0, "output": 0}],
                }
            ]
        ),
    ],
    ids=["child", "mesh", "animated_parent"],
)
def test_a_joint_node_that_is_more_than_a_leaf_empty_keeps_its_pose(clean, tmp_path, change):
    data = json.loads(REPLACED.read_text(encoding="utf-8"))
    change(data)
    document = submodule(clean, "io.gltf.parse").parse_gltf(data).document
    assert submodule(clean, "io.importer.joint_empties").node_joints(document, data) == set()
    if "animations" in data or "mesh" in data["nodes"][2]:
        return  # the fixture has no accessors or meshes: the decision is what is tested
    _import(clean, _variant(tmp_path, change))
    hinge = next(ob for ob in bpy.data.objects if ob.name.startswith("Hinge") and ob.rigid_body_constraint)
    assert hinge.name == "Hinge.joint" and not hinge.gltf_physics.joint.is_node


def _off_centre(data) -> None:
    """The lever's centre 0.3 m off the hinge along glTF Z (frames kept together): gravity swings it about glTF X."""
    data["nodes"][3]["translation"] = [0.0, 1.5, 0.3]
    data["nodes"][4]["translation"] = [0.0, -0.5, -0.3]


@pytest.mark.parametrize("reproduce", [False, True])
def test_both_ways_simulate_the_same(clean, tmp_path, reproduce):
    """The joint node carrying its constraint and a separate Empty give the same motion (same pose, same plan), with
    and without Reproduce Motion (the lever's initial angular velocity: a pre-roll)."""
    from joint_helpers import step

    poses = []
    for change in (_off_centre, lambda data: (_off_centre(data), _with_child(data))):
        empty_scene()
        bpy.context.scene.gltf_physics.import_reproduce = reproduce
        _import(clean, _variant(tmp_path, change))
        scene = bpy.context.scene
        step(scene, scene.frame_start + 40)
        poses.append(np.array(bpy.data.objects["Lever"].matrix_world))
    assert [ob.name for ob in bpy.data.objects if ob.rigid_body_constraint] == ["Hinge.joint"]
    assert np.linalg.norm(poses[0][:3, 3] - (0.0, -0.3, 1.5)) > 0.1  # the lever swung about the hinge
    np.testing.assert_allclose(poses[0], poses[1], atol=1e-5)


def test_constraint_empty_is_made_right_after_its_joint_node(clean, tmp_path):
    _import(clean, _variant(tmp_path, _with_child))
    objects = bpy.data.objects
    empty = objects["Hinge.joint"]
    assert empty.rigid_body_constraint is not None and empty.gltf_physics.joint.role == "JOINT"
    assert objects["Hinge"].session_uid < empty.session_uid < objects["Lever"].session_uid
    assert objects["Hinge"].rigid_body_constraint is None
    assert empty.users_collection and empty.name in bpy.context.scene.rigidbody_world.constraints.objects


def test_file_node_named_like_the_empty_keeps_its_name(clean, tmp_path):
    def clash(data) -> None:
        _with_child(data)
        data["nodes"][4]["name"] = "Hinge.joint"  # LeverFrame, created after Hinge

    _import(clean, _variant(tmp_path, clash))
    assert bpy.data.objects["Hinge.joint"].rigid_body_constraint is None  # the file's node
    assert bpy.data.objects["Hinge.joint.001"].rigid_body_constraint is not None


def test_empty_of_a_skipped_joint_is_deleted(clean, tmp_path):
    data = json.loads(REPLACED.read_text(encoding="utf-8"))
    # Hinge moved under Lever, connected to LeverFrame: both frames on the Lever body, a joint with no effect
    # (Hinge under the static Slab connected to the Slab is a joint of the world to the world: kept, see
    # test_import_world_joint.py)
    data["nodes"][1]["children"] = []
    data["nodes"][3]["children"] = [4, 2]
    data["nodes"][2]["extensions"]["KHR_physics_rigid_bodies"]["joint"]["connectedNode"] = 4
    path = tmp_path / "skipped.gltf"
    path.write_text(json.dumps(data), encoding="utf-8")
    report = _import(clean, path)
    assert report.counts.get("joints", 0) == 0
    assert not any(ob.name.startswith("Hinge.joint") for ob in bpy.data.objects)
