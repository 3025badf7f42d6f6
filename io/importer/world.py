"""The rigid-body world: created once per scene, before the file's objects when the file has physics."""

from __future__ import annotations

from ..diagnostics import Severity
from ..gltf.model import PhysicsDocument
from .context import IMPORT_FAILED


def needs_world(document: PhysicsDocument) -> bool:
    return any(n.motion or n.collider or n.joint for n in document.nodes.values())


def ensure_world(scene):
    """The scene's rigid-body world with both collections (one ``world_add`` per scene, none per object)."""
    import bpy

    if scene.rigidbody_world is None:
        with bpy.context.temp_override(scene=scene):
            _world_add(bpy)
    rbw = scene.rigidbody_world
    if rbw.collection is None:
        rbw.collection = bpy.data.collections.new("RigidBodyWorld")
    if rbw.constraints is None:
        rbw.constraints = bpy.data.collections.new("RigidBodyConstraints")
    return rbw


def _world_add(bpy) -> None:
    """``rigidbody.world_add`` (no data API creates a rigid-body world) without the view-layer update ``bpy.ops``
    runs before and after every operator: on a just-reset scene that update is most of the call's ~0.1 ms, and
    the importer updates the view layer itself afterwards. ``bpy.ops`` when the operator module is not there."""
    try:
        from _bpy import ops as operators  # what bpy.ops calls (4.2 to 5.0: ``call(idname, keywords)``)
    except ImportError:
        operators = None
    call = getattr(operators, "call", None)
    if call is None:
        bpy.ops.rigidbody.world_add()
    else:
        call("rigidbody.world_add", {})


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
    except Exception as exc:
        report.add(Severity.WARNING, IMPORT_FAILED, "", f"creating the rigid-body world failed: {exc}")
