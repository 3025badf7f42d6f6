"""Regenerate the code tables of ``docs/diagnostics.md``: the validator's (``io/gltf/validate/codes.CODES``) and the
whole registry (``io/diagnostic_codes.REGISTRY``).

Usage (from the repository root): ``.venv/bin/python tests/bench/diagnostics_table.py``. The prose above the
``## Codes`` heading is kept; the table below it is rewritten.
"""

from __future__ import annotations

import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))  # tests/ (for testkit), never the root

from testkit import ROOT, submodule

HEADING = "## Codes"


def table() -> str:
    codes = submodule("io.gltf.validate.codes")
    rows = ["| Code | Severity | Origin | Meaning | Example pointer |", "|---|---|---|---|---|"]
    for code, info in codes.CODES.items():
        if code.startswith(codes.OWN_PREFIX):
            origin = "ours"
        elif code.startswith(("KHR_", "SHAPE_")):
            origin = "validator fork"
        else:
            origin = "validator core"
        rows.append(f"| `{code}` | {info.severity.name} | {origin} | {info.meaning} | `{info.example}` |")
    return "\n".join(rows) + "\n"


REGISTRY_HEADING = "## Every code: the registry"


def registry_table() -> str:
    """Every registered code (``io/diagnostic_codes.REGISTRY``): its one severity, whether it loses physics."""
    registry = submodule("io.diagnostic_codes").REGISTRY
    rows = ["| Code | Severity | Loses physics | Meaning |", "|---|---|---|---|"]
    for code, info in registry.items():
        rows.append(f"| `{code}` | {info.severity.name} | {'yes' if info.loses_physics else ''} | {info.meaning} |")
    return "\n".join(rows) + "\n"


def main() -> None:
    path = ROOT / "docs" / "diagnostics.md"
    prose = path.read_text(encoding="utf-8").split(HEADING)[0]
    intro = (
        "Generated from `io/diagnostic_codes.py` (`tests/bench/diagnostics_table.py`): the one severity of each "
        "code in every command and in Blender, and whether it counts as a loss of physics for `convert`."
    )
    text = f"{prose}{HEADING}\n\n{table()}\n{REGISTRY_HEADING}\n\n{intro}\n\n{registry_table()}"
    path.write_text(text, encoding="utf-8")
    print("wrote", path)


if __name__ == "__main__":
    main()
