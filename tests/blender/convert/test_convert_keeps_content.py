"""Nothing else is lost in glTF → glTF (issue 34, item 4): ``convert`` exports with extras, cameras, lights, custom
attributes and every skin influence, so what io_scene_gltf2 can carry outside the physics extensions survives
(``content_compare`` says what is compared and what io_scene_gltf2 may rewrite); extensions it cannot carry are
named in the report (``CONVERT_CONTENT_NOT_KEPT``)."""

from __future__ import annotations

import json
import shutil

import pytest
from content_compare import CARRIED_PREFIXES, PHYSICS_PREFIXES, differences
from convert_helpers import convert, report

from testkit import FIXTURES, corpus_files, corpus_id, read_json


def _rich_document() -> dict:
    """``basic_body.gltf`` with extras everywhere, a camera, a light and a vendor extension."""
    gltf = read_json(FIXTURES / "basic_body.gltf")
    gltf["scenes"][0]["extras"] = {"level": "intro", "spawn": [1, 2, 3]}
    gltf["nodes"][0]["extras"] = {"engine": {"layer": 4, "tags": ["crate", "wood"]}, "health": 12.5}
    gltf["meshes"][0]["extras"] = {"lod": 0}
    gltf["materials"] = [{"name": "Crate", "extras": {"footsteps": "wood"}, "doubleSided": True}]
    for primitive in gltf["meshes"][0]["primitives"]:
        primitive["material"] = 0
    gltf["cameras"] = [{"type": "perspective", "perspective": {"yfov": 0.8, "znear": 0.1}, "extras": {"main": True}}]
    lights = {"lights": [{"type": "point", "color": [1.0, 0.5, 0.25], "intensity": 20.0}]}
    gltf.setdefault("extensions", {})["KHR_lights_punctual"] = lights
    gltf["extensions"]["VENDOR_scene_metadata"] = {"author": "someone"}
    gltf["extensionsUsed"] += ["KHR_lights_punctual", "VENDOR_scene_metadata"]
    gltf["nodes"] += [
        {"name": "Camera", "camera": 0, "translation": [0.0, 1.0, 5.0], "extras": {"fov_lock": True}},
        {"name": "Lamp", "translation": [2.0, 3.0, 0.0], "extensions": {"KHR_lights_punctual": {"light": 0}}},
    ]
    gltf["scenes"][0]["nodes"] += [1, 2]
    return gltf


def test_extras_cameras_and_lights_survive_a_conversion(tmp_path):
    src = tmp_path / "in"
    src.mkdir()
    document = _rich_document()
    (src / "rich.gltf").write_text(json.dumps(document))
    result = convert(src, "-o", tmp_path / "out", "--report", tmp_path / "r.json")
    assert result.returncode == 0, result.stderr
    written = read_json(tmp_path / "out" / "rich.gltf")
    assert not differences(document, written)
    by_name = {n["name"]: n for n in written["nodes"]}
    assert by_name["Box"]["extras"] == {"engine": {"layer": 4, "tags": ["crate", "wood"]}, "health": 12.5}
    assert "motion" in by_name["Box"]["extensions"]["KHR_physics_rigid_bodies"]
    (note,) = [d for d in report(tmp_path / "r.json")["rich.gltf"]["diagnostics"] if d["code"].startswith("CONVERT_")]
    assert (note["code"], note["severity"]) == ("CONVERT_CONTENT_NOT_KEPT", "warning")
    assert "VENDOR_scene_metadata" in note["message"] and "KHR_lights_punctual" not in note["message"]


@pytest.mark.corpus
def test_corpus_content_outside_the_physics_survives(tmp_path):
    picked = [p for p in corpus_files() if "glTF-Validator" not in str(p)]  # the validator's fixtures: no content
    if not picked:
        pytest.skip("../shared/corpus not found")
    sources = {}
    for i, path in enumerate(picked):
        family = "omi" if "omi" in corpus_id(path).lower() else "2026"
        target = tmp_path / family / f"{i:03d}"
        target.mkdir(parents=True)
        for sibling in path.parent.iterdir():
            if sibling == path or (sibling.is_file() and sibling.suffix.lower() not in (".gltf", ".glb", ".blend")):
                shutil.copyfile(sibling, target / sibling.name)
        sources[(family, f"{i:03d}/{path.name}")] = path
    problems = {}
    for family in ("2026", "omi"):
        if not (tmp_path / family).is_dir():
            continue
        log = tmp_path / f"{family}.json"
        result = convert(
            tmp_path / family,
            "-o",
            tmp_path / f"out-{family}",
            "--to",
            family,
            "--jobs",
            "2",
            "--report",
            log,
            timeout=3600,
        )
        assert result.returncode in (0, 1, 3), result.stderr
        for name, entry in report(log).items():
            if entry["status"] == "failed":
                continue
            files = submodule_files()
            before, after = files.load(entry["input"]).json, files.load(entry["output"]).json
            found = differences(before, after)
            used = {e for e in before.get("extensionsUsed", []) if not e.startswith(PHYSICS_PREFIXES)}
            dropped = sorted(
                e for e in used if not e.startswith(CARRIED_PREFIXES) and e not in after.get("extensionsUsed", [])
            )
            said = " ".join(d["message"] for d in entry["diagnostics"] if d["code"] == "CONVERT_CONTENT_NOT_KEPT")
            found += [f"{e} dropped without a word" for e in dropped if e not in said]
            if found:
                problems[corpus_id(sources[(family, name)])] = found[:5]
    assert not problems, json.dumps(problems, indent=1)


def submodule_files():
    from testkit import submodule

    return submodule("io.gltf.files")


def test_our_property_groups_are_never_written_as_extras(tmp_path, addon, clean):
    """Blender 4.x keeps registered property groups among the custom properties: with *Custom Properties* on,
    io_scene_gltf2 wrote ``Object.gltf_physics`` / ``Scene.gltf_physics`` as extras (our bookkeeping)."""
    import bpy

    from export_helpers import export
    from joint_helpers import import_gltf

    import_gltf(addon, FIXTURES / "basic_body.gltf")
    bpy.data.objects["Box"]["user_value"] = 7
    written = export(tmp_path / "out.gltf", "2026", export_extras=True)
    assert written["nodes"][0]["extras"] == {"user_value": 7}
    assert "gltf_physics" not in json.dumps([s.get("extras") for s in written["scenes"]])
