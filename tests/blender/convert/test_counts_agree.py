"""One definition of bodies, colliders, joints, triggers (``io/gltf/counts.py``): the import summary, the export
summary, ``convert``'s per-file line and its report's ``counts`` give the same numbers for one file (a dynamic body
and a static collider: 1 body, 2 colliders — the import used to say "2 rigid bodies", the export "1 rigid bodies,
2 colliders"), and the summary line's numbers are the report summary's."""

from __future__ import annotations

import copy
import json
import re

from convert_helpers import convert, report

from blenderkit import submodule
from export_helpers import export, last_export
from joint_helpers import import_gltf
from testkit import FIXTURES, read_json

RB = "KHR_physics_rigid_bodies"


def _body_and_floor(path):
    gltf = read_json(FIXTURES / "basic_body.gltf")
    floor = copy.deepcopy(gltf["nodes"][0])
    floor["name"], floor["translation"] = "Floor", [0.0, 0.0, 0.0]
    del floor["extensions"][RB]["motion"]
    gltf["nodes"].append(floor)
    gltf["scenes"][0]["nodes"].append(1)
    path.write_text(json.dumps(gltf))
    return path


def test_import_export_and_convert_count_alike(tmp_path, addon, clean):
    source = _body_and_floor(tmp_path / "floor.gltf")
    pipeline = submodule(addon, "io.importer.pipeline")
    imported = import_gltf(addon, source)
    headline = pipeline.summary_lines(imported)[0][1]
    assert "1 body, 2 colliders, 0 joints, 0 triggers" in headline, headline
    export(tmp_path / "out.gltf", "2026")
    exported = last_export(addon)
    lines = submodule(addon, "io.exporter.pipeline").export_summary_lines(exported, "2026")
    assert "1 body, 2 colliders, 0 joints, 0 triggers" in lines[0][1], lines
    keys = ("bodies", "colliders", "joints", "triggers")
    assert [imported.counts[k] for k in keys] == [exported.counts[k] for k in keys] == [1, 2, 0, 0]

    result = convert(source, "-o", tmp_path / "conv", "--report", tmp_path / "r.json")
    assert result.returncode == 0, result.stderr
    assert "1 body, 2 colliders, 0 joints, 0 triggers" in result.stderr
    assert report(tmp_path / "r.json")["floor.gltf"]["counts"] == dict(zip(keys, [1, 2, 0, 0], strict=True))
    summary = json.loads((tmp_path / "r.json").read_text())["summary"]
    numbers = re.match(
        r"written (\d+) \((\d+) converted, (\d+) with warnings, (\d+) with losses\), failed (\d+), skipped (\d+)",
        summary["text"],
    )
    assert numbers and [int(n) for n in numbers.groups()] == [
        summary[k] for k in ("written", "converted", "warnings", "losses", "failed", "skipped")
    ]
    assert summary["text"] in result.stderr
