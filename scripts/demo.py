"""`make demo`: import a physics scene into Blender with the extension installed, export it back, summarise.

Usage: python -P scripts/demo.py [IN.gltf] [--out OUT.gltf]
"""

from __future__ import annotations

import argparse
import json
import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import devkit

PHYSICS = ("KHR_physics_rigid_bodies", "OMI_physics_body", "OMI_physics_joint")


def json_summary(doc: dict) -> dict[str, int]:
    """Count physics objects in a glTF JSON document (any revision)."""
    counts = {"motion": 0, "collider": 0, "trigger": 0, "joint": 0}
    for node in doc.get("nodes", []):
        for name in PHYSICS:
            ext = (node.get("extensions") or {}).get(name) or {}
            for key in counts:
                counts[key] += key in ext
            counts["joint"] += name == "OMI_physics_joint" and bool(ext)
    root = doc.get("extensions") or {}
    shapes = [
        s
        for n in ("KHR_implicit_shapes", "KHR_collision_shapes", "OMI_physics_shape")
        for s in (root.get(n) or {}).get("shapes", [])
    ]
    counts["shapes"] = len(shapes)
    return counts


def blender_summary(scene) -> dict[str, int]:
    """Count what the import created in Blender."""
    bodies = [ob for ob in scene.objects if ob.rigid_body is not None]
    return {
        "active bodies": sum(ob.rigid_body.type == "ACTIVE" for ob in bodies),
        "passive bodies": sum(ob.rigid_body.type == "PASSIVE" for ob in bodies),
        "constraints": sum(ob.rigid_body_constraint is not None for ob in scene.objects),
        "objects": len(scene.objects),
    }


def _line(title: str, counts: dict[str, int]) -> str:
    return f"{title:<22}" + ", ".join(f"{k} {v}" for k, v in counts.items())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("source", nargs="?", default=str(devkit.ROOT / "examples" / "demo_scene.gltf"))
    parser.add_argument("--out", default=str(devkit.ROOT / "dist" / "demo_export.gltf"))
    args = parser.parse_args(argv)
    source, out = pathlib.Path(args.source), pathlib.Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)

    addon, _ = devkit.start_installed("gltf_physics_demo_")
    from importlib import import_module

    import bpy

    hooks = import_module(addon.__name__ + ".io.hooks")
    bpy.ops.wm.read_homefile(use_factory_startup=True, use_empty=True)
    bpy.ops.import_scene.gltf(filepath=str(source))
    scene = bpy.context.scene
    imported = blender_summary(scene)
    bpy.ops.export_scene.gltf(filepath=str(out), export_format="GLTF_SEPARATE")
    revision = scene.gltf_physics.export_revision

    print(f"glTF Physics {addon.__version__} demo on Blender {bpy.app.version_string}")
    print(_line("in   " + source.name, json_summary(json.loads(source.read_text()))))
    print(_line("Blender scene", imported))
    print(_line("out  " + out.name, json_summary(json.loads(out.read_text()))) + f"  ({revision})")
    for kind in ("import", "export"):
        report = hooks.last_report(kind)
        diagnostics = report.diagnostics if report else []
        counts = ", ".join(f"{k} {v}" for k, v in sorted(report.counts.items())) if report else ""
        print(f"{kind} report: {len(diagnostics)} message(s); {counts}")
        for diag in diagnostics[:20]:
            print("  ", diag)
    check = import_module(addon.__name__ + ".io.check.job")  # the scene simulated, as `gltf-physics check` does
    summary = import_module(addon.__name__ + ".io.check.output").summary_lines(check.check_scene(scene, 120))
    print("check:", *summary, sep="\n")
    written = sorted(p.name for p in out.parent.iterdir() if p.stem == out.stem)
    print(f"export written to {out.resolve()} ({', '.join(written)})")
    sys.stdout.flush()
    return 0


if __name__ == "__main__":
    import os

    status = main()
    os._exit(status)  # bpy 4.2 may crash at interpreter exit after a glTF export
