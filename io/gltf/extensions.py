"""The names of the physics extensions and of the revisions the model reads and writes: their one home."""

from __future__ import annotations

KHR_RIGID_BODIES = "KHR_physics_rigid_bodies"
KHR_IMPLICIT_SHAPES = "KHR_implicit_shapes"
KHR_COLLISION_SHAPES = "KHR_collision_shapes"
OMI_BODY = "OMI_physics_body"
OMI_SHAPE = "OMI_physics_shape"
OMI_JOINT = "OMI_physics_joint"
OMI_COLLIDER = "OMI_collider"
OMI_GRAVITY = "OMI_physics_gravity"  # not read or written: only noticed next to OMI shapes (migrate)

# Every glTF extension name whose data the model reads and writes.
PHYSICS_EXTENSIONS = (
    KHR_RIGID_BODIES,
    KHR_IMPLICIT_SHAPES,
    KHR_COLLISION_SHAPES,
    OMI_BODY,
    OMI_SHAPE,
    OMI_JOINT,
    OMI_COLLIDER,
)
# The physics extensions that live on nodes (the others are document-level only).
OMI_NODE_EXTENSIONS = (OMI_BODY, OMI_SHAPE, OMI_JOINT, OMI_COLLIDER)
NODE_EXTENSIONS = (KHR_RIGID_BODIES, *OMI_NODE_EXTENSIONS)

# Revision labels (``source`` values and ``PhysicsDocument.revisions`` members).
REV_KHR_2026 = "KHR-2026"  # collider/trigger geometry {shape | mesh}
REV_KHR_2024_10 = "KHR-2024-10"  # geometry {shape | node}, KHR_implicit_shapes
REV_KHR_2024_07 = "KHR-2024-07"  # collider.shape -> KHR_collision_shapes (mesh shapes)
REV_OMI = "OMI"  # OMI_physics_body motion/collider/trigger + OMI_physics_shape + OMI_physics_joint physicsJoints
REV_OMI_2024_11 = "OMI-2024-11"  # legacy OMI_physics_joint {constraints, nodeA, nodeB}
REV_OMI_2023_08 = "OMI-2023-08"  # OMI_physics_body.type + node-level OMI_physics_shape
REV_OMI_2023_05 = "OMI-2023-05"  # OMI_physics_body.type + OMI_collider
KHR_REVISIONS = (REV_KHR_2026, REV_KHR_2024_10, REV_KHR_2024_07)
# What the writers produce (``write.write_target``, ``migrate --to``, ``convert --to``): the KHR revisions, current OMI.
KHR_TARGETS = ("2026", "2024-10", "2024-07")
TARGETS = (*KHR_TARGETS, "omi")
OMI_REVISIONS = (REV_OMI, REV_OMI_2024_11, REV_OMI_2023_08, REV_OMI_2023_05)
