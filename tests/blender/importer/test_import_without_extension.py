"""Every import / joint fixture and every corpus file imports with the extension as it does without it, plus the
physics (issue 31): each object io_scene_gltf2 makes alone is there, with its name, parent, world transform,
collections, mesh geometry and animation. The extension adds its helpers, may give a physics node without a mesh a
shape display (an Empty becomes the object of its shape) and turns a joint node's Empty to the axes of the joint's
frame A, where it stays (``docs/joints.md``, "Axis conversion"); a nested body is unparented in place, its file
parent kept in ``gltf_physics.gltf_parent`` (``docs/import.md``, "Compound bodies"). Reproduce Motion off: with it,
helpers such as centre-of-mass carriers hold bodies on purpose (``docs/import.md``)."""

from __future__ import annotations

import logging
import pathlib

import addon_utils
import bpy
import corpus_runs
import pytest
from test_import_probes import EXAMPLE, scene_state

import devkit
from blenderkit import ErrorRecords
from testkit import corpus_files, corpus_id, import_fixtures

FILES = [*import_fixtures(sample=False), EXAMPLE, *corpus_files(sample=False)]
COMPARED = ("parent", "matrix", "mesh", "animation")


def _import(path: pathlib.Path) -> tuple[dict, list[str]]:
    """io_scene_gltf2 alone: the objects, and its error log."""
    bpy.ops.wm.read_homefile(use_factory_startup=True, use_empty=True)
    log = ErrorRecords()
    logging.getLogger("glTFImporter_errors").addHandler(log)
    try:
        assert bpy.ops.import_scene.gltf(filepath=str(path)) == {"FINISHED"}
    finally:
        logging.getLogger("glTFImporter_errors").removeHandler(log)
    bpy.context.view_layer.update()
    return scene_state()["objects"], log.records


@corpus_runs.inspector("mapping", "objects", order=-10, files=FILES)
def _objects(addon, path, run) -> dict:
    """With the extension, Reproduce Motion off (the session's one such import of the file)."""
    assert run.result == "FINISHED", run.result
    return scene_state()["objects"]


@pytest.fixture(scope="module")
def plain(addon) -> dict[pathlib.Path, dict]:
    """Each file imported with the extension disabled (io_scene_gltf2 alone), once for the module; None for a file
    io_scene_gltf2 alone refuses (it lists a physics extension in ``extensionsRequired``)."""
    addon_utils.disable(devkit.ADDON, default_set=True)
    found = {}
    try:
        for path in FILES:
            try:
                found[path] = _import(path)
            except RuntimeError as exc:
                assert "is not available" in str(exc), (path, exc)
                found[path] = None
    finally:
        devkit.enable()
    return found


@pytest.mark.parametrize("path", FILES, ids=lambda p: corpus_id(p) if "corpus" in str(p) else p.name)
def test_import_with_the_extension_keeps_every_object_io_scene_gltf2_makes(plain, clean, path, gltf_errors):
    run = corpus_runs.run(clean, path, "mapping", gltf_errors)
    with_physics = run.value("objects")
    if plain[path] is not None:  # io_scene_gltf2's own complaints about a file are the same either way
        assert run.gltf_errors == plain[path][1]
    without = plain[path] and plain[path][0]
    if without is None:  # requires physics: only an import with the extension reads it
        assert with_physics
        return
    missing = sorted(set(without) - set(with_physics))
    assert not missing, f"objects io_scene_gltf2 makes that the extension lost: {missing}"
    for name, alone in without.items():
        ours = with_physics[name]
        shape_display = ours["type"] != alone["type"]
        if shape_display:  # only a physics node without a mesh gets one (its collider's shape, or no geometry)
            assert (alone["type"], ours["type"]) == ("EMPTY", "MESH") and ours["gltf_physics"], name
        for key in COMPARED:
            if shape_display and key == "mesh":
                continue
            # a joint Empty turns to frame A's axes, and so does a joint node kept for export (both sides the world)
            joint_node = ((ours["gltf_physics"] or {}).get("joint") or {}).get("is_node")
            if key == "matrix" and (ours["constraint"] is not None or joint_node):
                assert [row[3] for row in ours[key]] == [row[3] for row in alone[key]], name  # (docs/joints.md)
                continue
            if key == "parent" and ours[key] != alone[key]:  # a nested body: unparented, its file parent kept
                assert ours["gltf_physics"]["gltf_parent"] == alone[key][0], name  # (docs/import.md, "Compound")
                continue
            assert ours[key] == alone[key], (name, key)
        assert set(alone["collections"]) <= set(ours["collections"]), name
