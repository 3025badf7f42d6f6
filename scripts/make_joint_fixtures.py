"""Write the joint and filter test fixtures (tests/fixtures/joints/*.gltf): small JSON-only KHR 2024-10 scenes.

Run: ``.venv/bin/python -P scripts/make_joint_fixtures.py`` (deterministic; re-run after editing a case).

Each joint scene: node 0 = body A (static box collider unless ``a_dynamic``), node 1 = frame A (the joint node,
child of body A, or a root node for joints to the world), node 2 = body B (dynamic 0.2 m box), node 3 = frame B
(child of body B). Frame B is placed at frame A's world pose plus ``b_offset`` (glTF world translation).
"""

from __future__ import annotations

import json
import math
import pathlib

OUT = pathlib.Path(__file__).resolve().parent.parent / "tests" / "fixtures" / "joints"
LOCK_LIN = {"linearAxes": [0, 1, 2], "min": 0.0, "max": 0.0}
LOCK_ANG = {"angularAxes": [0, 1, 2], "min": 0.0, "max": 0.0}


def lock(kind: str, axes: list[int]) -> dict:
    return {f"{kind}Axes": axes, "min": 0.0, "max": 0.0}


def quat_axis_angle(axis: int, angle: float) -> list[float]:
    q = [0.0, 0.0, 0.0, math.cos(angle / 2)]
    q[axis] = math.sin(angle / 2)
    return q


def box(size: float) -> dict:
    return {"type": "box", "box": {"size": [size, size, size]}}


def joint_scene(
    limits: list[dict],
    *,
    drives: list[dict] | None = None,
    frame_a: tuple = (0.0, 0.0, 0.0),
    frame_a_rotation: list[float] | None = None,
    body_b: tuple = (0.0, 0.0, 1.0),
    b_offset: tuple = (0.0, 0.0, 0.0),
    to_world: bool = False,
    a_dynamic: bool = False,
    enable_collision: bool | None = None,
) -> dict:
    """A two-body joint scene (see module docstring)."""
    joint: dict = {"connectedNode": 3, "joint": 0}
    if enable_collision is not None:
        joint["enableCollision"] = enable_collision
    frame_a_node: dict = {"name": "FrameA", "translation": list(frame_a)}
    if frame_a_rotation is not None:
        frame_a_node["rotation"] = frame_a_rotation
    frame_a_node["extensions"] = {"KHR_physics_rigid_bodies": {"joint": joint}}
    b_frame = [frame_a[i] + b_offset[i] - body_b[i] for i in range(3)]
    frame_b_node: dict = {"name": "FrameB", "translation": b_frame}
    if frame_a_rotation is not None:
        frame_b_node["rotation"] = frame_a_rotation
    body_a_ext: dict = {"collider": {"geometry": {"shape": 0}}}
    if a_dynamic:
        body_a_ext["motion"] = {"mass": 1.0}
    nodes = [
        {"name": "BodyA", "extensions": {"KHR_physics_rigid_bodies": body_a_ext}},
        frame_a_node,
        {
            "name": "BodyB",
            "translation": list(body_b),
            "children": [3],
            "extensions": {
                "KHR_physics_rigid_bodies": {"motion": {"mass": 1.0}, "collider": {"geometry": {"shape": 1}}}
            },
        },
        frame_b_node,
    ]
    roots = [0, 2]
    if to_world:
        roots.append(1)
    else:
        nodes[0]["children"] = [1]
    description: dict = {"limits": limits}
    if drives:
        description["drives"] = drives
    return document(nodes, roots, [box(0.5), box(0.2)], {"physicsJoints": [description]})


def document(nodes: list, roots: list, shapes: list, body_root: dict) -> dict:
    return {
        "asset": {"version": "2.0", "generator": "gltf_physics scripts/make_joint_fixtures.py"},
        "extensionsUsed": ["KHR_physics_rigid_bodies", "KHR_implicit_shapes"],
        "extensions": {"KHR_physics_rigid_bodies": body_root, "KHR_implicit_shapes": {"shapes": shapes}},
        "scene": 0,
        "scenes": [{"nodes": roots}],
        "nodes": nodes,
    }


def filter_scene() -> dict:
    """Three filter classes + unfiltered colliders: 'ghost' ignores 'world', 'team' only meets itself."""
    filters = [
        {"collisionSystems": ["world"]},
        {"collisionSystems": ["ghost"], "notCollideWithSystems": ["world"]},
        {"collisionSystems": ["team"], "collideWithSystems": ["team"]},
    ]
    nodes = [
        {
            "name": "Ground",
            "extensions": {"KHR_physics_rigid_bodies": {"collider": {"geometry": {"shape": 0}, "collisionFilter": 0}}},
        }
    ]
    for i, (name, flt) in enumerate([("Ghost", 1), ("Ghost2", 1), ("TeamA", 2), ("TeamB", 2), ("Plain", None)]):
        collider: dict = {"geometry": {"shape": 1}}
        if flt is not None:
            collider["collisionFilter"] = flt
        nodes.append(
            {
                "name": name,
                "translation": [float(i), 2.0, 0.0],
                "extensions": {"KHR_physics_rigid_bodies": {"motion": {"mass": 1.0}, "collider": collider}},
            }
        )
    shapes = [{"type": "box", "box": {"size": [10.0, 0.2, 10.0]}}, box(0.3)]
    return document(nodes, list(range(len(nodes))), shapes, {"collisionFilters": filters})


CASES = {
    "fixed": joint_scene([LOCK_LIN, LOCK_ANG]),
    "point": joint_scene([LOCK_LIN]),
    "hinge_x": joint_scene([LOCK_LIN, lock("angular", [1, 2])]),
    "hinge_z": joint_scene([LOCK_LIN, lock("angular", [0, 1])], body_b=(1.0, 0.0, 0.0)),
    "hinge_x_limited": joint_scene([LOCK_LIN, lock("angular", [1, 2]), {"angularAxes": [0], "min": -0.2, "max": 0.4}]),
    "slider_y": joint_scene([lock("linear", [0, 2]), LOCK_ANG, {"linearAxes": [1], "min": -0.5, "max": 0.25}]),
    "piston_x": joint_scene([lock("linear", [1, 2]), lock("angular", [1, 2])]),
    "generic": joint_scene(
        [
            {"linearAxes": [0], "min": -0.1, "max": 0.3},
            lock("linear", [1, 2]),
            {"angularAxes": [2], "min": -0.5, "max": 0.25},
            lock("angular", [0, 1]),
        ]
    ),
    "cone": joint_scene([LOCK_LIN, {"angularAxes": [0, 2], "max": 0.5}]),
    "distance": joint_scene([{"linearAxes": [0, 1, 2], "min": 0.0, "max": 0.3}]),
    "motor_y": joint_scene(
        [LOCK_LIN, lock("angular", [0, 2])],
        drives=[{"type": "angular", "mode": "force", "axis": 1, "velocityTarget": 1.0, "damping": 10.0}],
        body_b=(1.0, 0.0, 0.0),
    ),
    "motor_linear_x": joint_scene(
        [lock("linear", [1, 2]), LOCK_ANG],
        drives=[{"type": "linear", "mode": "force", "axis": 0, "velocityTarget": 0.5, "damping": 10.0}],
        body_b=(0.0, 1.0, 0.0),
    ),
    "to_world": joint_scene(
        [LOCK_LIN, lock("angular", [1, 2])], to_world=True, frame_a=(0.0, 3.0, 0.0), body_b=(0.0, 3.0, 1.0)
    ),
    "offset_fixed": joint_scene(
        [LOCK_LIN, LOCK_ANG], b_offset=(0.0, 0.0, 0.1), a_dynamic=True, frame_a=(0.0, 2.0, 0.0), body_b=(0.0, 2.0, 0.6)
    ),
    "welded_falling": joint_scene(
        [LOCK_LIN, LOCK_ANG],
        a_dynamic=True,
        frame_a=(0.3, 2.0, 0.2),
        frame_a_rotation=quat_axis_angle(1, 0.7),
        body_b=(0.3, 2.0, 0.7),
    ),
    "enable_collision": joint_scene([LOCK_LIN], enable_collision=True),
}


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    for name, doc in {**CASES, "filters": filter_scene()}.items():
        (OUT / f"{name}.gltf").write_text(json.dumps(doc, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {len(CASES) + 1} fixtures to {OUT}")


if __name__ == "__main__":
    main()
