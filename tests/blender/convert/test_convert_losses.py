"""One severity per problem through a batch (docs/diagnostics.md, "What a batch does with each severity"): a body
with ``mass: -1`` is ``VALUE_NOT_IN_RANGE`` ERROR in ``validate`` and in the import report a conversion carries;
without ``--strict`` the file converts without that motion, the report lists exactly what was lost and the run
exits 3 ("converted with losses"); with ``--strict`` it fails and writes nothing; over the corpus, ``--strict``
fails exactly the files our validator finds physics errors in."""

from __future__ import annotations

import copy
import json
import subprocess
import sys

import pytest
from convert_helpers import convert, report

from blenderkit import submodule
from testkit import FIXTURES, ROOT, corpus_files, corpus_id, read_json

RB = "KHR_physics_rigid_bodies"
MASS = f"/nodes/1/extensions/{RB}/motion/mass"


def _two_bodies(tmp_path):
    """``basic_body.gltf`` with a second body whose mass is -1 (its motion is invalid, its collider is not)."""
    gltf = read_json(FIXTURES / "basic_body.gltf")
    bad = copy.deepcopy(gltf["nodes"][0])
    bad["name"], bad["translation"] = "BadMass", [3.0, 2.0, 0.0]
    bad["extensions"][RB]["motion"]["mass"] = -1
    gltf["nodes"].append(bad)
    gltf["scenes"][0]["nodes"].append(1)
    src = tmp_path / "in"
    src.mkdir()
    (src / "two.gltf").write_text(json.dumps(gltf))
    return src


def _validate(*args) -> subprocess.CompletedProcess:
    command = [sys.executable, "-P", str(ROOT / "bin" / "launch.py"), "validate", *map(str, args)]
    return subprocess.run(command, capture_output=True, text=True, timeout=120, check=False)


def test_negative_mass_is_one_error_everywhere_and_a_loss_without_strict(tmp_path, addon):
    src = _two_bodies(tmp_path)
    checked = _validate("--json", src / "two.gltf")
    assert checked.returncode == 1, checked.stderr
    (row,) = [d for f in json.loads(checked.stdout)["files"] for d in f["diagnostics"] if d["pointer"] == MASS]
    assert (row["code"], row["severity"]) == ("VALUE_NOT_IN_RANGE", "error")

    result = convert(src, "-o", tmp_path / "out", "--report", tmp_path / "r.json")
    assert result.returncode == 3, result.stderr  # converted with losses
    assert "1 with losses" in result.stderr and "converted with losses two.gltf" in result.stderr
    entry = report(tmp_path / "r.json")["two.gltf"]
    assert entry["status"] == "losses"
    imported = [d for d in entry["diagnostics"] if d["pointer"] == MASS]
    assert [(d["stage"], d["code"], d["severity"]) for d in imported] == [("import", "VALUE_NOT_IN_RANGE", "error")]
    assert {(d["code"], d["pointer"]) for d in entry["lost"]} >= {("VALUE_NOT_IN_RANGE", MASS)}
    summary = json.loads((tmp_path / "r.json").read_text())["summary"]
    assert (summary["losses"], summary["failed"], summary["strict"]) == (1, 0, False)
    written = read_json(tmp_path / "out" / "two.gltf")
    by_name = {n["name"]: n for n in written["nodes"]}
    assert by_name["Box"]["extensions"][RB]["motion"]["mass"] == pytest.approx(3.0)
    assert "motion" not in by_name["BadMass"]["extensions"][RB]  # dropped for its error, its collider kept
    assert "collider" in by_name["BadMass"]["extensions"][RB]


def test_strict_fails_a_file_whose_physics_lost_anything(tmp_path):
    src = _two_bodies(tmp_path)
    (src / "good.gltf").write_text((FIXTURES / "basic_body.gltf").read_text())
    result = convert(src, "-o", tmp_path / "out", "--strict", "--report", tmp_path / "r.json")
    assert result.returncode == 1, result.stderr
    files = report(tmp_path / "r.json")
    assert files["two.gltf"]["status"] == "failed" and files["good.gltf"]["status"] == "converted"
    assert "CONVERT_STRICT_LOSS" in {d["code"] for d in files["two.gltf"]["diagnostics"]}
    assert not (tmp_path / "out" / "two.gltf").exists() and (tmp_path / "out" / "good.gltf").is_file()
    assert "failed 1" in result.stderr


def _family(document: dict) -> str:
    """``omi`` for a file with OMI physics (converted ``--to omi``, its own family), else ``2026``."""
    used = document.get("extensionsUsed")
    names = used if isinstance(used, list) else [json.dumps(document)]
    return "omi" if any("OMI_" in str(name) for name in names) else "2026"


@pytest.mark.corpus
def test_corpus_strict_fails_exactly_the_files_with_invalid_physics(tmp_path, addon):
    """Each corpus file converted ``--strict`` into its own family's newest revision (KHR → 2026, OMI → omi: a
    revision change may lose what the target cannot hold, which is not the file's fault): the failed files are
    exactly those whose physics our parser finds invalid (a diagnostic the registry marks ``loses_physics``: an
    ERROR, an enum value without meaning, a reference to a dropped object) or that cannot be read. (The skinned
    robot samples, whose bodies sit on nodes that become bones, pass: their physics is kept on bone stand-ins and
    written back onto the bones' nodes, tests/blender/exporter/test_export_bone_bodies.py.)"""
    files, parse = submodule(addon, "io.gltf.files"), submodule(addon, "io.gltf.parse")
    loses = submodule(addon, "io.diagnostics").loses_physics
    picked = corpus_files()
    if not picked:
        pytest.skip("../shared/corpus not found")

    def invalid(document) -> bool:
        return document is None or any(loses(d.code) for d in parse.parse_gltf(document).diagnostics)

    names, expected = {"2026": {}, "omi": {}}, set()
    for i, path in enumerate(picked):  # one folder per file: corpus names repeat across folders
        try:
            document = files.load(path).json
        except Exception:
            document = None
        family = _family(document) if isinstance(document, dict) else "2026"
        target = tmp_path / family / f"{i:03d}"
        target.mkdir(parents=True)
        for sibling in path.parent.iterdir():  # the file and its resources, never another model
            if sibling == path or (sibling.is_file() and sibling.suffix.lower() not in (".gltf", ".glb", ".blend")):
                (target / sibling.name).write_bytes(sibling.read_bytes())
        names[family][f"{i:03d}/{path.name}"] = path
        if invalid(document):
            expected.add(path)
    failed, entries = set(), {}
    for family, named in names.items():
        if not named:
            continue
        out, log = tmp_path / f"out-{family}", tmp_path / f"{family}.json"
        result = convert(
            tmp_path / family, "-o", out, "--strict", "--to", family, "--jobs", "2", "--report", log, timeout=3600
        )
        assert result.returncode in (0, 1), result.stderr
        for name, entry in report(log).items():
            entries[named[name]] = entry
            if entry["status"] == "failed":
                failed.add(named[name])
    wrong = {
        corpus_id(path): sorted({f"{d['stage']}:{d['code']}" for d in entries[path]["diagnostics"]})
        for path in failed ^ expected
    }
    assert not wrong, json.dumps(wrong, indent=1)


ROBOTS = corpus_files("*/samples/Robot_skinned/Robot_skinned.gltf", sample=False)


@pytest.mark.corpus
def test_strict_converts_the_skinned_robots(tmp_path, addon):
    """Issue 34: the skinned robot samples are valid, and their bodies on nodes that become bones now pass through
    Blender (bone stand-ins), so ``--strict`` converts them, the bodies on the same (bone) nodes of the output."""
    if not ROBOTS:
        pytest.skip("../shared/corpus not found")
    src = tmp_path / "in"
    for i, path in enumerate(ROBOTS):
        (src / str(i)).mkdir(parents=True)
        for sibling in path.parent.iterdir():  # the file and its resources (its .bin; the corpus lacks some images)
            if sibling.is_file():
                (src / str(i) / sibling.name).write_bytes(sibling.read_bytes())
    result = convert(src, "-o", tmp_path / "out", "--strict", "--report", tmp_path / "r.json")
    assert result.returncode == 0, result.stderr
    files = report(tmp_path / "r.json")
    assert sorted(files) == [f"{i}/Robot_skinned.gltf" for i in range(len(ROBOTS))]
    for name, entry in files.items():
        assert entry["status"] in ("converted", "warnings") and entry["lost"] == [], (name, entry)
        written = read_json(tmp_path / "out" / name)
        joints = {written["nodes"][j]["name"] for skin in written["skins"] for j in skin["joints"]}
        for node in written["nodes"]:
            if node.get("name") in ("Robot_Robot_Body_RB", "Robot_Robot_Head"):
                assert node["name"] in joints and {"motion", "collider"} <= set(node["extensions"][RB]), name
