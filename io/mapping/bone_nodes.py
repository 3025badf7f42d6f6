"""Physics on glTF nodes that io_scene_gltf2 turns into armature bones (a skin's joints and the nodes between them).

A bone is not a Blender object, so it can hold no rigid body. The import gives such a node a *bone stand-in*: an
object at the node's frame that carries the node's body, collider or trigger like any node object, marked with two
custom properties: ``BONE_KEY`` (the bone's name) and ``ARMATURE_KEY`` (the armature object). The export writes a
stand-in's physics onto the bone's own glTF node (io_scene_gltf2's ``gather_joint_hook`` names the node of each
bone) and leaves the stand-in out of the scene graph. Works on plain attributes (no ``bpy`` import).
"""

from __future__ import annotations

from collections.abc import Iterable

#: The custom properties that mark a bone stand-in: the name of the bone it stands for, and that bone's armature.
BONE_KEY = "gltf_physics_bone"
ARMATURE_KEY = "gltf_physics_armature"


def stand_in_bone(ob) -> tuple[object, str] | None:
    """(armature object, bone name) that ``ob`` stands for; None when ``ob`` is no bone stand-in (or the armature
    lost that bone)."""
    try:
        name = ob.get(BONE_KEY)
    except (AttributeError, TypeError):
        return None
    if not isinstance(name, str) or not name:
        return None
    armature = ob.get(ARMATURE_KEY)
    if getattr(armature, "type", None) != "ARMATURE" or name not in armature.data.bones:
        return None
    return armature, name


def stand_ins(objects: Iterable) -> dict[tuple[int, str], list]:
    """(armature object address, bone name) → the bone stand-ins among ``objects``, in their order."""
    out: dict[tuple[int, str], list] = {}
    for ob in objects:
        if ob.get(BONE_KEY) is None:  # the common case: one ID-property look-up
            continue
        found = stand_in_bone(ob)
        if found is not None:
            out.setdefault((found[0].as_pointer(), found[1]), []).append(ob)
    return out
