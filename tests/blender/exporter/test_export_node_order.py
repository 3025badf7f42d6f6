"""The export does not depend on Reproduce Motion: a file imported with or without its reproduction helpers (centre
of mass carriers, pre-roll Empties) exports the same JSON, nodes in the same order (the file's order for a body a
carrier held: io_scene_gltf2 appends the children of a dropped root to the end of the scene's roots)."""

from __future__ import annotations

import json
import pathlib

import bpy
import corpus_runs
import pytest

from blenderkit import empty_scene, submodule
from export_helpers import export, last_export
from testkit import FIXTURES, corpus_files, corpus_id

FILES = sorted([*(FIXTURES / "import").glob("*.gltf"), *(FIXTURES / "joints").glob("*.gltf")])
CARRIED = ["import/materials_mass.gltf", "import/replaced.gltf"]  # bodies with a centre of mass (carriers)
CORPUS = corpus_files("glTF_Physics/**/RigidBodies_CollisionFilter_0*.gltf", "glTF_Physics/**/Filtering.gl*")
# io_scene_gltf2's own complaints about a fixture, the same with and without helpers (corpus files: the import table)
FIXTURE_ERRORS: dict[str, list[str]] = {}  # none logs any today (malformed.gltf included)


def _split_compound(tmp_path) -> pathlib.Path:
    """``compound.gltf`` with two child colliders of different filters (before and after a non-physics child): with
    Reproduce Motion, the import unparents the second (its own body, fixed to the cart)."""
    gltf = json.loads((FIXTURES / "import" / "compound.gltf").read_text())
    rb = gltf["extensions"].setdefault("KHR_physics_rigid_bodies", {})
    rb["collisionFilters"] = [
        {"collisionSystems": ["cart"], "collideWithSystems": ["cart", "ground"]},
        {"collisionSystems": ["cart"], "collideWithSystems": ["ground"]},
    ]
    nodes = gltf["nodes"]
    nodes[1]["extensions"]["KHR_physics_rigid_bodies"]["collider"]["collisionFilter"] = 0
    side = {"geometry": {"shape": 0}, "collisionFilter": 1}
    nodes.append({"name": "CartSide", "mesh": 0, "translation": [0.0, -1.0, 0.5], "rotation": [0.0, 0.0, 0.6, 0.8]})
    nodes[-1]["extensions"] = {"KHR_physics_rigid_bodies": {"collider": side}}
    nodes[0]["children"].insert(1, len(nodes) - 1)
    out = tmp_path / "compound_filters.gltf"
    out.write_text(json.dumps(gltf))
    return out


def _exported(clean, path, tmp_path, reproduce: bool, container: str = "out.gltf") -> dict:
    empty_scene()
    bpy.context.scene.gltf_physics.import_reproduce = reproduce
    assert bpy.ops.import_scene.gltf(filepath=str(path)) == {"FINISHED"}
    out = tmp_path / f"reproduce_{int(reproduce)}" / container
    out.parent.mkdir(exist_ok=True)
    return _written(out)


def _written(out: pathlib.Path) -> dict:
    written = export(out, "2026")
    written.pop("asset", None)
    for buffer in written.get("buffers", []):  # named after the output file
        buffer.pop("uri", None)
    return written


def _export_2026(addon, path, run) -> dict:
    """The 2026 export of the session's import (``corpus_runs``: ``reproduce`` with helpers, ``mapping`` without)."""
    assert run.result == "FINISHED", run.result
    return _written(run.out / "out.gltf")


SHARED = [*FILES, *CORPUS, *(FIXTURES / name for name in CARRIED)]
corpus_runs.inspector("reproduce", "export_2026", order=10, files=SHARED)(_export_2026)
corpus_runs.inspector("mapping", "export_2026", order=10, files=SHARED)(_export_2026)


def _shared(addon, path, gltf_errors, reproduce: bool, expected_errors: list[str]) -> dict:
    run = corpus_runs.run(addon, path, "reproduce" if reproduce else "mapping", gltf_errors)
    assert corpus_runs.logged_errors(run) == expected_errors
    return run.value("export_2026")


def _same(with_helpers: dict, without: dict) -> None:
    assert json.dumps(with_helpers, sort_keys=True) == json.dumps(without, sort_keys=True)


def _rounded(value):
    if isinstance(value, float):
        return round(value, 6) + 0.0
    if isinstance(value, list):
        return [_rounded(v) for v in value]
    if isinstance(value, dict):
        out = {k: _rounded(v) for k, v in value.items()}
        if out.get("scale") == [1.0, 1.0, 1.0]:
            del out["scale"]
        return out
    return value


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(FIXTURES)))
def test_export_without_reproduction_helpers_is_the_same(addon, path, gltf_errors):
    expected = FIXTURE_ERRORS.get(str(path.relative_to(FIXTURES)), [])
    with_helpers = _shared(addon, path, gltf_errors, True, expected)
    without = _shared(addon, path, gltf_errors, False, expected)
    _same(with_helpers, without)


def test_split_compound_child_goes_back_in_its_place(clean, tmp_path):
    path = _split_compound(tmp_path)
    with_helpers = _exported(clean, path, tmp_path, True)
    assert bpy.data.objects["CartSide"].parent is None  # split off the compound (its own body)
    assert last_export(clean).counts["restored_parents"] == 2  # and Passenger, a nested body
    without = _exported(clean, path, tmp_path, False)
    # CartSide's local transform comes back from float32 world matrices (within 1e-7; without helpers Blender kept
    # the file's): equal once rounded, the nodes' order and numbering exactly
    assert _rounded(with_helpers) == _rounded(without)
    names = [n["name"] for n in without["nodes"]]
    cart = without["nodes"][names.index("Cart")]
    assert [names[i] for i in cart["children"]] == ["Arm", "CartBox", "CartSide", "Passenger"]  # Blender's order


@pytest.mark.parametrize("path", CORPUS, ids=corpus_id)
def test_corpus_filter_scenes_export_the_same(addon, path, gltf_errors):
    expected = corpus_runs.expected_errors().get(corpus_id(path), [])
    with_helpers = _shared(addon, path, gltf_errors, True, expected)
    without = _shared(addon, path, gltf_errors, False, expected)
    _same(with_helpers, without)


@pytest.mark.parametrize("name", CARRIED)
def test_carried_bodies_keep_the_file_node_order(addon, name, gltf_errors):
    """The file's order of roots, or on io_scene_gltf2 5.2+ (which sorts siblings by name) the names sorted."""
    source = json.loads((FIXTURES / name).read_text())
    names = [n.get("name") for n in source["nodes"]]
    exported = _shared(addon, FIXTURES / name, gltf_errors, True, [])
    order = [n.get("name") for n in exported["nodes"]]
    roots = [order[i] for i in exported["scenes"][0]["nodes"]]
    source_roots = [names[i] for i in source["scenes"][0]["nodes"]]
    key = submodule(addon, "io.gltf_addon").sibling_sort_key()
    if key is not None:
        source_roots.sort(key=key)
    assert roots == [n for n in source_roots if n in roots]


def test_glTF_parents_that_point_at_each_other_export_without_a_cycle(clean, tmp_path):
    """``gltf_parent`` is a plain pointer a script can set: two bodies naming each other (or themselves) must not
    make a node its own ancestor."""
    assert bpy.ops.import_scene.gltf(filepath=str(FIXTURES / "import" / "materials_mass.gltf")) == {"FINISHED"}
    full, computed, infinite = (bpy.data.objects[n] for n in ("Full", "Computed", "Infinite"))
    full.gltf_physics.gltf_parent = computed
    computed.gltf_physics.gltf_parent = full
    infinite.gltf_physics.gltf_parent = infinite
    written = export(tmp_path / "out.gltf", "2026")
    nodes = written["nodes"]
    seen, stack = set(), list(written["scenes"][0]["nodes"])
    while stack:  # every node reached once from the scene: a tree
        index = stack.pop()
        assert index not in seen
        seen.add(index)
        stack.extend(nodes[index].get("children", []))
    assert {nodes[i]["name"] for i in seen} >= {"Full", "Computed", "Infinite"}
