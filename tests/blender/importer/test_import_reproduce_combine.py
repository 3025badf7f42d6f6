"""Combine modes with ``import_reproduce`` on (issue 9, item 1): friction / restitution pre-combined against the
ground, so rebounds and sliding distances follow the spec's precedence (average > minimum > maximum > multiply,
``sim.pairs``); with the option off, average / minimum / maximum all behave alike. Export writes the file's
materials."""

from __future__ import annotations

import math

import bpy
import pytest

from export_helpers import export
from reproduce_kit import RB, import_file, reset, step, write

MODES = ("average", "minimum", "maximum", "multiply")
SHAPES = [
    {"type": "box", "box": {"size": [4.0, 1.0, 4.0]}},
    {"type": "sphere", "sphere": {"radius": 0.25}},
    {"type": "box", "box": {"size": [0.5, 0.5, 0.5]}},
]
GROUND_MATERIAL = {
    "staticFriction": 0.8,
    "dynamicFriction": 0.8,
    "restitution": 0.8,
    "frictionCombine": "multiply",
    "restitutionCombine": "multiply",
}


def _materials() -> list:
    body = [
        {
            "staticFriction": 0.2,
            "dynamicFriction": 0.2,
            "restitution": 0.2,
            "frictionCombine": mode,
            "restitutionCombine": mode,
        }
        for mode in MODES
    ]
    return [GROUND_MATERIAL, *body]


def _node(name: str, translation, shape: int, material: int, rotation=None, motion: dict | None = None) -> dict:
    physics: dict = {"collider": {"geometry": {"shape": shape}, "physicsMaterial": material}}
    if motion is not None:
        physics["motion"] = motion
    node = {"name": name, "translation": list(translation), "extensions": {RB: physics}}
    if rotation is not None:
        node["rotation"] = rotation
    return node


def _bounce_file(tmp_path):
    nodes = [_node("Ground", (0.0, -0.5, 0.0), 0, 0)]
    for i, mode in enumerate(MODES):
        nodes.append(_node(mode, (-1.5 + i, 4.0, 0.0), 1, i + 1, motion={"mass": 1.0}))
    return write(tmp_path, "bounce", nodes, physicsMaterials=_materials()), SHAPES


def _incline_file(tmp_path, degrees: float = 30.0):
    """A slab turned about glTF z (its local +x uphill); a 0.5 m block per mode resting on it, 1 m apart."""
    t = math.radians(degrees)
    rotation = [0.0, 0.0, math.sin(t / 2), math.cos(t / 2)]
    nodes = [_node("Ground", (0.0, 0.0, 0.0), 0, 0, rotation)]
    for i, mode in enumerate(MODES):
        x, y = 1.2, 0.5 + 0.25 + 0.005  # local: up the slope, on its top face
        world = (x * math.cos(t) - y * math.sin(t), x * math.sin(t) + y * math.cos(t), -1.5 + i)
        nodes.append(_node(mode, world, 2, i + 1, rotation, motion={"mass": 1.0}))
    return write(tmp_path, "incline", nodes, physicsMaterials=_materials())


def _write_shapes(path) -> None:
    import json

    doc = json.loads(path.read_text())
    doc["extensions"]["KHR_implicit_shapes"]["shapes"] = SHAPES
    path.write_text(json.dumps(doc))


def _rebounds(path, reproduce: bool) -> dict:
    import_file(path, reproduce=reproduce)
    scene = bpy.context.scene
    heights = {mode: [] for mode in MODES}
    for frame in range(scene.frame_start, scene.frame_start + 60):
        scene.frame_set(frame)
        for mode in MODES:
            heights[mode].append(bpy.data.objects[mode].matrix_world.translation.z)
    reset()
    out = {}
    for mode, zs in heights.items():
        impact = next((i for i in range(len(zs) - 1) if zs[i + 1] > zs[i] + 1e-4), None)  # first way up
        out[mode] = 0.0 if impact is None else max(zs[impact:]) - zs[impact]
    return out


def _slides(path, reproduce: bool) -> dict:
    import_file(path, reproduce=reproduce)
    start = {mode: bpy.data.objects[mode].matrix_world.translation.copy() for mode in MODES}
    step(24)
    out = {mode: (bpy.data.objects[mode].matrix_world.translation - start[mode]).length for mode in MODES}
    reset()
    return out


def test_rebounds_follow_the_restitution_precedence(clean, tmp_path):
    path, _ = _bounce_file(tmp_path)
    _write_shapes(path)
    off = _rebounds(path, reproduce=False)
    assert off["average"] == pytest.approx(off["maximum"], rel=0.05)  # today: every non-multiply mode alike
    on = _rebounds(path, reproduce=True)
    print("rebounds off", off, "on", on)
    assert on["maximum"] > on["average"] + 0.05 > on["minimum"] + 0.05  # 0.8 > 0.5 > 0.2
    assert on["minimum"] >= on["multiply"] - 1e-3  # 0.2 ≥ 0.16 (both small: Bullet loses much in a bounce)


def test_sliding_distances_follow_the_friction_precedence(clean, tmp_path):
    path = _incline_file(tmp_path)
    _write_shapes(path)
    off = _slides(path, reproduce=False)
    assert off["average"] == pytest.approx(off["maximum"], rel=0.05)  # today: alike
    on = _slides(path, reproduce=True)
    print("slides off", off, "on", on)
    # friction 0.16 < 0.2 < 0.5 < tan 30° = 0.577 < 0.8: multiply slides furthest, maximum holds
    assert on["multiply"] > on["minimum"] > on["average"] + 0.1 and on["maximum"] < 0.05


def test_export_writes_the_files_materials(clean, tmp_path):
    path, _ = _bounce_file(tmp_path)
    _write_shapes(path)
    import_file(path, reproduce=False)
    reference = export(tmp_path / "off.gltf", "2026")
    reset()
    import_file(path)
    assert bpy.data.objects["Ground"].rigid_body.friction == pytest.approx(1.0)
    written = export(tmp_path / "on.gltf", "2026")
    assert written["extensions"][RB] == reference["extensions"][RB]
    assert written["nodes"] == reference["nodes"]


def test_remove_restores_the_default_rule(clean, tmp_path):
    path, _ = _bounce_file(tmp_path)
    _write_shapes(path)
    import_file(path, reproduce=False)
    off = {ob.name: (ob.rigid_body.friction, ob.rigid_body.restitution) for ob in bpy.data.objects if ob.rigid_body}
    reset()
    import_file(path)
    assert bpy.ops.gltf_physics.remove_reproduction_helpers() == {"FINISHED"}
    on = {ob.name: (ob.rigid_body.friction, ob.rigid_body.restitution) for ob in bpy.data.objects if ob.rigid_body}
    assert on == off
