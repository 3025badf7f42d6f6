"""``convert``'s plan (bpy-free): walking, output names, shards, usage errors, skip-existing."""

from __future__ import annotations

import pathlib

import pytest

from testkit import submodule

plan = submodule("io.convert.plan")


def _tree(root: pathlib.Path, names: list[str]) -> None:
    for name in names:
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("{}")


def test_folders_mirror_their_tree_and_files_go_to_the_top(tmp_path):
    _tree(tmp_path / "lib", ["b.glb", "a/x.gltf", "a/.hidden.gltf", ".git/y.gltf", "notes.txt", "c.blend"])
    _tree(tmp_path, ["single.gltf"])
    jobs = plan.plan([str(tmp_path / "lib"), str(tmp_path / "single.gltf")], str(tmp_path / "out"), "glb")
    assert [j.key for j in jobs] == ["a/x.glb", "b.glb", "c.glb", "single.glb"]
    assert jobs[0].output == (tmp_path / "out" / "a" / "x.glb").resolve()
    assert all(j.input.is_absolute() for j in jobs)


def test_format_same_keeps_the_container():
    assert plan.output_name(pathlib.PurePosixPath("a/b.blend"), "same").as_posix() == "a/b.blend"
    assert plan.output_name(pathlib.PurePosixPath("a/b.glb"), "gltf").as_posix() == "a/b.gltf"


def test_shards_are_disjoint_and_cover_everything(tmp_path):
    _tree(tmp_path / "lib", [f"f{i:02d}.gltf" for i in range(10)])
    every = [j.key for j in plan.plan([str(tmp_path / "lib")], str(tmp_path / "out"), "same")]
    shards = [
        [j.key for j in plan.plan([str(tmp_path / "lib")], str(tmp_path / "out"), "same", (k, 3))] for k in (1, 2, 3)
    ]
    assert sorted(key for shard in shards for key in shard) == every
    assert [len(s) for s in shards] == [4, 3, 3]


@pytest.mark.parametrize("text", ["0/3", "4/3", "1", "a/b", "1/0"])
def test_bad_shards_are_usage_errors(text):
    with pytest.raises(plan.PlanError):
        plan.parse_shard(text)


def test_usage_errors(tmp_path):
    _tree(tmp_path / "lib", ["a.gltf", "a.glb", "a.blend"])
    with pytest.raises(plan.PlanError, match="both be written"):  # a .blend is another asset, not the same twice
        plan.plan([str(tmp_path / "lib")], str(tmp_path / "out"), "glb")
    _tree(tmp_path / "two", ["x/a.gltf"])
    _tree(tmp_path / "three", ["x/a.glb"])
    with pytest.raises(plan.PlanError, match="both be written"):  # side by side only, not from two IN folders
        plan.plan([str(tmp_path / "two"), str(tmp_path / "three")], str(tmp_path / "out"), "glb")
    with pytest.raises(plan.PlanError, match="contains the input"):
        plan.plan([str(tmp_path / "lib")], str(tmp_path), "same")
    with pytest.raises(plan.PlanError, match="contains the input"):
        plan.plan([str(tmp_path / "lib" / "a.gltf")], str(tmp_path / "lib"), "blend")
    with pytest.raises(plan.PlanError, match="no such"):
        plan.plan([str(tmp_path / "missing")], str(tmp_path / "out"), "same")


def test_an_output_folder_inside_an_input_folder_is_refused(tmp_path):
    """A later run over the input folder (with any OUT) would convert these outputs again."""
    _tree(tmp_path / "lib", ["a.gltf", "out/a.glb"])
    for out in (tmp_path / "lib" / "out", tmp_path / "lib" / "new" / "deeper"):
        with pytest.raises(plan.PlanError, match="inside the input folder"):
            plan.plan([str(tmp_path / "lib")], str(out), "glb")


@pytest.mark.parametrize(
    ("fmt", "converted", "skipped"),
    [
        ("glb", {"a.glb": "a.glb"}, {"a.gltf": "a.glb"}),
        ("gltf", {"a.gltf": "a.gltf"}, {"a.glb": "a.gltf"}),
        ("blend", {"a.blend": "a.glb"}, {"a.gltf": "a.blend"}),
        ("same", {"a.gltf": "a.gltf", "a.glb": "a.glb"}, {}),
    ],
)
def test_the_same_asset_in_both_containers_is_converted_once(tmp_path, fmt, converted, skipped):
    """X.gltf + X.glb side by side (the Khronos samples): the one in the output's container (a .blend: the .glb)
    is converted, the other is a skipped job naming it; with ``same`` each keeps its own name."""
    _tree(tmp_path / "lib", ["sub/a.gltf", "sub/a.glb", "sub/b.gltf"])
    jobs = plan.plan([str(tmp_path / "lib")], str(tmp_path / "out"), fmt)
    run = {j.key.removeprefix("sub/"): j.input.name for j in jobs if j.same_as is None and "a." in j.key}
    assert run == converted
    dropped = {j.key.removeprefix("sub/"): j.same_as.removeprefix("sub/") for j in jobs if j.same_as is not None}
    assert dropped == skipped
    assert len({j.key for j in jobs}) == len(jobs)


def test_include_and_exclude_globs(tmp_path):
    _tree(tmp_path / "lib", ["cars/a.gltf", "cars/old/b.gltf", "props/c.glb", "props/d.gltf"])
    keys = lambda **kw: [j.key for j in plan.plan([str(tmp_path / "lib")], str(tmp_path / "out"), "same", **kw)]  # noqa: E731
    assert keys(include=["cars/*"]) == ["cars/a.gltf", "cars/old/b.gltf"]  # * crosses /
    assert keys(include=["cars/*"], exclude=["*/old/*"]) == ["cars/a.gltf"]
    assert keys(include=["*.glb", "d.gltf"]) == ["props/c.glb", "props/d.gltf"]  # a file name alone matches too
    assert keys(exclude=["props/*"]) == ["cars/a.gltf", "cars/old/b.gltf"]


def test_skip_existing_removes_a_stale_partial_beside_a_finished_output(tmp_path, capsys):
    """A run killed between the final rename and its clean-up leaves a hidden ``.partial`` folder beside a finished
    output; ``--skip-existing`` skips that file (its stamp matches), and the run removes the stale folder (found by
    the killed-run test in CI), also one of the older ``.<name>.partial`` form."""
    driver, publish, state = (submodule(f"io.convert.{name}") for name in ("driver", "publish", "state"))
    src, out = tmp_path / "in", (tmp_path / "out").resolve()
    src.mkdir()
    (src / "a.gltf").write_text('{"asset": {"version": "2.0"}}')
    out.mkdir()
    (out / "a.glb").write_bytes(b"glTF")
    options = {"to": "2026", "validate": False}
    state.write_stamp(state.stamp_path(out, "a.glb"), options, [src / "a.gltf"], {out / "a.glb": out / "a.glb"})
    stale, older = publish.partial_path(out / "a.glb"), out / ".a.glb.partial"
    for folder in (stale, older):
        folder.mkdir()
        (folder / "a.glb").write_bytes(b"")
    code = driver.main(["convert", str(src), "-o", str(out), "--format", "glb", "--skip-existing"], "t", None, "x")
    assert code == 0, capsys.readouterr().err
    assert not stale.exists() and not older.exists()
    assert (out / "a.glb").read_bytes() == b"glTF"


@pytest.mark.parametrize("where", ["lib/a.gltf", "out/a.glb", "out/sub/b.glb", "lib"])
def test_a_report_over_an_input_or_an_output_is_a_usage_error(tmp_path, capsys, where):
    """``--report`` onto an input would overwrite it (it did), onto an output would clobber it: exit 2, nothing
    written, whatever the shard."""
    driver = submodule("io.convert.driver")
    _tree(tmp_path / "lib", ["a.gltf", "sub/b.gltf"])
    before = {p: p.read_bytes() for p in (tmp_path / "lib").rglob("*.gltf")}
    args = ["convert", str(tmp_path / "lib"), "-o", str(tmp_path / "out"), "--format", "glb"]
    code = driver.main([*args, "--shard", "2/2", "--report", str(tmp_path / where)], "t", None, "x")
    assert code == 2
    assert "--report" in capsys.readouterr().err
    assert {p: p.read_bytes() for p in (tmp_path / "lib").rglob("*.gltf")} == before
    assert not (tmp_path / "out").exists()


def test_a_report_beside_the_outputs_is_fine(tmp_path):
    _tree(tmp_path / "lib", ["a.gltf"])
    out, inputs = tmp_path / "out", [str(tmp_path / "lib")]
    every = plan.plan(inputs, str(out), "glb")
    plan.check_report(str(out / "report.json"), every, inputs)  # no PlanError
    with pytest.raises(plan.PlanError, match="--report"):
        plan.check_report(str(out / "a.glb"), every, inputs)
