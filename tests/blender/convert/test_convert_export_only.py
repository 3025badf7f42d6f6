"""``convert`` to a glTF file imports "export only" (``io/importer/export_only.py``) and exports inside the same
``exporting_only()``: no collision collections, no panel rows of the filter lists, no drive motors, no box check of
convex hulls, no shape for a collider or trigger with an implicit shape (the export trusts the stored values). The
file the export writes is the same as after a full import, for every fixture (in every revision) and every corpus
file."""

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


def _exported(addon, path, tmp_path, only: bool, revision: str = "2026") -> tuple[dict, list[bytes]] | None:
    """The export (JSON, buffers unnamed; the .bin files) after a full or an export-only import; None if it does not
    import."""
    try:
        _import(addon, path, only)
    except RuntimeError:  # a malformed file: it fails either way (checked by the caller)
        return None
    out = tmp_path / ("only" if only else "full") / "out.gltf"
    out.parent.mkdir(exist_ok=True)
    with submodule(addon, "io.hooks").export_only.exporting_only() if only else contextlib.nullcontext():
        written = export(out, revision)  # the export trusts the stored values of an export-only import (as convert)
    for buffer in written.get("buffers", []):  # named after the output file
        buffer.pop("uri", None)
    data = [p.read_bytes() for p in sorted(out.parent.glob("*.bin"))]
    return written, data


def _same(addon, path, tmp_path, gltf_errors, revision: str = "2026") -> None:
    full = _exported(addon, path, tmp_path, False, revision)
    only = _exported(addon, path, tmp_path, True, revision)
    gltf_errors.clear()  # malformed files: io_scene_gltf2's own complaints are the import tests' business
    assert (full is None) == (only is None)
    if full is not None:  # a short message: pytest's own diff of large texts takes minutes
        _joint_poses_close(full[0], only[0])
        text, data = json.dumps(full[0], sort_keys=True, indent=1), full[1]
        only_text, only_data = json.dumps(only[0], sort_keys=True, indent=1), only[1]
        first = next((i for i, (a, b) in enumerate(zip(text, only_text, strict=False)) if a != b), len(text))
        assert text == only_text, f"JSON differs at {first}: {text[max(first - 80, 0) : first + 80]!r}"
        assert data == only_data, "the .bin files differ"


def _joint_poses_close(full: dict, only: dict) -> None:
    """A joint node carrying its constraint: a full import turns it to the joint's frame and the export turns it back
    (in float64); an export-only import leaves it as io_scene_gltf2 made it, and its export writes it as for every
    node. Equal within 32-bit precision, not to the bit: compared here and set aside (everything else to the bit)."""
    for a, b in zip(full.get("nodes", []), only.get("nodes", []), strict=False):
        if "joint" not in json.dumps(a.get("extensions")).lower():
            continue
        for key in ("translation", "rotation", "scale"):
            va, vb = a.pop(key, None), b.pop(key, None)
            assert (va is None) == (vb is None) or _identity(key, va or vb), (key, va, vb)
            if va is not None and vb is not None:  # io_scene_gltf2's float32 matrices: a few units in the last place
                size = max(1.0, *map(abs, va))  # relative to the vector: its float32 noise spreads over its parts
                assert all(abs(x - y) <= 2e-6 * size for x, y in zip(va, vb, strict=True)), (key, va, vb)


def _identity(key: str, value: list) -> bool:
    """A TRS part one export leaves out (the identity: io_scene_gltf2's rounding near 0 and 1) and the other writes."""
    target = {"translation": [0, 0, 0], "rotation": [0, 0, 0, 1], "scale": [1, 1, 1]}[key]
    return all(abs(v - t) <= 1e-6 for v, t in zip(value, target, strict=True))


@pytest.mark.parametrize("revision", ["2026", "2024-07", "omi"])
@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(FIXTURES)))
def test_fixture_exports_the_same_after_an_export_only_import(addon, path, revision, tmp_path, gltf_errors):
    _same(addon, path, tmp_path, gltf_errors, revision)


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


def test_export_only_builds_no_shape_for_implicit_colliders_and_triggers(addon, tmp_path):
    """A body, a static collider on an Empty and a trigger, all capsules: a full import builds a proxy mesh for each
    (or a mesh in the Empty's place); an export-only one only the rigid bodies joints connect, on the nodes' own
    objects, and the stored values."""
    capsule = {"type": "capsule", "capsule": {"height": 0.5, "radiusTop": 0.1, "radiusBottom": 0.1}}
    nodes = [
        {"name": "Pill", "extensions": {"KHR_physics_rigid_bodies": {"motion": {"mass": 2}, "collider": _shape()}}},
        {"name": "Post", "translation": [1, 0, 0], "extensions": {"KHR_physics_rigid_bodies": {"collider": _shape()}}},
        {"name": "Zone", "translation": [2, 0, 0], "extensions": {"KHR_physics_rigid_bodies": {"trigger": _shape()}}},
    ]
    gltf = {
        "asset": {"version": "2.0"},
        "scene": 0,
        "scenes": [{"nodes": [0, 1, 2]}],
        "nodes": nodes,
        "extensionsUsed": ["KHR_physics_rigid_bodies", "KHR_implicit_shapes"],
        "extensions": {"KHR_implicit_shapes": {"shapes": [capsule]}},
    }
    path = tmp_path / "pills.gltf"
    path.write_text(json.dumps(gltf))
    seen = {}
    for only in (False, True):
        _import(addon, path, only)
        objects = {ob.name: ob for ob in bpy.data.objects}
        seen[only] = (
            sorted(objects),
            {name: ob.rigid_body.collision_shape for name, ob in objects.items() if ob.rigid_body},
            sum(len(ob.data.vertices) for ob in objects.values() if ob.type == "MESH"),
            objects["Pill"].gltf_physics.motion.mass,
        )
    assert seen[False][0] == ["Pill", "Post", "Zone", "Zone.trigger"]
    assert seen[False][1] == {"Pill": "CAPSULE", "Post": "CAPSULE"} and seen[False][2] > 100
    assert seen[True][0] == ["Pill", "Post", "Zone"]  # no trigger volume
    assert seen[True][1] == {"Pill": "CONVEX_HULL", "Post": "CONVEX_HULL"} and seen[True][2] == 0  # no shape built
    assert seen[True][3] == seen[False][3] == 2.0  # the stored values the export writes


def _shape() -> dict:
    return {"geometry": {"shape": 0}}


def _rows_after_convert(one_file, dst) -> list[str]:
    job = {"input": str(FIXTURES / "joints" / "filters.gltf"), "output": str(dst), "to": "2026", "validate": False}
    result = one_file.convert(job, devkit.enable)
    assert result["status"] in ("converted", "warnings"), result
    filters = [o.gltf_physics.collider.filter for o in bpy.data.objects if o.gltf_physics.collider.filter.has_filter]
    return [row.name for flt in filters for row in flt.collision_systems_rows]


def test_convert_imports_export_only_for_a_gltf_output_and_fully_for_a_blend(one_file, tmp_path):
    assert not _rows_after_convert(one_file, tmp_path / "out.glb")
    assert _rows_after_convert(one_file, tmp_path / "out.blend")  # an artist opens it: the panels have their rows


def test_export_only_leaves_a_joint_node_where_the_file_puts_it(addon):
    """hinge_z's joint node carries its constraint: a full import turns it to the joint's axes (the export turns it
    back), an export-only one leaves it as io_scene_gltf2 made it (the export writes it as any other node)."""
    poses = {}
    for only in (False, True):
        _import(addon, FIXTURES / "joints" / "hinge_z.gltf", only)
        node = next(ob for ob in bpy.data.objects if ob.gltf_physics.joint.is_node)
        poses[only] = (node.name, [round(v, 6) for v in node.matrix_basis.to_quaternion()])
    assert poses[True][0] == poses[False][0]
    assert poses[True][1] != poses[False][1]
    assert poses[True][1] == [round(v, 6) for v in _file_rotation(poses[True][0])]


def _file_rotation(name: str):
    """The rotation hinge_z.gltf gives node ``name``, as Blender's quaternion (w, x, y, z; Z up)."""
    from mathutils import Quaternion

    nodes = json.loads((FIXTURES / "joints" / "hinge_z.gltf").read_text())["nodes"]
    x, y, z, w = next(n for n in nodes if n.get("name") == name).get("rotation", [0, 0, 0, 1])
    return Quaternion((w, x, -z, y))


def test_export_only_builds_no_box_for_a_body_without_colliders(addon, tmp_path):
    """A full import gives such a body a 10 cm box that collides with nothing; an export-only one only its rigid
    body (in a mesh object: its Empty is replaced either way) and the stored motion."""
    gltf = {
        "asset": {"version": "2.0"},
        "scene": 0,
        "scenes": [{"nodes": [0]}],
        "nodes": [{"name": "Drifter", "extensions": {"KHR_physics_rigid_bodies": {"motion": {"mass": 3}}}}],
        "extensionsUsed": ["KHR_physics_rigid_bodies"],
    }
    path = tmp_path / "drifter.gltf"
    path.write_text(json.dumps(gltf))
    seen = {}
    for only in (False, True):
        _import(addon, path, only)
        drifter = bpy.data.objects["Drifter"]
        seen[only] = (drifter.type, len(drifter.data.vertices), drifter.rigid_body.collision_shape)
        assert drifter.gltf_physics.motion.mass == 3.0 and drifter.gltf_physics.generated_mesh
    assert seen == {False: ("MESH", 8, "BOX"), True: ("MESH", 0, "CONVEX_HULL")}
