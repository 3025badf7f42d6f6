"""Different collision filters on the children of one compound body: Blender filters a compound with its parent's
collision collections (``filters`` gives it the union of its colliders' and reports it). With Reproduce Motion, each
child shape whose filter differs from the body's first collider becomes a body of its own, joined to the compound by a
FIXED constraint (helper Empty ``<shape>.fixed``), with its own filter's collections (per body:
``filters_to_blender.solve_units``), the compound keeps its first filter's (not the union), and its share of the mass
(by bounding-box volume; the compound keeps the rest). ``motion.reproduced_mass`` marks both, so the exporter still
writes the file's mass, and no motion for the split-off shape. ``restore`` undoes it all. Split-off parts of one body
that share a collection get a limitless GENERIC helper ``<part>.apart`` with ``disable_collisions``, so they do not
push each other apart.

The shape must stop being a direct child of the compound (Blender would merge it back): a generated shape (import
proxy) goes under its node's object; a node's own mesh that is its collider is unparented and keeps its file parent
in ``gltf_parent`` (the exporter writes it back under it, as for nested bodies).
"""

from __future__ import annotations

import json
import math

from mathutils import Matrix

from ...mapping.filters_to_blender import COLLECTIONS
from ..context import APPROXIMATED, ImportContext
from .helpers import REPRODUCED, helper_constraint, helper_empty, world_of

KIND = "reproduction: compound child filter"  # joint.joint_name of the FIXED helpers
APART = "reproduction: compound children apart"  # a free GENERIC that only disables collisions between two parts


def build(ctx: ImportContext, state: dict, dynamic: list[tuple[int, object]]) -> None:
    collections = ctx.cache.get("filter collections")
    if not collections:
        return
    colliders: dict[int, list[int]] = {}
    for c in sorted(ctx.collider_objects):
        body = ctx.body_node_of.get(c)
        if body is not None:
            colliders.setdefault(body, []).append(c)
    for m, ob in dynamic:
        keys = {c: _filter_key(ctx, c) for c in colliders.get(m, ())}
        if ob.rigid_body.collision_shape == "COMPOUND" and len(set(keys.values())) > 1:
            ptr = ctx.node_pointer(m, "motion")
            per_key = collections.get(ob.as_pointer(), {})
            ctx.guarded(ptr, "splitting a compound by filter", _split, ctx, state, m, ob, keys, per_key)


def _filter_key(ctx: ImportContext, c: int):
    key = ctx.document.nodes[c].collider.filter
    return key if key is not None and 0 <= key < len(ctx.document.filters) else None


def _split(ctx: ImportContext, state: dict, m: int, body, keys: dict, collections: dict) -> None:
    main = keys[min(keys)]
    parts = [(c, part) for c in keys for part in ctx.collider_objects.get(c, ()) if part.parent == body]
    volumes = {part.as_pointer(): _volume(part) for _, part in parts}
    total = sum(volumes.values()) or 1.0
    mass = body.rigid_body.mass
    body_flat = _flat(body)  # the same answer for every part
    moved = []
    for c, part in parts:
        if keys[c] == main:
            continue
        node_object = ctx.objects.get(c)
        if node_object is part:
            node_object = None  # the node's own mesh is the shape: unparented, its file parent kept for export
        elif ctx.stored(part).role != "PROXY" or node_object is None:
            ctx.note(
                APPROXIMATED,
                ctx.node_pointer(c, "collider", "collisionFilter"),
                "its filter differs from the compound's, but its shape cannot be split off",
            )
            continue
        if body_flat or (node_object is not None and _flat(node_object)):
            ctx.note(
                APPROXIMATED,
                ctx.node_pointer(c, "collider", "collisionFilter"),
                "its filter differs from the compound's, but its shape cannot be split off: its node or the body "
                "is flat (scale 0 along an axis), so no parent could hold it where it is",
            )
            continue
        share = volumes[part.as_pointer()] / total
        moved.append((c, part, node_object, share))
    if not moved:
        return
    kept = 1.0 - sum(share for *_, share in moved)
    for c, part, node_object, share in moved:
        _detach(ctx, state, body, part, node_object, mass * share, collections.get(keys[c], ()))
        ctx.note(
            REPRODUCED,
            ctx.node_pointer(c, "collider", "collisionFilter"),
            f"compound child {part.name!r} with its own filter: a body of its own, FIXED to {body.name!r}",
        )
    _keep_apart(ctx, state, [part for _, part, _, _ in moved])
    body.rigid_body.mass = mass * kept
    ctx.stored(body).motion.reproduced_mass = body.rigid_body.mass
    # the compound now holds the shapes of its first filter only: its collections, not the union (restore: union)
    flags = [i in collections.get(main, ()) for i in range(COLLECTIONS)]
    for ob in [body, *(part for c, part in parts if keys[c] == main)]:
        ob.rigid_body.collision_collections = flags


def _keep_apart(ctx: ImportContext, state: dict, parts: list) -> None:
    """Shapes of one body never collide with each other: each pair of split-off parts that shares a collection gets
    a GENERIC constraint with no limit (no force) and ``disable_collisions`` (deleted by Remove, never exported)."""
    for i, a in enumerate(parts):
        for b in parts[i + 1 :]:
            shared = any(
                x and y
                for x, y in zip(a.rigid_body.collision_collections, b.rigid_body.collision_collections, strict=True)
            )
            if not shared:
                continue
            helper = helper_empty(ctx, state, f"{a.name}.apart", APART, b)
            helper.gltf_physics.joint.node_a = a
            helper.matrix_world = Matrix.Translation(world_of(a).to_translation())
            helper_constraint(ctx, helper, "GENERIC", a, b)


def _volume(ob) -> float:
    corners = [tuple(v) for v in ob.bound_box]
    size = [max(p[i] for p in corners) - min(p[i] for p in corners) for i in range(3)]
    scale = [abs(s) for s in ob.matrix_basis.to_scale()]
    return math.prod(size) * math.prod(scale)


def _flat(ob) -> bool:
    """Is ``ob``'s world matrix singular (scale 0 along an axis somewhere up its parents)? A child of it cannot be
    placed anywhere but in its flattened space."""
    return world_of(ob).determinant() == 0.0


def _reparent(ob, parent) -> None:
    """``ob`` under ``parent``, where it is. ``inverted_safe``: Remove runs on scenes the user may have flattened
    since the import (a split part's world is then flat as its parent's)."""
    world = world_of(ob)
    ob.parent = parent
    ob.matrix_parent_inverse = world_of(parent).inverted_safe() if parent is not None else Matrix.Identity(4)
    ob.matrix_basis = world


def _detach(ctx: ImportContext, state: dict, body, part, node_object, mass: float, flags) -> None:
    helper = helper_empty(ctx, state, part.name + ".fixed", KIND, part)
    helper.gltf_physics.joint.node_a = body
    own = node_object is None and part.gltf_physics.gltf_parent is None
    helper.gltf_physics.joint.extras_json = json.dumps(
        {
            "body_mass": body.rigid_body.mass,
            "part_mass": part.rigid_body.mass,
            "gltf_parent": own,
            "collections": list(body.rigid_body.collision_collections),  # the union ``filters`` gave the compound
        }
    )
    helper.matrix_world = Matrix.Translation(world_of(part).to_translation())
    _reparent(part, node_object)
    if own:
        part.gltf_physics.gltf_parent = body
    rb = part.rigid_body
    rb.type, rb.mass = "ACTIVE", mass
    ctx.stored(part).motion.reproduced_mass = mass  # the exporter writes no motion for it
    rb.linear_damping = rb.angular_damping = 0.0
    rb.collision_collections = [i in flags for i in range(COLLECTIONS)]
    helper_constraint(ctx, helper, "FIXED", body, part)


def restore(helper) -> None:
    """Undo ``_detach`` (before the helper is deleted): the shape back in its compound, the masses as they were."""
    pg = helper.gltf_physics.joint
    body, part = pg.node_a, pg.node_b
    if body is None or part is None or body.rigid_body is None or part.rigid_body is None:
        return
    masses = json.loads(pg.extras_json or "{}")
    _reparent(part, body)
    union = masses.get("collections", list(body.rigid_body.collision_collections))
    for ob in (body, *body.children):
        if ob.rigid_body is not None:
            ob.rigid_body.collision_collections = union
    part.rigid_body.mass = masses.get("part_mass", part.rigid_body.mass)
    body.rigid_body.mass = masses.get("body_mass", body.rigid_body.mass)
    body.gltf_physics.motion.reproduced_mass = -1.0
    part.gltf_physics.motion.reproduced_mass = -1.0
    if masses.get("gltf_parent"):
        part.gltf_physics.gltf_parent = None
