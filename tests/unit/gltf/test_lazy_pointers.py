"""The validator and the readers build a JSON pointer's text only for the values they report (issue 14, item 1)."""

from __future__ import annotations

import json
import sys

import pytest

from testkit import FIXTURES, PACKAGE, submodule

diagnostics = submodule("io.diagnostics")
parse = submodule("io.gltf.parse")


def _clean(path) -> bool:
    """A fixture that is JSON and has no physics diagnostics (fixtures of malformed files are not)."""
    try:
        gltf = json.loads(path.read_text(encoding="utf-8"))
    except ValueError:
        return False
    return not parse.parse_gltf(gltf).diagnostics


CLEAN = sorted(p for p in FIXTURES.rglob("*.gltf") if _clean(p))


@pytest.fixture
def pointer_builds(monkeypatch) -> list[tuple]:
    """Every call of ``diagnostics.pointer`` (under every name our modules bound it to) appends its parts here."""
    original, calls = diagnostics.pointer, []

    def counting(*parts: object) -> str:
        calls.append(parts)
        return original(*parts)

    for name, module in list(sys.modules.items()):
        if name.startswith(PACKAGE + ".") and getattr(module, "pointer", None) is original:
            monkeypatch.setattr(module, "pointer", counting)
    return calls


def test_clean_fixtures_exist():
    assert len(CLEAN) >= 20  # the joints, import and basic fixtures parse without a diagnostic


@pytest.mark.parametrize("path", CLEAN, ids=lambda p: str(p.relative_to(FIXTURES)))
def test_valid_document_builds_no_pointer(path, pointer_builds):
    result = parse.parse_gltf(json.loads(path.read_text(encoding="utf-8")))
    assert result.diagnostics == []
    assert pointer_builds == []  # was 40-80 per body before (~56,000 for the 2,000-body bench file)


def test_reported_pointers_are_text_and_few(pointer_builds):
    result = parse.parse_gltf(json.loads((FIXTURES / "import" / "malformed.gltf").read_text(encoding="utf-8")))
    assert result.diagnostics
    assert all(type(d.pointer) is str for d in result.diagnostics)
    # one text per pointer reported or compared against a report, each from a handful of nested parts
    assert len(pointer_builds) <= 6 * len(result.diagnostics)


@pytest.mark.parametrize(
    ("base", "parts"),
    [("", ("nodes", 3, "extensions")), ("/extensions/KHR_x", ("a/b", "c~d", 0)), ("/x", ()), ("", ("", "é"))],
)
def test_lazy_pointer_text_equals_eager_pointer(base, parts):
    lazy = diagnostics.pointer_join(diagnostics.pointer_join(base, *parts[:1]), *parts[1:])
    eager = base + diagnostics.pointer(*parts)
    assert str(lazy) == eager
    assert lazy == eager and hash(lazy) == hash(eager)
    assert diagnostics.Diagnostic(diagnostics.Severity.ERROR, "C", lazy, "m").pointer == eager
    assert type(diagnostics.Diagnostic(diagnostics.Severity.ERROR, "C", lazy, "m").pointer) is str
