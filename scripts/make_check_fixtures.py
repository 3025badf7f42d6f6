"""Write the fixtures of the ``check`` tests (tests/fixtures/check/): small JSON-only KHR 2024-10 scenes.

Run: ``.venv/bin/python -P scripts/make_check_fixtures.py`` (deterministic; re-run after editing a case).

* ``drop_trigger``: a static ground, a dynamic crate 4 m up, a trigger gate it falls through (enter, then exit),
  and a hinge pendulum with a velocity drive and a twist limit;
* ``bad_physics``: a motion with a negative ``mass`` (an ERROR with its JSON pointer);
* ``not_json``: a truncated JSON text.
"""

from __future__ import annotations

import json
import pathlib

OUT = pathlib.Path(__file__).resolve().parent.parent / "tests" / "fixtures" / "check"
RB = "KHR_physics_rigid_bodies"


def box(x: float, y: float, z: float) -> dict:
    return {"type": "box", "box": {"size": [x, y, z]}}


def document(nodes: list, shapes: list, body_root: dict | None = None) -> dict:
    doc = {
        "asset": {"version": "2.0", "generator": "gltf_physics scripts/make_check_fixtures.py"},
        "extensionsUsed": [RB, "KHR_implicit_shapes"],
        "extensions": {"KHR_implicit_shapes": {"shapes": shapes}},
        "scene": 0,
        "scenes": [{"nodes": [i for i, n in enumerate(nodes) if not n.pop("_child", False)]}],
        "nodes": nodes,
    }
    if body_root:
        doc["extensions"][RB] = body_root
    return doc


def drop_trigger() -> dict:
    lock_lin = {"linearAxes": [0, 1, 2], "min": 0.0, "max": 0.0}
    hinge = {"angularAxes": [0, 2], "min": 0.0, "max": 0.0}  # free about glTF Y (up): gravity exerts no torque
    nodes = [
        {"name": "Ground", "extensions": {RB: {"collider": {"geometry": {"shape": 0}}}}},
        {
            "name": "Crate",
            "translation": [0.0, 4.0, 0.0],
            "extensions": {RB: {"motion": {"mass": 1.0}, "collider": {"geometry": {"shape": 1}}}},
        },
        {"name": "Gate", "translation": [0.0, 2.0, 0.0], "extensions": {RB: {"trigger": {"geometry": {"shape": 2}}}}},
        {
            "name": "Post",
            "translation": [5.0, 3.0, 0.0],
            "children": [4],
            "extensions": {RB: {"collider": {"geometry": {"shape": 1}}}},
        },
        {"name": "Pivot", "_child": True, "extensions": {RB: {"joint": {"connectedNode": 6, "joint": 0}}}},
        {
            "name": "Arm",
            "translation": [5.0, 3.0, 1.0],
            "children": [6],
            "extensions": {RB: {"motion": {"mass": 1.0}, "collider": {"geometry": {"shape": 1}}}},
        },
        {"name": "ArmPivot", "_child": True, "translation": [0.0, 0.0, -1.0]},
    ]
    drives = [{"type": "angular", "mode": "force", "axis": 1, "velocityTarget": 1.0, "damping": 1000.0}]
    joints = [{"limits": [lock_lin, hinge], "drives": drives}]
    return document(nodes, [box(10.0, 0.2, 10.0), box(0.3, 0.3, 0.3), box(1.0, 0.5, 1.0)], {"physicsJoints": joints})


def bad_physics() -> dict:
    nodes = [{"name": "Crate", "extensions": {RB: {"motion": {"mass": -1.0}, "collider": {"geometry": {"shape": 0}}}}}]
    return document(nodes, [box(1.0, 1.0, 1.0)])


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    for name, doc in {"drop_trigger": drop_trigger(), "bad_physics": bad_physics()}.items():
        (OUT / f"{name}.gltf").write_text(json.dumps(doc, indent=1) + "\n", encoding="utf-8")
    (OUT / "not_json.gltf").write_text('{"asset": {"version": "2.0"}, "nodes": [\n', encoding="utf-8")
    print(f"wrote 3 fixtures to {OUT}")


if __name__ == "__main__":
    main()
