"""What each glTF_Physics conformance scene's README says should happen, as code against a ``check`` report.

``failures(doc, report, case)`` returns the broken expectations (empty = the scene passes). Expectations are derived
from the file with the spec's rules (``sim.pairs`` for filters and combine modes), never from the importer. The
report is in Blender world axes (Z up): glTF (x, y, z) is Blender (x, −z, y). bpy-free: also a script that prints
the per-scene table from ``bin/gltf-physics check … --json OUT``::

    bin/gltf-physics check ../shared/corpus/glTF_Physics/tests/*/*.gltf --json /tmp/corpus.json
    .venv/bin/python -P tests/blender/conformance_expectations.py /tmp/corpus.json
"""

from __future__ import annotations

import json
import math
import pathlib
import sys

if __name__ == "__main__":  # run as a script: testkit lives one folder up
    sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))

from testkit import submodule

pairs = submodule("sim.pairs")
quat = submodule("sim.quat")
RB = "KHR_physics_rigid_bodies"
TOUCH = 0.1  # m: a resting body's lowest point is within this of the support's top (Bullet margins, rocking meshes)
LIMIT_SLACK = 0.025  # m or rad: Bullet overshoots a stop by ~1.4 cm at 4 m/s (docs/blender-physics-notes)
SPIN = 0.5  # rad: a swinging / spinning body turns at least this much in the run
GROUP_README = {
    "ColliderTypeMatrix": "the dynamic body rests on the static one",
    "CollisionFilter": "the body whose filter meets the static one rests on it, the other passes (partly) through",
    "Materials": "higher combined restitution rebounds higher / lower combined friction slides further",
    "MotionProperties": "gravity factor, initial velocities, kinematic, infinite inertia act as set",
    "Joint": "each joint keeps its limits, bodies swing / slide / stop as the joint says, drives reach targets",
}


def _ext(node: dict) -> dict:
    return node.get("extensions", {}).get(RB, {})


def _bodies(report: dict, kind: str | None = None) -> list[dict]:
    return [b for b in report["bodies"] if kind is None or b["kind"] == kind]


def _by_node(report: dict) -> dict[int, dict]:
    return {b["node"]: b for b in report["bodies"] if b["node"] is not None}


def _static_top(report: dict) -> float:
    return max(b["bounds_end_m"][1][2] for b in _bodies(report, "static"))


def _to_blender(v) -> list[float]:
    return [v[0], -v[2], v[1]]


def collider_pair(doc: dict, report: dict) -> list[str]:
    """The dynamic body rests on the static one: its lowest point at the static geometry's top, not falling."""
    top, out = _static_top(report), []
    for body in _bodies(report, "dynamic"):
        bottom = body["bounds_end_m"][0][2]
        if abs(bottom - top) > TOUCH:
            out.append(f"{body['name']}: lowest point {bottom:.3f} m, static top {top:.3f} m (not resting on it)")
        if abs(body["end_velocity_m_s"][2]) > 0.2:
            out.append(f"{body['name']}: still moving vertically at {body['end_velocity_m_s'][2]:.2f} m/s")
    return out


def _filter(doc: dict, node: dict):
    index = _ext(node).get("collider", {}).get("collisionFilter")
    if index is None:
        return None
    return pairs.CollisionFilter.from_dict(doc["extensions"][RB]["collisionFilters"][index])


def _half_height(doc: dict, node: dict) -> float:
    """Half the glTF-Y extent of a collider's implicit shape."""
    shape = doc["extensions"]["KHR_implicit_shapes"]["shapes"][_ext(node)["collider"]["geometry"]["shape"]]
    params = shape.get(shape["type"], {})
    if shape["type"] == "box":
        return params.get("size", [1.0, 1.0, 1.0])[1] / 2
    if shape["type"] == "sphere":
        return params.get("radius", 0.5)
    radius = max(params.get("radiusTop", 0.25), params.get("radiusBottom", 0.25))
    return params.get("height", 0.5) / 2 + (radius if shape["type"] == "capsule" else 0.0)


def _static_collider(nodes: list) -> dict:
    """The collider that belongs to no body (no motion on it or above it)."""
    parent = {c: i for i, n in enumerate(nodes) for c in n.get("children", [])}

    def in_body(i: int | None) -> bool:
        while i is not None:
            if "motion" in _ext(nodes[i]):
                return True
            i = parent.get(i)
        return False

    return next(n for i, n in enumerate(nodes) if "collider" in _ext(n) and not in_body(i))


def collision_filter(doc: dict, report: dict) -> list[str]:
    """Per dynamic body: the collider parts whose filter meets the static collider's hold it up; the body rests
    with the lowest such part on the static top (partly through it when other parts pass), or falls through."""
    nodes, top, out = doc["nodes"], _static_top(report), []
    static = _static_collider(nodes)
    bodies = _by_node(report)
    for index, node in enumerate(nodes):
        if "motion" not in _ext(node):
            continue
        parts = [(node, [0.0, 0.0, 0.0])] if "collider" in _ext(node) else []
        rotation = node.get("rotation", [0.0, 0.0, 0.0, 1.0])
        parts += [
            (nodes[c], quat.rotate(rotation, nodes[c].get("translation", [0.0, 0.0, 0.0])).tolist())
            for c in node.get("children", [])
        ]
        held = [
            off[1] - _half_height(doc, part)
            for part, off in parts
            if pairs.filters_collide(_filter(doc, part), _filter(doc, static))
        ]
        body = bodies[index]
        if not held:
            if body["rest_height_m"] > top - 5.0:
                rests = body["rest_height_m"]
                out.append(f"{body['name']}: should fall through the static body, rests at {rests:.2f} m")
            continue
        expected = top - min(held)
        if abs(body["rest_height_m"] - expected) > TOUCH:
            out.append(f"{body['name']}: rests at {body['rest_height_m']:.2f} m, its filters say {expected:.2f} m")
    return out


def _material(doc: dict, node: dict):
    index = _ext(node).get("collider", {}).get("physicsMaterial")
    if index is None:
        return None
    m = doc["extensions"][RB]["physicsMaterials"][index]
    return pairs.PhysicsMaterial(
        m.get("staticFriction", 0.6),
        m.get("dynamicFriction", 0.6),
        m.get("restitution", 0.0),
        m.get("frictionCombine"),
        m.get("restitutionCombine"),
    )


def materials(doc: dict, report: dict) -> list[str]:
    """Of the two dynamic bodies, the one whose material combines (spec precedence) to the higher restitution with
    the ground rebounds higher; the lower combined friction slides further down the slope."""
    nodes = doc["nodes"]
    ground = next(n for n in nodes if "motion" not in _ext(n))
    bodies = _by_node(report)
    combined = {
        i: pairs.combine_materials(_material(doc, n), _material(doc, ground))
        for i, n in enumerate(nodes)
        if "motion" in _ext(n)
    }
    (a, ca), (b, cb) = sorted(combined.items())
    out = []
    if ca["restitution"] != cb["restitution"]:
        hi, lo = (a, b) if ca["restitution"] > cb["restitution"] else (b, a)
        if not bodies[hi]["rebound_height_m"] > bodies[lo]["rebound_height_m"] + 0.1:
            out.append(
                f"rebounds {bodies[hi]['rebound_height_m']:.2f} m (restitution {combined[hi]['restitution']:g}) "
                f"vs {bodies[lo]['rebound_height_m']:.2f} m ({combined[lo]['restitution']:g}): not ordered"
            )
    if ca["dynamicFriction"] != cb["dynamicFriction"]:
        lo, hi = (a, b) if ca["dynamicFriction"] < cb["dynamicFriction"] else (b, a)
        slid, held = bodies[lo]["travel_m"], bodies[hi]["travel_m"]
        if not slid > held + 1.0:
            out.append(
                f"slides {slid:.2f} m (friction {combined[lo]['dynamicFriction']:g}) vs {held:.2f} m "
                f"({combined[hi]['dynamicFriction']:g}): not ordered"
            )
    return out


def _world_rotation(nodes: list, index: int):
    """The glTF world rotation (x, y, z, w) of node ``index``: its own and its ancestors' rotations."""
    parents = {c: i for i, n in enumerate(nodes) for c in n.get("children", [])}
    rotation = [0.0, 0.0, 0.0, 1.0]
    while index is not None:
        rotation = quat.multiply(nodes[index].get("rotation", [0.0, 0.0, 0.0, 1.0]), rotation)
        index = parents.get(index)
    return rotation


def motion_properties(doc: dict, report: dict) -> list[str]:
    """Free bodies (gravity factor 0) move at their initial velocities; a kinematic body with none stays; a body with
    infinite inertia does not turn; colliding free bodies pass their momentum on (+x)."""
    seconds, bodies, out = report["seconds"], _by_node(report), []
    dynamic = [(i, n) for i, n in enumerate(doc["nodes"]) if "motion" in _ext(n)]
    colliding = len(dynamic) > 1 and all(_ext(n)["motion"].get("gravityFactor") == 0.0 for _, n in dynamic)
    for index, node in dynamic:
        motion, body = _ext(node)["motion"], bodies[index]
        moved = [body["end_m"][k] - body["start_m"][k] for k in range(3)]
        if colliding:  # scene 06: every body ends up travelling +x, none leaves the x axis
            if moved[0] < 0.5 or max(abs(moved[1]), abs(moved[2])) > 0.1:
                out.append(f"{body['name']}: moved {[round(m, 3) for m in moved]}, expected along +x")
            continue
        if motion.get("inertiaDiagonal") == [0.0, 0.0, 0.0]:
            if body["rotation_change_rad"] > 0.05:
                out.append(f"{body['name']}: infinite inertia but turned {body['rotation_change_rad']:.3f} rad")
            continue
        if motion.get("gravityFactor", 1.0) == 0.0 or motion.get("isKinematic"):
            velocity = quat.rotate(_world_rotation(doc["nodes"], index), motion.get("linearVelocity", [0.0, 0.0, 0.0]))
            expected = [v * seconds for v in _to_blender(velocity.tolist())]  # node space (the spec) → world
            error = math.dist(moved, expected)
            if error > 0.05 * math.hypot(*expected) + 0.01:
                shown = [round(v, 3) + 0.0 for v in expected]  # + 0.0: no -0.0
                out.append(f"{body['name']}: moved {[round(m, 3) for m in moved]}, expected {shown} (5 %)")
            spin = math.hypot(*motion.get("angularVelocity", [0.0, 0.0, 0.0])) * seconds
            if abs(body["spin_rad"] - spin) > 0.05 * spin + 0.01:
                out.append(f"{body['name']}: turned {body['spin_rad']:.3f} rad, expected {spin:.3f} rad (5 %)")
    return out


JOINT_MOTION = {  # case → (what the README's joint does, check on the dynamic body / joint)
    "00": ("fixed: the body does not move", lambda b, j: b["travel_m"] < 0.01),
    "05": ("prismatic: slides to its lower stop", lambda b, j: j["limits"][2]["metric"]["min"] < -1.9),
    "06": ("prismatic with collision: stopped by the static body", lambda b, j: j["limits"][2]["metric"]["min"] > -1.5),
    "07": ("stiff spring: hangs within its distance", lambda b, j: b["settled"]),
    "10": ("linear drive: held at its target", lambda b, j: b["settled"]),
}


def joints(doc: dict, report: dict, case: str) -> list[str]:
    out = []
    (body,) = _bodies(report, "dynamic")
    for joint in report["joints"]:
        for unit in ("m", "rad"):
            if joint[f"max_violation_{unit}"] > LIMIT_SLACK:
                out.append(f"{joint['name']}: a limit is violated by {joint[f'max_violation_{unit}']:.3f} {unit}")
        out += [
            f"{joint['name']}: drive on axis {d['axis']} measured {d['measured']:.3f}, target {d['target']:.3f}"
            for d in joint["drives"]
            if not d["reached"]
        ]
    what, holds = JOINT_MOTION.get(case, ("the body swings", lambda b, j: b["spin_rad"] > SPIN))
    if report["joints"] and not holds(body, report["joints"][0]):
        out.append(f"expected {what}")
    return out


def failures(doc: dict, report: dict, name: str) -> list[str]:
    """Broken expectations of scene ``name`` (e.g. ``RigidBodies_Joint_05``)."""
    group, case = name.removeprefix("RigidBodies_").rsplit("_", 1)
    if group == "ColliderTypeMatrix":
        return collider_pair(doc, report)
    if group == "CollisionFilter":
        return collision_filter(doc, report)
    if group == "Materials":
        return materials(doc, report)
    if group == "MotionProperties":
        return motion_properties(doc, report)
    return joints(doc, report, case)


def table(run: dict) -> list[str]:
    """Markdown rows (scene, result, detail) of a ``check --json`` run over the conformance scenes."""
    rows = ["| scene | result | detail |", "|---|---|---|"]
    for entry in run["files"]:
        path = pathlib.Path(entry["file"])
        report = entry["report"]
        found = failures(json.loads(path.read_text()), report, path.stem)
        if not found:
            result, detail = "passing", ""
        elif report["not_reproducible"]:
            result, detail = "not reproducible", "; ".join(d["message"] for d in report["not_reproducible"])
        else:
            result, detail = "failing", "; ".join(found)
        rows.append(f"| {path.stem.removeprefix('RigidBodies_')} | {result} | {detail} |")
    return rows


if __name__ == "__main__":
    print("\n".join(table(json.loads(pathlib.Path(sys.argv[1]).read_text()))))
