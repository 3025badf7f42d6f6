"""One source of truth (issue 13, item 1): a glTF value edited through its property changes the Blender setting that
simulates it, and the next real export (``bpy.ops.export_scene.gltf``, JSON read back) writes the edited value."""

from __future__ import annotations

import math

import bpy
import pytest

from blenderkit import submodule
from export_helpers import export, last_export
from joint_helpers import import_gltf
from scene_helpers import rigid_body_world, rigid_box
from testkit import fixture
from ui_helpers import draw_panel

KHR = "KHR_physics_rigid_bodies"


def _node(gltf: dict, name: str) -> dict:
    return next(n for n in gltf["nodes"] if n.get("name") == name)["extensions"][KHR]


def _material(gltf: dict, name: str) -> dict:
    index = _node(gltf, name)["collider"]["physicsMaterial"]
    return gltf["extensions"][KHR]["physicsMaterials"][index]


def _edited(addon) -> list[str]:
    return [d.message for d in last_export(addon).diagnostics if d.code == "GLTF_PHYSICS_EXPORT_EDITED"]


def test_mass_kind_and_mode_edits_reach_blender_and_export(clean, tmp_path):
    import_gltf(clean, fixture("import/materials_mass.gltf"))
    full, computed = bpy.data.objects["Full"], bpy.data.objects["Computed"]
    pm = full.gltf_physics.motion
    pm.mass = 7.5
    assert full.rigid_body.mass == pytest.approx(7.5)
    pm.kind = "kinematic"
    assert (full.rigid_body.type, full.rigid_body.kinematic) == ("ACTIVE", True)
    computed.gltf_physics.motion.mass_mode = "EXPLICIT"
    computed.gltf_physics.motion.mass = 3.25
    assert computed.rigid_body.mass == pytest.approx(3.25)
    gltf = export(tmp_path / "edited.gltf", "2026")
    motion = _node(gltf, "Full")["motion"]
    assert motion["mass"] == pytest.approx(7.5) and motion["isKinematic"] is True
    assert motion["gravityFactor"] == pytest.approx(0.5)  # stored-only values still written
    assert _node(gltf, "Computed")["motion"]["mass"] == pytest.approx(3.25)
    assert not _edited(clean)  # the sync is not mistaken for a Blender-side edit


def test_infinite_and_static_modes_set_passive_bodies(clean, tmp_path):
    import_gltf(clean, fixture("import/materials_mass.gltf"))
    full = bpy.data.objects["Full"]
    full.gltf_physics.motion.mass_mode = "INFINITE"
    assert (full.rigid_body.type, full.rigid_body.kinematic) == ("PASSIVE", True)
    gltf = export(tmp_path / "infinite.gltf", "2026")
    assert _node(gltf, "Full")["motion"]["mass"] == 0
    full.gltf_physics.motion.mass_mode = "EXPLICIT"
    assert (full.rigid_body.type, full.rigid_body.kinematic) == ("ACTIVE", False)
    infinite = bpy.data.objects["Infinite"]
    infinite.gltf_physics.motion.mass_mode = "ABSENT"  # computed from the 2×1×1 box at the scene density
    density = bpy.context.scene.gltf_physics.import_density
    assert infinite.rigid_body.type == "ACTIVE"
    assert infinite.rigid_body.mass == pytest.approx(2.0 * density, rel=1e-4)
    gltf = export(tmp_path / "absent.gltf", "2026")
    assert "mass" not in _node(gltf, "Infinite")["motion"]
    assert not _edited(clean)


def test_material_edits_go_through_the_combine_rule(clean, tmp_path):
    import_gltf(clean, fixture("import/materials_mass.gltf"))
    full = bpy.data.objects["Full"]
    pmat = full.gltf_physics.collider.material
    # Reproduce Motion pre-combined this scene (the static "Infinite", default material, set to 1): an edit plans
    # the pair again with the spec's combine precedence (``sync_combine``; without a pre-combine the import's rule
    # √value would apply, test_material_edit_without_pre_combine_uses_the_import_rule)
    assert bpy.data.objects["Infinite"].rigid_body.friction == pytest.approx(1.0)
    pmat.dynamic_friction = 0.81  # frictionCombine average with the default 0.6
    assert full.rigid_body.friction == pytest.approx((0.81 + 0.6) / 2)
    pmat.restitution = 0.36  # absent combine modes: average with the default 0
    assert full.rigid_body.restitution == pytest.approx(0.18)
    pmat.restitution_combine = "multiply"
    assert full.rigid_body.restitution == pytest.approx(0.0)
    pmat.static_friction = 1.2  # stored only: Blender has one friction
    assert full.rigid_body.friction == pytest.approx(0.705)
    assert bpy.data.objects["Infinite"].rigid_body.friction == pytest.approx(1.0)
    material = _material(export(tmp_path / "material.gltf", "2026"), "Full")
    assert material["dynamicFriction"] == pytest.approx(0.81)
    assert material["staticFriction"] == pytest.approx(1.2)
    assert material["restitution"] == pytest.approx(0.36)
    assert (material["frictionCombine"], material["restitutionCombine"]) == ("average", "multiply")
    assert not _edited(clean)


def test_material_edit_without_pre_combine_uses_the_import_rule(clean):
    """Imported with Reproduce Motion off (nothing pre-combined): Blender gets the import's rule, √value (two equal
    bodies: the value)."""
    bpy.context.scene.gltf_physics.import_reproduce = False
    import_gltf(clean, fixture("import/materials_mass.gltf"))
    full = bpy.data.objects["Full"]
    pmat = full.gltf_physics.collider.material
    pmat.dynamic_friction = 0.81
    assert full.rigid_body.friction == pytest.approx(0.9)
    pmat.restitution_combine, pmat.restitution = "multiply", 0.36
    assert full.rigid_body.restitution == pytest.approx(0.36)


def test_native_edit_still_wins_and_import_does_not_sync(clean, tmp_path):
    gate = submodule(clean, "io.mapping.sync_gate")
    import_gltf(clean, fixture("import/materials_mass.gltf"))
    assert gate.active()  # the import's pause ended
    full = bpy.data.objects["Full"]
    full.rigid_body.mass = 11.0  # the Blender value edited: export writes it, as before
    full.rigid_body.friction = 0.55  # 0.5 is what the import derived (Reproduce Motion)
    gltf = export(tmp_path / "native.gltf", "2026")
    assert _node(gltf, "Full")["motion"]["mass"] == pytest.approx(11.0)
    assert _material(gltf, "Full")["dynamicFriction"] == pytest.approx(0.55)
    assert len(_edited(clean)) == 2
    with gate.paused():  # inside the gate (import, operators) nothing syncs
        full.gltf_physics.motion.mass = 2.0
    assert full.rigid_body.mass == pytest.approx(11.0)


def test_body_and_collider_panels_mark_each_value(clean):
    import_gltf(clean, fixture("import/materials_mass.gltf"))
    body = submodule(clean, "ui.body.panels_body")
    sync = submodule(clean, "ui.body.sync_body")
    full = bpy.data.objects["Full"]
    texts = draw_panel(body.GLTF_PHYSICS_PT_body, full).texts()
    assert texts.count("simulated") >= 2  # type, mass, animated
    world = bpy.context.scene.rigidbody_world
    expected = "reproduced" if math.isclose(world.effector_weights.gravity, 0.5) else "stored only"
    assert sync.motion_status(full, "gravity_factor") == expected
    texts = draw_panel(body.GLTF_PHYSICS_PT_collider, full).texts()
    assert "stored only" in texts  # static friction
    assert sync.material_status("dynamic_friction") == "simulated"
    assert not sync.ERRORS


@pytest.mark.parametrize("locale", ["de_DE", "fr_FR"])
def test_new_texts_are_translated(clean, locale):
    table = submodule(clean, "ui.translations").TRANSLATIONS[locale]
    lists = submodule(clean, "ui.filters.filter_lists")
    msgids = {cls.bl_label for cls in lists.CLASSES} | {"simulated", "reproduced", "stored only", "Collides with: {}{}"}
    msgids |= {title for _key, title, _tip in lists.FIELD_ITEMS}
    assert not {m for m in msgids if ("*", m) not in table}


def test_switching_glTF_values_on_takes_blenders_settings(clean, tmp_path):
    ob = rigid_box(rigid_body_world(), "Native", mass=4.5)
    ob.rigid_body.kinematic = True
    ob.rigid_body.friction, ob.rigid_body.restitution = 0.3, 0.2
    pg = ob.gltf_physics
    pg.motion.has_motion = True  # the stored motion takes Blender's, nothing is pushed onto Blender
    assert (pg.motion.kind, pg.motion.mass_mode, pg.motion.mass) == ("kinematic", "EXPLICIT", pytest.approx(4.5))
    assert (ob.rigid_body.type, ob.rigid_body.kinematic, ob.rigid_body.mass) == ("ACTIVE", True, pytest.approx(4.5))
    pg.collider.has_collider = True
    pg.collider.material.has_material = True
    material = pg.collider.material
    assert (material.dynamic_friction, material.restitution) == (pytest.approx(0.3), pytest.approx(0.2))
    assert (ob.rigid_body.friction, ob.rigid_body.restitution) == (pytest.approx(0.3), pytest.approx(0.2))
    material.has_material = False  # no material: Blender gets the spec's defaults, as the importer gives
    assert ob.rigid_body.friction == pytest.approx(0.6**0.5)


@pytest.mark.parametrize("kind", ["static", "kinematic"])
def test_a_body_made_static_or_kinematic_drops_its_initial_velocity_pre_roll(clean, tmp_path, kind):
    """Found by a sweep of panel edits: a body with an initial velocity keeps Reproduce Motion's pre-roll (drivers on
    its delta transform, the frame handler switching Animated); made static or kinematic in the panel, the handler
    still switched it and the drivers still moved it, and the export wrote "body type changed in Blender". The
    pre-roll goes with the edit; the stored velocity stays (written back)."""
    import_gltf(clean, fixture("import/omi_legacy.gltf"))
    ball = bpy.data.objects["Ball"]
    velocity = submodule(clean, "io.importer.reproduce.velocity")
    assert ball in velocity.preroll_bodies(bpy.context.scene)
    ball.gltf_physics.motion.kind = kind
    scene = bpy.context.scene
    assert ball not in velocity.preroll_bodies(scene)
    assert not submodule(clean, "io.mapping.initial_velocity").preroll_driven(ball)
    start = scene.rigidbody_world.point_cache.frame_start
    scene.frame_set(start)
    scene.frame_set(start + 5)
    expected = ("PASSIVE", False) if kind == "static" else ("ACTIVE", True)
    assert (ball.rigid_body.type, ball.rigid_body.kinematic) == expected
    assert tuple(ball.delta_location) == (0.0, 0.0, 0.0)
    scene.frame_set(start)
    gltf = export(tmp_path / "edited.gltf", "2026")
    notes = [d.message for d in last_export(clean).diagnostics if d.code == "GLTF_PHYSICS_EXPORT_EDITED"]
    assert not notes, notes
    node = next(n for n in gltf["nodes"] if n.get("name") == "Ball")
    motion = node.get("extensions", {}).get("KHR_physics_rigid_bodies", {}).get("motion", {})  # static: no motion
    assert motion.get("isKinematic", False) == (kind == "kinematic")


def test_switching_a_material_off_exports_no_material_and_no_edit(clean, tmp_path):
    """Found by a sweep of panel edits: switching "Physics Material" off gave Blender the spec's defaults (as the
    importer does for a collider without material), but the export compared them with the switched-off material's
    combine mode and wrote "friction/restitution changed in Blender" plus a made-up multiply material."""
    import_gltf(clean, fixture("import/materials_mass.gltf"))
    material = bpy.data.objects["Computed"].gltf_physics.collider.material
    assert material.has_material
    material.has_material = False
    gltf = export(tmp_path / "no_material.gltf", "2026")
    notes = [d.message for d in last_export(clean).diagnostics if d.code == "GLTF_PHYSICS_EXPORT_EDITED"]
    assert not notes, notes
    node = next(n for n in gltf["nodes"] if n.get("name") == "Computed")
    assert "physicsMaterial" not in node["extensions"]["KHR_physics_rigid_bodies"]["collider"]
