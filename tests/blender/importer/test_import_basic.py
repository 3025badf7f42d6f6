"""Import of the project's own small scenes: bodies, proxies, triggers, report."""

from __future__ import annotations

import bpy
import pytest

from blenderkit import submodule
from testkit import ROOT, fixture


def _import(path) -> None:
    assert bpy.ops.import_scene.gltf(filepath=str(path)) == {"FINISHED"}


def _bodies():
    rbw = bpy.context.scene.rigidbody_world
    return {ob.name: ob for ob in rbw.collection.objects} if rbw and rbw.collection else {}


def test_basic_body_becomes_active_box(clean):
    _import(fixture("basic_body_required.gltf"))
    box = bpy.data.objects["Box"]
    rb = box.rigid_body
    assert rb is not None and rb.type == "ACTIVE" and not rb.kinematic
    assert rb.collision_shape == "BOX"
    assert rb.mass == pytest.approx(3.0)
    assert box.gltf_physics.motion.has_motion and box.gltf_physics.motion.mass_mode == "EXPLICIT"
    report = submodule(clean, "io.hooks").last_report("import")
    assert report.counts["rigid_bodies"] == 1


def test_demo_scene_imports(clean):
    _import(ROOT / "examples" / "demo_scene.gltf")
    report = submodule(clean, "io.hooks").last_report("import")
    print([str(d) for d in report.diagnostics])
    bodies = _bodies()
    print(sorted(bodies))
    assert report.counts["rigid_bodies"] == 6  # Ground, CrateA, CrateB, Post, Ball, Pill
    assert report.counts["triggers"] == 1
    ball = bpy.data.objects["Ball"]
    assert ball.type == "MESH" and ball.rigid_body.collision_shape == "SPHERE"
    assert ball.gltf_physics.generated_mesh
    pill = bpy.data.objects["Pill"]
    assert pill.rigid_body.collision_shape == "CAPSULE" and pill.rigid_body.mass == pytest.approx(0.8)
    assert tuple(pill.dimensions) == pytest.approx((0.4, 0.4, 1.0), abs=1e-5)  # height 0.6 + 2 r, along Z
    ground = bpy.data.objects["Ground"]
    assert ground.rigid_body.type == "PASSIVE" and ground.rigid_body.collision_shape == "BOX"


def test_operator_summary_lists_counts_and_warnings(clean):
    from testkit import FIXTURES

    _import(FIXTURES / "import" / "malformed.gltf")
    hooks = submodule(clean, "io.hooks")
    lines = submodule(clean, "io.importer.pipeline").summary_lines(hooks.last_report("import"))
    level, text = lines[0]
    assert level == "WARNING"
    # one definition of the counts (gltf/counts.py), the validator's errors at their own severity
    assert text.startswith("glTF Physics: 1 body, 2 colliders, 0 joints, 0 triggers; 7 errors, 0 warnings, 7 notes")
    assert len(lines) == 1 + 7 and all(level == "WARNING" for level, _ in lines)
    assert "/nodes/1/extensions/KHR_physics_rigid_bodies/collider/geometry/shape" in lines[1][1]


def test_plain_gltf_reports_nothing(clean):
    _import(fixture("no_physics.gltf"))
    hooks = submodule(clean, "io.hooks")
    assert submodule(clean, "io.importer.pipeline").summary_lines(hooks.last_report("import")) == []
    assert bpy.context.scene.rigidbody_world is None


def _mesh_data(mesh) -> dict:
    """Everything a flat-shaded mesh holds: geometry, topology, attributes and the normals Blender derives."""
    return {
        "co": [tuple(v.co) for v in mesh.vertices],
        "edges": [tuple(e.vertices) for e in mesh.edges],
        "loops": [(c.vertex_index, c.edge_index) for c in mesh.loops],
        "polygons": [(p.loop_start, p.loop_total, tuple(p.normal), p.use_smooth) for p in mesh.polygons],
        "vertex_normals": [tuple(v.normal) for v in mesh.vertices],
        "attributes": sorted((a.name, a.domain, a.data_type) for a in mesh.attributes),
        "sharp_face": [d.value for d in mesh.attributes["sharp_face"].data],
        "stored": [(a.name, a.domain, a.data_type, _values(a)) for a in mesh.attributes],  # in Blender's order
    }


def _reference_data(mesh) -> dict:
    """``_mesh_data`` of a ``from_pydata`` mesh, the reference the proxies must equal. Blender 5.0 reads the edge
    selection ``.select_edge`` that ``update(calc_edges=True)`` writes as an INT32_2D layer (a BOOLEAN layer's bytes
    and what follows them: ``(16843009, 16843009), …, (1700705568, 32571)`` for a box, bpy 5.0.1); every other release
    reads it as BOOLEAN. The proxies write that boolean layer on every release, so on 5.0 the reference's layer is
    taken as Blender's selection flush makes it: an edge selected where both its vertices are."""
    data = _mesh_data(mesh)
    for index, (name, domain, data_type, _) in enumerate(data["stored"]):
        if name == ".select_edge" and data_type == "INT32_2D":
            selected = [v.select for v in mesh.vertices]
            flushed = [selected[a] and selected[b] for a, b in data["edges"]]
            data["stored"][index] = (name, domain, "BOOLEAN", flushed)
            data["attributes"] = sorted((n, d, "BOOLEAN" if n == name else t) for n, d, t in data["attributes"])
    return data


def _values(attribute) -> list:
    """Every value of a mesh attribute (internal ones too: ``.edge_verts``, ``.select_edge``, ``.corner_edge``)."""
    key = "vector" if attribute.data_type == "FLOAT_VECTOR" else "value"
    return [
        tuple(v) if attribute.data_type in ("FLOAT_VECTOR", "INT32_2D") else v
        for v in (getattr(d, key) for d in attribute.data)
    ]


@pytest.mark.parametrize("kind", ["box", "sphere", "capsule", "cylinder", "no_faces", "empty"])
def test_proxy_meshes_equal_from_pydata(clean, kind):
    """``proxies.mesh_from_shape`` (attribute buffers) builds exactly what ``Mesh.from_pydata`` builds."""
    shapes = submodule(clean, "io.mapping.shapes_to_blender")
    proxies = submodule(clean, "io.importer.proxies")
    verts, faces = {
        "box": lambda: shapes.box_mesh(1.0, 2.0, 0.5),
        "sphere": lambda: shapes._revolve(shapes.sphere_profile(0.3)),
        "capsule": lambda: shapes._revolve(shapes.capsule_profile(1.0, 0.2, 0.3)),
        "cylinder": lambda: shapes._revolve([(0.0, -0.5), (0.3, -0.5), (0.2, 0.5), (0.0, 0.5)]),
        "no_faces": lambda: ([(0.1, 0.2, 0.30000001), (1e-40, -0.0, 3.4e38)], []),
        "empty": lambda: ([], []),
    }[kind]()
    reference = bpy.data.meshes.new("reference")
    reference.from_pydata(verts, [], faces)
    reference.update()
    built = proxies.mesh_from_shape("built", shapes.ShapeMesh("CONVEX_HULL", verts, faces, None))
    assert _mesh_data(built) == _reference_data(reference)
    assert len(built.polygons) == len(faces) and all(_mesh_data(built)["sharp_face"])
    layout = shapes.FaceLayout.of(faces)  # the cached buffers (and a layout that does not match: rebuilt)
    with_layout = proxies.mesh_from_shape("layout", shapes.ShapeMesh("CONVEX_HULL", verts, faces, None, [], layout))
    assert _mesh_data(with_layout) == _reference_data(reference)
    if faces:
        stale = shapes.FaceLayout.of([faces[-1], *faces[:-1]])
        rebuilt = proxies.mesh_from_shape("stale", shapes.ShapeMesh("CONVEX_HULL", verts, faces, None, [], stale))
        assert _mesh_data(rebuilt) == _reference_data(reference)


@pytest.mark.parametrize("kind", ["BOX", "SPHERE", "CAPSULE", "CYLINDER", "PLANE"])
def test_implicit_proxy_meshes_equal_from_pydata(clean, kind):
    """Proxy meshes of ``implicit_mesh`` (cached face layouts) are ``Mesh.from_pydata``'s of their faces."""
    shapes = submodule(clean, "io.mapping.shapes_to_blender")
    proxies = submodule(clean, "io.importer.proxies")
    model = submodule(clean, "io.gltf.model")
    params = {
        "BOX": lambda: model.BoxShape(size=(1.0, 2.0, 0.5)),
        "SPHERE": lambda: model.SphereShape(radius=0.3),
        "CAPSULE": lambda: model.CapsuleShape(height=1.0, radius_top=0.2, radius_bottom=0.3),
        "CYLINDER": lambda: model.CylinderShape(height=1.0, radius_top=0.0, radius_bottom=0.3),
        "PLANE": lambda: model.PlaneShape(size_x=1.0, size_z=2.0),
    }[kind]()
    for _ in range(2):  # the second one reuses the cached layout
        proxy = shapes.implicit_mesh(model.Shape(type=getattr(model, kind), params=params), (1.0, 2.0, 1.0))
        assert proxy.layout is not None
        reference = bpy.data.meshes.new("reference")
        reference.from_pydata(proxy.vertices, [], proxy.faces)
        reference.update()
        assert _mesh_data(proxies.mesh_from_shape("built", proxy)) == _reference_data(reference)


def test_summary_reaches_the_operator_report_once_without_a_log_line(clean, capfd, tmp_path):
    """The summary goes to the operator's report (the status bar; printed in background mode), not also through
    io_scene_gltf2's console logger: one line per import and export, not two (and no ``logging`` call per file)."""
    import importlib

    try:
        debug = importlib.import_module("io_scene_gltf2.io.com.debug")
    except ImportError:  # bpy 4.2
        debug = importlib.import_module("io_scene_gltf2.io.com.gltf2_io_debug")
    logged: list[str] = []
    real_info = debug.Log.info

    def info(self, message, popup=False):
        logged.append(message)
        return real_info(self, message, popup)

    debug.Log.info = info
    try:
        capfd.readouterr()
        _import(fixture("basic_body.gltf"))
        assert bpy.ops.export_scene.gltf(filepath=str(tmp_path / "out.glb"), export_format="GLB") == {"FINISHED"}
        printed = capfd.readouterr()
    finally:
        debug.Log.info = real_info
    lines = [line for line in (printed.out + printed.err).splitlines() if "glTF Physics" in line]
    assert not [m for m in logged if "glTF Physics" in m]
    assert len([line for line in lines if "glTF Physics: 1 body, 1 collider" in line]) == 1, lines
    assert len([line for line in lines if "glTF Physics (2026): 1 body, 1 collider" in line]) == 1, lines
