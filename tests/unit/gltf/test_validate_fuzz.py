"""Property tests: the physics validator never raises and never fails internally, whatever the JSON."""

from __future__ import annotations

import copy

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from testkit import submodule

validate = submodule("io.gltf.validate.document")
codes = submodule("io.gltf.validate.codes")
Diagnostic = submodule("io.diagnostics").Diagnostic

RB = "KHR_physics_rigid_bodies"

SEEDS = [
    {  # KHR 2024-10 / 2026: every node-level object, shapes of every type, joint with limits and drives
        "extensionsUsed": [RB, "KHR_implicit_shapes"],
        "extensions": {
            "KHR_implicit_shapes": {
                "shapes": [
                    {"type": "sphere", "sphere": {"radius": 0.5}},
                    {"type": "box", "box": {"size": [1, 2, 3]}},
                    {"type": "capsule", "capsule": {"height": 1, "radiusTop": 0.2, "radiusBottom": 0.3}},
                    {"type": "cylinder", "cylinder": {"height": 1, "radiusTop": 0, "radiusBottom": 0.3}},
                    {"type": "plane", "plane": {"sizeX": 2, "doubleSided": True}},
                ]
            },
            RB: {
                "physicsMaterials": [{"staticFriction": 0.6, "frictionCombine": "average"}],
                "collisionFilters": [{"collisionSystems": ["a"], "notCollideWithSystems": ["b"]}],
                "physicsJoints": [
                    {
                        "limits": [{"linearAxes": [0, 1], "min": -1, "max": 1, "stiffness": 5}, {"angularAxes": [2]}],
                        "drives": [{"type": "angular", "mode": "force", "axis": 2, "velocityTarget": 1, "damping": 2}],
                    }
                ],
            },
        },
        "nodes": [
            {
                "children": [1, 2],
                "extensions": {
                    RB: {
                        "motion": {"mass": 2, "inertiaOrientation": [0, 0, 0, 1], "inertiaDiagonal": [1, 1, 1]},
                        "collider": {"geometry": {"shape": 1}, "physicsMaterial": 0, "collisionFilter": 0},
                        "trigger": {"nodes": [1]},
                        "joint": {"connectedNode": 2, "joint": 0, "enableCollision": False},
                    }
                },
            },
            {"extensions": {RB: {"trigger": {"geometry": {"shape": 0}, "collisionFilter": 0}}}},
            {"mesh": 0, "scale": [1, 1, 1], "extensions": {RB: {"collider": {"geometry": {"node": 2}}}}},
            {"extensions": {RB: {"collider": {"geometry": {"mesh": 0, "convexHull": True}}}}},
        ],
        "meshes": [{"primitives": [{"attributes": {"POSITION": 0}, "targets": [{}]}]}],
        "skins": [{"joints": [1]}],
    },
    {  # KHR 2024-07
        "extensionsUsed": [RB, "KHR_collision_shapes"],
        "extensions": {
            "KHR_collision_shapes": {
                "shapes": [
                    {
                        "type": "mesh",
                        "mesh": {"mesh": 0, "weights": [0.5], "skin": 0},
                        "extensions": {RB: {"convexHull": True}},
                    },
                    {"type": "box", "box": {"size": [1, 1, 1]}},
                ]
            }
        },
        "nodes": [{"extensions": {RB: {"collider": {"shape": 0}, "trigger": {"shape": 1}}}}],
        "meshes": [{"primitives": [{"attributes": {"POSITION": 0}, "targets": [{}]}]}],
        "skins": [{"joints": [0]}],
    },
    {  # OMI current and legacy forms
        "extensionsUsed": ["OMI_physics_body", "OMI_physics_shape", "OMI_physics_joint", "OMI_collider"],
        "extensions": {
            "OMI_physics_shape": {
                "shapes": [
                    {"type": "capsule", "capsule": {"radius": 0.5, "height": 2}},
                    {"type": "trimesh", "trimesh": {"mesh": 0}},
                ]
            },
            "OMI_physics_body": {"physicsMaterials": [{"restitution": 0.5}], "collisionFilters": [{}]},
            "OMI_physics_joint": {
                "physicsJoints": [{"limits": [{"linearAxes": [0], "angularAxes": [1]}]}],
                "constraints": [{"linearAxes": [0], "lowerLimit": -1, "upperLimit": 1}],
            },
            "OMI_collider": {"colliders": [{"type": "sphere", "radius": 1, "isTrigger": True}]},
        },
        "nodes": [
            {
                "children": [1],
                "extensions": {
                    "OMI_physics_body": {"motion": {"type": "dynamic", "mass": 3}, "trigger": {"nodes": [1]}}
                },
            },
            {
                "extensions": {
                    "OMI_physics_body": {"collider": {"shape": 0, "physicsMaterial": -1}, "trigger": {"shape": 1}},
                    "OMI_physics_joint": {"connectedNode": 0, "joint": 0},
                }
            },
            {
                "extensions": {
                    "OMI_physics_body": {"type": "rigid", "mass": 1},
                    "OMI_collider": {"collider": 0},
                    "OMI_physics_shape": {"shape": 0},
                }
            },
            {"extensions": {"OMI_physics_joint": {"constraints": [0, {"angularAxes": [0]}], "nodeA": 0, "nodeB": 2}}},
        ],
        "meshes": [{"primitives": [{"attributes": {"POSITION": 0}}]}],
    },
]

json_scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-3, 1_000_000),
    st.integers(),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=8),
    st.sampled_from(["sphere", "box", "plane", "mesh", "dynamic", "linear", "force", "trimesh"]),
)
json_values = st.recursive(
    json_scalars,
    lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=6), inner, max_size=4)),
    max_leaves=12,
)


def paths(value, prefix=()):
    """Every (container path, key) in a JSON tree."""
    found = []
    if isinstance(value, dict):
        for key, child in value.items():
            found.append((prefix, key))
            found.extend(paths(child, (*prefix, key)))
    elif isinstance(value, list):
        for i, child in enumerate(value):
            found.append((prefix, i))
            found.extend(paths(child, (*prefix, i)))
    return found


def mutate(doc, data):
    """Apply 1-4 random mutations: replace with garbage, delete, change an index, or swap the JSON type."""
    doc = copy.deepcopy(doc)
    for _ in range(data.draw(st.integers(1, 4))):
        candidates = paths(doc)
        if not candidates:
            break
        prefix, key = data.draw(st.sampled_from(candidates))
        container = doc
        for part in prefix:
            container = container[part]
        op = data.draw(st.sampled_from(["garbage", "delete", "index", "swap"]))
        if op == "delete":
            del container[key]
        elif op == "index":
            container[key] = data.draw(st.integers(-2, 6))
        elif op == "swap":
            old = container[key]
            container[key] = [old] if not isinstance(old, list) else {"x": old}
        else:
            container[key] = data.draw(json_values)
    return doc


def assert_clean(result):
    assert isinstance(result, list)
    assert all(isinstance(d, Diagnostic) for d in result)
    assert not [d for d in result if d.code == codes.INTERNAL_ERROR], [str(d) for d in result]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.sampled_from(SEEDS), data=st.data())
def test_mutated_documents_never_raise(seed, data):
    assert_clean(validate.validate_gltf(mutate(seed, data)))


@settings(max_examples=100, deadline=None)
@given(value=json_values)
def test_arbitrary_json_never_raises(value):
    assert_clean(validate.validate_gltf(value))


@settings(max_examples=100, deadline=None)
@given(ext=json_values, root=json_values)
def test_garbage_extension_objects_never_raise(ext, root):
    doc = {
        "extensions": {RB: root, "KHR_implicit_shapes": root, "OMI_physics_joint": root},
        "nodes": [{"extensions": {RB: ext, "OMI_physics_body": ext, "OMI_physics_joint": ext}}],
    }
    assert_clean(validate.validate_gltf(doc))


def test_seeds_are_meaningful_documents():
    """The seeds exercise the checks: they validate without errors except the deliberate ones."""
    for seed in SEEDS:
        errors = [d for d in validate.validate_gltf(seed) if d.severity.name == "ERROR"]
        assert errors == [], [str(d) for d in errors]
