"""``migrate`` on deeply nested JSON (issue 11, item 6): the copy is iterative, so nesting far beyond Python's
recursion limit never raises (``copy.deepcopy`` failed near 500 levels); ``files.load`` refuses JSON nested deeper
than ``MAX_JSON_DEPTH`` with a file-level diagnostic."""

from __future__ import annotations

import pytest

from testkit import submodule

migrate = submodule("io.gltf.migrate")
files = submodule("io.gltf.files")
diagnostics = submodule("io.diagnostics")


def _nested(depth: int) -> list:
    root = inner = []
    for _ in range(depth - 1):
        inner.append([])
        inner = inner[0]
    return root


def _depth(value) -> int:
    depth = 0
    while isinstance(value, list):
        depth += 1
        value = value[0] if value else None
    return depth


def test_migrate_copies_any_nesting_depth():
    doc = {"asset": {"version": "2.0"}, "nodes": [{"name": "n", "extras": _nested(5000)}], "extras": _nested(3000)}
    out, _diags = migrate.migrate(doc, "2026")
    assert _depth(out["nodes"][0]["extras"]) == 5000 and _depth(out["extras"]) == 3000
    assert out["extras"] is not doc["extras"]


def test_copy_json_keeps_order_and_values():
    value = {"b": [1, {"x": [2, 3]}, "s"], "a": None, "c": {"d": 1.5, "e": True}}
    copied = migrate.copy_json(value)
    assert copied == value and list(copied) == ["b", "a", "c"] and copied["b"][1] is not value["b"][1]


@pytest.mark.parametrize("depth, refused", [(files.MAX_JSON_DEPTH, False), (files.MAX_JSON_DEPTH + 1, True)])
def test_load_refuses_json_beyond_the_depth_limit(tmp_path, depth, refused):
    path = tmp_path / "d.gltf"
    path.write_text("[" * depth + "]" * depth, encoding="utf-8")
    if not refused:
        assert _depth(files.load(path).json) == depth
        return
    with pytest.raises(diagnostics.PhysicsDataError) as info:
        files.load(path)
    assert info.value.diagnostic.code == "FILE_JSON_LIMIT" and info.value.diagnostic.pointer == ""
