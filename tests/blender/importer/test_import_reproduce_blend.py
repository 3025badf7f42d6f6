"""A ``.blend`` handed on plays without the extension (issue 34, item 6): Reproduce Motion is built only from data
Blender keeps — simple-expression drivers for the velocity pre-roll and its release, constraints, collections, world
settings — so the MotionProperties conformance scenes written by ``convert --format blend``, opened in a fresh
process whose Blender has never seen the extension, move as the conformance expectations say (before: bodies with
an initial velocity never left their pre-roll without the extension's frame handler)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import textwrap

import bpy
import numpy as np
import pytest
from conformance_expectations import motion_properties
from convert_helpers import convert

from blenderkit import submodule
from testkit import CORPUS, corpus_files

FILES = corpus_files("glTF_Physics/tests/RigidBodies_MotionProperties/*.gltf", sample=False)
FRAMES = 120

PLAY = textwrap.dedent(
    """
    import json, sys
    import bpy

    blend, names, out = sys.argv[1], json.loads(sys.argv[2]), sys.argv[3]
    bpy.ops.wm.open_mainfile(filepath=blend, load_ui=False, use_scripts=False)
    handlers = [h.__name__ for h in bpy.app.handlers.frame_change_pre]
    addons = list(bpy.context.preferences.addons.keys())
    drivers = [
        (ob.name, fc.data_path, fc.driver.is_simple_expression and fc.driver.is_valid)
        for ob in bpy.data.objects
        if ob.animation_data is not None
        for fc in ob.animation_data.drivers
    ]
    scene = bpy.context.scene
    track = {name: ([], []) for name in names}
    for i in range(int(sys.argv[4])):
        scene.frame_set(scene.frame_start + i)
        for name in names:
            t, q, _ = bpy.data.objects[name].matrix_world.decompose()
            track[name][0].append(list(t))
            track[name][1].append([q.x, q.y, q.z, q.w])
    fps = scene.render.fps / scene.render.fps_base
    result = {
        "extension": hasattr(bpy.types.Object, "gltf_physics") or any("gltf_physics" in a for a in addons),
        "handlers": handlers,
        "drivers": drivers,
        "seconds_per_frame": scene.rigidbody_world.time_scale / fps,
        "track": track,
    }
    with open(out, "w") as handle:
        json.dump(result, handle)
    """
)


@pytest.fixture(scope="module")
def blends(addon, tmp_path_factory):
    """The MotionProperties scenes converted by ``bin/gltf-physics convert --format blend`` (one run)."""
    if not FILES:
        pytest.skip(f"no MotionProperties scenes under {CORPUS}")
    out = tmp_path_factory.mktemp("blend")
    result = convert(FILES[0].parent, "-o", out, "--format", "blend", timeout=600)
    assert result.returncode == 0, result.stdout + result.stderr
    return out


def _bodies(addon, blend) -> dict[str, int | None]:
    """Body name → glTF node of the converted scene, read with the extension (what ``check`` samples)."""
    bpy.ops.wm.open_mainfile(filepath=str(blend))
    sample = submodule(addon, "io.check.sample")
    out = {}
    for ob in sample.scene_bodies(bpy.context.scene):
        pg = ob.gltf_physics
        out[ob.name] = pg.node_index if pg.role == "NODE" and pg.node_index >= 0 else None
    bpy.ops.wm.read_homefile(use_factory_startup=True, use_empty=True)
    return out


def _play_without_extension(blend, names: list[str], tmp_path, frames: int = FRAMES) -> dict:
    script, out = tmp_path / "play.py", tmp_path / "played.json"
    script.write_text(PLAY)
    env = {**os.environ, "BLENDER_USER_RESOURCES": tempfile.mkdtemp(prefix="no_extension_", dir=tmp_path)}
    command = [sys.executable, "-P", str(script), str(blend), json.dumps(names), str(out), str(frames)]
    done = subprocess.run(command, capture_output=True, text=True, timeout=300, env=env, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    return json.loads(out.read_text())


@pytest.mark.corpus
@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_a_converted_blend_moves_as_the_file_says_without_the_extension(addon, blends, path, tmp_path):
    blend = blends / f"{path.stem}.blend"
    bodies = _bodies(addon, blend)
    played = _play_without_extension(blend, sorted(bodies), tmp_path)
    assert not played["extension"] and "on_frame_change" not in played["handlers"]
    assert all(simple for _, _, simple in played["drivers"]), played["drivers"]  # no Python needed, none broken
    evaluate = submodule(addon, "io.check.evaluate")
    time = [i * played["seconds_per_frame"] for i in range(FRAMES)]
    report = {"seconds": time[-1], "bodies": []}
    for name, node in sorted(bodies.items()):
        position, rotation = played["track"][name]
        entry = {"name": name, "node": node, "kind": "dynamic", "position": position, "rotation": rotation}
        report["bodies"].append(evaluate.body_trajectory(entry, np.asarray(time)))
    assert motion_properties(json.loads(path.read_text()), report) == []
