"""Migration of every corpus asset to every target and back keeps every value the target can hold.

``facts`` flattens the physics of a document into comparable values with references resolved (a collider's
geometry as shape parameters or (mesh, convex hull), its material and filter as values, joints by the bodies and
frames they connect).  Every difference between the source and the migrated (or migrated-and-back) document must
fall into a loss category listed in ``ALLOWED`` for its (source family, target) pair.
"""

import khronos
import pytest

from testkit import corpus_files, corpus_id, read_json, submodule

migrate = submodule("io.gltf.migrate")
parse = submodule("io.gltf.parse")
model = submodule("io.gltf.model")
extensions = submodule("io.gltf.extensions")
nodes_mod = submodule("io.gltf.nodes")

FILES = corpus_files("**/*.gltf")
KHR_ONLY_LOSSES = {"plane_shape"}
ALLOWED = {
    # source family, target: categories of facts that may change
    ("KHR", "2026"): {"drive_gain_without_target", "mesh_skin_weights", "invalid_combine"},
    ("KHR", "2024-10"): {"drive_gain_without_target", "mesh_skin_weights", "invalid_combine"},
    ("KHR", "2024-07"): {"plane_shape", "invalid_combine"},
    ("KHR", "omi"): {
        "mass_absent",
        "mass_zero",
        "com_computed",
        "inertia_zero",
        "plane_shape",
        "mesh_skin_weights",
        "unknown_shape_type",
        "invalid_combine",
        "compound_trigger_filter",
    },
    ("OMI", "2026"): {"static_motion", "grouping_collider", "invalid_combine"},
    ("OMI", "2024-10"): {"static_motion", "grouping_collider", "invalid_combine"},
    ("OMI", "2024-07"): {"static_motion", "grouping_collider", "invalid_combine"},
    ("OMI", "omi"): {"invalid_combine"},
}
NATIVE = {extensions.REV_KHR_2026: "2026", extensions.REV_KHR_2024_10: "2024-10", extensions.REV_KHR_2024_07: "2024-07"}


def _round(value):
    if isinstance(value, float):
        return round(value, 5) + 0.0
    if isinstance(value, tuple | list):
        return tuple(_round(v) for v in value)
    return value


def _geometry(doc, gltf, geometry):
    if geometry.mesh is not None:
        return ("mesh", geometry.mesh, geometry.convex_hull)
    if geometry.node is not None:
        return ("mesh", gltf["nodes"][geometry.node].get("mesh"), geometry.convex_hull)
    shape = doc.shapes[geometry.shape]
    if isinstance(shape.params, model.MeshShape):
        return ("mesh", shape.params.mesh, shape.params.convex_hull)
    params = (
        ()
        if shape.params is None
        else tuple(_round(v) for k, v in vars(shape.params).items() if k not in ("extras", "extensions", "unknown"))
    )
    return ("shape", shape.type, params)


def _plain(obj, skip=()):
    return tuple((k, _round(v)) for k, v in sorted(vars(obj).items()) if k not in skip and k != "source")


def _node_frame(node: dict) -> tuple:
    return _plain(model.Frame(**{k: tuple(node[k]) for k in ("translation", "rotation", "scale")}))


def facts(gltf: dict, original_nodes: int) -> dict:
    doc = parse.parse_gltf(gltf).document
    nodes = gltf.get("nodes", [])
    parents = nodes_mod.parent_map(nodes)
    out = {}
    for index, node in doc.nodes.items():
        if node.motion is not None and index < original_nodes:
            for key, value in _plain(node.motion):
                out[f"{index}/motion/{key}"] = value
        for key in ("collider", "trigger"):
            part = getattr(node, key)
            if part is None or index >= original_nodes:
                continue
            geometry = part.geometry
            out[f"{index}/{key}/geometry"] = None if geometry is None else _geometry(doc, gltf, geometry)
            if key == "trigger" and geometry is None:
                nodes_list = part.nodes
                if nodes_list is None:  # OMI grouping trigger = compound of descendant simple triggers
                    desc = [d for d in range(len(nodes)) if index in nodes_mod.ancestors(d, parents)]
                    nodes_list = [
                        d
                        for d in desc
                        if d in doc.nodes
                        and doc.nodes[d].trigger is not None
                        and doc.nodes[d].trigger.geometry is not None
                    ]
                out[f"{index}/trigger/nodes"] = tuple(sorted(nodes_list))
            if getattr(part, "material", None) is not None:
                out[f"{index}/{key}/material"] = _plain(doc.materials[part.material], ("name",))
            if part.filter is not None:
                out[f"{index}/{key}/filter"] = _plain(doc.filters[part.filter], ("name",))
            out[f"{index}/{key}/extras"] = (part.extras, tuple(sorted(part.unknown)))
        if node.joint is not None:
            joint = node.joint
            if joint.legacy_pivot is not None:
                pivot = joint.legacy_pivot
                key = (pivot.body_a, pivot.body_b, _plain(pivot.frame_a), _plain(pivot.frame_b))
            elif index >= original_nodes:
                key = (
                    parents[index],
                    parents[joint.connected_node],
                    _node_frame(nodes[index]),
                    _node_frame(nodes[joint.connected_node]),
                )
            else:
                key = (index, joint.connected_node)
            desc = doc.joints[joint.joint]
            out[f"joint{key}"] = (
                joint.enable_collision,
                tuple(_plain(x) for x in desc.limits),
                tuple(_plain(x) for x in desc.drives),
            )
    return out


def classify(key: str, before, after, source: dict) -> str:
    """The loss category of one changed fact (``source``: all facts of the source document)."""
    field = key.rsplit("/", 1)[-1]
    owner = key.rsplit("/", 1)[0]
    if "/motion/" in key and source.get(f"{owner}/kind") == "static" and after is None:
        return "static_motion"
    if "/collider/" in key and source.get(f"{owner}/geometry", 0) is None and after is None:
        return "grouping_collider"
    if "/motion/" in key:
        if (field == "kind" and before == "static") or (after is None and "static" in str(before)):
            return "static_motion"
        if field == "mass":
            return "mass_absent" if before is None else "mass_zero" if before == 0.0 else "other"
        if field == "center_of_mass" and before is None:
            return "com_computed"
        if field in ("inertia_diagonal", "inertia_orientation"):
            return "inertia_zero"
        return "static_motion" if after is None else "other"
    if key.endswith("collider/geometry") and before is None:
        return "grouping_collider"
    if key.endswith("/material") and "INVALID" in str(before):
        return "invalid_combine"
    if key.endswith("/geometry") and isinstance(before, tuple) and before[:2] == ("shape", "plane"):
        return "plane_shape"
    if key.endswith("/geometry") and isinstance(before, tuple) and before[0] == "shape" and before[2] == ():
        return "unknown_shape_type"
    if key.endswith("trigger/filter"):
        return "compound_trigger_filter"
    if key.startswith("joint") and before is not None and after is not None and before[1:2] == after[1:2]:
        return "drive_gain_without_target"
    if (
        ("/collider/" in key or "/trigger/" in key)
        and after is None
        and "plane" in str(source.get(f"{owner}/geometry"))
    ):
        return "plane_shape"
    return "other"


def family(doc) -> str:
    return "OMI" if doc.revisions & set(extensions.OMI_REVISIONS) else "KHR"


def native_target(doc) -> str:
    if doc.revisions & set(extensions.OMI_REVISIONS):
        return "omi"
    for rev in (extensions.REV_KHR_2026, extensions.REV_KHR_2024_10, extensions.REV_KHR_2024_07):
        if rev in doc.revisions:
            return NATIVE[rev]
    return "2026"


def _losses(before: dict, after: dict) -> dict[str, list]:
    out: dict[str, list] = {}
    for key in sorted(set(before) | set(after)):
        if before.get(key) != after.get(key):
            category = classify(key, before.get(key), after.get(key), before)
            out.setdefault(category, []).append((key, before.get(key), after.get(key)))
    return out


@pytest.mark.corpus
@pytest.mark.parametrize("target", migrate.TARGETS)
@pytest.mark.parametrize("path", FILES, ids=corpus_id)
def test_migration_keeps_what_the_target_can_hold(path, target):
    source = read_json(path)
    doc = parse.parse_gltf(source).document
    count = len(source.get("nodes", []))
    before = facts(source, count)
    migrated, _ = migrate.migrate(source, target)
    khronos.check_json(migrated, path)  # the Khronos glTF-Validator: no error the source does not have
    back, _ = migrate.migrate(migrated, native_target(doc))
    allowed = ALLOWED[(family(doc), target)]
    for label, result in (("migrated", migrated), ("and back", back)):
        losses = _losses(before, facts(result, count))
        unexpected = {k: v[:3] for k, v in losses.items() if k not in allowed}
        assert not unexpected, f"{label}: {unexpected}"


@pytest.mark.corpus
def test_migration_really_changes_the_revision():
    files = [p for p in FILES if p.name == "RigidBodies_ColliderTypeMatrix_35.gltf"]
    if not files:
        pytest.skip("corpus absent")
    source = read_json(files[0])
    for target, revision in (
        ("2026", extensions.REV_KHR_2026),
        ("2024-07", extensions.REV_KHR_2024_07),
        ("omi", extensions.REV_OMI),
    ):
        migrated, _ = migrate.migrate(source, target)
        assert revision in parse.parse_gltf(migrated).document.revisions
        used = [n for n in migrated["extensionsUsed"] if n in migrate.PHYSICS_EXTENSIONS]
        assert used and not [n for n in migrated.get("extensionsRequired", []) if n in migrate.PHYSICS_EXTENSIONS]
    # non-physics content is unchanged
    migrated, _ = migrate.migrate(source, "omi")
    stripped = migrate.strip_physics(source)
    for key in ("accessors", "bufferViews", "buffers", "meshes", "scenes", "asset"):
        assert migrated.get(key) == stripped.get(key)
