"""Collision filters → Blender's 20 collision collections (issue 4 part 4; solver in ``filter_solver``).

The unit Bullet filters is a *Blender body*: a compound body uses its parent's collections for every child shape
(engine note), any other collider object is its own unit. Each unit gets the collections of its colliders' filter
class (the union when the children of one compound use different filters, reported). The original filters stay in
``Object.gltf_physics.collider.filter`` (written by ``blender_bodies``) for export.
"""

from __future__ import annotations

from ..diagnostics import pointer
from ..gltf.extensions import KHR_RIGID_BODIES
from ..mapping.filters_to_blender import COLLECTIONS, Instance, solve_units
from .context import APPROXIMATED, ImportContext
from .reproduce.helpers import NOT_REPRODUCIBLE, enabled


def _units(ctx: ImportContext) -> dict[int, tuple[object, list[object], set]]:
    """id(unit object) → (unit object, objects to set, filter keys of its colliders)."""
    units: dict[int, tuple[object, list[object], set]] = {}
    for index, objects in sorted(ctx.collider_objects.items()):
        physics = ctx.document.nodes.get(index)
        if physics is None or physics.collider is None:
            continue
        key = physics.collider.filter
        if key is not None and not 0 <= key < len(ctx.document.filters):
            key = None
        body = ctx.body_objects.get(ctx.body_node_of.get(index)) if ctx.body_node_of.get(index) is not None else None
        compound = body is not None and body.rigid_body is not None and body.rigid_body.collision_shape == "COMPOUND"
        for ob in objects:
            unit = body if compound else ob
            entry = units.setdefault(id(unit), (unit, [unit], set()))
            if ob is not unit and ob not in entry[1]:
                entry[1].append(ob)
            entry[2].add(key)
    return units


def apply(ctx: ImportContext) -> None:
    """Assign ``rigid_body.collision_collections`` from the file's collision filters (no filters: untouched)."""
    if not any(p.collider is not None and p.collider.filter is not None for p in ctx.document.nodes.values()):
        return  # no collider names a filter: nothing to read from the objects either
    units = _units(ctx)
    if not any(k is not None for _, _, keys in units.values() for k in keys):
        return
    entries = list(units.values())
    used = {key for _, _, keys in entries for key in keys}
    filters = {key: (None if key is None else ctx.document.filters[key]) for key in used}
    solved = solve_units(filters, [sorted(keys, key=str) for _, _, keys in entries])
    result = solved.assignment
    # per unit and filter key: reproduce_filters gives a split-off compound child its own filter's collections
    ctx.cache["filter collections"] = {
        unit.as_pointer(): per_key for (unit, _, _), per_key in zip(entries, solved.per_unit, strict=True)
    }
    root = pointer("extensions", KHR_RIGID_BODIES, "collisionFilters")
    for (unit, objects, keys), per_key in zip(entries, solved.per_unit, strict=True):
        chosen = set()
        for key in keys:
            chosen.update(per_key[key])
        flags = [i in chosen for i in range(COLLECTIONS)]
        for ob in objects:
            if getattr(ob, "rigid_body", None) is not None:
                ob.rigid_body.collision_collections = flags
        if len(keys) > 1:
            ctx.note(
                APPROXIMATED,
                root,
                f"compound body {unit.name!r}: its colliders use different filters {sorted(map(str, keys))}; "
                "Blender filters the whole compound with the union of their collections",
            )
    ctx.report.counts["collision_collections"] = len({c for cols in result.collections.values() for c in cols})
    if result.approximate:
        detail = result.approximate
    elif not result.exact:
        names = ", ".join(
            f"({_label(m.a, entries)}, {_label(m.b, entries)}) should {'' if m.expected else 'not '}collide"
            for m in result.mismatches
        )
        detail = f"{result.wrong_pairs} collider pair(s) differ: {names}"
        if result.cliques_needed > COLLECTIONS:
            detail = f"(needed {result.cliques_needed}): {detail}"
        for key, bodies in solved.crowded.items():
            detail = (
                f"filter {key} ignores its own kind but collides with others, and {bodies} bodies use it "
                f"(each would need a collection of its own); {detail}"
            )
    else:
        return
    if enabled(ctx.scene):  # Reproduce Motion promises the file's motion: say plainly that this part cannot be
        reason = f"Blender's {COLLECTIONS} collision collections cannot keep every filter pair: {detail}"
        ctx.warn(NOT_REPRODUCIBLE, root, f"not reproducible in Blender: {reason}")
    else:
        ctx.note(APPROXIMATED, root, f"collision filters approximated with {COLLECTIONS} collections {detail}")


def _label(key, entries) -> str:
    """A class key as the report names it: the filter index, or the filter index on one body."""
    if isinstance(key, Instance):
        return f"{key.key} on {entries[key.unit][0].name!r}"
    return str(key)
