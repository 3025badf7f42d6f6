"""Conformance scenes (glTF_Physics/tests, KHR 2024-10) imported and checked field by field in Blender's frame.

Expectations are computed here from the file's JSON with the spec's rules (independently of the import code):
body type, kinematic flag, mass (explicit, or 1000 kg/m³ × shape volume × |scale|), collision shape type, the
shape's extents in Blender axes (glTF (x, y, z) sizes → Blender (x, z, y)), friction/restitution.
"""

from __future__ import annotations

import json
import math

import bpy
import corpus_runs
import pytest
from mathutils import Vector

from testkit import corpus_files, corpus_id

FILES = corpus_files("glTF_Physics/tests/**/*.gltf", sample=False)  # every tier: scenes behave on each release
DENSITY = 1000.0
RB = "KHR_physics_rigid_bodies"


def _shape_expectation(doc: dict, node: dict, geometry: dict):
    """(Blender shape types allowed, glTF-local extents (x, y, z), volume or None)."""
    if "shape" in geometry:
        shape = doc["extensions"]["KHR_implicit_shapes"]["shapes"][geometry["shape"]]
        kind, p = shape["type"], shape.get(shape["type"], {})
        if kind == "box":
            size = p.get("size", [1.0, 1.0, 1.0])
            return {"BOX"}, size, size[0] * size[1] * size[2]
        if kind == "sphere":
            r = p.get("radius", 0.5)
            return {"SPHERE"}, [2 * r] * 3, 4 / 3 * math.pi * r**3
        h, rt, rb = p.get("height", 0.5), p.get("radiusTop", 0.25), p.get("radiusBottom", 0.25)
        if kind == "capsule":
            assert rt == rb
            return {"CAPSULE"}, [2 * rb, h + 2 * rb, 2 * rb], math.pi * rb * rb * (h + 4 * rb / 3)
        if kind == "cylinder":
            r = max(rt, rb)
            return (
                {"CYLINDER"} if rt == rb else {"CONE", "CONVEX_HULL"},
                [2 * r, h, 2 * r],
                (math.pi * h * (rb * rb + rb * rt + rt * rt) / 3),
            )
        raise AssertionError(kind)
    mesh = doc["meshes"][doc["nodes"][geometry["node"]]["mesh"]]
    accessor = doc["accessors"][mesh["primitives"][0]["attributes"]["POSITION"]]
    extents = [hi - lo for lo, hi in zip(accessor["min"], accessor["max"], strict=True)]
    return {"CONVEX_HULL"} if geometry.get("convexHull") else {"MESH"}, extents, None


def _node_object(index: int):
    own = [ob for ob in bpy.data.objects if ob.gltf_physics.node_index == index and ob.gltf_physics.role == "NODE"]
    assert len(own) == 1, [ob.name for ob in own]
    return own[0]


def _carrier(index: int):
    """The object whose rigid body holds node ``index``'s collider shape (own object or its proxy)."""
    ob = _node_object(index)
    if ob.rigid_body is not None and ob.rigid_body.collision_shape != "COMPOUND":
        return ob
    proxies = [p for p in bpy.data.objects if p.gltf_physics.role == "PROXY" and p.gltf_physics.proxy_node == index]
    assert len(proxies) == 1
    return proxies[0]


def _motion_node(doc: dict, index: int) -> int | None:
    parents = {c: i for i, n in enumerate(doc["nodes"]) for c in n.get("children", [])}
    while index is not None:
        if "motion" in doc["nodes"][index].get("extensions", {}).get(RB, {}):
            return index
        index = parents.get(index)
    return None


def _world_extents(ob) -> Vector:
    corners = [Vector(c) for c in ob.bound_box]
    local = Vector([max(c[i] for c in corners) - min(c[i] for c in corners) for i in range(3)])
    scale = ob.matrix_world.to_scale()
    return Vector([abs(local[i] * scale[i]) for i in range(3)])


@pytest.mark.corpus
@pytest.mark.parametrize("path", FILES, ids=corpus_id)
def test_conformance_scene_bodies_field_by_field(addon, gltf_errors, path):
    corpus_runs.run(addon, path, "mapping", gltf_errors).value("bodies_field_by_field")


@corpus_runs.inspector("mapping", "bodies_field_by_field", files=FILES)
def _bodies_field_by_field(addon, path, run):
    """On the session's import with Reproduce Motion off: the plain mapping (Reproduce Motion: own tests)."""
    doc = json.loads(path.read_text())
    assert run.result == "FINISHED", run.result
    materials = doc.get("extensions", {}).get(RB, {}).get("physicsMaterials", [])
    checked = 0
    for index, node in enumerate(doc["nodes"]):
        ext = node.get("extensions", {}).get(RB, {})
        if "collider" not in ext:
            continue
        carrier = _carrier(index)
        body_index = _motion_node(doc, index)
        body = carrier if body_index is None else _node_object(body_index)
        rb = body.rigid_body
        kinds, extents, volume = _shape_expectation(doc, node, ext["collider"]["geometry"])
        scale = [abs(s) for s in node.get("scale", [1.0, 1.0, 1.0])]
        assert carrier.rigid_body.collision_shape in kinds
        expected = Vector((extents[0] * scale[0], extents[2] * scale[2], extents[1] * scale[1]))  # Y-up -> Z-up
        assert tuple(_world_extents(carrier)) == pytest.approx(tuple(expected), rel=1e-4, abs=1e-5)
        motion = None if body_index is None else doc["nodes"][body_index]["extensions"][RB]["motion"]
        if motion is None:
            assert rb.type == "PASSIVE" and not body.gltf_physics.motion.has_motion
        else:
            assert rb.type == "ACTIVE"
            assert rb.kinematic == bool(motion.get("isKinematic", False))
            if "mass" in motion:
                assert rb.mass == pytest.approx(motion["mass"])
                assert body.gltf_physics.motion.mass_mode == "EXPLICIT"
            else:
                assert body.gltf_physics.motion.mass_mode == "ABSENT"
                if body_index == index:  # single collider: density x its volume
                    assert rb.mass == pytest.approx(DENSITY * volume * scale[0] * scale[1] * scale[2], rel=1e-5)
            assert body.gltf_physics.motion.gravity_factor == pytest.approx(motion.get("gravityFactor", 1.0))
            lv = motion.get("linearVelocity", [0.0, 0.0, 0.0])
            assert tuple(body.gltf_physics.motion.linear_velocity) == pytest.approx((lv[0], -lv[2], lv[1]))
            av = motion.get("angularVelocity", [0.0, 0.0, 0.0])
            assert tuple(body.gltf_physics.motion.angular_velocity) == pytest.approx((av[0], -av[2], av[1]))
        material_index = ext["collider"].get("physicsMaterial")
        stored = _node_object(index).gltf_physics.collider.material
        if material_index is None:
            assert not stored.has_material
            assert carrier.rigid_body.friction == pytest.approx(math.sqrt(0.6), rel=1e-5)
        else:
            m = materials[material_index]
            assert stored.has_material and stored.index == material_index
            assert stored.static_friction == pytest.approx(m.get("staticFriction", 0.6))
            assert stored.dynamic_friction == pytest.approx(m.get("dynamicFriction", 0.6))
            assert stored.restitution == pytest.approx(m.get("restitution", 0.0))
            assert stored.friction_combine == m.get("frictionCombine", "NONE")
            assert stored.restitution_combine == m.get("restitutionCombine", "NONE")
            friction, restitution = m.get("dynamicFriction", 0.6), m.get("restitution", 0.0)
            if m.get("frictionCombine") != "multiply":
                friction = math.sqrt(friction)
            if m.get("restitutionCombine") != "multiply":
                restitution = math.sqrt(restitution)
            assert carrier.rigid_body.friction == pytest.approx(friction, rel=1e-5)
            assert carrier.rigid_body.restitution == pytest.approx(restitution, rel=1e-5)
        checked += 1
    assert checked >= 1
