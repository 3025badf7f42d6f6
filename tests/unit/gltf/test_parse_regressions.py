"""Inputs that once broke the parser, kept as plain regression tests (found by hypothesis)."""

from __future__ import annotations

import pytest

from testkit import submodule

parse = submodule("io.gltf.parse")


@pytest.mark.parametrize("bad", [None, 3, "x", []])
def test_root_extension_with_non_object_extensions_is_reported_not_fatal(bad):
    gltf = {
        "asset": {"version": "2.0"},
        "extensionsUsed": ["KHR_physics_rigid_bodies"],
        "nodes": [{"extensions": {"KHR_physics_rigid_bodies": {"motion": {"mass": 2.0}}}}],
        "extensions": {"KHR_physics_rigid_bodies": {"extensions": bad, "physicsMaterials": [{"restitution": 0.5}]}},
    }
    result = parse.parse_gltf(gltf)
    codes = {d.code for d in result.diagnostics}
    assert "PHYSICS_PARSE_INTERNAL_ERROR" not in codes
    assert any(d.pointer == "/extensions/KHR_physics_rigid_bodies/extensions" for d in result.diagnostics)
    assert result.document.nodes[0].motion.mass == 2.0
    assert result.document.materials[0].restitution == 0.5
