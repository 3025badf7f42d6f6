"""Scenes authored in Blender (data API, no import) export sensible physics: bodies, shapes in glTF axes, compound
bodies, every constraint type with limits in the joint frame; the files validate and import back to the same
Blender settings (the import is the oracle for axes and signs)."""

from __future__ import annotations

import math

import bpy
import pytest
from mathutils import Matrix

from blenderkit import empty_scene, submodule
from export_helpers import REVISIONS, export, last_export
from scene_helpers import constraint as _constraint
from scene_helpers import rigid_body_world as _world
from scene_helpers import rigid_box as _body

RB = "KHR_physics_rigid_bodies"


def _nodes_by_name(gltf):
    return {n.get("name"): (i, n) for i, n in enumerate(gltf["nodes"])}


def _ext(node):
    return (node.get("extensions") or {}).get(RB, {})


def _shape(gltf, node):
    return gltf["extensions"]["KHR_implicit_shapes"]["shapes"][_ext(node)["collider"]["geometry"]["shape"]]


def _valid(addon, gltf):
    validate = submodule(addon, "io.gltf.validate.document")
    errors = [str(d) for d in validate.validate_gltf(gltf) if d.severity.name == "ERROR"]
    assert not errors, errors
    parsed = submodule(addon, "io.gltf.parse").parse_gltf(gltf)
    assert not [d for d in parsed.diagnostics if d.severity.name == "ERROR"]
    return parsed.document


def test_bodies_and_shapes_in_gltf_axes(clean, tmp_path):
    rbw = _world(bpy.context.scene)
    _body(rbw, "Ground", size=(10, 8, 0.5), kind="PASSIVE")
    crate = _body(rbw, "Crate", size=(1, 2, 3), location=(0, 0, 5), mass=2.5)
    crate.rigid_body.friction, crate.rigid_body.restitution = 0.25, 0.5
    _body(rbw, "Ball", size=(1, 1, 1), shape="SPHERE", location=(2, 0, 5))
    _body(rbw, "Pill", size=(0.6, 0.6, 2.0), shape="CAPSULE", location=(4, 0, 5))
    _body(rbw, "Can", size=(0.8, 0.8, 1.5), shape="CYLINDER", location=(6, 0, 5))
    _body(rbw, "Cone", size=(1.0, 1.0, 2.0), shape="CONE", location=(8, 0, 5))
    _body(rbw, "Rock", size=(1, 1, 1), shape="CONVEX_HULL", location=(10, 0, 5))
    lift = _body(rbw, "Lift", size=(2, 2, 0.2), location=(0, 4, 0))
    lift.rigid_body.kinematic = True
    out = export(tmp_path / "bodies.gltf", "2026")
    _valid(clean, out)
    nodes = _nodes_by_name(out)
    ground = nodes["Ground"][1]
    assert "motion" not in _ext(ground)
    assert _shape(out, ground) == {"type": "box", "box": {"size": [10, 0.5, 8]}}
    crate = nodes["Crate"][1]
    assert _ext(crate)["motion"] == {"isKinematic": False, "mass": 2.5}
    assert _shape(out, crate)["box"]["size"] == [1, 3, 2]  # Blender (dx, dy, dz) -> glTF (dx, dz, dy)
    material = out["extensions"][RB]["physicsMaterials"][_ext(crate)["collider"]["physicsMaterial"]]
    assert material == {
        "staticFriction": 0.25,
        "dynamicFriction": 0.25,
        "restitution": 0.5,
        "frictionCombine": "multiply",
        "restitutionCombine": "multiply",
    }
    assert _shape(out, nodes["Ball"][1]) == {"type": "sphere", "sphere": {"radius": 0.5}}
    pill = _shape(out, nodes["Pill"][1])["capsule"]
    assert pill == {"height": 1.4, "radiusTop": 0.3, "radiusBottom": 0.3}  # centre distance = dz - 2r
    assert _shape(out, nodes["Can"][1])["cylinder"] == pytest.approx(
        {"height": 1.5, "radiusTop": 0.4, "radiusBottom": 0.4}
    )
    assert _shape(out, nodes["Cone"][1])["cylinder"] == pytest.approx(
        {"height": 2, "radiusTop": 0, "radiusBottom": 0.5}
    )
    rock = nodes["Rock"][1]
    assert _ext(rock)["collider"]["geometry"] == {"mesh": rock["mesh"], "convexHull": True}
    assert _ext(nodes["Lift"][1])["motion"]["isKinematic"] is True
    assert "collisionFilters" not in out["extensions"][RB]  # default collections: no filters
    assert out["extensionsUsed"] == [RB, "KHR_implicit_shapes"] and "extensionsRequired" not in out


def test_compound_parent_and_child_colliders(clean, tmp_path):
    rbw = _world(bpy.context.scene)
    cart = _body(rbw, "Cart", size=(2, 1, 0.2), shape="COMPOUND", location=(0, 0, 2), mass=4.0)
    wheel = _body(rbw, "Wheel", size=(0.4, 0.4, 0.4), shape="SPHERE", location=(0.8, 0, -0.2), parent=cart)
    _body(rbw, "Deck", size=(2, 1, 0.2), location=(0, 0, 0), parent=cart)
    assert wheel.parent == cart
    out = export(tmp_path / "compound.gltf", "2024-10")
    document = _valid(clean, out)
    nodes = _nodes_by_name(out)
    motion = _ext(nodes["Cart"][1])["motion"]
    assert motion["isKinematic"] is False and motion["mass"] == 4
    # Mass Properties = BLENDER: Bullet's compound inertia is the box of the children's AABB (x −1…1, y −0.5…0.5,
    # z −0.4…0.1) grown by the 0.04 m margin: (2.08, 1.08, 0.58) m; its centre of mass is the origin (an engine
    # would put it between the deck and the wheel)
    assert motion["centerOfMass"] == [0, 0, 0]
    assert motion["inertiaDiagonal"] == pytest.approx([0.5009333, 1.830933, 1.554267], rel=1e-6)
    for child in ("Wheel", "Deck"):
        index, node = nodes[child]
        assert index in nodes["Cart"][1]["children"]
        assert set(_ext(node)) == {"collider"}
    assert document.nodes[nodes["Wheel"][0]].collider is not None
    assert _shape(out, nodes["Wheel"][1]) == {"type": "sphere", "sphere": {"radius": 0.2}}


JOINT_CASES = {
    "FIXED": ({}, {"lin": [(0, 0)] * 3, "ang": [(0, 0)] * 3}),
    "POINT": ({}, {"lin": [(0, 0)] * 3, "ang": [None] * 3}),
    "HINGE": ({"use_limit_ang_z": True, "limit_ang_z_lower": -0.5, "limit_ang_z_upper": 1.0}, None),
    "SLIDER": ({"use_limit_lin_x": True, "limit_lin_x_lower": -1.0, "limit_lin_x_upper": 2.0}, None),
    "PISTON": ({"use_limit_lin_x": True, "limit_lin_x_lower": 0.0, "limit_lin_x_upper": 1.0}, None),
    "GENERIC": (
        {
            "use_limit_lin_x": True,
            "limit_lin_x_lower": -0.25,
            "limit_lin_x_upper": 0.5,
            "use_limit_lin_y": True,
            "use_limit_lin_z": True,
            "use_limit_ang_y": True,
            "limit_ang_y_lower": -0.3,
            "limit_ang_y_upper": 0.2,
        },
        None,
    ),
}


def _pair(rbw):
    a = _body(rbw, "BodyA", location=(0, 0, 0), kind="PASSIVE")
    b = _body(rbw, "BodyB", location=(0, 0, -2))
    return a, b


def _joint_of(out):
    """(joint node, connected node, description) of the only joint in ``out``."""
    holders = [n for n in out["nodes"] if "joint" in _ext(n)]
    assert len(holders) == 1
    joint = _ext(holders[0])["joint"]
    return holders[0], out["nodes"][joint["connectedNode"]], out["extensions"][RB]["physicsJoints"][joint["joint"]]


@pytest.mark.parametrize("kind", sorted(JOINT_CASES))
def test_constraint_types_export_and_import_back(clean, tmp_path, kind):
    rbw = _world(bpy.context.scene)
    a, b = _pair(rbw)
    c = _constraint(rbw, "Joint", a, b, kind, location=(0.5, 0.0, -1.0), rotation=(0.3, 0.0, 0.7))
    for key, value in JOINT_CASES[kind][0].items():
        setattr(c, key, value)
    c.disable_collisions = kind != "POINT"
    bpy.context.view_layer.update()
    pivot = c.id_data.matrix_world.copy()
    out = export(tmp_path / f"{kind}.gltf", "2026")
    _valid(clean, out)
    holder, connected, description = _joint_of(out)
    assert _ext(holder)["joint"]["enableCollision"] is (kind == "POINT")
    nodes = _nodes_by_name(out)
    assert out["nodes"].index(holder) in nodes["BodyA"][1]["children"]
    assert out["nodes"].index(connected) in nodes["BodyB"][1]["children"]
    if kind == "HINGE":  # free about the joint frame's Z (= the Empty's Z), Blender [lo, hi] -> glTF [-hi, -lo]
        limit = next(lim for lim in description["limits"] if lim.get("angularAxes") == [2])
        assert (float(limit["min"]), float(limit["max"])) == pytest.approx((-1.0, 0.5))
    if kind == "SLIDER":
        limit = next(lim for lim in description["limits"] if lim.get("linearAxes") == [0])
        assert (float(limit["min"]), float(limit["max"])) == pytest.approx((-1.0, 2.0))
    settings = {k: getattr(c, k) for k in dir(c) if k.startswith(("use_limit", "limit_"))}
    # import the file back: the same constraint, at the same pivot, with the same limits
    empty_scene()
    assert bpy.ops.import_scene.gltf(filepath=str(tmp_path / f"{kind}.gltf")) == {"FINISHED"}
    back = [ob for ob in bpy.context.scene.objects if ob.rigid_body_constraint is not None]
    assert len(back) == 1
    rc = back[0].rigid_body_constraint
    assert rc.type == kind
    assert rc.object1.name == "BodyA" and rc.object2.name == "BodyB"
    assert rc.disable_collisions == (kind != "POINT")
    assert _close(back[0].matrix_world, pivot)
    for key, value in settings.items():
        if kind in ("GENERIC",) or key.endswith(_RELEVANT[kind]):
            assert getattr(rc, key) == pytest.approx(value, abs=1e-5), key


_RELEVANT = {
    "FIXED": (),
    "POINT": (),
    "HINGE": ("ang_z", "ang_z_lower", "ang_z_upper"),
    "SLIDER": ("lin_x", "lin_x_lower", "lin_x_upper"),
    "PISTON": ("lin_x", "lin_x_lower", "lin_x_upper"),
}


def _close(m1: Matrix, m2: Matrix, tol: float = 1e-4) -> bool:
    return all(abs(m1[i][j] - m2[i][j]) < tol for i in range(4) for j in range(4))


def test_motor_and_springs_become_drives(clean, tmp_path):
    rbw = _world(bpy.context.scene)
    a, b = _pair(rbw)
    motor = _constraint(rbw, "Motor", a, b, "MOTOR", location=(0, 0, -1))
    motor.use_motor_ang, motor.motor_ang_target_velocity, motor.motor_ang_max_impulse = True, 2.0, 5.0
    out = export(tmp_path / "motor.gltf", "2026")
    _valid(clean, out)
    _, _, description = _joint_of(out)
    assert description == {
        "drives": [
            {"type": "angular", "mode": "acceleration", "axis": 0, "maxForce": 5, "velocityTarget": -2, "damping": 1000}
        ]
    }
    motor.id_data.rigid_body_constraint.type = "GENERIC_SPRING"
    spring = motor.id_data.rigid_body_constraint
    spring.use_spring_z, spring.spring_stiffness_z, spring.spring_damping_z = True, 40.0, 0.5
    out = export(tmp_path / "spring.gltf", "2026")
    _, _, description = _joint_of(out)
    assert description["drives"] == [
        {
            "type": "linear",
            "mode": "force",
            "axis": 2,
            "positionTarget": 0,
            "stiffness": 40,
            "velocityTarget": 0,
            "damping": 0.5,
        }
    ]


def test_collision_collections_become_filters(clean, tmp_path):
    rbw = _world(bpy.context.scene)
    ground = _body(rbw, "Ground", size=(10, 10, 1), kind="PASSIVE")
    ghost = _body(rbw, "Ghost", location=(0, 0, 3))
    crate = _body(rbw, "Crate", location=(2, 0, 3))
    ghost.rigid_body.collision_collections = [i == 1 for i in range(20)]
    out = export(tmp_path / "filters.gltf", "2026")
    document = _valid(clean, out)
    nodes = _nodes_by_name(out)
    filters = document.filters

    def flt(name):
        return filters[document.nodes[nodes[name][0]].collider.filter]

    assert flt("Ghost").collision_systems == ("collection_1",)
    assert flt("Crate").collision_systems == ("collection_0",)
    mapping = submodule(clean, "io.mapping.values_to_gltf")
    assert mapping.filter_collides(flt("Ground"), flt("Crate"))
    assert not mapping.filter_collides(flt("Ground"), flt("Ghost"))
    assert ground and crate


def test_every_revision_writes_the_same_native_scene(clean, tmp_path):
    rbw = _world(bpy.context.scene)
    a, b = _pair(rbw)
    _constraint(rbw, "Hinge", a, b, "HINGE", location=(0, 0, -1), rotation=(math.pi / 2, 0, 0))
    parse = submodule(clean, "io.gltf.parse")
    documents = {}
    for revision in REVISIONS:
        out = export(tmp_path / f"{revision}.gltf", revision)
        documents[revision] = parse.parse_gltf(out).document
        assert not [d for d in parse.parse_gltf(out).diagnostics if d.severity.name == "ERROR"]
    counts = {r: (len(d.joints), sum(n.motion is not None for n in d.nodes.values())) for r, d in documents.items()}
    assert set(counts.values()) == {(1, 1)}, counts  # PASSIVE BodyA: collider only; BodyB: motion


def test_export_physics_off_writes_no_physics(clean, tmp_path):
    rbw = _world(bpy.context.scene)
    a, b = _pair(rbw)
    _constraint(rbw, "Fixed", a, b, "FIXED")
    out = export(tmp_path / "off.gltf", "2026", physics=False)
    text = (tmp_path / "off.gltf").read_text()
    assert "KHR_physics" not in text and "KHR_implicit_shapes" not in text and "OMI_" not in text
    assert {n["name"] for n in out["nodes"]} == {"BodyA", "BodyB", "Fixed"}
    assert last_export(clean).counts.get("disabled") == 1


def test_hook_failure_becomes_a_diagnostic(clean, tmp_path, monkeypatch, gltf_errors):
    rbw = _world(bpy.context.scene)
    _pair(rbw)
    bodies = submodule(clean, "io.exporter.bodies")

    def broken(*args):
        raise RuntimeError("boom")

    monkeypatch.setattr(bodies, "assign_native_filters", broken)
    out = export(tmp_path / "partial.gltf", "2026")
    report = last_export(clean)
    failures = [d for d in report.diagnostics if d.code == "GLTF_PHYSICS_EXPORT_FAILED"]
    assert failures and "boom" not in failures[0].message and "internal error" in failures[0].message
    assert "motion" in _ext(_nodes_by_name(out)["BodyB"][1])  # the rest is still written
    blender_export = submodule(clean, "io.exporter.pipeline")
    monkeypatch.setattr(blender_export, "build", broken)
    export(tmp_path / "failed.gltf", "2026")
    report = last_export(clean)
    assert [d.code for d in report.diagnostics] == ["GLTF_PHYSICS_INTERNAL_ERROR"]
    assert "boom" not in report.diagnostics[0].message  # the exception goes to the console
    assert not gltf_errors  # io_scene_gltf2 never saw an exception


def test_filtered_out_body_skips_its_joint(clean, tmp_path):
    rbw = _world(bpy.context.scene)
    a, b = _pair(rbw)
    _constraint(rbw, "Fixed", a, b, "FIXED")
    for ob in bpy.context.scene.objects:
        ob.select_set(ob.name != "BodyB")
    out = export(tmp_path / "selected.gltf", "2026", use_selection=True)
    assert "BodyB" not in {n["name"] for n in out["nodes"]}
    assert not any("joint" in _ext(n) for n in out["nodes"])
    # no description of a joint that was not written (once: the skipped joint's description stayed in the file)
    assert not out.get("extensions", {}).get(RB, {}).get("physicsJoints"), out.get("extensions")
    report = last_export(clean)
    assert any(d.code == "GLTF_PHYSICS_EXPORT_SKIPPED" and "BodyB" in d.message for d in report.diagnostics)


def test_only_written_joints_keep_their_descriptions(clean, tmp_path):
    """Of three constraints with different settings, the middle one is skipped (its body is not exported): the
    file holds the two written joints' descriptions, and each node joint still names its own."""
    rbw = _world(bpy.context.scene)
    a, b = _pair(rbw)
    c = _body(rbw, "BodyC", location=(0, 0, 6))
    _constraint(rbw, "J1", a, b, "FIXED")
    _constraint(rbw, "J2", b, c, "POINT")
    _constraint(rbw, "J3", a, b, "HINGE")
    for ob in bpy.context.scene.objects:
        ob.select_set(ob.name != "BodyC")
    out = export(tmp_path / "selected.gltf", "2026", use_selection=True)
    _valid(clean, out)
    descriptions = out["extensions"][RB]["physicsJoints"]
    written = [_ext(n)["joint"] for n in out["nodes"] if "joint" in _ext(n)]
    assert len(written) == 2 and len(descriptions) == 2
    kinds = sorted(len(descriptions[j["joint"]]["limits"]) for j in written)  # FIXED: lin + ang; HINGE: + ang 0/1
    assert kinds == [2, 2], descriptions


def test_y_up_off_is_reported_and_summary_reaches_the_operator(clean, tmp_path):
    rbw = _world(bpy.context.scene)
    _pair(rbw)
    export(tmp_path / "zup.gltf", "2026", export_yup=False)
    report = last_export(clean)
    assert any("+Y Up is off" in d.message for d in report.diagnostics)
    pipeline = submodule(clean, "io.exporter.pipeline")
    (summary, *rest) = pipeline.export_summary_lines(report, "2026")
    assert summary[0] == "WARNING" and "1 body, 2 colliders, 0 joints" in summary[1]
    assert len([text for level, text in rest if level == "WARNING"]) == 2
    assert [level for level, text in rest if "damping" in text] == ["WARNING"]  # Blender's default damping: plays
    # differently in an engine (GLTF_PHYSICS_EXPORT_PLAYS_DIFFERENTLY, tests/blender/exporter/test_export_unwritten.py)


@pytest.mark.parametrize("revision", REVISIONS)
def test_native_export_is_stable_through_import_and_export(clean, tmp_path, revision):
    """native → export → import → export gives the same physics (the stored path reproduces the native one)."""
    from export_helpers import canonical, diff

    rbw = _world(bpy.context.scene)
    _body(rbw, "Ground", size=(10, 8, 0.5), kind="PASSIVE")
    _body(rbw, "Pill", size=(0.6, 0.6, 2.0), shape="CAPSULE", location=(4, 0, 5))
    cart = _body(rbw, "Cart", size=(2, 1, 0.2), shape="COMPOUND", location=(0, 0, 2), mass=4.0)
    _body(rbw, "Wheel", size=(0.4, 0.4, 0.4), shape="SPHERE", location=(0.8, 0, -0.2), parent=cart)
    a, b = _pair(rbw)
    for n, kind in enumerate(sorted(JOINT_CASES)):
        c = _constraint(rbw, f"J{kind}", a, b, kind, location=(0.1 * n, 0.0, -1.0), rotation=(0.2 * n, 0.1, 0.0))
        for key, value in JOINT_CASES[kind][0].items():
            setattr(c, key, value)
    parse = submodule(clean, "io.gltf.parse")
    first = export(tmp_path / "first.gltf", revision)
    empty_scene()
    assert bpy.ops.import_scene.gltf(filepath=str(tmp_path / "first.gltf")) == {"FINISHED"}
    second = export(tmp_path / "second.gltf", revision)
    assert not [d for d in last_export(clean).diagnostics if d.code == "GLTF_PHYSICS_EXPORT_EDITED"]
    one = canonical(parse.parse_gltf(first).document, first)
    two = canonical(parse.parse_gltf(second).document, second)
    assert len(one["joints"]) == len(JOINT_CASES)
    problems = diff(one, two)
    assert not problems, "\n".join(problems)


def test_capsules_no_taller_than_wide_are_written_as_the_sphere_blender_simulates(clean, tmp_path):
    """Found by a sweep of odd native scenes: a CAPSULE body whose Z extent is at most its width was written as a
    capsule of height 0, which the KHR_implicit_shapes schema forbids (exclusiveMinimum 0). Blender clamps the
    centre distance at 0 and simulates a sphere of half the larger X/Y extent: that sphere is written."""
    rbw = _world(bpy.context.scene)
    _body(rbw, "Cube", size=(1, 1, 1), shape="CAPSULE")
    _body(rbw, "Flat", size=(1, 0.6, 0.2), shape="CAPSULE", location=(3, 0, 0))
    _body(rbw, "Tall", size=(1, 1, 3), shape="CAPSULE", location=(6, 0, 0))
    out = export(tmp_path / "capsules.gltf", "2026")
    _valid(clean, out)
    nodes = _nodes_by_name(out)
    assert _shape(out, nodes["Cube"][1]) == {"type": "sphere", "sphere": {"radius": 0.5}}
    assert _shape(out, nodes["Flat"][1]) == {"type": "sphere", "sphere": {"radius": 0.5}}
    assert _shape(out, nodes["Tall"][1]) == {
        "type": "capsule",
        "capsule": {"height": 2, "radiusTop": 0.5, "radiusBottom": 0.5},
    }
    warnings = [str(d) for d in last_export(clean).diagnostics if d.severity.name == "WARNING"]
    assert not [w for w in warnings if "degenerate" in w], warnings
