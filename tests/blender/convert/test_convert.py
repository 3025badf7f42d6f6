"""``convert`` through ``bin/gltf-physics`` in subprocesses (workers: this tier's bpy): outputs exist, mirror the
input tree and validate; the report's counts match the inputs; a malformed file fails alone with its diagnostic
(exit 1); shards cover every file once; --skip-existing skips; a killed run leaves no partial output; a hung file
is killed after --timeout; Blender-authored rigid bodies and constraints in a .blend export."""

from __future__ import annotations

import json
import os
import pathlib
import signal
import subprocess
import sys
import time

import bpy
import khronos
import pytest
from convert_helpers import LIBRARY, convert, leftovers, library, report, written

import devkit
from blenderkit import cli_command, run_together, submodule
from scene_helpers import constraint, rigid_body_world, rigid_box
from testkit import FIXTURES, bench_module, corpus_files, read_json

RB = "KHR_physics_rigid_bodies"


@pytest.fixture(scope="module")
def tools(addon):
    """The bpy-free loader, validator and counter of the installed extension."""
    files, parse = submodule(addon, "io.gltf.files"), submodule(addon, "io.gltf.parse")
    counts = submodule(addon, "io.convert.one_file").document_counts

    def errors(path):
        return [d for d in parse.parse_gltf(files.load(path).json).diagnostics if d.severity.name == "ERROR"]

    return files.load, errors, counts


def test_folder_with_a_malformed_file_converts_the_rest(tmp_path, tools):
    load, errors, counts = tools
    src = library(tmp_path / "in", broken=True)
    result = convert(
        src, "-o", tmp_path / "out", "--format", "glb", "--validate", "--jobs", "2", "--report", tmp_path / "r.json"
    )
    assert result.returncode == 1, result.stderr
    files = report(tmp_path / "r.json")
    assert files["joints/broken.glb"]["status"] == "failed"
    (diag,) = files["joints/broken.glb"]["diagnostics"]
    assert (diag["code"], diag["pointer"], diag["stage"]) == ("FILE_INVALID_JSON", "", "read")
    assert "FILE_INVALID_JSON" in result.stderr and "failed 1" in result.stderr
    assert not (tmp_path / "out" / "joints" / "broken.glb").exists()
    for source, name in LIBRARY.items():
        out = tmp_path / "out" / name.replace(".gltf", ".glb")
        entry = files[name.replace(".gltf", ".glb")]
        assert entry["status"] in ("converted", "warnings") and out.is_file()
        assert load(out).is_glb and errors(out) == []
        assert entry["counts"] == counts(read_json(FIXTURES / source)), source
    assert files["joints/hinge_x.glb"]["counts"]["joints"] == 1
    assert not leftovers(tmp_path / "out")  # no temporary folder left


def test_gltf_outputs_keep_resources_inside_the_output_folder(tmp_path, tools):
    load, errors, _ = tools
    src = tmp_path / "in"
    src.mkdir()
    gltf = read_json(FIXTURES / "basic_body.gltf")
    (src / "body.gltf").write_text(json.dumps(gltf))
    result = convert(src, "-o", tmp_path / "out", "--format", "gltf", "--to", "2024-10")
    assert result.returncode == 0, result.stderr
    assert written(tmp_path / "out") == ["body.bin", "body.gltf"]
    document = load(tmp_path / "out" / "body.gltf").json
    assert document["buffers"][0]["uri"] == "body.bin" and errors(tmp_path / "out" / "body.gltf") == []
    assert RB in document["extensionsUsed"]


def test_shards_convert_every_file_exactly_once_and_skip_existing_skips(tmp_path):
    """The shards of one array run at once into one OUT, as documented (``io/convert/state.py``: they share its
    lock)."""
    src = library(tmp_path / "in")
    shards = run_together(
        [
            cli_command("convert", src, "-o", tmp_path / "out", "--shard", f"{k}/3", "--report", tmp_path / f"{k}.json")
            for k in (1, 2, 3)
        ]
    )
    seen = []
    for k, shard in enumerate(shards, start=1):
        assert shard.returncode == 0, shard.stderr
        seen += [name for name, f in report(tmp_path / f"{k}.json").items() if f["status"] != "skipped"]
    assert sorted(seen) == sorted(LIBRARY.values())
    written = sorted(p.relative_to(tmp_path / "out").as_posix() for p in (tmp_path / "out").rglob("*.gltf"))
    assert written == sorted(LIBRARY.values())
    os.utime(src / "rev_2026.gltf", (time.time() + 5, time.time() + 5))  # edited after the first run
    result = convert(src, "-o", tmp_path / "out", "--skip-existing", "--report", tmp_path / "r.json")
    assert result.returncode == 0, result.stderr
    statuses = {name: f["status"] for name, f in report(tmp_path / "r.json").items()}
    assert statuses.pop("rev_2026.gltf") in ("converted", "warnings")  # its triangle-mesh ground: Blender's margin
    assert set(statuses.values()) == {"skipped"} and len(statuses) == 3
    assert "skipped 3" in result.stderr


def _visible(folder):
    """Output files, not the hidden temporary ones. ``os.walk`` while the converter runs: a ``.partial`` folder that
    disappears under the walk is skipped (``rglob`` raised FileNotFoundError once, bpy 4.2 CI), hidden folders are
    not entered."""
    found = []
    for top, dirs, files in os.walk(folder):
        dirs[:] = [d for d in dirs if not d.startswith(".")]
        found += [pathlib.Path(top, name) for name in files if not name.startswith(".")]
    return found


SETS = 40  # 160 files, ~2 s of work: a run killed when the first output shows cannot have finished (12 sets did once,
# on a loaded 2-core machine where this test's polling loop slept past the whole run)


def test_a_killed_run_leaves_no_partial_output_and_skip_existing_finishes_it(tmp_path, tools):
    load, _, _ = tools
    src = tmp_path / "in"
    for i in range(SETS):
        library(src / f"set{i:02d}")
    command = cli_command("convert", src, "-o", tmp_path / "out")
    run = subprocess.Popen([*command, "--format", "glb"], stderr=subprocess.DEVNULL, start_new_session=True)
    deadline = time.monotonic() + 120
    while not _visible(tmp_path / "out") and time.monotonic() < deadline:
        time.sleep(0.05)
    os.killpg(run.pid, signal.SIGKILL)  # the driver and its worker, mid-run
    run.wait()
    done = _visible(tmp_path / "out")
    assert 0 < len(done) < 4 * SETS  # anything else is a hidden .partial folder, removed by the next run
    for path in done:
        assert load(path).is_glb  # every output there is complete
    finish = [*command, "--format", "glb", "--skip-existing", "--jobs", "2"]  # the rest on both cores
    result = subprocess.run(finish, capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert f"skipped {len(done)}" in result.stderr or f"skipped {len(done) + 1}" in result.stderr
    assert len(_visible(tmp_path / "out")) == 4 * SETS
    assert not leftovers(tmp_path / "out")  # stale .partial folders were removed


def busy_blend(path) -> None:
    """A ``.blend`` whose one object has a Geometry Nodes modifier repeating Set Position 2·10⁹ times: Blender
    evaluating it (opening the file, exporting it) is busy for hours with almost no memory. Written with
    ``libraries.write`` (saving a main file would evaluate it here); nothing is left in this session."""
    scene = bpy.data.scenes.new("Busy")
    mesh = bpy.data.meshes.new("Point")
    mesh.from_pydata([(0.0, 0.0, 0.0)], [], [])
    ob = bpy.data.objects.new("Busy", mesh)
    scene.collection.objects.link(ob)
    tree = bpy.data.node_groups.new("Forever", "GeometryNodeTree")
    tree.interface.new_socket("Geometry", in_out="INPUT", socket_type="NodeSocketGeometry")
    tree.interface.new_socket("Geometry", in_out="OUTPUT", socket_type="NodeSocketGeometry")
    nodes, links = tree.nodes, tree.links
    start, end = nodes.new("GeometryNodeRepeatInput"), nodes.new("GeometryNodeRepeatOutput")
    start.pair_with_output(end)
    start.inputs["Iterations"].default_value = 2_000_000_000
    move = nodes.new("GeometryNodeSetPosition")
    links.new(nodes.new("NodeGroupInput").outputs[0], start.inputs["Geometry"])
    links.new(start.outputs["Geometry"], move.inputs["Geometry"])
    links.new(move.outputs["Geometry"], end.inputs["Geometry"])
    links.new(end.outputs["Geometry"], nodes.new("NodeGroupOutput").inputs[0])
    ob.modifiers.new("Forever", "NODES").node_group = tree
    try:
        bpy.data.libraries.write(str(path), {scene}, fake_user=True)
    finally:
        bpy.data.objects.remove(ob)
        bpy.data.meshes.remove(mesh)
        bpy.data.node_groups.remove(tree)
        bpy.data.scenes.remove(scene)


def _libraries_write_works(tmp_path) -> bool:
    """Whether this bpy can write a scene no window shows (bpy 5.2.3 crashes in ``libraries.write``; shown in a
    window, the busy scene is evaluated while written), tried in a child process."""
    code = f"import bpy; bpy.data.libraries.write({str(tmp_path / 'probe.blend')!r}, {{bpy.data.scenes.new('S')}})"
    return subprocess.run([sys.executable, "-c", code], capture_output=True, timeout=120).returncode == 0


def test_a_hung_file_is_killed_after_the_timeout(tmp_path):
    if not _libraries_write_works(tmp_path):
        pytest.skip("this bpy crashes in bpy.data.libraries.write: no hanging .blend can be written here")
    src = tmp_path / "in"
    src.mkdir()
    (src / "fine.gltf").write_bytes((FIXTURES / "import" / "rev_2026.gltf").read_bytes())
    busy_blend(src / "stuck.blend")  # a file whose evaluation never ends, as a hung network share would
    result = convert(src, "-o", tmp_path / "out", "--timeout", "3", "--report", tmp_path / "r.json", "--format", "gltf")
    assert result.returncode == 1, result.stderr
    files = report(tmp_path / "r.json")
    assert [d["code"] for d in files["stuck.gltf"]["diagnostics"]] == ["CONVERT_TIMEOUT"]
    assert {f["status"] for n, f in files.items() if n != "stuck.gltf"} <= {"converted", "warnings"}
    assert not (tmp_path / "out" / "stuck.gltf").exists()
    assert not leftovers(tmp_path / "out")


def test_blend_with_native_rigid_bodies_and_constraints_exports_them(tmp_path, clean):
    rbw = rigid_body_world()
    ground = rigid_box(rbw, "Ground", size=(4, 4, 0.2), kind="PASSIVE")
    box = rigid_box(rbw, "Box", location=(0, 0, 2), shape="SPHERE", mass=3.0)
    constraint(rbw, "Hinge", ground, box, "HINGE", location=(0, 0, 1))
    (tmp_path / "in").mkdir()
    bpy.ops.wm.save_as_mainfile(filepath=str(tmp_path / "in" / "scene.blend"), copy=True)
    result = convert(
        tmp_path / "in",
        "-o",
        tmp_path / "out",
        "--format",
        "glb",
        "--validate",
        "--to",
        "2024-10",
        "--report",
        tmp_path / "r.json",
    )
    assert result.returncode == 0, result.stderr
    assert report(tmp_path / "r.json")["scene.glb"]["counts"] == {
        "bodies": 1,
        "colliders": 2,
        "joints": 1,
        "triggers": 0,
    }
    # a setting that plays differently (Blender's default damping) is a WARNING in convert's report too
    (damping,) = [d for d in report(tmp_path / "r.json")["scene.glb"]["diagnostics"] if "damping" in d["message"]]
    assert damping["code"] == "GLTF_PHYSICS_EXPORT_PLAYS_DIFFERENTLY" and damping["severity"] == "warning"
    assert "'Box'" in damping["message"]
    load = submodule(clean, "io.gltf.files").load
    document = load(tmp_path / "out" / "scene.glb").json
    nodes = {n["name"]: n.get("extensions", {}).get(RB, {}) for n in document["nodes"]}
    assert nodes["Box"]["motion"]["mass"] == pytest.approx(3.0)
    assert "sphere" in json.dumps(document["extensions"]["KHR_implicit_shapes"])
    assert any("joint" in ext for ext in nodes.values())


def test_gltf_to_blend_and_back(tmp_path, tools):
    _, _, counts = tools
    src = tmp_path / "in"
    src.mkdir()
    (src / "hinge.gltf").write_bytes((FIXTURES / "joints" / "hinge_x.gltf").read_bytes())
    assert convert(src, "-o", tmp_path / "blend", "--format", "blend").returncode == 0
    assert (tmp_path / "blend" / "hinge.blend").stat().st_size > 0
    result = convert(tmp_path / "blend", "-o", tmp_path / "back", "--format", "gltf", "--report", tmp_path / "r.json")
    assert result.returncode == 0, result.stderr
    expected = counts(read_json(FIXTURES / "joints" / "hinge_x.gltf"))
    assert report(tmp_path / "r.json")["hinge.gltf"]["counts"] == expected


@pytest.mark.parametrize("revision", ["2026", "2024-10"])
def test_generated_assets_convert_and_validate(tmp_path, tools, revision):
    """The benchmark's generated assets (one of each kind: render meshes, drives, filters, triggers, convex-hull and
    triangle-mesh colliders, a collision mesh no node renders): every output validates, here and in the Khronos
    validator, and holds the input's physics, also when ``geometry.mesh`` becomes ``geometry.node`` (2024-10)."""
    load, errors, counts = tools
    generator = bench_module("asset_library")
    inputs = generator.generate(tmp_path / "in", len(generator.KINDS))
    out = tmp_path / "out"
    result = convert(tmp_path / "in", "-o", out, "--to", revision, "--validate", "--report", tmp_path / "r.json")
    assert result.returncode == 0, result.stderr
    files = report(tmp_path / "r.json")
    for path in inputs:
        name = path.relative_to(tmp_path / "in").as_posix()
        written = out / name
        khronos.check(written)
        assert files[name]["status"] in ("converted", "warnings") and errors(written) == [], name
        assert files[name]["counts"] == counts(load(path).json), name
        document = load(written).json
        geometries = [
            node["extensions"][RB]["collider"]["geometry"]
            for node in document["nodes"]
            if "collider" in node.get("extensions", {}).get(RB, {})
        ]
        meshes = [g for g in geometries if "mesh" in g or "node" in g]
        assert all(("mesh" in g) == (revision == "2026") for g in meshes), name
        if name.split("/")[-1].startswith(("rocks", "vehicle")):
            assert any(g.get("convexHull") for g in meshes), name


@pytest.mark.corpus
def test_corpus_files_convert_and_validate(tmp_path, tools):
    load, errors, counts = tools
    picked = corpus_files(
        "glTF_Physics/tests/RigidBodies_Joint/RigidBodies_Joint_0[01].gltf",
        "omigroup-gltf-extensions/extensions/2.0/OMI_physics_body/examples/basic/*.gltf",
        sample=False,  # five chosen files, not a sweep
    )
    assert len(picked) == 5
    result = convert(
        *picked, "-o", tmp_path / "out", "--format", "glb", "--validate", "--jobs", "2", "--report", tmp_path / "r.json"
    )
    assert result.returncode == 0, result.stderr
    files = report(tmp_path / "r.json")
    for path in picked:
        out = tmp_path / "out" / path.with_suffix(".glb").name
        assert errors(out) == []
        assert files[out.name]["counts"] == counts(load(path).json), path


def test_blender_option_starts_workers_the_way_blender_is_started(tmp_path):
    """No Blender executable here: a stand-in checks the command line Blender would get (``--background
    --factory-startup --python bootstrap.py -- PACKAGE_DIR``) and runs the bootstrap with this tier's bpy."""
    fake = tmp_path / "blender"
    fake.write_text(
        "#!/bin/sh\n"
        '[ "$1" = --background ] && [ "$2" = --factory-startup ] && [ "$3" = --python ] && [ "$5" = -- ] || exit 9\n'
        f'exec "{sys.executable}" -P "$4" "$@"\n'
    )
    fake.chmod(0o755)
    source = FIXTURES / "joints" / "hinge_x.gltf"
    result = convert(
        source, "-o", tmp_path / "out", "--blender", fake, "--format", "glb", "--report", tmp_path / "r.json"
    )
    assert result.returncode == 0, result.stderr
    assert report(tmp_path / "r.json")["hinge_x.glb"]["counts"]["joints"] == 1


def test_workers_leave_nothing_in_the_temporary_folder(tmp_path):
    """Blender makes a ``blender_XXXX`` folder in TMPDIR and removes it at a normal exit; workers leave with
    ``os._exit``, so each worker's Blender temporary folder must live in the worker's own folder (removed by the
    driver), also for a worker recycled after a crash-free batch and for both workers of ``--jobs 2``."""
    system_tmp = tmp_path / "tmp"
    system_tmp.mkdir()
    library(tmp_path / "in")
    env = dict(os.environ, TMPDIR=str(system_tmp))
    result = convert(tmp_path / "in", "-o", tmp_path / "out", "--jobs", "2", "--recycle", "2", env=env)
    assert result.returncode == 0, result.stderr
    assert len(list((tmp_path / "out").rglob("*.gltf"))) == len(LIBRARY)
    assert sorted(p.name for p in system_tmp.iterdir()) == []


# --- convert imports and exports a glTF output the ordinary way (what a full import builds) -----------------------


def _import(path) -> None:
    bpy.ops.wm.read_homefile(use_factory_startup=True, use_empty=True)
    devkit.enable()
    bpy.context.scene.gltf_physics.import_reproduce = False
    assert bpy.ops.import_scene.gltf(filepath=str(path)) == {"FINISHED"}


def _rows_after_convert(one_file, dst) -> list[str]:
    job = {"input": str(FIXTURES / "joints" / "filters.gltf"), "output": str(dst), "to": "2026", "validate": False}
    result = one_file.convert(job, devkit.enable)
    assert result["status"] in ("converted", "warnings"), result
    filters = [o.gltf_physics.collider.filter for o in bpy.data.objects if o.gltf_physics.collider.filter.has_filter]
    return [row.name for flt in filters for row in flt.collision_systems_rows]


def test_convert_imports_the_filter_rows_for_a_blend(one_file, tmp_path):
    assert _rows_after_convert(one_file, tmp_path / "out.blend")  # an artist opens it: the panels have their rows


def test_import_builds_collision_collections_and_filter_rows(addon):
    _import(FIXTURES / "joints" / "filters.gltf")
    flt = next(o.gltf_physics.collider.filter for o in bpy.data.objects if o.gltf_physics.collider.filter.has_filter)
    rows = [r.name for r in flt.collision_systems_rows]
    collections = {tuple(ob.rigid_body.collision_collections) for ob in bpy.data.objects if ob.rigid_body}
    assert json.loads(flt.collision_systems) == rows and rows
    assert len(collections) > 1


def test_import_builds_drive_motors(addon):
    _import(FIXTURES / "joints" / "motor_y.gltf")
    assert [ob.name for ob in bpy.data.objects if ob.gltf_physics.joint.role == "MOTOR"]


def test_import_simulates_a_convex_hull_of_a_centred_box_as_a_box(addon):
    """rev_2026's Hull is a convex hull of a centred box: Blender's BOX."""
    _import(FIXTURES / "import" / "rev_2026.gltf")
    assert bpy.data.objects["Hull"].rigid_body.collision_shape == "BOX"


def test_import_builds_shapes_for_implicit_colliders_and_triggers(addon, tmp_path):
    """A body, a static collider on an Empty and a trigger, all capsules: a proxy mesh for each (or a mesh in the
    Empty's place), and the stored values."""
    capsule = {"type": "capsule", "capsule": {"height": 0.5, "radiusTop": 0.1, "radiusBottom": 0.1}}
    shape = {"geometry": {"shape": 0}}
    nodes = [
        {"name": "Pill", "extensions": {RB: {"motion": {"mass": 2}, "collider": shape}}},
        {"name": "Post", "translation": [1, 0, 0], "extensions": {RB: {"collider": shape}}},
        {"name": "Zone", "translation": [2, 0, 0], "extensions": {RB: {"trigger": shape}}},
    ]
    gltf = {
        "asset": {"version": "2.0"},
        "scene": 0,
        "scenes": [{"nodes": [0, 1, 2]}],
        "nodes": nodes,
        "extensionsUsed": [RB, "KHR_implicit_shapes"],
        "extensions": {"KHR_implicit_shapes": {"shapes": [capsule]}},
    }
    path = tmp_path / "pills.gltf"
    path.write_text(json.dumps(gltf))
    _import(path)
    objects = {ob.name: ob for ob in bpy.data.objects}
    assert sorted(objects) == ["Pill", "Post", "Zone", "Zone.trigger"]
    assert {name: ob.rigid_body.collision_shape for name, ob in objects.items() if ob.rigid_body} == {
        "Pill": "CAPSULE",
        "Post": "CAPSULE",
    }
    assert sum(len(ob.data.vertices) for ob in objects.values() if ob.type == "MESH") > 100
    assert objects["Pill"].gltf_physics.motion.mass == 2.0


def test_import_turns_a_joint_node_to_the_joint_axes(addon):
    """hinge_z's joint node carries its constraint: the import turns it to the joint's axes (the export turns it
    back)."""
    from mathutils import Quaternion

    _import(FIXTURES / "joints" / "hinge_z.gltf")
    node = next(ob for ob in bpy.data.objects if ob.gltf_physics.joint.is_node)
    nodes = json.loads((FIXTURES / "joints" / "hinge_z.gltf").read_text())["nodes"]
    x, y, z, w = next(n for n in nodes if n.get("name") == node.name).get("rotation", [0, 0, 0, 1])
    as_in_file = [round(v, 6) for v in Quaternion((w, x, -z, y))]  # Blender's quaternion (w, x, y, z; Z up)
    assert [round(v, 6) for v in node.matrix_basis.to_quaternion()] != as_in_file


def test_import_builds_a_box_for_a_body_without_colliders(addon, tmp_path):
    """Such a body gets a 10 cm box that collides with nothing (in a mesh object in its Empty's place)."""
    gltf = {
        "asset": {"version": "2.0"},
        "scene": 0,
        "scenes": [{"nodes": [0]}],
        "nodes": [{"name": "Drifter", "extensions": {RB: {"motion": {"mass": 3}}}}],
        "extensionsUsed": [RB],
    }
    path = tmp_path / "drifter.gltf"
    path.write_text(json.dumps(gltf))
    _import(path)
    drifter = bpy.data.objects["Drifter"]
    assert drifter.gltf_physics.motion.mass == 3.0 and drifter.gltf_physics.generated_mesh
    assert (drifter.type, len(drifter.data.vertices), drifter.rigid_body.collision_shape) == ("MESH", 8, "BOX")
