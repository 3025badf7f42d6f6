"""Collision filters ⇄ Blender's collision collections for the panels (scene-wide: the relation is between bodies).

* :func:`collections_from_filters` — every body's ``collision_collections`` from the filters (the importer's filter
  solver, ``mapping.filters_to_blender.solve``); run after each filter edit (``filter_changed``) and by the button
  *Collision Collections from Filters*.
* :func:`filters_from_collections` — every body's stored filter from its collections, with the exporter's exact
  encoding of "collide if they share a collection" (``mapping.values_to_gltf.export_filters_from_collections``).
* :func:`collides_with` — the scene's bodies a collider touches under the spec's subset rule (``sim.pairs``), from
  the filters export writes (stored, or derived from the collections of bodies without one); cached by filter class
  until a filter edit here or a depsgraph update (``invalidate``).

The unit Blender filters is a body: a compound body's rigid-body children use their parent's collections.
"""

from __future__ import annotations

import json
from collections.abc import Iterator

import bpy
import numpy as np

from ...io.gltf.model import CollisionFilter
from ...io.importer.reproduce.mass import carrier_of
from ...io.mapping import filter_rows, sync_gate
from ...io.mapping.filters_to_blender import COLLECTIONS, FilterAssignment, solve, to_pair_filter
from ...io.mapping.object_tree import ObjectTree
from ...io.mapping.roles import HELPER_ROLES
from ...io.mapping.values_to_gltf import export_filters_from_collections
from ...sim.pairs import FilterTable, filters_collide
from ..body.sync_body import synced

FIELDS = filter_rows.FIELDS
names_of = filter_rows.names_of


def stored_filter(pflt) -> CollisionFilter | None:
    """The model filter of a stored filter group (None = no filter); ValueError when a list is malformed."""
    if not pflt.has_filter:
        return None
    lists = [names_of(getattr(pflt, field)) for field in FIELDS]
    return CollisionFilter(collision_systems=lists[0], collide_with_systems=lists[1], not_collide_with_systems=lists[2])


def _is_unit(ob) -> bool:
    rb = ob.rigid_body
    if rb is None or ob.gltf_physics.joint.role in HELPER_ROLES:
        return False
    parent = ob.parent
    return not (
        parent is not None and parent.rigid_body is not None and parent.rigid_body.collision_shape == "COMPOUND"
    )


def units(scene) -> Iterator[tuple[object, list]]:
    """(body, [the body and its compound children]) for every rigid body of ``scene`` (helpers left out); a body
    that a centre-of-mass helper simulates counts with that helper and the helper's other children. O(objects):
    the children come from one pass (``Object.children`` scans every object each time)."""
    tree = ObjectTree(bpy.data.objects)

    def bodies_under(ob) -> list:
        return [c for c in tree.children(ob) if c.rigid_body is not None]

    for ob in scene.objects:
        if _is_unit(ob):
            compound = ob.rigid_body.collision_shape == "COMPOUND"
            yield ob, [ob, *(bodies_under(ob) if compound else [])]
        elif ob.rigid_body is not None and ob.gltf_physics.joint.role in HELPER_ROLES:
            body = ob.gltf_physics.joint.node_b
            if body is not None and body.rigid_body is not None and carrier_of(body) == ob:
                yield body, [body, ob, *(c for c in bodies_under(ob) if c != body)]


def _unit_filter(members: list) -> CollisionFilter | None | str:
    """The stored filter of a unit (its first member with one); ``"none"`` when no member stores a filter."""
    for ob in members:
        pflt = ob.gltf_physics.collider.filter
        if pflt.has_filter:
            return stored_filter(pflt)
    return "none"


def _stores_collider(members: list) -> bool:
    """The unit came from a glTF import (a stored collider): export writes its stored filter, or none."""
    return any(ob.gltf_physics.collider.has_collider for ob in members)


def _key(flt: CollisionFilter | None):
    if flt is None:
        return None
    return (flt.collision_systems, flt.collide_with_systems, flt.not_collide_with_systems)


def export_filters(scene, strict: bool = True) -> list[tuple[object, list, CollisionFilter | None]]:
    """(body, members, the filter export writes for it): the stored filter; none for an imported collider without
    one; for a body authored in Blender, the exact encoding of its collision collections (among those bodies, as the
    exporter does, ``export_filters_from_collections``: a body in no collection collides with nothing,
    ``collideWithSystems`` []). ``strict``: an
    unreadable stored filter raises ValueError, else it counts as no filter."""
    found, stored = [], set()
    for ob, members in units(scene):
        try:
            flt = _unit_filter(members)
        except ValueError:
            if strict:
                raise
            flt = None
        if flt != "none":
            stored.add(ob.name)
        found.append((ob, members, None if flt == "none" else flt))
    native = {ob.name for ob, members, _ in found if ob.name not in stored and not _stores_collider(members)}
    sets = {ob.name: _collections(ob) for ob, _, _ in found if ob.name in native}
    derived, _ = export_filters_from_collections(sets, _stored_names(found))  # the exporter's own encoding
    return [(ob, members, derived[ob.name] if ob.name in native else flt) for ob, members, flt in found]


def _stored_names(found: list) -> set[str]:
    """System names of the stored filters among ``found`` (what ``nothing_filter`` must avoid)."""
    return {n for _ob, _m, flt in found if flt is not None for group in _lists(flt) for n in group or ()}


def collections_from_filters(scene) -> FilterAssignment | None:
    """Every body's collision collections from the filters export writes (``export_filters``: a body authored in
    Blender keeps the relation its collections give), through the importer's solver; None when the scene stores
    no filter."""
    found = export_filters(scene)
    if not any(_unit_filter(members) != "none" for _, members, _ in found):
        return None
    filters, counts = {}, {}
    for _, _, flt in found:
        filters[_key(flt)] = flt
        counts[_key(flt)] = counts.get(_key(flt), 0) + 1
    result = solve(filters, counts)
    invalidate()
    for _ob, members, flt in found:
        chosen = set(result.collections[_key(flt)])
        flags = [i in chosen for i in range(COLLECTIONS)]
        for member in members:
            if list(member.rigid_body.collision_collections) != flags:
                member.rigid_body.collision_collections = flags
    return result


def _collections(ob) -> frozenset[int]:
    return frozenset(i for i, on in enumerate(ob.rigid_body.collision_collections) if on)


def filters_from_collections(scene) -> int:
    """Store on every body (and its compound children) the filter the exporter writes for its collections; a scene
    whose bodies all use only collection 0 gets no filters. Returns how many bodies were given a filter."""
    found = list(units(scene))
    filters, _wrong = export_filters_from_collections({ob.name: _collections(ob) for ob, _ in found})
    given = 0
    invalidate()
    with sync_gate.paused():  # the collections are the source here: no re-solve while writing
        for ob, members in found:
            flt = filters[ob.name]
            for member in members:
                if member.gltf_physics.joint.role not in HELPER_ROLES:  # never onto a centre-of-mass helper
                    write_filter(member.gltf_physics.collider.filter, flt)
            given += flt is not None
    return given


def write_filter(pflt, flt: CollisionFilter | None) -> None:
    """Store ``flt`` (None = no filter) on a filter group, its name and passthrough kept."""
    pflt.has_filter = flt is not None
    for field, values in zip(FIELDS, _lists(flt), strict=True):
        setattr(pflt, field, "" if values is None else json.dumps(list(values)))


def _lists(flt: CollisionFilter | None) -> tuple:
    if flt is None:
        return (None, None, None)
    return (flt.collision_systems, flt.collide_with_systems, flt.not_collide_with_systems)


@synced
def filter_changed(ob, pflt, context) -> None:
    """An edited collider filter re-solves the scene's collision collections (a malformed list changes nothing)."""
    invalidate()
    if pflt != ob.gltf_physics.collider.filter or ob.rigid_body is None or context.scene is None:
        return
    try:
        collections_from_filters(context.scene)
    except ValueError:
        return


# --- read-outs ------------------------------------------------------------------------------------------------


def scene_system_names(scene) -> list[str]:
    """Every system name used by a stored filter in ``scene`` (colliders and triggers), sorted."""
    names: set[str] = set()
    for ob in scene.objects:
        pg = getattr(ob, "gltf_physics", None)
        if pg is None:
            continue
        for pflt in (pg.collider.filter, pg.trigger.filter):
            if not pflt.has_filter:
                continue
            for field in FIELDS:
                try:
                    names.update(names_of(getattr(pflt, field)) or ())
                except ValueError:
                    continue
    return sorted(names)


_CACHE: dict = {}


@bpy.app.handlers.persistent
def invalidate(*_args) -> None:
    """Drop the cached relation (after a filter edit here, and from the depsgraph / load / undo handlers that
    ``filter_lists`` registers: a collision-collection edit in Blender's own panel changes the relation too)."""
    _CACHE.clear()


def _relation(scene) -> dict:
    """The relation by filter class: ``{"class": name → class index, "unit": name → its body's name, "members":
    class → body names, "collides": class → colliding classes}`` (spec subset rule on ``export_filters``; an
    unreadable stored filter counts as none). O(bodies) to build, O(distinct filters²) pair tests."""
    found = export_filters(scene, strict=False)
    keys: dict = {}
    of: dict[str, int] = {}
    unit_of: dict[str, str] = {}
    members: list[list[str]] = []
    for ob, unit, flt in found:
        index = keys.setdefault(_key(flt), len(keys))
        if index == len(members):
            members.append([])
        members[index].append(ob.name)
        for member in unit:
            of[member.name], unit_of[member.name] = index, ob.name
    distinct = [None] * len(keys)
    for _ob, _unit, flt in found:
        distinct[keys[_key(flt)]] = flt
    matrix = FilterTable([to_pair_filter(f) for f in distinct]).matrix() if distinct else np.zeros((0, 0), bool)
    collides = [np.flatnonzero(matrix[i]).tolist() for i in range(len(distinct))]
    return {"class": of, "unit": unit_of, "members": members, "collides": collides, "filters": distinct}


def collides_with(ob) -> list[str] | None:
    """Names of the scene's bodies ``ob`` collides with (sorted); None when it is not a body of the scene. The
    relation is cached per scene until :func:`invalidate`."""
    scene = bpy.context.scene
    if scene is None or ob.rigid_body is None:
        return None
    key = (scene.name, len(scene.objects))
    if _CACHE.get("key") != key:
        _CACHE["key"], _CACHE["value"] = key, _relation(scene)
    relation = _CACHE["value"]
    index = relation["class"].get(ob.name)
    if index is None:
        return None
    own = relation["unit"][ob.name]
    names = [name for other in relation["collides"][index] for name in relation["members"][other] if name != own]
    return sorted(names)


def overlaps_with(ob) -> list[str] | None:
    """Names of the scene's bodies the trigger on ``ob`` overlaps (the spec's subset rule between the trigger's
    stored filter and each body's export filter; sorted, the trigger's own body left out); None when ``ob`` stores
    no trigger or its filter is unreadable. Uses the cached relation (one pair test per filter class)."""
    scene = bpy.context.scene
    if scene is None or not ob.gltf_physics.trigger.has_trigger:
        return None
    try:
        own = to_pair_filter(stored_filter(ob.gltf_physics.trigger.filter))
    except ValueError:
        return None
    key = (scene.name, len(scene.objects))
    if _CACHE.get("key") != key:
        _CACHE["key"], _CACHE["value"] = key, _relation(scene)
    relation = _CACHE["value"]
    mine = {relation["unit"].get(o.name) for o in (ob, ob.parent) if o is not None} - {None}
    names = [
        name
        for index, flt in enumerate(relation["filters"])
        if filters_collide(own, to_pair_filter(flt))
        for name in relation["members"][index]
        if name not in mine
    ]
    return sorted(names)


CLASSES: tuple = ()
