"""Write the project's own small physics scenes (license-clean, generated here).

``python scripts/make_examples.py`` rewrites ``examples/*.gltf`` and ``tests/fixtures/basic_*.gltf``.
"""

from __future__ import annotations

import base64
import json
import pathlib
import struct

ROOT = pathlib.Path(__file__).resolve().parent.parent


def _box_buffer() -> tuple[bytes, int, int]:
    """A unit cube (24 vertices with normals, 36 indices); returns bytes and the two section lengths."""
    faces = [
        ((1, 0, 0), (0, 1, 0), (0, 0, 1)),
        ((-1, 0, 0), (0, 0, 1), (0, 1, 0)),
        ((0, 1, 0), (0, 0, 1), (1, 0, 0)),
        ((0, -1, 0), (1, 0, 0), (0, 0, 1)),
        ((0, 0, 1), (1, 0, 0), (0, 1, 0)),
        ((0, 0, -1), (0, 1, 0), (1, 0, 0)),
    ]
    positions, normals, indices = [], [], []
    for n, u, v in faces:
        base = len(positions)
        for su, sv in ((-1, -1), (1, -1), (1, 1), (-1, 1)):
            positions.append(tuple(0.5 * (n[i] + su * u[i] + sv * v[i]) for i in range(3)))
            normals.append(n)
        indices += [base, base + 1, base + 2, base, base + 2, base + 3]
    vertex_bytes = b"".join(struct.pack("<3f", *p) for p in positions)
    normal_bytes = b"".join(struct.pack("<3f", *n) for n in normals)
    index_bytes = b"".join(struct.pack("<H", i) for i in indices)
    return vertex_bytes + normal_bytes + index_bytes, len(vertex_bytes), len(index_bytes)


def _mesh_document() -> dict:
    data, vlen, ilen = _box_buffer()
    uri = "data:application/octet-stream;base64," + base64.b64encode(data).decode()
    return {
        "asset": {"version": "2.0", "generator": "gltf_physics scripts/make_examples.py"},
        "buffers": [{"byteLength": len(data), "uri": uri}],
        "bufferViews": [
            {"buffer": 0, "byteOffset": 0, "byteLength": vlen, "target": 34962},
            {"buffer": 0, "byteOffset": vlen, "byteLength": vlen, "target": 34962},
            {"buffer": 0, "byteOffset": 2 * vlen, "byteLength": ilen, "target": 34963},
        ],
        "accessors": [
            {
                "bufferView": 0,
                "componentType": 5126,
                "count": 24,
                "type": "VEC3",
                "min": [-0.5, -0.5, -0.5],
                "max": [0.5, 0.5, 0.5],
            },
            {"bufferView": 1, "componentType": 5126, "count": 24, "type": "VEC3"},
            {"bufferView": 2, "componentType": 5123, "count": 36, "type": "SCALAR"},
        ],
        "meshes": [{"name": "Cube", "primitives": [{"attributes": {"POSITION": 0, "NORMAL": 1}, "indices": 2}]}],
    }


def demo_scene() -> dict:
    """A ground, a stack of crates, a capsule, a ball on a hinge and a trigger volume (KHR 2024-10 form)."""
    doc = _mesh_document()
    rb = "KHR_physics_rigid_bodies"
    doc["extensionsUsed"] = [rb, "KHR_implicit_shapes"]
    doc["extensions"] = {
        "KHR_implicit_shapes": {
            "shapes": [
                {"type": "capsule", "capsule": {"height": 0.6, "radiusTop": 0.2, "radiusBottom": 0.2}},
                {"type": "box", "box": {"size": [1.0, 1.0, 1.0]}},
                {"type": "sphere", "sphere": {"radius": 0.5}},
                {"type": "box", "box": {"size": [2.0, 2.0, 2.0]}},
            ]
        },
        rb: {
            "physicsMaterials": [
                {"staticFriction": 0.8, "dynamicFriction": 0.6, "restitution": 0.1},
                {"staticFriction": 0.2, "dynamicFriction": 0.2, "restitution": 0.7, "restitutionCombine": "maximum"},
            ],
            "collisionFilters": [{"collisionSystems": ["props"], "notCollideWithSystems": ["ghosts"]}],
            "physicsJoints": [
                {
                    "limits": [
                        {"linearAxes": [0, 1, 2], "min": 0.0, "max": 0.0},
                        {"angularAxes": [1, 2], "min": 0.0, "max": 0.0},
                    ]
                }
            ],
        },
    }
    nodes = [
        {
            "name": "Ground",
            "mesh": 0,
            "scale": [10.0, 0.5, 10.0],
            "translation": [0.0, -0.25, 0.0],
            "extensions": {rb: {"collider": {"geometry": {"shape": 1}, "physicsMaterial": 0}}},
        },
        {
            "name": "CrateA",
            "mesh": 0,
            "translation": [0.0, 0.5, 0.0],
            "extensions": {
                rb: {
                    "motion": {"mass": 2.0},
                    "collider": {"geometry": {"shape": 1}, "physicsMaterial": 0, "collisionFilter": 0},
                }
            },
        },
        {
            "name": "CrateB",
            "mesh": 0,
            "translation": [0.2, 1.6, 0.1],
            "rotation": [0.0, 0.3826834, 0.0, 0.9238795],
            "extensions": {
                rb: {
                    "motion": {"mass": 1.0, "angularVelocity": [0.0, 1.0, 0.0]},
                    "collider": {"geometry": {"shape": 1}, "physicsMaterial": 0},
                }
            },
        },
        {
            "name": "Post",
            "mesh": 0,
            "translation": [3.0, 1.5, 0.0],
            "scale": [0.2, 3.0, 0.2],
            "extensions": {rb: {"collider": {"geometry": {"shape": 1}}}},
        },
        {
            "name": "Ball",
            "translation": [3.0, 2.5, 1.0],
            "extensions": {rb: {"motion": {"mass": 0.5}, "collider": {"geometry": {"shape": 2}, "physicsMaterial": 1}}},
        },
        {
            "name": "HingePivot",
            "translation": [3.0, 2.5, 0.2],
            "extensions": {rb: {"joint": {"connectedNode": 6, "joint": 0, "enableCollision": False}}},
        },
        {"name": "BallPivot", "translation": [0.0, 0.0, -0.8]},
        {
            "name": "Sensor",
            "translation": [-3.0, 1.0, 0.0],
            "extensions": {rb: {"trigger": {"geometry": {"shape": 3}}}},
        },
        {
            "name": "Pill",
            "translation": [-1.5, 3.0, 0.0],
            "rotation": [0.0, 0.0, 0.3826834, 0.9238795],
            "extensions": {
                rb: {
                    "motion": {"mass": 0.8, "linearVelocity": [1.0, 0.0, 0.0]},
                    "collider": {"geometry": {"shape": 0}, "physicsMaterial": 1},
                }
            },
        },
    ]
    nodes[4]["children"] = [6]
    doc["nodes"] = nodes
    doc["scenes"] = [{"name": "Scene", "nodes": [0, 1, 2, 3, 4, 5, 7, 8]}]
    doc["scene"] = 0
    return doc


def minimal_body(required: bool) -> dict:
    """One dynamic box; optionally lists the extensions in extensionsRequired like conformance files do."""
    doc = _mesh_document()
    rb = "KHR_physics_rigid_bodies"
    doc["extensionsUsed"] = [rb, "KHR_implicit_shapes"]
    if required:
        doc["extensionsRequired"] = [rb, "KHR_implicit_shapes"]
    doc["extensions"] = {"KHR_implicit_shapes": {"shapes": [{"type": "box", "box": {"size": [1.0, 1.0, 1.0]}}]}}
    doc["nodes"] = [
        {
            "name": "Box",
            "mesh": 0,
            "translation": [0.0, 2.0, 0.0],
            "extensions": {rb: {"motion": {"mass": 3.0}, "collider": {"geometry": {"shape": 0}}}},
        }
    ]
    doc["scenes"] = [{"nodes": [0]}]
    doc["scene"] = 0
    return doc


def write(path: pathlib.Path, doc: dict) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(doc, indent=1) + "\n", encoding="utf-8")


def main() -> None:
    write(ROOT / "examples" / "demo_scene.gltf", demo_scene())
    write(ROOT / "tests" / "fixtures" / "basic_body.gltf", minimal_body(required=False))
    write(ROOT / "tests" / "fixtures" / "basic_body_required.gltf", minimal_body(required=True))
    write(
        ROOT / "tests" / "fixtures" / "no_physics.gltf",
        {k: v for k, v in _mesh_document().items()}
        | {"nodes": [{"name": "Plain", "mesh": 0}], "scenes": [{"nodes": [0]}], "scene": 0},
    )


if __name__ == "__main__":
    main()
