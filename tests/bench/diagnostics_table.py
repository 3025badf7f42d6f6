"""Regenerate the code table of ``docs/diagnostics.md`` from ``io/validate_codes.CODES``.

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


def main() -> None:
    path = ROOT / "docs" / "diagnostics.md"
    prose = path.read_text(encoding="utf-8").split(HEADING)[0]
    path.write_text(f"{prose}{HEADING}\n\n{table()}", encoding="utf-8")
    print("wrote", path)


if __name__ == "__main__":
    main()
