"""Blender values → spec-model values for the exporter (bpy-free: plain numbers, tuples and numpy 4×4s).

Axes (specs.md §6.1, the inverse of the import) go through ``axes``. Shapes are read from the local bounds
Blender derives its primitives from (``derive_shape``, also behind the panel read-outs). Joint frames keep the
constraint Empty's own axes, so glTF axis k is the Empty's axis k and Blender limit values keep their sign (linear)
or are negated and swapped (angular), as on import.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence

import numpy as np

from ..gltf.model import (
    BOX,
    CAPSULE,
    CYLINDER,
    IMPLICIT_TYPES,
    PARAM_CLASSES,
    PARAM_KEYS,
    SPHERE,
    BoxShape,
    CapsuleShape,
    CollisionFilter,
    CylinderShape,
    Frame,
    PhysicsMaterial,
    Shape,
    SphereShape,
)
from ..gltf.nodes import affine_inverses, exact_trs_many, rigid
from ..gltf.numbers import r7
from .axes import axis_change, clean_zero, scale_to_gltf

TOL = 1e-5
BLENDER_PRIMITIVES = ("BOX", "SPHERE", "CAPSULE", "CYLINDER", "CONE")  # collision shapes sized from the bounds


def _stacked(parents: Sequence, matrices: Sequence) -> tuple[np.ndarray, np.ndarray]:
    """(parents, matrices) as (n, 4, 4) float arrays (a parent None = identity: the scene root)."""
    matrix = np.asarray(matrices, dtype=float).reshape(len(matrices), 4, 4)
    parent = np.array([np.eye(4) if p is None else np.asarray(p, dtype=float) for p in parents]).reshape(matrix.shape)
    return parent, matrix


def attachment_frames(parents: Sequence, pivots: Sequence, yup: bool = True) -> list[Frame | None]:
    """Local TRS (glTF) of nodes whose frame axes are the pivots' axes (``nodes.rigid``: scale and shear taken out),
    under nodes whose Blender world matrices are ``parents`` (None = scene root), for many pairs at once; a pair is
    None where the parent is singular or the result cannot be decomposed. Both matrices in Blender world space."""
    if not pivots:
        return []
    parent, pivot = _stacked(parents, pivots)
    with np.errstate(all="ignore"):  # non-finite and singular rows are marked by ok
        inverse, ok = affine_inverses(parent)
        t, q, s, exact = exact_trs_many(axis_change(yup) @ inverse @ rigid(pivot))
    ok &= exact
    return [
        Frame(translation=tuple(map(clean_zero, t[i])), rotation=tuple(map(clean_zero, q[i])), scale=tuple(s[i]))
        if ok[i]
        else None
        for i in range(len(pivots))
    ]


def gltf_locals(parents: Sequence, worlds: Sequence, yup: bool = True) -> list[tuple[tuple, tuple, tuple] | None]:
    """glTF TRS of nodes whose Blender world matrices are ``worlds`` under nodes at ``parents`` (None = scene root;
    the exporter's K·M·K⁻¹ conversion of the Blender local matrix), for many nodes at once; None where a parent is
    singular or the local transform has shear."""
    if not worlds:
        return []
    parent, world = _stacked(parents, worlds)
    k = axis_change(yup)
    with np.errstate(all="ignore"):
        inverse, ok = affine_inverses(parent)
        t, q, s, exact = exact_trs_many(k @ inverse @ world @ k.T)
    ok &= exact
    return [(tuple(t[i]), tuple(q[i]), tuple(s[i])) if ok[i] else None for i in range(len(worlds))]


# --- shapes -------------------------------------------------------------------------------------------------------


def derive_shape(collision_shape: str, bounds_min, bounds_max, rnd=r7) -> Shape | None:
    """The glTF shape Blender simulates for a primitive collision shape with these local bounds (None: not one of
    ``BLENDER_PRIMITIVES`` — CONVEX_HULL / MESH / COMPOUND).

    Blender sizes primitives from the bounds and centres them on the object origin (quadrics stand on local Z =
    glTF +Y): box = the extents; sphere radius = half the largest extent; capsule/cylinder/cone radius = half the
    larger X/Y extent, height = the Z extent (capsule: centre distance = Z extent − 2r; cone: apex at +Z = radiusTop
    0). ``rnd`` rounds each derived number: ``r7`` for the exporter (bounds are 32-bit floats), ``float`` for the
    panel read-outs.
    """
    if collision_shape not in BLENDER_PRIMITIVES:
        return None
    ex, ey, ez = (rnd(float(h) - float(lo)) for lo, h in zip(bounds_min, bounds_max, strict=True))
    if collision_shape == "BOX":
        return Shape(type=BOX, params=BoxShape(size=scale_to_gltf((ex, ey, ez))))
    if collision_shape == "SPHERE":
        return Shape(type=SPHERE, params=SphereShape(radius=rnd(max(ex, ey, ez) / 2.0)))
    r = rnd(max(ex, ey) / 2.0)
    if collision_shape == "CAPSULE":
        height = rnd(max(ez - 2.0 * r, 0.0))
        return Shape(type=CAPSULE, params=CapsuleShape(height=height, radius_top=r, radius_bottom=r))
    top = 0.0 if collision_shape == "CONE" else r
    return Shape(type=CYLINDER, params=CylinderShape(height=ez, radius_top=top, radius_bottom=r))


def as_simulated(shape: Shape) -> Shape:
    """A derived capsule of centre distance 0 is the sphere Blender simulates (it clamps Z extent − 2r at 0: a
    capsule no taller than wide is a ball of radius r), written as that sphere: a glTF capsule needs height > 0."""
    params = shape.params
    if shape.type == CAPSULE and isinstance(params, CapsuleShape) and params.height == 0.0 and params.radius_top > 0:
        return Shape(type=SPHERE, params=SphereShape(radius=params.radius_top))
    return shape


def shape_from_json(data: dict) -> Shape | None:
    """A model shape from the KHR_implicit_shapes JSON kept on the object (``shape_to_json`` form)."""
    if not isinstance(data, dict) or not isinstance(data.get("type"), str):
        return None
    kind = data["type"]
    name = data.get("name") if isinstance(data.get("name"), str) else None
    if kind not in IMPLICIT_TYPES:
        return Shape(type=kind, params=None, name=name)
    sub = data.get(kind) if isinstance(data.get(kind), dict) else {}
    values = {}
    for attr, key in PARAM_KEYS[kind].items():
        if key in sub:
            value = _param(attr, sub[key])
            if value is None:  # not a value of this parameter's kind: the stored text is unreadable
                return None
            values[attr] = value
    return Shape(type=kind, params=PARAM_CLASSES[kind](**values), name=name)


def _param(attr: str, value):
    """A stored shape parameter as the model holds it (``size``: 3 numbers, ``double_sided``: a boolean, the rest
    numbers), or None when it is not one."""
    if attr == "double_sided":
        return value if isinstance(value, bool) else None
    if attr == "size":
        ok = isinstance(value, list) and len(value) == 3 and all(map(_is_number, value))
        return tuple(float(v) for v in value) if ok else None
    return value if _is_number(value) else None


def _is_number(value) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def shapes_close(a: Shape | None, b: Shape | None, rel: float = 1e-3) -> bool:
    """Same type and parameters within ``rel`` of the largest parameter (a cone equals a cylinder with radius 0)."""
    if a is None or b is None or a.type != b.type or a.params is None or b.params is None:
        return False
    va, vb = _numbers(a.params), _numbers(b.params)
    if len(va) != len(vb):
        return False
    scale = max([abs(v) for v in va + vb] + [1e-6])
    return all(abs(x - y) <= rel * scale for x, y in zip(va, vb, strict=True))


def _numbers(params) -> list[float]:
    out: list[float] = []
    for attr in ("size", "radius", "height", "radius_top", "radius_bottom", "size_x", "size_z"):
        value = getattr(params, attr, None)
        if isinstance(value, tuple):
            out.extend(float(v) for v in value)
        elif value is not None:
            out.append(float(value))
    return out


# --- materials and filters -------------------------------------------------------------------------------------------


def native_material(friction: float, restitution: float) -> PhysicsMaterial:
    """Blender's single friction/restitution, which Bullet multiplies (specs §6.4: ``multiply`` reproduces it)."""
    f = r7(friction)
    return PhysicsMaterial(
        static_friction=f,
        dynamic_friction=f,
        restitution=r7(restitution),
        friction_combine="multiply",
        restitution_combine="multiply",
    )


NO_COLLECTION = "no_collection"


def system_name(collections) -> str:
    """The system of one collision-collection set: ``collection_<i>`` for one collection, ``collections_<i>_<j>…``
    for several, ``no_collection`` for none (an int is read as a one-collection set).

    Indices, not names: Blender's 20 rigid-body collision collections are a bare 20-bool array
    (``RigidBodyObject.collision_collections``) with no names anywhere in its data (checked in 4.2–5.0); the index is
    the only label a user sees (the n-th button in the panel).
    """
    indices = sorted({collections} if isinstance(collections, int) else collections)
    if not indices:
        return NO_COLLECTION
    if len(indices) == 1:
        return f"collection_{indices[0]}"
    return "collections_" + "_".join(str(i) for i in indices)


def filters_from_collections(sets: dict) -> tuple[dict, int]:
    """KHR filters for Blender bodies' collision collections: ``{key: frozenset(indices)}`` →
    (``{key: CollisionFilter | None}``, number of body pairs whose collide/not-collide answer differs).

    Blender: two bodies collide iff they share a collection. No filters at all when every body uses only
    collection 0 (Blender's default). Otherwise the encoding is exact for any sets: one system per distinct set
    (``system_name``); a set's ``collideWithSystems`` are the systems of every set that shares a collection with it
    (itself included). Under the spec's two-way subset rule two bodies then collide iff their sets meet. A body in no
    collection gets the system ``no_collection`` and ``notCollideWithSystems`` every system, its own included (it
    collides with nothing, not even another body in no collection).

    ``wrong`` is a self-check (always 0 for this encoding), computed over distinct sets with their multiplicities:
    O(distinct²) however many bodies share a set.
    """
    counts = Counter(frozenset(s) for s in sets.values())
    if set(counts) <= {frozenset({0})}:
        return {key: None for key in sets}, 0
    distinct = sorted(counts, key=lambda s: (len(s), sorted(s)))
    every = tuple(system_name(s) for s in distinct)
    made: dict[frozenset, CollisionFilter] = {}
    for s in distinct:
        if not s:
            made[s] = CollisionFilter(collision_systems=(NO_COLLECTION,), not_collide_with_systems=every)
            continue
        made[s] = CollisionFilter(
            collision_systems=(system_name(s),), collide_with_systems=tuple(system_name(t) for t in distinct if t & s)
        )
    wrong = 0
    for n, a in enumerate(distinct):
        for b in distinct[n:]:
            if filter_collides(made[a], made[b]) != bool(a & b):
                wrong += counts[a] * (counts[a] - 1) // 2 if a == b else counts[a] * counts[b]
    return {key: made[frozenset(s)] for key, s in sets.items()}, wrong


NOTHING = "collides_with_nothing"  # a whitelisted system no collider belongs to (glTF drops an empty list)


def nothing_filter(used: Iterable[str] = ()) -> CollisionFilter:
    """The filter of a body that collides with nothing: system ``no_collection``, ``collideWithSystems`` = one name
    that is no collider's system (``NOTHING``, suffixed until it is not in ``used``). An empty ``collideWithSystems``
    would say the same, but Blender's glTF exporter drops empty lists from the JSON."""
    taken, name, n = set(used), NOTHING, 2
    while name in taken:
        name, n = f"{NOTHING}_{n}", n + 1
    return CollisionFilter(collision_systems=(NO_COLLECTION,), collide_with_systems=(name,))


def export_filters_from_collections(sets: dict, used: Iterable[str] = ()) -> tuple[dict, int]:
    """:func:`filters_from_collections` as export writes it: a body in no collection gets :func:`nothing_filter`
    (a whitelist no collider is on) instead of ``notCollideWithSystems`` of the native systems. Both are exact among
    bodies authored in Blender, but only the whitelist also keeps it from colliding with imported colliders whose
    stored filters name other systems, or none (spec subset rule: an object whose systems are not all whitelisted,
    or that has none, is rejected). ``used``: the system names of the other (stored) filters of the file."""
    filters, wrong = filters_from_collections(sets)
    if not any(flt is not None and not sets[key] for key, flt in filters.items()):
        return filters, wrong
    names = {n for flt in filters.values() if flt is not None for n in flt.collision_systems or ()}
    isolated = nothing_filter({*used, *names})
    return {key: isolated if flt is not None and not sets[key] else flt for key, flt in filters.items()}, wrong


def filter_collides(a: CollisionFilter, b: CollisionFilter) -> bool:
    """The KHR two-way subset rule (specs §6.5)."""

    def accepts(x: CollisionFilter, y: CollisionFilter) -> bool:
        systems = set(x.collision_systems or ())
        if y.collide_with_systems is not None and not systems <= set(y.collide_with_systems):
            return False
        return not (y.not_collide_with_systems is not None and systems <= set(y.not_collide_with_systems))

    return accepts(a, b) and accepts(b, a)
