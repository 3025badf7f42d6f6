"""Import option ``import_reproduce`` (issue 9, item 1): with it on, a gravityFactor-0 body floats and an
infinite-inertia body does not rotate; with it off the import is what it was; export after import writes the file's
values and none of the helpers. Fixtures from ``reproduce_kit`` (implicit boxes on Empty nodes, glTF +Y up)."""

from __future__ import annotations

import json

import bpy
import pytest

from blenderkit import submodule
from export_helpers import export
from reproduce_kit import HELPERS, RB, body, doc, ground, import_file, reset, step, tilt_degrees, write
from ui_helpers import FakeLayout

# --- gravityFactor -----------------------------------------------------------------------------------------------


def test_gravity_factor_zero_body_keeps_its_height(clean, tmp_path):
    path = write(tmp_path, "float", [body("Floater", [0.0, 3.0, 0.0], gravityFactor=0.0)])
    import_file(path, reproduce=False)  # today: Blender has no per-body gravity, the body falls
    assert bpy.context.scene.rigidbody_world.effector_weights.gravity == 1.0
    step(40)
    assert bpy.data.objects["Floater"].matrix_world.translation.z < 2.0
    reset()
    import_file(path)
    assert bpy.context.scene.rigidbody_world.effector_weights.gravity == 0.0
    step(40)
    assert bpy.data.objects["Floater"].matrix_world.translation.z == pytest.approx(3.0, abs=1e-3)


def test_mixed_gravity_factors_are_reported_with_pointers(clean, tmp_path):
    nodes = [
        body("A", [0.0, 3.0, 0.0], gravityFactor=0.5),
        body("B", [3.0, 3.0, 0.0], gravityFactor=0.5),
        body("C", [6.0, 3.0, 0.0], gravityFactor=2.0),
    ]
    import_file(write(tmp_path, "mixed", nodes))
    assert bpy.context.scene.rigidbody_world.effector_weights.gravity == 0.5  # the most common factor
    report = submodule(clean, "io.hooks").last_report("import")
    found = [d for d in report.diagnostics if "not reproducible in Blender: mixed gravity factors" in d.message]
    assert [d.pointer for d in found] == [f"/nodes/2/extensions/{RB}/motion/gravityFactor"]
    assert str(found[0]).startswith("WARNING")  # a warning: ERROR would make the import operator raise


# --- infinite inertia --------------------------------------------------------------------------------------------


def _overhang(tmp_path, **motion):
    """A cube whose centre is beyond the ground's edge: it hits the edge off-centre and tips over it."""
    return write(tmp_path, "overhang", [ground(), body("Cube", [2.3, 1.0, 0.0], **motion)])


def test_infinite_inertia_body_does_not_rotate(clean, tmp_path):
    path = _overhang(tmp_path, inertiaDiagonal=[0.0, 0.0, 0.0])
    import_file(path, reproduce=False)  # today: inertia comes from the shape, the cube tips over the edge
    step(60)
    assert tilt_degrees("Cube") > 10.0
    reset()
    import_file(path)
    assert bpy.data.collections.get(HELPERS) is not None
    step(60)
    assert tilt_degrees("Cube") < 0.5
    # it fell (from 1.5 m) and rests upright on the 0.2 m of the ground under it instead of tipping off the edge
    assert bpy.data.objects["Cube"].matrix_world.translation.z == pytest.approx(0.5, abs=0.06)


def test_one_infinite_axis_locks_only_that_axis(clean, tmp_path):
    # the tip over the edge (+x) turns the cube about glTF -z (Blender y): infinite about glTF z stops it
    import_file(_overhang(tmp_path, inertiaDiagonal=[1.0, 1.0, 0.0]))
    step(60)
    assert tilt_degrees("Cube") < 0.5
    empty = next(ob for ob in bpy.data.objects if ob.name.endswith(".lock_rotation"))
    c = empty.rigid_body_constraint
    assert [c.use_limit_ang_x, c.use_limit_ang_y, c.use_limit_ang_z].count(True) == 1
    assert c.use_limit_ang_y  # a locked axis is the constraint's Euler middle axis
    assert not any((c.use_limit_lin_x, c.use_limit_lin_y, c.use_limit_lin_z))


# --- option off, export ------------------------------------------------------------------------------------------


def test_option_off_gives_todays_objects(clean, tmp_path):
    path = _overhang(tmp_path, inertiaDiagonal=[0.0, 0.0, 0.0], gravityFactor=0.5)
    off = import_file(path, reproduce=False)
    assert bpy.data.collections.get(HELPERS) is None
    assert all(ob.gltf_physics.joint.role == "NONE" for ob in bpy.data.objects)
    assert (
        bpy.context.scene.rigidbody_world.constraints is None
        or not bpy.context.scene.rigidbody_world.constraints.objects
    )
    reset()
    on = import_file(path)
    helpers = {ob.name for ob in bpy.data.collections[HELPERS].objects}
    assert sorted(set(on) - helpers) == off
    assert all(ob.gltf_physics.joint.role == "REPRODUCTION" for ob in bpy.data.collections[HELPERS].objects)


def test_export_after_import_writes_the_files_values(clean, tmp_path):
    nodes = [ground(), body("Cube", [2.3, 1.0, 0.0], inertiaDiagonal=[0.0, 0.0, 0.0], gravityFactor=0.5)]
    source = doc(nodes)
    path = tmp_path / "source.gltf"
    path.write_text(json.dumps(source), encoding="utf-8")
    import_file(path)
    assert bpy.data.collections[HELPERS].objects  # helpers exist, and must not leak
    written = export(tmp_path / "back.gltf", "2026")
    assert sorted(n.get("name") for n in written["nodes"]) == ["Cube", "Ground"]
    cube = next(n for n in written["nodes"] if n.get("name") == "Cube")
    motion = cube["extensions"][RB]["motion"]
    assert motion["inertiaDiagonal"] == [0.0, 0.0, 0.0]
    assert motion["gravityFactor"] == 0.5
    assert "physicsJoints" not in written["extensions"].get(RB, {})
    assert not any("joint" in n.get("extensions", {}).get(RB, {}) for n in written["nodes"])


def test_lock_frame_puts_a_locked_axis_in_the_middle(clean):
    from mathutils import Quaternion

    lock_frame = submodule(clean, "io.importer.reproduce.inertia").lock_frame
    # glTF y infinite = Blender z of the inertia frame: the constraint frame is (y, z, x), only its Y locked
    rotation, axes = lock_frame(Quaternion(), None, {1})
    assert axes == [False, True, False]
    assert [tuple(round(v) for v in rotation.col[i]) for i in range(3)] == [(0, 1, 0), (0, 0, 1), (1, 0, 0)]
    assert rotation.determinant() == pytest.approx(1.0)  # a rotation, not a mirror
    # glTF x and z infinite (Blender x and y): y stays in the middle, x and y locked, z free
    rotation, axes = lock_frame(Quaternion(), (0.0, 0.0, 0.0, 1.0), {0, 2})
    assert axes == [True, True, False] and rotation.determinant() == pytest.approx(1.0)


class _DialogLayout(FakeLayout):
    def panel(self, idname, default_closed=False):
        self.log.append(("panel", {"idname": idname}))
        return FakeLayout(self.log), FakeLayout(self.log)


def test_import_dialog_shows_the_option_with_a_tooltip(clean):
    layout = _DialogLayout()
    submodule(clean, "ui.scene.gltf_dialogs").draw_import(bpy.context, layout)
    assert "import_reproduce" in layout.props()
    prop = bpy.context.scene.gltf_physics.bl_rna.properties["import_reproduce"]
    assert prop.default is True
    assert "gravityFactor" in prop.description and "never exported" in prop.description


def test_reproduced_values_are_not_reported_as_stored_only(clean, tmp_path):
    """With the option on, gravityFactor and an infinite inertia are reproduced (or reported as not reproducible):
    the body's "kept for export, not simulated" note no longer lists them; with it off it still does."""
    path = write(tmp_path, "both", [ground(), body("B", [0.0, 3.0, 0.0], gravityFactor=0.0, inertiaDiagonal=[0, 0, 0])])

    def stored_only() -> list[str]:
        report = submodule(clean, "io.hooks").last_report("import")
        return [d.message for d in report.diagnostics if "not simulated by Blender" in d.message]

    import_file(path, reproduce=True)
    assert not any("gravityFactor" in m or "inertiaDiagonal" in m for m in stored_only()), stored_only()
    reset()
    import_file(path, reproduce=False)
    assert any("gravityFactor" in m and "inertiaDiagonal" in m for m in stored_only()), stored_only()


# --- what stays impossible ---------------------------------------------------------------------------------------


def test_cone_and_distance_limits_are_reported_as_not_reproducible(clean, tmp_path):
    nodes = [body("A", [0.0, 3.0, 0.0]), body("B", [1.0, 3.0, 0.0])]
    nodes[0]["extensions"][RB]["joint"] = {"connectedNode": 1, "joint": 0}
    limits = [
        {"angularAxes": [1, 2], "max": 0.5},  # a cone
        {"linearAxes": [0, 1, 2], "max": 0.0},  # a locked point: exact, not reported
        {"linearAxes": [0, 1], "max": 0.25},  # a 2-axis distance
    ]
    path = write(tmp_path, "cone", nodes, physicsJoints=[{"limits": limits}])
    import_file(path)
    report = submodule(clean, "io.hooks").last_report("import")
    found = {d.pointer: d.message for d in report.diagnostics if "not reproducible in Blender" in d.message}
    base = f"/extensions/{RB}/physicsJoints/0/limits"
    assert set(found) == {f"{base}/0", f"{base}/2"}
    assert "cone limit" in found[f"{base}/0"] and "2-axis distance limit" in found[f"{base}/2"]
    reset()
    import_file(path, reproduce=False)  # option off: today's report
    report = submodule(clean, "io.hooks").last_report("import")
    assert not any("not reproducible in Blender" in d.message for d in report.diagnostics)
