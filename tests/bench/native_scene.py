"""The speed benchmarks' scene (issue 14), authored natively in Blender with the data API: ``bodies`` rigid bodies
of five collision shapes in pairs, each pair joined by one constraint of six types on its own Empty (so
``bodies // 2`` constraints), and the glTF file Blender writes for it with physics export on (optionally with the
body nodes' meshes removed: the file's bodies then sit on Empties).

Used by ``bench_import.py`` / ``bench_export.py`` (``--scene native`` / ``native-empties``); needs ``bpy``.
"""

from __future__ import annotations

import gc
import json
import pathlib
import time

SHAPES = ("BOX", "SPHERE", "CAPSULE", "CYLINDER", "CONVEX_HULL")
CONSTRAINTS = ("FIXED", "POINT", "HINGE", "SLIDER", "GENERIC", "GENERIC_SPRING")
BOX_FACES = [(0, 1, 3, 2), (4, 6, 7, 5), (0, 4, 5, 1), (2, 3, 7, 6), (0, 2, 6, 4), (1, 5, 7, 3)]


def _configure(c, kind: str) -> None:
    """Limits / springs so every type writes a non-trivial joint description."""
    if kind == "HINGE":
        c.use_limit_ang_z, c.limit_ang_z_lower, c.limit_ang_z_upper = True, -0.5, 0.5
    elif kind == "SLIDER":
        c.use_limit_lin_x, c.limit_lin_x_lower, c.limit_lin_x_upper = True, -0.25, 0.25
    elif kind == "GENERIC":
        for axis in "xyz":
            setattr(c, f"use_limit_lin_{axis}", True)
        c.use_limit_ang_x, c.limit_ang_x_lower, c.limit_ang_x_upper = True, -0.3, 0.3
    elif kind == "GENERIC_SPRING":
        c.use_limit_lin_y, c.limit_lin_y_lower, c.limit_lin_y_upper = True, -0.2, 0.2
        c.use_spring_y, c.spring_stiffness_y, c.spring_damping_y = True, 40.0, 0.5


def build(bodies: int) -> None:
    """Empty the current file, then author the scene in ``bpy.context.scene``."""
    import bpy

    bpy.ops.wm.read_homefile(use_factory_startup=True, use_empty=True)
    scene = bpy.context.scene
    bpy.ops.rigidbody.world_add()
    rbw = scene.rigidbody_world
    rbw.collection = bpy.data.collections.new("RigidBodyWorld")
    rbw.constraints = bpy.data.collections.new("RigidBodyConstraints")
    mesh = bpy.data.meshes.new("box")
    mesh.from_pydata([(x, y, z) for x in (-0.5, 0.5) for y in (-0.5, 0.5) for z in (-0.5, 0.5)], [], BOX_FACES)
    width = len(str(bodies))  # zero-padded names, created in sorted order (objects.new stays linear)
    objects = scene.collection.objects
    for pair in range(bodies // 2):
        x, y = (pair % 50) * 3.0, (pair // 50) * 3.0
        pair_bodies = []
        for side, z in ((0, 1.0), (1, 2.5)):
            index = 2 * pair + side
            ob = bpy.data.objects.new(f"B{index:0{width}d}", mesh)
            ob.location = (x, y, z)
            ob.rotation_euler = (0.0, 0.0, 0.1 * (index % 7))
            objects.link(ob)
            rbw.collection.objects.link(ob)
            ob.rigid_body.collision_shape = SHAPES[index % len(SHAPES)]
            ob.rigid_body.type = "ACTIVE" if side or pair % 3 else "PASSIVE"
            ob.rigid_body.mass = 1.0 + (index % 4)
            pair_bodies.append(ob)
        kind = CONSTRAINTS[pair % len(CONSTRAINTS)]
        empty = bpy.data.objects.new(f"C{pair:0{width}d}", None)
        empty.location = (x, y, 1.75)
        empty.rotation_euler = (0.0, 0.2 * (pair % 3), 0.0)
        objects.link(empty)
        rbw.constraints.objects.link(empty)
        c = empty.rigid_body_constraint
        c.type, c.object1, c.object2 = kind, *pair_bodies
        _configure(c, kind)
    bpy.context.view_layer.update()


def write_file(bodies: int, path: pathlib.Path, empties: bool = False) -> dict[str, int]:
    """Author the scene, export it with physics as ``path`` (``.gltf`` + ``.bin``) and return counts.

    ``empties``: the mesh of every body node is removed from the file (its bodies import on Empties; the convex
    hulls keep their collider mesh through ``geometry.mesh``)."""
    import bpy

    build(bodies)
    bpy.context.scene.gltf_physics.export_physics = True
    assert bpy.ops.export_scene.gltf(filepath=str(path), export_format="GLTF_SEPARATE") == {"FINISHED"}
    data = json.loads(path.read_text(encoding="utf-8"))
    if empties:
        for node in data["nodes"]:
            physics = node.get("extensions", {}).get("KHR_physics_rigid_bodies", {})
            if "motion" in physics or "collider" in physics:
                node.pop("mesh", None)
        path.write_text(json.dumps(data), encoding="utf-8")
    physics = [n.get("extensions", {}).get("KHR_physics_rigid_bodies", {}) for n in data["nodes"]]
    return {
        "nodes": len(data["nodes"]),
        "bodies": sum("motion" in p or "collider" in p for p in physics),
        "joints": sum("joint" in p for p in physics),
    }


MAX_RUNS = 25


def repetitions(runs: int, budget: float):
    """Run numbers for one size: at least ``runs``, then more while fewer than ``budget`` seconds have passed (at
    most ``MAX_RUNS``). A small scene's run is cheap and its added time (a difference of two short minima) the
    noisiest: it gets more samples; a large one gets ``runs``."""
    start = time.perf_counter()
    done = 0
    while done < runs or (done < MAX_RUNS and time.perf_counter() - start < budget):
        yield done
        done += 1


def markdown_table(rows: list[dict], what: str) -> str:
    """Rows of {bodies, plain, physics} → a markdown table with the number of runs, ratio and added time per
    body."""
    lines = [
        f"| bodies | constraints | runs | plain {what} (best) | with physics (best) | ratio | added | added per body |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for row in rows:
        plain, physics = min(row["plain"]), min(row["physics"])
        added = physics - plain
        lines.append(
            f"| {row['bodies']:,} | {row['bodies'] // 2:,} | {len(row['plain'])} | {plain:.3f} s | {physics:.3f} s "
            f"| {physics / plain:.2f}× | {added:.3f} s | {added / row['bodies'] * 1e6:.0f} µs |"
        )
    return "\n".join(lines)


class FullPasses:
    """Count and time the garbage collector's full (generation 2) passes between ``reset`` calls (``--gc-stats``)."""

    def __init__(self):
        self.passes, self.seconds, self._start = 0, 0.0, 0.0

    def start(self) -> None:
        gc.callbacks.append(self._on_collect)

    def stop(self) -> None:
        gc.callbacks.remove(self._on_collect)

    def reset(self) -> None:
        self.passes, self.seconds = 0, 0.0

    def text(self) -> str:
        return f"{self.passes} in {self.seconds:.3f} s"

    def _on_collect(self, phase: str, info: dict) -> None:
        if info["generation"] != 2:
            return
        if phase == "start":
            self._start = time.perf_counter()
        else:
            self.seconds += time.perf_counter() - self._start
            self.passes += 1
