"""A collision filter that ignores its own kind but hits the ground (RigidBodies_CollisionFilter_03's
``notCollideWithSystems`` its own system), used by several bodies: each body gets its own collision collections
shared with the ground (``filters_to_blender.solve_units``), so they all land on it and pass through each other.
More bodies than Blender's 20 collections can keep apart: reported as not reproducible at the filters' pointer."""

from __future__ import annotations

import bpy
import pytest

from blenderkit import submodule
from reproduce_kit import RB, body, ground, import_file, step, write

HIT = {"collisionSystems": ["Dynamic"], "notCollideWithSystems": ["Dynamic"]}
GROUND = {"collisionSystems": ["Static"]}
POINTER = f"/extensions/{RB}/collisionFilters"


def _file(tmp_path, heights: list[float]):
    nodes = [ground(collisionFilter=1)]
    for i, y in enumerate(heights):
        node = body(f"Box{i}", [0.1 * i, y, 0.0])
        node["extensions"][RB]["collider"]["collisionFilter"] = 0
        nodes.append(node)
    return write(tmp_path, "ghosts", nodes, collisionFilters=[HIT, GROUND])


def _not_reproducible(clean) -> list:
    report = submodule(clean, "io.hooks").last_report("import")
    return [d for d in report.diagnostics if d.code == "GLTF_PHYSICS_IMPORT_NOT_REPRODUCIBLE"]


@pytest.mark.parametrize("reproduce", [True, False])
def test_bodies_that_ignore_each_other_all_land_on_the_ground(clean, tmp_path, reproduce):
    import_file(_file(tmp_path, [2.0, 3.5, 5.0]), reproduce=reproduce)
    step(60)
    # stacked they would rest at 0.5, 1.5, 2.5; falling through the ground they would end far below it
    heights = [bpy.data.objects[f"Box{i}"].matrix_world.translation.z for i in range(3)]
    assert heights == pytest.approx([0.5] * 3, abs=0.05)
    assert not _not_reproducible(clean)


def test_more_bodies_than_collections_is_reported_not_reproducible(clean, tmp_path):
    import_file(_file(tmp_path, [2.0 + 2.0 * i for i in range(21)]))
    found = _not_reproducible(clean)
    assert [d.pointer for d in found] == [POINTER]
    assert found[0].message.startswith("not reproducible in Blender: ")
    assert "filter 0 ignores its own kind" in found[0].message and "21 bodies use it" in found[0].message
