"""``mapping.stored`` with combine modes outside the enum (found by the fuzz, issue 11, item 11): the Blender enum
gets "NONE" (it cannot hold the value), the value is kept in the material's passthrough as an unknown key (the
writers put unknown keys back), and the simulation treats it like an absent mode."""

from __future__ import annotations

import json
import math
from types import SimpleNamespace

from testkit import submodule

stored = submodule("io.mapping.stored")
passthrough = submodule("io.mapping.passthrough")
PhysicsMaterial = submodule("io.gltf.model").PhysicsMaterial


def _pg():
    return SimpleNamespace(
        has_material=False,
        index=-1,
        name="",
        static_friction=0.6,
        dynamic_friction=0.6,
        restitution=0.0,
        friction_combine="NONE",
        restitution_combine="NONE",
        passthrough="",
    )


def test_unknown_combine_modes_go_to_the_passthrough():
    material = PhysicsMaterial(dynamic_friction=0.4, friction_combine="foo", restitution_combine="maximum")
    material.extras = {"k": 1}
    pg = _pg()
    stored.store_material(pg, material, 0)
    assert (pg.friction_combine, pg.restitution_combine) == ("NONE", "maximum")
    kept = json.loads(pg.passthrough)
    assert kept == {"extras": {"k": 1}, "unknown": {"frictionCombine": "foo"}}
    back = passthrough.restore(PhysicsMaterial(), pg.passthrough)
    assert back.unknown == {"frictionCombine": "foo"} and back.extras == {"k": 1}


def test_known_combine_modes_leave_the_passthrough_alone():
    pg = _pg()
    stored.store_material(pg, PhysicsMaterial(friction_combine="multiply"), 1)
    assert pg.friction_combine == "multiply" and pg.passthrough == ""


def test_unknown_combine_mode_simulates_like_an_absent_one():
    rb_unknown, rb_absent = SimpleNamespace(), SimpleNamespace()
    stored.apply_material(rb_unknown, PhysicsMaterial(dynamic_friction=0.4, friction_combine="foo"))
    stored.apply_material(rb_absent, PhysicsMaterial(dynamic_friction=0.4))
    assert rb_unknown.friction == rb_absent.friction == math.sqrt(0.4)


class _CountingBody:
    """A rigid body stand-in that counts writes (Blender runs an update per write)."""

    def __init__(self, **values):
        object.__setattr__(self, "writes", [])
        for name, value in values.items():
            object.__setattr__(self, name, value)

    def __setattr__(self, name, value):
        self.writes.append(name)
        object.__setattr__(self, name, value)


def test_apply_material_writes_only_the_settings_that_change():
    rb = _CountingBody(friction=0.5, restitution=0.0)  # Blender's defaults
    stored.apply_material(rb, PhysicsMaterial(dynamic_friction=0.25, restitution=0.0))  # √0.25 = 0.5, √0 = 0
    assert rb.writes == [] and (rb.friction, rb.restitution) == (0.5, 0.0)
    rb = _CountingBody(friction=0.5, restitution=0.0)
    stored.apply_material(rb, PhysicsMaterial(dynamic_friction=0.36, restitution=0.64))
    assert rb.writes == ["friction", "restitution"] and (rb.friction, rb.restitution) == (0.6, 0.8)
