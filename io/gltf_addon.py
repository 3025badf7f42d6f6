"""The one adapter for io_scene_gltf2 internals (imported lazily: the glTF add-on may be disabled).

Checked against io_scene_gltf2 4.2.83 (blender-v4.2-release), 4.5.51 (blender-v4.5-release) and 5.0.21
(blender-v5.0-release): ``io.com.gltf2_io_extensions`` kept its path through the 4.3 renames.
"""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from .diagnostics import all_printable, printable
from .gltf.addon_fixups import NODE_FIELDS
from .gltf.model import PHYSICS_EXTENSIONS


def extension_classes() -> tuple[type, type]:
    """``(Extension, ChildOfRootExtension)`` from the glTF add-on."""
    from io_scene_gltf2.io.com.gltf2_io_extensions import ChildOfRootExtension, Extension

    return Extension, ChildOfRootExtension


def handled_extensions() -> list[Any]:
    """``Extension`` objects that make the importer accept our names in ``extensionsRequired``."""
    extension, _ = extension_classes()
    return [extension(name=name, extension={}, required=True) for name in PHYSICS_EXTENSIONS]


def blender_version() -> tuple[int, int, int]:
    import bpy

    return tuple(bpy.app.version)


# --- import side -------------------------------------------------------------------------------------------------
# io_scene_gltf2 parses the file into ``gltf.data`` (gltf2_io classes) and keeps no raw JSON: the import keeps the dict
# its loader returns (``importer/parsed_json.py`` wraps ``importer_class().load_json``), else ``raw_json`` reads again.


def importer_class() -> type | None:
    """io_scene_gltf2's ``glTFImporter`` (its ``load_json`` parses .gltf and .glb; 4.2/4.5/5.0); None without it."""
    try:
        from io_scene_gltf2.io.imp.gltf2_io_gltf import glTFImporter
    except ImportError:
        return None
    return glTFImporter


def raw_json(gltf) -> dict:
    """The document as a plain JSON dict (re-read from ``gltf.filename``; .gltf and .glb).

    Uses the importer's own loaders (``glTFImporter.load_json`` / ``load_glb``, same names in 4.2/4.5/5.0); falls
    back to ``gltf.data.to_dict()`` when the file cannot be read again.
    """
    try:
        with open(gltf.filename, "rb") as handle:
            content = memoryview(handle.read())
        if bytes(content[:4]) == b"glTF":
            document, _ = gltf.load_glb(content)
        else:
            document = type(gltf).load_json(content)
        if isinstance(document, dict):
            return document
    except Exception:  # unreadable now, or an importer without these loaders: use the parsed data
        pass
    return gltf.data.to_dict()


def escape_names(gltf) -> dict[int, str]:
    """Make every ``name`` of ``gltf.data`` that io_scene_gltf2 turns into a Blender name printable (``printable``:
    a lone UTF-16 surrogate makes ``bpy.data.*.new`` raise and the whole import fail; control characters are
    escaped too). Call before the importer computes its vnodes. Returns node index → original name of the nodes
    whose name changed (kept for export)."""
    originals: dict[int, str] = {}
    for key, items in vars(gltf.data).items():
        if not isinstance(items, list):
            continue
        names = [getattr(item, "name", None) for item in items]
        if all_printable([name for name in names if isinstance(name, str)]):  # the usual list: nothing to escape
            continue
        for index, item in enumerate(items):
            name = getattr(item, "name", None)
            if isinstance(name, str) and printable(name) != name:
                item.name = printable(name)
                if key == "nodes":
                    originals[index] = name
    lights = ((getattr(gltf.data, "extensions", None) or {}).get("KHR_lights_punctual") or {}).get("lights")
    for light in lights if isinstance(lights, list) else ():
        if isinstance(light, dict) and isinstance(light.get("name"), str):
            light["name"] = printable(light["name"])
    return originals


def node_indices(gltf) -> dict[int, int]:
    """``id(gltf2_io.Node)`` → node index, for the importer's parsed nodes (``gltf.data.nodes``)."""
    return {id(node): i for i, node in enumerate(getattr(gltf.data, "nodes", None) or [])}


def child_objects(gltf, index: int, parent) -> list | None:
    """Objects of the importer's child vnodes of node ``index`` that are parented to ``parent``; None when the
    importer has no vnode for the node or it is not ``parent``'s."""
    vnodes = getattr(gltf, "vnodes", None) or {}
    vnode = vnodes.get(index)
    if vnode is None or getattr(vnode, "blender_object", None) != parent:
        return None
    out = []
    for key in getattr(vnode, "children", ()):
        child = getattr(vnodes.get(key), "blender_object", None)
        if child is not None and child.parent == parent:
            out.append(child)
    return out


def plain_empty(vnode) -> bool:
    """The vnode will become an Empty object (not an armature, no mesh, camera or light)."""
    if vnode.type != type(vnode).Object or vnode.is_arma:
        return False
    return all(getattr(vnode, key, None) is None for key in ("mesh_node_idx", "camera_node_idx", "light_node_idx"))


def give_mesh(gltf, vnode, gltf_node, index: int, mesh_name: str) -> bool:
    """Make the importer create node ``index`` (a plain Empty) as a mesh object holding the existing Blender mesh
    ``mesh_name``: a stand-in glTF mesh whose cached Blender mesh is that one (``create_mesh_object`` reuses it),
    pointed at by the node until ``take_mesh``. False when the node cannot take it (skinned)."""
    if getattr(gltf_node, "skin", None) is not None or getattr(gltf_node, "mesh", None) is not None:
        return False
    stand_in = getattr(gltf, "_gltf_physics_stand_in", None)
    if stand_in is None:
        stand_in = _StandInMesh(mesh_name, gltf.data.meshes is None)
        if gltf.data.meshes is None:
            gltf.data.meshes = []
        gltf.data.meshes.append(stand_in)
        gltf._gltf_physics_stand_in = stand_in
    gltf_node.mesh = len(gltf.data.meshes) - 1
    vnode.mesh_node_idx = index
    if not vnode.name:  # an unnamed node keeps the Empty's default name, not the mesh's
        vnode.name = vnode.default_name
        stand_in.unnamed.add(index)
    return True


def take_mesh(gltf, vnode, gltf_node, index: int) -> None:
    """Undo ``give_mesh`` on the node once its object exists (the file's node has no mesh)."""
    gltf_node.mesh = None
    vnode.mesh_node_idx = None
    stand_in = getattr(gltf, "_gltf_physics_stand_in", None)
    if stand_in is not None and index in stand_in.unnamed:
        vnode.name = None


def drop_stand_in(gltf) -> None:
    """Remove ``give_mesh``'s stand-in glTF mesh (after every node's object exists)."""
    stand_in = getattr(gltf, "_gltf_physics_stand_in", None)
    meshes = getattr(gltf.data, "meshes", None)
    if stand_in is not None and meshes and meshes[-1] is stand_in:
        meshes.pop()
        if stand_in.added_list:
            gltf.data.meshes = None
    gltf._gltf_physics_stand_in = None


class _StandInMesh:
    """What ``create_mesh_object`` reads of a glTF mesh: no shape keys, one cached Blender mesh for unskinned use."""

    def __init__(self, mesh_name: str, added_list: bool):
        self.added_list = added_list  # the file had no meshes: ``gltf.data.meshes`` goes back to None
        self.name = mesh_name
        self.shapekey_names = []
        self.blender_name = {(None,): mesh_name}
        self.unnamed: set[int] = set()  # nodes given the Empty's default name
        self.extras = None
        self.weight_animation_on_mesh = None


def node_object(gltf, index: int):
    """The Blender object of glTF node ``index``; None for bones, skipped and unknown nodes."""
    vnodes = getattr(gltf, "vnodes", None) or {}
    return getattr(vnodes.get(index), "blender_object", None)


def set_node_object(gltf, index: int, obj) -> None:
    """Point the importer's vnode at a replacement object (animations created later target it)."""
    vnode = (getattr(gltf, "vnodes", None) or {}).get(index)
    if vnode is not None:
        vnode.blender_object = obj


def _mesh_module():
    if blender_version() >= (4, 3, 0):  # 4.3 renamed blender/imp/gltf2_blender_mesh.py -> mesh.py (8db37273)
        from io_scene_gltf2.blender.imp import mesh as module
    else:
        from io_scene_gltf2.blender.imp import gltf2_blender_mesh as module
    return module


def blender_mesh(gltf, mesh_index: int):
    """A Blender mesh for glTF mesh ``mesh_index`` (unskinned): the importer's cached one, else built by it."""
    import bpy

    pymesh = gltf.data.meshes[mesh_index]
    cache = getattr(pymesh, "blender_name", None)
    if cache is None:
        cache = pymesh.blender_name = {}
    name = cache.get((None,))
    if name is not None and name in bpy.data.meshes:
        return bpy.data.meshes[name]
    mesh = _mesh_module().BlenderMesh.create(gltf, mesh_index, None)
    cache[(None,)] = mesh.name
    return mesh


def report_to_operator(gltf, level: str, message: str) -> None:
    """Queue a message for the import operator's report (``gltf.log`` popup buffer; 4.2/4.5/5.0): the operator
    reports it when it finishes (status bar and Info editor; printed in background mode). Not also written through
    io_scene_gltf2's console logger (``Log.info`` does both): once per run, and a logging call in a deep stack is
    ≈ 50 µs per file (``tests/bench/bench_export_small.py --parts``: ``hooks._report_export``).

    ``level`` is "INFO" or "WARNING"; never "ERROR" (that makes ``bpy.ops.import_scene.gltf`` raise in scripts and
    goes to the ``glTFImporter_errors`` logger). The message goes through ``diagnostics.printable``.
    """
    log = getattr(gltf, "log", None)
    message = printable(message)  # report() cannot encode a lone surrogate; a newline would split the line
    buffer = getattr(getattr(log, "popup_handler", None), "buffer", None)
    if isinstance(buffer, list):  # what ``Log.info(message, popup=True)`` queues
        buffer.append((level, message))
        return
    method = getattr(log, "warning" if level == "WARNING" else "info", None)
    if method is None:
        return
    try:
        method(message, popup=True)
    except TypeError:  # a Log without the popup argument
        method(message)


# --- export side -------------------------------------------------------------------------------------------------


def export_yup(export_settings) -> bool:
    """The export dialog's +Y Up option (``gltf_yup``; on when unknown)."""
    return bool(export_settings.get("gltf_yup", True)) if isinstance(export_settings, dict) else True


def tree_objects(vtree):
    """(vnode, Blender object or None) for every node of the exporter's tree (``gather_tree_filter_tag_hook``)."""
    for vnode in vtree.nodes.values():
        yield vnode, getattr(vnode, "blender_object", None)


def is_kept(vnode) -> bool:
    return bool(vnode.keep_tag)


def drop(vnode) -> None:
    """Leave the vnode out of the exported glTF."""
    vnode.keep_tag = False


def report_to_export_operator(export_settings, level: str, message: str) -> None:
    """Queue a message for the export operator (io_scene_gltf2's ``export_settings['log']`` popup buffer)."""
    log = export_settings.get("log") if isinstance(export_settings, dict) else None
    report_to_operator(SimpleNamespace(log=log), level, message)


def new_node(name: str, translation: list, rotation: list, scale) -> Any:
    """A ``gltf2_io.Node`` with only a name and a TRS (``scale`` None when it is (1, 1, 1))."""
    from io_scene_gltf2.io.com import gltf2_io

    unset = dict.fromkeys(("camera", "children", "extras", "matrix", "mesh", "skin", "weights"))
    scale = None if tuple(scale) == (1.0, 1.0, 1.0) else list(scale)
    return gltf2_io.Node(**unset, extensions={}, name=name, rotation=rotation, scale=scale, translation=translation)


def node_from_dict(data: dict) -> Any:
    """A ``gltf2_io.Node`` from a plain glTF node dict (written by the project's writers)."""
    from io_scene_gltf2.io.com import gltf2_io

    return gltf2_io.Node.from_dict(dict(data))


def primitives_mesh(name: str, positions, parts: list) -> Any:
    """A ``gltf2_io.Mesh`` flattened into the file like io_scene_gltf2's own (``BinaryData`` views): one POSITION
    accessor (float32 (n, 3), with its bounds) for every primitive of ``parts``, (indices: a uint16 / uint32 array
    or None for every vertex in order, glTF mode: None for TRIANGLES) each."""
    from io_scene_gltf2.io.com import gltf2_io

    if blender_version() >= (4, 3, 0):  # 4.3 renamed io/exp/gltf2_io_binary_data.py -> binary_data.py
        from io_scene_gltf2.io.exp.binary_data import BinaryData
    else:
        from io_scene_gltf2.io.exp.gltf2_io_binary_data import BinaryData

    def accessor(array, view: int, component: int, kind: str, high=None, low=None):  # view: ARRAY / ELEMENT_ARRAY
        data = BinaryData(array.tobytes(), view)
        return gltf2_io.Accessor(data, None, component, len(array), None, None, high, low, None, None, None, kind)

    position = accessor(positions, 34962, 5126, "VEC3", positions.max(axis=0).tolist(), positions.min(axis=0).tolist())
    primitives = []
    for indices, mode in parts:
        index = None if indices is None else accessor(indices, 34963, 5125 if indices.itemsize == 4 else 5123, "SCALAR")
        primitives.append(gltf2_io.MeshPrimitive({"POSITION": position}, None, None, index, None, mode, None))
    return gltf2_io.Mesh(extensions=None, extras=None, name=name, primitives=primitives, weights=None)


# --- export: physics JSON written after io_scene_gltf2 (``post_export_hook``) --------------------------------------
# ``blender/exp/export.py``: ``__export`` turns the plan into JSON (``Gltf.to_dict``) and runs ``__fix_json`` twice;
# ``io/exp/export.py::save_gltf`` encodes it (``gather_gltf_encoded_hook`` may change indent / separators) and
# writes the file; ``post_export_hook`` (4.5+, ``__init__.py``) is called after that. The JSON fix-ups themselves
# are copied in ``gltf/addon_fixups.py`` (bpy-free, unit-tested).


def can_write_after_export(export_settings) -> bool:
    """``post_export_hook`` exists (4.5+) and nothing rewrites the file after it is written (gltfpack)."""
    if blender_version() < (4, 5, 0) or not isinstance(export_settings, dict):
        return False
    known = export_settings.get("gltf_format") in ("GLB", "GLTF_SEPARATE", "GLTF_EMBEDDED")
    return known and bool(export_settings.get("gltf_filepath")) and not export_settings.get("gltf_use_gltfpack")


def written_file(export_settings) -> tuple[str, bool]:
    """(path of the written .gltf / .glb, is it a GLB)."""
    return export_settings["gltf_filepath"], export_settings["gltf_format"] == "GLB"


def json_layout(export_settings, gltf_format=None) -> tuple[Any, tuple[str, str]]:
    """(indent, separators) ``save_gltf`` encodes with: the ``gather_gltf_encoded_hook`` object once seen."""
    if gltf_format is not None:
        return gltf_format.indent, tuple(gltf_format.separators)
    return (None if export_settings.get("gltf_format") == "GLB" else "\t"), (",", ":")


def node_fields(node) -> dict:
    """The fields ``Node.to_dict`` writes of a ``gltf2_io.Node`` (a copy: the caller may set fields)."""
    fields = dict(vars(node))
    return fields if all(key in fields for key in NODE_FIELDS) else {k: getattr(node, k, None) for k in NODE_FIELDS}


_PLACEHOLDERS: dict[type, type] = {}  # gltf2_io.Node (new after a reload of the glTF add-on) → its subclass


def placeholder_nodes(markers: list[str]) -> list:
    """``gltf2_io.Node`` objects written as the marker strings (nodes whose JSON is added after the export):
    ``Gltf.to_dict`` takes whatever ``Node.to_dict`` returns; ``__fix_json`` and the encoder keep a string."""
    from io_scene_gltf2.io.com import gltf2_io

    cls = _PLACEHOLDERS.get(gltf2_io.Node)
    if cls is None:

        class PlaceholderNode(gltf2_io.Node):
            def to_dict(self):
                return self.extras

        cls = _PLACEHOLDERS[gltf2_io.Node] = PlaceholderNode
    nodes = [cls(*([None] * 12)) for _ in markers]
    for node, marker in zip(nodes, markers, strict=True):
        node.extras = marker
    return nodes


def is_plain_node(node) -> bool:
    """``node`` is a ``gltf2_io.Node`` itself (no subclass): ``held_node_class`` may take it over."""
    from io_scene_gltf2.io.com import gltf2_io

    return type(node) is gltf2_io.Node


def held_node_class(entries: dict[int, tuple[str, tuple]], snapshot) -> type:
    """A ``gltf2_io.Node`` subclass for plan nodes whose JSON is added after the export while they keep every field
    (other add-ons still see and may change them): ``to_dict`` gives the marker string of ``entries[id(node)]``
    while ``snapshot(node)`` still equals the one recorded there, else the node's own dict."""
    from io_scene_gltf2.io.com import gltf2_io

    base = gltf2_io.Node

    class HeldNode(base):
        def to_dict(self):
            entry = entries.get(id(self))
            return entry[0] if entry is not None and entry[1] == snapshot(self) else base.to_dict(self)

    return HeldNode


# --- dialogs -----------------------------------------------------------------------------------------------------


def register_export_draw(key: str, draw) -> None:
    """Show ``draw`` in the export dialog (None: stop showing it): 4.5 and 5.0 no longer auto-discover
    ``draw_export`` and read ``io_scene_gltf2.exporter_extension_layout_draw``; a disabled glTF add-on is not an
    error."""
    try:
        import io_scene_gltf2

        layouts = io_scene_gltf2.exporter_extension_layout_draw
    except (ImportError, AttributeError):
        return
    if draw is None:
        layouts.pop(key, None)
    else:
        layouts[key] = draw
