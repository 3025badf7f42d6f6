"""Shared by the export tests: run an export, and compare the physics of two glTF documents modulo node
renumbering (nodes matched by name) and the documented allowed losses (docs/export.md)."""

from __future__ import annotations

import json
import math
import pathlib

import bpy
import khronos

from blenderkit import empty_scene, submodule

REVISIONS = ("2026", "2024-10", "2024-07", "omi")
REL = 1e-5  # Blender stores the file's values in 32-bit float properties

# The allowed losses of import → export beyond those of the spec-model migration (docs/export.md, "Round trip").
# Each entry names one normalisation `canonical()` applies to both sides before comparing.
ALLOWED_LOSSES = {
    "precision": "numbers compare with a relative tolerance of 1e-5 (Blender keeps them as 32-bit floats)",
    "indices": "shapes, materials, filters and joint descriptions are compared by value (re-ordered, de-duplicated)",
    "mesh_identity": "a mesh geometry compares as 'a mesh' + convexHull + the geometry object's extras / extensions "
    "/ unknown keys (Blender re-encodes the mesh data; a 2024-07 mesh shape's own ones are not kept)",
    "unreachable_nodes": "physics on nodes that have no Blender object (nodes outside every scene, joints on bones) "
    "is lost; a body, collider or trigger on a bone is kept on its stand-in (io/mapping/bone_nodes.py)",
    "axis_order": "a limit's linearAxes / angularAxes compare as sets (Blender keeps them as three flags)",
    "joint_frames": "a joint whose frame nodes are not both exported as they were (legacy OMI pivot joints, joints "
    "with a world side) comes back on new attachment nodes: compared by description, enableCollision and bodies",
}


def export(path: pathlib.Path, revision: str, **options) -> dict:
    """Export the current scene with the given physics revision; the written JSON."""
    settings = bpy.context.scene.gltf_physics
    settings.export_revision = revision
    settings.export_physics = options.pop("physics", True)
    result = bpy.ops.export_scene.gltf(filepath=str(path), export_format="GLTF_SEPARATE", **options)
    assert result == {"FINISHED"}
    khronos.check(path)  # validated with the Khronos glTF-Validator when the session ends
    return json.loads(path.read_text())


def export_clean(path: pathlib.Path, revision: str, gltf_errors: list) -> dict:
    """``export``, then assert io_scene_gltf2 logged no error (``gltf_errors`` fixture; emptied either way)."""
    try:
        written = export(path, revision)
    finally:
        errors = list(gltf_errors)
        gltf_errors.clear()
    assert not errors, errors
    return written


def import_edit_export(addon, source: pathlib.Path, edit, out: pathlib.Path, revision: str = "2026") -> tuple:
    """Import ``source`` into an empty scene, run ``edit()``, export ``out`` (``.gltf``) in ``revision``: (the
    written JSON, strict: no NaN / Infinity; the export run's diagnostics; what ``edit`` returned)."""
    empty_scene()
    assert bpy.ops.import_scene.gltf(filepath=str(source)) == {"FINISHED"}
    done = edit()
    bpy.context.scene.gltf_physics.export_revision = revision
    assert bpy.ops.export_scene.gltf(filepath=str(out), export_format="GLTF_SEPARATE") == {"FINISHED"}
    khronos.check(out)

    def reject(constant: str):
        raise ValueError(f"{constant} in the written JSON")

    written = json.loads(out.read_text(encoding="utf-8"), parse_constant=reject)
    return written, list(last_export(addon).diagnostics), done


def last_export(addon):
    return submodule(addon, "io.hooks").last_report("export")


def _num(v):
    return round(float(v), 5) if isinstance(v, float | int) and not isinstance(v, bool) else v


def close(a, b) -> bool:
    """Deep equality with a relative float tolerance."""
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(close(a[k], b[k]) for k in a)
    if isinstance(a, list | tuple) and isinstance(b, list | tuple):
        return len(a) == len(b) and all(close(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, float | int) and isinstance(b, float | int) and not isinstance(a, bool):
        return math.isclose(float(a), float(b), rel_tol=REL, abs_tol=1e-6)
    return a == b


def node_names(gltf: dict) -> list[str]:
    """Names as Blender sees them: unnamed nodes import as ``Node_<index>``."""
    out = []
    for i, node in enumerate(gltf.get("nodes", [])):
        name = node.get("name") if isinstance(node, dict) else None
        out.append(name if isinstance(name, str) and name else f"Node_{i}")
    return out


def _plain(obj, drop=("source",)) -> object:
    """A dataclass as a dict (extras / extensions / unknown keys included)."""
    if obj is None:
        return None
    if isinstance(obj, list | tuple):
        return [_plain(o, drop) for o in obj]
    if not hasattr(obj, "__dataclass_fields__"):
        return obj
    out = {k: _plain(v, drop) for k, v in vars(obj).items() if k not in drop}
    for axes in ("linear_axes", "angular_axes"):  # allowed loss "axis_order"
        if out.get(axes) is not None:
            out[axes] = sorted(out[axes])
    return out


def _passthrough(obj) -> dict:
    return {"extras": obj.extras, "extensions": obj.extensions, "unknown": obj.unknown}


def _geometry(doc, geometry, gltf) -> object:
    if geometry is None:
        return None
    own = _passthrough(geometry)
    if geometry.shape is not None:
        shape = doc.shapes[geometry.shape]
        params = shape.params
        if params is not None and type(params).__name__ == "MeshShape":
            return {"mesh": True, "convex": params.convex_hull}  # allowed loss "mesh_identity"
        return {"shape": shape.type, "params": _plain(params), "name": shape.name, **_passthrough(shape), "own": own}
    return {"mesh": True, "convex": geometry.convex_hull, "own": own}  # allowed loss "mesh_identity"


def canonical(doc, gltf: dict, keep_joint_nodes: bool = True) -> dict:
    """Physics of ``doc`` keyed by node name, every reference resolved to values / names."""
    names = node_names(gltf)
    out: dict = {"nodes": {}, "joints": []}
    for index, physics in sorted(doc.nodes.items()):
        name = names[index] if 0 <= index < len(names) else f"#{index}"
        entry: dict = {}
        if physics.motion is not None:
            entry["motion"] = _plain(physics.motion)
        if physics.collider is not None:
            c = physics.collider
            entry["collider"] = {
                **_passthrough(c),
                "geometry": _geometry(doc, c.geometry, gltf),
                "material": _plain(doc.materials[c.material]) if c.material is not None else None,
                "filter": _plain(doc.filters[c.filter]) if c.filter is not None else None,
            }
        if physics.trigger is not None:
            t = physics.trigger
            entry["trigger"] = {
                **_passthrough(t),
                "geometry": _geometry(doc, t.geometry, gltf),
                "nodes": sorted(names[n] for n in t.nodes) if t.nodes else None,
                "filter": _plain(doc.filters[t.filter]) if t.filter is not None else None,
            }
        if physics.joint is not None:
            j = physics.joint
            joint = {
                "description": _plain(doc.joints[j.joint]) if 0 <= j.joint < len(doc.joints) else None,
                "enable_collision": j.enable_collision,
            }
            if keep_joint_nodes:
                joint["node"] = name
                joint["connected"] = names[j.connected_node] if 0 <= j.connected_node < len(names) else None
            out["joints"].append(joint)
        if entry:
            out["nodes"][name] = entry
    out["joints"].sort(key=lambda j: json.dumps(_rounded(j), sort_keys=True, default=str))
    return out


def _rounded(value):
    if isinstance(value, dict):
        return {k: _rounded(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_rounded(v) for v in value]
    if isinstance(value, float):
        return float(f"{value:.4g}")
    return value


def diff(expected: dict, actual: dict) -> list[str]:
    """Human-readable differences between two canonical forms (empty = equal)."""
    problems = []
    for name in sorted(set(expected["nodes"]) | set(actual["nodes"])):
        a, b = expected["nodes"].get(name), actual["nodes"].get(name)
        if not close(a, b):
            problems.append(f"node {name!r}: expected {a} got {b}")
    ja, jb = expected["joints"], actual["joints"]
    if not close(_json(ja), _json(jb)):
        problems.append(f"joints: expected {ja} got {jb}")
    return problems


def _json(value):
    return json.loads(json.dumps(value, default=str))
