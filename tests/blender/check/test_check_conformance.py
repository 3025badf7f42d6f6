"""The 62 glTF_Physics conformance scenes move as their READMEs say (``check`` in this process, 120 frames).

Each scene is imported (Reproduce Motion on, the default), simulated and evaluated by ``io.check``; the expectations
are code in ``conformance_expectations`` (against the check's JSON, derived from the file with ``sim/``). A scene
passes, fails, or is "not reproducible in Blender" when the importer says so (``GLTF_PHYSICS_IMPORT_NOT_REPRODUCIBLE``
with its reason: an expected failure). ``PENDING_REPRODUCTION`` lists the scenes that fail today only because the
reproduction of issue 9 item 1 is not merged yet; a listed scene that passes fails the test (shrink the list).
"""

from __future__ import annotations

import json

import pytest
from conformance_expectations import failures

import devkit
from blenderkit import submodule
from testkit import corpus_files, corpus_id

FILES = corpus_files("glTF_Physics/tests/**/*.gltf", sample=False)  # every tier: the 62 scenes move as on 5.0
FRAMES = 120
PENDING_REPRODUCTION: dict[str, str] = {}


@pytest.mark.corpus
@pytest.mark.parametrize("path", FILES, ids=corpus_id)
def test_conformance_scene_moves_as_its_readme_says(addon, path):
    result = submodule(addon, "io.check.job").check_path(path, FRAMES, devkit.enable)
    assert result["status"] != "failed", result["diagnostics"]
    report = result["report"]
    found = failures(json.loads(path.read_text()), report, path.stem)
    pending = PENDING_REPRODUCTION.get(path.stem)
    if not found:
        assert pending is None, f"{path.stem} passes now: remove it from PENDING_REPRODUCTION"
        return
    if report["not_reproducible"]:
        reasons = "; ".join(f"{d['pointer']}: {d['message']}" for d in report["not_reproducible"])
        pytest.xfail(f"not reproducible in Blender: {reasons}")
    if pending is not None:
        pytest.xfail(f"pending reproduction: {pending}: {'; '.join(found)}")
    pytest.fail("\n".join(found))


def test_pending_list_names_existing_scenes():
    if FILES:
        assert set(PENDING_REPRODUCTION) <= {p.stem for p in FILES}
