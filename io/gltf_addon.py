"""The one adapter for io_scene_gltf2 internals (imported lazily: the glTF add-on may be disabled).

Checked against io_scene_gltf2 4.2.83, 4.5.51, 5.0.21, 5.2.41 and 5.3.43 (``blender-vX.Y-release``).

**Capability probes.** Every internal the import relies on beyond the public hooks is used only after a probe of the
running io_scene_gltf2 says it behaves as expected (``capable``): what the probe reads and calls, never a version
list. A probe runs once per io_scene_gltf2 module object (a reload probes again). When one fails, the import takes
the path through the public hooks only (slower, the same Blender state) and says so once in the console:

======================  ==========================================================  ===============================
probe                   what it checks                                              public-hook path when it fails
======================  ==========================================================  ===============================
``stand_in_mesh``       ``create_mesh_object`` builds a mesh object from a stand-in  the Empty is replaced by a mesh
                        glTF mesh whose Blender mesh is cached (placeholders)        object after the nodes
``vnode_objects``       ``gltf.vnodes[i].blender_object`` is the object the node     node objects (and the vnodes to
                        hooks were given, and can be pointed at another one          point at a replacement) recorded
                                                                                    from the node hooks' arguments
``mesh_builder``        ``BlenderMesh.create`` builds a glTF mesh no node renders    geometry read from the file's
                                                                                    accessors (``gltf.meshes``)
``json_loaders``        ``glTFImporter.load_json`` / ``load_glb`` parse the file      the file read and parsed again
                                                                                    by ``gltf.files``
``operator_log``        ``gltf.log.popup_handler.buffer`` queues operator reports    the console
``extension_class``     ``Extension`` objects for ``extensionsRequired``              objects with the same ``name``
``bone_vnodes``         a bone vnode's ``blender_bone_name`` is a bone of the         the bone named as the node in
                        armature object of its ``bone_arma`` vnode                   the one imported armature that
                                                                                    has such a bone
======================  ==========================================================  ===============================

``GLTF_PHYSICS_PROBES_FAIL=1`` in the environment (or ``probes_failing()``) makes every probe fail: the tests run
the import both ways and compare the Blender state.
"""

from __future__ import annotations

import contextlib
import os
import sys
import weakref
from collections.abc import Callable, Iterator
from types import SimpleNamespace
from typing import Any, ClassVar

from .diagnostics import all_printable, printable
from .gltf.extensions import PHYSICS_EXTENSIONS

FAIL_VARIABLE = "GLTF_PHYSICS_PROBES_FAIL"
_PROBED: dict[tuple[str, int], bool] = {}  # (probe, id of the io_scene_gltf2 module) → it passed
_TOLD: set[tuple[str, int]] = set()  # probes whose failure was printed (once per io_scene_gltf2 module)
_FORCED: list[bool] = [False]
FALLBACKS = {
    "stand_in_mesh": "Empties with physics are replaced by mesh objects after the nodes are created",
    "vnode_objects": "node objects are taken from the node hooks' arguments",
    "mesh_builder": "collision meshes no node renders are read from the file's accessors",
    "json_loaders": "the file is read again by glTF Physics",
    "operator_log": "import messages go to the console only",
    "extension_class": "physics extensions in extensionsRequired are declared with plain objects",
    "bone_vnodes": "the bone of a node is found by the node's name",
}


def _addon_key() -> int:
    return id(sys.modules.get("io_scene_gltf2"))


def capable(name: str, check: Callable[[], object]) -> bool:
    """Whether the running io_scene_gltf2 passes probe ``name`` (``check()`` truthy and not raising). Probed once per
    io_scene_gltf2 module; a failure is printed once, with the path taken instead (``FALLBACKS``)."""
    key = (name, _addon_key())
    if _FORCED[0] or os.environ.get(FAIL_VARIABLE) == "1":
        passed = False
    else:
        passed = _PROBED.get(key)
        if passed is None:
            try:
                passed = bool(check())
            except Exception:  # any surprise in a probe is a failed probe, never the import's problem
                passed = False
            _PROBED[key] = passed
    if not passed and key not in _TOLD:
        _TOLD.add(key)
        print(f"glTF Physics: io_scene_gltf2 {_addon_version()} failed the '{name}' probe; {FALLBACKS[name]} (slower)")
    return passed


@contextlib.contextmanager
def probes_failing() -> Iterator[None]:
    """Every probe fails inside the block (tests of the public-hook paths)."""
    before = _FORCED[0]
    _FORCED[0] = True
    try:
        yield
    finally:
        _FORCED[0] = before


def _addon_version() -> str:
    info = getattr(sys.modules.get("io_scene_gltf2"), "bl_info", None) or {}
    version = info.get("version") if isinstance(info, dict) else None
    return ".".join(map(str, version)) if isinstance(version, tuple) else "(unknown version)"


def _node_module():
    """``blender/imp/node.py`` (``gltf2_blender_node.py`` before 4.3)."""
    try:
        from io_scene_gltf2.blender.imp import node as module
    except ImportError:
        from io_scene_gltf2.blender.imp import gltf2_blender_node as module
    return module


def _mesh_module():
    """``blender/imp/mesh.py`` (``gltf2_blender_mesh.py`` before 4.3)."""
    try:
        from io_scene_gltf2.blender.imp import mesh as module
    except ImportError:
        from io_scene_gltf2.blender.imp import gltf2_blender_mesh as module
    return module


def _tree_module():
    """``blender/exp/tree.py``, or None (``gltf2_blender_gather_tree.py`` before 4.3, which sorts nothing)."""
    try:
        from io_scene_gltf2.blender.exp import tree as module
    except ImportError:
        return None
    return module


class _Run:
    """What the adapter keeps for one import (``run_state(gltf)``; gone with io_scene_gltf2's importer object)."""

    def __init__(self):
        self.stand_in = None  # give_mesh's stand-in glTF mesh
        self.objects: dict[int, Any] = {}  # node index → object, from the node hooks (``vnode_objects`` failed)
        self.hook_vnodes: dict[int, Any] = {}  # node index → the vnode the node hooks were given
        self.node_index: dict[int, int] | None = None


_RUNS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def run_state(gltf) -> _Run:
    state = _RUNS.get(gltf)
    if state is None:
        state = _RUNS[gltf] = _Run()
    return state


def extension_classes() -> tuple[type, type]:
    """``(Extension, ChildOfRootExtension)`` from the glTF add-on."""
    from io_scene_gltf2.io.com.gltf2_io_extensions import ChildOfRootExtension, Extension

    return Extension, ChildOfRootExtension


class _DeclaredExtension:
    """What io_scene_gltf2's import reads of a user extension's ``extensions`` entries: the ``name``."""

    def __init__(self, name: str):
        self.name = name
        self.extension: dict = {}
        self.required = True


def handled_extensions() -> list[Any]:
    """``Extension`` objects that make the importer accept our names in ``extensionsRequired`` (plain objects with
    the same ``name`` when the class is not there)."""
    if capable("extension_class", lambda: extension_classes()[0](name="probe", extension={}, required=True).name):
        extension, _ = extension_classes()
        return [extension(name=name, extension={}, required=True) for name in PHYSICS_EXTENSIONS]
    return [_DeclaredExtension(name) for name in PHYSICS_EXTENSIONS]


def blender_version() -> tuple[int, int, int]:
    import bpy

    return tuple(bpy.app.version)


# --- import side -------------------------------------------------------------------------------------------------
# io_scene_gltf2 parses the file into ``gltf.data`` (gltf2_io classes) and keeps no raw JSON: ``raw_json`` reads the
# file again with the importer's own loaders (the physics needs the JSON as written, extras and unknown keys included).


def importer_class() -> type | None:
    """io_scene_gltf2's ``glTFImporter`` when its loaders pass the ``json_loaders`` probe (``load_json`` parses a
    .gltf's bytes into a dict, ``load_glb`` exists); None otherwise (the file is read again by ``gltf.files``)."""
    try:
        from io_scene_gltf2.io.imp.gltf2_io_gltf import glTFImporter
    except ImportError:
        return None

    def check() -> bool:
        parsed = glTFImporter.load_json(memoryview(b'{"asset": {"version": "2.0"}}'))
        return isinstance(parsed, dict) and parsed["asset"]["version"] == "2.0" and callable(glTFImporter.load_glb)

    return glTFImporter if capable("json_loaders", check) else None


def raw_json(gltf) -> dict:
    """The document as a plain JSON dict, read again from ``gltf.filename`` (.gltf and .glb) with the importer's own
    loaders (``json_loaders``), else with ``gltf.files.load``; ``gltf.data.to_dict()`` when neither can read it."""
    loaders = importer_class() is not None
    try:
        if loaders:
            with open(gltf.filename, "rb") as handle:
                content = memoryview(handle.read())
            if bytes(content[:4]) == b"glTF":
                document, _ = gltf.load_glb(content)
            else:
                document = type(gltf).load_json(content)
        else:
            from .gltf.files import load

            document = load(gltf.filename).json
        if isinstance(document, dict):
            return document
    except Exception:  # unreadable now, or loaders that changed: use the parsed data
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


def node_index(gltf, gltf_node) -> int | None:
    """The file's index of io_scene_gltf2's parsed node ``gltf_node`` (the map ``id(gltf2_io.Node)`` → index over
    ``gltf.data.nodes`` is made once per import), or None. The node hooks are given the parsed node, not its index."""
    state = run_state(gltf)
    if state.node_index is None:
        state.node_index = {id(node): i for i, node in enumerate(getattr(gltf.data, "nodes", None) or [])}
    return state.node_index.get(id(gltf_node)) if gltf_node is not None else None


def record_node(gltf, vnode, index: int | None, blender_object) -> None:
    """``gather_import_node_after_hook`` of node ``index`` (``node_index``): remember node index → (object, vnode),
    the public-hook path of ``node_object`` and the vnode ``set_node_object`` points at a replacement."""
    if index is not None and blender_object is not None:
        state = run_state(gltf)
        state.objects[index] = blender_object
        state.hook_vnodes[index] = vnode


def _vnodes_hold_objects(gltf) -> bool:
    """``vnode_objects`` probe: every object the node hooks were given is its vnode's ``blender_object``, and the
    attribute can be pointed elsewhere (``set_node_object``) and back."""
    vnodes = gltf.vnodes
    recorded = run_state(gltf).objects
    if not isinstance(vnodes, dict) or not recorded:
        return False
    if any(getattr(vnodes.get(index), "blender_object", None) != ob for index, ob in recorded.items()):
        return False
    index, ob = next(iter(recorded.items()))
    vnode = vnodes[index]
    vnode.blender_object = None
    vnode.blender_object = ob
    return vnode.blender_object == ob


def _vnodes(gltf) -> dict | None:
    """The importer's vnodes when they pass the ``vnode_objects`` probe; None otherwise. Before any node hook ran
    (no objects recorded) there is nothing to look up: None without probing."""
    if not run_state(gltf).objects:
        return None
    return gltf.vnodes if capable("vnode_objects", lambda: _vnodes_hold_objects(gltf)) else None


def child_objects(gltf, index: int, parent) -> list | None:
    """Objects of the importer's child vnodes of node ``index`` that are parented to ``parent``; None when the
    importer has no vnode for the node or it is not ``parent``'s (the caller reads ``parent.children``)."""
    vnodes = _vnodes(gltf)
    vnode = vnodes.get(index) if vnodes is not None else None
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
    pointed at by the node until ``take_mesh``. False when the node cannot take it (skinned) or the running
    io_scene_gltf2 fails the ``stand_in_mesh`` probe (the Empty is then replaced after the nodes)."""
    if getattr(gltf_node, "skin", None) is not None or getattr(gltf_node, "mesh", None) is not None:
        return False
    if not capable("stand_in_mesh", lambda: _stand_in_works(gltf)):
        return False
    state = run_state(gltf)
    stand_in = state.stand_in
    if stand_in is None:
        stand_in = state.stand_in = _StandInMesh(mesh_name, gltf.data.meshes is None)
        if gltf.data.meshes is None:
            gltf.data.meshes = []
        gltf.data.meshes.append(stand_in)
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
    stand_in = run_state(gltf).stand_in
    if stand_in is not None and index in stand_in.unnamed:
        vnode.name = None


def drop_stand_in(gltf) -> None:
    """Remove ``give_mesh``'s stand-in glTF mesh (after every node's object exists)."""
    state = run_state(gltf)
    stand_in = state.stand_in
    meshes = getattr(gltf.data, "meshes", None)
    if stand_in is not None and meshes and meshes[-1] is stand_in:
        meshes.pop()
        if stand_in.added_list:
            gltf.data.meshes = None
    state.stand_in = None


class _StandInPrimitive:
    """A TRIANGLES primitive without extensions: what 5.3's point-cloud test reads (``mode``, ``extensions``)."""

    mode = 4
    extensions = None
    extras = None
    attributes: ClassVar[dict] = {}
    targets = None
    indices = None
    material = None


class _StandInMesh:
    """What ``create_mesh_object`` reads of a glTF mesh: one triangle primitive, no shape keys, one cached Blender
    mesh for unskinned use."""

    def __init__(self, mesh_name: str, added_list: bool):
        self.added_list = added_list  # the file had no meshes: ``gltf.data.meshes`` goes back to None
        self.name = mesh_name
        self.primitives = [_StandInPrimitive()]
        self.shapekey_names = []
        self.blender_name = {(None,): mesh_name}
        self.unnamed: set[int] = set()  # nodes given the Empty's default name
        self.extras = None
        self.extensions = None
        self.weights = None
        self.weight_animation_on_mesh = None


def _stand_in_works(gltf) -> bool:
    """``stand_in_mesh`` probe: io_scene_gltf2's own ``create_mesh_object``, given a node pointing at a stand-in
    mesh (in a scratch importer state with this import's settings), returns an object holding the stand-in's cached
    Blender mesh. The probe's object and mesh are removed again."""
    import bpy

    module = _node_module()
    create = module.BlenderNode.create_mesh_object
    mesh = bpy.data.meshes.new(" glTF Physics probe")
    ob = None
    try:
        node = SimpleNamespace(mesh=0, skin=None, weights=None, weight_animation=False, extras=None, extensions={})
        scratch = SimpleNamespace(
            data=SimpleNamespace(nodes=[node], meshes=[_StandInMesh(mesh.name, False)], skins=None),
            import_settings=dict(getattr(gltf, "import_settings", None) or {}),
            log=getattr(gltf, "log", None),
            vnodes={},
        )
        vnode = SimpleNamespace(type=object(), mesh_node_idx=0, name="probe", default_name="probe")
        ob = create(scratch, vnode)
        return ob is not None and ob.data == mesh
    finally:
        if ob is not None:
            bpy.data.objects.remove(ob)
        bpy.data.meshes.remove(mesh)


def node_object(gltf, index: int):
    """The Blender object of glTF node ``index``; None for bones, skipped and unknown nodes."""
    vnodes = _vnodes(gltf)
    if vnodes is None:
        return run_state(gltf).objects.get(index)
    return getattr(vnodes.get(index), "blender_object", None)


def node_objects(gltf, count: int) -> dict[int, Any]:
    """``node_object`` of nodes ``0 … count - 1`` at once: index → object for every node that has one (one probe
    look-up per import, not one per node)."""
    vnodes = _vnodes(gltf)
    if vnodes is None:
        return {i: ob for i, ob in run_state(gltf).objects.items() if 0 <= i < count}
    out = {}
    for index in range(count):
        ob = getattr(vnodes.get(index), "blender_object", None)
        if ob is not None:
            out[index] = ob
    return out


def _is_bone(vnode) -> bool:
    kind = getattr(type(vnode), "Bone", None)  # io_scene_gltf2's ``VNode.Bone``
    return kind is not None and getattr(vnode, "type", None) == kind


def _bone_vnode(vnodes: dict, vnode):
    """(armature object, bone name) of a bone ``vnode``; None when it is not a bone or its armature has no object."""
    if not _is_bone(vnode):
        return None
    name = getattr(vnode, "blender_bone_name", None)
    arma = getattr(vnodes.get(getattr(vnode, "bone_arma", None)), "blender_object", None)
    if not isinstance(name, str) or arma is None or getattr(arma, "type", None) != "ARMATURE":
        return None
    return arma, name


def _bone_vnodes_work(vnodes: dict) -> bool:
    """``bone_vnodes`` probe: every bone vnode names a bone of its armature object (and there is one)."""
    found = [_bone_vnode(vnodes, v) for v in vnodes.values() if _is_bone(v)]
    return all(f is not None and f[1] in f[0].data.bones for f in found)


def bone_of(gltf, index: int) -> tuple[Any, str] | None:
    """(armature object, bone name) of glTF node ``index`` when io_scene_gltf2 made it a bone; None otherwise.

    Public-hook path (``bone_vnodes`` failed): the armatures are the parents of the node objects, and the bone is
    the one named as the node (io_scene_gltf2 names bones after their nodes) when exactly one armature has it."""
    vnodes = getattr(gltf, "vnodes", None)
    bones = isinstance(vnodes, dict) and any(_is_bone(v) for v in vnodes.values())
    # without a bone vnode there is nothing to probe (a file without skins): the public path answers
    if bones and capable("bone_vnodes", lambda: _bone_vnodes_work(vnodes)):
        found = _bone_vnode(vnodes, vnodes.get(index))
        return found if found is not None and found[1] in found[0].data.bones else None
    nodes = getattr(gltf.data, "nodes", None) or []
    name = getattr(nodes[index], "name", None) if 0 <= index < len(nodes) else None
    if not isinstance(name, str) or not name:
        return None
    armatures = {}
    for ob in run_state(gltf).objects.values():
        parent = getattr(ob, "parent", None)
        if parent is not None and parent.type == "ARMATURE":
            armatures[parent.as_pointer()] = parent
    holding = [arma for arma in armatures.values() if name in arma.data.bones]
    return (holding[0], name) if len(holding) == 1 else None


def set_node_object(gltf, index: int, new) -> None:
    """Point the importer's vnode of node ``index`` at ``new``, its replacement object (animations, selection and
    the active object io_scene_gltf2 sets later target it): the vnode ``gather_import_node_after_hook`` was given."""
    state = run_state(gltf)
    state.objects[index] = new
    vnode = state.hook_vnodes.get(index)
    if vnode is not None:
        vnode.blender_object = new


def _mesh_builder():
    """``BlenderMesh.create`` (``blender/imp/mesh.py``; ``gltf2_blender_mesh.py`` before 4.3)."""
    module = _mesh_module()
    return module.BlenderMesh.create


def blender_mesh(gltf, mesh_index: int):
    """A Blender mesh for glTF mesh ``mesh_index`` (unskinned): the importer's cached one, else built by it; None
    when the running io_scene_gltf2 fails the ``mesh_builder`` probe (the caller takes the mesh of a node that
    renders it, or reads the accessors itself)."""
    import bpy

    if not capable("mesh_builder", lambda: callable(_mesh_builder())):
        return None
    pymesh = gltf.data.meshes[mesh_index]
    cache = getattr(pymesh, "blender_name", None)
    if cache is None:
        cache = pymesh.blender_name = {}
    name = cache.get((None,))
    if name is not None and name in bpy.data.meshes:
        return bpy.data.meshes[name]
    mesh = _mesh_builder()(gltf, mesh_index, None)
    cache[(None,)] = mesh.name
    return mesh


def report_to_operator(gltf, level: str, message: str) -> None:
    """Queue a message for the import operator's report (``gltf.log`` popup buffer, 4.2-5.3; the console without
    the ``operator_log`` capability): the operator
    reports it when it finishes (status bar and Info editor; printed in background mode). Not also written through
    io_scene_gltf2's console logger (``Log.info`` does both): the operator's report is the one place users read it.

    ``level`` is "INFO" or "WARNING"; never "ERROR" (that makes ``bpy.ops.import_scene.gltf`` raise in scripts and
    goes to the ``glTFImporter_errors`` logger). The message goes through ``diagnostics.printable``.
    """
    log = getattr(gltf, "log", None)
    message = printable(message)  # report() cannot encode a lone surrogate; a newline would split the line
    buffer = getattr(getattr(log, "popup_handler", None), "buffer", None)
    if capable("operator_log", lambda: isinstance(buffer, list)) and isinstance(buffer, list):
        buffer.append((level, message))  # what ``Log.info(message, popup=True)`` queues
        return
    print(f"glTF Physics {level}: {message}")


# --- export side -------------------------------------------------------------------------------------------------


def export_yup(export_settings) -> bool:
    """The export dialog's +Y Up option (``gltf_yup``; on when unknown)."""
    return bool(export_settings.get("gltf_yup", True)) if isinstance(export_settings, dict) else True


def export_apply_modifiers(export_settings) -> bool:
    """The export dialog's Apply Modifiers option (``gltf_apply``; off when unknown)."""
    return bool(export_settings.get("gltf_apply", False)) if isinstance(export_settings, dict) else False


def tree_objects(vtree):
    """(vnode, Blender object or None) for every node of the exporter's tree (``gather_tree_filter_tag_hook``)."""
    for vnode in vtree.nodes.values():
        yield vnode, getattr(vnode, "blender_object", None)


def sibling_sort_key() -> Callable[[str], object] | None:
    """io_scene_gltf2's sort key of sibling nodes by object name, or None when it keeps Blender's order.

    5.2's and 5.3's exporters sort a scene's roots and every node's children by name (``blender/exp/tree.py``
    ``_natural_sort_key``, the Outliner's order); 4.2-5.0 list roots as the depsgraph and children as
    ``bpy.data.objects`` do. The key is io_scene_gltf2's own function, called as it calls it, so a restored node order
    is the one its tree would have had (``exporter/node_order``). Probe ``sibling_order``: the function exists and
    sorts names; when it is missing, Blender's order is the one io_scene_gltf2 uses."""
    module = _tree_module()
    key = getattr(module, "_natural_sort_key", None) if module is not None else None
    if key is None or not capable("sibling_order", lambda: sorted(["b10", "B2", "a"], key=key) == ["a", "B2", "b10"]):
        return None
    return key


def is_kept(vnode) -> bool:
    return bool(vnode.keep_tag)


def drop(vnode) -> None:
    """Leave the vnode out of the exported glTF."""
    vnode.keep_tag = False


def report_to_export_operator(export_settings, level: str, message: str) -> None:
    """Queue a message for the export operator (io_scene_gltf2's ``export_settings['log']`` popup buffer)."""
    log = export_settings.get("log") if isinstance(export_settings, dict) else None
    report_to_operator(SimpleNamespace(log=log), level, message)


def drop_own_extras(gltf2_plan, key: str) -> None:
    """Remove ``key`` from the ``extras`` of every scene and node of the export plan (dropping an ``extras`` left
    empty). Blender 4.x keeps registered property groups among an ID's custom properties, so io_scene_gltf2 with
    *Custom Properties* on (``export_extras``, always on in ``convert``) writes ``Object.gltf_physics`` and
    ``Scene.gltf_physics`` as extras: our bookkeeping, not the user's content (Blender 5.0+ keeps them apart)."""
    for item in [*(getattr(gltf2_plan, "scenes", None) or []), *(getattr(gltf2_plan, "nodes", None) or [])]:
        extras = getattr(item, "extras", None)
        if isinstance(extras, dict) and key in extras:
            del extras[key]
            if not extras:
                item.extras = None


#: The one key whose empty object io_scene_gltf2 keeps (``export.__should_include_json_value``).
_KEPT_EMPTY = "KHR_materials_unlit"


def written_form(value):
    """``value`` as io_scene_gltf2 writes an extension value it does not pass through (``export.__fix_json``, the
    same on every release checked), taken to its fixed point: in objects, a ``None`` member and an empty object or
    array are left out (but ``extras``, kept as it is, and an empty ``KHR_materials_unlit``), and a float with an
    integer value is written as an integer; arrays keep every item. The physics goes into the plan in this form, so
    the file is the same whether io_scene_gltf2 fixes it again (4.2 – 5.0: a fixed point is left as it is) or passes
    it through (5.2+, ``passthrough_extension_data``, which saves its two copying passes over the physics).

    io_scene_gltf2 runs its fix twice and tests emptiness before it fixes a member, so an object holding only a
    ``null`` three levels down kept an empty object there; the fixed point leaves it out (passthrough values from
    the source file only)."""
    kind = type(value)
    if kind is dict:
        out = {}
        for key, item in value.items():
            if item is None:
                continue
            if key == "extras":
                out[key] = item
                continue
            item_kind = type(item)
            if item_kind is dict or item_kind is list:
                item = written_form(item)
                if item or key == _KEPT_EMPTY:
                    out[key] = item
            elif item_kind is float:  # the scalar rule below, inline: tens of thousands of members per large export
                out[key] = int(item) if item.is_integer() else item
            else:
                out[key] = item
        return out
    if kind is list:
        return [written_form(item) for item in value]
    if kind is float and value.is_integer():
        return int(value)
    return value


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
