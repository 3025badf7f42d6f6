"""What the reproduction steps share: the helper collection, the tag of helper objects, the one passive anchor,
the report codes and the import option. Helpers are tagged ``Object.gltf_physics.joint.role == "REPRODUCTION"``
(the exporter drops them); ``joint.joint_name`` says which reproduction a helper Empty stands for and
``joint.node_b`` is the body it acts on.
"""

from __future__ import annotations

import bpy
from mathutils import Matrix

from ..context import ImportContext, passive_anchor

HELPERS = "glTF Physics Helpers"
ANCHOR_NAME = "glTF Physics Reproduction Anchor"
ROLE = "REPRODUCTION"
NOT_REPRODUCIBLE = "GLTF_PHYSICS_IMPORT_NOT_REPRODUCIBLE"  # Blender cannot do what the file means (WARNING)
REPRODUCED = "GLTF_PHYSICS_IMPORT_REPRODUCED"  # rebuilt with helpers / world settings (INFO)


def enabled(scene) -> bool:
    settings = getattr(scene, "gltf_physics", None)
    return settings is not None and bool(getattr(settings, "import_reproduce", False))


def is_helper(ob) -> bool:
    pg = getattr(ob, "gltf_physics", None)
    return pg is not None and pg.joint.role == ROLE


def helpers_collection(ctx: ImportContext, state: dict):
    """The child collection of the scene the helpers of this import go into (created on first use)."""
    if "collection" not in state:
        collection = bpy.data.collections.new(HELPERS)
        ctx.scene.collection.children.link(collection)
        state["collection"] = collection
    return state["collection"]


def helper_empty(ctx: ImportContext, state: dict, name: str, kind: str, body):
    """A tagged helper Empty in the helper collection: ``kind`` in ``joint.joint_name``, ``body`` in ``node_b``."""
    empty = bpy.data.objects.new(name, None)
    empty.empty_display_type = "ARROWS"
    empty.empty_display_size = 0.25
    helpers_collection(ctx, state).objects.link(empty)
    pg = empty.gltf_physics.joint
    pg.role = ROLE
    pg.joint_name = kind
    pg.node_b = body
    return empty


def anchor(ctx: ImportContext, state: dict):
    """One invisible PASSIVE body that collides with nothing: the fixed side of the rotation locks."""
    if "anchor" not in state:
        ob = passive_anchor(ctx, ANCHOR_NAME, 0.025, helpers_collection(ctx, state), ROLE)
        state["anchor"] = ob
    return state["anchor"]


def helper_constraint(ctx: ImportContext, empty, kind: str, object1, object2):
    """Make helper ``empty`` a rigid-body constraint of ``kind`` between the two objects, which do not collide with
    each other; the constraint."""
    ctx.world.constraints.objects.link(empty)
    c = empty.rigid_body_constraint
    c.type = kind
    c.object1, c.object2 = object1, object2
    c.disable_collisions = True
    return c


def world_of(ob) -> Matrix:
    """World matrix from the objects' own transforms (``matrix_world`` is not evaluated during the import)."""
    matrix = ob.matrix_basis.copy()
    while ob.parent is not None:
        matrix = ob.parent.matrix_basis @ ob.matrix_parent_inverse @ matrix
        ob = ob.parent
    return matrix
