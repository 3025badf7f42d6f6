"""Shape parameters of generated proxies (issue 13, item 1): editing them rewrites the stored shape, rebuilds the
proxy mesh with the importer's builder, and the next export writes the edited shape (no "edited in Blender")."""

from __future__ import annotations

import json

import bpy
import numpy as np
import pytest

from blenderkit import submodule
from export_helpers import export, last_export
from joint_helpers import import_gltf
from testkit import fixture
from ui_helpers import draw_panel

KHR = "KHR_physics_rigid_bodies"


def _extent(ob) -> np.ndarray:
    co = np.empty(len(ob.data.vertices) * 3)
    ob.data.vertices.foreach_get("co", co)
    co = co.reshape(-1, 3)
    return co.max(axis=0) - co.min(axis=0)


def _shape_of(gltf: dict, name: str) -> dict:
    node = next(n for n in gltf["nodes"] if n.get("name") == name)
    index = node["extensions"][KHR]["collider"]["geometry"]["shape"]
    return gltf["extensions"]["KHR_implicit_shapes"]["shapes"][index]


def _edited(addon) -> list[str]:
    return [d.message for d in last_export(addon).diagnostics if d.code == "GLTF_PHYSICS_EXPORT_EDITED"]


def test_box_capsule_and_cone_edits_rebuild_the_proxy_and_export(clean, tmp_path):
    import_gltf(clean, fixture("import/empty_bodies.gltf"))
    box, capsule, cone = (bpy.data.objects[n] for n in ("Box", "Capsule", "Cone"))
    geo = box.gltf_physics.collider.geometry
    sync = submodule(clean, "ui.body.sync_shapes")
    assert sync.editable(geo) == ["shape_size"] and sync.status(geo) == "simulated"
    mass = box.rigid_body.mass
    geo.shape_size = (2.0, 0.5, 1.0)  # glTF X, Y (up), Z
    assert json.loads(geo.shape_json)["box"]["size"] == [2.0, 0.5, 1.0]
    holder = sync.holders(geo)[0]
    assert _extent(holder) == pytest.approx((2.0, 1.0, 0.5))  # Blender X, Y, Z = glTF X, −Z, Y
    if box.gltf_physics.motion.mass_mode == "ABSENT":  # a computed mass follows the new volume (1 m³)
        assert box.rigid_body.mass == pytest.approx(bpy.context.scene.gltf_physics.import_density * 1.0)
    else:
        assert box.rigid_body.mass == pytest.approx(mass)
    cgeo = capsule.gltf_physics.collider.geometry
    assert sync.editable(cgeo) == ["shape_height", "shape_radius_top", "shape_radius_bottom"]
    cgeo.shape_height, cgeo.shape_radius_top, cgeo.shape_radius_bottom = 1.0, 0.2, 0.2
    (cholder,) = sync.holders(cgeo)
    assert cholder.rigid_body.collision_shape == "CAPSULE"
    assert _extent(cholder) == pytest.approx((0.4, 0.4, 1.4), abs=1e-3)  # height between cap centres + 2r
    cgeo.shape_radius_top = 0.1  # tapered: Blender holds it as a convex hull
    assert cholder.rigid_body.collision_shape == "CONVEX_HULL"
    kgeo = cone.gltf_physics.collider.geometry
    kgeo.shape_height = 2.0
    assert _extent(sync.holders(kgeo)[0])[2] == pytest.approx(2.0)
    gltf = export(tmp_path / "shapes.gltf", "2026")
    assert _shape_of(gltf, "Box")["box"]["size"] == pytest.approx([2.0, 0.5, 1.0])
    assert _shape_of(gltf, "Capsule")["capsule"] == pytest.approx(
        {"height": 1.0, "radiusTop": 0.1, "radiusBottom": 0.2}
    )
    assert _shape_of(gltf, "Cone")["cylinder"]["height"] == pytest.approx(2.0)
    assert not _edited(clean)
    assert not submodule(clean, "ui.body.sync_body").ERRORS


def test_scaled_proxy_keeps_the_baked_scale(clean, tmp_path):
    import_gltf(clean, fixture("import/scales.gltf"))
    egg = bpy.data.objects["Egg"]  # a sphere under node scale (1, 2, 1)
    geo = egg.gltf_physics.collider.geometry
    sync = submodule(clean, "ui.body.sync_shapes")
    holders = sync.holders(geo)
    assert holders
    before = _extent(holders[0]) * np.abs(np.array(holders[0].matrix_world.to_scale()))
    radius = geo.shape_radius
    geo.shape_radius = 2.0 * radius
    after = _extent(holders[0]) * np.abs(np.array(holders[0].matrix_world.to_scale()))
    assert after == pytest.approx(2.0 * before, rel=1e-4)  # the same anisotropic scale, twice the radius
    gltf = export(tmp_path / "egg.gltf", "2026")
    assert _shape_of(gltf, "Egg")["sphere"]["radius"] == pytest.approx(2.0 * radius)
    assert not _edited(clean)


def test_render_mesh_collider_is_stored_only_and_panel_draws(clean):
    import_gltf(clean, fixture("import/animated.gltf"))
    ob = bpy.data.objects["Free"]
    geo = ob.gltf_physics.collider.geometry
    sync = submodule(clean, "ui.body.sync_shapes")
    body = submodule(clean, "ui.body.panels_body")
    texts = draw_panel(body.GLTF_PHYSICS_PT_collider, ob).texts()
    assert geo.kind == "SHAPE" and not sync.holders(geo)  # the node's own mesh carries the box
    assert "stored only" in texts
    size = tuple(geo.shape_size)
    geo.shape_size = (5.0, 5.0, 5.0)  # written to the stored shape; the render mesh is not touched
    assert json.loads(geo.shape_json)["box"]["size"] == [5.0, 5.0, 5.0] and size != (5.0, 5.0, 5.0)
    for name in ("Box", "Capsule"):
        import_gltf(clean, fixture("import/empty_bodies.gltf"))
        drawn = draw_panel(body.GLTF_PHYSICS_PT_collider, bpy.data.objects[name])
        assert set(sync.editable(bpy.data.objects[name].gltf_physics.collider.geometry)) <= set(drawn.props())


def test_plane_parameters_rebuild_the_proxy_and_export(clean, tmp_path):
    import_gltf(clean, fixture("import/rev_2024_10.gltf"))
    floor = bpy.data.objects["Floor"]
    geo = floor.gltf_physics.collider.geometry
    sync = submodule(clean, "ui.body.sync_shapes")
    assert set(sync.editable(geo)) == {"shape_size_x", "shape_size_z", "shape_double_sided"}
    (holder,) = sync.holders(geo)
    assert (geo.shape_size_x, geo.shape_size_z, geo.shape_double_sided) == (4.0, 6.0, True)
    assert _extent(holder)[:2] == pytest.approx((4.0, 6.0))  # glTF X, Z → Blender X, Y
    geo.shape_size_x = 10.0
    geo.shape_double_sided = False
    assert _extent(holder)[:2] == pytest.approx((10.0, 6.0))
    gltf = export(tmp_path / "plane.gltf", "2026")
    assert _shape_of(gltf, "Floor") == {"type": "plane", "plane": {"sizeX": 10.0, "sizeZ": 6.0, "doubleSided": False}}
    assert not _edited(clean)
    geo.shape_size_z = 0.0  # 0 = absent = infinite (the importer's 2000 m quad)
    assert "sizeZ" not in json.loads(geo.shape_json)["plane"] and geo.shape_size_z == 0.0
    assert _extent(holder)[1] == pytest.approx(2000.0)
    texts = draw_panel(submodule(clean, "ui.body.panels_body").GLTF_PHYSICS_PT_collider, floor)
    assert {"shape_size_x", "shape_size_z", "shape_double_sided"} <= set(texts.props())


def test_render_mesh_collider_edit_moves_the_shape_onto_a_generated_proxy(clean, tmp_path):
    import_gltf(clean, fixture("import/animated.gltf"))
    ob = bpy.data.objects["Free"]
    geo = ob.gltf_physics.collider.geometry
    sync = submodule(clean, "ui.body.sync_shapes")
    render = ob.data
    extent = tuple(_extent(ob))
    assert sync.convertible(geo)
    texts = draw_panel(submodule(clean, "ui.body.panels_body").GLTF_PHYSICS_PT_collider, ob).texts()
    assert "The render mesh carries this shape: an edit moves it onto a generated proxy" in texts
    geo.shape_size = (2.0, 0.5, 3.0)  # glTF X, Y (up), Z
    (proxy,) = sync.holders(geo)
    assert proxy.name == "Free.collider" and proxy.parent is ob and proxy.gltf_physics.role == "PROXY"
    assert ob.rigid_body.collision_shape == "COMPOUND" and proxy.rigid_body.collision_shape == "BOX"
    assert tuple(_extent(proxy)) == pytest.approx((2.0, 3.0, 0.5))  # Blender X, Y, Z = glTF X, Z, Y
    assert ob.data is render and tuple(_extent(ob)) == pytest.approx(extent)  # the render mesh is left alone
    assert sync.status(geo) == "simulated" and not sync.convertible(geo)
    geo.shape_size = (1.0, 0.5, 3.0)  # the next edit rebuilds the same proxy
    assert sync.holders(geo) == [proxy] and tuple(_extent(proxy)) == pytest.approx((1.0, 3.0, 0.5))
    gltf = export(tmp_path / "moved.gltf", "2026")
    assert _shape_of(gltf, "Free")["box"]["size"] == pytest.approx([1.0, 0.5, 3.0])
    assert not any(n.get("name") == "Free.collider" for n in gltf["nodes"])
    assert not _edited(clean)


def test_a_compound_child_shape_edit_rebuilds_its_proxy_under_the_body(clean, tmp_path):
    """Found by a script editing a compound's child collider: the child's proxy is parented to the body (two levels
    up), which ``holders`` did not look at, so nothing was rebuilt and the export wrote the old sphere back as
    "changed in Blender". The panel value is stored as typed (0.1, not its float32 0.10000000149011612)."""
    import_gltf(clean, fixture("import/compound.gltf"))
    geo = bpy.data.objects["Knob"].gltf_physics.collider.geometry
    sync = submodule(clean, "ui.body.sync_shapes")
    (holder,) = sync.holders(geo)
    assert holder.name == "Knob.collider" and sync.status(geo) == "simulated"
    geo.shape_radius = 0.1
    assert json.loads(geo.shape_json) == {"type": "sphere", "sphere": {"radius": 0.1}}
    assert _extent(holder) == pytest.approx((0.2, 0.2, 0.2), abs=1e-6)
    gltf = export(tmp_path / "compound.gltf", "2026")
    assert _shape_of(gltf, "Knob") == {"type": "sphere", "sphere": {"radius": 0.1}}
    assert not _edited(clean)


def test_a_compound_childs_render_mesh_shape_edit_moves_onto_a_proxy_beside_it(clean, tmp_path):
    """Found by the panel-edit sweep: the shape of a compound's child carried by its render mesh (CartBox) was
    stored only, and the export wrote the render mesh's box back as "changed in Blender". The edit now does what it
    does for a body's own render-mesh collider: the shape goes onto a generated proxy, here beside the child (a
    direct child of the body: only those are compound shapes), and the render mesh leaves the rigid-body world."""
    import_gltf(clean, fixture("import/compound.gltf"))
    cart_box = bpy.data.objects["CartBox"]
    geo = cart_box.gltf_physics.collider.geometry
    sync = submodule(clean, "ui.body.sync_shapes")
    assert sync.convertible(geo) and sync.status(geo) == sync.STORED
    geo.shape_size = (2.0, 0.5, 1.0)
    (holder,) = sync.holders(geo)
    assert holder.parent == bpy.data.objects["Cart"] and holder.rigid_body.collision_shape == "BOX"
    assert holder.matrix_world == cart_box.matrix_world
    assert _extent(holder) == pytest.approx((2.0, 1.0, 0.5))
    assert cart_box.rigid_body is None and sync.status(geo) == sync.SIMULATED
    gltf = export(tmp_path / "compound.gltf", "2026")
    assert _shape_of(gltf, "CartBox") == {"type": "box", "box": {"size": [2, 0.5, 1]}}
    assert not _edited(clean)
