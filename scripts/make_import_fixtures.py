"""Write the import test fixtures (license-clean, generated here) into ``tests/fixtures/import/``.

``python scripts/make_import_fixtures.py``. One small scene per import rule: each revision (KHR 2026 / 2024-10 /
2024-07, OMI current and 2023-08 legacy), bodies on empty nodes, compound and nested bodies, mesh colliders, node
scale rules, materials, mass rules, triggers, an animated body, malformed data, and extras / extensions / unknown
keys on every kept object.
"""

from __future__ import annotations

import base64
import json
import pathlib
import struct

ROOT = pathlib.Path(__file__).resolve().parent.parent
OUT = ROOT / "tests" / "fixtures" / "import"
RB, SHAPES = "KHR_physics_rigid_bodies", "KHR_implicit_shapes"


def _buffers() -> dict:
    """Mesh 0: unit cube (8 vertices, 12 triangles). Mesh 1: tetrahedron. Accessors 0-3. Accessor 4/5: animation."""
    cube = [(x, y, z) for z in (-0.5, 0.5) for y in (-0.5, 0.5) for x in (-0.5, 0.5)]
    cube_tris = [
        0,
        2,
        3,
        0,
        3,
        1,
        4,
        5,
        7,
        4,
        7,
        6,
        0,
        1,
        5,
        0,
        5,
        4,
        2,
        6,
        7,
        2,
        7,
        3,
        0,
        4,
        6,
        0,
        6,
        2,
        1,
        3,
        7,
        1,
        7,
        5,
    ]
    tet = [(0.0, 0.0, 0.0), (1.0, 0.0, 0.0), (0.0, 1.0, 0.0), (0.0, 0.0, 1.0)]
    tet_tris = [0, 2, 1, 0, 1, 3, 0, 3, 2, 1, 2, 3]
    times, moves = [0.0, 1.0], [(0.0, 2.0, 0.0), (3.0, 2.0, 0.0)]
    chunks = [
        b"".join(struct.pack("<3f", *v) for v in cube),
        b"".join(struct.pack("<H", i) for i in cube_tris),
        b"".join(struct.pack("<3f", *v) for v in tet),
        b"".join(struct.pack("<H", i) for i in tet_tris) + b"\0\0",
        b"".join(struct.pack("<f", t) for t in times),
        b"".join(struct.pack("<3f", *v) for v in moves),
    ]
    views, offset = [], 0
    for chunk in chunks:
        views.append({"buffer": 0, "byteOffset": offset, "byteLength": len(chunk)})
        offset += len(chunk)
    data = b"".join(chunks)
    accessors = [
        {"bufferView": 0, "componentType": 5126, "count": 8, "type": "VEC3", "min": [-0.5] * 3, "max": [0.5] * 3},
        {"bufferView": 1, "componentType": 5123, "count": 36, "type": "SCALAR"},
        {"bufferView": 2, "componentType": 5126, "count": 4, "type": "VEC3", "min": [0.0] * 3, "max": [1.0] * 3},
        {"bufferView": 3, "componentType": 5123, "count": 12, "type": "SCALAR"},
        {"bufferView": 4, "componentType": 5126, "count": 2, "type": "SCALAR", "min": [0.0], "max": [1.0]},
        {"bufferView": 5, "componentType": 5126, "count": 2, "type": "VEC3"},
    ]
    uri = "data:application/octet-stream;base64," + base64.b64encode(data).decode()
    return {
        "asset": {"version": "2.0", "generator": "gltf_physics scripts/make_import_fixtures.py"},
        "buffers": [{"byteLength": len(data), "uri": uri}],
        "bufferViews": views,
        "accessors": accessors,
        "meshes": [
            {"name": "Cube", "primitives": [{"attributes": {"POSITION": 0}, "indices": 1}]},
            {"name": "Tetra", "primitives": [{"attributes": {"POSITION": 2}, "indices": 3}]},
        ],
    }


def _doc(nodes: list, extensions: dict, used: list[str], scene_nodes: list[int] | None = None) -> dict:
    doc = _buffers()
    doc["extensionsUsed"] = used
    doc["extensions"] = extensions
    doc["nodes"] = nodes
    roots = scene_nodes
    if roots is None:
        children = {c for n in nodes for c in n.get("children", [])}
        roots = [i for i in range(len(nodes)) if i not in children]
    doc["scenes"] = [{"nodes": roots}]
    doc["scene"] = 0
    return doc


def _khr(**fields) -> dict:
    return {"extensions": {RB: fields}}


def _node(name: str, **fields) -> dict:
    physics = fields.pop("physics", None)
    node = {"name": name, **fields}
    if physics is not None:
        node["extensions"] = {RB: physics}
    return node


def rev_2026() -> dict:
    """geometry.mesh (KHR ~2026): a trimesh ground using a mesh no node renders, a convex dynamic cube."""
    nodes = [
        _node("Ground", physics={"collider": {"geometry": {"mesh": 1}}}, scale=[10.0, 1.0, 10.0]),
        _node(
            "Hull",
            mesh=0,
            translation=[0.0, 3.0, 0.0],
            physics={"motion": {"mass": 2.0}, "collider": {"geometry": {"mesh": 0, "convexHull": True}}},
        ),
    ]
    return _doc(nodes, {}, [RB])


def rev_2024_10() -> dict:
    """geometry.node to a node outside the scene, plus implicit shapes and a finite plane."""
    shapes = [{"type": "plane", "plane": {"sizeX": 4.0, "sizeZ": 6.0, "doubleSided": True}}, {"type": "box", "box": {}}]
    nodes = [
        _node("Floor", physics={"collider": {"geometry": {"shape": 0}}}),
        _node(
            "Rock",
            translation=[0.0, 2.0, 0.0],
            physics={"motion": {"mass": 1.0}, "collider": {"geometry": {"node": 3, "convexHull": True}}},
        ),
        _node(
            "Crate",
            mesh=0,
            translation=[2.0, 2.0, 0.0],
            physics={"motion": {"mass": 1.0}, "collider": {"geometry": {"shape": 1}}},
        ),
        _node("RockGeometry", mesh=1),
    ]
    return _doc(nodes, {SHAPES: {"shapes": shapes}}, [RB, SHAPES], scene_nodes=[0, 1, 2])


def rev_2024_07() -> dict:
    """KHR_collision_shapes: collider.shape with a mesh shape (shape-level convexHull) and a box."""
    shapes = [
        {"type": "mesh", "mesh": {"mesh": 1}, "extensions": {RB: {"convexHull": True}}},
        {"type": "box", "box": {"size": [8.0, 0.5, 8.0]}},
    ]
    nodes = [
        _node("Ground", translation=[0.0, -0.25, 0.0], physics={"collider": {"shape": 1}}),
        _node(
            "Tetra", mesh=1, translation=[0.0, 2.0, 0.0], physics={"motion": {"mass": 1.5}, "collider": {"shape": 0}}
        ),
    ]
    return _doc(nodes, {"KHR_collision_shapes": {"shapes": shapes}}, [RB, "KHR_collision_shapes"])


def omi_current() -> dict:
    body, shape = "OMI_physics_body", "OMI_physics_shape"
    shapes = [
        {"type": "box", "box": {"size": [6.0, 1.0, 6.0]}},
        {"type": "capsule", "capsule": {"height": 1.0, "radiusTop": 0.25, "radiusBottom": 0.25}},
        {"type": "sphere", "sphere": {"radius": 1.5}},
    ]
    nodes = [
        {"name": "Static", "children": [1], "extensions": {body: {"motion": {"type": "static"}}}},
        {"name": "StaticShape", "extensions": {body: {"collider": {"shape": 0}}}},
        {
            "name": "Pill",
            "translation": [0.0, 3.0, 0.0],
            "extensions": {body: {"motion": {"type": "dynamic", "mass": 2.0}, "collider": {"shape": 1}}},
        },
        {
            "name": "Mover",
            "translation": [3.0, 3.0, 0.0],
            "extensions": {body: {"motion": {"type": "kinematic"}, "collider": {"shape": 1}}},
        },
        {"name": "Zone", "translation": [0.0, 1.0, 4.0], "extensions": {body: {"trigger": {"shape": 2}}}},
    ]
    return _doc(nodes, {shape: {"shapes": shapes}}, [body, shape])


def omi_legacy() -> dict:
    """OMI 2023-08: body ``type`` + node-level OMI_physics_shape on a child."""
    body, shape = "OMI_physics_body", "OMI_physics_shape"
    nodes = [
        {
            "name": "Ball",
            "children": [1],
            "translation": [0.0, 2.0, 0.0],
            "extensions": {body: {"type": "dynamic", "mass": 3.0, "linearVelocity": [1.0, 2.0, 3.0]}},
        },
        {"name": "BallShape", "extensions": {shape: {"shape": 0}}},
    ]
    return _doc(nodes, {shape: {"shapes": [{"type": "sphere", "sphere": {"radius": 0.5}}]}}, [body, shape])


def empty_bodies() -> dict:
    """Dynamic bodies on nodes without meshes, one per shape kind, each sized off the defaults."""
    shapes = [
        {"type": "box", "box": {"size": [1.0, 2.0, 3.0]}},
        {"type": "sphere", "sphere": {"radius": 0.75}},
        {"type": "capsule", "capsule": {"height": 1.0, "radiusTop": 0.3, "radiusBottom": 0.3}},
        {"type": "cylinder", "cylinder": {"height": 2.0, "radiusTop": 0.5, "radiusBottom": 0.5}},
        {"type": "cylinder", "cylinder": {"height": 2.0, "radiusTop": 0.0, "radiusBottom": 1.0}},
        {"type": "cylinder", "cylinder": {"height": 2.0, "radiusTop": 0.5, "radiusBottom": 1.0}},
        {"type": "capsule", "capsule": {"height": 1.0, "radiusTop": 0.25, "radiusBottom": 0.5}},
    ]
    names = ["Box", "Sphere", "Capsule", "Cylinder", "Cone", "Frustum", "Tapered"]
    nodes = [
        _node(name, translation=[3.0 * i, 5.0, 0.0], physics={"motion": {}, "collider": {"geometry": {"shape": i}}})
        for i, name in enumerate(names)
    ]
    return _doc(nodes, {SHAPES: {"shapes": shapes}}, [RB, SHAPES])


def compound() -> dict:
    """Body on an Empty with a matching cube child, an offset sphere grandchild, and a nested independent body."""
    shapes = [{"type": "box", "box": {"size": [1.0, 1.0, 1.0]}}, {"type": "sphere", "sphere": {"radius": 0.5}}]
    nodes = [
        _node("Cart", translation=[0.0, 4.0, 0.0], children=[1, 2, 4], physics={"motion": {"mass": 5.0}}),
        _node("CartBox", mesh=0, physics={"collider": {"geometry": {"shape": 0}}}),
        _node("Arm", translation=[2.0, 0.0, 0.0], children=[3]),
        _node("Knob", translation=[0.0, 1.0, 0.0], physics={"collider": {"geometry": {"shape": 1}}}),
        _node(
            "Passenger",
            mesh=0,
            translation=[0.0, 2.0, 0.0],
            physics={"motion": {"mass": 1.0}, "collider": {"geometry": {"shape": 0}}},
        ),
    ]
    return _doc(nodes, {SHAPES: {"shapes": shapes}}, [RB, SHAPES])


def scales() -> dict:
    """Negative scale (|scale| applies), all-zero scale (collider disabled), non-uniform scale on a sphere."""
    shapes = [{"type": "box", "box": {"size": [1.0, 1.0, 1.0]}}, {"type": "sphere", "sphere": {"radius": 1.0}}]
    nodes = [
        _node("Negative", scale=[1.0, -2.0, 3.0], physics={"collider": {"geometry": {"shape": 0}}}),
        _node(
            "Zero", scale=[0.0, 0.0, 0.0], translation=[3.0, 0.0, 0.0], physics={"collider": {"geometry": {"shape": 0}}}
        ),
        _node(
            "Egg", scale=[1.0, 2.0, 1.0], translation=[6.0, 0.0, 0.0], physics={"collider": {"geometry": {"shape": 1}}}
        ),
    ]
    return _doc(nodes, {SHAPES: {"shapes": shapes}}, [RB, SHAPES])


def materials_and_mass() -> dict:
    shapes = [{"type": "box", "box": {"size": [2.0, 1.0, 1.0]}}]
    mats = [
        {"staticFriction": 0.9, "dynamicFriction": 0.4, "restitution": 0.25, "frictionCombine": "average"},
        {
            "staticFriction": 0.5,
            "dynamicFriction": 0.5,
            "restitution": 0.5,
            "frictionCombine": "multiply",
            "restitutionCombine": "multiply",
        },
    ]
    motion_full = {
        "mass": 4.0,
        "centerOfMass": [0.1, 0.2, 0.3],
        "inertiaDiagonal": [1.0, 2.0, 3.0],
        "inertiaOrientation": [0.0, 0.0, 0.38268343, 0.92387953],
        "linearVelocity": [1.0, 2.0, 3.0],
        "angularVelocity": [0.5, 0.0, -0.5],
        "gravityFactor": 0.5,
    }
    nodes = [
        _node("Full", physics={"motion": motion_full, "collider": {"geometry": {"shape": 0}, "physicsMaterial": 0}}),
        _node(
            "Computed",
            translation=[3.0, 0.0, 0.0],
            physics={"motion": {}, "collider": {"geometry": {"shape": 0}, "physicsMaterial": 1}},
        ),
        _node(
            "Infinite",
            translation=[6.0, 0.0, 0.0],
            physics={"motion": {"mass": 0}, "collider": {"geometry": {"shape": 0}}},
        ),
    ]
    return _doc(nodes, {SHAPES: {"shapes": shapes}, RB: {"physicsMaterials": mats}}, [RB, SHAPES])


def triggers() -> dict:
    shapes = [{"type": "box", "box": {"size": [2.0, 2.0, 2.0]}}, {"type": "sphere", "sphere": {"radius": 1.0}}]
    filters = [{"collisionSystems": ["sensor"], "collideWithSystems": ["player"]}]
    nodes = [
        _node(
            "Simple", translation=[0.0, 1.0, 0.0], physics={"trigger": {"geometry": {"shape": 0}, "collisionFilter": 0}}
        ),
        _node("Compound", children=[2, 3], physics={"trigger": {"nodes": [2, 3]}}),
        _node("PartA", translation=[4.0, 1.0, 0.0], physics={"trigger": {"geometry": {"shape": 1}}}),
        _node("PartB", translation=[6.0, 1.0, 0.0], physics={"trigger": {"geometry": {"shape": 1}}}),
    ]
    return _doc(nodes, {SHAPES: {"shapes": shapes}, RB: {"collisionFilters": filters}}, [RB, SHAPES])


def animated() -> dict:
    """A dynamic body whose translation is animated: it must follow the animation (Animated)."""
    shapes = [{"type": "box", "box": {"size": [1.0, 1.0, 1.0]}}]
    nodes = [
        _node(
            "Animated",
            mesh=0,
            translation=[0.0, 2.0, 0.0],
            physics={"motion": {"mass": 1.0}, "collider": {"geometry": {"shape": 0}}},
        ),
        _node(
            "Free",
            mesh=0,
            translation=[3.0, 2.0, 0.0],
            physics={"motion": {"mass": 1.0}, "collider": {"geometry": {"shape": 0}}},
        ),
    ]
    doc = _doc(nodes, {SHAPES: {"shapes": shapes}}, [RB, SHAPES])
    doc["animations"] = [
        {
            "channels": [{"sampler": 0, "target": {"node": 0, "path": "translation"}}],
            "samplers": [{"input": 4, "output": 5, "interpolation": "LINEAR"}],
        }
    ]
    return doc


def malformed() -> dict:
    """Bad indices and wrong types next to one good body: the import finishes, each problem has a pointer."""
    shapes = [{"type": "box", "box": {"size": [1.0, 1.0, 1.0]}}]
    nodes = [
        _node("Good", mesh=0, physics={"motion": {"mass": 1.0}, "collider": {"geometry": {"shape": 0}}}),
        _node("BadShape", physics={"collider": {"geometry": {"shape": 99}}}),
        _node("BadMaterial", physics={"collider": {"geometry": {"shape": 0}, "physicsMaterial": 7}}),
        _node("BadGeometryNode", physics={"collider": {"geometry": {"node": 42}}}),
        _node("BadMass", physics={"motion": {"mass": "heavy"}, "collider": {"geometry": {"shape": 0}}}),
        _node("BadCollider", physics={"collider": 5}),
        _node("BadTrigger", physics={"trigger": {"nodes": [99]}}),
        _node("BadMotion", physics={"motion": [1, 2, 3]}),
    ]
    return _doc(nodes, {SHAPES: {"shapes": shapes}}, [RB, SHAPES])


def replaced() -> dict:
    """Empty nodes that become mesh objects (no-collider body, static collider, body with its own collider) plus a
    hinge between two of them: every stored value must survive the Empty -> mesh replacement."""
    shapes = [{"type": "box", "box": {"size": [4.0, 0.5, 4.0]}}, {"type": "sphere", "sphere": {"radius": 0.25}}]
    mats = [
        {
            "staticFriction": 0.8,
            "dynamicFriction": 0.3,
            "restitution": 0.1,
            "frictionCombine": "minimum",
            "restitutionCombine": "maximum",
        },
        {"staticFriction": 0.7, "dynamicFriction": 0.6, "restitution": 0.4, "restitutionCombine": "average"},
    ]
    filters = [
        {"collisionSystems": ["ground"]},
        {"collisionSystems": ["lever"], "collideWithSystems": ["ground"], "name": "LeverOnly"},
    ]
    hinge = {
        "name": "SlabHinge",
        "limits": [
            {"linearAxes": [0, 1, 2], "min": 0.0, "max": 0.0},
            {"angularAxes": [1, 2], "min": 0.0, "max": 0.0},
            {"angularAxes": [0], "min": -0.5, "max": 1.0},
        ],
        "extras": {"tag": "hinge"},
    }
    drifter = {
        "mass": 2.0,
        "centerOfMass": [0.0, 0.5, 0.0],
        "linearVelocity": [0.0, 1.0, -2.0],
        "gravityFactor": 0.25,
    }
    lever_collider = {"geometry": {"shape": 1}, "physicsMaterial": 1, "collisionFilter": 1}
    nodes = [
        _node("Drifter", translation=[-4.0, 3.0, 0.0], physics={"motion": drifter}),
        _node(
            "Slab",
            children=[2],
            physics={"collider": {"geometry": {"shape": 0}, "physicsMaterial": 0, "collisionFilter": 0}},
        ),
        _node(
            "Hinge",
            translation=[0.0, 1.0, 0.0],
            physics={"joint": {"connectedNode": 4, "joint": 0, "enableCollision": True}},
        ),
        _node(
            "Lever",
            translation=[0.0, 1.5, 0.0],
            children=[4],
            physics={"motion": {"angularVelocity": [1.0, 0.0, 0.0]}, "collider": lever_collider},
        ),
        _node("LeverFrame", translation=[0.0, -0.5, 0.0]),
    ]
    extensions = {
        SHAPES: {"shapes": shapes},
        RB: {"physicsMaterials": mats, "collisionFilters": filters, "physicsJoints": [hinge]},
    }
    return _doc(nodes, extensions, [RB, SHAPES])


def _kept(tag: str) -> dict:
    """extras + a custom nested extension + an unknown key, distinct per object (``tag``)."""
    return {
        "extras": {"tag": tag, "list": [1, 2.5, {"deep": True}]},
        "extensions": {"EXT_vendor_data": {"owner": tag, "nested": {"level": [{"x": 1}, None, "s"]}}},
        "vendorKey": {"kept": tag},
    }


def passthrough() -> dict:
    """extras / a custom extension / an unknown key on motion, collider, geometry, trigger, shape (and its sub-object),
    material and filter: import keeps them, export writes them back."""
    shapes = [
        {"type": "box", "box": {"size": [1.0, 2.0, 3.0], "extras": {"sub": "box"}}, **_kept("shape-box")},
        {"type": "sphere", "sphere": {"radius": 0.75}, **_kept("shape-sphere")},
    ]
    mats = [{"staticFriction": 0.7, "dynamicFriction": 0.5, "restitution": 0.1, **_kept("material")}]
    filters = [{"collisionSystems": ["a"], "collideWithSystems": ["b"], **_kept("filter")}]
    body = {
        "motion": {"mass": 3.0, **_kept("motion")},
        "collider": {
            "geometry": {"shape": 0, "extras": {"of": "geometry"}},
            "physicsMaterial": 0,
            "collisionFilter": 0,
            **_kept("collider"),
        },
    }
    nodes = [
        _node("Body", translation=[0.0, 2.0, 0.0], physics=body),
        _node(
            "Sensor",
            translation=[4.0, 1.0, 0.0],
            physics={"trigger": {"geometry": {"shape": 1}, "collisionFilter": 0, **_kept("trigger")}},
        ),
        _node("Group", children=[3], physics={"trigger": {"nodes": [3], **_kept("compound-trigger")}}),
        _node("Part", translation=[8.0, 1.0, 0.0], physics={"trigger": {"geometry": {"shape": 1}}}),
    ]
    extensions = {SHAPES: {"shapes": shapes}, RB: {"physicsMaterials": mats, "collisionFilters": filters}}
    return _doc(nodes, extensions, [RB, SHAPES, "EXT_vendor_data"])


FIXTURES = {
    "rev_2026.gltf": rev_2026,
    "rev_2024_10.gltf": rev_2024_10,
    "rev_2024_07.gltf": rev_2024_07,
    "omi_current.gltf": omi_current,
    "omi_legacy.gltf": omi_legacy,
    "empty_bodies.gltf": empty_bodies,
    "compound.gltf": compound,
    "scales.gltf": scales,
    "materials_mass.gltf": materials_and_mass,
    "triggers.gltf": triggers,
    "animated.gltf": animated,
    "malformed.gltf": malformed,
    "replaced.gltf": replaced,
    "passthrough.gltf": passthrough,
}


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    for name, build in FIXTURES.items():
        (OUT / name).write_text(json.dumps(build(), indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
