"""Own joint/filter fixtures (scripts/make_joint_fixtures.py) and OMI/filter corpus files, checked in Blender."""

from __future__ import annotations

import bpy
import pytest

from joint_helpers import axis, constraints, import_gltf
from testkit import CORPUS, corpus_files, corpus_id, fixture

# fixture → (type, {Empty local axis: expected Blender world direction})
NATIVE = {
    "fixed": ("FIXED", {0: (1, 0, 0), 1: (0, 0, 1)}),  # Empty axes = glTF axes: X = X, Y = Blender Z
    "point": ("POINT", {}),
    "hinge_x": ("HINGE", {2: (1, 0, 0)}),
    "hinge_z": ("HINGE", {2: (0, -1, 0)}),  # glTF Z = Blender −Y
    "slider_y": ("SLIDER", {0: (0, 0, 1)}),
    "piston_x": ("PISTON", {0: (1, 0, 0)}),
    "generic": ("GENERIC", {0: (1, 0, 0), 2: (0, -1, 0)}),
    "enable_collision": ("POINT", {}),
}


@pytest.mark.parametrize("name", sorted(NATIVE))
def test_constraint_type_and_axes(clean, name):
    report = import_gltf(clean, fixture(f"joints/{name}.gltf"))
    kind, axes = NATIVE[name]
    (empty,) = constraints("JOINT")
    c = empty.rigid_body_constraint
    assert c.type == kind
    for index, direction in axes.items():
        assert tuple(axis(empty, index)) == pytest.approx(direction, abs=1e-6)
    assert c.object1.name == "BodyA" or c.object1.name.startswith("BodyA")
    assert c.object2.name.startswith("BodyB")
    assert c.disable_collisions == (name != "enable_collision")
    assert empty.gltf_physics.joint.enable_collision == (name == "enable_collision")
    assert not empty.gltf_physics.joint.approximated
    assert report.counts["joints"] == 1


def test_generic_per_axis_limits_in_blenders_frame(clean):
    import_gltf(clean, fixture("joints/generic.gltf"))
    c = constraints("JOINT")[0].rigid_body_constraint
    assert c.use_limit_lin_x and (c.limit_lin_x_lower, c.limit_lin_x_upper) == pytest.approx((-0.1, 0.3))
    assert c.use_limit_lin_y and c.use_limit_lin_z
    # angular limits bound object1 relative to object2 in Blender: glTF Z twist [-0.5, 0.25] → [-0.25, 0.5]
    assert c.use_limit_ang_z and (c.limit_ang_z_lower, c.limit_ang_z_upper) == pytest.approx((-0.25, 0.5))
    assert (c.limit_ang_x_lower, c.limit_ang_x_upper) == (0.0, 0.0)


@pytest.mark.parametrize(
    ("name", "lin", "ang", "word"), [("cone", None, 0.5, "cone"), ("distance", 0.3, None, "distance")]
)
def test_cone_and_distance_limits_are_reported_approximations(clean, name, lin, ang, word):
    report = import_gltf(clean, fixture(f"joints/{name}.gltf"))
    empty = constraints("JOINT")[0]
    c = empty.rigid_body_constraint
    assert c.type == "GENERIC"
    if ang is not None:  # cone about glTF Y: glTF X and Z limited per axis, Y free
        assert [c.use_limit_ang_x, c.use_limit_ang_y, c.use_limit_ang_z] == [True, False, True]
        assert (c.limit_ang_x_lower, c.limit_ang_x_upper) == pytest.approx((-ang, ang))
    if lin is not None:
        for a in "xyz":
            assert (getattr(c, f"limit_lin_{a}_lower"), getattr(c, f"limit_lin_{a}_upper")) == pytest.approx(
                (-lin, lin)
            )
        assert not any(getattr(c, f"use_limit_ang_{a}") for a in "xyz")
    assert empty.gltf_physics.joint.approximated
    assert any(word in d.message and d.pointer.endswith("/joint") for d in report.diagnostics)
    kept = empty.gltf_physics.joint.limits[-1]
    assert kept.has_max and kept.max == pytest.approx(lin or ang) and sum(kept.axes) == (3 if lin else 2)


def test_joint_to_world_uses_one_passive_non_colliding_anchor(clean):
    import_gltf(clean, fixture("joints/to_world.gltf"))
    c = constraints("JOINT")[0].rigid_body_constraint
    anchor = c.object1
    assert anchor.gltf_physics.joint.role == "ANCHOR"
    assert anchor.rigid_body.type == "PASSIVE" and not any(anchor.rigid_body.collision_collections)
    assert anchor.hide_render and c.object2.name.startswith("BodyB")
    assert c.type == "HINGE"


def test_filters_fixture_collision_collections(clean):
    report = import_gltf(clean, fixture("joints/filters.gltf"))
    cols = {
        ob.name: {i for i, f in enumerate(ob.rigid_body.collision_collections) if f}
        for ob in bpy.context.scene.objects
        if ob.rigid_body
    }
    by_name = {name.split(".")[0]: v for name, v in cols.items()}

    def collide(a, b):
        return bool(by_name[a] & by_name[b])

    assert not collide("Ghost", "Ground") and collide("Ghost", "Ghost2") and collide("Ghost", "Plain")
    assert collide("TeamA", "TeamB") and not collide("TeamA", "Ground") and not collide("TeamA", "Plain")
    assert collide("Plain", "Ground") and not collide("TeamA", "Ghost")
    assert not [d for d in report.diagnostics if "collision filters approximated" in d.message]


@pytest.mark.corpus
@pytest.mark.parametrize("path", corpus_files("glTF_Physics/tests/RigidBodies_CollisionFilter/*.gltf"), ids=corpus_id)
def test_conformance_filter_collections(clean, path):
    report = import_gltf(clean, path)
    bodies = [  # top-level bodies: compound children use their parent's collections
        ob
        for ob in bpy.context.scene.objects
        if ob.rigid_body and not (ob.parent and ob.parent.rigid_body) and ob.gltf_physics.joint.role != "ANCHOR"
    ]
    static = [ob for ob in bodies if ob.rigid_body.type == "PASSIVE"]
    # the file's bodies (import_reproduce splits compound shapes with their own filter off as bodies without motion)
    dynamic = [ob for ob in bodies if ob.rigid_body.type == "ACTIVE" and ob.gltf_physics.motion.has_motion]
    assert static and len(dynamic) == 2

    def sets(ob):
        return {i for i, f in enumerate(ob.rigid_body.collision_collections) if f}

    hits = [any(sets(d) & sets(s) for s in static) for d in dynamic]
    if path.stem[-2:] in ("00", "01"):  # one body rests on the static geometry, the other passes through
        assert sorted(hits) == [False, True]
    else:  # compound bodies whose children use different filters: union, reported
        assert any("different filters" in d.message for d in report.diagnostics)


@pytest.mark.corpus
@pytest.mark.parametrize(
    "path",
    corpus_files(
        "omigroup-gltf-extensions_2024-11_old_joints/**/OMI_physics_joint/examples/*.gltf",
        "omigroup-gltf-extensions/**/OMI_physics_joint/examples/*.gltf",
    ),
    ids=corpus_id,
)
def test_omi_joints_import_as_constraints(clean, path):
    from testkit import read_json

    report = import_gltf(clean, path)
    data = read_json(path)
    joint_nodes = [n for n in data["nodes"] if "OMI_physics_joint" in n.get("extensions", {})]
    made = constraints("JOINT")
    assert len(made) == report.counts.get("joints", 0) >= 1
    assert len(made) <= len(joint_nodes)
    for empty in made:
        c = empty.rigid_body_constraint
        assert c.object1 is not None and c.object2 is not None and c.object1 != c.object2
        assert c.object1.rigid_body is not None and c.object2.rigid_body is not None
        assert empty.gltf_physics.joint.limits or empty.gltf_physics.joint.drives
    assert CORPUS.is_dir()
