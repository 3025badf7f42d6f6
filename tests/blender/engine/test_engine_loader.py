"""The independent engine's own loader (tests/engine/loader.mjs) plays hand-written files as the KHR physics
extensions say: the rules the native-scene comparison relies on, each checked against closed-form motion
(free fall ½·g·t², within the few centimetres a 60 Hz integrator drifts from it).
"""

from __future__ import annotations

import json
import math
import struct

import enginekit
import pytest

from testkit import corpus_files, corpus_id

_MISSING = enginekit.available()
if _MISSING:
    pytest.skip(_MISSING, allow_module_level=True)

RB = "KHR_physics_rigid_bodies"
G = 9.81


FALL_TOLERANCE = 0.05  # metres per second of fall


def _drop(seconds: float) -> float:
    return G * seconds * seconds / 2


def _doc(nodes, shapes, **root) -> dict:
    return {
        "asset": {"version": "2.0"},
        "extensionsUsed": [RB, "KHR_implicit_shapes"],
        "extensions": {"KHR_implicit_shapes": {"shapes": shapes}, RB: root},
        "scenes": [{"nodes": [i for i in range(len(nodes)) if not any(i in n.get("children", []) for n in nodes)]}],
        "nodes": nodes,
    }


def _physics(**physics) -> dict:
    return {"extensions": {RB: physics}}


BOX = {"type": "box", "box": {"size": [1, 1, 1]}}
GROUND = {"type": "box", "box": {"size": [20, 1, 20]}}


def _play(tmp_path, doc, seconds, name="scene.gltf") -> dict[str, enginekit.NodeState]:
    path = tmp_path / name
    path.write_text(json.dumps(doc), encoding="utf-8")
    return enginekit.play(path, seconds=seconds).by_name()


def test_free_fall_follows_gravity(tmp_path):
    doc = _doc([{"name": "Box", "translation": [0, 10, 0], **_physics(motion={"mass": 2}, collider=_geo(0))}], [BOX])
    box = _play(tmp_path, doc, 1.0)["Box"]
    assert box.position[1] == pytest.approx(10 - _drop(1.0), abs=FALL_TOLERANCE)


def _geo(shape: int, **extra) -> dict:
    return {"geometry": {"shape": shape}, **extra}


def test_matrix_and_parent_chain_place_the_body(tmp_path):
    """A body under a translated, rotated parent, its own transform as a ``matrix``: it starts where the chain
    puts it and keeps its world rotation while it falls."""
    quarter = [0, math.sin(math.pi / 4), 0, math.cos(math.pi / 4)]  # 90° about Y
    matrix = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 2, 0, 0, 1]  # translation (2, 0, 0)
    nodes = [
        {"name": "Rig", "translation": [0, 10, 0], "rotation": quarter, "children": [1]},
        {"name": "Box", "matrix": matrix, **_physics(motion={"mass": 1, "gravityFactor": 0}, collider=_geo(0))},
    ]
    box = _play(tmp_path, _doc(nodes, [BOX]), 0.5)["Box"]
    assert box.start_position == pytest.approx((0, 10, -2), abs=1e-5)  # (2, 0, 0) turned 90° about Y
    assert box.position == pytest.approx((0, 10, -2), abs=1e-4)
    assert enginekit.angle_between(box.rotation, quarter) < 0.01


def test_initial_velocity_is_in_node_space_and_gravity_factor_scales_gravity(tmp_path):
    quarter = [0, math.sin(math.pi / 4), 0, math.cos(math.pi / 4)]
    nodes = [
        {
            "name": "Drifter",
            "translation": [0, 10, 0],
            "rotation": quarter,
            **_physics(motion={"mass": 1, "gravityFactor": 0, "linearVelocity": [1, 0, 0]}, collider=_geo(0)),
        },
        {
            "name": "Floater",
            "translation": [5, 10, 0],
            **_physics(motion={"mass": 1, "gravityFactor": 0.5}, collider=_geo(0)),
        },
    ]
    states = _play(tmp_path, _doc(nodes, [BOX]), 1.0)
    assert states["Drifter"].position == pytest.approx((0, 10, -1), abs=1e-3)  # node X turned 90° about Y = -Z
    assert states["Floater"].position[1] == pytest.approx(10 - _drop(1.0) / 2, abs=FALL_TOLERANCE)


def test_kinematic_body_keeps_its_velocity_and_static_collider_stops_a_fall(tmp_path):
    nodes = [
        {"name": "Ground", "translation": [0, -0.5, 0], **_physics(collider=_geo(1))},
        {"name": "Box", "translation": [0, 2, 0], **_physics(motion={"mass": 1}, collider=_geo(0))},
        {
            "name": "Lift",
            "translation": [5, 3, 0],
            **_physics(motion={"isKinematic": True, "linearVelocity": [0, 1, 0]}, collider=_geo(0)),
        },
    ]
    states = _play(tmp_path, _doc(nodes, [BOX, GROUND]), 2.0)
    assert states["Box"].position[1] == pytest.approx(0.5, abs=0.02)
    assert states["Lift"].position == pytest.approx((5, 5, 0), abs=1e-3)
    assert states["Ground"].body == "static" and states["Ground"].position == pytest.approx((0, -0.5, 0))


def test_scale_is_baked_into_boxes_and_compound_children(tmp_path):
    """A scaled box rests on its scaled half-height; a compound's child collider (offset, scaled) holds the body
    up by its own bottom."""
    nodes = [
        {"name": "Ground", "translation": [0, -0.5, 0], **_physics(collider=_geo(1))},
        {
            "name": "Tall",
            "translation": [-4, 3, 0],
            "scale": [1, 3, 1],
            **_physics(motion={"mass": 1}, collider=_geo(0)),
        },
        {"name": "Table", "translation": [4, 3, 0], "children": [3], **_physics(motion={"mass": 1})},
        {"name": "Leg", "translation": [0, -1, 0], "scale": [2, 2, 2], **_physics(collider=_geo(0))},
    ]
    states = _play(tmp_path, _doc(nodes, [BOX, GROUND]), 2.0)
    assert states["Tall"].position[1] == pytest.approx(1.5, abs=0.02)
    assert states["Table"].position[1] == pytest.approx(2.0, abs=0.02)  # leg 2 m tall, its centre 1 m below
    assert states["Leg"].position[1] == pytest.approx(1.0, abs=0.02)  # a child moves with its body


def test_collision_filters_let_bodies_pass(tmp_path):
    filters = [
        {"collisionSystems": ["ground"], "collideWithSystems": ["props"]},
        {"collisionSystems": ["props"], "collideWithSystems": ["ground"]},
        {"collisionSystems": ["ghosts"], "collideWithSystems": ["ghosts"]},
    ]
    nodes = [
        {"name": "Ground", "translation": [0, -0.5, 0], **_physics(collider=_geo(1, collisionFilter=0))},
        {
            "name": "Prop",
            "translation": [-2, 1, 0],
            **_physics(motion={"mass": 1}, collider=_geo(0, collisionFilter=1)),
        },
        {
            "name": "Ghost",
            "translation": [2, 1, 0],
            **_physics(motion={"mass": 1}, collider=_geo(0, collisionFilter=2)),
        },
    ]
    states = _play(tmp_path, _doc(nodes, [BOX, GROUND], collisionFilters=filters), 1.5)
    assert states["Prop"].position[1] == pytest.approx(0.5, abs=0.02)
    assert states["Ghost"].position[1] < -5


def test_trimesh_from_mesh_accessors(tmp_path):
    """``geometry.mesh`` (the ~2026 revision): a two-triangle floor read from the .bin holds a box up."""
    positions = [-10, 0, -10, 10, 0, -10, 10, 0, 10, -10, 0, 10]
    indices = [0, 2, 1, 0, 3, 2]
    data = struct.pack("<12f", *positions) + struct.pack("<6H", *indices)
    (tmp_path / "floor.bin").write_bytes(data)
    doc = _doc(
        [
            {"name": "Floor", "mesh": 0, **_physics(collider={"geometry": {"mesh": 0}})},
            {"name": "Box", "translation": [0, 2, 0], **_physics(motion={"mass": 1}, collider=_geo(0))},
        ],
        [BOX],
    )
    doc["buffers"] = [{"uri": "floor.bin", "byteLength": len(data)}]
    doc["bufferViews"] = [
        {"buffer": 0, "byteOffset": 0, "byteLength": 48},
        {"buffer": 0, "byteOffset": 48, "byteLength": 12},
    ]
    doc["accessors"] = [
        {"bufferView": 0, "componentType": 5126, "count": 4, "type": "VEC3", "min": [-10, 0, -10], "max": [10, 0, 10]},
        {"bufferView": 1, "componentType": 5123, "count": 6, "type": "SCALAR"},
    ]
    doc["meshes"] = [{"primitives": [{"attributes": {"POSITION": 0}, "indices": 1}]}]
    assert _play(tmp_path, doc, 1.5)["Box"].position[1] == pytest.approx(0.5, abs=0.02)


def test_joint_limit_and_drive(tmp_path):
    """A weight on a vertical slider to the world: the limit stops it 1 m down; a spring drive holds another at
    the rest length the closed form gives (mg/k below the anchor frame)."""
    slider = {"limits": [{"linearAxes": [1, 2]}, {"angularAxes": [0, 1, 2], "min": 0, "max": 0}]}
    stop = {**slider, "limits": [*slider["limits"], {"linearAxes": [0], "min": -1, "max": 1}]}
    spring = {**slider, "drives": [{"type": "linear", "mode": "force", "axis": 0, "stiffness": 20, "damping": 8}]}
    down = [0, 0, -math.sin(math.pi / 4), math.cos(math.pi / 4)]  # joint X axis pointing down (-90° about Z)
    nodes = [
        {
            "name": "StopFrame",
            "translation": [-2, 5, 0],
            "rotation": down,
            **_physics(joint={"connectedNode": 2, "joint": 0}),
        },
        {
            "name": "Stopped",
            "translation": [-2, 5, 0],
            "children": [2],
            **_physics(motion={"mass": 1}, collider=_geo(0)),
        },
        {"name": "StopFrameB", "rotation": down},
        {
            "name": "SpringFrame",
            "translation": [2, 5, 0],
            "rotation": down,
            **_physics(joint={"connectedNode": 5, "joint": 1}),
        },
        {"name": "Sprung", "translation": [2, 5, 0], "children": [5], **_physics(motion={"mass": 1}, collider=_geo(0))},
        {"name": "SpringFrameB", "rotation": down},
    ]
    states = _play(tmp_path, _doc(nodes, [BOX], physicsJoints=[stop, spring]), 4.0)
    assert states["Stopped"].position == pytest.approx((-2, 4, 0), abs=0.02)
    assert states["Sprung"].position == pytest.approx((2, 5 - G / 20, 0), abs=0.03)


def test_unreadable_file_is_an_engine_error(tmp_path):
    path = tmp_path / "broken.gltf"
    path.write_text("{not json", encoding="utf-8")
    with pytest.raises(enginekit.EngineError, match="exit 2"):
        enginekit.play(path, seconds=0.1)


@pytest.mark.parametrize("inertia", [None, [0.5, 4.0, 0.5]])
def test_torque_limited_motor_spins_up_by_the_inertia(tmp_path, inertia):
    """A velocity servo (damping 1000) limited to 1 N·m turns a bar about the vertical: θ = ½·(τ / I)·t² while it
    is below the target speed — with the inertia Havok computes from the box, or the file's ``inertiaDiagonal``."""
    up = [0, 0, math.sin(math.pi / 4), math.cos(math.pi / 4)]  # frame X along world +Y
    drive = {"type": "angular", "mode": "force", "axis": 0, "maxForce": 1, "velocityTarget": 10, "damping": 1000}
    joint = {"limits": [{"linearAxes": [0, 1, 2], "min": 0, "max": 0}, {"angularAxes": [1, 2], "min": 0, "max": 0}]}
    motion = {"mass": 2, "gravityFactor": 0, **({"inertiaDiagonal": inertia} if inertia else {})}
    nodes = [
        {"name": "Frame", "translation": [0, 3, 0], "rotation": up, **_physics(joint={"connectedNode": 2, "joint": 0})},
        {"name": "Rotor", "translation": [0, 3, 0], "children": [2], **_physics(motion=motion, collider=_geo(0))},
        {"name": "FrameB", "rotation": up},
    ]
    bar = {"type": "box", "box": {"size": [2, 0.3, 0.3]}}
    states = _play(tmp_path, _doc(nodes, [bar], physicsJoints=[{**joint, "drives": [drive]}]), 1.0)
    moment = inertia[1] if inertia else 2 * (2**2 + 0.3**2) / 12
    turned = enginekit.angle_between((0, 0, 0, 1), states["Rotor"].rotation)
    assert turned == pytest.approx(math.degrees(0.5 / moment), rel=0.05)


def test_a_run_past_its_timeout_is_an_engine_error(tmp_path):
    doc = _doc([{"name": "Box", **_physics(motion={"mass": 1}, collider=_geo(0))}], [BOX])
    path = tmp_path / "slow.gltf"
    path.write_text(json.dumps(doc), encoding="utf-8")
    # a million simulated seconds (6e7 steps): minutes on any machine; 600 s took 0.34 s on a 2026 machine, so a
    # shorter run could finish within the timeout and the test would fail for speed
    with pytest.raises(enginekit.EngineError, match="did not finish"):
        enginekit.play(path, seconds=1e6, timeout=0.5)


def test_a_file_the_loader_cannot_play_names_its_pointer(tmp_path):
    doc = _doc([{"name": "Rock", **_physics(motion={"mass": 1}, collider={"geometry": {"mesh": 3}})}], [BOX])
    path = tmp_path / "missing_mesh.gltf"
    path.write_text(json.dumps(doc), encoding="utf-8")
    with pytest.raises(enginekit.EngineError, match=r"/nodes/0/extensions/KHR_physics_rigid_bodies/collider/geometry"):
        enginekit.play(path, seconds=0.1)


def test_an_animated_body_follows_its_animation(tmp_path):
    """Animation takes priority over simulation: a kinematic body keyed from x = 0 (t = 0) to x = 2 (t = 1) is at
    x = 1 half way, and a collider under an animated parent moves with it; gravity moves neither."""
    times = [0.0, 1.0]
    values = [0, 1, 0, 2, 1, 0]
    data = struct.pack("<2f", *times) + struct.pack("<6f", *values)
    nodes = [
        {"name": "Paddle", "translation": [0, 1, 0], **_physics(motion={"isKinematic": True}, collider=_geo(0))},
        {"name": "Arm", "translation": [0, 1, 0], "children": [2]},
        {"name": "Gate", "translation": [0, 0, 3], **_physics(collider=_geo(0))},
    ]
    doc = _doc(nodes, [BOX])
    doc["buffers"] = [{"uri": "anim.bin", "byteLength": len(data)}]
    (tmp_path / "anim.bin").write_bytes(data)
    doc["bufferViews"] = [{"buffer": 0, "byteLength": 8}, {"buffer": 0, "byteOffset": 8, "byteLength": 24}]
    doc["accessors"] = [
        {"bufferView": 0, "componentType": 5126, "count": 2, "type": "SCALAR", "min": [0], "max": [1]},
        {"bufferView": 1, "componentType": 5126, "count": 2, "type": "VEC3"},
    ]
    doc["animations"] = [
        {
            "samplers": [{"input": 0, "output": 1}],
            "channels": [
                {"sampler": 0, "target": {"node": 0, "path": "translation"}},
                {"sampler": 0, "target": {"node": 1, "path": "translation"}},
            ],
        }
    ]
    states = _play(tmp_path, doc, 0.5)
    assert states["Paddle"].position == pytest.approx((1, 1, 0), abs=0.02)
    assert states["Gate"].position == pytest.approx((1, 1, 3), abs=0.02)


CORPUS_FILES = corpus_files("glTF_Physics/**/*.gltf")  # the 2024-10 revision: samples and conformance tests


@pytest.mark.corpus
def test_corpus_files_play_with_finite_end_states():
    """The loader reads the 2024-10 revision too (``geometry.node``): every file plays in one engine process, no
    reference it follows is missing, every end state is finite."""
    if not CORPUS_FILES:
        pytest.skip("no glTF_Physics files in ../shared/corpus")
    problems = []
    for path, run in zip(CORPUS_FILES, enginekit.play_many(CORPUS_FILES, seconds=1.0), strict=True):
        name = corpus_id(path)
        if isinstance(run, enginekit.EngineError):
            problems.append(f"{name}: {run}")
            continue
        problems += [f"{name}: {note}" for note in run.notes if "does not exist" in note or "neither shape" in note]
        problems += [f"{name}: {n.name} ends at {n.position}" for n in run.nodes if not _finite(n)]
    assert not problems, "\n".join(problems)


def _finite(node: enginekit.NodeState) -> bool:
    return all(math.isfinite(c) for c in node.position + node.rotation)
