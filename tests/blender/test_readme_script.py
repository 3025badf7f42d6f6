"""The README's script example runs as printed: it enables the extension, imports with physics, reads the import's
report, picks another export revision and exports. Only the file names are replaced by real ones."""

from __future__ import annotations

import json
import pathlib
import re

import bpy

ROOT = pathlib.Path(__file__).resolve().parents[2]


def readme_script() -> str:
    blocks = re.findall(r"```python\n(.*?)```", (ROOT / "README.md").read_text(encoding="utf-8"), re.DOTALL)
    assert len(blocks) == 1, "the README has one script example"
    return blocks[0]


def test_the_readme_script_imports_and_exports_in_the_chosen_revision(clean, tmp_path, capsys):
    script = readme_script()
    source = ROOT / "examples" / "demo_scene.gltf"
    output = tmp_path / "out" / "level.gltf"
    output.parent.mkdir()
    script = script.replace('"level.gltf"', repr(str(source))).replace('"out/level.gltf"', repr(str(output)))
    exec(compile(script, "README.md", "exec"), {})
    assert any(obj.rigid_body for obj in bpy.context.scene.objects)
    written = json.loads(output.read_text(encoding="utf-8"))
    assert "KHR_physics_rigid_bodies" in written["extensionsUsed"]
    # 2024-10 writes shapes as KHR_implicit_shapes referenced by geometry.node, not 2026's geometry.shape on meshes
    assert "KHR_implicit_shapes" in written["extensionsUsed"]
    geometries = [
        node["extensions"]["KHR_physics_rigid_bodies"]["collider"]["geometry"]
        for node in written["nodes"]
        if "collider" in node.get("extensions", {}).get("KHR_physics_rigid_bodies", {})
    ]
    assert geometries and any("node" in geometry or "shape" in geometry for geometry in geometries)
    assert bpy.context.scene.gltf_physics.export_revision == "2024-10"
