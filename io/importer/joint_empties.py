"""Which object carries each joint's constraint: the joint node's own Empty, or an Empty made next to it.

**On the node** (``node_joints``): a joint node that is a plain leaf Empty (no mesh, camera, light, skin, children or
physics body; neither animated nor below an animated node; no joint's connected node) carries its constraint itself,
turned about its origin so that its axes are the constraint's (Blender world matrix C·A·P, exactly as a separate
constraint Empty: ``joints._on_node``). Export writes the node back at frame A (``exporter.joints.restore_nodes``).
This saves one object per joint: its creation, and its share of every depsgraph update of the file.

**Made ahead** (``JointEmpties``, ``gather_import_node_after_hook``): Blender keeps ``bpy.data.objects`` sorted by
name and places a new name by walking back from the last one. A constraint Empty ``<joint node>.joint`` created after
all of the file's objects walks back over every name that sorts after it (quadratic with thousands of joints);
created right after its joint node, it sorts next to the newest names (files usually name nodes in the order they
list them). The joint step takes the Empty made here (``take``) and deletes the ones no joint used
(``remove_unused``).
"""

from __future__ import annotations

import bpy

from ..gltf.nodes import nearest_marked, parent_map
from .context import animated_nodes

JOINT_SUFFIX = ".joint"
_NOT_PLAIN = ("mesh", "camera", "skin")  # JSON keys that make a node more than a plain leaf Empty (and children)
_OBJECT_EXTENSIONS = ("KHR_lights_punctual",)  # node extensions that make io_scene_gltf2 create another object


def node_joints(document, gltf_json: dict) -> set[int]:
    """Joint nodes whose own Empty can carry the constraint (see the module docstring); O(nodes)."""
    json_nodes = gltf_json.get("nodes") if isinstance(gltf_json, dict) else None
    if not isinstance(json_nodes, list):
        return set()
    joints = {i: n.joint for i, n in document.nodes.items() if n.joint is not None}
    connected = {j.connected_node for j in joints.values()}
    skins = gltf_json.get("skins")
    skin_joints = (
        {i for s in skins if isinstance(s, dict) for i in s.get("joints") or ()} if isinstance(skins, list) else set()
    )
    out = set()
    for index, joint in joints.items():
        physics = document.nodes[index]
        if (
            joint.legacy_pivot is not None
            or index in connected
            or index in skin_joints
            or not 0 <= index < len(json_nodes)
        ):
            continue
        if physics.motion is not None or physics.collider is not None or physics.trigger is not None:
            continue
        node = json_nodes[index]
        if not isinstance(node, dict) or node.get("children") or any(key in node for key in _NOT_PLAIN):
            continue
        extensions = node.get("extensions")
        if isinstance(extensions, dict) and any(name in extensions for name in _OBJECT_EXTENSIONS):
            continue
        out.add(index)
    animated = animated_nodes(gltf_json)
    if out and animated:
        below = nearest_marked(parent_map(json_nodes), animated, out)
        out = {index for index in out if below.get(index) is None}
    return out


class JointEmpties:
    """Node index → an unlinked Empty named ``<node object>.joint`` for every joint node that cannot carry its
    constraint itself."""

    def __init__(self, joint_nodes: set[int], file_names: set[str]):
        self.joint_nodes = joint_nodes
        self.file_names = file_names  # a node of the file named like an Empty keeps its name: no Empty made ahead
        self.empties: dict[int, bpy.types.Object] = {}

    def after_node(self, index: int | None, blender_object) -> None:
        """Node ``index`` (``gltf_addon.node_index``) became ``blender_object``."""
        if index not in self.joint_nodes or blender_object is None or index in self.empties:
            return
        name = blender_object.name + JOINT_SUFFIX
        if name not in self.file_names:
            self.empties[index] = bpy.data.objects.new(name, None)


def take(ctx, index: int, name: str):
    """The Empty made ahead for joint node ``index`` if it bears ``name``, else None."""
    empty = ctx.joint_empties.get(index)
    if empty is None or empty.name != name:
        return None
    del ctx.joint_empties[index]
    return empty


def remove_unused(ctx) -> None:
    """Delete the Empties made ahead that no joint used (skipped joints), all at once."""
    unused = [ob for ob in ctx.joint_empties.values() if ob is not None]
    ctx.joint_empties.clear()
    if unused:
        bpy.data.batch_remove(unused)
