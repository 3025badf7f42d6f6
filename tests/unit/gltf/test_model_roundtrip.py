"""Property tests: model -> write(revision) -> JSON -> read == model, for models restricted to what each
revision can hold; and garbage / mutated JSON never makes the parser (or migrate) raise."""

import copy
import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from testkit import submodule

m = submodule("io.gltf.model")
parse = submodule("io.gltf.parse")
migrate = submodule("io.gltf.migrate")

NODE_COUNT = 6
MESH_NODES = {4: 0, 5: 1}  # node -> mesh it holds in the base document
SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])

pos = st.floats(min_value=0.01, max_value=50, allow_nan=False, allow_infinity=False)
nonneg = st.floats(min_value=0.0, max_value=50, allow_nan=False, allow_infinity=False)
real = st.floats(min_value=-50, max_value=50, allow_nan=False, allow_infinity=False)
vec3 = st.tuples(real, real, real)
names = st.none() | st.text("abcxyz", min_size=1, max_size=6)
json_leaf = st.none() | st.booleans() | st.integers(-5, 5) | st.text("ab", max_size=3)
extras = st.none() | st.dictionaries(st.text("ab", min_size=1, max_size=2), json_leaf, max_size=2)
unknown = st.dictionaries(st.sampled_from(["x_a", "x_b"]), json_leaf, max_size=1)
extensions = st.dictionaries(st.sampled_from(["EXT_a"]), st.dictionaries(st.just("v"), json_leaf), max_size=1)


def passthrough(cls, **fields):
    return st.builds(cls, extras=extras, extensions=extensions, unknown=unknown, **fields)


def shape_params(shape_type):
    if shape_type == "box":
        return passthrough(m.BoxShape, size=st.tuples(pos, pos, pos))
    if shape_type == "sphere":
        return passthrough(m.SphereShape, radius=pos)
    if shape_type in ("capsule", "cylinder"):
        cls = m.CapsuleShape if shape_type == "capsule" else m.CylinderShape
        return passthrough(cls, height=pos, radius_top=nonneg, radius_bottom=nonneg)
    if shape_type == "plane":
        return passthrough(m.PlaneShape, size_x=st.none() | pos, size_z=st.none() | pos, double_sided=st.booleans())
    weights = st.one_of(st.tuples(st.none(), st.booleans()), st.tuples(st.tuples(real, real), st.just(False)))
    return st.builds(
        lambda w, **kw: m.MeshShape(weights=w[0], use_node_weights=w[1], **kw),
        weights,
        mesh=st.sampled_from([0, 1]),
        skin=st.none() | st.just(0),
        convex_hull=st.booleans(),
        extras=extras,
        unknown=unknown,
    )


def shapes(rev):
    types = {
        "2026": ["box", "sphere", "capsule", "cylinder", "plane"],
        "2024-10": ["box", "sphere", "capsule", "cylinder", "plane"],
        "2024-07": ["box", "sphere", "capsule", "cylinder", "mesh"],
        "omi": ["box", "sphere", "capsule", "cylinder"],
    }[rev]
    one = st.sampled_from(types).flatmap(
        lambda t: st.builds(
            m.Shape,
            type=st.just(t),
            params=shape_params(t),
            name=names,
            extras=extras,
            extensions=extensions if t != "mesh" else st.just({}),
            unknown=unknown,
        )
    )
    return st.lists(one, min_size=1, max_size=4)


materials = st.lists(
    passthrough(
        m.PhysicsMaterial,
        static_friction=nonneg,
        dynamic_friction=nonneg,
        restitution=nonneg,
        friction_combine=st.none() | st.sampled_from(m.COMBINE_MODES),
        restitution_combine=st.none() | st.sampled_from(m.COMBINE_MODES),
        name=names,
    ),
    max_size=3,
)
systems = st.none() | st.lists(st.sampled_from(["a", "b", "c"]), unique=True, max_size=3).map(tuple)
filters = st.lists(
    st.builds(
        lambda s, pair, n: m.CollisionFilter(
            collision_systems=s, collide_with_systems=pair[0], not_collide_with_systems=pair[1], name=n
        ),
        systems,
        st.one_of(st.tuples(systems, st.none()), st.tuples(st.none(), systems)),
        names,
    ),
    max_size=3,
)
axes = st.lists(st.integers(0, 2), min_size=1, max_size=3, unique=True).map(tuple)
limit = st.builds(
    lambda lin, a, **kw: m.JointLimit(linear_axes=a if lin else None, angular_axes=None if lin else a, **kw),
    st.booleans(),
    axes,
    min=st.none() | real,
    max=st.none() | real,
    stiffness=st.none() | nonneg,
    damping=nonneg,
    extras=extras,
    unknown=unknown,
)


def drive(paired):
    def make(pt, vt, stiffness, damping, **kw):
        if paired:
            stiffness = stiffness if pt is not None else 0.0
            damping = damping if vt is not None else 0.0
        return m.JointDrive(position_target=pt, velocity_target=vt, stiffness=stiffness, damping=damping, **kw)

    return st.builds(
        make,
        st.none() | real,
        st.none() | real,
        nonneg,
        nonneg,
        type=st.sampled_from(["linear", "angular"]),
        mode=st.sampled_from(["force", "acceleration"]),
        axis=st.integers(0, 2),
        max_force=st.none() | nonneg,
        extras=extras,
    )


def joints(rev):
    return st.lists(
        st.builds(
            m.JointDescription,
            limits=st.lists(limit, max_size=3),
            drives=st.lists(drive(rev in ("2026", "2024-10")), max_size=2),
            name=names,
            extras=extras,
        ),
        max_size=2,
    )


def motion(rev):
    if rev == "omi":
        return passthrough(
            m.Motion,
            kind=st.sampled_from(["dynamic", "kinematic", "static"]),
            mass=pos,
            center_of_mass=vec3,
            inertia_diagonal=st.none(),
            inertia_orientation=st.none(),
            linear_velocity=vec3,
            angular_velocity=vec3,
            gravity_factor=real,
        ) | passthrough(
            m.Motion,
            kind=st.just("dynamic"),
            mass=pos,
            center_of_mass=vec3,
            inertia_diagonal=st.tuples(pos, pos, pos),
            inertia_orientation=st.none() | st.just((0.0, 0.0, 0.0, 1.0)),
            gravity_factor=real,
        )
    return passthrough(
        m.Motion,
        kind=st.sampled_from(["dynamic", "kinematic"]),
        mass=st.none() | nonneg,
        center_of_mass=st.none() | vec3,
        inertia_diagonal=st.none() | st.tuples(nonneg, nonneg, nonneg),
        inertia_orientation=st.none() | st.just((0.0, 0.0, 0.0, 1.0)),
        linear_velocity=vec3,
        angular_velocity=vec3,
        gravity_factor=real,
    )


def geometry(rev, shape_count):
    by_shape = st.builds(
        m.Geometry,
        shape=st.integers(0, shape_count - 1),
        convex_hull=st.just(False) if rev in ("2024-07", "omi") else st.booleans(),
        extras=st.none() if rev in ("2024-07", "omi") else extras,
    )
    if rev in ("2026", "omi"):
        return by_shape | st.builds(m.Geometry, mesh=st.sampled_from([0, 1]), convex_hull=st.booleans())
    if rev == "2024-10":
        return by_shape | st.builds(
            m.Geometry, node=st.sampled_from(sorted(MESH_NODES)), convex_hull=st.booleans(), extras=extras
        )
    return by_shape


@st.composite
def documents(draw, rev):
    doc = m.PhysicsDocument(
        shapes=draw(shapes(rev)), materials=draw(materials), filters=draw(filters), joints=draw(joints(rev))
    )
    ref = lambda items: st.none() | st.integers(0, len(items) - 1) if items else st.none()  # noqa: E731
    for index in draw(st.lists(st.integers(0, NODE_COUNT - 1), unique=True, min_size=1, max_size=4)):
        node = m.NodePhysics(node=index, extras=draw(extras), unknown=draw(unknown))
        if draw(st.booleans()):
            node.motion = draw(motion(rev))
        if draw(st.booleans()):
            geom = draw(geometry(rev, len(doc.shapes)))
            node.collider = m.Collider(
                geometry=geom, material=draw(ref(doc.materials)), filter=draw(ref(doc.filters)), extras=draw(extras)
            )
        if draw(st.booleans()):
            if draw(st.booleans()):
                node.trigger = m.Trigger(geometry=draw(geometry(rev, len(doc.shapes))), filter=draw(ref(doc.filters)))
            else:
                nodes = draw(st.lists(st.integers(0, NODE_COUNT - 1), unique=True, min_size=1, max_size=3))
                node.trigger = m.Trigger(nodes=tuple(nodes))
        if doc.joints and draw(st.booleans()):
            node.joint = m.NodeJoint(
                connected_node=draw(st.integers(0, NODE_COUNT - 1)),
                joint=draw(st.integers(0, len(doc.joints) - 1)),
                enable_collision=draw(st.booleans()),
                extras=draw(extras),
            )
        if node.is_empty():
            node.motion = m.Motion(kind="dynamic", mass=1.0, center_of_mass=(0.0, 0.0, 0.0))
        doc.nodes[index] = node
    return doc


def base_gltf() -> dict:
    nodes = [{"name": f"n{i}"} for i in range(NODE_COUNT)]
    for node, mesh in MESH_NODES.items():
        nodes[node]["mesh"] = mesh
    nodes[0]["children"] = [1, 2, 3]
    return {
        "asset": {"version": "2.0"},
        "nodes": nodes,
        "meshes": [{"primitives": []}, {"primitives": []}],
        "skins": [{"joints": [1]}],
        "scenes": [{"nodes": [0, 4, 5]}],
    }


def roundtrip(doc, target):
    gltf = base_gltf()
    out = migrate.write_target(doc, target, gltf)
    written = json.loads(json.dumps(migrate.apply_output(gltf, out)))
    return parse.parse_gltf(written, validate=False), out


def check(doc, target):
    result, out = roundtrip(doc, target)
    assert not [d for d in out.diagnostics if d.code == "PHYSICS_WRITE_LOSSY"], out.diagnostics
    assert not result.errors, result.errors
    assert result.document.shapes == doc.shapes
    assert result.document.materials == doc.materials
    assert result.document.filters == doc.filters
    assert result.document.joints == doc.joints
    assert result.document.nodes == doc.nodes


@SETTINGS
@given(documents("2026"))
def test_roundtrip_khr_2026(doc):
    check(doc, "2026")


@SETTINGS
@given(documents("2024-10"))
def test_roundtrip_khr_2024_10(doc):
    check(doc, "2024-10")


@SETTINGS
@given(documents("2024-07"))
def test_roundtrip_khr_2024_07(doc):
    check(doc, "2024-07")


@SETTINGS
@given(documents("omi"))
def test_roundtrip_omi(doc):
    check(doc, "omi")


json_values = st.recursive(
    json_leaf | st.floats(allow_nan=False, allow_infinity=False) | st.integers(-3, 10),
    lambda children: st.lists(children, max_size=4)
    | st.dictionaries(
        st.sampled_from(
            [
                "shape",
                "geometry",
                "mesh",
                "node",
                "motion",
                "collider",
                "trigger",
                "joint",
                "nodes",
                "type",
                "box",
                "capsule",
                "limits",
                "drives",
                "extras",
                "extensions",
                "x",
            ]
        ),
        children,
        max_size=4,
    ),
    max_leaves=12,
)
PHYSICS_PATHS = [
    ("extensions", "KHR_physics_rigid_bodies"),
    ("extensions", "KHR_implicit_shapes", "shapes", 0),
    ("extensions", "KHR_physics_rigid_bodies", "physicsJoints", 0, "limits", 0),
    ("nodes", 1, "extensions", "KHR_physics_rigid_bodies", "collider"),
    ("nodes", 1, "extensions", "KHR_physics_rigid_bodies", "collider", "geometry"),
    ("nodes", 2, "extensions", "KHR_physics_rigid_bodies", "joint"),
    ("nodes", 3, "extensions", "OMI_physics_body"),
    ("nodes", 3, "extensions", "OMI_physics_joint"),
    ("extensions", "OMI_physics_shape", "shapes", 0),
    ("extensions", "OMI_collider"),
    ("nodes", 4, "extensions", "OMI_collider"),
    ("nodes",),
    ("extensions",),
    ("nodes", 0, "children"),
    ("meshes",),
    ("extensions", "OMI_physics_joint", "constraints"),
]


def valid_base() -> dict:
    gltf = base_gltf()
    doc = m.PhysicsDocument(
        shapes=[m.Shape(type="box", params=m.BoxShape())],
        joints=[m.JointDescription(limits=[m.JointLimit(linear_axes=(0,), min=0.0, max=0.0)])],
    )
    doc.node(1).collider = m.Collider(geometry=m.Geometry(shape=0))
    doc.node(2).joint = m.NodeJoint(connected_node=3, joint=0)
    doc.node(3).motion = m.Motion()
    return migrate.apply_output(gltf, migrate.write_target(doc, "2024-10", gltf))


def _set(doc, path, value):
    target = doc
    for part in path[:-1]:
        if isinstance(target, dict):
            target = target.setdefault(part, {})
        elif isinstance(target, list) and isinstance(part, int) and part < len(target):
            target = target[part]
        else:
            return
    if isinstance(target, dict) or (isinstance(target, list) and isinstance(path[-1], int) and path[-1] < len(target)):
        target[path[-1]] = value


@SETTINGS
@given(json_values)
def test_any_json_value_never_raises(value):
    result = parse.parse_gltf(value)
    assert not [d for d in result.diagnostics if d.code == "PHYSICS_PARSE_INTERNAL_ERROR"]
    migrate.migrate(value, "omi")


@SETTINGS
@given(
    st.lists(st.tuples(st.sampled_from(PHYSICS_PATHS), json_values), min_size=1, max_size=3),
    st.sampled_from(migrate.TARGETS),
)
def test_mutated_physics_never_raises(mutations, target):
    gltf = copy.deepcopy(valid_base())
    for path, value in mutations:
        _set(gltf, path, value)
    result = parse.parse_gltf(gltf)
    assert not [d for d in result.diagnostics if d.code == "PHYSICS_PARSE_INTERNAL_ERROR"], result.diagnostics
    new, _ = migrate.migrate(gltf, target)
    json.dumps(new)


def test_one_bad_collider_never_loses_the_others():
    gltf = valid_base()
    gltf["nodes"][4].setdefault("extensions", {})["KHR_physics_rigid_bodies"] = {
        "collider": {"geometry": {"shape": "zero"}}
    }
    result = parse.parse_gltf(gltf)
    assert result.document.nodes[1].collider.geometry.shape == 0
    assert 4 not in result.document.nodes or result.document.nodes[4].collider is None
    assert any(d.pointer.startswith("/nodes/4/extensions/KHR_physics_rigid_bodies/collider") for d in result.errors)
