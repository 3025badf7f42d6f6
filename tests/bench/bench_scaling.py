"""Benchmark (not a test): time and peak memory of validate, migrate and import on large generated files.

Run: ``.venv/bin/python -P tests/bench/bench_scaling.py [--cases NAME ...] [--stages STAGE ...] [--size N] [--quick]
[--json PATH]``

Scenes come from ``tests/scaling_scenes.py``: ``shapes`` (N static box colliders), ``joints`` (N hinge joints, 2N
bodies), ``drives`` / ``omi_drives`` (one joint with N velocity drives), ``limits`` (one joint with N limits),
``filters`` (N bodies, each with its own collision filter), ``moving`` (N bodies with an initial velocity) and
``chain`` (an N-deep node chain with bodies below it); ``node_colliders`` (N colliders whose ``geometry.node`` is
the head of an N-node chain without a mesh) and ``mesh_chain`` (an N-node chain of meshes, each with a collider
naming its own node) ask subtree questions once per collider. Each case runs in its own Python process (so peak memory
is that case's alone): the process reads the file,
runs one stage and reports the stage's wall time and the process's peak resident memory
(``VmHWM`` of ``/proc/self/status``, which includes the interpreter, numpy, Blender and the parsed JSON; the
``base`` column is the peak before the stage). Stages: ``validate`` (``validate_gltf``), ``migrate`` (to the KHR
2026 revision) and ``import`` (``bpy.ops.import_scene.gltf`` with the extension installed from a freshly built zip,
as users install it; ``import-plain`` is the same file with the physics import switched off; ``blender-floor``
creates N MOTOR constraint Empties with bpy alone: what one helper per drive, the mapping before issue 11, cost).
"""

from __future__ import annotations

import argparse
import json
import pathlib
import resource
import subprocess
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests"))  # testkit and scaling_scenes; the repository root never goes on sys.path

import scaling_scenes  # noqa: E402

# (scene, size, stage); the import sizes are smaller where Blender itself needs minutes for the objects
CASES = [
    *[
        (scene, 100_000, stage)
        for scene in ("shapes", "joints", "drives", "limits", "filters")
        for stage in ("validate", "migrate")
    ],
    ("omi_drives", 100_000, "validate"),
    ("omi_drives", 100_000, "migrate"),
    ("chain", 10_000, "validate"),
    ("chain", 10_000, "migrate"),
    ("chain", 64_000, "validate"),
    ("chain", 64_000, "migrate"),
    *[  # colliders naming one mesh-less subtree; colliders on a chain of meshes, each naming its own node
        (scene, 20_000, stage) for scene in ("node_colliders", "mesh_chain") for stage in ("validate", "migrate")
    ],
    ("drives", 100_000, "import"),
    ("omi_drives", 100_000, "import"),
    ("drives", 100_000, "blender-floor"),  # the same number of MOTOR Empties made with bpy alone
    ("filters", 10_000, "import"),
    ("filters", 10_000, "import-plain"),
    ("shapes", 10_000, "import"),
    ("shapes", 10_000, "import-plain"),
    ("moving", 10_000, "import"),  # the initial-velocity pre-roll of every body
    ("shapes_empty", 2_000, "import"),  # the Empty → mesh object replacement path (Blender's batch_remove)
    ("shapes_empty", 4_000, "import"),
    ("shapes_empty", 8_000, "import"),
    ("joints", 5_000, "import"),
    ("limits", 100_000, "import"),
    ("chain", 400, "import"),  # 400 deep with 5,000 bodies (the case)
    ("chain", 400, "import-plain"),
]
CHAIN_BODIES = {400: 5000}
QUICK = 1000  # --quick: every case at this size (a smoke run of the script itself)


def peak_mib() -> float:
    """This process's peak resident memory: ``VmHWM`` (Linux; ``ru_maxrss`` would carry the parent's peak over
    ``execve``), else ``getrusage``."""
    try:
        for line in pathlib.Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024  # kB
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # Linux: KiB (macOS: bytes)


def scene(name: str, size: int) -> dict:
    if name == "chain":
        return scaling_scenes.chain(size, CHAIN_BODIES.get(size, 1))
    return scaling_scenes.SCENES[name](size)


def blender_floor(count: int) -> dict:
    """What Blender alone needs for ``count`` MOTOR constraint Empties between two bodies (data API, no extension,
    no file), including the view-layer update the glTF importer runs at the end: the floor of a joint with
    ``count`` velocity drives before one MOTOR stood for all drives of a (type, axis)."""
    import bpy

    bpy.ops.wm.read_homefile(use_factory_startup=True, use_empty=True)
    base = peak_mib()
    start = time.perf_counter()
    scene = bpy.context.scene
    bpy.ops.rigidbody.world_add()
    world = scene.rigidbody_world
    world.collection = bpy.data.collections.new("RigidBodyWorld")
    world.constraints = bpy.data.collections.new("RigidBodyConstraints")
    bodies = []
    for name in ("A", "B"):
        ob = bpy.data.objects.new(name, bpy.data.meshes.new(name))
        scene.collection.objects.link(ob)
        world.collection.objects.link(ob)
        bodies.append(ob)
    width = len(str(count - 1))
    for i in range(count):
        empty = bpy.data.objects.new(f"J.motor{i:0{width}d}", None)
        scene.collection.objects.link(empty)
        world.constraints.objects.link(empty)
        c = empty.rigid_body_constraint
        c.type, c.object1, c.object2, c.use_motor_ang = "MOTOR", bodies[0], bodies[1], True
    bpy.context.view_layer.update()
    seconds = time.perf_counter() - start
    counts = {"objects": len(scene.objects)}
    return {
        "seconds": seconds,
        "peak_mib": peak_mib(),
        "base_mib": base,
        "counts": counts,
        "bpy": bpy.app.version_string,
    }


def run_one(path: pathlib.Path, stage: str) -> dict:
    """In the child process: one stage on one file (``blender-floor``: the file's name holds the count)."""
    if stage == "blender-floor":
        return blender_floor(int(path.stem.rsplit("_", 1)[1]))
    if stage.startswith("import"):
        sys.path.insert(0, str(ROOT / "scripts"))
        import devkit

        addon, _user = devkit.start_installed("gltf_physics_bench_")
        import bpy

        bpy.ops.wm.read_homefile(use_factory_startup=True, use_empty=True)
        devkit.enable()
        bpy.context.scene.gltf_physics.import_physics = stage == "import"
        base = peak_mib()
        start = time.perf_counter()
        assert bpy.ops.import_scene.gltf(filepath=str(path)) == {"FINISHED"}
        seconds = time.perf_counter() - start
        hooks = sys.modules[addon.__name__ + ".io.hooks"]
        report = hooks.last_report("import") if stage == "import" else None
        counts = dict(report.counts) if report is not None else {}
        counts["objects"] = len(bpy.context.scene.objects)
        return {
            "seconds": seconds,
            "peak_mib": peak_mib(),
            "base_mib": base,
            "counts": counts,
            "bpy": bpy.app.version_string,
        }
    from testkit import submodule

    validate_gltf = submodule("io.gltf.validate.document").validate_gltf
    migrate = submodule("io.gltf.migrate").migrate
    gltf = json.loads(path.read_text(encoding="utf-8"))
    base = peak_mib()
    start = time.perf_counter()
    if stage == "validate":
        diagnostics = validate_gltf(gltf)
        counts = {"errors": sum(d.severity.name == "ERROR" for d in diagnostics), "diagnostics": len(diagnostics)}
    else:
        out, diagnostics = migrate(gltf, "2026")
        counts = {"errors": sum(d.severity.name == "ERROR" for d in diagnostics), "nodes": len(out.get("nodes", []))}
    seconds = time.perf_counter() - start
    return {"seconds": seconds, "peak_mib": peak_mib(), "base_mib": base, "counts": counts}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", nargs="*", help="scene names (default: all)")
    parser.add_argument("--stages", nargs="*", help="validate, migrate, import, import-plain (default: all)")
    parser.add_argument("--quick", action="store_true", help=f"every case at size {QUICK}")
    parser.add_argument("--size", type=int, help="every case at this size instead (chain: its depth)")
    parser.add_argument("--json", type=pathlib.Path, help="also write the results here")
    parser.add_argument("--one", nargs=2, metavar=("FILE", "STAGE"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one:
        print(json.dumps(run_one(pathlib.Path(args.one[0]), args.one[1])))
        return
    results, seen = [], set()
    with tempfile.TemporaryDirectory(prefix="gltf_physics_scaling_") as tmp:
        for name, size, stage in CASES:
            if (args.cases and name not in args.cases) or (args.stages and stage not in args.stages):
                continue
            size = args.size or (min(size, QUICK) if args.quick else size)
            if (name, size, stage) in seen:
                continue
            seen.add((name, size, stage))
            path = pathlib.Path(tmp) / f"{name}_{size}.gltf"
            if not path.exists():
                path.write_text(json.dumps(scene(name, size)), encoding="utf-8")
            done = subprocess.run(
                [sys.executable, "-P", __file__, "--one", str(path), stage], capture_output=True, text=True, check=False
            )
            line = done.stdout.strip().splitlines()[-1] if done.returncode == 0 and done.stdout.strip() else ""
            result = json.loads(line) if line.startswith("{") else {"error": done.stderr.strip()[-400:]}
            result.update(scene=name, size=size, stage=stage, mib_file=round(path.stat().st_size / 2**20, 1))
            results.append(result)
            if "error" in result:
                print(f"{name:>10} {size:>7} {stage:<12} FAILED: {result['error']}", flush=True)
            else:
                print(
                    f"{name:>10} {size:>7} {stage:<12} {result['seconds']:8.2f} s  peak {result['peak_mib']:7.0f} MiB"
                    f"  (base {result['base_mib']:5.0f})  file {result['mib_file']} MiB  {result['counts']}",
                    flush=True,
                )
    if args.json:
        args.json.write_text(json.dumps(results, indent=1), encoding="utf-8")


if __name__ == "__main__":
    main()
