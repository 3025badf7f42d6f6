"""Blender settings that change how the scene plays and that the file cannot say (issue 33 item 1 (c)): one WARNING
``GLTF_PHYSICS_EXPORT_PLAYS_DIFFERENTLY`` per setting, naming the setting and the objects, in the export dialog
(``export_summary_lines``) and ``last_report("export")``; settings Bullet applies as the file says get none."""

from __future__ import annotations

import bpy
import pytest

from blenderkit import empty_scene, submodule
from export_helpers import export, last_export
from scene_helpers import box_mesh, constraint, rigid_body_world, rigid_box

CODE = "GLTF_PHYSICS_EXPORT_PLAYS_DIFFERENTLY"


def _messages(addon) -> dict[str, str]:
    """constant name of ``io.exporter.unwritten`` → the warning's text, for every warning of the last export."""
    unwritten = submodule(addon, "io.exporter.unwritten")
    report = last_export(addon)
    found = [d for d in report.diagnostics if d.code == CODE]
    assert all(d.severity.name == "WARNING" for d in found)
    texts = {}
    for d in found:
        names = [k for k, v in vars(unwritten).items() if k.isupper() and isinstance(v, str) and v and v in d.message]
        assert len(names) >= 1, d.message
        texts[max(names, key=lambda k: len(getattr(unwritten, k)))] = d.message
    return texts


def _body(rbw, name, **kw):
    """A rigid box without damping (so damping is not what a test looks at)."""
    ob = rigid_box(rbw, name, **kw)
    ob.rigid_body.linear_damping = ob.rigid_body.angular_damping = 0.0
    return ob


def _plain_scene():
    rbw = rigid_body_world(bpy.context.scene)
    _body(rbw, "Ground", size=(6, 6, 0.5), kind="PASSIVE", location=(0, 0, -2))
    return rbw


def test_default_damping_warns_and_zero_damping_does_not(clean, tmp_path):
    rbw = _plain_scene()
    rigid_box(rbw, "Damped")  # Blender's default 0.04 / 0.1
    _body(rbw, "Undamped", location=(3, 0, 0))
    export(tmp_path / "damping.gltf", "2026")
    messages = _messages(clean)
    assert set(messages) == {"DAMPING"}
    assert "'Damped'" in messages["DAMPING"] and "Undamped" not in messages["DAMPING"]
    assert "Ground" not in messages["DAMPING"]  # static: damping does not matter


def test_a_plain_scene_plays_as_written(clean, tmp_path):
    rbw = _plain_scene()
    _body(rbw, "Box", location=(0, 0, 1))
    _body(rbw, "Ball", shape="SPHERE", location=(2, 0, 1)).scale = (2, 2, 2)  # uniform: Bullet scales as engines
    _body(rbw, "Tall", shape="CAPSULE", location=(4, 0, 1)).scale = (1, 1, 3)  # radius axes equal
    _body(rbw, "Margined", location=(6, 0, 1)).rigid_body.use_margin = True  # a box embeds its margin
    export(tmp_path / "plain.gltf", "2026")
    assert _messages(clean) == {}


@pytest.mark.parametrize(
    "shape, use_margin, margin, warned",
    [
        ("CONE", False, 0.04, True),
        ("MESH", False, 0.04, True),
        ("CONVEX_HULL", True, 0.1, True),
        ("CONVEX_HULL", False, 0.1, False),
        ("CONE", True, 0.0, False),
        ("SPHERE", True, 0.2, False),
    ],
)
def test_a_margin_that_grows_the_collider_warns(clean, tmp_path, shape, use_margin, margin, warned):
    """Measured (a 1 m box dropped on a box ground rests 0.5 m + the margin high): cones and triangle meshes are
    always grown by the margin, convex hulls with Collision Margin on, the other primitives never."""
    rbw = _plain_scene()
    ob = _body(rbw, "Shape", shape=shape, location=(0, 0, 1))
    ob.rigid_body.use_margin, ob.rigid_body.collision_margin = use_margin, margin
    export(tmp_path / "margin.gltf", "2026")
    messages = _messages(clean)
    assert ("MARGIN" in messages) is warned
    if warned:
        assert "'Shape'" in messages["MARGIN"] and "Ground" not in messages["MARGIN"]


def test_deactivation_start_deactivated_dynamic_off_and_deforming_warn(clean, tmp_path):
    rbw = _plain_scene()
    sleepy = _body(rbw, "Sleepy", location=(0, 0, 1))
    sleepy.rigid_body.use_deactivation = True
    asleep = _body(rbw, "Asleep", location=(2, 0, 1))
    asleep.rigid_body.use_deactivation = asleep.rigid_body.use_start_deactivated = True
    _body(rbw, "Held", location=(4, 0, 1)).rigid_body.enabled = False
    _body(rbw, "Soft", location=(6, 0, 1)).rigid_body.use_deform = True
    export(tmp_path / "states.gltf", "2026")
    messages = _messages(clean)
    assert set(messages) == {"DEACTIVATION", "START_DEACTIVATED", "DYNAMIC_OFF", "DEFORMING"}
    assert "'Asleep'" in messages["DEACTIVATION"] and "'Sleepy'" in messages["DEACTIVATION"]
    assert "'Asleep'" in messages["START_DEACTIVATED"] and "Sleepy" not in messages["START_DEACTIVATED"]
    assert "'Held'" in messages["DYNAMIC_OFF"] and "'Soft'" in messages["DEFORMING"]


@pytest.mark.parametrize(
    "source, apply, modifier, warned",
    [
        ("BASE", True, "BEVEL", "SOURCE_BASE"),
        ("BASE", False, "BEVEL", None),
        ("DEFORM", False, "DISPLACE", "SOURCE_DEFORM"),  # Bullet: with the displacement, the file: without
        ("DEFORM", False, "BEVEL", None),  # Bullet and the file: without the bevel
        ("DEFORM", True, "BEVEL", "SOURCE_DEFORM"),
        ("DEFORM", True, "DISPLACE", None),
        ("FINAL", False, "BEVEL", "SOURCE_FINAL"),
        ("FINAL", True, "BEVEL", None),
    ],
)
def test_a_collision_source_other_than_the_written_mesh_warns(clean, tmp_path, source, apply, modifier, warned):
    rbw = _plain_scene()
    hull = _body(rbw, "Hull", shape="CONVEX_HULL", location=(0, 0, 1))
    hull.modifiers.new("Modifier", modifier)
    hull.rigid_body.mesh_source = source
    export(tmp_path / "source.gltf", "2026", export_apply=apply)
    messages = _messages(clean)
    assert list(messages) == ([warned] if warned else [])
    if warned:
        assert "'Hull'" in messages[warned]


@pytest.mark.parametrize("source, height", [("BASE", 0.5), ("DEFORM", 0.5), ("FINAL", 1.5)])
def test_measured_collision_source_deform_leaves_out_modifiers_that_add_geometry(clean, source, height):
    """A 1 m hull with an Array modifier that adds a second box below it rests on the second box only with source
    Final: Deform keeps the deform modifiers only (Base none)."""
    empty_scene()
    rbw = rigid_body_world(bpy.context.scene)
    rigid_box(rbw, "Ground", size=(10, 10, 1), kind="PASSIVE", location=(0, 0, -0.5))
    hull = _body(rbw, "Hull", shape="CONVEX_HULL", location=(0, 0, 3))
    hull.modifiers.new("Array", "ARRAY").relative_offset_displace = (0, 0, -1)
    hull.rigid_body.mesh_source = source
    rbw.point_cache.frame_end = 100
    for frame in range(1, 80):
        bpy.context.scene.frame_set(frame)
    assert hull.matrix_world.translation.z == pytest.approx(height, abs=0.01)


@pytest.mark.parametrize(
    "shape, scale, warned",
    [
        ("SPHERE", (1, 2, 1), "SPHERE_SCALE"),
        ("SPHERE", (1, 1, 0.5), "SPHERE_SCALE"),
        ("CAPSULE", (2, 1, 1), "ROUND_SCALE"),
        ("CYLINDER", (1, 2, 1), "ROUND_SCALE"),
        ("CONE", (1, 3, 1), "ROUND_SCALE"),
        ("CYLINDER", (2, 2, 5), None),
        ("CONVEX_HULL", (-1, 1, 1), "MIRRORED_HULL"),
        ("MESH", (1, -1, 1), "MIRRORED_HULL"),
        ("BOX", (-1, 1, 1), None),
    ],
)
def test_a_scale_bullet_applies_otherwise_warns(clean, tmp_path, shape, scale, warned):
    rbw = _plain_scene()
    ob = _body(rbw, "Scaled", shape=shape, location=(0, 0, 1))
    ob.rigid_body.collision_margin = 0.0  # (a cone's margin is another warning)
    ob.scale = scale
    export(tmp_path / "scaled.gltf", "2026")
    messages = _messages(clean)
    assert list(messages) == ([warned] if warned else [])
    if warned:
        assert "'Scaled'" in messages[warned]


def test_a_compound_childs_own_scale_warns(clean, tmp_path):
    rbw = _plain_scene()
    cart = _body(rbw, "Cart", shape="COMPOUND", location=(0, 0, 1))
    wheel = _body(rbw, "Wheel", size=(0.4, 0.4, 0.4), location=(1, 0, 0), parent=cart)
    wheel.scale = (2, 2, 2)
    _body(rbw, "Deck", location=(-1, 0, 0), parent=cart)  # unscaled: fine
    export(tmp_path / "compound.gltf", "2026")
    messages = _messages(clean)
    assert set(messages) == {"CHILD_SCALE"}
    assert "'Wheel'" in messages["CHILD_SCALE"] and "Deck" not in messages["CHILD_SCALE"]


def test_breaking_solver_override_and_spring1_warn(clean, tmp_path):
    rbw = _plain_scene()
    a = _body(rbw, "A", kind="PASSIVE", location=(0, 0, 3))
    b = _body(rbw, "B", location=(0, 0, 1))
    c = _body(rbw, "C", location=(3, 0, 1))
    constraint(rbw, "Breaks", a, b, "FIXED").use_breaking = True
    constraint(rbw, "Iterates", a, c, "POINT").use_override_solver_iterations = True
    old = constraint(rbw, "OldSpring", b, c, "GENERIC_SPRING")
    old.spring_type, old.use_spring_x = "SPRING1", True
    new = constraint(rbw, "NewSpring", b, c, "GENERIC_SPRING")
    new.spring_type, new.use_spring_x = "SPRING2", True
    export(tmp_path / "joints.gltf", "2026")
    messages = _messages(clean)
    assert set(messages) == {"BREAKING", "SOLVER_ITERATIONS", "SPRING1"}
    assert "'Breaks'" in messages["BREAKING"] and "'Iterates'" in messages["SOLVER_ITERATIONS"]
    assert "'OldSpring'" in messages["SPRING1"] and "NewSpring" not in messages["SPRING1"]


@pytest.mark.parametrize(
    "setting, warned",
    [
        ("gravity", "WORLD_GRAVITY"),
        ("use_gravity", "WORLD_GRAVITY"),
        ("time_scale", "WORLD_TIME_SCALE"),
        ("scale_length", "WORLD_UNITS"),
        ("substeps_per_frame", "WORLD_STEPS"),
        ("use_split_impulse", "WORLD_STEPS"),
    ],
)
def test_world_and_scene_settings_warn_naming_the_scene(clean, tmp_path, setting, warned):
    scene = bpy.context.scene
    rbw = _plain_scene()
    _body(rbw, "Box", location=(0, 0, 1))
    value = {
        "gravity": (0, 0, -5),
        "use_gravity": False,
        "time_scale": 0.5,
        "scale_length": 0.01,
        "substeps_per_frame": 20,
        "use_split_impulse": True,
    }[setting]
    target = scene.unit_settings if setting == "scale_length" else scene if "gravity" in setting else rbw
    setattr(target, setting, value)
    export(tmp_path / "world.gltf", "2026")
    messages = _messages(clean)
    assert list(messages) == [warned]
    assert f"scene {scene.name!r}" in messages[warned]


def test_every_plays_differently_warning_reaches_the_dialog(clean, tmp_path):
    """More than the first eight warnings: the summary still lists every setting that plays differently."""
    scene = bpy.context.scene
    rbw = _plain_scene()
    for i in range(9):
        _body(rbw, f"Missing{i}", location=(2 * i, 0, 1))
    a = _body(rbw, "A", location=(0, 4, 1))
    a.rigid_body.enabled = False
    for i in range(9):  # nine skipped joints (a body not exported) come first
        joint = constraint(rbw, f"J{i}", a, bpy.data.objects[f"Missing{i}"], "FIXED")
        joint.use_breaking = True
    for i in range(9):
        bpy.data.objects[f"Missing{i}"].hide_render = True
    scene.rigidbody_world.time_scale = 0.5
    for ob in scene.objects:
        ob.select_set(not ob.name.startswith("Missing"))
    export(tmp_path / "many.gltf", "2026", use_selection=True)
    lines = submodule(clean, "io.exporter.pipeline").export_summary_lines(last_export(clean), "2026")
    shown = [text for level, text in lines if level == "WARNING" and CODE in text]
    warnings = [d for d in last_export(clean).diagnostics if d.severity.name == "WARNING"]
    assert len(warnings) > 8 + 3  # the skipped joints fill the first eight
    assert len(shown) == len(_messages(clean)) >= 3, lines


def test_many_bodies_are_counted_not_all_named(clean, tmp_path):
    rbw = rigid_body_world(bpy.context.scene)
    for i in range(5):
        rigid_box(rbw, f"Box{i}", location=(2 * i, 0, 0))
    export(tmp_path / "many.gltf", "2026")
    assert _messages(clean)["DAMPING"].endswith("and 2 more")


# --- the warnings' claims, measured in Blender ------------------------------------------------------------------


def _rest_height(
    shape: str, settings: dict, scale=(1, 1, 1), rotation=(0, 0, 0), frames: int = 150, ground: str = "BOX"
) -> float:
    """Where a 1 m box-bounded body of ``shape`` comes to rest on a passive ground of collision shape ``ground`` whose
    top is z = 0 (a MESH ground gets ``settings`` instead of the body: a dynamic triangle mesh never settles)."""
    empty_scene()
    rbw = rigid_body_world(bpy.context.scene)
    floor = _body(rbw, "Ground", size=(20, 20, 1), kind="PASSIVE", location=(0, 0, -0.5), shape=ground)
    body = _body(rbw, "Body", shape=shape, location=(0, 0, 2))
    body.scale, body.rotation_euler = scale, rotation
    for name, value in settings.items():
        setattr((floor if ground == "MESH" else body).rigid_body, name, value)
    rbw.point_cache.frame_end = frames
    for frame in range(1, frames + 1):
        bpy.context.scene.frame_set(frame)
    return body.matrix_world.translation.z


@pytest.mark.parametrize(
    "shape, use_margin, margin, grown",
    [
        ("CONE", False, 0.2, True),
        ("MESH", False, 0.2, True),
        ("CONVEX_HULL", True, 0.2, True),
        ("CONVEX_HULL", False, 0.2, False),
        ("BOX", True, 0.2, False),
        ("MESH", True, 0.0, False),
    ],
)
def test_measured_the_margin_grows_cones_meshes_and_hulls_with_collision_margin(
    clean, shape, use_margin, margin, grown
):
    settings = {"use_margin": use_margin, "collision_margin": margin}
    height = _rest_height("BOX", settings, ground="MESH") if shape == "MESH" else _rest_height(shape, settings)
    expected = 0.5 + (margin if grown else 0.0)
    if shape == "MESH":  # a triangle mesh ground grows by its margin and a little more (the box's contact margin)
        assert expected - 0.01 <= height <= expected + 0.05
    else:
        assert height == pytest.approx(expected, abs=0.01)


@pytest.mark.parametrize("scale, radius", [((2, 1, 1), 1.0), ((1, 2, 1), 0.5), ((1, 1, 2), 0.5)])
def test_measured_bullets_sphere_takes_its_radius_from_the_x_scale(clean, scale, radius):
    assert _rest_height("SPHERE", {"collision_margin": 0.0}, scale) == pytest.approx(radius, abs=0.01)


@pytest.mark.parametrize("scale, radius", [((2, 1, 1), 0.5), ((1, 2, 1), 1.0)])
def test_measured_bullets_capsule_takes_its_radius_from_the_y_scale(clean, scale, radius):
    """A capsule lying on its side (turned 90° about X) rests on its radius."""
    height = _rest_height("CAPSULE", {"collision_margin": 0.0}, scale, rotation=(1.5707963, 0, 0))
    assert height == pytest.approx(radius, abs=0.01)


def test_measured_blenders_hull_ignores_a_mirror(clean):
    """A hull lying beside its origin (its centre of mass) tips over its edge the same way with scale x = −1: Blender
    does not mirror it (the file's node does)."""
    ends = []
    for sign in (1, -1):
        empty_scene()
        rbw = rigid_body_world(bpy.context.scene)
        rigid_box(rbw, "Ground", size=(10, 10, 1), kind="PASSIVE", location=(0, 0, -0.5))
        hull = bpy.data.objects.new("Hull", box_mesh("Hull", (1, 1, 0.4), offset=(0.8, 0, 0)))
        bpy.context.scene.collection.objects.link(hull)
        rbw.collection.objects.link(hull)
        hull.rigid_body.collision_shape = "CONVEX_HULL"
        hull.rigid_body.linear_damping = hull.rigid_body.angular_damping = 0.0
        hull.location, hull.scale = (0, 0, 0.21), (sign, 1, 1)
        rbw.point_cache.frame_end = 60
        for frame in range(1, 50):
            bpy.context.scene.frame_set(frame)
        ends.append(tuple(hull.matrix_world.translation))
    assert ends[0][0] > 0.1  # it tipped toward +X, where its hull lies
    assert ends[1] == pytest.approx(ends[0], abs=1e-3)  # mirrored: the same


@pytest.mark.parametrize("scale", [(1, 1, 3), (2, 2, 2)])
def test_measured_blenders_compound_ignores_a_childs_own_scale(clean, scale):
    """A compound whose only child is a 1 m box scaled ``scale`` rests 0.5 m high: the child's scale is not used."""
    empty_scene()
    rbw = rigid_body_world(bpy.context.scene)
    rigid_box(rbw, "Ground", size=(10, 10, 1), kind="PASSIVE", location=(0, 0, -0.5))
    cart = _body(rbw, "Cart", size=(0.1, 0.1, 0.1), shape="COMPOUND", location=(0, 0, 3))
    _body(rbw, "Child", parent=cart).scale = scale
    rbw.point_cache.frame_end = 100
    for frame in range(1, 80):
        bpy.context.scene.frame_set(frame)
    assert cart.matrix_world.translation.z == pytest.approx(0.5, abs=0.01)
