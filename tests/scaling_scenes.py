"""Generated glTF documents for the scaling tests and ``tests/bench/bench_scaling.py`` (issue 11 items 3, 4, 13).

Every scene has physics listed in ``extensionsUsed`` only, box shapes and one shared cube mesh on the body nodes,
so io_scene_gltf2 reads it quickly and the cost measured is ours. Sizes are parameters; the functions are pure
(no Blender).
"""

from __future__ import annotations

import base64
import struct

KHR = "KHR_physics_rigid_bodies"
SHAPES = "KHR_implicit_shapes"
OMI_BODY, OMI_JOINT, OMI_SHAPE = "OMI_physics_body", "OMI_physics_joint", "OMI_physics_shape"
BOX = {"type": "box", "box": {"size": [1.0, 1.0, 1.0]}}


def _cube() -> dict:
    """One shared unit-cube mesh (8 positions, 36 indices) as a data URI: body nodes carry it, so the import does
    not take the Empty → mesh object replacement path (its cost is Blender's ``batch_remove``, see docs/scaling.md)."""
    positions = [(x, y, z) for x in (-0.5, 0.5) for y in (-0.5, 0.5) for z in (-0.5, 0.5)]
    faces = [(0, 1, 3, 2), (4, 6, 7, 5), (0, 4, 5, 1), (2, 3, 7, 6), (0, 2, 6, 4), (1, 5, 7, 3)]
    indices = [i for a, b, c, d in faces for i in (a, b, c, a, c, d)]
    data = b"".join(struct.pack("<3f", *p) for p in positions) + struct.pack(f"<{len(indices)}H", *indices)
    uri = "data:application/octet-stream;base64," + base64.b64encode(data).decode()
    return {
        "buffers": [{"uri": uri, "byteLength": len(data)}],
        "bufferViews": [
            {"buffer": 0, "byteOffset": 0, "byteLength": 96, "target": 34962},
            {"buffer": 0, "byteOffset": 96, "byteLength": 72, "target": 34963},
        ],
        "accessors": [
            {"bufferView": 0, "componentType": 5126, "count": 8, "type": "VEC3", "min": [-0.5] * 3, "max": [0.5] * 3},
            {"bufferView": 1, "componentType": 5123, "count": 36, "type": "SCALAR"},
        ],
        "meshes": [{"primitives": [{"attributes": {"POSITION": 0}, "indices": 1}]}],
    }


def _khr(nodes: list, root: dict, roots: list[int] | None = None) -> dict:
    return {
        "asset": {"version": "2.0", "generator": "gltf_physics tests/scaling_scenes.py"},
        "extensionsUsed": [KHR, SHAPES],
        "extensions": {KHR: root, SHAPES: {"shapes": [BOX]}} if root else {SHAPES: {"shapes": [BOX]}},
        **_cube(),
        "scene": 0,
        "scenes": [{"nodes": roots if roots is not None else list(range(len(nodes)))}],
        "nodes": nodes,
    }


def _body(name: str, x: float, motion: bool = True, **collider) -> dict:
    ext: dict = {"collider": {"geometry": {"shape": 0}, **collider}}
    if motion:
        ext["motion"] = {"mass": 1.0}
    return {"name": name, "mesh": 0, "translation": [x, 0.0, 0.0], "extensions": {KHR: ext}}


def shapes(n: int) -> dict:
    """``n`` static box colliders."""
    return _khr([_body(f"S{i}", 2.0 * i, motion=False) for i in range(n)], {})


def shapes_empty(n: int) -> dict:
    """:func:`shapes` without the render mesh: every collider node imports as an Empty that the body step replaces
    by a mesh object (the replacement path)."""
    gltf = shapes(n)
    for node in gltf["nodes"]:
        node.pop("mesh")
    return gltf


def joints(n: int) -> dict:
    """``n`` hinge joints, each between two bodies (2n bodies, n joint nodes)."""
    nodes, roots, descriptions = [], [], []
    limits = [{"linearAxes": [0, 1, 2], "min": 0.0, "max": 0.0}, {"angularAxes": [1, 2], "min": 0.0, "max": 0.0}]
    for j in range(n):
        a, frame, b = len(nodes), len(nodes) + 1, len(nodes) + 2
        body_a = _body(f"A{j}", 3.0 * j)
        body_a["children"] = [frame]
        joint = {"joint": {"connectedNode": b, "joint": 0}}
        nodes += [body_a, {"name": f"J{j}", "extensions": {KHR: joint}}, _body(f"B{j}", 3.0 * j + 1.0)]
        roots += [a, b]
    descriptions.append({"limits": limits})
    return _khr(nodes, {"physicsJoints": descriptions}, roots)


def _one_joint(drives: list, limits: list) -> dict:
    body_a = _body("A", 0.0)
    body_a["children"] = [1]
    nodes = [body_a, {"name": "J", "extensions": {KHR: {"joint": {"connectedNode": 2, "joint": 0}}}}, _body("B", 1.0)]
    description = {"limits": limits, **({"drives": drives} if drives else {})}
    return _khr(nodes, {"physicsJoints": [description]}, [0, 2])


def drives(n: int) -> dict:
    """One joint with ``n`` velocity drives, angular on axes 0, 1, 2 in turn (3 Blender MOTOR helpers)."""
    drive = [
        {"type": "angular", "mode": "force", "axis": i % 3, "velocityTarget": 1.0 + i % 7, "damping": 2.0}
        for i in range(n)
    ]
    return _one_joint(drive, [{"linearAxes": [0, 1, 2], "min": 0.0, "max": 0.0}])


def omi_drives(n: int) -> dict:
    """The same joint as :func:`drives` written with the OMI extensions (the issue's report used OMI)."""
    drive = [
        {"type": "angular", "mode": "force", "axis": i % 3, "velocityTarget": 1.0 + i % 7, "damping": 2.0}
        for i in range(n)
    ]
    body = {"motion": {"type": "dynamic", "mass": 1.0}, "collider": {"shape": 0}}
    nodes = [
        {"name": "A", "mesh": 0, "children": [1], "extensions": {OMI_BODY: body}},
        {"name": "J", "extensions": {OMI_JOINT: {"connectedNode": 2, "joint": 0}}},
        {"name": "B", "mesh": 0, "translation": [1.0, 0.0, 0.0], "extensions": {OMI_BODY: body}},
    ]
    limits = [{"linearAxes": [0, 1, 2], "min": 0.0, "max": 0.0}]
    return {
        "asset": {"version": "2.0", "generator": "gltf_physics tests/scaling_scenes.py"},
        "extensionsUsed": [OMI_BODY, OMI_JOINT, OMI_SHAPE],
        "extensions": {
            OMI_JOINT: {"physicsJoints": [{"limits": limits, "drives": drive}]},
            OMI_SHAPE: {"shapes": [BOX]},
        },
        **_cube(),
        "scene": 0,
        "scenes": [{"nodes": [0, 2]}],
        "nodes": nodes,
    }


def limits(n: int) -> dict:
    """One joint with ``n`` limits (alternating linear / angular, single axes)."""
    items = [
        {"linearAxes" if i % 2 == 0 else "angularAxes": [i % 3], "min": -0.1 - i * 1e-6, "max": 0.1 + i * 1e-6}
        for i in range(n)
    ]
    return _one_joint([], items)


def filters(n: int) -> dict:
    """``n`` bodies, each with its own collision filter (its own system, which it does not collide with: every
    pair of bodies collides, a body with itself does not)."""
    nodes = [_body(f"F{i}", 2.0 * i, collisionFilter=i) for i in range(n)]
    table = [{"collisionSystems": [f"s{i}"], "notCollideWithSystems": [f"s{i}"]} for i in range(n)]
    return _khr(nodes, {"collisionFilters": table})


def moving(n: int) -> dict:
    """``n`` box bodies moving at 1 m/s (Reproduce Motion gives each an initial-velocity pre-roll)."""
    nodes = [_body(f"M{i}", 2.0 * i) for i in range(n)]
    for node in nodes:
        node["extensions"][KHR]["motion"]["linearVelocity"] = [1.0, 0.0, 0.0]
    return _khr(nodes, {})


def chain(depth: int, bodies: int = 1) -> dict:
    """A chain of ``depth`` nodes with ``bodies`` box bodies as children of the deepest node."""
    nodes: list[dict] = [{"name": f"N{i}", "children": [i + 1]} for i in range(depth - 1)]
    nodes.append({"name": f"N{depth - 1}", "children": list(range(depth, depth + bodies))})
    nodes += [_body(f"L{i}", 2.0 * i) for i in range(bodies)]
    return _khr(nodes, {}, [0])


def node_colliders(n: int) -> dict:
    """An ``n``-node chain without a mesh and ``n`` static colliders whose ``geometry.node`` (2024-10) is its head:
    each reference asks whether a mesh lies in that subtree (every answer no)."""
    nodes: list[dict] = [{"name": f"N{i}", "children": [i + 1]} for i in range(n - 1)]
    nodes.append({"name": f"N{n - 1}"})
    collider = {KHR: {"collider": {"geometry": {"node": 0}}}}
    nodes += [{"name": f"C{i}", "extensions": collider} for i in range(n)]
    return _khr(nodes, {}, [0, *range(n, 2 * n)])


def mesh_chain(n: int) -> dict:
    """An ``n``-node chain, each node with the shared mesh and a static collider whose ``geometry.node`` is the node
    itself: migrating to 2026 asks for each whether meshes lie below it (every answer but the leaf's yes)."""
    nodes: list[dict] = []
    for i in range(n):
        node: dict = {"name": f"M{i}", "mesh": 0, "extensions": {KHR: {"collider": {"geometry": {"node": i}}}}}
        if i + 1 < n:
            node["children"] = [i + 1]
        nodes.append(node)
    return _khr(nodes, {}, [0])


SCENES = {
    "node_colliders": node_colliders,
    "mesh_chain": mesh_chain,
    "shapes": shapes,
    "shapes_empty": shapes_empty,
    "joints": joints,
    "drives": drives,
    "omi_drives": omi_drives,
    "limits": limits,
    "filters": filters,
    "moving": moving,
    "chain": chain,
}
