"""Benchmark (not a test): physics import cost on a 2,000-body / 1,000-joint glTF.

Run: ``.venv/bin/python -P tests/bench/bench_import.py [--bodies 2000 | --sizes 1000 2000 4000 10000] [--runs 5]
[--budget 10] [--scene generated|generated-empties|native|native-empties] [--profile [--sort tottime]] [--collect]
[--gc-stats]``

``--scene native`` (issue 14) imports the file Blender writes for the natively authored scene of
``native_scene.py`` (five shapes, six constraint types); ``native-empties`` the same file with its bodies on Empties.
``--sizes`` measures each size in the same process and ends with a markdown table (runs, ratio, added time per body).
Each size gets ``--runs`` interleaved runs, then more while it has taken fewer than ``--budget`` seconds (10; at most
25 runs): a small scene's added time is a difference of two short minima, the noisiest, and its runs are cheap.

Builds the extension zip with Blender's CLI, installs it into a temporary user folder (as the test tier does),
writes one generated file (a shared box mesh on every body node; physics listed in ``extensionsUsed`` only, so the
plain importer reads it too) and imports it alternately with ``scene.gltf_physics.import_physics`` off (plain
Blender glTF import; our hooks return at once) and on, each after an untimed ``gc.collect()`` (so no import pays for
the previous one's garbage). Reports the best of ``--runs`` of each and the ratio. ``--collect`` also times a full
``gc.collect()`` right after each import: the collector work an import leaves to the session. The steps timed in
the physics runs: parsing (``parse_gltf`` as ``importer.pipeline`` calls it in ``ImportRun.read``), the world, the
bodies, the filters and the joints, plus our two import hooks and Blender's depsgraph update. The ratios with the
same collector treatment on both sides (none, or a ``gc.collect()`` before each run), medians of interleaved pairs and
our hooks' CPU time: ``bench_fair.py`` (docs/benchmarks.md); this script is for the breakdown (steps, sizes,
profiles).
"""

from __future__ import annotations

import argparse
import base64
import cProfile
import gc
import importlib
import json
import pathlib
import pstats
import struct
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))  # devkit only; never the repository root
sys.path.insert(0, str(ROOT / "tests" / "bench"))
import native_scene  # noqa: E402
from timers import add_timer  # noqa: E402

import devkit  # noqa: E402

KINDS = (
    [{"linearAxes": [0, 1, 2], "min": 0.0, "max": 0.0}, {"angularAxes": [0, 1, 2], "min": 0.0, "max": 0.0}],
    [{"linearAxes": [0, 1, 2], "min": 0.0, "max": 0.0}, {"angularAxes": [1, 2], "min": 0.0, "max": 0.0}],
    [
        {"linearAxes": [0, 2], "min": 0.0, "max": 0.0},
        {"angularAxes": [0, 1, 2], "min": 0.0, "max": 0.0},
        {"linearAxes": [1], "min": -0.5, "max": 0.5},
    ],
    [{"linearAxes": [0, 1, 2], "min": 0.0, "max": 0.0}],
    [{"linearAxes": [0, 1, 2], "min": 0.0, "max": 0.3}, {"angularAxes": [0, 2], "max": 0.4}],
)
DRIVE = {"type": "angular", "mode": "force", "axis": 0, "velocityTarget": 1.0, "damping": 2.0}


def cube_buffer() -> tuple[str, int]:
    """A unit cube (8 positions + 36 indices) as a data URI and its byte length."""
    positions = [(x, y, z) for x in (-0.5, 0.5) for y in (-0.5, 0.5) for z in (-0.5, 0.5)]
    faces = [(0, 1, 3, 2), (4, 6, 7, 5), (0, 4, 5, 1), (2, 3, 7, 6), (0, 2, 6, 4), (1, 5, 7, 3)]
    indices = [i for a, b, c, d in faces for i in (a, b, c, a, c, d)]
    data = b"".join(struct.pack("<3f", *p) for p in positions) + struct.pack(f"<{len(indices)}H", *indices)
    return "data:application/octet-stream;base64," + base64.b64encode(data).decode(), len(data)


def make_scene(bodies: int, empties: bool = False) -> dict:
    """``bodies`` box bodies in pairs; each pair is joined by one joint (so bodies / 2 joints).

    ``empties``: the body nodes have no render mesh (they import as Empties and are replaced by mesh objects
    holding the shared box proxy mesh) instead of the shared cube mesh.
    """
    uri, length = cube_buffer()
    nodes, roots, joints = [], [], []
    for pair in range(bodies // 2):
        x, z = (pair % 50) * 3.0, (pair // 50) * 3.0
        a, frame_a, b, frame_b = len(nodes), len(nodes) + 1, len(nodes) + 2, len(nodes) + 3
        kind = pair % (len(KINDS) + 1)
        description = {"limits": KINDS[kind % len(KINDS)]}
        if kind == len(KINDS):
            description["drives"] = [DRIVE]
        joints.append(description)
        motion = {"motion": {"mass": 1.0}} if pair % 2 else {}
        collider = {"collider": {"geometry": {"shape": 0}}}
        mesh = {} if empties else {"mesh": 0}
        nodes += [
            {
                "name": f"A{pair}",
                **mesh,
                "translation": [x, 1.0, z],
                "children": [frame_a],
                "extensions": {"KHR_physics_rigid_bodies": {**motion, **collider}},
            },
            {
                "name": f"J{pair}",
                "translation": [0.0, 0.75, 0.0],
                "extensions": {"KHR_physics_rigid_bodies": {"joint": {"connectedNode": frame_b, "joint": pair}}},
            },
            {
                "name": f"B{pair}",
                **mesh,
                "translation": [x, 2.5, z],
                "children": [frame_b],
                "extensions": {"KHR_physics_rigid_bodies": {"motion": {"mass": 1.0}, **collider}},
            },
            {"name": f"F{pair}", "translation": [0.0, -0.75, 0.0]},
        ]
        roots += [a, b]
    return {
        "asset": {"version": "2.0", "generator": "gltf_physics tests/bench/bench_import.py"},
        "extensionsUsed": ["KHR_physics_rigid_bodies", "KHR_implicit_shapes"],
        "extensions": {
            "KHR_physics_rigid_bodies": {"physicsJoints": joints},
            "KHR_implicit_shapes": {"shapes": [{"type": "box", "box": {"size": [1.0, 1.0, 1.0]}}]},
        },
        "buffers": [{"uri": uri, "byteLength": length}],
        "bufferViews": [
            {"buffer": 0, "byteOffset": 0, "byteLength": 96, "target": 34962},
            {"buffer": 0, "byteOffset": 96, "byteLength": 72, "target": 34963},
        ],
        "accessors": [
            {
                "bufferView": 0,
                "componentType": 5126,
                "count": 8,
                "type": "VEC3",
                "min": [-0.5, -0.5, -0.5],
                "max": [0.5, 0.5, 0.5],
            },
            {"bufferView": 1, "componentType": 5123, "count": 36, "type": "SCALAR"},
        ],
        "meshes": [{"primitives": [{"attributes": {"POSITION": 0}, "indices": 1}]}],
        "scene": 0,
        "scenes": [{"nodes": roots}],
        "nodes": nodes,
    }


STEPS = {  # module → function of the installed extension timed separately in the physics runs
    "io.importer.pipeline": "parse_gltf",  # ImportRun.read
    "io.importer.world": "ensure_world",  # runs in gather_import_gltf_before_hook (create_world_early)
    "io.importer.bodies": "build",
    "io.importer.filters": "apply",
    "io.importer.joints": "build",
}


def time_steps(package: str) -> dict[str, float]:
    """Wrap the extension's step functions so each import accumulates their wall time into the returned dict."""
    spent: dict[str, float] = {}
    for module_name, function in STEPS.items():
        module = importlib.import_module(f"{package}.{module_name}")
        add_timer(module, function, spent, f"{module_name}.{function}", clock=time.perf_counter)
    return spent


def time_hooks(package: str, spent: dict[str, float]) -> None:
    """Also time our two import hooks and the depsgraph update Blender runs before selecting the imported objects
    (``bpy.ops.object.select_all`` updates the view layer first: done here explicitly, so it is measured)."""
    import bpy

    hooks = importlib.import_module(f"{package}.io.hooks").GltfPhysicsImport
    for name in ("gather_import_gltf_before_hook", "gather_import_scene_after_nodes_hook"):
        original = getattr(hooks, name)

        def timed(self, *args, _original=original, _key=f"hook {name}"):
            start = time.perf_counter()
            try:
                return _original(self, *args)
            finally:
                spent[_key] = spent.get(_key, 0.0) + time.perf_counter() - start

        setattr(hooks, name, timed)
    try:
        from io_scene_gltf2.blender.imp import scene as scene_module  # 4.3+
    except ImportError:
        from io_scene_gltf2.blender.imp import gltf2_blender_scene as scene_module  # 4.2
    select = scene_module.BlenderScene.select_imported_objects

    def timed_select(gltf):
        start = time.perf_counter()
        bpy.context.view_layer.update()
        spent["blender depsgraph update"] = time.perf_counter() - start
        select(gltf)

    scene_module.BlenderScene.select_imported_objects = staticmethod(timed_select)


PASSES = native_scene.FullPasses()  # the collector's full passes of the last import (printed with --gc-stats)


def import_once(
    bpy,
    path: pathlib.Path,
    physics: bool,
    profile: cProfile.Profile | None = None,
    world_first: bool = False,
    collect: bool = False,
) -> float:
    bpy.ops.wm.read_homefile(use_factory_startup=True, use_empty=True)
    devkit.enable()
    if world_first:  # what the import costs when the rigid-body world is created while the scene is still empty
        bpy.ops.rigidbody.world_add()
    bpy.context.scene.gltf_physics.import_physics = physics
    gc.collect()  # every import starts without the previous one's garbage (not timed)
    PASSES.reset()
    start = time.perf_counter()
    if profile is not None:
        profile.enable()
    assert bpy.ops.import_scene.gltf(filepath=str(path)) == {"FINISHED"}
    if profile is not None:
        profile.disable()
    if collect:  # the full collector pass the import leaves to the session, timed too
        gc.collect()
    return time.perf_counter() - start


def measure(
    bpy,
    path: pathlib.Path,
    runs: int,
    spent: dict,
    world_first: bool = False,
    collect: bool = False,
    budget: float = 0.0,
) -> dict:
    """``runs`` (or more within ``budget`` seconds: ``native_scene.repetitions``) interleaved plain / physics imports
    of ``path``: {"plain", "physics", "steps", "plain_steps", "passes"}."""
    out: dict = {"plain": [], "physics": [], "steps": [], "plain_steps": [], "passes": []}
    for _ in native_scene.repetitions(runs, budget):
        spent.clear()
        out["plain"].append(import_once(bpy, path, False, world_first=world_first, collect=collect))
        out["plain_steps"].append(dict(spent))
        out["passes"].append(PASSES.text())
        spent.clear()
        out["physics"].append(import_once(bpy, path, True, world_first=world_first, collect=collect))
        out["steps"].append(dict(spent))
        out["passes"][-1] = f"full collector passes: plain {out['passes'][-1]}, physics {PASSES.text()}"
    return out


def write_scene(user: pathlib.Path, scene: str, bodies: int) -> pathlib.Path:
    """The file to import: ``generated`` (make_scene, boxes, optionally on Empties) or the natively authored
    scene of ``native_scene`` exported with physics (``native`` / ``native-empties``)."""
    path = user / f"bench_{scene}_{bodies}.gltf"
    if scene.startswith("native"):
        native_scene.write_file(bodies, path, empties=scene == "native-empties")
    else:
        path.write_text(json.dumps(make_scene(bodies, scene == "generated-empties")), encoding="utf-8")
    return path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bodies", type=int, default=2000)
    parser.add_argument("--sizes", type=int, nargs="+", help="several body counts: one markdown table row each")
    parser.add_argument("--runs", type=int, default=5, help="runs per size, at least")
    parser.add_argument(
        "--budget", type=float, default=10.0, help="more runs while a size took fewer seconds (0: none)"
    )
    parser.add_argument(
        "--scene", choices=("generated", "generated-empties", "native", "native-empties"), default="generated"
    )
    parser.add_argument("--empties", action="store_true", help="= --scene generated-empties (replacement path)")
    parser.add_argument("--profile", action="store_true", help="print the top functions of one physics import")
    parser.add_argument("--sort", default="cumulative", help="profile order: cumulative, tottime, ...")
    parser.add_argument("--world-first", action="store_true", help="add the rigid-body world before each import")
    parser.add_argument("--collect", action="store_true", help="also time a full gc.collect() after each import")
    parser.add_argument("--gc-stats", action="store_true", help="time of full collector passes in each import")
    args = parser.parse_args()
    if args.empties:
        args.scene = "generated-empties"
    addon, user = devkit.start_installed("gltf_physics_bench_")
    import bpy

    spent = time_steps(addon.__name__)
    time_hooks(addon.__name__, spent)
    rows = []
    for bodies in args.sizes or [args.bodies]:
        path = write_scene(user, args.scene, bodies)
        if args.gc_stats:
            PASSES.start()
        result = measure(bpy, path, args.runs, spent, args.world_first, args.collect, args.budget)
        if args.gc_stats:
            PASSES.stop()
            print("\n".join(result["passes"]))
        plain, physics, steps = result["plain"], result["physics"], result["steps"]
        rows.append({"bodies": bodies, **result})
        scene = bpy.context.scene
        report = sys.modules[addon.__name__ + ".io.hooks"].last_report("import")
        n_bodies = sum(1 for ob in scene.objects if ob.rigid_body)
        constraints = sum(1 for ob in scene.objects if ob.rigid_body_constraint)
        print(f"bpy {bpy.app.version_string}; {args.scene} scene of {bodies} bodies: {n_bodies} rigid bodies, ")
        print(f"  {constraints} constraints, {len(scene.objects)} objects, counts {report.counts}")
        print(f"plain glTF import (physics off): best {min(plain):.3f} s  runs {[round(t, 3) for t in plain]}")
        print(f"with physics import:             best {min(physics):.3f} s  runs {[round(t, 3) for t in physics]}")
        print(f"ratio: {min(physics) / min(plain):.2f}x  (physics part: {min(physics) - min(plain):.3f} s)")
        best = steps[physics.index(min(physics))]
        print("steps of the best physics run: " + ", ".join(f"{k} {v:.3f} s" for k, v in best.items()))
        best_plain = result["plain_steps"][plain.index(min(plain))]
        print("best plain run: " + ", ".join(f"{k} {v:.3f} s" for k, v in best_plain.items() if not k.startswith("h")))
        sys.stdout.flush()
    print(f"\nbpy {bpy.app.version_string}, {args.scene} scene, best of the interleaved runs (at least {args.runs}):\n")
    print(native_scene.markdown_table(rows, "import"))
    if args.profile:
        profile = cProfile.Profile()
        import_once(bpy, path, True, profile, args.world_first)
        pstats.Stats(profile).sort_stats(args.sort).print_stats(60)


if __name__ == "__main__":
    main()
