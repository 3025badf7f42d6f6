"""Import → export (every revision) is lossless: the exported physics equals the spec-model migration of the
source to that revision (``migrate.migrate``, whose own losses are tested in tests/unit/test_migrate_corpus.py),
compared by node name, modulo the Blender-specific allowed losses in ``export_helpers.ALLOWED_LOSSES``."""

from __future__ import annotations

import pathlib

import bpy
import corpus_runs
import pytest

from blenderkit import submodule
from export_helpers import REVISIONS, canonical, diff, export, last_export
from testkit import FIXTURES, corpus_files, corpus_id

OWN = sorted(
    p for p in [*FIXTURES.glob("*.gltf"), *(FIXTURES / "import").glob("*.gltf"), *(FIXTURES / "joints").glob("*.gltf")]
)
CORPUS = corpus_files("glTF_Physics/**/*.gltf", "glTF_Physics/**/*.glb")
MALFORMED = {"malformed.gltf"}  # invalid on purpose: its dropped parts are covered by the import tests


def _own_id(path):
    return str(path.relative_to(FIXTURES))


OWN_ROUNDTRIP = [p for p in OWN if p.name not in MALFORMED]


@corpus_runs.inspector("named", "roundtrip", order=10, files=[*OWN_ROUNDTRIP, *CORPUS])
def _roundtrips(addon, path, run) -> dict:
    """Every revision exported from the session's one import of the renamed copy (``corpus_runs``, ``named``):
    revision → the differences, or what failed."""
    assert run.result == "FINISHED", run.result
    found: dict = {}
    for revision in REVISIONS:
        try:
            found[revision] = _roundtrip(addon, run, revision)
        except Exception as exc:  # the test of that revision raises it
            found[revision] = exc
    return found


def _roundtrip(addon, run, revision):
    migrate = submodule(addon, "io.gltf.migrate")
    parse = submodule(addon, "io.gltf.parse")
    source = run.extra["source"]
    out = export(run.out / f"out_{revision}.gltf", revision)
    expected_json, _ = migrate.migrate(source, revision)
    expected = parse.parse_gltf(expected_json).document
    actual_result = parse.parse_gltf(out)
    errors = [str(d) for d in actual_result.diagnostics if d.severity.name == "ERROR"]
    assert not errors, errors
    keep_nodes = not any(n.joint and n.joint.legacy_pivot for n in expected.nodes.values())
    bones = submodule(addon, "io.mapping.bone_nodes")
    # a node's physics reaches Blender on its object, or, for a node that became a bone, on the bone's stand-in
    reachable = {ob.name for ob in bpy.data.objects} | {
        found[1] for ob in bpy.data.objects if (found := bones.stand_in_bone(ob)) is not None
    }
    for index in [
        i for i, n in expected.nodes.items() if n.joint and not _joint_reachable(expected_json, i, n, reachable)
    ]:
        expected.nodes[index].joint = None  # allowed loss "unreachable_nodes": a joint on a bone / non-scene node
    want = canonical(expected, expected_json, keep_nodes)
    want["nodes"] = {k: v for k, v in want["nodes"].items() if k in reachable}  # allowed loss "unreachable_nodes"
    got = canonical(actual_result.document, out, keep_nodes)
    report = last_export(addon)
    internal = [str(d) for d in report.diagnostics if d.code in ("GLTF_PHYSICS_INTERNAL_ERROR",)]
    assert not internal, internal
    return diff(want, got)


def _problems(addon, path, revision, gltf_errors) -> list[str]:
    run = corpus_runs.run(addon, path, "named", gltf_errors)
    # io_scene_gltf2's complaints about the copy: the original's (a corpus asset's table; none for a fixture)
    assert corpus_runs.logged_errors(run) == corpus_runs.expected_errors().get(_id(path) if path in CORPUS else "", [])
    outcome = run.value("roundtrip")[revision]
    if isinstance(outcome, BaseException):
        raise outcome
    return outcome


def _joint_reachable(gltf: dict, index: int, physics, reachable: set[str]) -> bool:
    """Do the joint's frame nodes and their bodies all have Blender objects?"""
    from export_helpers import node_names

    names = node_names(gltf)
    parents = {c: i for i, n in enumerate(gltf.get("nodes", [])) for c in n.get("children", [])}
    involved = [index, physics.joint.connected_node]
    for start in list(involved):
        node = parents.get(start)
        while node is not None:
            involved.append(node)
            node = parents.get(node)
    return all(names[i] in reachable for i in involved if 0 <= i < len(names))


def _id(path) -> str:
    """``corpus_id``, also for the placeholder pytest passes when the corpus is absent (empty parameter list)."""
    return corpus_id(path) if isinstance(path, pathlib.Path) else "no-corpus"


@pytest.mark.parametrize("revision", REVISIONS)
@pytest.mark.parametrize("path", OWN_ROUNDTRIP, ids=_own_id)
def test_own_fixture_roundtrip(addon, gltf_errors, path, revision):
    problems = _problems(addon, path, revision, gltf_errors)
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("revision", REVISIONS)
@pytest.mark.parametrize("path", CORPUS, ids=_id)
def test_corpus_roundtrip(addon, gltf_errors, path, revision):
    problems = _problems(addon, path, revision, gltf_errors)
    assert not problems, "\n".join(problems)
