"""The rigid-body world: created once per scene, before the file's objects when the file has physics."""

from __future__ import annotations

from ..diagnostics import Severity, internal_failure
from ..gltf.model import PhysicsDocument
from .context import IMPORT_FAILED


def needs_world(document: PhysicsDocument) -> bool:
    return any(n.motion or n.collider or n.joint for n in document.nodes.values())


def ensure_world(scene):
    """The scene's rigid-body world with both collections (one ``world_add`` per scene, none per object)."""
    import bpy

    if scene.rigidbody_world is None:  # no data API creates a rigid-body world: its operator, once per scene
        with bpy.context.temp_override(scene=scene):
            bpy.ops.rigidbody.world_add()
    rbw = scene.rigidbody_world
    if rbw.collection is None:
        rbw.collection = bpy.data.collections.new("RigidBodyWorld")
    if rbw.constraints is None:
        rbw.constraints = bpy.data.collections.new("RigidBodyConstraints")
    return rbw


def create_world_early(document: PhysicsDocument | None, report) -> None:
    """Create the rigid-body world before the importer creates objects (``gather_import_gltf_before_hook``).

    ``rigidbody.world_add`` is an operator: run while the scene holds none of the file's objects, it touches nothing
    of them. A failure is a WARNING; ``build`` tries again.
    """
    import bpy

    if document is None or document.is_empty() or not needs_world(document):
        return
    try:
        ensure_world(bpy.context.scene)
    except Exception:
        report.add(Severity.WARNING, IMPORT_FAILED, "", internal_failure("creating the rigid-body world"))
