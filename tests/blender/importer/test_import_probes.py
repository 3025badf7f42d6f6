"""The glTF import never breaks because of us (issue 31): every io_scene_gltf2 internal the import uses sits behind a
capability probe (``io/gltf_addon.py``), and with every probe failing the import takes the public hooks only and
builds the same Blender state. An exception in our hooks becomes a diagnostic; the file's plain content imports."""

from __future__ import annotations

import pathlib

import bpy
import corpus_runs
import pytest

from blenderkit import rna_values, submodule
from testkit import CORPUS, FIXTURES, corpus_files, corpus_id, import_fixtures

EXAMPLE = pathlib.Path(__file__).resolve().parents[3] / "examples" / "demo_scene.gltf"
CORPUS_SAMPLE = corpus_files(sample=False)[
    ::9
]  # every ninth corpus file: Empties with bodies, meshes, animations, joints


def _round(values) -> tuple:
    return tuple(round(float(v), 5) + 0.0 for v in values)


def _plain_values(data) -> dict:
    """A struct's own values: numbers, strings, arrays; pointers as names (no recursion into other data)."""
    out = {}
    for prop in data.bl_rna.properties:
        key = prop.identifier
        if key == "rna_type" or prop.type == "COLLECTION":
            continue
        value = getattr(data, key)
        if prop.type == "POINTER":
            out[key] = getattr(value, "name", None)
        elif getattr(prop, "is_array", False):
            out[key] = _round(value) if prop.type == "FLOAT" else tuple(value)
        else:
            out[key] = round(value, 5) if isinstance(value, float) else value
    return out


def _animation(ob) -> tuple | None:
    data = ob.animation_data
    if data is None:
        return None
    slot = getattr(data, "action_slot", None)
    tracks = tuple(
        (track.name, tuple((s.name, getattr(s.action, "name", None), s.frame_start, s.frame_end) for s in track.strips))
        for track in data.nla_tracks
    )
    return getattr(data.action, "name", None), getattr(slot, "identifier", None), tracks


def _mesh(data) -> tuple | None:
    if not isinstance(data, bpy.types.Mesh):
        return None if data is None else type(data).__name__
    points = sorted(_round(v.co) for v in data.vertices)
    return len(data.vertices), len(data.polygons), tuple(points[:4]), tuple(points[-4:])


def scene_state() -> dict:
    """What an import leaves in Blender, by object name: type, hierarchy, transforms, collections, display, mesh
    geometry, rigid body, constraint, glTF Physics values, custom properties, animation; the rigid-body world."""
    objects = {}
    for ob in bpy.data.objects:
        objects[ob.name] = {
            "type": ob.type,
            "parent": (getattr(ob.parent, "name", None), ob.parent_type),
            "matrix": tuple(_round(row) for row in ob.matrix_world),
            "collections": sorted(c.name for c in ob.users_collection),
            "display": (
                ob.display_type,
                ob.hide_render,
                ob.hide_get() if ob.name in bpy.context.view_layer.objects else None,
            ),
            "mesh": _mesh(ob.data),
            "rigid_body": _plain_values(ob.rigid_body) if ob.rigid_body else None,
            "constraint": _plain_values(ob.rigid_body_constraint) if ob.rigid_body_constraint else None,
            "gltf_physics": rna_values(ob.gltf_physics) if hasattr(ob, "gltf_physics") else None,
            "custom": sorted(key for key in ob.keys() if key != "gltf_physics"),  # noqa: SIM118 (ID keys)
            "animation": _animation(ob),
        }
    world = bpy.context.scene.rigidbody_world
    return {
        "objects": objects,
        "world": _plain_values(world) if world else None,
        "world_objects": sorted(o.name for o in world.collection.objects) if world and world.collection else None,
        "counts": {name: len(getattr(bpy.data, name)) for name in ("objects", "meshes", "collections", "actions")},
    }


def _diagnostics(report) -> list:
    return sorted((d.code, d.pointer) for d in report.diagnostics)


def _import_state(addon, path: pathlib.Path, failing: bool) -> tuple[dict, list]:
    bpy.ops.wm.read_homefile(use_factory_startup=True, use_empty=True)
    submodule(addon, "io.hooks").LAST_REPORTS.clear()
    adapter = submodule(addon, "io.gltf_addon")
    with adapter.probes_failing() if failing else _Nothing():
        assert bpy.ops.import_scene.gltf(filepath=str(path)) == {"FINISHED"}
    bpy.context.view_layer.update()
    report = submodule(addon, "io.hooks").last_report("import")
    return scene_state(), _diagnostics(report)


class _Nothing:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


FILES = [*import_fixtures(sample=False), EXAMPLE]  # every tier, every fixture


@corpus_runs.inspector("reproduce", "scene_state", order=-10, files=[*FILES, *CORPUS_SAMPLE])
def _normal_state(addon, path, run) -> tuple[dict, list]:
    """The ordinary import's Blender state (the session's one import of the file, read before anything else)."""
    assert run.result == "FINISHED", run.result
    return scene_state(), _diagnostics(run.report)


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(FIXTURES)) if FIXTURES in p.parents else p.name)
def test_every_probe_failing_gives_the_same_blender_state(clean, path, gltf_errors):
    run = corpus_runs.run(clean, path, "reproduce", gltf_errors)
    assert not run.gltf_errors, run.gltf_errors  # a fixture io_scene_gltf2 complains about would be broken
    normal = run.value("scene_state")
    public = _import_state(clean, path, failing=True)
    assert public[0] == normal[0]
    assert public[1] == normal[1]


@pytest.mark.corpus
@pytest.mark.parametrize("path", CORPUS_SAMPLE or [CORPUS], ids=corpus_id)
def test_corpus_sample_with_every_probe_failing_gives_the_same_blender_state(clean, path, gltf_errors):
    run = corpus_runs.run(clean, path, "reproduce", gltf_errors)
    normal = run.value("scene_state")
    before = len(gltf_errors)
    public = _import_state(clean, path, failing=True)
    assert public[0] == normal[0]
    assert gltf_errors[before:] == run.gltf_errors  # io_scene_gltf2's own complaints: the same either way
    del gltf_errors[before:]


def test_the_probes_pass_on_this_io_scene_gltf2(clean):
    """On every supported release the fast paths are taken: each probe passes once an import has run."""
    adapter = submodule(clean, "io.gltf_addon")
    assert bpy.ops.import_scene.gltf(filepath=str(FIXTURES / "import" / "replaced.gltf")) == {"FINISHED"}
    key = adapter._addon_key()
    probed = {name for (name, module), passed in adapter._PROBED.items() if module == key and passed}
    assert {"stand_in_mesh", "vnode_objects", "json_loaders", "operator_log", "extension_class"} <= probed
    assert not {name for (name, module), passed in adapter._PROBED.items() if module == key and not passed}


def test_a_failed_probe_is_said_once_in_the_console(clean, capsys):
    adapter = submodule(clean, "io.gltf_addon")
    adapter._TOLD.discard(("operator_log", adapter._addon_key()))
    with adapter.probes_failing():
        for _ in range(3):
            assert bpy.ops.import_scene.gltf(filepath=str(FIXTURES / "basic_body.gltf")) == {"FINISHED"}
    said = capsys.readouterr().out
    assert said.count("failed the 'operator_log' probe") == 1
    assert "import messages go to the console only" in said


def test_a_stand_in_that_io_scene_gltf2_rejects_falls_back_to_replacing_the_empty(clean, monkeypatch):
    """A release whose mesh creation reads something our stand-in lacks (5.3 read ``primitives``) fails the probe,
    and the Empty with a body is replaced after the nodes instead of the import aborting."""
    adapter = submodule(clean, "io.gltf_addon")
    monkeypatch.setattr(adapter._StandInMesh, "primitives", property(lambda self: 1 / 0), raising=False)
    monkeypatch.setattr(adapter, "_PROBED", {})
    assert bpy.ops.import_scene.gltf(filepath=str(EXAMPLE)) == {"FINISHED"}
    assert adapter._PROBED[("stand_in_mesh", adapter._addon_key())] is False
    bodies = [ob for ob in bpy.data.objects if ob.rigid_body is not None]
    assert bodies and all(ob.type == "MESH" for ob in bodies)
    assert not [ob for ob in bpy.data.objects if ob.name.endswith(".replaced")]


def test_an_exception_in_our_hook_set_up_leaves_the_import_whole(clean, monkeypatch):
    adapter = submodule(clean, "io.gltf_addon")

    def broken():
        raise RuntimeError("probe exploded")

    monkeypatch.setattr(adapter, "handled_extensions", broken)
    assert bpy.ops.import_scene.gltf(filepath=str(EXAMPLE)) == {"FINISHED"}
    report = submodule(clean, "io.hooks").last_report("import")
    (failed,) = [d for d in report.diagnostics if d.code == "GLTF_PHYSICS_INTERNAL_ERROR"]
    assert "probe exploded" not in failed.message and "setting up the physics import" in failed.message
    assert (failed.code, failed.severity.label) == ("GLTF_PHYSICS_INTERNAL_ERROR", "error")  # as any hook failure
    assert len(bpy.data.objects) > 0


def test_an_exception_in_the_physics_build_leaves_the_plain_content(clean, monkeypatch, gltf_errors):
    pipeline = submodule(clean, "io.importer.pipeline")

    def broken(ctx):
        raise RuntimeError("build exploded")

    monkeypatch.setattr(pipeline, "build", broken)
    assert bpy.ops.import_scene.gltf(filepath=str(EXAMPLE)) == {"FINISHED"}
    report = submodule(clean, "io.hooks").last_report("import")
    (failed,) = [d for d in report.diagnostics if d.code == "GLTF_PHYSICS_INTERNAL_ERROR"]
    assert "build exploded" not in failed.message  # the exception goes to the console
    assert (failed.code, failed.severity.label) == ("GLTF_PHYSICS_INTERNAL_ERROR", "error")
    assert len(bpy.data.objects) > 0
    placeholder = submodule(clean, "io.importer.proxies").PLACEHOLDER_NAME
    assert placeholder not in bpy.data.meshes  # Empties with bodies are Empties again
    gltf_errors.clear()
