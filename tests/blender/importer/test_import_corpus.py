"""Every corpus asset imports with the extension enabled: no exception, expected rigid bodies/constraints/triggers.

Expectations live in ``expected_import_counts.json`` (reviewed; per asset). Regenerate the observed numbers with
``GLTF_PHYSICS_REGEN_COUNTS=1`` and review the diff: each row also carries the naive count from the raw JSON
(``naive``) so a deliberate difference (invalid data dropped, bones, nodes outside the scene) is visible, explained
in ``note``. The ``constraints`` column belongs to the joints work: ``null`` = not checked yet; it is rewritten only
with ``GLTF_PHYSICS_REGEN_CONSTRAINTS=1``.

io_scene_gltf2's own error log of each import (missing textures of third-party assets and the like) is compared
with ``expected_gltf_errors.json`` (per asset, corpus paths as ``<corpus>``; a file absent from it logs none),
regenerated with ``GLTF_PHYSICS_REGEN_ERRORS=1``. The import is the session's one import of the asset
(``corpus_runs``, variant ``reproduce``): the export, probe and comparison sweeps read the same run.
"""

from __future__ import annotations

import json
import os
import pathlib

import bpy
import corpus_runs
import pytest

from testkit import CORPUS, corpus_files, corpus_id

TABLE = pathlib.Path(__file__).with_name("expected_import_counts.json")
ERRORS = corpus_runs.ERRORS
REGEN = os.environ.get("GLTF_PHYSICS_REGEN_COUNTS") == "1"
REGEN_CONSTRAINTS = os.environ.get("GLTF_PHYSICS_REGEN_CONSTRAINTS") == "1"
REGEN_ERRORS = os.environ.get("GLTF_PHYSICS_REGEN_ERRORS") == "1"
FILES = corpus_files("**/*.gltf", "**/*.glb", sample=False)  # every tier: the corpus imports on each release


@corpus_runs.inspector("reproduce", "world", files=FILES)
def _world(addon, path, run) -> bool:
    return bpy.context.scene.rigidbody_world is not None


logged_errors, expected_errors = corpus_runs.logged_errors, corpus_runs.expected_errors


def _expected() -> dict:
    return json.loads(TABLE.read_text()) if TABLE.is_file() else {}


def naive_counts(doc: dict) -> dict:
    """Bodies/triggers straight from the raw JSON (no validation): motion nodes + static collider nodes."""
    nodes = doc.get("nodes") if isinstance(doc.get("nodes"), list) else []
    parents = {c: i for i, n in enumerate(nodes) if isinstance(n, dict) for c in n.get("children", []) or []}

    def ext(n):
        e = n.get("extensions", {}) if isinstance(n, dict) else {}
        return (e.get("KHR_physics_rigid_bodies") or e.get("OMI_physics_body") or {}) if isinstance(e, dict) else {}

    def has_motion(i):
        x = ext(nodes[i])
        return isinstance(x, dict) and (
            "motion" in x or x.get("type") in ("rigid", "vehicle", "character", "dynamic", "kinematic", "static")
        )

    bodies = triggers = 0
    for i, node in enumerate(nodes):
        x = ext(node)
        if not isinstance(x, dict):
            continue
        if has_motion(i):
            bodies += 1
        elif "collider" in x or (isinstance(node, dict) and "OMI_collider" in (node.get("extensions") or {})):
            j, under = parents.get(i), False
            while j is not None and not under:
                under, j = has_motion(j), parents.get(j)
            bodies += not under
        if "trigger" in x or x.get("type") == "trigger":
            triggers += 1
    return {"rigid_bodies": bodies, "triggers": triggers}


def _read_json(path: pathlib.Path) -> dict:
    data = path.read_bytes()
    if data[:4] == b"glTF":
        length = int.from_bytes(data[12:16], "little")
        return json.loads(data[20 : 20 + length])
    return json.loads(data)


@pytest.mark.corpus
@pytest.mark.parametrize("path", FILES, ids=corpus_id)
def test_corpus_asset_imports_with_expected_counts(addon, gltf_errors, path):
    run = corpus_runs.run(addon, path, "reproduce", gltf_errors)
    result = {run.result}
    ours = [r for r in run.gltf_errors if "Extension hook" in r or "gltf_physics" in r]
    assert not ours, ours
    report = run.report
    internal = [str(d) for d in report.diagnostics if d.code == "GLTF_PHYSICS_INTERNAL_ERROR"] if report else []
    assert not internal, internal
    observed = {
        "result": sorted(result)[0],
        "rigid_bodies": report.counts.get("rigid_bodies", 0) if report else 0,
        "constraints": report.counts.get("constraints", 0) if report else 0,
        "triggers": report.counts.get("triggers", 0) if report else 0,
        "world": run.value("world"),
    }
    key = corpus_id(path)
    if REGEN or REGEN_CONSTRAINTS:
        table = _expected()
        row = dict(table.get(key, {}))
        if REGEN:
            row |= observed | {"naive": naive_counts(_read_json(path))}
            row["constraints"] = table.get(key, {}).get("constraints")
        if REGEN_CONSTRAINTS:
            row["constraints"] = observed["constraints"]
        table[key] = row
        TABLE.write_text(json.dumps(table, indent=1, sort_keys=True) + "\n")
        return
    expected = _expected().get(key)
    assert expected is not None, f"{key} missing from {TABLE.name}: regenerate with GLTF_PHYSICS_REGEN_COUNTS=1"
    columns = ["result", "rigid_bodies", "triggers"] + (["constraints"] if expected["constraints"] is not None else [])
    assert {k: observed[k] for k in columns} == {k: expected[k] for k in columns}


@pytest.mark.corpus
@pytest.mark.parametrize("path", FILES, ids=corpus_id)
def test_corpus_asset_logs_exactly_its_expected_import_errors(addon, gltf_errors, path):
    """io_scene_gltf2's complaints about a third-party asset (missing textures, ...) are its business, but they are
    the file's: exactly those of the table, nothing more (one of ours would show up here)."""
    run = corpus_runs.run(addon, path, "reproduce", gltf_errors)
    key = corpus_id(path)
    if REGEN_ERRORS:
        table = expected_errors()
        table.pop(key, None)
        if logged_errors(run):
            table[key] = logged_errors(run)
        ERRORS.write_text(json.dumps(dict(sorted(table.items())), indent=1) + "\n")
        return
    assert logged_errors(run) == expected_errors().get(key, [])


def test_error_table_names_corpus_files():
    if not CORPUS.is_dir():
        pytest.skip("../shared/corpus not found")
    assert set(expected_errors()) <= {corpus_id(p) for p in FILES} or REGEN_ERRORS


def test_table_covers_the_corpus():
    if not CORPUS.is_dir():
        pytest.skip("../shared/corpus not found")
    assert sorted(_expected()) == sorted(corpus_id(p) for p in FILES) or REGEN
