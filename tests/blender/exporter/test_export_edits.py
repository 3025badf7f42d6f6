"""Imported physics edited in Blender: the edited setting is exported (and reported), everything else keeps the
file's exact values."""

from __future__ import annotations

import json

import bpy
from mathutils import Matrix

from blenderkit import empty_scene
from export_helpers import export, last_export
from testkit import FIXTURES

RB = "KHR_physics_rigid_bodies"


def _import(name: str) -> None:
    assert bpy.ops.import_scene.gltf(filepath=str(FIXTURES / name)) == {"FINISHED"}
    bpy.context.view_layer.update()


def _node(out, name):
    return next(n for n in out["nodes"] if n.get("name") == name)


def _ext(node):
    return (node.get("extensions") or {}).get(RB, {})


def _edited(addon) -> list[str]:
    return [d.message for d in last_export(addon).diagnostics if d.code == "GLTF_PHYSICS_EXPORT_EDITED"]


def test_unedited_import_exports_the_file_values(clean, tmp_path):
    _import("import/materials_mass.gltf")
    out = export(tmp_path / "same.gltf", "2026")
    assert not _edited(clean)
    assert _ext(_node(out, "Full"))["motion"] == {
        "isKinematic": False,
        "mass": 4,
        "centerOfMass": [0.1, 0.2, 0.3],
        "inertiaDiagonal": [1, 2, 3],
        "inertiaOrientation": [0, 0, 0.3826834, 0.9238795],
        "linearVelocity": [1, 2, 3],
        "angularVelocity": [0.5, 0, -0.5],
        "gravityFactor": 0.5,
    }
    assert "mass" not in _ext(_node(out, "Computed"))["motion"]  # absent mass stays absent
    assert _ext(_node(out, "Infinite"))["motion"]["mass"] == 0  # KHR infinite mass
    materials = out["extensions"][RB]["physicsMaterials"]
    assert {
        "staticFriction": 0.9,
        "dynamicFriction": 0.4,
        "restitution": 0.25,
        "frictionCombine": "average",
    } in materials


def test_edited_mass_friction_and_body_type(clean, tmp_path):
    _import("import/materials_mass.gltf")
    full = bpy.data.objects["Full"]
    full.rigid_body.mass = 7.0
    full.rigid_body.friction = 0.3
    bpy.data.objects["Computed"].rigid_body.kinematic = True
    out = export(tmp_path / "edited.gltf", "2026")
    edited = _edited(clean)
    assert any("mass of 'Full'" in m for m in edited) and any("friction" in m for m in edited)
    assert _ext(_node(out, "Full"))["motion"]["mass"] == 7
    material = out["extensions"][RB]["physicsMaterials"][_ext(_node(out, "Full"))["collider"]["physicsMaterial"]]
    assert material["dynamicFriction"] == material["staticFriction"] == 0.3
    assert material["frictionCombine"] == "multiply"
    assert _ext(_node(out, "Computed"))["motion"]["isKinematic"] is True


def test_resized_own_mesh_collider_is_written_from_blender(clean, tmp_path):
    _import("basic_body.gltf")
    box = bpy.data.objects["Box"]
    box.data.transform(Matrix.Diagonal((2.0, 1.0, 1.0, 1.0)))  # 2 m along Blender X = glTF X
    box.data.update()
    out = export(tmp_path / "resized.gltf", "2026")
    shape = out["extensions"]["KHR_implicit_shapes"]["shapes"][_ext(_node(out, "Box"))["collider"]["geometry"]["shape"]]
    assert [float(v) for v in shape["box"]["size"]] == [2.0, 1.0, 1.0]
    assert any("collision shape of 'Box'" in m for m in _edited(clean))


def test_unedited_joint_stays_on_its_frame_nodes_and_a_moved_one_gets_new_frames(clean, tmp_path):
    _import("joints/hinge_x_limited.gltf")
    out = export(tmp_path / "joint.gltf", "2026")
    names = [n.get("name") for n in out["nodes"]]
    joint = _ext(_node(out, "FrameA"))["joint"]
    assert names[joint["connectedNode"]] == "FrameB" and not _edited(clean)
    description = out["extensions"][RB]["physicsJoints"][joint["joint"]]
    assert description["limits"][2] == {"angularAxes": [0], "min": -0.2, "max": 0.4, "damping": 0}
    assert not any(name.endswith(".joint") for name in names)  # no constraint Empty: the node carries it
    assert "rotation" not in _node(out, "FrameA")  # back at frame A (its Empty is turned in Blender)
    empty = next(ob for ob in bpy.data.objects if ob.rigid_body_constraint is not None)
    assert empty.name == "FrameA"
    empty.location.z += 0.5
    bpy.context.view_layer.update()
    out = export(tmp_path / "moved.gltf", "2026")
    assert not _edited(clean)  # the joint node moved: the joint moves with it
    assert "joint" in _ext(_node(out, "FrameA"))
    assert _node(out, "FrameA")["translation"] == [0.0, 0.5, 0.0]  # Blender +Z = glTF +Y
    assert "rotation" not in _node(out, "FrameA")


def test_a_moved_constraint_empty_gets_new_frames(clean, tmp_path):
    """A joint node with a child cannot carry its constraint: a separate Empty does; moved, it gets new frames."""
    gltf = json.loads((FIXTURES / "joints/hinge_x_limited.gltf").read_text(encoding="utf-8"))
    gltf["nodes"][1]["children"] = [len(gltf["nodes"])]
    gltf["nodes"].append({"name": "Marker", "translation": [0.0, 0.1, 0.0]})
    path = tmp_path / "with_child.gltf"
    path.write_text(json.dumps(gltf), encoding="utf-8")
    assert bpy.ops.import_scene.gltf(filepath=str(path)) == {"FINISHED"}
    empty = next(ob for ob in bpy.data.objects if ob.rigid_body_constraint is not None)
    assert empty.name == "FrameA.joint"
    out = export(tmp_path / "joint.gltf", "2026")
    assert "joint" in _ext(_node(out, "FrameA")) and not _edited(clean)
    empty.location.z += 0.5
    bpy.context.view_layer.update()
    out = export(tmp_path / "moved.gltf", "2026")
    assert any("moved" in m for m in _edited(clean))
    assert "joint" not in _ext(_node(out, "FrameA"))
    holder = next(n for n in out["nodes"] if "joint" in _ext(n))
    assert holder["name"].endswith(".frameA")
    connected = out["nodes"][_ext(holder)["joint"]["connectedNode"]]
    assert connected["name"].endswith(".frameB")
    names = [n.get("name") for n in out["nodes"]]
    assert out["nodes"].index(holder) in _node(out, "BodyA")["children"]
    assert out["nodes"].index(connected) in _node(out, "BodyB")["children"]
    assert len(names) == len(set(names))


def test_removed_rigid_body_drops_its_physics(clean, tmp_path):
    _import("basic_body.gltf")
    box = bpy.data.objects["Box"]
    bpy.context.view_layer.objects.active = box
    with bpy.context.temp_override(object=box, active_object=box, selected_objects=[box]):
        bpy.ops.rigidbody.object_remove()
    out = export(tmp_path / "removed.gltf", "2026")
    assert _ext(_node(out, "Box")) == {}
    assert any("no rigid body" in m for m in _edited(clean))


def test_resized_proxy_collider_is_written_from_blender(clean, tmp_path):
    _import("import/compound.gltf")
    out = export(tmp_path / "same.gltf", "2026")
    shapes = out["extensions"]["KHR_implicit_shapes"]["shapes"]
    radius = float(shapes[_ext(_node(out, "Knob"))["collider"]["geometry"]["shape"]]["sphere"]["radius"])
    assert not _edited(clean) and "Knob.collider" not in {n.get("name") for n in out["nodes"]}
    bpy.data.objects["Knob.collider"].scale *= 2.0
    bpy.context.view_layer.update()
    out = export(tmp_path / "resized.gltf", "2026")
    shapes = out["extensions"]["KHR_implicit_shapes"]["shapes"]
    resized = float(shapes[_ext(_node(out, "Knob"))["collider"]["geometry"]["shape"]]["sphere"]["radius"])
    assert resized == 2.0 * radius
    assert any("collision shape of 'Knob'" in m for m in _edited(clean))


def test_trigger_on_a_body_keeps_its_own_shape(clean, tmp_path):
    import json

    shapes = [{"type": "box", "box": {"size": [1, 1, 1]}}, {"type": "sphere", "sphere": {"radius": 2}}]
    body = {"motion": {"mass": 1}, "collider": {"geometry": {"shape": 0}}, "trigger": {"geometry": {"shape": 1}}}
    gltf = {
        "asset": {"version": "2.0"},
        "scene": 0,
        "scenes": [{"nodes": [0]}],
        "nodes": [{"name": "Sensor", "extensions": {RB: body}}],
        "extensionsUsed": [RB, "KHR_implicit_shapes"],
        "extensions": {"KHR_implicit_shapes": {"shapes": shapes}},
    }
    source = tmp_path / "sensor.gltf"
    source.write_text(json.dumps(gltf))
    assert bpy.ops.import_scene.gltf(filepath=str(source)) == {"FINISHED"}
    out = export(tmp_path / "out.gltf", "2026")
    ext = _ext(_node(out, "Sensor"))
    written = out["extensions"]["KHR_implicit_shapes"]["shapes"]
    assert written[ext["collider"]["geometry"]["shape"]] == shapes[0]
    assert written[ext["trigger"]["geometry"]["shape"]] == shapes[1]
    assert not _edited(clean)


def test_nested_body_goes_back_under_its_file_parent(clean, tmp_path):
    _import("import/compound.gltf")
    passenger = bpy.data.objects["Passenger"]
    assert passenger.parent is None and passenger.gltf_physics.gltf_parent.name == "Cart"  # the import's unparenting
    out = export(tmp_path / "nested.gltf", "2026")
    names = [n.get("name") for n in out["nodes"]]
    cart = _node(out, "Cart")
    assert names.index("Passenger") in cart["children"]
    assert _node(out, "Passenger")["translation"] == [0, 2, 0] and "rotation" not in _node(out, "Passenger")
    assert names.index("Passenger") not in out["scenes"][0]["nodes"]
    assert last_export(clean).counts["restored_parents"] == 1


def test_an_unreadable_stored_shape_is_written_from_blender(clean, tmp_path):
    """Found by a sweep of edits: a stored shape text a script broke ("{" or a size that is not numbers) failed that
    collider (JSONDecodeError) or, reaching the writer, the whole physics export (TypeError). The collider is now
    written from the rigid body Blender simulates, with a warning; every other collider is untouched."""
    for broken in ("{", '{"type": "box", "box": {"size": "x"}}'):
        empty_scene()
        _import("import/compound.gltf")
        bpy.data.objects["Passenger"].gltf_physics.collider.geometry.shape_json = broken
        out = export(tmp_path / "broken.gltf", "2026")
        report = last_export(clean)
        assert not [
            d for d in report.diagnostics if d.code in ("GLTF_PHYSICS_INTERNAL_ERROR", "GLTF_PHYSICS_EXPORT_FAILED")
        ]
        shapes = out["extensions"]["KHR_implicit_shapes"]["shapes"]
        passenger = _ext(_node(out, "Passenger"))["collider"]["geometry"]
        assert shapes[passenger["shape"]] == {"type": "box", "box": {"size": [1, 1, 1]}}
        knob = _ext(_node(out, "Knob"))["collider"]["geometry"]
        assert shapes[knob["shape"]] == {"type": "sphere", "sphere": {"radius": 0.5}}
        assert [d for d in report.diagnostics if "unreadable" in d.message and d.severity.name == "WARNING"]


def test_an_unreadable_stored_file_name_keeps_the_node_physics(clean, tmp_path):
    """Found by a sweep of broken stored values: a ``file_name`` text (the escaped original name) that is not JSON
    failed ``gather_node_hook`` for that object, so its physics was not written (GLTF_PHYSICS_INTERNAL_ERROR)."""
    _import("import/compound.gltf")
    bpy.data.objects["Passenger"].gltf_physics.file_name = "["
    out = export(tmp_path / "name.gltf", "2026")
    assert not [d for d in last_export(clean).diagnostics if d.code == "GLTF_PHYSICS_INTERNAL_ERROR"]
    assert "motion" in _ext(_node(out, "Passenger"))


def test_alike_colliders_share_their_shape_until_one_is_resized(clean, tmp_path):
    """An export keeps one result per stored shape and what Blender simulates of it (colliders alike: a chain's
    links): a resized one, first or last in the export, is written from Blender and noted; the others keep the
    file's shape, and every collider of a kind shares one shape entry."""
    import json

    shapes = [{"type": "capsule", "capsule": {"height": 0.5, "radiusTop": 0.1, "radiusBottom": 0.1}}]
    nodes = [
        {"name": f"Link{i}", "translation": [0, i, 0], "extensions": {RB: {"motion": {"mass": 1}, "collider": {}}}}
        for i in range(4)
    ]
    for node in nodes:
        node["extensions"][RB]["collider"] = {"geometry": {"shape": 0}}
    gltf = {
        "asset": {"version": "2.0"},
        "scene": 0,
        "scenes": [{"nodes": list(range(4))}],
        "nodes": nodes,
        "extensionsUsed": [RB, "KHR_implicit_shapes"],
        "extensions": {"KHR_implicit_shapes": {"shapes": shapes}},
    }
    source = tmp_path / "links.gltf"
    source.write_text(json.dumps(gltf))
    for resized in ("Link0", "Link3"):
        empty_scene()
        assert bpy.ops.import_scene.gltf(filepath=str(source)) == {"FINISHED"}
        out = export(tmp_path / "same.gltf", "2026")
        written = out["extensions"]["KHR_implicit_shapes"]["shapes"]
        assert written == shapes and not _edited(clean)
        assert {_ext(_node(out, f"Link{i}"))["collider"]["geometry"]["shape"] for i in range(4)} == {0}
        ob = bpy.data.objects[resized]
        holder = next((c for c in ob.children if c.rigid_body is not None), ob)
        holder.data = holder.data.copy()  # its own mesh, twice the size (the links share one)
        holder.data.transform(Matrix.Diagonal((2.0, 2.0, 2.0, 1.0)))
        bpy.context.view_layer.update()
        out = export(tmp_path / "resized.gltf", "2026")
        written = out["extensions"]["KHR_implicit_shapes"]["shapes"]
        index = {
            name: _ext(_node(out, name))["collider"]["geometry"]["shape"] for name in (f"Link{i}" for i in range(4))
        }
        assert len(set(index.values())) == 2 and len(written) == 2
        assert all(written[i] == shapes[0] for name, i in index.items() if name != resized)
        capsule = written[index[resized]]["capsule"]
        assert capsule["radiusTop"] == capsule["radiusBottom"] == 0.2 and capsule["height"] == 1.0
        assert [m for m in _edited(clean) if repr(resized) in m and "collision shape" in m]
        assert len([m for m in _edited(clean) if "collision shape" in m]) == 1
