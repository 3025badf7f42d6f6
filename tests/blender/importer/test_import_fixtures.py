"""Import rules on the project's own fixtures (``scripts/make_import_fixtures.py`` → tests/fixtures/import/)."""

from __future__ import annotations

import json
import math

import bpy
import pytest
from mathutils import Vector

from blenderkit import submodule
from testkit import FIXTURES

IMPORT = FIXTURES / "import"


def _import(addon, name: str):
    assert bpy.ops.import_scene.gltf(filepath=str(IMPORT / name)) == {"FINISHED"}
    bpy.context.view_layer.update()
    return submodule(addon, "io.hooks").last_report("import")


def _rb(name: str):
    return bpy.data.objects[name].rigid_body


def _world_extents(ob) -> tuple:
    corners = [Vector(c) for c in ob.bound_box]
    scale = ob.matrix_world.to_scale()
    return tuple(abs((max(c[i] for c in corners) - min(c[i] for c in corners)) * scale[i]) for i in range(3))


def _codes(report) -> set[tuple[str, str]]:
    return {(d.code, d.pointer) for d in report.diagnostics}


def _no_internal_errors(report) -> None:
    assert report.worst() is None or report.worst().name != "ERROR", [str(d) for d in report.diagnostics]


def test_khr_2026_mesh_colliders(clean):
    report = _import(clean, "rev_2026.gltf")
    _no_internal_errors(report)
    ground = bpy.data.objects["Ground"]  # an Empty in the file: replaced by a mesh object holding mesh 1
    assert ground.type == "MESH" and ground.gltf_physics.generated_mesh and ground.hide_render
    assert ground.rigid_body.type == "PASSIVE" and ground.rigid_body.collision_shape == "MESH"
    assert len(ground.data.vertices) == 4  # the tetrahedron, referenced only by the collider
    assert _world_extents(ground) == pytest.approx((10.0, 10.0, 1.0))
    hull = _rb("Hull")  # convexHull of the unit cube mesh: exactly Blender's BOX (no Bullet hull, no margin)
    assert hull.collision_shape == "BOX" and hull.mass == pytest.approx(2.0)
    assert _world_extents(bpy.data.objects["Hull"]) == pytest.approx((1.0, 1.0, 1.0))
    geometry = bpy.data.objects["Hull"].gltf_physics.collider.geometry
    assert (geometry.kind, geometry.mesh, geometry.convex_hull) == ("MESH", 0, True)


def test_convex_hull_becomes_box_only_when_exact(clean):
    geometry = submodule(clean, "io.mapping.mesh_points")
    corners = [(x, y, z) for x in (-1.0, 1.0) for y in (-2.0, 2.0) for z in (-0.5, 0.5)]

    def mesh(points):
        m = bpy.data.meshes.new("probe")
        m.from_pydata(points, [], [])
        return m

    assert geometry.is_centred_box(mesh(corners))
    assert geometry.is_centred_box(mesh([*corners, (0.2, 0.1, 0.0)]))  # an inner point: the hull is still the box
    assert not geometry.is_centred_box(mesh([(x + 0.5, y, z) for x, y, z in corners]))  # off-centre
    assert not geometry.is_centred_box(mesh([*corners[:7], (0.9, 1.9, 0.4)]))  # a corner cut off
    assert not geometry.is_centred_box(mesh([(x, y, 0.0) for x, y, _ in corners]))  # flat


def test_khr_2024_10_node_geometry_and_plane(clean):
    report = _import(clean, "rev_2024_10.gltf")
    _no_internal_errors(report)
    rock = bpy.data.objects["Rock"]
    assert rock.rigid_body.collision_shape == "CONVEX_HULL" and len(rock.data.vertices) == 4
    assert rock.gltf_physics.collider.geometry.kind == "NODE" and rock.gltf_physics.collider.geometry.node == 3
    floor = bpy.data.objects["Floor"]
    assert floor.rigid_body.collision_shape == "MESH" and _world_extents(floor) == pytest.approx((4.0, 6.0, 0.0))
    assert json.loads(floor.gltf_physics.collider.geometry.shape_json)["plane"] == {
        "sizeX": 4.0,
        "sizeZ": 6.0,
        "doubleSided": True,
    }
    crate = bpy.data.objects["Crate"]  # the render cube is the 1 m box: no proxy
    assert crate.rigid_body.collision_shape == "BOX" and not crate.gltf_physics.generated_mesh
    assert report.counts["rigid_bodies"] == 3


def test_khr_2024_07_mesh_shape(clean):
    _import(clean, "rev_2024_07.gltf")
    tetra = _rb("Tetra")
    assert tetra.collision_shape == "CONVEX_HULL" and tetra.mass == pytest.approx(1.5)
    ground = bpy.data.objects["Ground"]
    assert ground.rigid_body.collision_shape == "BOX"
    assert _world_extents(ground) == pytest.approx((8.0, 8.0, 0.5))


def test_omi_current_static_kinematic_dynamic_and_trigger(clean):
    report = _import(clean, "omi_current.gltf")
    static = bpy.data.objects["Static"]
    assert static.rigid_body.type == "PASSIVE" and static.rigid_body.collision_shape == "COMPOUND"
    assert static.gltf_physics.motion.kind == "static"
    pill = bpy.data.objects["Pill"]
    assert pill.rigid_body.type == "ACTIVE" and pill.rigid_body.collision_shape == "CAPSULE"
    assert pill.rigid_body.mass == pytest.approx(2.0)
    assert _world_extents(pill) == pytest.approx((0.5, 0.5, 1.5))
    assert _rb("Mover").kinematic and bpy.data.objects["Mover"].gltf_physics.motion.kind == "kinematic"
    zone = bpy.data.objects["Zone"]
    assert zone.gltf_physics.trigger.has_trigger and zone.rigid_body is None
    assert report.counts == report.counts | {"rigid_bodies": 3, "triggers": 1}
    assert all("/OMI_physics_body/" in d.pointer for d in report.diagnostics if d.code.startswith("GLTF_PHYSICS_IMP"))


def test_omi_legacy_body_type(clean):
    _import(clean, "omi_legacy.gltf")
    ball = bpy.data.objects["Ball"]
    assert ball.rigid_body.type == "ACTIVE" and ball.rigid_body.mass == pytest.approx(3.0)
    assert tuple(ball.gltf_physics.motion.linear_velocity) == pytest.approx((1.0, -3.0, 2.0))  # Y-up -> Z-up
    proxy = [ob for ob in ball.children if ob.gltf_physics.role == "PROXY"]
    assert len(proxy) == 1 and proxy[0].rigid_body.collision_shape == "SPHERE"


SHAPE_CASES = {  # name: (Blender shape, Blender extents, volume)
    "Box": ("BOX", (1.0, 3.0, 2.0), 6.0),
    "Sphere": ("SPHERE", (1.5, 1.5, 1.5), 4 / 3 * math.pi * 0.75**3),
    "Capsule": ("CAPSULE", (0.6, 0.6, 1.6), math.pi * 0.09 * (1.0 + 0.4)),
    "Cylinder": ("CYLINDER", (1.0, 1.0, 2.0), math.pi * 0.25 * 2.0),
    "Cone": ("CONE", (2.0, 2.0, 2.0), math.pi * 2.0 / 3),
    "Frustum": ("CONVEX_HULL", (2.0, 2.0, 2.0), math.pi * 2.0 * (1.0 + 0.5 + 0.25) / 3),
    "Tapered": ("CONVEX_HULL", (1.0, 1.0, 1.75), 0.781308),  # specs §9 reference value / 1000
}


def test_bodies_on_empty_nodes_get_exact_proxies(clean):
    report = _import(clean, "empty_bodies.gltf")
    assert report.counts["rigid_bodies"] == len(SHAPE_CASES)
    for name, (shape, extents, volume) in SHAPE_CASES.items():
        ob = bpy.data.objects[name]
        assert ob.type == "MESH" and ob.gltf_physics.generated_mesh and ob.hide_render and ob.display_type == "WIRE"
        assert ob.rigid_body.collision_shape == shape, name
        assert _world_extents(ob) == pytest.approx(extents, abs=1e-6), name
        assert ob.rigid_body.mass == pytest.approx(1000.0 * volume, rel=1e-4), name
        assert ob.gltf_physics.motion.mass_mode == "ABSENT"
    approximated = {d.pointer for d in report.diagnostics if d.code == "GLTF_PHYSICS_IMPORT_APPROXIMATED"}
    assert approximated == {f"/nodes/{i}/extensions/KHR_physics_rigid_bodies/collider" for i in (5, 6)}


def test_compound_body_and_nested_independent_body(clean):
    _import(clean, "compound.gltf")
    cart = bpy.data.objects["Cart"]
    assert cart.rigid_body.collision_shape == "COMPOUND" and cart.rigid_body.mass == pytest.approx(5.0)
    parts = {ob.name: ob for ob in cart.children if ob.rigid_body is not None}
    assert set(parts) == {"CartBox", "Knob.collider"}  # the render cube is reused; the sphere gets a proxy
    knob = parts["Knob.collider"]
    assert knob.rigid_body.collision_shape == "SPHERE"
    assert tuple(knob.matrix_local.translation) == pytest.approx((2.0, 0.0, 1.0))  # glTF (2, 1, 0) in Cart
    passenger = bpy.data.objects["Passenger"]  # own motion: an independent body, not part of the compound
    assert passenger.parent is None and passenger.gltf_physics.gltf_parent == cart
    assert passenger.rigid_body.collision_shape == "BOX"
    assert tuple(passenger.matrix_world.translation) == pytest.approx((0.0, 0.0, 6.0))


def test_scale_rules(clean):
    report = _import(clean, "scales.gltf")
    negative = bpy.data.objects["Negative"]
    assert _world_extents(negative) == pytest.approx((1.0, 3.0, 2.0))  # |[1, -2, 3]|, Y-up -> Z-up
    zero = bpy.data.objects["Zero"]
    assert zero.rigid_body is None and zero.gltf_physics.collider.disabled
    assert ("GLTF_PHYSICS_IMPORT_DISABLED", "/nodes/1/extensions/KHR_physics_rigid_bodies/collider") in _codes(report)
    egg = bpy.data.objects["Egg"]
    assert egg.rigid_body.collision_shape == "CONVEX_HULL" and _world_extents(egg) == pytest.approx((2.0, 2.0, 4.0))


def test_materials_mass_and_stored_motion(clean):
    bpy.context.scene.gltf_physics.import_reproduce = False  # the default combine rule (Reproduce Motion: own tests)
    _import(clean, "materials_mass.gltf")
    full = bpy.data.objects["Full"]
    rb, motion, material = full.rigid_body, full.gltf_physics.motion, full.gltf_physics.collider.material
    assert rb.mass == pytest.approx(4.0) and motion.mass_mode == "EXPLICIT"
    assert rb.friction == pytest.approx(math.sqrt(0.4)) and rb.restitution == pytest.approx(math.sqrt(0.25))
    assert (material.static_friction, material.dynamic_friction) == pytest.approx((0.9, 0.4))
    assert material.friction_combine == "average" and material.restitution_combine == "NONE"
    assert tuple(motion.center_of_mass) == pytest.approx((0.1, -0.3, 0.2))
    assert tuple(motion.inertia_diagonal) == pytest.approx((1.0, 3.0, 2.0))
    assert tuple(motion.inertia_orientation) == pytest.approx((0.92387953, 0.0, -0.38268343, 0.0))
    assert tuple(motion.angular_velocity) == pytest.approx((0.5, 0.5, 0.0))
    assert motion.gravity_factor == pytest.approx(0.5)
    assert rb.linear_damping == 0.0 and rb.angular_damping == 0.0
    computed = bpy.data.objects["Computed"]
    assert computed.rigid_body.mass == pytest.approx(2000.0) and computed.gltf_physics.motion.mass_mode == "ABSENT"
    assert computed.rigid_body.friction == pytest.approx(0.5)  # multiply: written as is
    infinite = bpy.data.objects["Infinite"]
    assert infinite.rigid_body.type == "PASSIVE" and infinite.rigid_body.kinematic
    assert infinite.gltf_physics.motion.mass_mode == "INFINITE"


def test_simple_and_compound_triggers(clean):
    report = _import(clean, "triggers.gltf")
    assert report.counts["triggers"] == 4 and report.counts.get("rigid_bodies", 0) == 0
    simple = bpy.data.objects["Simple"]
    assert simple.gltf_physics.trigger.has_trigger and simple.gltf_physics.trigger.filter.has_filter
    assert json.loads(simple.gltf_physics.trigger.filter.collision_systems) == ["sensor"]
    volume = next(ob for ob in simple.children if ob.gltf_physics.role == "TRIGGER_PROXY")
    assert volume.rigid_body is None and volume.hide_render and _world_extents(volume) == pytest.approx((2.0,) * 3)
    compound = bpy.data.objects["Compound"]
    assert json.loads(compound.gltf_physics.trigger.nodes) == [2, 3]
    assert not any(ob.gltf_physics.role == "TRIGGER_PROXY" for ob in compound.children)
    assert all(ob.rigid_body is None for ob in bpy.data.objects)


def test_animated_body_follows_its_animation(clean):
    _import(clean, "animated.gltf")
    animated, free = bpy.data.objects["Animated"], bpy.data.objects["Free"]
    assert animated.rigid_body.kinematic and animated.gltf_physics.motion.animated
    assert animated.animation_data is not None and animated.animation_data.action is not None
    assert not free.rigid_body.kinematic


def test_malformed_data_imports_what_is_valid(clean):
    report = _import(clean, "malformed.gltf")
    assert report.worst().name == "ERROR"  # the validator's severity: one severity per problem (docs/diagnostics.md)
    mass = [
        d for d in report.diagnostics if d.pointer.endswith("/nodes/4/extensions/KHR_physics_rigid_bodies/motion/mass")
    ]
    assert [(d.code, d.severity.name) for d in mass] == [("TYPE_MISMATCH", "ERROR")]
    pointers = {d.pointer for d in report.diagnostics if d.severity.name in ("WARNING", "ERROR")}
    base = "/nodes/{}/extensions/KHR_physics_rigid_bodies"
    for expected in (
        base.format(1) + "/collider/geometry/shape",
        base.format(3) + "/collider/geometry/node",
        base.format(4) + "/motion/mass",
        base.format(5) + "/collider",
        base.format(6) + "/trigger/nodes/0",
        base.format(7) + "/motion",
    ):
        assert expected in pointers
    assert _rb("Good").type == "ACTIVE"
    assert _rb("BadMass").type == "PASSIVE"  # its motion was dropped; the collider stays, static
    assert report.counts["rigid_bodies"] == 2


def test_import_physics_option_off_imports_plain_gltf(clean):
    bpy.context.scene.gltf_physics.import_physics = False
    report = _import(clean, "empty_bodies.gltf")
    assert report.counts.get("disabled") == 1
    assert bpy.context.scene.rigidbody_world is None
    assert all(ob.type == "EMPTY" for ob in bpy.data.objects)
