"""What every export step shares: ``ExportSession`` (one export: which glTF ``Node`` each Blender object became,
world matrices snapshotted before animations are sampled), the ``Builder`` of the physics document (node indices,
de-duplicated lists, added nodes), and the export's diagnostic codes. The order of the steps is in ``pipeline``;
a step imports this module, never the pipeline.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .. import gltf_addon
from ..diagnostics import pointer
from ..gltf.model import CollisionFilter, Geometry, JointDescription, PhysicsDocument, PhysicsMaterial, Shape
from ..mapping.bone_nodes import stand_ins
from ..mapping.object_tree import ObjectTree
from ..mapping.roles import HELPER_ROLES
from ..mapping.stored_values import FIELDS, ROWS, Path, StoredRows, parse, read, rows_text, stored_fields
from ..mapping.values_to_gltf import gltf_locals
from ..report import Reporting

EXPORT_SKIPPED = "GLTF_PHYSICS_EXPORT_SKIPPED"  # something that could not be written (WARNING)
EXPORT_EDITED = "GLTF_PHYSICS_EXPORT_EDITED"  # stored file values overridden by edited Blender settings (INFO)
EXPORT_APPROXIMATED = "GLTF_PHYSICS_EXPORT_APPROXIMATED"  # Blender value written in an approximate form (INFO)
EXPORT_FAILED = "GLTF_PHYSICS_EXPORT_FAILED"  # one object or step raised (WARNING)
STORED_UNREADABLE = "GLTF_PHYSICS_EXPORT_STORED_UNREADABLE"  # a broken stored value, written from Blender (WARNING)
Y_UP_OFF = "GLTF_PHYSICS_EXPORT_Y_UP_OFF"  # +Y Up off in the dialog; physics written for +Y up anyway (WARNING)
EXPORT_INSTANCED = "GLTF_PHYSICS_EXPORT_INSTANCED"  # an object exported several times, physics on each (INFO)
DISABLED_JOINT = "GLTF_PHYSICS_EXPORT_DISABLED_JOINT"  # a disabled constraint, not written (INFO)

PROXY_ROLES = ("PROXY", "TRIGGER_PROXY")  # objects the import generated to hold a collider / trigger shape
# joint roles of import-made objects that are not glTF nodes (REPRODUCTION: helpers of io/importer/reproduce/)
HELPER_JOINT_ROLES = ("JOINT", *HELPER_ROLES)


def set_trs(node, trs: tuple) -> None:
    """Give a gltf2_io node the local transform ``trs`` (``values_to_gltf.gltf_locals``), identity parts left out.

    Values within 2·10⁻⁶ of 0 or 1 (the identity's parts) are made exact first, as io_scene_gltf2 does for every node
    it writes (its ``round_if_near``): a local transform computed here from two 32-bit world matrices carries noise
    (a translation of 10⁻²² beside an exact 0) that the same node written by io_scene_gltf2 would not have, and the
    noise depends on the machine's float arithmetic."""
    t, q, s = _snapped(trs)  # identity parts are now exact
    node.translation = list(t) if any(t) else None
    node.rotation = list(q) if abs(q[3]) != 1.0 else None
    node.scale = list(s) if s != (1.0, 1.0, 1.0) else None
    node.matrix = None


def _snapped(trs: tuple) -> tuple:
    t, q, s = trs
    return (
        tuple(_near(v, 0.0) for v in t),
        (*(_near(v, 0.0) for v in q[:3]), _near(q[3], 1.0)),
        tuple(_near(v, 1.0) for v in s),
    )


def _near(value: float, target: float) -> float:
    return target if abs(value - target) <= 2.0e-6 else float(value)


def has_stored(pg) -> bool:
    """Does the object keep a motion, collider or trigger from a file? ``pg``: its view (``ExportSession.pg_of``),
    asked of its values directly: every exported object is asked, most never read these groups again."""
    if pg is None:
        return False
    values = pg._values
    return any(read(values, (group,), f"has_{group}") for group in ("motion", "collider", "trigger"))


def is_helper_joint(pg) -> bool:
    """A constraint Empty the import made (not the joint node itself, ``joint.is_node``), a motor or an anchor
    (``pg``: the object's view, asked as ``has_stored`` asks)."""
    return joint_role(pg) in HELPER_JOINT_ROLES and not read(pg._values, _JOINT, "is_node")


def joint_role(pg) -> str:
    """The stored joint role of the object whose view is ``pg`` (``ExportSession.pg_of``; "NONE" without one), read
    as ``has_stored`` reads: the export asks it of every object, most have no joint."""
    return "NONE" if pg is None else read(pg._values, _JOINT, "role")


_JOINT = ("joint",)


def nested_transforms(session, pairs: list) -> list[tuple[tuple | None, str]]:
    """For each (nested body ``ob``, its file ``parent``): the glTF local transform of ``ob`` under ``parent`` (world
    transform kept), or None and why it stays where it is (animated, or the local transform would need shear). One
    ``gltf_locals`` call for all of them: a scene's nested bodies are many, the frame math's cost is per call."""
    parents, worlds = [session.world(parent) for _, parent in pairs], [session.world(ob) for ob, _ in pairs]
    trs = gltf_locals(parents, worlds, session.yup)
    out = []
    for (ob, parent), local in zip(pairs, trs, strict=True):
        if ob.animation_data is not None and ob.animation_data.action is not None:
            out.append((None, f"{ob.name!r} is animated: left at the scene root"))
        elif local is None:
            out.append((None, f"{ob.name!r} cannot go back under {parent.name!r} (shear)"))
        else:
            out.append((local, ""))
    return out


class ReadView:
    """A read-only view of one group of an object's stored values (``mapping/stored_values.py``) as the export reads
    it: each property is a plain attribute, the stored value (``stored_values.stored_fields``, set when the view is
    made) or else the default, a class attribute of the group's own subclass (``read_view``); a sub-group, a stored
    list's rows (``ROWS``) or a property the text does not hold (``gltf_parent``, ``node_a``, …: asked of the property
    group ``rna`` at the same path) is looked up on first use, then kept as an attribute too. The export makes several
    views per exported object: making one costs an object and the few values its text holds."""

    _path: Path = ()

    def __init__(self, values: dict, rna=None) -> None:
        fields = self.__dict__
        fields.update(stored_fields(values, self._path))
        fields["_values"], fields["_rna"] = values, rna

    def __getattr__(self, name: str):
        fields = self.__dict__
        path = self._path
        sub = (*path, name)
        if sub in FIELDS:
            value = read_view(fields["_values"], sub, fields["_rna"])
        elif sub in ROWS:
            value = StoredRows(fields["_values"], sub, False)
        else:  # the property group's own (object pointers, the filter lists' rows)
            group = fields["_rna"]
            if group is None:
                raise AttributeError(name)
            for key in path:
                group = getattr(group, key)
            value = getattr(group, name)
        fields[name] = value
        return value

    def __setattr__(self, name: str, value) -> None:
        raise AttributeError(f"{name}: the export reads stored values, it never writes them")

    def rows_text(self, name: str) -> str:
        """This group's stored list ``name`` as compact JSON text (``stored_values.rows_text``: a memo key)."""
        return rows_text(self._values, (*self._path, name))


#: One ``ReadView`` subclass per stored group: its defaults (``FIELDS``) as class attributes.
_VIEW_CLASSES = {
    path: type(f"ReadView_{'_'.join(path) or 'object'}", (ReadView,), {**defaults, "_path": path})
    for path, defaults in FIELDS.items()
}


def read_view(values: dict, path: Path = (), rna=None) -> ReadView:
    """The export's read-only view of group ``path`` of the stored ``values`` (``rna``: the object's property group)."""
    return _VIEW_CLASSES[path](values, rna)


def _all_objects():
    import bpy

    return bpy.data.objects


@dataclass
class ExportSession:
    """Per-export state gathered by the early hooks."""

    report: Any
    revision: str = "2026"
    yup: bool = True
    mass_properties: str = "BLENDER"  # BLENDER: write Bullet's centre of mass / inertia; ENGINE: leave them out
    apply_modifiers: bool = False  # the export dialog's Apply Modifiers: which mesh io_scene_gltf2 writes
    nodes_of: dict[str, list] = field(default_factory=dict)  # object name → gltf2_io.Node objects
    objects: dict[str, Any] = field(default_factory=dict)  # object name → bpy Object
    worlds: dict[str, np.ndarray] = field(default_factory=dict)  # object name → Blender world matrix snapshot
    decisions: dict[int, str] = field(default_factory=dict)  # object address → selection.export_decision
    collision_meshes: dict = field(default_factory=dict)  # mesh address → glTF mesh we write, or None
    meshes_of: dict[int, Any] = field(default_factory=dict)  # object address → the glTF mesh its node gets
    tree: ObjectTree = field(default_factory=lambda: ObjectTree(_all_objects()))  # children: one pass per export
    reorder: bool = False  # a dropped helper had children or a nested body was unparented (``node_order``)
    bone_stand_ins: dict | None = None  # (armature address, bone name) → stand-ins (``mapping/bone_nodes.py``)
    stand_in_nodes: dict[str, list] = field(default_factory=dict)  # stand-in name → its own nodes (collision mesh)
    views: dict = field(default_factory=dict)  # bpy Object → its stored values' view (``pg_of``)

    def pg_of(self, ob):
        """``ob``'s stored glTF physics as a read-only view (``mapping/stored_values.py``; None without any), made
        once per object and export: every step and hook reads the same view (nothing writes an object's stored text
        while it is exported), so the property group and its text are looked up once, not in each step."""
        views = self.views
        try:
            return views[ob]
        except KeyError:
            pg = getattr(ob, "gltf_physics", None)
            view = views[ob] = None if pg is None else read_view(parse(pg.values_json), (), pg)
            return view

    def record_node(self, node, ob) -> None:
        name = ob.name
        self.nodes_of.setdefault(name, []).append(node)
        self.objects[name] = ob
        if name not in self.worlds:
            self.snapshot(ob)

    def stand_ins_of(self, armature, bone_name: str) -> list:
        """The stand-ins of bone ``bone_name`` of ``armature`` (``mapping/bone_nodes.py``; one scan per export)."""
        if self.bone_stand_ins is None:
            self.bone_stand_ins = stand_ins(_all_objects())
        if not self.bone_stand_ins:
            return []
        return self.bone_stand_ins.get((armature.as_pointer(), bone_name), [])

    def record_bone(self, node, pose_bone) -> None:
        """A bone's glTF node was gathered: it is the node of the bone's stand-ins (``mapping/bone_nodes.py``)."""
        for ob in self.stand_ins_of(pose_bone.id_data, pose_bone.name):
            self.record_node(node, ob)

    def bone_owners(self, ob) -> list:
        """The stand-ins of the bone ``ob`` is parented to and of that bone's parents, nearest first: a body on a bone
        holds the compound shapes of the colliders below it."""
        parent = ob.parent
        if parent is None or ob.parent_type != "BONE" or parent.type != "ARMATURE":
            return []
        out, bone = [], parent.data.bones.get(ob.parent_bone)
        while bone is not None:
            out.extend(self.stand_ins_of(parent, bone.name))
            bone = bone.parent
        return out

    def snapshot_all(self) -> None:
        """Every object's world matrix in one ``foreach_get`` (equal to ``snapshot``'s, float32 values widened);
        skipped when object names repeat (linked libraries), so a name always means the object ``snapshot`` saw."""
        import bpy

        objects = bpy.data.objects
        names = objects.keys()
        if len(set(names)) != len(names):
            return
        flat = np.empty(len(names) * 16, dtype=np.float32)
        objects.foreach_get("matrix_world", flat)
        worlds = np.ascontiguousarray(flat.astype(float).reshape(-1, 4, 4).transpose(0, 2, 1))
        for name, world in zip(names, worlds, strict=True):
            self.worlds.setdefault(name, world)

    def snapshot(self, ob) -> None:
        """Keep ``ob``'s world matrix as the export's early hooks see it."""
        if ob is not None and ob.name not in self.worlds:
            self._keep(ob)

    def _keep(self, ob) -> None:
        self.worlds[ob.name] = np.array([list(row) for row in ob.matrix_world], dtype=float)

    def world(self, ob) -> np.ndarray:
        if ob.name not in self.worlds:
            self._keep(ob)
        return self.worlds[ob.name]


def _outside(pg) -> bool:
    return pg is not None and bool(pg.outside_scene)


_SCALARS = (str, int, bool, type(None))


def _flatten(value, out: list) -> None:
    """Append ``value``'s identity to ``out``: its type before every value (``1`` ≠ ``1.0`` ≠ ``True``), floats that
    are zero or NaN by ``repr`` (``0.0`` ≠ ``-0.0``, NaN equal to NaN), lengths of lists and dicts, dict keys in order;
    dataclass fields without ``source``. Scalars inside containers are appended in place (no call per number)."""
    kind = type(value)
    out.append(kind)
    if kind is float:
        out.append(value if value == value and value != 0.0 else repr(value))
        return
    if kind in _SCALARS:
        out.append(value)
        return
    if kind is tuple or kind is list:
        out.append(len(value))
        items = value
    elif kind is dict:
        out.append(len(value))
        out.extend(value)  # the keys, in order
        items = value.values()
    elif hasattr(value, "__dataclass_fields__"):
        items = [item for key, item in vars(value).items() if key != "source"]
    else:
        out.append(repr(value))
        return
    for item in items:
        item_kind = type(item)
        if item_kind is float and item == item and item != 0.0:
            out.append(float)
            out.append(item)
        elif item_kind in _SCALARS:
            out.append(item_kind)
            out.append(item)
        elif not item and (item_kind is dict or item_kind is tuple or item_kind is list):
            out.append(item_kind)  # an empty container (passthrough dicts mostly): its type and length 0
            out.append(0)
        else:
            _flatten(item, out)


def exact_key(*values) -> tuple:
    """``values`` (plain numbers and strings) as a dict key that also tells ``0.0`` from ``-0.0`` (written differently)
    wherever a value equals zero; NaN keys match only the same float object (a miss, never a wrong hit)."""
    if 0.0 in values:  # zeros sit at the same places in equal keys: their signs, in order, tell them apart
        return (*values, *[math.copysign(1.0, v) for v in values if v == 0.0 and type(v) is float])
    return values


def _key(obj) -> tuple:
    """Value identity of a model object as a flat tuple (equal exactly when the written values are equal)."""
    out: list = []
    _flatten(obj, out)
    return tuple(out)


def _node_indices(nodes_of: dict[str, list], index_of: dict[int, int]) -> dict[str, list[int]]:
    """Object name → the plan indices of its recorded nodes, ascending (a node the plan does not hold left out)."""
    out = {}
    for name, nodes in nodes_of.items():
        indices = sorted({index_of[id(node)] for node in nodes if id(node) in index_of})
        if indices:
            out[name] = indices
    return out


class Builder(Reporting):
    """Builds the ``PhysicsDocument`` for one export against the final glTF ``plan`` (``warn`` / ``note`` /
    ``guarded`` from ``report.Reporting``)."""

    FAILED = EXPORT_FAILED

    def __init__(self, session: ExportSession, plan):
        self.session = session
        self.plan = plan
        self.report = session.report
        self.doc = PhysicsDocument()
        self.index_of = {id(node): i for i, node in enumerate(plan.nodes or [])}
        self._keys: dict[tuple[str, tuple], int] = {}
        self.orphans: set[int] = set()  # proxy nodes taken out of the scene graph (they hold collider meshes)
        self.unrendered: set[int] = set()  # nodes whose mesh only serves as collider geometry
        self.new_nodes: list[tuple[Any, int | None]] = []  # (gltf2_io.Node, parent index or None = scene root)
        self.native_colliders: dict[int, Any] = {}  # collider node → filter unit object (collision collections)
        self.reparent: list[tuple[Any, Any]] = []  # (nested body, its parent in the file) unparented by the import
        self.joint_nodes: list[Any] = []  # imported joint nodes that carry their constraint (joints.restore_nodes)
        self.attachments: list[tuple[str, Any, list]] = []  # joints waiting for their attachment nodes (joints.py)
        self.memo: dict[tuple, Any] = {}  # results of pure steps by their exact inputs (``exact_key``), per export
        self._indices = _node_indices(session.nodes_of, self.index_of)  # object name → its node indices, ascending

    # -- nodes -------------------------------------------------------------------------------------------------------
    def node_indices(self, ob) -> list[int]:
        """The node indices of ``ob`` in the plan, ascending (do not modify the list: it is cached)."""
        if ob is None:
            return []
        return self._indices.get(ob.name, [])

    def node_index(self, ob) -> int | None:
        indices = self.node_indices(ob)
        return indices[0] if indices else None

    def gltf_node(self, index: int):
        return self.plan.nodes[index]

    def add_node(self, name: str, frame, parent: int | None) -> int:
        """Append a new node (``frame``: model ``Frame``) under ``parent`` (None = every scene's root)."""
        node = gltf_addon.new_node(name, list(frame.translation), list(frame.rotation), frame.scale)
        self.plan.nodes.append(node)
        index = len(self.plan.nodes) - 1
        if parent is not None:
            parent_node = self.plan.nodes[parent]
            parent_node.children = [*(parent_node.children or []), index]
        else:
            for scene in self.plan.scenes or []:
                if scene.nodes is None:
                    scene.nodes = []
                scene.nodes.append(index)
        self.new_nodes.append((node, parent))
        return index

    # -- document lists (de-duplicated by value) -------------------------------------------------------------
    def _add(self, kind: str, items: list, obj) -> int:
        key = (kind, _key(obj))
        if key not in self._keys:
            self._keys[key] = len(items)
            items.append(obj)
        return self._keys[key]

    def add_shape(self, shape: Shape) -> int:
        return self._add("shape", self.doc.shapes, shape)

    def add_material(self, material: PhysicsMaterial) -> int:
        return self._add("material", self.doc.materials, material)

    def add_filter(self, flt: CollisionFilter) -> int:
        return self._add("filter", self.doc.filters, flt)

    def add_joint(self, description: JointDescription) -> int:
        return self._add("joint", self.doc.joints, description)

    def keep_joints(self, used: list[int]) -> dict[int, int] | None:
        """Keep only the joint descriptions at the sorted indices ``used``: old index → new (None: all are used).
        Later ``add_joint`` calls and memoised descriptions see the new indices."""
        if len(used) == len(self.doc.joints):
            return None
        new_index = {old: new for new, old in enumerate(used)}
        self.doc.joints[:] = [self.doc.joints[old] for old in used]
        for key, old in list(self._keys.items()):
            if key[0] == "joint":
                if old in new_index:
                    self._keys[key] = new_index[old]
                else:
                    del self._keys[key]
        self.memo = {k: v for k, v in self.memo.items() if not (type(k) is tuple and k[:1] == ("joint",))}
        return new_index

    # -- mesh geometry ----------------------------------------------------------------------------------------------
    def mesh_geometry(self, holder, convex: bool, how: str, ptr: str) -> Geometry | None:
        """Geometry referencing the glTF mesh exported for ``holder``'s node.

        ``how``: "own" (the collider's node renders it), "unrender" (the collider's own node must not render it:
        its mesh is moved off the node), "orphan" (a proxy object: its node leaves the scene graph and holds it).
        """
        index = self.node_index(holder)
        own = self.session.stand_in_nodes.get(holder.name)
        if own:  # a bone stand-in: its physics is on the bone's node, its mesh on a node of its own
            index, how = self.index_of.get(id(own[0])), "orphan"
        mesh = None if index is None else self.gltf_node(index).mesh
        if mesh is None:
            self.warn(EXPORT_SKIPPED, ptr, f"the mesh of {holder.name!r} was not exported: mesh collider skipped")
            return None
        if how == "orphan":
            self.orphans.add(index)
            return Geometry(node=index, convex_hull=convex)
        if how == "unrender":
            self.unrendered.add(index)
        return Geometry(mesh=mesh, convex_hull=convex)

    def restore_parents(self) -> None:
        """Nested bodies the import unparented from a compound body go back under their file parent's node
        (world transform kept; skipped when animated or when the local transform would need shear)."""
        roots = set().union(*(scene.nodes or [] for scene in self.plan.scenes or []))
        pairs = [(ob, parent) for ob, parent in self.reparent if self.node_index(ob) in roots]  # the others stay put
        for (ob, parent), (trs, why) in zip(pairs, nested_transforms(self.session, pairs), strict=True):
            child, target = self.node_index(ob), self.node_index(parent)
            roots = [set(scene.nodes or []) for scene in self.plan.scenes or []]
            if child is None or target is None or not any(child in r for r in roots):
                continue
            if self._reaches(child, target):  # a script pointed gltf_parent at the body itself or below it
                continue
            if trs is None:
                self.note(EXPORT_APPROXIMATED, pointer("nodes", child), why)
                continue
            set_trs(self.gltf_node(child), trs)
            for scene in self.plan.scenes or []:
                scene.nodes = [n for n in scene.nodes or [] if n != child]
            parent_node = self.gltf_node(target)
            parent_node.children = [*(parent_node.children or []), child]
            self.report.count("restored_parents")

    def _reaches(self, start: int, goal: int) -> bool:
        """Node ``goal`` is ``start`` or below it in the plan."""
        stack, seen = [start], set()
        while stack:
            index = stack.pop()
            if index == goal:
                return True
            if index not in seen and 0 <= index < len(self.plan.nodes or []):
                seen.add(index)
                stack.extend(self.gltf_node(index).children or [])
        return False

    def finish_nodes(self) -> None:
        """Take collider-only meshes off their nodes, proxy nodes out of the scene graph, and nodes the file kept
        outside its scene (``Object.gltf_physics.outside_scene``) out of the scenes' root lists."""
        for index in self.unrendered:
            node = self.gltf_node(index)
            node.mesh, node.weights, node.skin = None, None, None
        pg_of = self.session.pg_of
        outside = {i for ob in self.session.objects.values() if _outside(pg_of(ob)) for i in self.node_indices(ob)}
        if outside:
            for scene in self.plan.scenes or []:
                scene.nodes = [n for n in scene.nodes or [] if n not in outside] or None
        if not self.orphans:
            return
        for node in self.plan.nodes:
            if node.children:
                node.children = [c for c in node.children if c not in self.orphans] or None
        for scene in self.plan.scenes or []:
            scene.nodes = [n for n in scene.nodes or [] if n not in self.orphans]
        for index in self.orphans:  # the holder's transform is not part of the geometry
            node = self.gltf_node(index)
            node.translation = node.rotation = node.scale = node.matrix = None
            node.children = None

    def context_json(self) -> dict:
        """The (read-only) glTF context the writers need: node meshes, children, skins, names."""
        nodes = []
        for node in self.plan.nodes:
            entry: dict = {}
            if node.mesh is not None:
                entry["mesh"] = node.mesh
            if node.children:
                entry["children"] = list(node.children)
            if node.skin is not None:
                entry["skin"] = node.skin
            if node.name:
                entry["name"] = node.name
            nodes.append(entry)
        return {"nodes": nodes}
