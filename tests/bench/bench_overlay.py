"""Cost of the viewport overlay's line collection per redraw (ui.overlay.overlay.selected_lines), headless.

Run: .venv/bin/python -P tests/bench/bench_overlay.py [--bodies N] [--repeat R]
Builds and installs the extension like the Blender test tier, makes N box bodies with a stored capsule collider,
velocities and a centre of mass plus N/2 hinge joints, then times (process time, best of R): a redraw with nothing
selected, the first draw of all N + N/2 selected objects (cache empty), a redraw without changes (cache hits), a
redraw after moving every body (placement only, as in simulation playback; the view-layer update is included) and
after editing one stored value (one rebuild). The GPU part (one batch per layer) is not timed: there is no GPU
in background mode.
"""

from __future__ import annotations

import argparse
import importlib
import json
import pathlib
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))
sys.path.insert(0, str(ROOT / "tests" / "blender"))
import devkit  # noqa: E402

devkit.isolate_user_resources(pathlib.Path(tempfile.mkdtemp(prefix="gltf_physics_bench_")))
import bpy  # noqa: E402

from scene_helpers import constraint, rigid_body_world, rigid_box  # noqa: E402

CAPSULE = json.dumps({"type": "capsule", "capsule": {"height": 1.0, "radiusTop": 0.1, "radiusBottom": 0.3}})


def _best(fn, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.process_time()
        fn()
        times.append(time.process_time() - start)
    return min(times)


def _scene(n: int) -> list:
    rbw = rigid_body_world()
    bodies = []
    for i in range(n):
        ob = rigid_box(rbw, f"Body{i}", location=(2.0 * i, 0.0, 0.0))
        pg = ob.gltf_physics
        pg.role = "NODE"
        pg.collider.has_collider = True
        pg.collider.geometry.kind = "SHAPE"
        pg.collider.geometry.shape_json = CAPSULE
        pg.motion.has_motion = True
        pg.motion.has_center_of_mass = True
        pg.motion.center_of_mass = (0.0, 0.0, 0.1)
        pg.motion.linear_velocity = (1.0, 0.0, 0.0)
        pg.motion.angular_velocity = (0.0, 0.0, 2.0)
        bodies.append(ob)
    joints = []
    for i in range(0, n - 1, 2):
        c = constraint(rbw, f"Hinge{i}", bodies[i], bodies[i + 1], "HINGE", location=(2.0 * i + 1.0, 0.0, 0.0))
        c.use_limit_ang_z, c.limit_ang_z_lower, c.limit_ang_z_upper = True, -0.5, 0.5
        joints.append(bpy.data.objects[f"Hinge{i}"])
    bpy.context.view_layer.update()
    return bodies + joints


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--bodies", type=int, default=100)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    addon = devkit.install_and_enable(devkit.build(pathlib.Path(tempfile.mkdtemp()) / "dist"))
    overlay = importlib.import_module(addon.__name__ + ".ui.overlay.overlay")
    bpy.ops.wm.read_homefile(use_factory_startup=True, use_empty=True)
    devkit.enable()
    objects = _scene(args.bodies)

    def lines(selection):
        with bpy.context.temp_override(selected_objects=selection):
            return overlay.selected_lines(bpy.context)

    def first():
        overlay.CACHE.clear()
        lines(objects)

    def moved():
        for ob in objects[: args.bodies]:  # every body moves (as in simulation playback): placement only
            ob.location.z += 0.01
        bpy.context.view_layer.update()
        lines(objects)

    def edited():
        objects[0].gltf_physics.motion.gravity_factor += 0.01  # one stored value changes: one rebuild
        lines(objects)

    lines(objects)
    segments = sum(len(v) for v in lines(objects).values()) // 2
    print(f"bpy {bpy.app.version_string}, {len(objects)} selected objects, {segments} segments")
    print(f"nothing selected:        {_best(lambda: lines([]), args.repeat) * 1e3:8.3f} ms")
    print(f"first draw (cache empty): {_best(first, args.repeat) * 1e3:8.3f} ms")
    lines(objects)
    print(f"redraw, no change:        {_best(lambda: lines(objects), args.repeat) * 1e3:8.3f} ms")
    print(f"redraw, all bodies moved: {_best(moved, args.repeat) * 1e3:8.3f} ms")
    print(f"redraw, one value edited: {_best(edited, args.repeat) * 1e3:8.3f} ms")


if __name__ == "__main__":
    main()
