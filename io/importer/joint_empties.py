"""Constraint Empties created next to their joint node (``gather_import_node_after_hook``), not after every node.

Blender keeps ``bpy.data.objects`` sorted by name and places a new name by walking back from the last one. A
constraint Empty ``<joint node>.joint`` created after all of the file's objects walks back over every name that
sorts after it (quadratic with thousands of joints); created right after its joint node, it sorts next to the
newest names (files usually name nodes in the order they list them). The joint step takes the Empty made here
(``take``) and deletes the ones no joint used (``remove_unused``).
"""

from __future__ import annotations

import bpy

JOINT_SUFFIX = ".joint"


class JointEmpties:
    """Node index → an unlinked Empty named ``<node object>.joint`` for every node with a joint."""

    def __init__(self, joint_nodes: set[int], index: dict[int, int], file_names: set[str]):
        self.joint_nodes = joint_nodes
        self.index = index  # id(gltf2_io.Node) → node index (gltf_addon.node_indices)
        self.file_names = file_names  # a node of the file named like an Empty keeps its name: no Empty made ahead
        self.empties: dict[int, bpy.types.Object] = {}

    def after_node(self, gltf_node, blender_object) -> None:
        index = self.index.get(id(gltf_node)) if gltf_node is not None else None
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
