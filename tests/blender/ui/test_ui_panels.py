"""Every glTF Physics panel polls and draws headless on the objects it is for (imported fixtures and objects made
in Blender); read-outs show sim.mass / sim.pairs / sim.drives numbers."""

from __future__ import annotations

import json
import math

import bpy
import corpus_runs
import pytest

from blenderkit import submodule
from joint_helpers import constraints, import_gltf
from scene_helpers import box_object
from testkit import corpus_files, corpus_id, fixture
from ui_helpers import FakeLayout, draw_list_item, draw_panel


def _panels(addon):
    main = submodule(addon, "ui.panels")
    body = submodule(addon, "ui.body.panels_body")
    joint = submodule(addon, "ui.joint.panels_joint")
    return {
        "main": main.GLTF_PHYSICS_PT_main,
        "notes": main.GLTF_PHYSICS_PT_notes,
        "body": body.GLTF_PHYSICS_PT_body,
        "collider": body.GLTF_PHYSICS_PT_collider,
        "trigger": body.GLTF_PHYSICS_PT_trigger,
        "joint": joint.GLTF_PHYSICS_PT_joint,
    }


def _draw_all(addon, ob) -> dict:
    """Draw every panel for ``ob``: name → layout (None = polled out)."""
    return {name: draw_panel(cls, ob) for name, cls in _panels(addon).items()}


def test_panels_are_registered_in_properties_physics(addon):
    for cls in _panels(addon).values():
        assert cls.is_registered
        assert (cls.bl_space_type, cls.bl_region_type, cls.bl_context) == ("PROPERTIES", "WINDOW", "physics")
        assert cls.bl_idname.startswith("GLTF_PHYSICS_PT_")
        if cls.bl_idname != "GLTF_PHYSICS_PT_main":
            assert cls.bl_parent_id == "GLTF_PHYSICS_PT_main"


def test_nothing_polls_without_an_object(addon, clean):
    for cls in _panels(addon).values():
        with bpy.context.temp_override(object=None):
            assert not cls.poll(bpy.context)


def test_plain_object_shows_only_parent_and_notes(addon, clean):
    ob = box_object("Plain")
    drawn = _draw_all(addon, ob)
    assert drawn["main"] is not None and drawn["notes"] is not None
    assert all(drawn[name] is None for name in ("body", "collider", "trigger", "joint"))
    ops = [c["idname"] for c in drawn["main"].calls("operator")]
    assert ops == [
        "gltf_physics.compute_mass",
        "gltf_physics.make_trigger",
        "gltf_physics.validate_scene",
        "gltf_physics.check_simulation",
    ]
    assert "Authored in Blender (no source file)" in drawn["notes"].texts()


def test_body_panel_reads_out_sim_mass_for_the_files_shape(addon, clean):
    import_gltf(clean, fixture("import/materials_mass.gltf"))
    ob = bpy.data.objects["Computed"]  # box 2 × 1 × 1 (glTF), mass absent → density × volume
    drawn = _draw_all(addon, ob)
    body = drawn["body"]
    assert {"mass_mode", "center_of_mass", "inertia_diagonal", "inertia_orientation", "gravity_factor"} <= set(
        body.props()
    )
    assert "mass" not in body.props()  # only for EXPLICIT
    density = bpy.context.scene.gltf_physics.import_density
    texts = body.texts()
    assert f"Volume 2 m³, mass {2 * density:.4g} kg (1 parts)" in texts
    m = 2 * density  # Blender axes: x 2, y 1, z 1 → Ixx = m(1+1)/12, Iyy = Izz = m(4+1)/12
    assert f"Inertia diagonal {m * 2 / 12:.4g}, {m * 5 / 12:.4g}, {m * 5 / 12:.4g} kg·m²" in texts
    assert "Blender mass differs from the computed mass: use Compute Mass" not in texts
    assert drawn["collider"] is not None and "Shape 0: Box 2 × 1 × 1 m" in drawn["collider"].texts()
    assert drawn["trigger"] is None and drawn["joint"] is None
    assert drawn["notes"].texts()[0] == "Read from: KHR-2024-10"


def test_body_panel_flags_a_mass_that_no_longer_matches_the_volume(addon, clean):
    import_gltf(clean, fixture("import/materials_mass.gltf"))
    ob = bpy.data.objects["Computed"]
    ob.rigid_body.mass = 1.0
    texts = draw_panel(_panels(addon)["body"], ob).texts()
    assert "Blender mass differs from the computed mass: use Compute Mass" in texts


def test_compound_body_sums_file_shape_and_proxy(addon, clean):
    import_gltf(clean, fixture("import/compound.gltf"))
    cart = bpy.data.objects["Cart"]
    shapes = submodule(addon, "ui.body.body_shapes")
    result, notes = shapes.body_mass(cart, 1000.0)
    assert notes == []
    assert result.parts == 2
    assert result.mass == pytest.approx(1000.0 * (1.0 + 4.0 / 3.0 * math.pi * 0.5**3), rel=1e-9)
    body = draw_panel(_panels(addon)["body"], cart)
    assert f"Volume {result.volume:.4g} m³, mass {result.mass:.4g} kg (2 parts)" in body.texts()
    assert "mass" in body.props()  # Cart has an explicit mass


def test_infinite_mass_is_listed_as_not_simulated(addon, clean):
    import_gltf(clean, fixture("import/materials_mass.gltf"))
    notes = draw_panel(_panels(addon)["notes"], bpy.data.objects["Infinite"]).texts()
    assert "infinite mass (an animated passive body in Blender)" in notes


def test_trigger_panels_for_trigger_nodes_and_volumes(addon, clean):
    import_gltf(clean, fixture("import/triggers.gltf"))
    panels = _panels(addon)
    compound = draw_panel(panels["trigger"], bpy.data.objects["Compound"])
    assert any(t.startswith("Compound trigger of nodes ") for t in compound.texts())
    simple = draw_panel(panels["trigger"], bpy.data.objects["Simple"])
    assert any(t.startswith("Shape ") for t in simple.texts())
    volume = draw_panel(panels["trigger"], bpy.data.objects["Simple.trigger"])
    assert any(t.startswith("Volume of the trigger on glTF node ") for t in volume.texts())
    main = draw_panel(panels["main"], bpy.data.objects["Simple.trigger"])
    assert any(t.startswith("Generated trigger volume of node ") for t in main.texts())
    assert draw_panel(panels["body"], bpy.data.objects["Simple"]) is None


def test_collider_panel_filter_and_material_readouts(addon, clean):
    import_gltf(clean, fixture("joints/filters.gltf"))
    panels = _panels(addon)
    for ob in bpy.context.scene.objects:
        drawn = _draw_all(addon, ob)
        collider = drawn["collider"]
        assert collider is not None
        texts = collider.texts()
        assert any(t.startswith("With itself: friction ") for t in texts)
        assert any(t.startswith("Blender (multiplies): friction ") for t in texts)
        flt = ob.gltf_physics.collider.filter
        if flt.has_filter:
            readout = submodule(addon, "ui.readout")
            parsed = readout.filter_from_texts(
                flt.collision_systems, flt.collide_with_systems, flt.not_collide_with_systems
            )
            own = "yes" if readout.filter_summary(parsed)["self"] else "no"
            assert f"Collides with its own kind: {own}" in texts
            lists = [c for c in collider.calls("template_list") if c["list"] == "GLTF_PHYSICS_UL_filter_systems"]
            assert len(lists) == 3  # the three lists (ui/filters/filter_lists.py), rows = a view of the stored text
            names = json.loads(flt.collision_systems or "[]")
            assert lists[0]["items"] == len(names)
            assert [row.name for row in flt.collision_systems_rows] == names
    ghost = bpy.data.objects["Ghost"].gltf_physics.collider.filter
    ghost.collide_with_systems = "[not json"
    texts = draw_panel(panels["collider"], bpy.data.objects["Ghost"]).texts()
    assert any(t.startswith("Not a JSON list of names: ") for t in texts)


def test_joint_panel_lists_limits_drives_and_settle_preview(addon, clean):
    import_gltf(clean, fixture("joints/motor_y.gltf"))
    (joint_ob,) = constraints("JOINT")
    drawn = _draw_all(addon, joint_ob)
    assert drawn["body"] is None and drawn["collider"] is None
    joint = drawn["joint"]
    lists = {c["list"]: c["items"] for c in joint.calls("template_list")}
    assert lists == {"GLTF_PHYSICS_UL_joint_limits": 2, "GLTF_PHYSICS_UL_joint_drives": 1}
    assert {"enable_collision", "frame_a_translation", "frame_b_rotation", "joint_name"} <= set(joint.props())
    kinds = [c["props"].values.get("kind") for c in joint.calls("operator")]
    assert kinds == ["LIMIT", "LIMIT", "DRIVE", "DRIVE"]
    # Angular drive about glTF Y, damping 10, velocity target 1: body B is a 0.2 m cube of 1 kg, body A passive.
    inertia = 1.0 * (0.2**2 + 0.2**2) / 12
    texts = joint.texts()
    assert "Regime: first-order" in texts
    assert f"Effective mass: {inertia:.4g}" in texts
    settle = math.log(1.0 / 1e-3) * inertia / 10.0  # v' = −(c/I)(v − 1) from rest
    assert f"Time to target: {settle:.4g} s (within 0.001 rad)" in texts
    assert "drive position targets and acceleration mode" not in draw_panel(_panels(addon)["notes"], joint_ob).texts()


def test_joint_panel_on_a_limited_hinge_and_its_motor_helper(addon, clean):
    import_gltf(clean, fixture("joints/hinge_x_limited.gltf"))
    (joint_ob,) = constraints("JOINT")
    joint = draw_panel(_panels(addon)["joint"], joint_ob)
    assert {"has_min", "min", "has_stiffness", "axes"} <= set(joint.props())  # the active limit's detail
    lists = submodule(addon, "ui.lists")
    rows = [
        draw_list_item(lists.GLTF_PHYSICS_UL_joint_limits, joint_ob.gltf_physics.joint, item).texts()[0]
        for item in joint_ob.gltf_physics.joint.limits
    ]
    assert any(row.startswith("Angular X: ") for row in rows), rows
    import_gltf(clean, fixture("joints/motor_y.gltf"))
    motor = constraints("MOTOR")[0]
    texts = draw_panel(_panels(addon)["joint"], motor).texts()
    assert "No stored glTF joint: export derives it from the constraint" in texts


def test_fake_layout_rejects_unknown_properties_and_operators(addon, clean):
    ob = box_object("Probe")
    layout = FakeLayout()
    with pytest.raises(AssertionError):
        layout.prop(ob.gltf_physics.motion, "no_such_property")
    with pytest.raises((KeyError, AttributeError)):
        layout.operator("gltf_physics.no_such_operator")
    with pytest.raises(AssertionError):
        layout.label(text="x", icon="NO_SUCH_ICON_NAME")
    with pytest.raises(AssertionError):
        layout.label(text="x", no_such_keyword=True)
    with pytest.raises(AssertionError):
        layout.operator("gltf_physics.make_trigger").no_such_property = 1
    layout.operator("gltf_physics.make_trigger").shape = "BOX"


SAMPLES = corpus_files("glTF_Physics/samples/*/*.gltf", "glTF_Physics/tests/*/*_00.gltf", "omi-godot/**/*.gltf")[:24]


@corpus_runs.inspector("reproduce", "every_panel_draws", files=SAMPLES)
def _every_panel_draws(addon, path, run):
    """On the session's import of ``path`` (``corpus_runs``): every panel of every object polls and draws."""
    assert run.result == "FINISHED", run.result
    drawn_any = set()
    for ob in bpy.context.scene.objects:
        drawn = _draw_all(addon, ob)
        pg = ob.gltf_physics
        assert drawn["main"] is not None and drawn["notes"] is not None
        assert (drawn["body"] is not None) == (pg.motion.has_motion or ob.rigid_body is not None)
        assert (drawn["joint"] is not None) == (ob.rigid_body_constraint is not None or pg.joint.role != "NONE")
        drawn_any |= {name for name, layout in drawn.items() if layout is not None}
    assert {"main", "notes"} <= drawn_any


@pytest.mark.corpus
@pytest.mark.parametrize("path", SAMPLES, ids=corpus_id)
def test_every_panel_draws_for_every_object_of_corpus_scenes(addon, gltf_errors, path):
    run = corpus_runs.run(addon, path, "reproduce", gltf_errors)
    assert not [r for r in run.gltf_errors if "gltf_physics" in r or "Extension hook" in r]
    run.value("every_panel_draws")
