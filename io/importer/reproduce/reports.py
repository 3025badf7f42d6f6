"""What stays impossible in Blender, reported by the reproduction step as WARNING
``GLTF_PHYSICS_IMPORT_NOT_REPRODUCIBLE`` "not reproducible in Blender: <reason>" at its JSON pointer: the joint
limits ``mapping.not_reproducible`` lists (the joint step builds the closest constraint and notes how). A KHR
description is reported once at its limit; an OMI joint (described on its node) at the node's joint.
"""

from __future__ import annotations

from ...diagnostics import pointer
from ...gltf.extensions import KHR_RIGID_BODIES, OMI_JOINT, OMI_REVISIONS
from ...mapping.not_reproducible import joint_limits
from ..context import ImportContext
from .helpers import NOT_REPRODUCIBLE


def joints(ctx: ImportContext) -> None:
    reported: set[tuple] = set()
    for index, physics in sorted(ctx.document.nodes.items()):
        joint = physics.joint
        if joint is None or not 0 <= joint.joint < len(ctx.document.joints):
            continue
        omi = physics.source in OMI_REVISIONS
        key = ("node", index) if omi else ("description", joint.joint)
        if key in reported:
            continue
        reported.add(key)
        for n, reason in joint_limits(ctx.document.joints[joint.joint]):
            if omi:
                ptr = pointer("nodes", index, "extensions", OMI_JOINT)
            else:
                ptr = pointer("extensions", KHR_RIGID_BODIES, "physicsJoints", joint.joint, "limits", n)
            ctx.warn(NOT_REPRODUCIBLE, ptr, f"not reproducible in Blender: {reason}")
