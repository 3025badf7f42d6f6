"""The export does not depend on Reproduce Motion: a file imported with or without its reproduction helpers (centre
of mass carriers, pre-roll Empties) exports the same JSON, nodes in the same order (the file's order for a body a
carrier held: io_scene_gltf2 appends the children of a dropped root to the end of the scene's roots)."""

from __future__ import annotations

import json

import bpy
import pytest

from export_helpers import export
from testkit import FIXTURES

FILES = sorted([*(FIXTURES / "import").glob("*.gltf"), *(FIXTURES / "joints").glob("*.gltf")])
CARRIED = ["import/materials_mass.gltf", "import/replaced.gltf"]  # bodies with a centre of mass (carriers)


def _exported(clean, path, tmp_path, reproduce: bool) -> dict:
    bpy.ops.wm.read_homefile(use_factory_startup=True, use_empty=True)
    bpy.context.scene.gltf_physics.import_reproduce = reproduce
    assert bpy.ops.import_scene.gltf(filepath=str(path)) == {"FINISHED"}
    out = tmp_path / f"reproduce_{int(reproduce)}" / "out.gltf"
    out.parent.mkdir(exist_ok=True)
    written = export(out, "2026")
    written.pop("asset", None)
    return written


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(FIXTURES)))
def test_export_without_reproduction_helpers_is_the_same(clean, path, tmp_path, gltf_errors):
    with_helpers = _exported(clean, path, tmp_path, True)
    without = _exported(clean, path, tmp_path, False)
    gltf_errors.clear()  # malformed.gltf: io_scene_gltf2's own complaints are the import tests' business
    assert json.dumps(with_helpers, sort_keys=True) == json.dumps(without, sort_keys=True)


@pytest.mark.parametrize("name", CARRIED)
def test_carried_bodies_keep_the_file_node_order(clean, name, tmp_path):
    source = json.loads((FIXTURES / name).read_text())
    names = [n.get("name") for n in source["nodes"]]
    exported = _exported(clean, FIXTURES / name, tmp_path, True)
    order = [n.get("name") for n in exported["nodes"]]
    roots = [order[i] for i in exported["scenes"][0]["nodes"]]
    source_roots = [names[i] for i in source["scenes"][0]["nodes"]]
    assert roots == [n for n in source_roots if n in roots]
