"""Tool (not a test): export a fixed set of scenes into a folder, so two versions of the exporter can be compared byte
for byte (issue 14: every export speed-up must keep the written files identical).

Run: ``.venv/bin/python -P tests/bench/export_golden.py OUT_DIR [--big 2000]``, once with the old code and once with
the new, then ``diff -r OLD_DIR NEW_DIR`` (no output = identical). Writes, for every case, ``<case>.gltf`` / ``.bin``
and ``<case>.report.json`` (the export report's counts and diagnostics, in order):

* every ``tests/fixtures`` glTF file, ``examples/demo_scene.gltf`` and the physics files of the public corpus
  (``../shared/corpus``, or ``$GLTF_PHYSICS_SHARED/corpus``), imported with physics and exported in each revision
  (2026, 2024-10, 2024-07, omi);
* the imported joint fixtures with every constraint Empty nudged (joints written from the Blender constraints);
* the natively authored bench scene (``native_scene.py``) at 60 bodies in each revision, and at ``--big`` bodies;
* a native scene of edge cases: compound parent with children, mesh / convex hull colliders, animated passive,
  kinematic, disabled, damping / margin / deactivation settings, collision collections, a GLB export.
"""

from __future__ import annotations

import argparse
import json
import os
import pathlib
import sys

HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(ROOT / "scripts"))  # devkit only; never the repository root
sys.path.insert(0, str(HERE))
import native_scene  # noqa: E402

import devkit  # noqa: E402

REVISIONS = ("2026", "2024-10", "2024-07", "omi")
CORPUS = pathlib.Path(os.environ.get("GLTF_PHYSICS_SHARED", ROOT.parent / "shared")) / "corpus"
CORPUS_WORDS = ("physics", "collider", "joint", "rigidbodies", "trigger")


def inputs() -> list[pathlib.Path]:
    files = [*sorted((ROOT / "tests" / "fixtures").rglob("*.gltf")), ROOT / "examples" / "demo_scene.gltf"]
    corpus = sorted(CORPUS.rglob("*.gltf")) if CORPUS.is_dir() else []
    files += [
        p
        for p in corpus
        if p.stat().st_size < 300_000
        and "validator" not in str(p).lower()
        and any(w in str(p).lower() for w in CORPUS_WORDS)
    ]
    return files


def export(out: pathlib.Path, case: str, revision: str, addon, fmt: str = "GLTF_SEPARATE") -> None:
    import bpy

    settings = bpy.context.scene.gltf_physics
    settings.export_revision = revision
    settings.export_physics = True
    suffix = ".glb" if fmt == "GLB" else ".gltf"
    path = out / f"{case}.{revision}{suffix}"
    bpy.ops.export_scene.gltf(filepath=str(path), export_format=fmt)
    report = __import__(f"{addon.__name__}.io.hooks", fromlist=["last_report"]).last_report("export")
    data = {
        "counts": dict(report.counts),
        "diagnostics": [[int(d.severity), d.code, d.pointer, d.message] for d in report.diagnostics],
    }
    (out / f"{case}.{revision}.report.json").write_text(json.dumps(data, indent=1, sort_keys=True))


def clean() -> None:
    import bpy

    bpy.ops.wm.read_homefile(use_factory_startup=True, use_empty=True)


def edge_scene() -> None:
    """Native bodies and constraints covering the exporter's branches."""
    import bpy

    native_scene.build(12)
    scene = bpy.context.scene
    rbw = scene.rigidbody_world
    bodies = sorted((ob for ob in scene.objects if ob.rigid_body is not None), key=lambda o: o.name)
    a, b, c, d, e, f = bodies[:6]
    a.rigid_body.linear_damping, a.rigid_body.use_margin, a.rigid_body.collision_margin = 0.3, True, 0.1
    b.rigid_body.use_deactivation, b.rigid_body.enabled = True, False
    c.rigid_body.type, c.rigid_body.kinematic = "PASSIVE", True
    d.rigid_body.kinematic = True
    e.rigid_body.collision_shape = "MESH"
    f.rigid_body.collision_collections[3] = True
    e.rigid_body.collision_collections[0] = False
    e.rigid_body.collision_collections[5] = True
    e.scale = (2.0, 1.0, 0.5)
    parent = bodies[6]
    parent.rigid_body.collision_shape = "COMPOUND"
    for child in bodies[7:9]:
        child.parent = parent
        child.matrix_parent_inverse = parent.matrix_world.inverted()
    bodies[9].rigid_body.type = "PASSIVE"
    bodies[9].rigid_body.mass = 0.25
    empties = sorted(rbw.constraints.objects, key=lambda o: o.name)
    empties[0].rigid_body_constraint.use_breaking = True
    empties[1].rigid_body_constraint.use_override_solver_iterations = True
    empties[2].rigid_body_constraint.enabled = False
    empties[3].rigid_body_constraint.object2 = None
    empties[4].rigid_body_constraint.use_motor_ang = True
    plain = bpy.data.objects.new("NoPhysics", bpy.data.meshes["box"])
    scene.collection.objects.link(plain)
    bpy.context.view_layer.update()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=pathlib.Path)
    parser.add_argument("--big", type=int, default=2000, help="bodies of the large native scene (0 = none)")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    addon, _user = devkit.start_installed("gltf_physics_golden_")
    import bpy

    for path in inputs():
        inside = path.relative_to(CORPUS if path.is_relative_to(CORPUS) else ROOT)  # the same names in any checkout
        case = str(inside).replace("/", "__").removesuffix(".gltf")
        clean()
        bpy.context.scene.gltf_physics.import_physics = True
        try:
            bpy.ops.import_scene.gltf(filepath=str(path))
        except RuntimeError:  # a malformed fixture: nothing to export
            continue
        for revision in REVISIONS:
            export(args.out, case, revision, addon)
        if "joints" in path.parts:
            for ob in bpy.context.scene.objects:
                if ob.rigid_body_constraint is not None:
                    ob.location.z += 0.01
            bpy.context.view_layer.update()
            export(args.out, case + "__nudged", "2026", addon)
    native_scene.build(60)
    for revision in REVISIONS:
        export(args.out, "native60", revision, addon)
    edge_scene()
    for revision in REVISIONS:
        export(args.out, "edges", revision, addon)
    export(args.out, "edges_glb", "2026", addon, "GLB")
    if args.big:
        native_scene.build(args.big)
        export(args.out, f"native{args.big}", "2026", addon)
    print(f"{len(list(args.out.iterdir()))} files in {args.out}")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
    os._exit(0)  # bpy 4.2 may crash at interpreter exit after a glTF export
