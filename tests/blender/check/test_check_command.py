"""``check`` through ``bin/gltf-physics`` in subprocesses (workers: this tier's bpy) on own fixtures
(scripts/make_check_fixtures.py), and the operator *Check Simulation* on a scene built in Blender with no file."""

from __future__ import annotations

import json
import subprocess

import bpy
import pytest

from blenderkit import cli_command, run_together, submodule
from scene_helpers import constraint, rigid_body_world, rigid_box
from testkit import FIXTURES, ROOT

CHECK = FIXTURES / "check"
PNG = b"\x89PNG\r\n\x1a\n"


def check(*args: object) -> subprocess.CompletedProcess:
    return run_together([cli_command("check", *args)])[0]


@pytest.fixture(scope="module")
def clean_run(tmp_path_factory):
    out = tmp_path_factory.mktemp("check")
    run = check(CHECK / "drop_trigger.gltf", "--frames", 90, "--json", out / "report.json", "--plots", out / "plots")
    return run, out


def test_clean_file_exits_0_with_the_measured_report(clean_run):
    run, out = clean_run
    assert run.returncode == 0, run.stderr
    data = json.loads((out / "report.json").read_text())
    (entry,) = data["files"]
    assert entry["status"] == "ok" and entry["file"].endswith("drop_trigger.gltf")
    report = entry["report"]
    assert report["format"] == "gltf_physics.check/2" and report["frames"] == 90
    bodies = {b["name"]: b for b in report["bodies"]}
    assert set(bodies) == {"Ground", "Crate", "Post", "Arm"}
    crate = bodies["Crate"]
    assert crate["kind"] == "dynamic" and crate["start_m"][2] == pytest.approx(4.0)
    assert crate["rest_height_m"] == pytest.approx(0.1 + 0.15, abs=0.03)  # on the 0.2 m ground, half its 0.3 m
    assert crate["settled"] and bodies["Ground"]["travel_m"] == 0.0
    (gate,) = report["triggers"]
    assert [(e["kind"], e["body"]) for e in gate["events"]] == [("enter", "Crate"), ("exit", "Crate")]
    fall = (4.0 - 0.15 - 2.25) * 2 / 9.81  # crate bottom reaches the gate's top at sqrt(2 h / g)
    assert gate["events"][0]["time_s"] == pytest.approx(fall**0.5, abs=0.08)
    (hinge,) = report["joints"]
    assert hinge["type"] == "HINGE" and (hinge["body_a"], hinge["body_b"]) == ("Post", "Arm")
    assert [li["kind"] for li in hinge["limits"]] == ["linear-point", "angular-cone"]
    assert hinge["max_violation_m"] < 1e-3 and hinge["max_violation_rad"] < 1e-3 and not hinge["violated"]
    (drive,) = hinge["drives"]
    assert drive["target_kind"] == "velocity" and drive["reached"] and drive["measured"] == pytest.approx(1.0, abs=0.05)
    assert bodies["Arm"]["spin_rad"] > 2.0  # driven at 1 rad/s for 3.7 s
    assert "Crate" in run.stdout and "trigger Gate.trigger: enter Crate" in run.stdout


def test_fail_on_violation_exits_1_for_a_drive_not_reached(tmp_path):
    """Like ``metrics --fail-on-violation``: a CI can gate on the motion (before: exit 0 with "NOT reached")."""
    gltf = json.loads((CHECK / "drop_trigger.gltf").read_text())
    joint = gltf["extensions"]["KHR_physics_rigid_bodies"]["physicsJoints"][0]
    joint["limits"][1]["angularAxes"] = [0, 1, 2]  # the hinge locked: its 1 rad/s drive cannot turn it
    path = tmp_path / "locked_hinge.gltf"
    path.write_text(json.dumps(gltf))
    plain, gated, clean_gated = run_together(
        [
            cli_command("check", path, "--frames", 48, "--json", tmp_path / "plain.json"),
            cli_command("check", path, "--frames", 48, "--fail-on-violation"),
            cli_command("check", CHECK / "drop_trigger.gltf", "--frames", 48, "--fail-on-violation"),
        ]
    )
    assert plain.returncode == 0, plain.stderr  # without the flag: a report, not a gate
    assert "NOT reached" in plain.stdout and "rad/s" in plain.stdout
    (entry,) = json.loads((tmp_path / "plain.json").read_text())["files"]
    (drive,) = entry["report"]["joints"][0]["drives"]
    assert not drive["reached"] and drive["unit"] == "rad/s"
    assert gated.returncode == 1, gated.stdout + gated.stderr
    assert clean_gated.returncode == 0, clean_gated.stdout + clean_gated.stderr


def test_plots_are_pngs(clean_run):
    _run, out = clean_run
    names = sorted(p.name for p in (out / "plots").iterdir())
    assert names == ["00_drop_trigger_heights.png", "00_drop_trigger_joint_00_Pivot.png"]
    assert all((out / "plots" / name).read_bytes()[:8] == PNG for name in names)


def test_malformed_files_exit_1_with_a_clear_message(tmp_path):
    run = check(CHECK / "not_json.gltf", CHECK / "bad_physics.gltf", "--json", tmp_path / "r.json")
    assert run.returncode == 1
    assert "Traceback" not in run.stderr
    assert "not_json.gltf: error FILE_INVALID_JSON" in run.stderr and "invalid JSON" in run.stderr
    pointer = "/nodes/0/extensions/KHR_physics_rigid_bodies/motion/mass"
    assert run.stderr.count(f"bad_physics.gltf: error VALUE_NOT_IN_RANGE {pointer}") == 1  # validate and import: once
    files = json.loads((tmp_path / "r.json").read_text())["files"]
    listed = [(d["code"], d["pointer"]) for d in files[1]["diagnostics"]]
    assert listed.count(("VALUE_NOT_IN_RANGE", pointer)) == 1
    assert [f["status"] for f in files] == ["failed", "failed"]
    assert files[0]["report"] is None  # never imported
    assert files[1]["report"]["bodies"][0]["name"] == "Crate"  # the rest of the file is still checked


@pytest.mark.parametrize("args", [["--frames", "0", "x.gltf"], ["missing.gltf"], []])
def test_usage_errors_exit_2(args, tmp_path):
    run = check(*[tmp_path / a if a.endswith(".gltf") else a for a in args])
    assert run.returncode == 2, run.stderr


def test_operator_checks_a_scene_built_in_blender(clean):
    rbw = rigid_body_world()
    ground = rigid_box(rbw, "Ground", size=(6, 6, 0.2), kind="PASSIVE")
    rigid_box(rbw, "Box", size=(0.5, 0.5, 0.5), location=(0, 0, 3))
    post = rigid_box(rbw, "Post", size=(0.2, 0.2, 0.2), kind="PASSIVE", location=(3, 0, 3))
    arm = rigid_box(rbw, "Arm", size=(0.2, 0.2, 0.2), location=(3, 1, 3))
    hinge = constraint(rbw, "Hinge", post, arm, "HINGE", location=(3, 0, 3), rotation=(0, 1.5707963, 0))
    hinge.use_limit_ang_z, hinge.limit_ang_z_lower, hinge.limit_ang_z_upper = True, -0.5, 0.5
    bpy.context.scene.frame_set(7)
    assert ground.rigid_body.type == "PASSIVE"
    assert bpy.ops.gltf_physics.check_simulation(frames=72) == {"FINISHED"}
    assert bpy.context.scene.frame_current == 7  # the scene is left where it was
    report = submodule(clean, "ui.scene.operators_check").LAST_CHECK["report"]
    json.dumps(report)  # JSON-ready
    bodies = {b["name"]: b for b in report["bodies"]}
    assert set(bodies) == {"Ground", "Box", "Post", "Arm"}
    assert bodies["Box"]["rest_height_m"] == pytest.approx(0.1 + 0.25, abs=0.03) and bodies["Box"]["settled"]
    (joint,) = report["joints"]
    assert joint["name"] == "Hinge" and joint["type"] == "HINGE"
    twist = next(li for li in joint["limits"] if li["kind"] == "angular-twist")
    assert (twist["min"], twist["max"]) == pytest.approx((-0.5, 0.5))
    assert twist["metric"]["min"] < -0.4  # the arm falls against its stop ...
    assert twist["max_violation"] < 0.05  # ... and the hinge keeps it
    assert bodies["Arm"]["min_height_m"] < 2.9


def test_python_api_checks_the_current_scene_beyond_the_point_cache_end(clean):
    rbw = rigid_body_world()
    rigid_box(rbw, "Falling", location=(0, 0, 10)).rigid_body.linear_damping = 0.0  # free fall
    end = rbw.point_cache.frame_end
    frames = end + 50  # the cache's end is raised for the run, then restored
    report = submodule(clean, "io.check.job").check_scene(bpy.context.scene, frames=frames)
    (falling,) = report["bodies"]
    assert falling["name"] == "Falling" and report["frames"] == frames
    seconds = (frames - 1) / bpy.context.scene.render.fps
    assert report["seconds"] == pytest.approx(seconds)
    assert falling["rest_height_m"] == pytest.approx(10 - 0.5 * 9.81 * seconds**2, rel=0.01)
    assert rbw.point_cache.frame_end == end


def test_unwritable_report_exits_2(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("")
    run = check(CHECK / "drop_trigger.gltf", "--frames", 5, "--json", blocker / "report.json")
    assert run.returncode == 2 and "output not written" in run.stderr and "Traceback" not in run.stderr


def test_a_body_with_an_initial_velocity_is_reported_dynamic(clean):
    """The demo's Pill is dynamic with an initial velocity: Reproduce Motion makes it kinematic for its pre-roll
    only, so the check reports the body's kind, not the pre-roll's (it used to say "kinematic")."""
    import devkit

    result = submodule(clean, "io.check.job").check_path(ROOT / "examples" / "demo_scene.gltf", 60, devkit.enable)
    kinds = {body["name"]: body["kind"] for body in result["report"]["bodies"]}
    assert kinds["Pill"] == "dynamic", kinds
    assert kinds["Ground"] == "static", kinds
