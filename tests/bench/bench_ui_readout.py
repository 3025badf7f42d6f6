"""Cost of the Body panel's mass read-out (ui.body.body_shapes.body_mass) per redraw, headless.

Run: .venv/bin/python -P tests/bench/bench_ui_readout.py [--repeat N]
Builds the extension zip like the Blender test tier, installs it into a temporary user folder, then times
body_mass on a primitive body, an imported compound body, and convex-hull / triangle-mesh bodies of growing size.
"""

from __future__ import annotations

import argparse
import importlib
import pathlib
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))
import devkit  # noqa: E402

devkit.isolate_user_resources(pathlib.Path(tempfile.mkdtemp(prefix="gltf_physics_bench_")))
import bpy  # noqa: E402


def _best(fn, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.process_time()
        fn()
        times.append(time.process_time() - start)
    return min(times)


def _sphere(name: str, subdivisions: int, shape: str):
    import bmesh

    bm = bmesh.new()
    bmesh.ops.create_icosphere(bm, subdivisions=subdivisions, radius=1.0)
    mesh = bpy.data.meshes.new(name)
    bm.to_mesh(mesh)
    bm.free()
    ob = bpy.data.objects.new(name, mesh)
    bpy.context.scene.collection.objects.link(ob)
    bpy.context.scene.rigidbody_world.collection.objects.link(ob)
    ob.rigid_body.collision_shape = shape
    return ob


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    addon = devkit.install_and_enable(devkit.build(pathlib.Path(tempfile.mkdtemp()) / "dist"))
    shapes = importlib.import_module(addon.__name__ + ".ui.body.body_shapes")
    bpy.ops.wm.read_homefile(use_factory_startup=True, use_empty=True)
    devkit.enable()
    bpy.ops.import_scene.gltf(filepath=str(ROOT / "tests/fixtures/import/compound.gltf"))
    rbw = bpy.context.scene.rigidbody_world
    if rbw.collection is None:
        rbw.collection = bpy.data.collections.new("RigidBodyWorld")
    rows = [("compound body (file box + proxy sphere)", bpy.data.objects["Cart"])]
    rows.append(("primitive body (file box)", bpy.data.objects["Passenger"]))
    for level in (3, 5, 6):
        for shape in ("CONVEX_HULL", "MESH"):
            ob = _sphere(f"ico{level}_{shape}", level, shape)
            rows.append((f"{shape.lower()} icosphere, {len(ob.data.vertices)} vertices", ob))
    print(f"bpy {bpy.app.version_string}, best of {args.repeat} (process time); first = empty hull cache")
    print(f"  {'body':48s} {'first':>9s}    {'redraw':>9s}")

    def first(ob):
        shapes._HULLS.clear()
        shapes.body_mass(ob, 1000.0, 10**9)

    for label, ob in rows:
        cold = _best(lambda ob=ob: first(ob), args.repeat)
        warm = _best(lambda ob=ob: shapes.body_mass(ob, 1000.0, 10**9), args.repeat)
        print(f"  {label:48s} {cold * 1e3:9.2f} ms {warm * 1e3:9.2f} ms")


if __name__ == "__main__":
    main()
