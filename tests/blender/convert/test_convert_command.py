"""``blender --background --command gltf_physics convert …``: registered with ``bpy.utils.register_cli_command`` by
the root ``register`` and removed by ``unregister``. The ``bpy`` module cannot run registered commands (no ``-c``),
so the handler Blender would call is captured at registration and called with the arguments Blender would pass;
with no executable (``bpy.app.binary_path == ''``) its workers are this Python with the bpy module."""

from __future__ import annotations

import sys

import bpy
from convert_helpers import convert, report

from blenderkit import submodule
from testkit import FIXTURES


class _Spy:
    def __init__(self):
        self.registered: list[tuple] = []
        self.unregistered: list = []
        self.real_register, self.real_unregister = bpy.utils.register_cli_command, bpy.utils.unregister_cli_command

    def register(self, name, execute):
        handle = self.real_register(name, execute)
        self.registered.append((name, execute, handle))
        return handle

    def unregister(self, handle):
        self.unregistered.append(handle)
        return self.real_unregister(handle)


def test_register_adds_the_command_and_unregister_removes_it(addon, monkeypatch, tmp_path, capsys):
    command = submodule(addon, "io.convert.command")
    spy = _Spy()
    monkeypatch.setattr(bpy.utils, "register_cli_command", spy.register)
    monkeypatch.setattr(bpy.utils, "unregister_cli_command", spy.unregister)
    assert command.is_registered()
    try:
        addon.unregister()
        assert not command.is_registered() and len(spy.unregistered) == 1
    finally:
        addon.register()
    (name, execute, handle) = spy.registered[0]
    assert name == "gltf_physics" and command.is_registered() and handle is not None

    assert execute(["convert", "--help"]) == 0
    assert "--shard K/N" in capsys.readouterr().out
    assert execute(["convert", str(FIXTURES / "basic_body.gltf")]) == 2  # -o missing: usage error, Blender stays

    out = tmp_path / "out"
    source = FIXTURES / "joints" / "hinge_x.gltf"
    code = execute(["convert", str(source), "-o", str(out), "--format", "glb", "--report", str(tmp_path / "r.json")])
    assert code == 0
    assert report(tmp_path / "r.json")["hinge_x.glb"]["counts"]["joints"] == 1
    assert (out / "hinge_x.glb").read_bytes()[:4] == b"glTF"


def test_python_names_the_bpy_environment_the_workers_run_in(tmp_path):
    """``--python PATH``: the workers run in that interpreter (here a wrapper that records its start, then runs this
    tier's Python), whatever Python runs the command itself; a missing one is a usage error before any work."""
    started = tmp_path / "started"
    wrapper = tmp_path / "bpy-python"
    wrapper.write_text(f'#!/bin/sh\necho "$@" >> "{started}"\nexec "{sys.executable}" "$@"\n')
    wrapper.chmod(0o755)
    out = tmp_path / "out"
    done = convert(
        FIXTURES / "joints" / "hinge_x.gltf", "-o", out, "--python", wrapper, "--report", tmp_path / "r.json"
    )
    assert done.returncode == 0, done.stderr
    assert report(tmp_path / "r.json")["hinge_x.gltf"]["status"] == "converted"
    assert "bootstrap.py" in started.read_text()

    missing = convert(FIXTURES / "joints" / "hinge_x.gltf", "-o", tmp_path / "none", "--python", tmp_path / "nope")
    assert missing.returncode == 2 and "--python" in missing.stderr and "no such executable" in missing.stderr
    assert not (tmp_path / "none").exists()
    both = convert(FIXTURES / "joints" / "hinge_x.gltf", "-o", out, "--python", wrapper, "--blender", wrapper)
    assert both.returncode == 2 and "not allowed with" in both.stderr
