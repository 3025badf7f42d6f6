"""``convert`` to a glTF file imports "export only" (``io/importer/export_only.py``): no collision collections, no
panel rows of the filter lists, no drive motors, no box check of convex hulls, round proxies as their two bounding
corners. The file the export writes is the same as after a full import, for every fixture and every corpus file."""

from __future__ import annotations

import contextlib
import json

import bpy
import pytest

import devkit
from blenderkit import submodule
from export_helpers import export
from testkit import FIXTURES, corpus_files, corpus_id

FILES = sorted([*(FIXTURES / "import").glob("*.gltf"), *(FIXTURES / "joints").glob("*.gltf")])
CORPUS = corpus_files()  # every file: the validator sets hold edge cases the scenes do not


def _exported(addon, path, tmp_path, only: bool) -> tuple[str, list[bytes]] | None:
    """The export (JSON text, buffers unnamed; the .bin files) after a full or an export-only import; None if it
    does not import."""
    try:
        _import(addon, path, only)
    except RuntimeError:  # a malformed file: it fails either way (checked by the caller)
        return None
    out = tmp_path / ("only" if only else "full") / "out.gltf"
    out.parent.mkdir(exist_ok=True)
    written = export(out, "2026")
    for buffer in written.get("buffers", []):  # named after the output file
        buffer.pop("uri", None)
    data = [p.read_bytes() for p in sorted(out.parent.glob("*.bin"))]
    return json.dumps(written, sort_keys=True, indent=1), data


def _same(addon, path, tmp_path, gltf_errors) -> None:
    full = _exported(addon, path, tmp_path, False)
    only = _exported(addon, path, tmp_path, True)
    gltf_errors.clear()  # malformed files: io_scene_gltf2's own complaints are the import tests' business
    assert (full is None) == (only is None)
    if full is not None:  # a short message: pytest's own diff of large texts takes minutes
        text, data = full
        only_text, only_data = only
        first = next((i for i, (a, b) in enumerate(zip(text, only_text, strict=False)) if a != b), len(text))
        assert text == only_text, f"JSON differs at {first}: {text[max(first - 80, 0) : first + 80]!r}"
        assert data == only_data, "the .bin files differ"


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(FIXTURES)))
def test_fixture_exports_the_same_after_an_export_only_import(addon, path, tmp_path, gltf_errors):
    _same(addon, path, tmp_path, gltf_errors)


@pytest.mark.parametrize("path", CORPUS, ids=corpus_id)
def test_corpus_scene_exports_the_same_after_an_export_only_import(addon, path, tmp_path, gltf_errors):
    _same(addon, path, tmp_path, gltf_errors)


def _import(addon, path, only: bool) -> None:
    bpy.ops.wm.read_homefile(use_factory_startup=True, use_empty=True)
    devkit.enable()
    bpy.context.scene.gltf_physics.import_reproduce = False
    with submodule(addon, "io.hooks").export_only.exporting_only() if only else contextlib.nullcontext():
        assert bpy.ops.import_scene.gltf(filepath=str(path)) == {"FINISHED"}


def test_export_only_leaves_out_collision_collections_and_filter_rows(addon):
    seen = {}
    for only in (False, True):
        _import(addon, FIXTURES / "joints" / "filters.gltf", only)
        flt = next(
            o.gltf_physics.collider.filter for o in bpy.data.objects if o.gltf_physics.collider.filter.has_filter
        )
        rows = [r.name for r in flt.collision_systems_rows]
        collections = {tuple(ob.rigid_body.collision_collections) for ob in bpy.data.objects if ob.rigid_body}
        seen[only] = (flt.collision_systems, rows, collections)
    (text, rows, collections), (only_text, only_rows, only_collections) = seen[False], seen[True]
    assert only_text == text and json.loads(text) == rows and rows and not only_rows  # the text is stored
    assert len(collections) > 1 and only_collections == {(True,) + (False,) * 19}  # Blender's default


def test_export_only_builds_no_drive_motors(addon):
    motors = {}
    for only in (False, True):
        _import(addon, FIXTURES / "joints" / "motor_y.gltf", only)
        motors[only] = [ob.name for ob in bpy.data.objects if ob.gltf_physics.joint.role == "MOTOR"]
    assert motors[False] and not motors[True]


def test_export_only_does_not_look_whether_a_hull_is_a_box(addon):
    """rev_2026's Hull is a convex hull of a centred box: Blender's BOX after a full import; the export writes the
    file's convex hull either way (the fixture's export is the same, above)."""
    shapes = {}
    for only in (False, True):
        _import(addon, FIXTURES / "import" / "rev_2026.gltf", only)
        shapes[only] = bpy.data.objects["Hull"].rigid_body.collision_shape
    assert shapes == {False: "BOX", True: "CONVEX_HULL"}


def test_export_only_builds_a_round_proxy_as_its_bounding_corners(addon, tmp_path):
    capsule = {"type": "capsule", "capsule": {"height": 0.5, "radiusTop": 0.1, "radiusBottom": 0.1}}
    rb = {"motion": {"mass": 1}, "collider": {"geometry": {"shape": 0}}}
    gltf = {
        "asset": {"version": "2.0"},
        "scene": 0,
        "scenes": [{"nodes": [0]}],
        "nodes": [{"name": "Pill", "extensions": {"KHR_physics_rigid_bodies": rb}}],
        "extensionsUsed": ["KHR_physics_rigid_bodies", "KHR_implicit_shapes"],
        "extensions": {"KHR_implicit_shapes": {"shapes": [capsule]}},
    }
    path = tmp_path / "pill.gltf"
    path.write_text(json.dumps(gltf))
    seen = {}
    for only in (False, True):
        _import(addon, path, only)
        pill = bpy.data.objects["Pill"]
        assert pill.rigid_body.collision_shape == "CAPSULE" and pill.gltf_physics.generated_mesh
        co = [tuple(v.co) for v in pill.data.vertices]
        seen[only] = (len(co), [min(c[k] for c in co) for k in range(3)], [max(c[k] for c in co) for k in range(3)])
    assert seen[False][0] > 100 and seen[True][0] == 2
    assert seen[True][1:] == seen[False][1:]  # the very bounds Blender derives the capsule from


def _rows_after_convert(one_file, dst) -> list[str]:
    job = {"input": str(FIXTURES / "joints" / "filters.gltf"), "output": str(dst), "to": "2026", "validate": False}
    result = one_file.convert(job, devkit.enable)
    assert result["status"] in ("converted", "warnings"), result
    filters = [o.gltf_physics.collider.filter for o in bpy.data.objects if o.gltf_physics.collider.filter.has_filter]
    return [row.name for flt in filters for row in flt.collision_systems_rows]


def test_convert_imports_export_only_for_a_gltf_output_and_fully_for_a_blend(one_file, tmp_path):
    assert not _rows_after_convert(one_file, tmp_path / "out.glb")
    assert _rows_after_convert(one_file, tmp_path / "out.blend")  # an artist opens it: the panels have their rows
