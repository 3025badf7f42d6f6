"""``gltf-physics validate`` / ``migrate`` / ``metrics`` on hostile strings and JSON (issue 11, items 5, 6, 8, 9),
through the real launcher.

Rules checked: lone UTF-16 surrogates, control characters (newline, ESC) and bidi overrides in keys and values are
printed escaped (``\\ud800``, ``\\n``, ``\\x1b``) in human output, never raw, never a traceback, on any console
encoding; ``--json`` keeps the original values; JSON nested too deep, an integer longer than Python reads, or a
top-level array / number / null is one file-level diagnostic (pointer ""), and the other files of the run are still
reported; exit codes are 0 clean, 1 the input has errors, 2 usage or unreadable input."""

from __future__ import annotations

import json
import os
import subprocess

import pytest

from testkit import ROOT, fixture, submodule

LAUNCHER = ROOT / "bin" / "gltf-physics"
FORGED_KEY = "k\nERROR FORGED at /: injected"
ANSI = "\x1b[31mred"


def run(*args, env=None):
    environ = dict(os.environ, **(env or {}))
    return subprocess.run([str(LAUNCHER), *map(str, args)], capture_output=True, timeout=120, env=environ, check=False)


def _hostile_doc() -> dict:
    doc = json.loads(fixture("joints/filters.gltf").read_text(encoding="utf-8"))
    doc["nodes"][1]["name"] = "Gh\ud800ost"
    doc["extensions"]["KHR_implicit_shapes"]["shapes"].append({"type": "bo\ud800x" + ANSI})
    doc["nodes"][5]["extensions"]["KHR_physics_rigid_bodies"]["collider"]["geometry"]["shape"] = 2
    doc["extensions"]["KHR_physics_rigid_bodies"]["collisionFilters"][0]["collisionSystems"] = ["wo\udc00rld"]
    motion = doc["nodes"][2]["extensions"]["KHR_physics_rigid_bodies"]["motion"]
    motion["\ud801" + FORGED_KEY] = 1
    motion[ANSI + "\u202e\u00e9"] = 2
    doc["nodes"][3]["extensions"]["KHR_physics_rigid_bodies"]["motion"]["mass"] = "\ud800" + ANSI
    doc["extensions"]["\ud802EXT_x"] = {}
    return doc


def _write(path, doc=None, text=None):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text if text is not None else json.dumps(doc), encoding="utf-8")
    return path


def _assert_clean_text(data: bytes, encoding: str = "ascii") -> str:
    text = data.decode(encoding)  # everything escaped or backslash-replaced: plain ASCII on an ASCII console
    assert "Traceback" not in text
    assert "\x1b" not in text and "\u202e" not in text
    assert not any(line.lstrip().startswith("ERROR FORGED") for line in text.splitlines()), text
    return text


@pytest.mark.parametrize("encoding", ["utf-8", "ascii", "latin-1"])
def test_validate_human_escapes_hostile_strings(tmp_path, encoding):
    source = _write(tmp_path / "in.gltf", _hostile_doc())
    result = run("validate", source, env={"PYTHONIOENCODING": encoding, "LANG": "C", "LC_ALL": "C"})
    assert result.returncode == 1, result.stderr
    text = _assert_clean_text(result.stdout + result.stderr) if encoding == "ascii" else None
    out = result.stdout.decode(encoding)
    assert "Traceback" not in out + result.stderr.decode(encoding, "replace")
    assert "\\ud801k\\nERROR FORGED" in out and "\\x1b[31m" in out and "\\u202e" in out
    assert "\x1b" not in out and not any(line.lstrip().startswith("ERROR FORGED") for line in out.splitlines())
    assert text is None or "\\xe9" in text  # é on an ASCII console: backslash-replaced, not a crash


def test_validate_json_keeps_original_values(tmp_path):
    source = _write(tmp_path / "in.gltf", _hostile_doc())
    result = run("validate", "--json", source, env={"PYTHONIOENCODING": "ascii"})
    assert result.returncode == 1
    rows = [d for f in json.loads(result.stdout)["files"] for d in f["diagnostics"]]
    assert any(r["pointer"].endswith("/motion/\ud801" + FORGED_KEY.replace("/", "~1")) for r in rows), rows


@pytest.mark.parametrize("encoding", ["utf-8", "ascii"])
def test_migrate_human_escapes_hostile_strings_and_keeps_values(tmp_path, encoding):
    source = _write(tmp_path / "in" / "a.gltf", _hostile_doc())
    out = tmp_path / "out" / "a.gltf"
    result = run("migrate", source, out, "--to", "omi", env={"PYTHONIOENCODING": encoding})
    assert result.returncode == 1  # the string mass is an error: that body is dropped
    _assert_clean_text(result.stdout + result.stderr, encoding)
    assert "\\ud801k\\nERROR FORGED" in result.stderr.decode(encoding)
    written = json.loads(out.read_text(encoding="utf-8"))
    assert written["nodes"][1]["name"] == "Gh\ud800ost"
    assert "\ud802EXT_x" in written["extensions"]


def test_file_names_are_escaped_too(tmp_path):
    source = _write(tmp_path / "a\nERROR FORGED\x1b.gltf", text="{not json")
    result = run("validate", source)
    _assert_clean_text(result.stdout + result.stderr)
    result = run("migrate", source, tmp_path / "o.gltf", "--to", "2026")
    _assert_clean_text(result.stdout + result.stderr)


DEEP = '{"asset": {"version": "2.0"}, "extras": ' + "[" * 1200 + "]" * 1200 + "}"
MIDDLE = '{"asset": {"version": "2.0"}, "extras": ' + "[" * 600 + "]" * 600 + "}"
BIG_INT = '{"asset": {"version": "2.0"}, "extras": ' + "7" * 5000 + "}"
HOSTILE_JSON = {"deep": DEEP, "middle": MIDDLE, "bigint": BIG_INT, "array": "[1, 2]", "number": "3", "null": "null"}
READABLE = {"array", "number", "null"}  # JSON Python reads, but not a glTF document: the input has errors


@pytest.mark.parametrize("kind", sorted(HOSTILE_JSON))
def test_validate_json_reports_every_file_of_the_run(tmp_path, kind):
    good = fixture("joints/filters.gltf")
    bad = _write(tmp_path / f"{kind}.gltf", text=HOSTILE_JSON[kind])
    result = run("validate", "--json", good, bad, good)
    assert result.returncode == (1 if kind in READABLE else 2), result.stderr
    assert b"Traceback" not in result.stderr
    rows = [{"file": f["file"], **d} for f in json.loads(result.stdout)["files"] for d in f["diagnostics"]]
    mine = [r for r in rows if r["file"] == str(bad)]
    assert len(mine) == 1 and mine[0]["severity"] == "error" and mine[0]["pointer"] in ("", "/"), mine
    human = run("validate", good, bad)
    assert human.returncode == result.returncode and b"Traceback" not in human.stdout + human.stderr
    assert f"{good}: ok".encode() in human.stdout and f"{bad}: FAILED".encode() in human.stdout


@pytest.mark.parametrize("kind", sorted(HOSTILE_JSON))
def test_migrate_refuses_hostile_json_without_writing(tmp_path, kind):
    source = _write(tmp_path / f"{kind}.gltf", text=HOSTILE_JSON[kind])
    out = tmp_path / "out" / "o.gltf"
    result = run("migrate", source, out, "--to", "2026")
    assert result.returncode == (1 if kind in READABLE else 2), result.stderr
    assert b"Traceback" not in result.stderr and b"nothing written" in result.stderr
    assert not out.exists()


def test_validate_exit_codes(tmp_path):
    good = fixture("joints/filters.gltf")
    invalid = _write(tmp_path / "invalid.gltf", _hostile_doc())
    broken = _write(tmp_path / "broken.gltf", text="{not json")
    assert run("validate", good).returncode == 0
    assert run("validate", good, invalid).returncode == 1
    assert run("validate", broken).returncode == 2
    assert run("validate", invalid, broken, tmp_path / "missing.gltf").returncode == 2
    assert run("validate", "--min-severity", "loud", good).returncode == 2
    assert run("validate").returncode == 2


def test_printable_escapes_only_what_is_unsafe():
    printable = submodule("io.diagnostics").printable
    assert printable("plain é ü 日本 \\ud800") == "plain é ü 日本 \\ud800"  # backslashes and letters kept
    assert printable("a\nb\rc\td") == "a\\nb\\rc\\td"
    assert printable("\x1b[31m\x00\x7f\x85") == "\\x1b[31m\\x00\\x7f\\x85"
    assert printable("x\ud800y\udfff") == "x\\ud800y\\udfff"
    assert printable("\u202eevil\u2066\u2028") == "\\u202eevil\\u2066\\u2028"
    assert printable(7) == "7"
    diagnostics = submodule("io.diagnostics")
    diag = diagnostics.Diagnostic(diagnostics.Severity.ERROR, "C", "/a\nERROR X", "m\ud800")
    assert str(diag) == "ERROR C at /a\\nERROR X: m\\ud800" and diag.to_dict()["pointer"] == "/a\nERROR X"
