"""Hostile values and names in ``check``'s outputs (issue 35, item 4), bpy-free.

Rules checked: the JSON is strict (``allow_nan=False``): a non-finite value (Bullet overflowing float32 makes
``inf``) is written as ``null`` and named in a ``REPORT_NON_FINITE`` WARNING of that file; names with ``$…$`` reach
matplotlib escaped (no mathtext: the plots and the JSON are written); a 300-character joint or file name gives a
cut, hashed file name (no "File name too long")."""

from __future__ import annotations

import json
import pathlib

import pytest
from test_check_evaluate import body, joint, samples

from testkit import submodule

evaluate = submodule("io.check.evaluate")
output = submodule("io.check.output")
diagnostics = submodule("io.diagnostics")
N = 49


def _strict(text: str) -> object:
    def refuse(constant):
        raise ValueError(f"not JSON: {constant}")

    return json.loads(text, parse_constant=refuse)


def test_finite_json_replaces_inf_and_nan_and_names_them():
    value = {"a": [1.0, float("inf")], "b": {"c": float("nan"), "d/e": -float("inf")}, "n": 3}
    cleaned, found = diagnostics.finite_json(value)
    assert cleaned == {"a": [1.0, None], "b": {"c": None, "d/e": None}, "n": 3}
    assert found == ["/a/1", "/b/c", "/b/d~1e"]
    text, _ = diagnostics.strict_json_text(value)
    assert _strict(text) == cleaned


def test_check_json_with_overflowed_values_is_strict_json_with_a_warning():
    report = evaluate.finish(samples([body("Crate", [[0, 0, 1.0]] * N)]), [], "scene.gltf")
    report["bodies"][0]["travel"] = float("inf")
    report["bodies"][0]["spin"] = float("nan")
    run = {"format": "gltf_physics.check_run/1", "frames": N, "files": [{"file": "scene.gltf", "status": "ok"}]}
    run["files"][0] |= {"diagnostics": [], "report": report}
    data = _strict(output.to_json(run))
    entry = data["files"][0]
    assert entry["report"]["bodies"][0]["travel"] is None and entry["report"]["bodies"][0]["spin"] is None
    (warning,) = [d for d in entry["diagnostics"] if d["code"] == "REPORT_NON_FINITE"]
    assert warning["severity"] == "warning"
    assert "/report/bodies/0/travel" in warning["message"] and "/report/bodies/0/spin" in warning["message"]


def test_mathtext_and_very_long_names_still_give_every_plot(tmp_path):
    j = joint([{"angularAxes": [2], "min": -0.5, "max": 0.5}], angle=lambda t: 0.4 * t)
    j["name"] = "$\\frac{1}{$" + "J" * 300
    crate = body("$\\undefined{x}$", [[0, 0, 1.0]] * N)
    report = evaluate.finish(samples([crate], [j]), [], "$x^$.gltf")
    written = output.write_plots(report, tmp_path, prefix="00_x_")
    assert len(written) == 2
    names = [pathlib.Path(p).name for p in written]
    assert all(len(name) < 120 for name in names), names
    assert all(pathlib.Path(p).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" for p in written)
    other = dict(j, name="$\\frac{1}{$" + "J" * 299 + "K")
    report2 = evaluate.finish(samples([crate], [other]), [], "y.gltf")
    second = output.write_plots(report2, tmp_path, prefix="00_x_")
    assert pathlib.Path(second[1]).name != names[1], "two long names cut alike stay two files"


def test_a_plot_never_replaces_an_input_or_its_resource(tmp_path):
    """A hostile file can name its image like the plot of itself (``00_x_heights.png``): refused, bytes kept."""
    resource = tmp_path / "00_x_heights.png"
    resource.write_bytes(b"the input's texture")
    report = evaluate.finish(samples([body("Crate", [[0, 0, 1.0]] * N)]), [], "x.gltf")
    with pytest.raises(OSError, match="input's resource: not overwritten"):
        output.write_plots(report, tmp_path, prefix="00_x_", protected=frozenset({resource.resolve()}))
    assert resource.read_bytes() == b"the input's texture"


def test_check_protects_every_resource_an_input_references(tmp_path):
    driver = submodule("io.check.driver")
    (tmp_path / "x.gltf").write_text(
        json.dumps({"asset": {"version": "2.0"}, "images": [{"uri": "00_x_heights.png"}, {"uri": "x://../t.png"}]})
    )
    job = driver.CheckJob((tmp_path / "x.gltf").absolute(), 5, "000_x.gltf", tmp_path / "scratch")
    protected = driver._protected([job])
    assert protected == {(tmp_path / n).resolve() for n in ("x.gltf", "00_x_heights.png", "t.png")}
