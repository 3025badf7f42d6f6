"""Cost of one panel edit (the property ``update`` callbacks of ``ui/sync_*.py``), headless.

Run: .venv/bin/python -P tests/bench/bench_ui_sync.py [--repeat N] [--bodies N]
Builds and installs the extension like the Blender test tier, imports fixtures, then times single assignments:
an explicit mass, a dynamic friction, a hinge limit (re-plan), a velocity target (re-plan + MOTOR helper), a box
size (proxy rebuild) and a filter list in a scene of N extra filtered bodies (re-solve of the collections), plus
the "collides with" read-out (first draw and a cached redraw), and a dynamic friction in a scene of N boxes on a
ground whose friction Reproduce Motion pre-combined (``ui/sync_combine``: the pairs planned again).
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
import devkit  # noqa: E402

devkit.isolate_user_resources(pathlib.Path(tempfile.mkdtemp(prefix="gltf_physics_bench_")))
import bpy  # noqa: E402


def _best(fn, repeat: int) -> float:
    times = []
    for n in range(repeat):
        start = time.perf_counter()
        fn(n)
        times.append(time.perf_counter() - start)
    return min(times)


def _load(name: str) -> None:
    bpy.ops.wm.read_homefile(use_factory_startup=True, use_empty=True)
    devkit.enable()
    bpy.ops.import_scene.gltf(filepath=str(ROOT / "tests/fixtures" / name))


def _extra_bodies(count: int, rbw) -> None:
    """``count`` tetrahedron bodies with a filter each (7 systems)."""
    for i in range(count):
        mesh = bpy.data.meshes.new(f"extra{i}")
        mesh.from_pydata([(0, 0, 0), (1, 0, 0), (0, 1, 0), (0, 0, 1)], [], [(0, 1, 2), (0, 1, 3), (0, 2, 3), (1, 2, 3)])
        ob = bpy.data.objects.new(f"extra{i}", mesh)
        bpy.context.scene.collection.objects.link(ob)
        rbw.collection.objects.link(ob)
        flt = ob.gltf_physics.collider.filter
        flt.has_filter, flt.collision_systems = True, f'["team{i % 7}"]'


def _pre_combined_scene(count: int) -> None:
    """``count`` boxes (a ``minimum`` friction material) on a ground (another material), imported with Reproduce
    Motion: the import pre-combines their friction."""
    rb = "KHR_physics_rigid_bodies"
    nodes = [
        {
            "name": "Ground",
            "translation": [0.0, -0.5, 0.0],
            "extensions": {rb: {"collider": {"geometry": {"shape": 0}, "physicsMaterial": 1}}},
        }
    ]
    for i in range(count):
        physics = {"motion": {"mass": 1.0}, "collider": {"geometry": {"shape": 1}, "physicsMaterial": 0}}
        place = [(i % 40) * 1.2 - 24.0, 0.5 + (i // 40) * 1.1, 0.0]
        nodes.append({"name": f"Box{i}", "translation": place, "extensions": {rb: physics}})
    shapes = [{"type": "box", "box": {"size": [60.0, 1.0, 4.0]}}, {"type": "box", "box": {"size": [1.0, 1.0, 1.0]}}]
    materials = [
        {"staticFriction": 0.2, "dynamicFriction": 0.2, "restitution": 0.0, "frictionCombine": "minimum"},
        {"staticFriction": 0.8, "dynamicFriction": 0.8, "restitution": 0.0},
    ]
    doc = {
        "asset": {"version": "2.0"},
        "extensionsUsed": [rb, "KHR_implicit_shapes"],
        "extensions": {"KHR_implicit_shapes": {"shapes": shapes}, rb: {"physicsMaterials": materials}},
        "nodes": nodes,
        "scenes": [{"nodes": list(range(len(nodes)))}],
        "scene": 0,
    }
    path = pathlib.Path(tempfile.mkdtemp()) / "pre_combined.gltf"
    path.write_text(json.dumps(doc), encoding="utf-8")
    bpy.ops.wm.read_homefile(use_factory_startup=True, use_empty=True)
    devkit.enable()
    bpy.context.scene.gltf_physics.import_reproduce = True
    bpy.ops.import_scene.gltf(filepath=str(path))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=20)
    parser.add_argument("--bodies", type=int, default=200)
    args = parser.parse_args()
    addon = devkit.install_and_enable(devkit.build(pathlib.Path(tempfile.mkdtemp()) / "dist"))
    sync_filters = importlib.import_module(addon.__name__ + ".ui.filters.sync_filters")
    rows = []
    _load("import/materials_mass.gltf")
    full = bpy.data.objects["Full"]
    rows.append(("mass", _best(lambda n: setattr(full.gltf_physics.motion, "mass", 2.0 + n), args.repeat)))
    pmat = full.gltf_physics.collider.material
    rows.append(("dynamic friction", _best(lambda n: setattr(pmat, "dynamic_friction", 0.1 + n / 100), args.repeat)))
    _load("joints/hinge_x_limited.gltf")
    joint = next(ob for ob in bpy.data.objects if ob.gltf_physics.joint.role == "JOINT")
    limit = joint.gltf_physics.joint.limits[-1]
    rows.append(("hinge limit max", _best(lambda n: setattr(limit, "max", 0.4 + n / 100), args.repeat)))
    _load("joints/motor_y.gltf")
    joint = next(ob for ob in bpy.data.objects if ob.gltf_physics.joint.role == "JOINT")
    drive = joint.gltf_physics.joint.drives[0]
    rows.append(("drive velocity", _best(lambda n: setattr(drive, "velocity_target", 1.0 + n), args.repeat)))
    _load("import/empty_bodies.gltf")
    geo = bpy.data.objects["Box"].gltf_physics.collider.geometry
    rows.append(("box size (rebuild)", _best(lambda n: setattr(geo, "shape_size", (1.0 + n, 1.0, 1.0)), args.repeat)))
    _load("joints/filters.gltf")
    ghost = bpy.data.objects["Ghost"]
    rbw = bpy.context.scene.rigidbody_world
    gate = importlib.import_module(addon.__name__ + ".io.mapping.sync_gate")
    with gate.paused():  # building the scene: one re-solve at the end, not one per assignment
        _extra_bodies(args.bodies, rbw)
    rows.append(
        (
            f"filters, {args.bodies + 6} bodies, button",
            _best(lambda n: sync_filters.collections_from_filters(bpy.context.scene), 1),
        )
    )
    texts = ('["ghost"]', '["ghost", "x"]')
    flt = ghost.gltf_physics.collider.filter
    rows.append(
        (
            f"filter list, {args.bodies + 6} bodies",
            _best(lambda n: setattr(flt, "collision_systems", texts[n % 2]), args.repeat),
        )
    )
    sync_filters._CACHE.clear()
    start = time.perf_counter()
    sync_filters.collides_with(ghost)
    rows.append((f"collides-with, first, {args.bodies + 6} bodies", time.perf_counter() - start))
    rows.append(
        (
            f"collides-with, cached, {args.bodies + 6} bodies",
            _best(lambda n: sync_filters.collides_with(ghost), args.repeat),
        )
    )
    _pre_combined_scene(args.bodies)
    box = bpy.data.objects["Box7"].gltf_physics.collider.material
    assert box.reproduced, "the import did not pre-combine the boxes' friction"
    rows.append(
        (
            f"dynamic friction, pre-combined, {args.bodies + 1} bodies",
            _best(lambda n: setattr(box, "dynamic_friction", 0.3 + n / 100), args.repeat),
        )
    )
    print(f"bpy {bpy.app.version_string}, best of {args.repeat} (wall clock)")
    for name, seconds in rows:
        print(f"  {name:40s} {seconds * 1000:8.2f} ms")


if __name__ == "__main__":
    main()
