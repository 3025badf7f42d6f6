"""Hand-written cases for each check of the physics validator, in particular our own GLTF_PHYSICS_* codes."""

from __future__ import annotations

import copy

import pytest

from testkit import ROOT, submodule

validate = submodule("io.gltf.validate.document")
codes = submodule("io.gltf.validate.codes")
shapes_module = submodule("io.gltf.validate.shapes")
Severity = submodule("io.diagnostics").Severity

RB = "KHR_physics_rigid_bodies"
N0 = f"/nodes/0/extensions/{RB}"
N1 = f"/nodes/1/extensions/{RB}"
ROOT_RB = f"/extensions/{RB}"


class Raw(dict):
    """A node given verbatim to ``khr_doc`` (other arguments are the node's KHR_physics_rigid_bodies object)."""


def khr_doc(*node_exts: dict | None, **node_props) -> dict:
    """A valid KHR 2024-10 document with one sphere, one material, one filter, one joint and the given nodes."""
    nodes = [dict(ext) if isinstance(ext, Raw) else {"extensions": {RB: ext}} if ext else {} for ext in node_exts]
    return {
        "asset": {"version": "2.0"},
        "extensionsUsed": [RB, "KHR_implicit_shapes"],
        "extensions": {
            "KHR_implicit_shapes": {"shapes": [{"type": "sphere", "sphere": {"radius": 0.5}}]},
            RB: {
                "physicsMaterials": [{"staticFriction": 0.5, "dynamicFriction": 0.5, "restitution": 0.1}],
                "collisionFilters": [{"collisionSystems": ["a"], "collideWithSystems": ["a"]}],
                "physicsJoints": [{"limits": [{"linearAxes": [0, 1, 2], "min": 0, "max": 0}]}],
            },
        },
        "nodes": nodes,
        "meshes": [{"primitives": [{"attributes": {"POSITION": 0}}]}],
        **node_props,
    }


def omi_doc(*node_exts: dict) -> dict:
    """A valid current-OMI document: one box shape, one material and the given OMI_physics_body node objects."""
    return {
        "asset": {"version": "2.0"},
        "extensionsUsed": ["OMI_physics_body", "OMI_physics_shape", "OMI_physics_joint"],
        "extensions": {
            "OMI_physics_shape": {"shapes": [{"type": "box", "box": {"size": [1, 1, 1]}}]},
            "OMI_physics_body": {"physicsMaterials": [{"staticFriction": 0.5}]},
            "OMI_physics_joint": {"physicsJoints": [{"limits": [{"linearAxes": [0], "min": -1, "max": 1}]}]},
        },
        "nodes": [{"extensions": {"OMI_physics_body": ext}} for ext in node_exts],
    }


def found(doc: object) -> set[tuple[str, str]]:
    return {(d.code, d.pointer) for d in validate.validate_gltf(doc)}


def by_code(doc: object, code: str) -> list:
    return [d for d in validate.validate_gltf(doc) if d.code == code]


COLLIDER = {"collider": {"geometry": {"shape": 0}, "physicsMaterial": 0, "collisionFilter": 0}}


def test_valid_documents_have_no_diagnostics():
    doc = khr_doc({"motion": {"mass": 2}, **COLLIDER}, COLLIDER)
    doc["nodes"][0]["extensions"][RB]["joint"] = {"connectedNode": 1, "joint": 0}
    assert validate.validate_gltf(doc) == []
    assert validate.validate_gltf(omi_doc({"motion": {"type": "dynamic"}, "collider": {"shape": 0}})) == []


@pytest.mark.parametrize("value", [None, 3, "text", [1, 2], True])
def test_non_object_document_is_one_type_mismatch(value):
    (diag,) = validate.validate_gltf(value)
    assert (diag.code, diag.pointer, diag.severity) == ("TYPE_MISMATCH", "", Severity.ERROR)


def test_extension_not_declared_is_a_warning_at_first_use():
    doc = khr_doc(COLLIDER)
    doc["extensionsUsed"] = ["KHR_implicit_shapes"]
    (diag,) = by_code(doc, codes.NOT_DECLARED)
    assert diag.pointer == ROOT_RB and diag.severity == Severity.WARNING
    del doc["extensions"][RB]
    doc["nodes"][0]["extensions"][RB] = {"collider": {"geometry": {"shape": 0}}}
    assert [d.pointer for d in by_code(doc, codes.NOT_DECLARED)] == [N0]


def test_mass_zero_is_infinite_info_and_negative_mass_is_an_error():
    diags = validate.validate_gltf(khr_doc({"motion": {"mass": 0, "inertiaDiagonal": [1, 0, 1]}}))
    assert {(d.code, d.pointer, d.severity) for d in diags} == {
        (codes.INFINITE_MASS, f"{N0}/motion/mass", Severity.INFO),
        (codes.INFINITE_INERTIA, f"{N0}/motion/inertiaDiagonal/1", Severity.INFO),
    }
    assert found(khr_doc({"motion": {"mass": -1}})) == {("VALUE_NOT_IN_RANGE", f"{N0}/motion/mass")}


def test_motion_vectors_and_quaternion():
    motion = {"centerOfMass": [0, 1], "inertiaOrientation": [0, 0, 0, 2], "linearVelocity": "fast", "mass": "heavy"}
    assert found(khr_doc({"motion": motion})) == {
        ("ARRAY_LENGTH_NOT_IN_LIST", f"{N0}/motion/centerOfMass"),
        ("ROTATION_NON_UNIT", f"{N0}/motion/inertiaOrientation"),
        ("TYPE_MISMATCH", f"{N0}/motion/linearVelocity"),
        ("TYPE_MISMATCH", f"{N0}/motion/mass"),
    }
    unit = [0.0, 0.7071068, 0.0, 0.7071068]
    assert found(khr_doc({"motion": {"inertiaOrientation": unit}})) == set()


def test_negative_material_and_joint_gains_are_out_of_range():
    doc = khr_doc()
    root = doc["extensions"][RB]
    root["physicsMaterials"][0].update(staticFriction=-1, restitution=-0.5, frictionCombine="sum")
    root["physicsJoints"][0]["limits"][0].update(stiffness=-1, damping=-2)
    root["physicsJoints"][0]["drives"] = [
        {"type": "linear", "mode": "force", "axis": 0, "stiffness": -3, "positionTarget": 1}
    ]
    assert found(doc) == {
        ("VALUE_NOT_IN_RANGE", f"{ROOT_RB}/physicsMaterials/0/staticFriction"),
        ("VALUE_NOT_IN_RANGE", f"{ROOT_RB}/physicsMaterials/0/restitution"),
        ("VALUE_NOT_IN_LIST", f"{ROOT_RB}/physicsMaterials/0/frictionCombine"),
        ("VALUE_NOT_IN_RANGE", f"{ROOT_RB}/physicsJoints/0/limits/0/stiffness"),
        ("VALUE_NOT_IN_RANGE", f"{ROOT_RB}/physicsJoints/0/limits/0/damping"),
        ("VALUE_NOT_IN_RANGE", f"{ROOT_RB}/physicsJoints/0/drives/0/stiffness"),
    }


def test_drive_with_unknown_type_is_an_error():
    doc = khr_doc()
    doc["extensions"][RB]["physicsJoints"][0]["drives"] = [{"type": "spin", "mode": "force"}]
    diags = validate.validate_gltf(doc)
    assert {(d.code, d.pointer, d.severity) for d in diags} == {
        ("GLTF_PHYSICS_VALUE_NOT_USABLE", f"{ROOT_RB}/physicsJoints/0/drives/0/type", Severity.ERROR),
        ("UNDEFINED_PROPERTY", f"{ROOT_RB}/physicsJoints/0/drives/0", Severity.ERROR),
    }


def test_drive_target_without_gain_is_noted():
    doc = khr_doc()
    doc["extensions"][RB]["physicsJoints"][0]["drives"] = [
        {"type": "angular", "mode": "force", "axis": 1, "positionTarget": 0, "velocityTarget": 1, "damping": 2},
        {"type": "linear", "mode": "acceleration", "axis": 0, "stiffness": 3},
    ]
    diags = validate.validate_gltf(doc)
    assert {(d.code, d.pointer, d.severity) for d in diags} == {
        (codes.DRIVE_TARGET_WITHOUT_GAIN, f"{ROOT_RB}/physicsJoints/0/drives/0/positionTarget", Severity.INFO),
        (codes.DRIVE_TARGET_WITHOUT_GAIN, f"{ROOT_RB}/physicsJoints/0/drives/1/stiffness", Severity.INFO),
    }


def test_joint_connected_to_its_own_node():
    doc = khr_doc({"joint": {"connectedNode": 0, "joint": 0}})
    (diag,) = validate.validate_gltf(doc)
    assert (diag.code, diag.pointer, diag.severity) == (
        codes.JOINT_SELF_CONNECTED,
        f"{N0}/joint/connectedNode",
        Severity.ERROR,
    )


def test_joint_requires_connected_node_and_joint():
    assert found(khr_doc({"joint": {"enableCollision": 1}})) == {
        ("UNDEFINED_PROPERTY", f"{N0}/joint"),
        ("TYPE_MISMATCH", f"{N0}/joint/enableCollision"),
    }


def test_trigger_nodes_must_be_descendant_simple_triggers():
    simple = {"trigger": {"geometry": {"shape": 0}}}
    doc = khr_doc({"trigger": {"nodes": [1, 2]}}, simple, simple, {"motion": {}})
    doc["nodes"][0]["children"] = [1]
    assert found(doc) == {(codes.TRIGGER_NODE_NOT_DESCENDANT, f"{N0}/trigger/nodes/1")}
    doc["nodes"][0]["extensions"][RB]["trigger"]["nodes"] = [1, 3]
    doc["nodes"][0]["children"] = [1, 3]
    assert found(doc) == {("KHR_RIGID_BODIES_TRIGGER_NODES_INVALID", f"{N0}/trigger/nodes/1")}
    doc["nodes"][0]["extensions"][RB]["trigger"] = {"nodes": [1, 1, 9], "collisionFilter": 0}
    assert found(doc) == {
        ("DUPLICATE_ELEMENTS", f"{N0}/trigger/nodes/1"),
        ("UNRESOLVED_REFERENCE", f"{N0}/trigger/nodes/2"),
        ("ONE_OF_MISMATCH", f"{N0}/trigger"),
    }


def test_geometry_needs_exactly_one_reference():
    both = khr_doc({"collider": {"geometry": {"shape": 0, "node": 1}}}, Raw(mesh=0))
    assert found(both) == {(codes.GEOMETRY_NOT_EXACTLY_ONE, f"{N0}/collider/geometry")}
    neither = khr_doc({"collider": {"geometry": {"convexHull": True}}})
    assert found(neither) == {(codes.GEOMETRY_NOT_EXACTLY_ONE, f"{N0}/collider/geometry")}
    missing = khr_doc({"collider": {"physicsMaterial": 0}})
    assert found(missing) == {("UNDEFINED_PROPERTY", f"{N0}/collider")}


def test_geometry_mesh_2026_and_node_2024_references():
    assert found(khr_doc({"collider": {"geometry": {"mesh": 0, "convexHull": True}}})) == set()
    assert found(khr_doc({"collider": {"geometry": {"mesh": 5}}})) == {
        ("UNRESOLVED_REFERENCE", f"{N0}/collider/geometry/mesh")
    }
    assert found(khr_doc({"collider": {"geometry": {"node": 1}}}, Raw())) == {
        (codes.GEOMETRY_NODE_WITHOUT_MESH, f"{N0}/collider/geometry/node")
    }
    with_child_mesh = khr_doc({"collider": {"geometry": {"node": 1}}}, Raw(), Raw(mesh=0))
    with_child_mesh["nodes"][1]["children"] = [2]
    assert found(with_child_mesh) == set()


def test_every_kind_of_unresolved_reference():
    doc = khr_doc(
        {
            "collider": {"geometry": {"shape": 7}, "physicsMaterial": 3, "collisionFilter": 4},
            "joint": {"connectedNode": 12, "joint": 2},
        },
        {"trigger": {"geometry": {"node": 40}}},
    )
    assert found(doc) == {
        ("UNRESOLVED_REFERENCE", f"{N0}/collider/geometry/shape"),
        ("UNRESOLVED_REFERENCE", f"{N0}/collider/physicsMaterial"),
        ("UNRESOLVED_REFERENCE", f"{N0}/collider/collisionFilter"),
        ("UNRESOLVED_REFERENCE", f"{N0}/joint/connectedNode"),
        ("UNRESOLVED_REFERENCE", f"{N0}/joint/joint"),
        ("UNRESOLVED_REFERENCE", f"{N1}/trigger/geometry/node"),
    }
    negative = khr_doc({"collider": {"geometry": {"shape": -1}}})
    assert found(negative) == {("INVALID_INDEX", f"{N0}/collider/geometry/shape")}


def test_missing_root_extension_objects_are_unsatisfied_dependencies():
    doc = khr_doc({**COLLIDER, "joint": {"connectedNode": 0, "joint": 0}})
    del doc["extensions"]
    assert found(doc) - {(codes.JOINT_SELF_CONNECTED, f"{N0}/joint/connectedNode")} == {
        ("UNSATISFIED_DEPENDENCY", f"{N0}/collider/geometry"),
        ("UNSATISFIED_DEPENDENCY", f"{N0}/collider"),
        ("UNSATISFIED_DEPENDENCY", f"{N0}/joint"),
    }


def test_zero_scale_collider_is_disabled_warning_also_through_a_parent():
    doc = khr_doc(None, COLLIDER)
    doc["nodes"][0].update(children=[1], scale=[0, 0, 0])
    diags = by_code(doc, codes.COLLIDER_ZERO_SCALE)
    assert [(d.pointer, d.severity) for d in diags] == [(f"{N1}/collider", Severity.WARNING)]
    doc["nodes"][0]["scale"] = [0, 1, 0]
    assert by_code(doc, codes.COLLIDER_ZERO_SCALE) == []


def test_motion_inside_a_skin_joint_hierarchy_warns():
    doc = khr_doc(None, {"motion": {}}, skins=[{"joints": [0]}])
    doc["nodes"][0]["children"] = [1]
    diags = by_code(doc, codes.MOTION_IN_SKIN_JOINTS)
    assert [(d.pointer, d.severity) for d in diags] == [(f"{N1}/motion", Severity.WARNING)]
    doc["skins"] = [{"joints": [2]}]
    assert by_code(doc, codes.MOTION_IN_SKIN_JOINTS) == []


def test_legacy_collider_shape_in_a_2024_10_document_is_accepted_with_info():
    diags = validate.validate_gltf(khr_doc({"collider": {"shape": 0}}))
    assert [(d.code, d.pointer, d.severity) for d in diags] == [
        (codes.LEGACY_COLLIDER_SHAPE, f"{N0}/collider/shape", Severity.INFO)
    ]


def test_implicit_shapes_checks():
    doc = khr_doc()
    doc["extensions"]["KHR_implicit_shapes"]["shapes"] = [
        {"type": "box", "box": {"size": [1, 0, 1]}, "sphere": {}},
        {"type": "torus"},
        {"type": "box", "sphere": {"radius": 1}},
        {"type": "plane", "plane": {"sizeX": 0, "sizeZ": -1, "doubleSided": True}},
        {"type": "capsule", "capsule": {}},
        {"type": "cylinder", "cylinder": {"radiusTop": 0, "radiusBottom": 0}},
    ]
    shapes = "/extensions/KHR_implicit_shapes/shapes"
    assert found(doc) == {
        ("KHR_IMPLICIT_SHAPES_COMPOUND_SHAPE", f"{shapes}/0/box"),
        ("KHR_IMPLICIT_SHAPES_DEGENERATE_SHAPE", f"{shapes}/0/box/size/1"),
        (codes.UNKNOWN_SHAPE_TYPE, f"{shapes}/1/type"),
        (codes.SHAPE_TYPE_MISMATCH, f"{shapes}/2/sphere"),
        ("KHR_IMPLICIT_SHAPES_DEGENERATE_SHAPE", f"{shapes}/3/plane/sizeX"),
        ("VALUE_NOT_IN_RANGE", f"{shapes}/3/plane/sizeZ"),
        ("KHR_IMPLICIT_SHAPES_DEGENERATE_SHAPE", f"{shapes}/5/cylinder"),
    }


def collision_doc(shape: dict, node_ext: dict | None = None) -> dict:
    """A KHR 2024-07 document (KHR_collision_shapes) with one shape and a morphed mesh with 2 targets."""
    return {
        "asset": {"version": "2.0"},
        "extensionsUsed": [RB, "KHR_collision_shapes"],
        "extensions": {"KHR_collision_shapes": {"shapes": [shape]}},
        "meshes": [{"primitives": [{"attributes": {"POSITION": 0}, "targets": [{}, {}]}]}],
        "nodes": [{"extensions": {RB: node_ext}}] if node_ext else [],
    }


def test_2024_07_mesh_shape_checks():
    shapes = "/extensions/KHR_collision_shapes/shapes/0"
    assert found(collision_doc({"type": "mesh", "mesh": {"mesh": 0, "weights": [0, 1]}})) == set()
    assert found(collision_doc({"type": "mesh", "mesh": {"mesh": 0, "weights": [1]}})) == {
        ("SHAPE_WEIGHTS_INVALID", f"{shapes}/mesh/weights")
    }
    both = {"type": "mesh", "mesh": {"mesh": 0, "weights": [0, 1], "useNodeWeights": True}}
    assert found(collision_doc(both)) == {("KHR_COLLISION_SHAPES_DUPLICATE_WEIGHTS", f"{shapes}/mesh")}
    assert found(collision_doc({"type": "mesh", "mesh": {"mesh": 3, "skin": 0}})) == {
        ("UNRESOLVED_REFERENCE", f"{shapes}/mesh"),
        ("UNRESOLVED_REFERENCE", f"{shapes}/mesh/skin"),
    }
    assert found(collision_doc({"type": "mesh"})) == {("UNDEFINED_PROPERTY", shapes)}


def test_2024_07_collider_shape_and_shape_level_convex_hull():
    hull = {"type": "sphere", "sphere": {}, "extensions": {RB: {"convexHull": True}}}
    doc = collision_doc(hull, {"collider": {"shape": 0}, "trigger": {"shape": 1}})
    assert found(doc) == {
        (codes.CONVEX_HULL_IGNORED, f"/extensions/KHR_collision_shapes/shapes/0/extensions/{RB}"),
        ("UNRESOLVED_REFERENCE", f"{N0}/trigger/shape"),
    }
    no_shape = collision_doc({"type": "sphere"}, {"collider": {"geometry": {"shape": 0}}})
    assert ("UNDEFINED_PROPERTY", f"{N0}/collider") in found(no_shape)
    assert ("UNEXPECTED_PROPERTY", f"{N0}/collider/geometry") in found(no_shape)


def test_omi_motion_type_rules():
    missing = validate.validate_gltf(omi_doc({"motion": {"mass": 2}}))
    assert [(d.code, d.severity) for d in missing] == [(codes.OMI_MOTION_TYPE_MISSING, Severity.WARNING)]
    assert found(omi_doc({"motion": {"type": "ghost"}})) == {
        ("GLTF_PHYSICS_VALUE_NOT_USABLE", "/nodes/0/extensions/OMI_physics_body/motion/type")
    }


def test_omi_minus_one_means_none_and_other_negatives_are_invalid():
    # -1 is legal; an explicit shape -1 gets an INFO note (issue 11 item 10), the others stay silent
    assert found(omi_doc({"collider": {"shape": -1, "physicsMaterial": -1, "collisionFilter": -1}})) == {
        (codes.OMI_NO_SHAPE, "/nodes/0/extensions/OMI_physics_body/collider/shape")
    }
    assert found(omi_doc({"collider": {"shape": -2, "physicsMaterial": 1}})) == {
        ("INVALID_INDEX", "/nodes/0/extensions/OMI_physics_body/collider/shape"),
        ("UNRESOLVED_REFERENCE", "/nodes/0/extensions/OMI_physics_body/collider/physicsMaterial"),
    }


def test_omi_legacy_capsule_shorter_than_its_caps_warns():
    doc = omi_doc()
    doc["extensions"]["OMI_physics_shape"]["shapes"] = [
        {"type": "capsule", "capsule": {"radius": 0.5, "height": 0.6}},
        {"type": "capsule", "capsule": {"radius": 0.5, "height": 2.0}},
    ]
    diags = by_code(doc, codes.OMI_LEGACY_CAPSULE_HEIGHT)
    assert [(d.pointer, d.severity) for d in diags] == [
        ("/extensions/OMI_physics_shape/shapes/0/capsule/height", Severity.WARNING)
    ]


def test_omi_weld_limit_with_both_axes_is_a_warning_not_an_error():
    doc = omi_doc({"motion": {"type": "dynamic"}}, {"motion": {"type": "dynamic"}})
    limits = doc["extensions"]["OMI_physics_joint"]["physicsJoints"][0]["limits"]
    limits[0] = {"linearAxes": [0, 1, 2], "angularAxes": [0, 1, 2], "min": 0, "max": 0}
    doc["nodes"][0]["extensions"]["OMI_physics_joint"] = {"connectedNode": 1, "joint": 0}
    diags = validate.validate_gltf(doc)
    assert [(d.code, d.severity) for d in diags] == [(codes.OMI_LIMIT_BOTH_AXES, Severity.WARNING)]
    khr = khr_doc()
    khr["extensions"][RB]["physicsJoints"][0]["limits"][0]["angularAxes"] = [0]
    assert found(khr) == {("ONE_OF_MISMATCH", f"{ROOT_RB}/physicsJoints/0/limits/0")}


def test_omi_empty_trigger_is_a_grouping_warning():
    diags = validate.validate_gltf(omi_doc({"trigger": {}}))
    assert [(d.code, d.severity) for d in diags] == [(codes.OMI_EMPTY_TRIGGER, Severity.WARNING)]


def test_omi_legacy_forms():
    doc = {
        "extensionsUsed": ["OMI_collider", "OMI_physics_body", "OMI_physics_joint"],
        "extensions": {
            "OMI_collider": {"colliders": [{"type": "box", "size": [1, 1, 1]}, {"type": "hull"}]},
            "OMI_physics_joint": {"constraints": [{"linearAxes": [0], "lowerLimit": 1, "upperLimit": -1}]},
        },
        "nodes": [
            {"extensions": {"OMI_physics_body": {"type": "rigid"}, "OMI_collider": {"collider": 0}}},
            {"extensions": {"OMI_physics_joint": {"constraints": [0, 4], "nodeA": 0, "nodeB": 0}}},
        ],
    }
    diags = validate.validate_gltf(doc)
    assert {(d.code, d.pointer) for d in diags if d.severity > Severity.INFO} == {
        ("UNDEFINED_PROPERTY", "/extensions/OMI_collider/colliders/1"),
        ("KHR_RIGID_BODIES_JOINT_INVALID_RANGE", "/extensions/OMI_physics_joint/constraints/0"),
        (codes.JOINT_SELF_CONNECTED, "/nodes/1/extensions/OMI_physics_joint/nodeB"),
        ("UNRESOLVED_REFERENCE", "/nodes/1/extensions/OMI_physics_joint/constraints/1"),
    }
    assert {d.code for d in diags if d.severity == Severity.INFO} == {codes.OMI_LEGACY_FORM}


def test_errors_stay_inside_the_offending_unit():
    """One bad collider must not produce ERROR pointers outside itself (the parser drops by pointer)."""
    doc = khr_doc({"collider": {"geometry": {"shape": 9}, "physicsMaterial": "x"}}, COLLIDER, COLLIDER)
    errors = [d for d in validate.validate_gltf(doc) if d.severity == Severity.ERROR]
    assert errors and all(d.pointer.startswith(f"{N0}/collider") for d in errors)


def test_a_crashing_check_becomes_an_internal_error_on_its_object(monkeypatch):
    def explode(*_args):
        raise RuntimeError("boom")

    monkeypatch.setitem(shapes_module._KHR_CHECKS, "sphere", explode)
    diags = validate.validate_gltf(khr_doc(COLLIDER))
    assert [(d.code, d.pointer) for d in diags] == [(codes.INTERNAL_ERROR, "/extensions/KHR_implicit_shapes/shapes/0")]


def test_garbage_inside_a_valid_document_never_raises():
    doc = khr_doc(COLLIDER)
    for garbage in (None, 1, "x", [], {}, [None], {"a": [1, {"b": None}]}, float("nan"), True):
        for path in (
            ("extensions",),
            ("nodes",),
            ("extensions", RB),
            ("extensions", "KHR_implicit_shapes"),
            ("nodes", 0, "extensions", RB, "collider"),
            ("extensions", RB, "physicsJoints", 0),
        ):
            mutated = copy.deepcopy(doc)
            target = mutated
            for key in path[:-1]:
                target = target[key]
            target[path[-1]] = garbage
            assert all(d.code != codes.INTERNAL_ERROR for d in validate.validate_gltf(mutated)), (path, garbage)


def test_every_code_is_documented_with_its_severity():
    text = (ROOT / "docs" / "diagnostics.md").read_text(encoding="utf-8")
    rows = {line.split("|")[1].strip().strip("`"): line for line in text.splitlines() if line.startswith("| `")}
    for code, info in codes.CODES.items():
        assert code in rows, code
        assert f"| {info.severity.name} |" in rows[code], code


def _body_doc() -> dict:
    """A static collider, two bodies (motion + shape / mesh collider) and a joint, every value valid."""
    motion = {
        "isKinematic": False,
        "mass": 2,
        "centerOfMass": [0, 0.5, 0],
        "inertiaDiagonal": [1, 2, 3],
        "inertiaOrientation": [0, 0, 0, 1],
        "linearVelocity": [1.5, 0, 0],
        "angularVelocity": [0, 0, 0],
        "gravityFactor": 0.5,
    }
    collider = {"geometry": {"shape": 0}, "physicsMaterial": 0, "collisionFilter": 0}
    return khr_doc(
        {"collider": {"geometry": {"shape": 0}}},
        {"motion": motion, "collider": collider},
        {"motion": {"mass": 1}, "collider": {"geometry": {"mesh": 0, "convexHull": True}}},
        {"joint": {"connectedNode": 1, "joint": 0, "enableCollision": False}},
    )


def test_valid_bodies_report_nothing():
    assert validate.validate_gltf(_body_doc()) == []


def test_scale_and_skin_checks_of_valid_bodies():
    doc = _body_doc()
    doc["nodes"][2]["scale"] = [0, 0, 0]
    doc["nodes"].append({"children": [1]})
    doc["skins"] = [{"joints": [4]}]
    reported = [d.code for d in validate.validate_gltf(doc)]
    assert reported == ["GLTF_PHYSICS_MOTION_IN_SKIN_JOINTS", "GLTF_PHYSICS_COLLIDER_ZERO_SCALE"]


def test_missing_connected_node_is_reported_unless_the_joint_itself_was_rejected():
    """Errors found before the joint (here a bad material) do not count as the joint's own rejection."""
    doc = khr_doc({"joint": {"joint": 5}}, {"joint": {"joint": 0}})
    doc["extensions"][RB]["physicsMaterials"][0]["restitution"] = -1
    assert {d for d in found(doc) if "/nodes/" in d[1]} == {
        (codes.UNRESOLVED_REFERENCE, f"{N0}/joint/joint"),  # rejected: no report of its missing connectedNode
        (codes.UNDEFINED_PROPERTY, f"{N1}/joint"),
    }
