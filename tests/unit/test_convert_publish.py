"""``convert``'s output folder (bpy-free): hidden names that fit any output name, the settling of a half-published
set, the sweep of what killed runs left, the folder's lock, stamps for ``--skip-existing``, the mode of published
resources."""

from __future__ import annotations

import json
import os
import pathlib
import stat
import threading

import pytest

from testkit import submodule

publish = submodule("io.convert.publish")
state = submodule("io.convert.state")
safe_files = submodule("io.gltf.safe_files")


@pytest.mark.parametrize("name", ["x" * 243 + ".gltf", "caf\udce9-\udcff.gltf", "short.glb", "ü" * 120 + ".glb"])
def test_hidden_names_fit_the_name_limit_and_are_text(name):
    """A 248-byte or non-UTF-8 output name still has hidden names (the partial folder Blender exports into, the
    temporary files): at most 255 bytes, valid UTF-8, one per output name."""
    for suffix in (".partial", ".partial.blend"):
        hidden = publish.hidden_name(name, suffix)
        raw = hidden.encode("utf-8")  # raises for a lone surrogate
        assert hidden.startswith(".") and hidden.endswith(suffix) and len(raw) <= 255
        assert publish.hidden_name(name + "x", suffix) != hidden
    assert len(os.fsencode(submodule("io.gltf.atomic").temporary_prefix(name))) <= 66


def _gltf(path: pathlib.Path, *uris: str) -> None:
    document = {"asset": {"version": "2.0"}, "buffers": [{"uri": uri, "byteLength": 1} for uri in uris]}
    path.write_text(json.dumps(document))


def test_settle_removes_only_what_no_gltf_of_the_folder_references(tmp_path):
    """After a kill before the rename the previous set stays whole (the new set's files go); after the rename the
    new set stays whole (the previous output's files go); a file another output references always stays."""
    out = tmp_path / "out"
    out.mkdir()
    _gltf(out / "x.gltf", "x.bin")
    _gltf(out / "y.gltf", "shared.bin")
    for name in ("x.bin", "x-aaaaaaaaaaaa.bin", "shared.bin"):
        (out / name).write_bytes(b"1")
    staged = publish.partial_path(out / "x.gltf")
    staged.mkdir()
    publish.begin(staged, out / "x.gltf", ["x.bin", "x-aaaaaaaaaaaa.bin", "shared.bin"])
    _gltf(staged / "x.gltf", "x-aaaaaaaaaaaa.bin")
    publish.settle(staged, out)  # killed before the rename: the new buffer goes, the old set stays
    assert sorted(p.name for p in out.iterdir() if p.is_file()) == ["shared.bin", "x.bin", "x.gltf", "y.gltf"]
    (out / "x-aaaaaaaaaaaa.bin").write_bytes(b"2")
    os.replace(staged / "x.gltf", out / "x.gltf")  # killed after the rename
    publish.remove_staged(staged, out)
    assert sorted(p.name for p in out.iterdir()) == ["shared.bin", "x-aaaaaaaaaaaa.bin", "x.gltf", "y.gltf"]


def test_settle_keeps_everything_when_a_gltf_cannot_be_read(tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    (out / "x.gltf").write_text("{not json")
    (out / "x.bin").write_bytes(b"1")
    staged = publish.partial_path(out / "x.gltf")
    staged.mkdir()
    (staged / publish.JOURNAL).write_text(json.dumps({"output": "x.gltf", "files": ["x.bin"]}))
    publish.remove_staged(staged, out)
    assert (out / "x.bin").exists() and not staged.exists()


def test_settle_never_removes_a_file_outside_the_output_folder(tmp_path):
    """A journal naming ``../x`` or a file behind a symlink leading out (a folder OUT's owner linked) removes
    nothing there."""
    out, outside = tmp_path / "out", tmp_path / "outside"
    out.mkdir()
    outside.mkdir()
    (outside / "x.png").write_bytes(b"keep")
    (out / "link").symlink_to(outside)
    staged = publish.partial_path(out / "a.gltf")
    staged.mkdir()
    (staged / publish.JOURNAL).write_text(json.dumps({"output": "a.gltf", "files": ["../outside/x.png", "link/x.png"]}))
    publish.remove_staged(staged, out)
    assert (outside / "x.png").read_bytes() == b"keep"


def test_sweep_removes_stale_partials_and_atomic_temporaries_only(tmp_path):
    out = tmp_path / "out"
    (out / "sub").mkdir(parents=True)
    leftovers = [
        out / ".x.gltf.k3j_9AbZ.tmp",
        out / "sub" / ".y.bin.00000000.tmp",
        out / ".old.blend.partial.blend",
        publish.partial_path(out / "sub" / "z.blend"),
        out / state.STATE / state.STAMPS / ".0123abcd.json.a1b2c3d4.tmp",
    ]
    for path in leftovers:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(b"")
    for folder in (out / ".a.gltf.partial", publish.partial_path(out / "sub" / "b.gltf")):
        folder.mkdir()
        (folder / "b.gltf").write_text("{}")
    kept = [out / ".keep", out / "notes.tmp", out / ".git" / "x.partial", out / "sub" / "c.gltf"]
    kept.append(out / state.STATE / state.STAMPS / "0123abcd.json")
    for path in kept:
        path.parent.mkdir(exist_ok=True)
        path.write_bytes(b"")
    publish.sweep(out)
    assert sorted(p.relative_to(out).as_posix() for p in out.rglob("*")) == [
        ".git",
        ".git/x.partial",
        ".gltf-physics-convert",
        ".gltf-physics-convert/stamps",
        ".gltf-physics-convert/stamps/0123abcd.json",
        ".keep",
        "notes.tmp",
        "sub",
        "sub/c.gltf",
    ]


def test_the_lock_refuses_a_second_run_and_is_free_again_afterwards(tmp_path):
    out = tmp_path / "out"
    with state.locked(out), pytest.raises(state.OutputError, match="another convert run"), state.locked(out):
        pass
    with state.locked(out):  # released
        pass
    assert (out / state.STATE / state.LOCK).is_file()


def test_shards_share_the_lock_but_not_with_themselves_or_an_unsharded_run(tmp_path):
    """The shards of one array run side by side into one OUT (the README's GNU parallel and Slurm examples); the
    same shard twice, or a run without ``--shard`` beside them, refuses. A shard sweeps only when alone."""
    out = tmp_path / "out"
    swept = []
    with state.locked(out, (1, 2)) as first, state.locked(out, (2, 2)) as second:
        first.alone(lambda: swept.append(1))
        assert swept == []  # shard 2 is converting: its staged files are not stale
        with pytest.raises(state.OutputError, match="shard 1/2 is already converting"), state.locked(out, (1, 2)):
            pass
        with pytest.raises(state.OutputError, match="another convert run"), state.locked(out):
            pass
        second.release()
        first.alone(lambda: swept.append(2))
        assert swept == [2]
        with pytest.raises(state.OutputError, match="another convert run"), state.locked(out):
            pass  # shard 1 holds OUT shared again after its sweep
    with state.locked(out), pytest.raises(state.OutputError, match="without --shard"), state.locked(out, (1, 2)):
        pass


def test_a_shard_that_could_not_sweep_still_holds_its_share(tmp_path):
    """Regression (found when test_convert's shards first ran side by side): ``flock`` turns a shared lock into an
    exclusive one by dropping the shared lock first, so a shard whose try to sweep failed held no lock at all. The
    next shard then found itself alone, swept, and removed the first shard's ``.partial`` folder while it exported
    into it (FileNotFoundError). A shard that cannot sweep keeps its share: no other shard sweeps, no run without
    ``--shard`` starts."""
    out = tmp_path / "out"
    swept = []
    with state.locked(out, (1, 3)) as first, state.locked(out, (2, 3)) as second, state.locked(out, (3, 3)) as third:
        for shard in (first, second, third, first):
            shard.alone(lambda shard=shard: swept.append(shard.shard))
        assert swept == []
        second.release()
        third.release()
        with pytest.raises(state.OutputError, match="another convert run"), state.locked(out):
            pass  # shard 1 still holds OUT shared
        first.alone(lambda: swept.append(first.shard))
        assert swept == [(1, 3)]


def test_a_shard_starting_while_another_sweeps_waits_and_is_not_refused(tmp_path):
    """The shards of one array start at about the same moment, and the first one sweeps while it holds OUT alone: a
    shard starting during that sweep waits for its end (a few milliseconds) instead of taking the sweep for a run
    without ``--shard`` and refusing with exit code 2."""
    out = tmp_path / "out"
    outcome = []

    def start_second() -> None:
        try:
            with state.locked(out, (2, 2)):
                outcome.append("started")
        except state.OutputError as exc:
            outcome.append(str(exc))

    def sweep() -> None:
        second.start()
        second.join(timeout=0.3)
        outcome.append("swept")

    second = threading.Thread(target=start_second)
    with state.locked(out, (1, 2)) as first:
        first.alone(sweep)
        second.join(timeout=10)
    assert outcome == ["swept", "started"]


def test_an_output_folder_that_is_a_file_is_an_output_error(tmp_path):
    (tmp_path / "out").write_text("")
    with pytest.raises(state.OutputError, match="cannot be written"), state.locked(tmp_path / "out"):
        pass


def test_a_stamp_holds_the_options_the_inputs_and_every_output_file(tmp_path):
    src, out = tmp_path / "a.gltf", tmp_path / "out"
    out.mkdir()
    texture, main, buffer = tmp_path / "t.png", out / "a.gltf", out / "a.bin"
    for path in (src, texture, main, buffer):
        path.write_bytes(b"1")
    stamp = state.stamp_path(out, "a.gltf")
    options = {"to": "2026", "validate": False}
    state.write_stamp(stamp, options, [src, texture], {main: main, buffer: buffer})
    assert state.up_to_date(stamp, options, main)
    assert not state.up_to_date(stamp, {"to": "2024-10", "validate": False}, main)
    assert not state.up_to_date(stamp, options, out / "other.gltf")
    texture.write_bytes(b"22")
    assert not state.up_to_date(stamp, options, main)
    state.write_stamp(stamp, options, [src, texture], {main: main, buffer: buffer})
    buffer.unlink()
    assert not state.up_to_date(stamp, options, main)
    stamp.write_text("{")
    assert not state.up_to_date(stamp, options, main)


def test_published_resources_get_the_umask_mode(tmp_path):
    """``publish_resource`` wrote images with mkstemp's 0600; the ``.gltf`` and ``.bin`` got 0644."""
    source = tmp_path / "t.png"
    source.write_bytes(b"png")
    (tmp_path / "out").mkdir()
    old = os.umask(0o022)
    try:
        uri, problem, created = safe_files.publish_resource(source, tmp_path / "out", "t.png", "/images/0/uri")
    finally:
        os.umask(old)
    assert (uri, problem, created) == ("t.png", None, True)
    assert stat.S_IMODE((tmp_path / "out" / "t.png").stat().st_mode) == 0o644
