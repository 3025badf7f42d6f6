"""``check`` on hostile inputs (issue 35): the resource rule of ``convert``, bounded sampling memory.

Rules checked: a glTF whose image URI Blender would read as a path outside the file's folder (``x://../…``)
fails with ``FILE_RESOURCE_OUTSIDE`` at its pointer and is never imported; a check whose frames × tracked objects
exceed ``sample.MAX_POSES`` fails with ``CHECK_TOO_LARGE`` before stepping a frame (the scene's cache range and
frame untouched), in the worker as in the operator."""

from __future__ import annotations

import json

import bpy
import pytest
from test_check_command import check

import devkit
from blenderkit import submodule
from scene_helpers import rigid_body_world, rigid_box
from testkit import FIXTURES, read_json


def test_check_refuses_a_resource_blender_would_read_outside_the_folder(tmp_path):
    (tmp_path / "secret.png").write_bytes(b"\x89PNG secret")
    folder = tmp_path / "in"
    folder.mkdir()
    document = read_json(FIXTURES / "basic_body.gltf")
    document["images"] = [{"uri": "x://../../secret.png"}]
    (folder / "door.gltf").write_text(json.dumps(document))
    run = check(folder / "door.gltf", "--frames", 5, "--json", tmp_path / "r.json")
    assert run.returncode == 1, run.stderr
    (entry,) = json.loads((tmp_path / "r.json").read_text())["files"]
    errors = [(d["code"], d["pointer"]) for d in entry["diagnostics"] if d["severity"] == "error"]
    assert errors == [("FILE_RESOURCE_OUTSIDE", "/images/0/uri")]
    assert "Traceback" not in run.stderr


@pytest.fixture
def boxes(addon):
    bpy.ops.wm.read_homefile(use_factory_startup=True, use_empty=True)
    devkit.enable()
    world = rigid_body_world(bpy.context.scene)
    for i in range(3):
        rigid_box(world, f"Box{i}", location=(2.0 * i, 0.0, 1.0))
    return addon


def test_a_check_beyond_the_sample_budget_fails_before_stepping(boxes, tmp_path, monkeypatch):
    sample = submodule(boxes, "io.check.sample")
    monkeypatch.setattr(sample, "MAX_POSES", 100)  # the rule at a size this test builds quickly: 3 bodies × 40
    scene = bpy.context.scene
    scene.frame_set(7)
    cache_end = scene.rigidbody_world.point_cache.frame_end
    with pytest.raises(sample.SampleBudgetError, match="120 poses, more than 100"):
        sample.sample_scene(scene, 40)
    assert scene.frame_current == 7 and scene.rigidbody_world.point_cache.frame_end == cache_end
    assert sample.sample_scene(scene, 30)["frames"] == 30  # 90 poses: within the budget
    with pytest.raises(RuntimeError, match="more than 100 a check holds in memory"):  # the operator's ERROR report
        bpy.ops.gltf_physics.check_simulation(frames=40)


def test_the_worker_job_reports_the_budget_as_an_error(boxes, monkeypatch):
    sample = submodule(boxes, "io.check.sample")
    job = submodule(boxes, "io.check.job")
    monkeypatch.setattr(sample, "MAX_POSES", 10)
    submodule(boxes, "io.convert.one_file").RESET.opened_blend()  # the next reset is a full home file
    result = job.check_file({"input": str(FIXTURES / "basic_body.gltf"), "frames": 50}, devkit.enable)
    assert result["status"] == "failed" and result["samples"] is None
    assert [d["code"] for d in result["diagnostics"] if d["severity"] == "error"] == ["CHECK_TOO_LARGE"]
