"""Everything the writers produce validates against the JSON schemas in ../shared/schemas (jsonschema + a
``referencing`` registry built from the schema folders).

Schema handling, explicitly:
* ``$id`` values are dropped and each schema is registered under its file name: the OMI joint schemas have ``$id``s
  that differ from the file names the ``$ref``s use, and two of them share one ``$id``.
* OMI_physics_joint root schema bug (specs.md §8.5): it requires ``constraints`` but defines ``physicsJoints``, so
  every current OMI joint file fails it.  We validate against a copy whose ``required`` is ``["physicsJoints"]``, and
  ``test_omi_joint_root_schema_bug_is_real`` shows that the unpatched schema rejects our (correct) output.
* KHR 2026 has no public schema: we use the 2024-10 schemas with ``geometry.node`` renamed to ``geometry.mesh``.
* KHR 2024-07 uses its own folder (collision shapes, limit ``oneOf``, no drive dependencies).
"""

import copy
import functools
import json

import jsonschema
import pytest
from referencing import Registry
from referencing.jsonschema import DRAFT202012

from testkit import SCHEMAS, corpus_files, corpus_id, read_json, submodule

pytestmark = pytest.mark.schemas  # every test here reads ../shared/schemas

migrate = submodule("io.gltf.migrate")
gltf_file = submodule("io.gltf.files")

FOLDERS = {
    "2026": ["glTF-2.0", "KHR_implicit_shapes", "KHR_physics_rigid_bodies"],
    "2024-10": ["glTF-2.0", "KHR_implicit_shapes", "KHR_physics_rigid_bodies"],
    "2024-07": ["glTF-2.0", "KHR_collision_shapes", "KHR_physics_rigid_bodies_2024-07_collision_shapes"],
    "omi": ["glTF-2.0", "OMI_physics_body", "OMI_physics_shape", "OMI_physics_joint"],
}
FILES = corpus_files("**/*.gltf")


def _schemas(folders: list[str]) -> dict[str, dict]:
    out = {}
    for folder in folders:
        base = SCHEMAS / folder
        for path in sorted(base.glob("schema/*.json")) + sorted(base.glob("*.schema.json")):
            contents = read_json(path)
            contents.pop("$id", None)
            out[path.name] = contents
    return out


def _patch(target: str, schemas: dict[str, dict]) -> dict[str, dict]:
    schemas = copy.deepcopy(schemas)
    if target == "2026":
        geometry = schemas["geometry.schema.json"]
        geometry["properties"]["mesh"] = geometry["properties"].pop("node")
        geometry["properties"]["mesh"]["description"] = "The index of a mesh providing the geometry (2026)."
        geometry["oneOf"] = [{"required": ["shape"]}, {"required": ["mesh"]}]
    if target == "omi":
        schemas["glTF.OMI_physics_joint.schema.json"]["required"] = ["physicsJoints"]
    return schemas


@functools.cache
def registry(target: str, patched: bool = True) -> Registry:
    schemas = _schemas(FOLDERS[target])
    if patched:
        schemas = _patch(target, schemas)
    return Registry().with_resources((name, DRAFT202012.create_resource(s)) for name, s in schemas.items())


def schema_errors(target: str, file_name: str, instance, patched: bool = True) -> list[tuple[str, str]]:
    """(JSON pointer inside ``instance``, message) of every schema error."""
    validator = jsonschema.Draft202012Validator({"$ref": file_name}, registry=registry(target, patched))
    return [("".join(f"/{p}" for p in e.absolute_path), e.message) for e in validator.iter_errors(instance)]


def check(target: str, file_name: str, instance, patched: bool = True) -> list[str]:
    return [f"{where}: {message}" for where, message in schema_errors(target, file_name, instance, patched)]


def written_objects(target: str, gltf: dict):
    """(schema file, object, where) for every physics object in a migrated document."""
    exts = gltf.get("extensions", {})
    for name, obj in exts.items():
        if name in migrate.PHYSICS_EXTENSIONS:
            yield f"glTF.{name}.schema.json", obj, f"/extensions/{name}"
    for i, node in enumerate(gltf.get("nodes", [])):
        for name, obj in node.get("extensions", {}).items():
            if name in migrate.PHYSICS_EXTENSIONS:
                yield f"node.{name}.schema.json", obj, f"/nodes/{i}/extensions/{name}"
    for i, shape in enumerate(exts.get("KHR_collision_shapes", {}).get("shapes", [])):
        if "KHR_physics_rigid_bodies" in shape.get("extensions", {}):
            yield (
                "shape.KHR_physics_rigid_bodies.schema.json",
                shape["extensions"]["KHR_physics_rigid_bodies"],
                f"/extensions/KHR_collision_shapes/shapes/{i}",
            )


@functools.cache
def core_valid(path) -> bool:
    return not check("2026", "glTF.schema.json", read_json(path))


@pytest.mark.corpus
@pytest.mark.parametrize("target", migrate.TARGETS)
@pytest.mark.parametrize("path", FILES, ids=corpus_id)
def test_written_physics_validates_against_schemas(path, target):
    """Schema errors are allowed only inside an object the writer announced with PHYSICS_WRITE_INVALID_VALUE
    (a value read from an invalid source, e.g. a degenerate shape or KHR mass 0, written unchanged)."""
    new_json, diags = migrate.migrate(read_json(path), target)
    announced = [d.pointer for d in diags if d.code == "PHYSICS_WRITE_INVALID_VALUE"]
    problems = []
    for schema_name, obj, where in written_objects(target, new_json):
        for inner, message in schema_errors(target, schema_name, obj):
            full = where + inner
            if not any(full == a or full.startswith(a + "/") for a in announced):
                problems.append(f"{full}: {message}")
    if core_valid(path):  # the whole document against the glTF core schema, when the source passes it
        problems += [f"core: {p}" for p in check(target, "glTF.schema.json", new_json)]
    assert not problems, "\n".join(problems[:20])


def test_khr_2026_schema_patch_accepts_mesh_and_rejects_node():
    assert not check("2026", "geometry.schema.json", {"mesh": 0, "convexHull": True})
    assert check("2026", "geometry.schema.json", {"node": 0})
    assert not check("2024-10", "geometry.schema.json", {"node": 0})


@pytest.mark.corpus
def test_omi_joint_root_schema_bug_is_real():
    """specs §8.5: the published OMI_physics_joint root schema requires 'constraints'; current files fail it."""
    files = [p for p in FILES if p.name == "simple_joint.gltf" and "omigroup-gltf-extensions/" in str(p)]
    if not files:
        pytest.skip("corpus absent")
    new_json, _ = migrate.migrate(read_json(files[0]), "omi")
    root = new_json["extensions"]["OMI_physics_joint"]
    assert root["physicsJoints"]
    assert any("constraints" in p for p in check("omi", "glTF.OMI_physics_joint.schema.json", root, patched=False))
    assert not check("omi", "glTF.OMI_physics_joint.schema.json", root)


def test_schema_registry_is_strict():
    """The registry really validates: a negative sphere radius and a limit with both axis lists are rejected."""
    shape = {"type": "sphere", "sphere": {"radius": -1}}
    assert check("2024-10", "glTF.KHR_implicit_shapes.shape.schema.json", shape)
    limit = {"linearAxes": [0], "angularAxes": [1]}
    assert check("2024-10", "glTF.KHR_physics_rigid_bodies.joint.limit.schema.json", limit)
    assert check("2024-07", "glTF.KHR_physics_rigid_bodies.joint.limit.schema.json", limit)
    json.dumps(limit)
