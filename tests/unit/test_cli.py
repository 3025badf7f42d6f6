"""The ``gltf-physics`` command line: validate (human, --json, exit codes) and migrate (.gltf + .bin, .glb),
run through the real launcher ``bin/gltf-physics`` in a subprocess."""

import json
import pathlib
import subprocess
import tomllib

import khronos
import pytest

from testkit import FIXTURES, ROOT, corpus_files, read_json, submodule

gltf_file = submodule("io.gltf.files")
migrate = submodule("io.gltf.migrate")
cli = submodule("io.cli")

LAUNCHER = ROOT / "bin" / "gltf-physics"


def run(*args, cwd=None):
    return subprocess.run([str(LAUNCHER), *map(str, args)], capture_output=True, text=True, cwd=cwd, timeout=120)


def _one(pattern):
    files = corpus_files(pattern)
    if not files:
        pytest.skip("corpus absent")
    return files[0]


def test_help_lists_subcommands():
    result = run("--help")
    assert result.returncode == 0
    for name in ("validate", "migrate", "metrics", "convert", "check"):
        assert name in result.stdout
    for name in ("migrate", "metrics", "convert", "check"):
        assert run(name, "--help").returncode == 0, name


def _imported(*args) -> set[str]:
    """The modules loaded when ``bin/launch.py ARGS`` exits (listed by an ``atexit`` hook), without any Blender."""
    import sys

    script = (
        "import atexit, runpy, sys\n"
        "atexit.register(lambda: print('MODULES', *sorted(sys.modules), file=sys.stderr))\n"
        f"sys.argv = ['launch.py', *{list(args)!r}]\n"
        f"runpy.run_path({str(ROOT / 'bin' / 'launch.py')!r}, run_name='__main__')\n"
    )
    result = subprocess.run([sys.executable, "-P", "-c", script], capture_output=True, text=True, timeout=120)
    listed = [line for line in result.stderr.splitlines() if line.startswith("MODULES ")]
    assert listed, result.stderr
    return set(listed[-1].split()[1:])


def test_convert_starts_without_numpy_or_the_simulation_code():
    """``convert`` starts its workers sooner: only its own module of the other commands is imported."""
    modules = _imported("convert", "--help")
    assert "gltf_physics.io.convert.driver" in modules
    assert not {"numpy", "gltf_physics.sim", "gltf_physics.io.check.driver", "gltf_physics.io.gltf.parse"} & modules
    overview = _imported("--help")  # the overview loads every command
    assert {"numpy", "gltf_physics.sim", "gltf_physics.io.check.driver"} <= overview


@pytest.mark.corpus
def test_validate_valid_file_exits_0():
    path = _one("glTF_Physics/tests/RigidBodies_Joint/RigidBodies_Joint_02.gltf")
    result = run("validate", path)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "ok (0 errors" in result.stdout


@pytest.mark.corpus
def test_validate_invalid_file_json_and_exit_1():
    bad = _one("glTF-Validator_KHR_implicit_shapes/**/jointlimit_invalid_limits.gltf")
    good = _one("glTF_Physics/tests/RigidBodies_Joint/RigidBodies_Joint_02.gltf")
    result = run("validate", "--json", good, bad)
    assert result.returncode == 1
    listed = json.loads(result.stdout)
    assert [(f["file"], f["status"]) for f in listed["files"]] == [(str(good), "ok"), (str(bad), "failed")]
    assert (listed["totals"]["files"], listed["totals"]["ok"], listed["totals"]["failed"]) == (2, 1, 1)
    rows = [{"file": f["file"], **d} for f in listed["files"] for d in f["diagnostics"]]
    assert rows and all(set(r) == {"file", "severity", "code", "pointer", "message"} for r in rows)
    errors = [r for r in rows if r["severity"] == "error"]
    assert errors and all(r["file"] == str(bad) for r in errors)
    assert any(r["pointer"].startswith("/extensions/KHR_physics_rigid_bodies/physicsJoints/0/limits") for r in errors)
    human = run("validate", bad)
    assert human.returncode == 1 and "FAILED" in human.stdout


def test_validate_unreadable_and_not_json(tmp_path):
    broken = tmp_path / "broken.gltf"
    broken.write_text("{not json", encoding="utf-8")
    result = run("validate", "--json", broken, tmp_path / "missing.gltf")
    assert result.returncode == 2  # unreadable input (issue 11, item 8; was 1 before)
    listed = json.loads(result.stdout)["files"]
    assert [d["code"] for f in listed for d in f["diagnostics"]] == ["FILE_INVALID_JSON", "FILE_UNREADABLE"]
    assert [f["status"] for f in listed] == ["unreadable", "unreadable"]


def test_validate_walks_folders_lists_clean_files_and_ends_with_totals(tmp_path):
    (tmp_path / "lib" / "sub").mkdir(parents=True)
    (tmp_path / "lib" / "a.gltf").write_text((FIXTURES / "basic_body.gltf").read_text(), encoding="utf-8")
    (tmp_path / "lib" / "sub" / "b.gltf").write_text((FIXTURES / "import" / "malformed.gltf").read_text())
    (tmp_path / "lib" / "notes.txt").write_text("not a model")
    result = run("validate", "--json", tmp_path / "lib")
    assert result.returncode == 1, result.stderr
    listed = json.loads(result.stdout)
    statuses = {pathlib.Path(f["file"]).name: f["status"] for f in listed["files"]}
    assert statuses == {"a.gltf": "ok", "b.gltf": "failed"}  # the clean file is listed too
    assert listed["totals"] == {
        "files": 2,
        "ok": 1,
        "failed": 1,
        "unreadable": 0,
        "errors": 7,
        "warnings": 0,
        "infos": 7,
    }
    human = run("validate", tmp_path / "lib")
    assert human.stdout.splitlines()[-1] == "2 files: 1 ok, 1 failed, 0 unreadable; 7 errors, 0 warnings, 7 infos"
    empty = tmp_path / "empty"
    empty.mkdir()
    assert run("validate", empty).returncode == 2


@pytest.mark.skipif(not hasattr(__import__("os"), "mkfifo"), reason="FIFOs are Unix")
def test_validate_walks_a_folder_as_convert_does_deep_trees_and_fifos_skipped(tmp_path):
    """The folder walk is convert's (``convert.walk``): any depth, a FIFO named ``*.gltf`` named and never opened."""
    import os

    deep = tmp_path / "lib"
    for _ in range(120):
        deep = deep / "d"
    deep.mkdir(parents=True)
    (deep / "a.gltf").write_text((FIXTURES / "basic_body.gltf").read_text(), encoding="utf-8")
    os.mkfifo(tmp_path / "lib" / "pipe.gltf")
    result = run("validate", "--json", tmp_path / "lib")
    assert result.returncode == 0, result.stderr
    assert [pathlib.Path(f["file"]).name for f in json.loads(result.stdout)["files"]] == ["a.gltf"]
    assert "pipe.gltf: not a regular file" in result.stderr


@pytest.mark.parametrize("command", [[], ["validate"], ["migrate"], ["convert"], ["metrics"], ["check"]])
def test_version_on_the_command_and_every_subcommand(command):
    manifest = tomllib.loads((ROOT / "blender_manifest.toml").read_text(encoding="utf-8"))
    result = run(*command, "--version")
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == f"gltf-physics {manifest['version']}"


@pytest.mark.corpus
def test_migrate_gltf_with_bin_roundtrip(tmp_path):
    source = _one("glTF_Physics/samples/JointTypes/JointTypes.gltf")
    out_omi, out_back = tmp_path / "omi" / "j.gltf", tmp_path / "back" / "j.gltf"
    assert run("migrate", source, out_omi, "--to", "omi").returncode == 0
    assert run("migrate", out_omi, out_back, "--to", "2024-10").returncode == 0
    khronos.check(out_omi, source=source)
    khronos.check(out_back, source=source)
    for uri in gltf_file.relative_uris(read_json(source)):  # resources copied next to the outputs
        assert (out_omi.parent / uri).read_bytes() == (source.parent / uri).read_bytes()
        assert (out_back.parent / uri).exists()
    omi = read_json(out_omi)
    assert "OMI_physics_body" in omi["extensionsUsed"] and "KHR_physics_rigid_bodies" not in omi["extensionsUsed"]
    original, back = read_json(source), read_json(out_back)
    assert migrate.strip_physics(back) == migrate.strip_physics(original) | {
        "nodes": migrate.strip_physics(back)["nodes"]
    }
    assert [migrate.strip_physics(back)["nodes"][i] for i in range(len(original["nodes"]))] == migrate.strip_physics(
        original
    )["nodes"]


@pytest.mark.corpus
def test_migrate_glb_keeps_binary_chunk_and_non_physics_json(tmp_path):
    source = _one("glTF_Physics/samples/JointTypes/JointTypes.glb")
    out = tmp_path / "j.glb"
    result = run("migrate", source, out, "--to", "2026")
    assert result.returncode == 0, result.stderr
    before, after = gltf_file.load(source), gltf_file.load(out)
    assert after.is_glb and after.chunks[0][1][: len(before.chunks[0][1])] == before.chunks[0][1]
    assert len(after.chunks[0][1]) % 4 == 0
    assert migrate.strip_physics(after.json) == migrate.strip_physics(before.json)
    assert "KHR_physics_rigid_bodies" in after.json["extensionsUsed"]
    back = tmp_path / "b.glb"
    assert run("migrate", out, back, "--to", "2024-10").returncode == 0
    khronos.check(out, source=source)
    khronos.check(back, source=source)
    assert migrate.strip_physics(gltf_file.load(back).json) == migrate.strip_physics(before.json)


def test_migrate_rejects_unknown_target(tmp_path):
    result = run("migrate", "a.gltf", tmp_path / "b.gltf", "--to", "2099")
    assert result.returncode == 2 and "invalid choice" in result.stderr


def test_register_adds_a_subcommand():
    def add(subparsers):
        subparsers.add_parser("hello", help="test").set_defaults(func=lambda args: 7)

    cli.register(add)
    try:
        assert cli.main(["hello"]) == 7
    finally:
        cli.SUBCOMMANDS.remove(add)


def _one_clean_line(result: subprocess.CompletedProcess) -> str:
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert result.returncode == 2 and len(lines) == 1, result.stderr
    assert "Traceback" not in result.stderr and "\\n" not in result.stderr and "failed 0" not in result.stderr
    return lines[0]


def test_convert_without_bpy_says_so_in_one_line(tmp_path):
    """This Python without bpy (``-S``: no site-packages): one line naming what to do, no worker started."""
    import sys

    command = [
        sys.executable,
        "-S",
        "-P",
        str(ROOT / "bin" / "launch.py"),
        "convert",
        str(FIXTURES / "basic_body.gltf"),
    ]
    result = subprocess.run([*command, "-o", str(tmp_path / "out")], capture_output=True, text=True, timeout=120)
    line = _one_clean_line(result)
    assert "bpy" in line and "--python" in line and "--blender" in line
    assert not (tmp_path / "out").exists()


def test_a_worker_that_cannot_start_is_one_line(tmp_path):
    """A ``--python`` whose bootstrap dies with a traceback: its last line, never the traceback or a summary."""
    fake = tmp_path / "python"
    fake.write_text(
        "#!/bin/sh\n"
        "echo 'Traceback (most recent call last):' >&2\n"
        "echo '  File \"bootstrap.py\", line 30, in _enable' >&2\n"
        "echo \"ModuleNotFoundError: No module named 'bpy'\" >&2\n"
        "exit 1\n"
    )
    fake.chmod(0o755)
    result = run("convert", FIXTURES / "basic_body.gltf", "-o", tmp_path / "out", "--python", fake)
    line = _one_clean_line(result)
    assert line.startswith("error: ") and "No module named 'bpy'" in line
