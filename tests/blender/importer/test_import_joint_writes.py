"""The joint step's shortcuts (issue 14) store what the item-by-item path stores: joints sharing a description get
their limits and drives in one ID-property update copied from the first one, the frame node pointers are written as
ID properties, plans are shared per description and load-time offset. Compared with an import where every joint
takes the first joint's path (one description per joint)."""

from __future__ import annotations

import json

import bpy

from blenderkit import empty_scene, rna_values
from export_helpers import export
from joint_helpers import constraints, import_gltf

LOCKED = {"min": 0.0, "max": 0.0}
DESCRIPTIONS = [
    {
        "limits": [
            {"linearAxes": [0, 1, 2], **LOCKED},
            {"angularAxes": [1, 2], **LOCKED, "extras": {"note": "kept"}},
            {"angularAxes": [0], "min": -0.5, "max": 0.7, "stiffness": 40.0, "damping": 2.0},
        ],
        "drives": [
            {"type": "angular", "mode": "force", "axis": 0, "velocityTarget": 1.5, "damping": 3.0, "maxForce": 9.0},
            {"type": "linear", "mode": "acceleration", "axis": 1, "positionTarget": 0.25, "stiffness": 5.0},
        ],
        "extras": {"joint": 0},
    },
    {"limits": [{"linearAxes": [0, 1, 2], **LOCKED}]},
    {"drives": [{"type": "linear", "mode": "force", "axis": 2, "velocityTarget": -0.5, "damping": 1.0}]},
]
PAIRS = 9  # description n % 3: three joints per description


def _file(tmp_path, shared: bool):
    """``PAIRS`` body pairs, each joined at a frame node under its first body; ``shared``: three joints per
    description, else one copy of the description per joint (every joint stored item by item)."""
    nodes, roots = [], []
    shape = {"collider": {"geometry": {"shape": 0}}}
    for n in range(PAIRS):
        base = len(nodes)
        roots += [base, base + 2]
        nodes += [
            {"name": f"A{n}", "translation": [2.0 * n, 0.0, 0.0], "children": [base + 1]}
            | {"extensions": {"KHR_physics_rigid_bodies": {"motion": {"mass": 1.0}} | shape}},
            {
                "name": f"Frame{n}",
                "translation": [0.0, 0.5, 0.0],
                "extensions": {
                    "KHR_physics_rigid_bodies": {
                        "joint": {"connectedNode": base + 3, "joint": n % 3 if shared else n, "extras": {"n": n}}
                    }
                },
            },
            {"name": f"B{n}", "translation": [2.0 * n, 1.0, 0.0], "children": [base + 3]}
            | {"extensions": {"KHR_physics_rigid_bodies": {"motion": {"mass": 1.0}} | shape}},
            {"name": f"FrameB{n}", "translation": [0.0, -0.5, 0.0]},
        ]
    descriptions = [DESCRIPTIONS[n % 3] for n in range(3 if shared else PAIRS)]
    data = {
        "asset": {"version": "2.0"},
        "extensionsUsed": ["KHR_physics_rigid_bodies", "KHR_implicit_shapes"],
        "extensions": {
            "KHR_physics_rigid_bodies": {"physicsJoints": descriptions},
            "KHR_implicit_shapes": {"shapes": [{"type": "box", "box": {"size": [0.3, 0.3, 0.3]}}]},
        },
        "scene": 0,
        "scenes": [{"nodes": roots}],
        "nodes": nodes,
    }
    path = tmp_path / f"joints_{shared}.gltf"
    path.write_text(json.dumps(data))
    return path


def _scene(addon, path) -> dict:
    empty_scene()
    report = import_gltf(addon, path)
    assert report.counts["joints"] == PAIRS
    return {
        ob.name: (
            rna_values(ob.gltf_physics),
            ob.users,
            _constraint(ob.rigid_body_constraint),
            tuple(map(tuple, ob.matrix_world)),
        )
        for ob in bpy.data.objects
    }


def _constraint(c) -> dict | None:
    if c is None:
        return None
    return {p.identifier: _plain(getattr(c, p.identifier)) for p in c.bl_rna.properties if p.identifier != "rna_type"}


def _plain(value):
    return getattr(value, "name", value)


def test_shared_descriptions_store_what_one_description_per_joint_stores(clean, tmp_path):
    each = _scene(clean, _file(tmp_path, shared=False))
    shared = _scene(clean, _file(tmp_path, shared=True))
    assert shared.keys() == each.keys()
    for name in each:
        assert shared[name] == each[name], name
    joints = constraints("JOINT")
    assert len(joints) == PAIRS and len(constraints("MOTOR")) == 2 * PAIRS // 3  # one velocity drive in 0 and 2
    for ob in joints:
        pj = ob.gltf_physics.joint
        n = int(pj.node_a.name.removeprefix("Frame"))
        assert (pj.node_a.name, pj.node_b.name) == (f"Frame{n}", f"FrameB{n}")
        assert (len(pj.limits), len(pj.drives)) == [(3, 2), (1, 0), (0, 1)][n % 3]
    # a frame node's users: its collection and the world's constraint collection (the leaf joint node carries its
    # constraint), then the objects pointing at it: itself (its stored joint's node_a) and its MOTOR helper
    frame = bpy.data.objects["Frame0"]
    assert frame.rigid_body_constraint is not None and frame.gltf_physics.joint.is_node
    pointing = [ob for ob in bpy.data.objects if frame in (ob.gltf_physics.joint.node_a, ob.gltf_physics.joint.node_b)]
    assert sorted(ob.name for ob in pointing) == ["Frame0", "Frame0.motor0"]
    assert frame.users == 2 + len(pointing) == 4


def test_shared_descriptions_export_as_the_file_says(clean, tmp_path):
    path = _file(tmp_path, shared=True)
    empty_scene()
    import_gltf(clean, path)
    gltf = export(tmp_path / "out.gltf", "2026")
    source = json.loads(path.read_text())
    names = [node.get("name") for node in gltf["nodes"]]
    written = gltf["extensions"]["KHR_physics_rigid_bodies"]["physicsJoints"]
    for n in range(PAIRS):
        joint = gltf["nodes"][names.index(f"Frame{n}")]["extensions"]["KHR_physics_rigid_bodies"]["joint"]
        assert names[joint["connectedNode"]] == f"FrameB{n}"
        assert joint.get("extras") == {"n": n}
        description = written[joint["joint"]]
        expected = source["extensions"]["KHR_physics_rigid_bodies"]["physicsJoints"][n % 3]
        assert _no_defaults(description) == _no_defaults(expected)


def _no_defaults(description: dict) -> dict:
    """A description without the default damping / stiffness 0 the export writes out."""
    out = {}
    zero = ("damping", "stiffness")
    for key, items in description.items():
        if isinstance(items, list):
            items = [{k: v for k, v in item.items() if not (k in zero and v == 0)} for item in items]
        out[key] = items
    return out
