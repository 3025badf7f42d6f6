"""``ReadContext.report``: a parser problem the validator already reported at, inside or around the same pointer is
not reported twice, whatever the number of validator diagnostics (it was a scan of all of them per report)."""

from __future__ import annotations

import random

import pytest

from testkit import submodule

common = submodule("io.gltf.read.common")
diagnostics = submodule("io.diagnostics")

PARTS = ["", "a", "b", "ab", "~0", "~1", "0", "12"]


def _scan(validated: list[str], ptr: str) -> bool:
    """The rule as a scan: the validator reported at ``ptr``, inside it or at one of its ancestors."""
    return any(seen == ptr or seen.startswith(ptr + "/") or ptr.startswith(seen + "/") for seen in validated)


def _reported(validated: list[str], ptr: str, code: str) -> bool:
    diags = [diagnostics.Diagnostic(diagnostics.Severity.WARNING, "TEST_CODE", p, "m") for p in validated]
    ctx = common.ReadContext({}, diags)
    ctx.report(diagnostics.Severity.WARNING, code, ptr, "m")
    return bool(ctx.diags.items)


def _pointer(rng: random.Random) -> str:
    return "".join("/" + rng.choice(PARTS) for _ in range(rng.randint(0, 4)))


def test_report_skips_exactly_what_the_scan_skipped():
    rng = random.Random(7)
    for _ in range(3000):
        validated = [_pointer(rng) for _ in range(rng.randint(0, 4))]
        ptr = _pointer(rng)
        assert _reported(validated, ptr, common.IGNORED) is not _scan(validated, ptr), (validated, ptr)


@pytest.mark.parametrize(
    ("validated", "ptr", "kept"),
    [
        ("/nodes/1/extensions", "/nodes/1/extensions", False),  # at
        ("/nodes/1/extensions/x", "/nodes/1/extensions", False),  # inside
        ("/nodes/1", "/nodes/1/extensions", False),  # around
        ("", "/nodes/1", False),  # the document itself
        ("/nodes/1", "/nodes/12", True),  # a sibling sharing a prefix, not an ancestor
        ("/nodes/12", "/nodes/1", True),
    ],
)
def test_report_near_a_validator_pointer(validated, ptr, kept):
    assert _reported([validated], ptr, common.IGNORED) is kept


def test_other_codes_are_always_reported():
    assert _reported(["/nodes/1"], "/nodes/1", common.CONVERTED)
