"""Combine modes: friction / restitution pre-combined per contact pair (the rules in ``mapping.combine_pairs``).

Each dynamic body of the import gets the spec's combined value with the static bodies it can touch (overlapping
collision collections), and those static bodies 1, so Bullet's product is the file's value; what stays inexact is
reported. Every object changed is marked on ``gltf_physics.collider.material`` (``reproduced``, and the values set
and before in ``reproduced_values``): the exporter then still writes the file's material and *Remove Reproduction
Helpers* puts the values back (``restore``).
"""

from __future__ import annotations

from ....sim.pairs import PhysicsMaterial
from ...mapping import stored as props
from ...mapping.combine_pairs import Body, default_rule_exact, plan
from ..context import APPROXIMATED, ImportContext
from .helpers import NOT_REPRODUCIBLE, REPRODUCED


def build(ctx: ImportContext, dynamic: list[tuple[int, object]]) -> None:
    """``dynamic``: (motion node, object carrying its simulation) of the import's dynamic bodies."""
    doc = ctx.document
    used = {
        id(m): m
        for m in (
            props.lookup(doc.materials, n.collider.material) for n in doc.nodes.values() if n.collider is not None
        )
    }
    if default_rule_exact(sim_material(m) for m in used.values()):  # no pair of the file's materials needs a plan
        return
    carriers = dict(dynamic)
    first_collider = _first_colliders(ctx)
    realisers: dict[int, list] = {}  # body node → the collision-shape objects of its colliders
    for c, objects in ctx.collider_objects.items():
        realisers.setdefault(_body_of(ctx, c), []).extend(objects)
    bodies: dict[int, list] = {}  # body node → the objects whose rigid-body values realise it
    dyn, static = [], []
    materials: dict = {}  # id of a file material → its PhysicsMaterial
    sets: dict[tuple, frozenset] = {}  # collision collections → the set of their indices (most bodies share one)
    for node, ob in sorted(ctx.body_objects.items()):
        if ob.rigid_body is None or first_collider.get(node) is None:
            continue
        carrier = carriers.get(node, ob)
        objects = [carrier, ob, *realisers.get(node, ())]
        bodies[node] = list({o.as_pointer(): o for o in objects if o.rigid_body is not None}.values())
        layers = tuple(carrier.rigid_body.collision_collections)
        collections = sets.get(layers)
        if collections is None:
            collections = sets[layers] = frozenset(i for i, on in enumerate(layers) if on)
        source = props.lookup(ctx.document.materials, ctx.document.nodes[first_collider[node]].collider.material)
        material = materials.get(id(source), materials)
        if material is materials:  # one PhysicsMaterial per file material, shared by its bodies
            material = materials[id(source)] = sim_material(source)
        entry = Body(node, material, collections, ob.name)
        (dyn if node in carriers else static).append(entry)
    result = plan(dyn, static)
    if result is None:
        return
    for node, values in result.values.items():
        for ob in bodies[node]:
            set_pre_combined(ob, values["friction"], values["restitution"], ctx.stored(ob).collider.material)
    for node in result.exact:
        ctx.note(
            REPRODUCED,
            _pointer(ctx, first_collider[node]),
            "combine modes: friction / restitution of this body (and of every body with its material and collision "
            "collections) pre-combined with the static bodies it can touch (those set to 1)",
        )
    for node, message in result.problems:
        ctx.warn(NOT_REPRODUCIBLE, _pointer(ctx, first_collider[node]), f"not reproducible in Blender: {message}")
    for node, message in result.approximations:
        ctx.note(APPROXIMATED, _pointer(ctx, first_collider[node]), f"combine modes, if they touch: {message}")


def _body_of(ctx: ImportContext, collider: int) -> int:
    body = ctx.body_node_of.get(collider)
    return collider if body is None else body


def _first_colliders(ctx: ImportContext) -> dict[int, int]:
    """Body node → its first collider node (the one whose material ``bodies`` gave the body)."""
    out: dict[int, int] = {}
    for c in sorted(ctx.collider_objects):
        out.setdefault(_body_of(ctx, c), c)
    return out


def sim_material(m) -> PhysicsMaterial | None:
    """A physics material (the document's or a stored one's model) as ``sim.pairs`` combines it."""
    if m is None:
        return None
    return PhysicsMaterial(
        m.static_friction, m.dynamic_friction, m.restitution, m.friction_combine, m.restitution_combine
    )


def _pointer(ctx: ImportContext, collider: int) -> str:
    return ctx.node_pointer(collider, "collider", "physicsMaterial")


def set_pre_combined(ob, friction: float, restitution: float, pm=None) -> None:
    """Set ``ob``'s pre-combined friction / restitution and mark them (the values before kept for ``restore``) on
    ``pm``, its stored material (the import's view of it; the property group when None)."""
    rb = ob.rigid_body
    pm = ob.gltf_physics.collider.material if pm is None else pm
    if not pm.reproduced:
        pm.reproduced_values = (friction, restitution, rb.friction, rb.restitution)
    else:
        pm.reproduced_values = (friction, restitution, *pm.reproduced_values[2:])
    pm.reproduced = True
    rb.friction, rb.restitution = friction, restitution
    pm.reproduced_values = (rb.friction, rb.restitution, *pm.reproduced_values[2:])  # as Blender stores them


def restore(scene) -> None:
    """The friction / restitution of every pre-combined object of ``scene`` back to the import's default rule."""
    for ob in scene.objects:
        pm = ob.gltf_physics.collider.material
        if pm.reproduced:
            if ob.rigid_body is not None:
                ob.rigid_body.friction, ob.rigid_body.restitution = pm.reproduced_values[2:]
            pm.reproduced = False
            pm.reproduced_values = (0.0, 0.0, 0.0, 0.0)
