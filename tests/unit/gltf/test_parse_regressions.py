"""Inputs that once broke the parser, kept as plain regression tests (found by hypothesis)."""

from __future__ import annotations

import pytest

from testkit import submodule

parse = submodule("io.gltf.parse")


@pytest.mark.parametrize("bad", [None, 3, "x", []])
def test_root_extension_with_non_object_extensions_is_reported_not_fatal(bad):
    gltf = {
        "asset": {"version": "2.0"},
        "extensionsUsed": ["KHR_physics_rigid_bodies"],
        "nodes": [{"extensions": {"KHR_physics_rigid_bodies": {"motion": {"mass": 2.0}}}}],
        "extensions": {"KHR_physics_rigid_bodies": {"extensions": bad, "physicsMaterials": [{"restitution": 0.5}]}},
    }
    result = parse.parse_gltf(gltf)
    codes = {d.code for d in result.diagnostics}
    assert "PHYSICS_PARSE_INTERNAL_ERROR" not in codes
    assert any(d.pointer == "/extensions/KHR_physics_rigid_bodies/extensions" for d in result.diagnostics)
    assert result.document.nodes[0].motion.mass == 2.0
    assert result.document.materials[0].restitution == 0.5


def _plain_khr_doc() -> dict:
    """The usual KHR nodes: a kinematic body with a shape collider, a body with a mesh collider, a joint, an empty
    node object."""
    rb = "KHR_physics_rigid_bodies"
    return {
        "asset": {"version": "2.0"},
        "extensionsUsed": [rb, "KHR_implicit_shapes"],
        "extensions": {
            "KHR_implicit_shapes": {"shapes": [{"type": "sphere", "sphere": {"radius": 0.5}}]},
            rb: {
                "physicsMaterials": [{"staticFriction": 0.5}],
                "collisionFilters": [{"collisionSystems": ["a"]}],
                "physicsJoints": [{"limits": [{"linearAxes": [0, 1, 2], "min": 0, "max": 0}]}],
            },
        },
        "meshes": [{"primitives": []}],
        "nodes": [
            {
                "extensions": {
                    rb: {
                        "motion": {"isKinematic": True, "mass": 2, "inertiaOrientation": [0, 0, 0, 1]},
                        "collider": {"geometry": {"shape": 0}, "physicsMaterial": 0, "collisionFilter": 0},
                    }
                }
            },
            {"extensions": {rb: {"motion": {}, "collider": {"geometry": {"mesh": 0, "convexHull": True}}}}},
            {"extensions": {rb: {"joint": {"connectedNode": 0, "joint": 0, "enableCollision": True}}}},
            {"extensions": {rb: {}}},
        ],
    }


def test_plain_khr_nodes_read_with_their_sources():
    result = parse.parse_gltf(_plain_khr_doc())
    assert result.diagnostics == []
    nodes = result.document.nodes
    model, extensions = submodule("io.gltf.model"), submodule("io.gltf.extensions")
    assert [nodes[i].source for i in range(3)] == [
        extensions.REV_KHR_2024_10,
        extensions.REV_KHR_2026,
        extensions.REV_KHR_2024_10,
    ]
    assert nodes[0].motion.kind == model.KINEMATIC and nodes[0].motion.mass == 2.0 and nodes[2].joint.enable_collision
