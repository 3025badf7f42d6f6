"""Compare our physics validator with the expected reports of the physics glTF-Validator fork's fixtures.

Usage (from the repository root): ``.venv/bin/python tests/bench/validator_conformance.py [--write]``.
Prints the match rate; ``--write`` also writes ``docs/validator-conformance.md``.

Comparison, per fixture: the SET of (code, pointer) pairs.
* Expected: every message of ``<fixture>.report.json`` whose pointer lies under a physics extension object
  (``/extensions/<ext>`` or ``/nodes/i/extensions/<ext>``), except ``UNUSED_OBJECT`` (reachability info about the
  object graph, not a physics rule).
* Ours: every diagnostic whose code is not one of our own ``GLTF_PHYSICS_*`` codes (the validator has no
  counterpart for those).
A fixture matches when both sets are equal. A second, lenient figure also accepts a pair whose expected pointer does
not exist in the document (a validator pointer bug, e.g. ``…/limits/0/0``) when ours has the same code and lies under
the deepest existing ancestor of the expected pointer.
"""

from __future__ import annotations

import json
import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))  # tests/ (for testkit), never the root

from testkit import CORPUS, ROOT, corpus_files, submodule

PHYSICS_EXTENSIONS = submodule("io.gltf.extensions").PHYSICS_EXTENSIONS
EXCLUDED_CODES = {"UNUSED_OBJECT"}
PATTERN = "glTF-Validator_*/**/*.gltf"


def is_physics_pointer(ptr: str) -> bool:
    parts = ptr.split("/")
    if len(parts) >= 3 and parts[1] == "extensions":
        return parts[2] in PHYSICS_EXTENSIONS
    return len(parts) >= 5 and parts[1] == "nodes" and parts[3] == "extensions" and parts[4] in PHYSICS_EXTENSIONS


def expected_pairs(report: dict) -> set[tuple[str, str]]:
    messages = report.get("issues", {}).get("messages", [])
    return {
        (m["code"], m["pointer"])
        for m in messages
        if m.get("code") not in EXCLUDED_CODES and is_physics_pointer(m.get("pointer", ""))
    }


#: Our codes for a problem the validator fork reports under its own code (at another severity): compared as the fork's.
FORK_CODE = {"GLTF_PHYSICS_VALUE_NOT_USABLE": "VALUE_NOT_IN_LIST"}


def our_pairs(diagnostics) -> set[tuple[str, str]]:
    own = submodule("io.gltf.validate.codes").OWN_PREFIX
    codes = ((FORK_CODE.get(d.code, d.code), d) for d in diagnostics)
    return {(code, d.pointer) for code, d in codes if not code.startswith(own)}


def resolves(doc: object, ptr: str) -> bool:
    node = doc
    for raw in ptr.split("/")[1:]:
        part = raw.replace("~1", "/").replace("~0", "~")
        if isinstance(node, dict) and part in node:
            node = node[part]
        elif isinstance(node, list) and part.isdigit() and int(part) < len(node):
            node = node[int(part)]
        else:
            return False
    return True


def deepest_existing(doc: object, ptr: str) -> str:
    parts = ptr.split("/")
    while len(parts) > 1 and not resolves(doc, "/".join(parts)):
        parts.pop()
    return "/".join(parts)


def lenient_match(doc: object, expected: set, ours: set) -> bool:
    """Equal sets after pairing each non-existent expected pointer with one of ours under its existing ancestor."""
    remaining = set(ours - expected)
    for code, ptr in expected - ours:
        if resolves(doc, ptr):
            return False
        base = deepest_existing(doc, ptr)
        hit = next((p for p in sorted(remaining) if p[0] == code and (p[1] + "/").startswith(base + "/")), None)
        if hit is None:
            return False
        remaining.discard(hit)
    return not remaining


def run() -> dict:
    validate = submodule("io.gltf.validate.document").validate_gltf
    rows = []
    for path in corpus_files(PATTERN):
        doc = json.loads(path.read_text(encoding="utf-8"))
        report = json.loads(path.with_name(path.name + ".report.json").read_text(encoding="utf-8"))
        expected = expected_pairs(report)
        try:
            ours = our_pairs(validate(doc))
            crashed = ""
        except Exception as exc:  # record crashes instead of stopping
            ours, crashed = set(), f"{type(exc).__name__}: {exc}"
        rows.append(
            {
                "file": str(path.relative_to(CORPUS)),
                "expected": expected,
                "ours": ours,
                "crashed": crashed,
                "strict": ours == expected and not crashed,
                "lenient": not crashed and lenient_match(doc, expected, ours),
            }
        )
    total = len(rows)
    strict = sum(r["strict"] for r in rows)
    lenient = sum(r["lenient"] for r in rows)
    return {
        "rows": rows,
        "total": total,
        "strict": strict,
        "lenient": lenient,
        "crashes": sum(bool(r["crashed"]) for r in rows),
    }


def rate(count: int, total: int) -> str:
    return f"{100.0 * count / total:.1f} %" if total else "n/a"


def markdown(result: dict) -> str:
    total, strict, lenient = result["total"], result["strict"], result["lenient"]
    lines = [
        "# Validator conformance",
        "",
        "Generated by `.venv/bin/python tests/bench/validator_conformance.py --write`; do not edit by hand.",
        "",
        "Fixtures: the expected reports of the physics glTF-Validator fork in `../shared/corpus/glTF-Validator_*`",
        "(2024-10 `KHR_implicit_shapes` branch and 2024-07 `KHR_collision_shapes` branch). Per fixture we compare",
        "the SET of (code, pointer) pairs of physics issues: expected = report messages whose pointer lies under a",
        "physics extension object, minus `UNUSED_OBJECT` (object-graph reachability, not a physics rule); ours = our",
        "diagnostics minus our own `GLTF_PHYSICS_*` codes (no validator counterpart).",
        "",
        f"* Fixtures: **{total}**, validator crashes: **{result['crashes']}**",
        f"* Exact match: **{strict}/{total} = {rate(strict, total)}**",
        f"* Match when validator pointers that do not exist in the document are compared by their deepest existing "
        f"ancestor: **{lenient}/{total} = {rate(lenient, total)}**",
        "",
        "## Mismatches",
        "",
        "All remaining differences are deliberate (see `docs/diagnostics.md`):",
        "",
        "* the validator's pointer does not exist in the document (`…/limits/0/0` for an axis value,",
        "  `…/geometry/node/0` for the integer `geometry.node`, `…/shapes/0/{skin,weights}` for values inside the",
        "  `mesh` object): we point at the offending value itself;",
        "* (a node `joint` without `connectedNode` is reported as `UNDEFINED_PROPERTY` unless the joint is already",
        "  rejected for its description, where the validator stops too.)",
        "",
        "| Fixture | Only expected | Only ours | Lenient match |",
        "|---|---|---|---|",
    ]
    for row in result["rows"]:
        if row["strict"]:
            continue
        only_expected = "<br>".join(f"`{c}` `{p}`" for c, p in sorted(row["expected"] - row["ours"])) or "—"
        only_ours = "<br>".join(f"`{c}` `{p}`" for c, p in sorted(row["ours"] - row["expected"])) or "—"
        if row["crashed"]:
            only_ours = f"CRASH {row['crashed']}"
        lines.append(f"| `{row['file']}` | {only_expected} | {only_ours} | {'yes' if row['lenient'] else 'no'} |")
    return "\n".join(lines) + "\n"


def main() -> None:
    result = run()
    total = result["total"]
    print(f"validator fixtures: {total}, crashes: {result['crashes']}")
    print(f"exact (code, pointer) set match: {result['strict']}/{total} = {rate(result['strict'], total)}")
    print(
        f"lenient (non-existent validator pointers by ancestor): {result['lenient']}/{total} = "
        f"{rate(result['lenient'], total)}"
    )
    for row in result["rows"]:
        if not row["strict"]:
            print(
                " MISMATCH",
                row["file"],
                "expected-only",
                sorted(row["expected"] - row["ours"]),
                "ours-only",
                sorted(row["ours"] - row["expected"]),
                row["crashed"],
            )
    if "--write" in sys.argv:
        out = ROOT / "docs" / "validator-conformance.md"
        out.write_text(markdown(result), encoding="utf-8")
        print("wrote", out)


if __name__ == "__main__":
    main()
