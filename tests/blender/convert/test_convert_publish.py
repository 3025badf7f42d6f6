"""How ``convert`` publishes into OUT (issue 35, the write side): an output is replaced as a set (a kill before or
after the final rename shows the old or the new set, never a mix), temporary files of a killed run are gone after
the next run, every published file has the umask's mode, a second run into one OUT refuses, SIGTERM / SIGHUP write
the report as Ctrl-C does, ``--skip-existing`` compares the options and every resource, a read-only OUT stops the
run before any import, and long or non-UTF-8 file names convert."""

from __future__ import annotations

import json
import os
import shutil
import signal
import stat
import subprocess
import sys
import time
import urllib.parse

import pytest
from convert_helpers import convert, leftovers, library, report, written

from blenderkit import cli_command, submodule
from testkit import FIXTURES, ROOT, read_json


def _body(folder, name="body.gltf", texture: bytes | None = None):
    """``basic_body.gltf`` as ``folder/name``; with ``texture``, a material using ``t.png`` beside it."""
    folder.mkdir(parents=True, exist_ok=True)
    document = read_json(FIXTURES / "basic_body.gltf")
    if texture is not None:
        (folder / "t.png").write_bytes(texture)
        document["images"] = [{"name": "T", "uri": "t.png"}]
        document["textures"] = [{"source": 0}]
        document["materials"] = [{"name": "M", "pbrMetallicRoughness": {"baseColorTexture": {"index": 0}}}]
        for mesh in document["meshes"]:
            for primitive in mesh["primitives"]:
                primitive["material"] = 0
    (folder / name).write_text(json.dumps(document))
    return folder / name


def _png(rgb) -> bytes:
    from test_convert_resources import png

    return png(rgb)


def _uris(gltf) -> list[str]:
    document = json.loads(gltf.read_text())
    return [urllib.parse.unquote(item["uri"]) for key in ("buffers", "images") for item in document.get(key, [])]


class Killed(BaseException):
    """Stands for a kill at the moment the stamp is written: just before the final rename."""


def test_a_kill_before_the_final_rename_leaves_the_previous_set_whole(addon, tmp_path):
    one_file, publish = submodule(addon, "io.convert.one_file"), submodule(addon, "io.convert.publish")
    out = tmp_path / "out"
    assert convert(_body(tmp_path / "in"), "-o", out, "--format", "gltf").returncode == 0
    old = {name: (out / name).read_bytes() for name in written(out)}
    assert sorted(old) == ["body.bin", "body.gltf"]
    staged = publish.partial_path(out / "body.gltf")
    staged.mkdir()
    (staged / "body.gltf").write_bytes(old["body.gltf"])
    (staged / "body.bin").write_bytes(old["body.bin"][::-1])  # the new version of the buffer

    def killed(*_):
        raise Killed

    with pytest.raises(Killed):
        one_file._commit_gltf(staged / "body.gltf", out / "body.gltf", [], killed)
    (new_buffer,) = [name for name in written(out) if name not in old]  # published under a new name
    assert {name: (out / name).read_bytes() for name in old} == old  # the old set still whole
    publish.remove_partial(out / "body.gltf")  # what the next run does first
    assert {name: (out / name).read_bytes() for name in written(out)} == old and not leftovers(out)
    staged.mkdir()
    (staged / "body.gltf").write_bytes(old["body.gltf"])
    (staged / "body.bin").write_bytes(old["body.bin"][::-1])
    diagnostics: list[dict] = []
    one_file._commit_gltf(staged / "body.gltf", out / "body.gltf", diagnostics)
    assert diagnostics == []
    assert written(out) == sorted(["body.gltf", new_buffer]) and _uris(out / "body.gltf") == [new_buffer]
    assert (out / new_buffer).read_bytes() == old["body.bin"][::-1]


def test_the_next_run_removes_what_a_killed_run_left_and_files_get_the_umask_mode(tmp_path):
    """Temporary files of atomic writes and a half-published set (journal, staged files) go; every published file
    (the image too: it was 0600) is 0644 under umask 022."""
    out = tmp_path / "out"
    out.mkdir()
    (out / ".body.gltf.Ab3_x9Qz.tmp").write_bytes(b"half")
    (out / ".body.bin.00aa11bb.tmp").write_bytes(b"half")
    stale = out / ".body.gltf.partial"  # the name before this change, with a journal of a killed commit
    stale.mkdir()
    (stale / "publish.json").write_text(json.dumps({"output": "body.gltf", "files": ["body-0123456789ab.bin"]}))
    (out / "body-0123456789ab.bin").write_bytes(b"published, never referenced")
    source = _body(tmp_path / "in", texture=_png((9, 8, 7)))
    result = convert(source, "-o", out, "--format", "gltf", preexec_fn=lambda: os.umask(0o022))
    assert result.returncode == 0, result.stderr
    assert written(out) == ["body.bin", "body.gltf", "t.png"] and not leftovers(out)
    assert {name: stat.S_IMODE((out / name).stat().st_mode) for name in written(out)} == dict.fromkeys(
        written(out), 0o644
    )


def test_a_second_run_into_a_locked_output_folder_refuses(addon, tmp_path):
    state = submodule(addon, "io.convert.state")
    out = tmp_path / "out"
    (out / "keep").mkdir(parents=True)
    partial = submodule(addon, "io.convert.publish").partial_path(out / "keep" / "a.gltf")
    partial.mkdir()  # a running run's staged output: the second run must not remove it
    with state.locked(out.resolve()):
        result = convert(_body(tmp_path / "in"), "-o", out, "--report", tmp_path / "r.json")
    assert result.returncode == 2, result.stderr
    assert "another convert run is writing into OUT" in result.stderr and "Traceback" not in result.stderr
    assert partial.is_dir() and written(out) == [] and not (tmp_path / "r.json").exists()
    assert convert(_body(tmp_path / "in"), "-o", out).returncode == 0  # the lock is free again: the run converts


SETS = 40  # 160 files: the run is still going when the signal arrives (or the second run starts)


def test_a_second_run_started_while_the_first_converts_refuses_and_the_first_finishes(tmp_path):
    """Two runs into one OUT removed each other's ``.partial`` folders (files failed in both, outputs went missing)."""
    src, out = tmp_path / "in", tmp_path / "out"
    for i in range(SETS):
        library(src / f"set{i:02d}")
    command = cli_command("convert", src, "-o", out)
    first = subprocess.Popen([*command, "--format", "glb"], stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 120
    while not list(out.rglob("*.glb")) and time.monotonic() < deadline:
        time.sleep(0.05)
    second = subprocess.run([*command, "--format", "glb"], capture_output=True, text=True, timeout=120)
    _, stderr = first.communicate(timeout=300)
    assert first.poll() is not None and first.returncode == 0, stderr
    assert second.returncode == 2 and "another convert run is writing into OUT" in second.stderr, second.stderr
    assert len(written(out)) == 4 * SETS and not leftovers(out)


@pytest.mark.parametrize("signame", ["SIGTERM", "SIGHUP"])
def test_sigterm_and_sighup_write_the_report_and_remove_temporary_folders(tmp_path, signame):
    system_tmp = tmp_path / "tmp"
    system_tmp.mkdir()
    src, out = tmp_path / "in", tmp_path / "out"
    for i in range(SETS):
        library(src / f"set{i:02d}")
    command = cli_command("convert", src, "-o", out)
    env = dict(os.environ, TMPDIR=str(system_tmp))
    run = subprocess.Popen(
        [*command, "--format", "glb", "--report", str(tmp_path / "r.json")], stderr=subprocess.PIPE, env=env, text=True
    )
    deadline = time.monotonic() + 120
    while not [p for p in out.rglob("*.glb")] and time.monotonic() < deadline:
        time.sleep(0.05)
    run.send_signal(getattr(signal, signame))
    _, stderr = run.communicate(timeout=120)
    number = getattr(signal, signame)
    assert run.returncode == 128 + number, stderr
    assert f"stopped by {signame}" in stderr and "Traceback" not in stderr
    statuses = [f["status"] for f in report(tmp_path / "r.json").values()]
    assert "not_run" in statuses and len(statuses) == 4 * SETS
    assert not leftovers(out) and list(system_tmp.iterdir()) == []  # no .partial, no worker folder


def test_skip_existing_compares_the_options_and_every_resource(tmp_path):
    src, out = tmp_path / "in", tmp_path / "out"
    _body(src, texture=_png((1, 2, 3)))

    def status(*options) -> str:
        report_path = tmp_path / "r.json"
        result = convert(src, "-o", out, "--format", "gltf", "--skip-existing", "--report", report_path, *options)
        assert result.returncode == 0, result.stderr
        return report(tmp_path / "r.json")["body.gltf"]["status"]

    assert status() != "skipped"
    assert status() == "skipped"
    assert status("--to", "2024-10") != "skipped"  # another revision
    assert status("--to", "2024-10") == "skipped"
    (src / "t.png").write_bytes(_png((4, 5, 6)))  # a changed texture
    assert status("--to", "2024-10") != "skipped"
    (out / "body.bin").unlink()  # a deleted output buffer
    assert status("--to", "2024-10") != "skipped"
    assert (out / "body.bin").is_file() and status("--to", "2024-10") == "skipped"


def test_skip_existing_converts_again_when_a_missing_image_appears(tmp_path):
    """A glTF input whose image is missing converts with a warning; the stamp lists the image as missing, so the run
    after the image appeared converts the file again (and the one after that skips it)."""
    src, out = tmp_path / "in", tmp_path / "out"
    _body(src, texture=_png((1, 2, 3)))
    (src / "t.png").unlink()

    def status() -> str:
        result = convert(src, "-o", out, "--format", "gltf", "--skip-existing", "--report", tmp_path / "r.json")
        assert result.returncode == 0, result.stderr
        return report(tmp_path / "r.json")["body.gltf"]["status"]

    assert status() != "skipped"
    assert status() == "skipped"
    (src / "t.png").write_bytes(_png((4, 5, 6)))
    assert status() != "skipped"
    assert status() == "skipped"


def test_a_read_only_output_folder_stops_the_run_before_any_import(tmp_path):
    if shutil.which("unshare") is None:
        pytest.skip("no unshare: a read-only mount cannot be made here")
    out = tmp_path / "out"
    out.mkdir()
    src = _body(tmp_path / "in")
    convert_line = f"{sys.executable} -P {ROOT / 'bin' / 'launch.py'} convert {src} -o {out}"
    script = f"mount --bind {out} {out} && mount -o remount,ro,bind {out} || exit 99; exec {convert_line}"
    result = subprocess.run(["unshare", "-rm", "sh", "-c", script], capture_output=True, text=True, timeout=300)
    if result.returncode == 99 or "unshare:" in result.stderr:
        pytest.skip(f"no read-only mount here: {result.stderr.strip()}")
    assert result.returncode == 2, result.stderr
    assert f"OUT {str(out)!r} cannot be written" in result.stderr and "Read-only" in result.stderr
    assert "[1/1]" not in result.stderr  # no file was imported


@pytest.mark.parametrize("fmt", ["gltf", "glb", "blend"])
def test_long_and_non_utf8_file_names_convert(tmp_path, fmt):
    """A 247-character name and a Latin-1 name keep their names; a re-run whose buffer differs (a hashed name)
    still fits the name limit."""
    src, out = tmp_path / "in", tmp_path / "out"
    names = ["x" * 242 + ".gltf", os.fsdecode(b"caf\xe9.gltf")]
    for name in names:
        _body(src, name)
    result = convert(src, "-o", out, "--format", fmt, "--report", tmp_path / "r.json")
    assert result.returncode == 0, result.stderr
    expected = [name.replace(".gltf", f".{fmt}") for name in names]
    assert all((out / name).is_file() for name in expected) and not leftovers(out)
    if fmt == "gltf":
        long_buffer = out / ("x" * 242 + ".bin")
        long_buffer.write_bytes(b"stale")  # the re-run's buffer differs: published under a hashed name
        assert convert(src, "-o", out, "--format", fmt).returncode == 0
        (buffer,) = _uris(out / expected[0])
        assert buffer != long_buffer.name and len(os.fsencode(buffer)) <= 255 and (out / buffer).is_file()
        assert not long_buffer.exists()
