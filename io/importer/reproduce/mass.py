"""``centerOfMass``: Blender puts a body's centre of mass at its object origin. A dynamic body whose file gives
another centre is re-originated: a helper mesh object ``<body>.center_of_mass`` at the centre (the body's world
rotation, no scale) becomes the ACTIVE ``COMPOUND`` rigid body and the body object, with its collision shape, its
compound child. The helper takes the body's mass, friction, restitution, collision collections and damping 0. A
body that had a parent keeps it in ``gltf_parent`` (as the import does for nested bodies): the exporter, which drops
the helper, writes the body back under that parent with its own transform.

The joints of the body then join the helper (``retarget_constraints``). A body that is already a compound (several
colliders) is left as it is and reported: Blender merges only the direct children of a compound parent.
"""

from __future__ import annotations

import bpy
from mathutils import Matrix, Vector

from ...mapping.axes import vec_to_blender
from ..context import ImportContext
from ..proxies import empty_mesh, style_as_proxy
from .helpers import NOT_REPRODUCIBLE, REPRODUCED, ROLE, helpers_collection

KIND = "reproduction: centre of mass"  # joint.joint_name of the re-origin helpers
COPIED = ("mass", "friction", "restitution", "collision_margin", "use_margin")


def wanted(motion) -> bool:
    return motion.center_of_mass is not None and any(motion.center_of_mass)


def recentre(ctx: ImportContext, state: dict, m: int, ob):
    """The object that now carries body ``ob``'s simulation (the helper), or None when left as it was."""
    ptr = ctx.node_pointer(m, "motion", "centerOfMass")
    rb = ob.rigid_body
    if rb.collision_shape == "COMPOUND":
        ctx.warn(
            NOT_REPRODUCIBLE,
            ptr,
            "not reproducible in Blender: centre of mass of a compound body (Blender merges only the direct "
            "children of a compound parent; the centre stays at the body's origin)",
        )
        return None
    com = Vector(vec_to_blender(ctx.document.nodes[m].motion.center_of_mass))
    world = ctx.node_world_matrix(m)  # the file's, in Blender axes (the object's may not be evaluated yet)
    centre = world @ com  # node space, with the node's scale
    helper = _helper(ctx, state, ob, Matrix.Translation(centre) @ world.to_quaternion().to_matrix().to_4x4())
    parent = ob.parent
    if parent is not None:  # the exporter puts the body back under it (as for nested bodies)
        helper.gltf_physics.joint.node_a = parent
        if ob.gltf_physics.gltf_parent is None:
            ob.gltf_physics.gltf_parent = parent
    ob.parent = helper
    ob.matrix_parent_inverse = helper.matrix_world.inverted()
    ob.matrix_world = world
    ctx.note(
        REPRODUCED,
        ptr,
        f"centre of mass: the body is a compound child of {helper.name!r}, placed at the centre "
        f"({', '.join(f'{v:.4g}' for v in centre)})",
    )
    return helper


def retarget_constraints(scene, moved: dict) -> None:
    """Rigid-body constraints of ``scene`` that join an object in ``moved`` (``as_pointer()`` → object) join the
    mapped object instead (a compound child is no Bullet body of its own)."""
    for c, side, target in constraint_sides(scene, moved):
        setattr(c, side, target)


def constraint_sides(scene, moved: dict) -> list[tuple]:
    """(constraint, "object1" / "object2", new object) for every side joining an object in ``moved``."""
    rbw = scene.rigidbody_world
    if rbw is None or rbw.constraints is None or not moved:
        return []
    out = []
    for ob in rbw.constraints.objects:
        c = ob.rigid_body_constraint
        for side in ("object1", "object2") if c is not None else ():
            joined = getattr(c, side)
            if joined is not None and joined.as_pointer() in moved:
                out.append((c, side, moved[joined.as_pointer()]))
    return out


def _helper(ctx: ImportContext, state: dict, ob, matrix: Matrix):
    helper = bpy.data.objects.new(ob.name + ".center_of_mass", empty_mesh(ob.name + ".com"))
    helpers_collection(ctx, state).objects.link(helper)
    style_as_proxy(helper)
    helper.matrix_world = matrix
    helper.rotation_mode = "QUATERNION"  # the initial-velocity pre-roll turns it by quaternion
    ctx.world.collection.objects.link(helper)
    source, rb = ob.rigid_body, helper.rigid_body
    rb.type = "ACTIVE"
    rb.collision_shape = "COMPOUND"
    for name in COPIED:
        setattr(rb, name, getattr(source, name))
    rb.collision_collections = list(source.collision_collections)
    rb.linear_damping = rb.angular_damping = 0.0
    pg = helper.gltf_physics.joint
    pg.role, pg.joint_name, pg.node_b = ROLE, KIND, ob
    return helper


def carrier_of(ob):
    """The centre-of-mass helper that simulates ``ob`` (its parent, naming it), else ``ob`` itself."""
    parent = ob.parent
    pg = parent.gltf_physics.joint if parent is not None else None
    if pg is not None and pg.role == ROLE and pg.joint_name == KIND and pg.node_b == ob and parent.rigid_body:
        return parent
    return ob


def restore(helper) -> None:
    """Undo ``recentre`` before the helper is deleted: the body back under the helper's parent, where it is."""
    body, parent = helper.gltf_physics.joint.node_b, helper.gltf_physics.joint.node_a
    if body is None or body.parent != helper:
        return
    world = body.matrix_world.copy()
    body.parent = parent
    # inverted_safe: a parent flat along an axis (scale 0) has no inverse; the body stays in its flattened space
    body.matrix_parent_inverse = parent.matrix_world.inverted_safe() if parent is not None else Matrix.Identity(4)
    body.matrix_world = world
    if parent is not None and body.gltf_physics.gltf_parent == parent:
        body.gltf_physics.gltf_parent = None
