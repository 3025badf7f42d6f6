"""What every import step shares: ``ImportContext`` (the document, the Blender objects of the file's nodes, the
maps the steps fill in) and the import's diagnostic codes. The order of the steps is in
``pipeline``; a step imports this module, never the pipeline.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..diagnostics import pointer, printable
from ..gltf.extensions import KHR_RIGID_BODIES, OMI_BODY, OMI_COLLIDER, OMI_REVISIONS, OMI_SHAPE
from ..gltf.model import PhysicsDocument
from ..gltf.node_frames import WorldFrames
from ..gltf.nodes import nearest_marked, parent_map
from ..mapping import stored_values
from ..mapping.axes import matrix_to_blender, scale_to_blender
from ..mapping.stored_values import StoredView
from ..report import Reporting

IMPORT_FAILED = "GLTF_PHYSICS_IMPORT_FAILED"  # a step or an object could not be built (WARNING)
APPROXIMATED = "GLTF_PHYSICS_IMPORT_APPROXIMATED"  # Blender cannot hold the value exactly (INFO)
NOT_SIMULATED = "GLTF_PHYSICS_IMPORT_STORED_ONLY"  # kept on the object for export, not simulated (INFO)
SKIPPED = "GLTF_PHYSICS_IMPORT_SKIPPED"  # data that has nothing to attach to (WARNING)
DISABLED = "GLTF_PHYSICS_IMPORT_DISABLED"  # a collider the file disables (zero scale), not built (INFO)
PLACEHOLDER_FAILED = "GLTF_PHYSICS_IMPORT_PLACEHOLDER_FAILED"  # an Empty's placeholder mesh not set (INFO)


@dataclass
class ImportContext(Reporting):
    """Everything the import steps share (``warn`` / ``note`` / ``guarded`` from ``report.Reporting``).

    * ``objects``: glTF node index → Blender object (from the importer's vnodes; replacement mesh objects after
      ``bodies``); bones and nodes outside the scene have none.
    * ``body_node_of``: node index → index of its nearest ``motion`` ancestor-or-self (None = static / world).
    * ``body_object_of``: node index → Blender object carrying the rigid body of that nearest motion node
      (None = world or the body could not be built).
    * ``body_objects``: body node index (motion node or static collider node) → object with the ``rigid_body``.
    * ``collider_objects``: collider node index → the objects whose ``rigid_body`` realises it (its own object, a
      proxy, or compound children; filters go on the body object of compound bodies).
    * ``trigger_objects``: trigger node index → its volume object (None for compound triggers).
    """

    FAILED = IMPORT_FAILED

    document: PhysicsDocument
    gltf: Any
    scene: Any
    json: dict
    report: Any
    world: Any = None
    density: float = 1000.0
    objects: dict[int, Any] = field(default_factory=dict)
    body_node_of: dict[int, int | None] = field(default_factory=dict)
    body_object_of: dict[int, Any] = field(default_factory=dict)
    body_objects: dict[int, Any] = field(default_factory=dict)
    collider_objects: dict[int, list] = field(default_factory=dict)
    trigger_objects: dict[int, Any] = field(default_factory=dict)
    animated: set[int] = field(default_factory=set)
    parents: dict[int, int] = field(default_factory=dict)
    cache: dict = field(default_factory=dict)  # per-import memo of the geometry step (shapes, meshes, volumes)
    placeholder: Any = None  # the placeholder mesh of objects standing in for Empties (proxies.EmptyPlaceholders)
    joint_empties: dict[int, Any] = field(default_factory=dict)  # joint node → its Empty made ahead (joint_empties)
    node_joints: set[int] = field(default_factory=set)  # joint nodes that carry their constraint (joint_empties)
    joint_constraints: dict[int, Any] = field(default_factory=dict)  # joint node → its RigidBodyConstraint (joints)

    def __post_init__(self) -> None:
        nodes = self.json.get("nodes")
        self.json_nodes: list = nodes if isinstance(nodes, list) else []
        self.parents = parent_map(self.json_nodes)
        self.animated = animated_nodes(self.json)
        self.frames = WorldFrames(self.json_nodes, self.parents)  # every node's world matrix, computed once
        self._pointers: dict[tuple, str] = {}  # node_pointer's answers (several steps ask for the same ones)
        self._stored: dict[int, tuple[Any, dict]] = {}  # object pointer → (object, values written by flush_stored)

    def stored(self, ob) -> StoredView:
        """A writable view of ``ob``'s stored values (``mapping/stored_values.py``) for this import: every step
        reads and writes the same values, and :meth:`flush_stored` writes each object's text once."""
        key = ob.as_pointer()
        entry = self._stored.get(key)
        if entry is None:
            pg = ob.gltf_physics
            text = pg.values_json
            values = stored_values.private_copy(text)
            entry = self._stored[key] = (ob, text, StoredView(values, (), pg, writable=True))
        return entry[2]

    def move_stored(self, old, new) -> None:
        """``new`` replaced ``old`` (``proxies``): the values kept for ``old`` are ``new``'s."""
        entry = self._stored.pop(old.as_pointer(), None)
        if entry is not None:
            values = entry[2]._values
            self._stored[new.as_pointer()] = (new, entry[1], StoredView(values, (), new.gltf_physics, writable=True))

    def flush_stored(self) -> None:
        """Write every object's stored text (one RNA write per object whose values changed)."""
        entries, self._stored = self._stored, {}
        for ob, original, view in entries.values():
            try:
                self._write_stored(ob, original, view._values)
            except ReferenceError:  # removed by a later step
                continue
            except Exception:  # never the import: this object stays as it was and the others are written
                self.failed("", f"storing the glTF physics of {printable(ob.name)!r}")

    @staticmethod
    def _write_stored(ob, original: str, values: dict) -> None:
        stored_values.write_text(ob.gltf_physics, values, original)

    def animated_at_or_above(self, index: int | None) -> bool:
        """Does the file animate node ``index`` or one of its ancestors? (All nodes answered together once.)"""
        if not self.animated or index is None:
            return False
        key = "animated ancestor"
        if key not in self.cache:
            self.cache[key] = nearest_marked(self.parents, self.animated, range(len(self.json_nodes)))
        return self.cache[key].get(index) is not None

    def node_world_matrix(self, index: int):
        """World transform of glTF node ``index`` in Blender axes (``mathutils.Matrix``), from the file."""
        from mathutils import Matrix

        return Matrix(matrix_to_blender(self.frames.world(index)).tolist())

    def node_scale(self, index: int) -> tuple[float, float, float]:
        """Absolute world scale of node ``index`` along Blender's local axes."""
        return scale_to_blender(self.frames.scale(index))

    def node_pointer(self, index: int, *parts: object) -> str:
        """JSON pointer of a node's physics extension object (KHR or OMI by the revision it was read from)."""
        key = (index, parts)
        found = self._pointers.get(key)
        if found is None:
            physics = self.document.nodes.get(index)
            name = KHR_RIGID_BODIES
            if physics is not None and physics.source in OMI_REVISIONS:
                name, parts = self._omi_extension(index, parts)
            base = f"/nodes/{index}/extensions/{name}"  # called per object: the fixed part without escaping
            found = self._pointers[key] = base + pointer(*parts) if parts else base
        return found

    def _omi_extension(self, index: int, parts: tuple) -> tuple[str, tuple]:
        """The OMI extension holding a node's ``parts``: a collider or trigger the node's ``OMI_physics_body`` does
        not hold is a legacy shape reference (``OMI_physics_shape``, ``OMI_collider``): the pointer is that
        extension's (it holds nothing else)."""
        node = self.json_nodes[index] if 0 <= index < len(self.json_nodes) else None
        exts = node.get("extensions") if isinstance(node, dict) else None
        if not parts or parts[0] not in ("collider", "trigger") or not isinstance(exts, dict):
            return OMI_BODY, parts
        body = exts.get(OMI_BODY)
        if isinstance(body, dict) and parts[0] in body:
            return OMI_BODY, parts
        legacy = next((name for name in (OMI_SHAPE, OMI_COLLIDER) if name in exts), None)
        return (legacy, ()) if legacy is not None else (OMI_BODY, parts)

    def collections_of(self, ob) -> list:
        """Collections that link ``ob`` directly (``Object.users_collection`` without its per-call scan of every
        collection's objects: one pass over all collections per import, then kept up to date by ``linked``)."""
        memo = self.cache.get("collections")
        if memo is None:
            import bpy

            memo = self.cache["collections"] = {}
            for collection in [scene.collection for scene in bpy.data.scenes] + list(bpy.data.collections):
                for member in collection.objects:
                    memo.setdefault(member.as_pointer(), []).append(collection)
        return list(memo.get(ob.as_pointer(), ()))

    def linked(self, ob, collections: list | None) -> None:
        """Record that ``ob`` now lives in ``collections`` (None: ``ob`` was removed)."""
        memo = self.cache.get("collections")
        if memo is None:
            return
        if collections is None:
            memo.pop(ob.as_pointer(), None)
        else:
            memo[ob.as_pointer()] = list(collections)


def animated_nodes(gltf_json: dict) -> set[int]:
    """Node indices targeted by the file's animations (``target.node`` and KHR_animation_pointer ``/nodes/N/…``)."""
    out: set[int] = set()
    animations = gltf_json.get("animations")
    for animation in animations if isinstance(animations, list) else []:
        channels = animation.get("channels") if isinstance(animation, dict) else None
        for channel in channels if isinstance(channels, list) else []:
            target = channel.get("target") if isinstance(channel, dict) else None
            if not isinstance(target, dict):
                continue
            node = target.get("node")
            if isinstance(node, int) and not isinstance(node, bool):
                out.add(node)
            ext = target.get("extensions")
            ptr = ext.get("KHR_animation_pointer", {}).get("pointer") if isinstance(ext, dict) else None
            if isinstance(ptr, str) and ptr.startswith("/nodes/"):
                head = ptr.split("/")[2]
                if head.isdigit():
                    out.add(int(head))
    return out


BOX_FACES = ((0, 1, 3, 2), (4, 6, 7, 5), (0, 4, 5, 1), (2, 3, 7, 6), (0, 2, 6, 4), (1, 5, 7, 3))


def passive_anchor(ctx: ImportContext, name: str, half: float, collection, role: str):
    """An invisible PASSIVE box body of half-size ``half`` at the origin that collides with nothing, linked to
    ``collection`` and the rigid-body world, tagged ``joint.role = role``: the fixed side of helper constraints."""
    import bpy

    verts = [(x * half, y * half, z * half) for x in (-1, 1) for y in (-1, 1) for z in (-1, 1)]
    mesh = bpy.data.meshes.new(name)
    mesh.from_pydata(verts, [], BOX_FACES)
    ob = bpy.data.objects.new(name, mesh)
    collection.objects.link(ob)
    ob.display_type = "WIRE"
    ob.hide_render = True
    ctx.world.collection.objects.link(ob)
    ob.rigid_body.type = "PASSIVE"
    ob.rigid_body.collision_shape = "BOX"
    ob.rigid_body.collision_collections = [False] * 20
    pg = getattr(ob, "gltf_physics", None)
    if pg is not None:  # through the property group: later import steps read the role of helpers there
        pg.joint.role = role
    return ob
