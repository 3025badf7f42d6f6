"""Every corpus asset (.gltf and .glb) parses without an exception; diagnostic counts match the snapshot.

Regenerate the snapshot with ``GLTF_PHYSICS_UPDATE_SNAPSHOTS=1`` (the counts include the validator's diagnostics,
so a change of validation rules changes them on purpose).
"""

import json
import os
import pathlib

import pytest

from testkit import corpus_files, corpus_id, submodule

gltf_file = submodule("io.gltf.files")
parse = submodule("io.gltf.parse")
model = submodule("io.gltf.model")

SNAPSHOT = pathlib.Path(__file__).parent / "snapshots" / "diagnostic_counts.json"
UPDATE = os.environ.get("GLTF_PHYSICS_UPDATE_SNAPSHOTS") == "1"
FILES = corpus_files()


def _counts() -> dict[str, int]:
    out = {}
    for path in FILES:
        result = parse.parse_gltf(gltf_file.load(path).json)
        out[corpus_id(path)] = len(result.diagnostics)
    return out


@pytest.mark.corpus
@pytest.mark.parametrize("path", FILES, ids=corpus_id)
def test_corpus_asset_parses(path):
    result = parse.parse_gltf(gltf_file.load(path).json)
    assert isinstance(result.document, model.PhysicsDocument)
    assert not [d for d in result.diagnostics if d.code == "PHYSICS_PARSE_INTERNAL_ERROR"]


@pytest.mark.corpus
def test_corpus_has_315_assets():
    if not FILES:
        pytest.skip("corpus absent")
    assert len(FILES) == 315


@pytest.mark.corpus
def test_diagnostic_counts_snapshot():
    if not FILES:
        pytest.skip("corpus absent")
    counts = _counts()
    if UPDATE or not SNAPSHOT.exists():
        SNAPSHOT.write_text(json.dumps(counts, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    expected = json.loads(SNAPSHOT.read_text(encoding="utf-8"))
    changed = {k: (expected.get(k), v) for k, v in counts.items() if expected.get(k) != v}
    assert not changed, f"diagnostic counts changed (snapshot, now): {changed}"


@pytest.mark.corpus
def test_corpus_reads_every_family():
    """Real content: the conformance joint file and an OMI legacy joint come out as documented (specs §7, §5)."""
    joint = [p for p in FILES if p.name == "RigidBodies_Joint_02.gltf"]
    legacy = [p for p in FILES if "2024-11_old_joints" in str(p) and p.name == "swing_and_slide.gltf"]
    if not joint or not legacy:
        pytest.skip("corpus absent")
    doc = parse.parse_gltf(gltf_file.load(joint[0]).json).document
    assert doc.nodes[1].joint.connected_node == 2
    limits = doc.joints[doc.nodes[1].joint.joint].limits
    assert [(lim.linear_axes, lim.angular_axes, lim.min, lim.max) for lim in limits] == [
        ((0, 1, 2), None, 0.0, 0.0),
        (None, (1, 2), 0.0, 0.0),
    ]
    doc = parse.parse_gltf(gltf_file.load(legacy[0]).json).document
    joint = doc.nodes[4].joint
    assert joint.legacy_pivot.body_a == 1 and joint.connected_node == 5
    limits = doc.joints[joint.joint].limits
    # constraint 0: linear X in [-0.25, 1.75] soft; default damping 1 (legacy)
    assert limits[0].linear_axes == (0,) and (limits[0].min, limits[0].max) == (-0.25, 1.75)
    assert limits[0].damping == 1.0 and limits[0].stiffness == pytest.approx(0.7)
    assert limits[1].linear_axes == (1, 2) and (limits[1].min, limits[1].max) == (0.0, 0.0)
