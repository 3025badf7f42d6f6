"""What a glTF → glTF conversion must keep outside the physics extensions (docs/convert.md, "What a conversion
keeps"), as one comparable summary of a glTF document.

Compared, by name (unnamed objects cannot be matched across a re-export and are left out):

* every ``extras``: scenes, uniquely named nodes, their meshes (but ``targetNames``, which io_scene_gltf2 reads as
  morph-target names and writes for shape keys only), materials, cameras;
* the node tree (parent names); each node's transform (to 1e-4, quaternion sign ignored), camera type, light type,
  skin; the vertex attributes of its mesh (the input's ⊆ the output's, but ``TANGENT``: Blender recomputes tangents
  from the UVs) and its named materials — not for a skinned node or a skin joint or its ancestor (a bone),
  whose mesh io_scene_gltf2 moves to an object of its own;
* each material's base colour, transparency (opaque or not: Blender 4.2+ may write BLEND back as MASK) and
  double-sidedness; camera types; light types and colours; animation and skin counts; the ``extensionsUsed``
  io_scene_gltf2 carries (``CARRIED_PREFIXES``; ``convert`` reports the others as ``CONVERT_CONTENT_NOT_KEPT``).

Not compared, because io_scene_gltf2 legitimately rewrites them: accessor / buffer layout, vertex order and counts,
primitives of one material merged into one, the names Blender gives (``Cube.001`` → ``Cube.005``, an unnamed scene
→ ``Scene``, an unnamed material → ``Material_0``), node order and indices, the generator, light intensities (unit
conversions), root-level ``extras``, images no material uses (io_scene_gltf2 writes only the ones its materials
use), the joints of a skin (Blender exports every bone of the armature).
"""

from __future__ import annotations

import math

PHYSICS_PREFIXES = ("KHR_physics_", "KHR_implicit_shapes", "KHR_collision_shapes", "OMI_physics_", "OMI_collider")
#: Extensions io_scene_gltf2 imports and exports again (its ``io/imp`` and ``blender/exp`` handle them).
CARRIED_PREFIXES = ("KHR_materials_", "KHR_texture_transform", "KHR_lights_punctual", "KHR_mesh_quantization")


def _named(items) -> dict:
    return {item["name"]: item for item in items or [] if isinstance(item, dict) and item.get("name")}


def _round(values, digits: int = 4) -> tuple:
    return tuple(round(float(v), digits) + 0.0 for v in values)


class Close(tuple):
    """A vector compared to 1e-4 (relative or absolute): io_scene_gltf2 re-derives transforms in float32."""

    def __eq__(self, other: object) -> bool:
        return len(self) == len(other) and all(
            math.isclose(a, b, rel_tol=1e-4, abs_tol=1e-4) for a, b in zip(self, other, strict=True)
        )

    def __ne__(self, other: object) -> bool:
        return not self == other

    __hash__ = tuple.__hash__


def _rotation(node: dict) -> tuple:
    q = [float(v) for v in node.get("rotation", (0.0, 0.0, 0.0, 1.0))]
    if q[3] < 0 or (q[3] == 0 and next((v for v in q if v != 0), 0) < 0):
        q = [-v for v in q]
    norm = math.sqrt(sum(v * v for v in q)) or 1.0
    return _round([v / norm for v in q])


def _mesh_extras(extras):
    """A mesh's ``extras`` without ``targetNames``: io_scene_gltf2 reads it as the morph-target names and writes it
    for shape keys only (an empty list is not written again)."""
    if isinstance(extras, dict) and "targetNames" in extras:
        extras = {k: v for k, v in extras.items() if k != "targetNames"} or None
    return extras


def _lights(document: dict) -> list:
    return (document.get("extensions") or {}).get("KHR_lights_punctual", {}).get("lights", [])


def summary(document: dict) -> dict:
    """The comparable summary of ``document`` (see the module docstring)."""
    nodes, meshes = document.get("nodes") or [], document.get("meshes") or []
    materials, cameras, lights = document.get("materials") or [], document.get("cameras") or [], _lights(document)
    parent = {child: i for i, node in enumerate(nodes) for child in node.get("children", [])}

    def name_of(items, index):
        return items[index].get("name") if isinstance(index, int) and 0 <= index < len(items) else None

    def mesh_of(index) -> dict | None:
        if not isinstance(index, int) or not 0 <= index < len(meshes):
            return None
        primitives = meshes[index].get("primitives", [])
        return {
            "extras": _mesh_extras(meshes[index].get("extras")),
            "attributes": sorted({a for p in primitives for a in p.get("attributes", {})}),
            "materials": sorted({name_of(materials, p.get("material")) or "" for p in primitives} - {""}),
        }

    names = [node.get("name") for node in nodes]
    #: skin joints (and their ancestors) become bones: a bone's mesh becomes an object of another name parented to it
    bones = {j for skin in document.get("skins") or [] for j in skin.get("joints", []) if isinstance(j, int)}
    for joint in list(bones):  # and their ancestors: io_scene_gltf2 builds the armature down from them
        while joint in parent:
            joint = parent[joint]
            bones.add(joint)
    out_nodes = {}
    for i, node in enumerate(nodes):
        if not node.get("name") or names.count(node["name"]) > 1:  # only a unique name identifies a node
            continue
        light = (node.get("extensions") or {}).get("KHR_lights_punctual", {}).get("light")
        out_nodes[node["name"]] = {
            "extras": node.get("extras"),
            "parent": name_of(nodes, parent.get(i)),
            "mesh": mesh_of(node.get("mesh")) if "skin" not in node and i not in bones else None,
            "camera": (cameras[node["camera"]].get("type") if "camera" in node else None),
            "light": (lights[light].get("type") if isinstance(light, int) and light < len(lights) else None),
            "skin": "skin" in node,
            "translation": Close(node.get("translation", (0.0, 0.0, 0.0))),
            "rotation": Close(_rotation(node)),
            "scale": Close(node.get("scale", (1.0, 1.0, 1.0))),
        }
    out_materials = {
        name: {
            "extras": material.get("extras"),
            "baseColorFactor": _round(material.get("pbrMetallicRoughness", {}).get("baseColorFactor", (1, 1, 1, 1)), 3),
            "transparent": material.get("alphaMode", "OPAQUE") != "OPAQUE",  # BLEND may come back as MASK
            "doubleSided": bool(material.get("doubleSided", False)),
        }
        for name, material in _named(materials).items()
    }
    used = {e for e in document.get("extensionsUsed", []) if e.startswith(CARRIED_PREFIXES)}
    return {
        "scenes": sorted(repr(s.get("extras")) for s in document.get("scenes") or []),
        "nodes": out_nodes,
        "materials": out_materials,
        "cameras": sorted((c.get("type"), repr(c.get("extras"))) for c in cameras),
        "lights": sorted((light.get("type"), _round(light.get("color", (1, 1, 1)), 3)) for light in lights),
        "animations": len(document.get("animations") or []),
        "skins": len(document.get("skins") or []),
        "extensionsUsed": used,
    }


def differences(before: dict, after: dict) -> list[str]:
    """What of ``before``'s summary ``after`` does not keep (empty: everything kept)."""
    a, b = summary(before), summary(after)
    out = []
    for key in ("scenes", "cameras", "lights", "animations", "skins"):
        if a[key] != b[key]:
            out.append(f"{key}: {a[key]!r} -> {b[key]!r}")
    if not a["extensionsUsed"] <= b["extensionsUsed"]:
        out.append(f"extensionsUsed lost {sorted(a['extensionsUsed'] - b['extensionsUsed'])}")
    for group in ("nodes", "materials"):
        for name, item in a[group].items():
            other = b[group].get(name)
            if other is None:
                out.append(f"{group} {name!r} missing")
                continue
            for field, value in item.items():
                if field == "mesh" and other["skin"] and not item["skin"]:
                    continue  # skinned on the way out (an armature's mesh): the exporter moves its mesh
                if field == "skin" and other["skin"] and not value:
                    continue
                if field == "mesh" and value is not None and other[field] is not None:
                    wanted = set(value["attributes"]) - {"TANGENT"}  # Blender recomputes tangents from the UVs
                    kept = wanted <= set(other[field]["attributes"])
                    kept = kept and set(value["materials"]) <= set(other[field]["materials"])  # unnamed ones get names
                    if not kept or value["extras"] != other[field]["extras"]:
                        out.append(f"{group} {name!r} mesh: {value!r} -> {other[field]!r}")
                elif other[field] != value:
                    out.append(f"{group} {name!r} {field}: {value!r} -> {other[field]!r}")
    return out
