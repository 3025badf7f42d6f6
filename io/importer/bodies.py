"""Bodies and colliders: ``motion`` → ACTIVE (kinematic → Animated), static colliders → PASSIVE, compounds.

* A motion node's object carries the rigid body. One collider on the motion node itself → a direct shape (its own
  render mesh when Blender derives the same shape from it, else the node's Empty becomes a mesh object holding the
  shape). Several colliders, or colliders on descendants → COMPOUND parent with one child shape per collider
  (direct mesh children whose mesh already matches, else generated proxies parented to the body).
* A collider with no motion ancestor → its own PASSIVE body (own mesh, replaced Empty, or a child proxy).
* Mass: explicit → Blender mass; absent → density × collider volume ("ABSENT" kept for export); 0 (KHR infinite) →
  PASSIVE + Animated ("INFINITE" kept). Damping is set to 0 (glTF has none).
"""

from __future__ import annotations

from collections import defaultdict

from ..gltf.model import BOX, BoxShape, Shape
from ..gltf.nodes import nearest_marked, parent_map
from ..mapping import passthrough
from ..mapping import stored as props
from .body_values import add_rigid_body, apply_motion, at, fit_float32
from .context import APPROXIMATED, DISABLED, SKIPPED, ImportContext
from .geometry import GeometryData, ResolvedGeometry, new_shape_data, own_shape, resolve
from .proxies import empty_mesh, holds_no_mesh, new_child_object, relative_transform, replace_with_mesh_object
from .proxies import style_as_proxy as _style

NO_COLLIDER_SIZE = 0.1


def build(ctx: ImportContext) -> None:
    doc = ctx.document
    motion_nodes = sorted(i for i, n in doc.nodes.items() if n.motion is not None)
    nearest = nearest_marked(ctx.parents, set(motion_nodes), range(len(ctx.json_nodes)))  # O(nodes)
    for index in range(len(ctx.json_nodes)):
        ctx.body_node_of[index] = nearest[index]
    by_body: dict[int | None, list[int]] = defaultdict(list)
    for index in sorted(i for i, n in doc.nodes.items() if n.collider is not None):
        by_body[ctx.body_node_of.get(index)].append(index)
    for m in motion_nodes:
        _guarded(ctx, m, "motion", "rigid body", _motion_body, ctx, m, by_body.get(m, []))
    for c in by_body.get(None, []):
        _guarded(ctx, c, "collider", "static collider", _static_collider, ctx, c)
    for m in motion_nodes:
        _guarded(ctx, m, "motion", "nested body", _detach_from_compound, ctx, m)
    for c in (c for cs in by_body.values() for c in cs):  # after replacements: the final objects keep the data
        ob = ctx.objects.get(c)
        if ob is not None:
            _guarded(ctx, c, "collider", "storing the collider", _store_collider, ctx, ob, c)
    for index, body in ctx.body_node_of.items():
        ctx.body_object_of[index] = None if body is None else ctx.body_objects.get(body)


def _guarded(ctx: ImportContext, index: int, part: str, what: str, func, *args):
    """``ctx.guarded`` at the node's ``part`` pointer, built only when ``func`` fails (called per body)."""
    return ctx.guarded(lambda: ctx.node_pointer(index, part), what, func, *args)


def replacement_candidates(document, json_nodes: list) -> set[int]:
    """Nodes whose Empty the body step replaces by a mesh object: motion nodes, and static colliders with geometry
    (no motion ancestor, not all-zero scale). A node predicted wrongly keeps its own name (``remove_replaced``)."""
    json_nodes = json_nodes if isinstance(json_nodes, list) else []
    motion = {i for i, n in document.nodes.items() if n.motion is not None}
    parents = parent_map(json_nodes)
    above = nearest_marked(parents, motion, parents.values())  # nearest motion at or above each parent: O(nodes)
    out = set(motion)
    for i, n in document.nodes.items():
        if n.collider is None or n.collider.geometry is None or i in motion or not 0 <= i < len(json_nodes):
            continue
        node = json_nodes[i]
        scale = node.get("scale") if isinstance(node, dict) else None
        if isinstance(scale, list) and len(scale) == 3 and all(v == 0 for v in scale):
            continue
        if i not in parents or above.get(parents[i]) is None:
            out.add(i)
    return out


def _scale_of(ctx: ImportContext, index: int) -> tuple[float, float, float]:
    return ctx.node_scale(index)


def _zero_scale(ctx: ImportContext, index: int) -> bool:
    node = ctx.json_nodes[index] if 0 <= index < len(ctx.json_nodes) else {}
    scale = node.get("scale") if isinstance(node, dict) else None
    return isinstance(scale, list) and len(scale) == 3 and all(s == 0 for s in scale)


_UNBUILT = "unbuilt shape colliders"  # ctx.cache key: collider nodes whose implicit shape could not be built


def _prepare_collider(ctx: ImportContext, index: int):
    """Store the collider on its node's object and resolve its geometry; None = nothing to build."""
    collider = ctx.document.nodes[index].collider
    ptr = ctx.node_pointer(index, "collider")
    if collider.geometry is None:
        return None
    if _zero_scale(ctx, index):
        ctx.note(DISABLED, ptr, "node scale is zero on all axes: collider disabled")
        return None
    geo = resolve(ctx, collider.geometry, ptr + "/geometry", _scale_of(ctx, index))
    if geo is None and collider.geometry.shape is not None:  # nothing realises it: written back as stored
        ctx.cache.setdefault(_UNBUILT, set()).add(index)
    return geo


def _store_collider(ctx: ImportContext, ob, index: int) -> None:
    doc, collider = ctx.document, ctx.document.nodes[index].collider
    pg = ctx.stored(ob)
    if ctx.document.nodes[index].motion is None or ctx.body_objects.get(index) != ob:  # else ``_motion_body`` did
        props.assign(pg, role="NODE", node_index=index, source=ctx.document.nodes[index].source or "")
    disabled = collider.geometry is not None and (_zero_scale(ctx, index) or index in ctx.cache.get(_UNBUILT, ()))
    pc = pg.collider
    props.assign(pc, has_collider=True, disabled=disabled, passthrough=passthrough.dumps(collider))
    props.store_geometry(pc.geometry, doc, collider.geometry, ctx.cache)
    props.store_material(pc.material, props.lookup(doc.materials, collider.material), collider.material, ctx.cache)
    props.store_filter(pc.filter, props.lookup(doc.filters, collider.filter), collider.filter)


def _mark_proxy(ctx: ImportContext, ob, index: int, generated_for_node: bool) -> None:
    _style(ob)
    if not generated_for_node:
        pg = ctx.stored(ob)
        pg.role = "PROXY"
        pg.proxy_node = index


def _material_of(ctx: ImportContext, index: int):
    collider = ctx.document.nodes[index].collider
    return props.lookup(ctx.document.materials, collider.material) if collider else None


def _notes(ctx: ImportContext, index: int, data: GeometryData | None) -> None:
    for text in data.notes if data else ():
        ctx.note(APPROXIMATED, ctx.node_pointer(index, "collider"), text)


# --- motion bodies -----------------------------------------------------------------------------------------------


def _motion_body(ctx: ImportContext, m: int, colliders: list[int]) -> None:
    ob = ctx.objects.get(m)
    if ob is None:
        held = f", with its collider(s) at node(s) {', '.join(map(str, colliders))}" if colliders else ""
        ctx.warn(
            SKIPPED,
            at(ctx, m),
            f"motion on a node without a Blender object (bone or not in the scene){held}: "
            "skipped, and the joints to it",
        )
        return
    if ob.type not in ("MESH", "EMPTY"):
        ctx.warn(SKIPPED, at(ctx, m), f"motion on a {ob.type} object: Blender rigid bodies need a mesh object")
        return
    usable = [(c, geo) for c in colliders if (geo := _prepare_collider(ctx, c)) is not None]
    scale = _scale_of(ctx, m)
    parts: list[tuple[int, object, GeometryData]] = []  # (collider node, object with shape, data)
    if len(usable) == 1 and usable[0][0] == m:
        data = own_shape(ctx, m, ob, usable[0][1], scale)
        if data is None and holds_no_mesh(ctx, ob):
            data = new_shape_data(ctx, ob.name + ".collider", usable[0][1], object_scale=scale)
            if data is not None:
                ob = replace_with_mesh_object(ctx, m, data.mesh)
                _mark_proxy(ctx, ob, m, True)
                ctx.stored(ob).generated_mesh = True
        if data is not None:
            parts.append((m, ob, data))
    if not parts and usable:
        if holds_no_mesh(ctx, ob):
            ob = replace_with_mesh_object(ctx, m, empty_mesh(ob.name + ".compound"))
            ctx.stored(ob).generated_mesh = True
        for c, geo in usable:
            part = _guarded(ctx, c, "collider", "compound child", _compound_child, ctx, m, ob, c, geo)
            if part is not None:
                parts.append(part)
    motion = fit_float32(ctx, m, ctx.document.nodes[m].motion)
    pg = ctx.stored(ob)
    props.assign(pg, role="NODE", node_index=m, source=ctx.document.nodes[m].source or "")
    animated = m in ctx.animated
    props.store_motion(pg.motion, motion, animated)
    if not parts:
        if holds_no_mesh(ctx, ob):
            data = new_shape_data(ctx, ob.name + ".body", _box_geometry(), object_scale=scale)
            ob = replace_with_mesh_object(ctx, m, data.mesh)
            _mark_proxy(ctx, ob, m, True)
            ctx.stored(ob).generated_mesh = True
        rb = add_rigid_body(ctx, ob, "BOX" if ctx.stored(ob).generated_mesh else "CONVEX_HULL", "ACTIVE")
        rb.collision_collections = [False] * 20
        ctx.note(APPROXIMATED, at(ctx, m), "body without colliders: imported as a body that collides with nothing")
    elif len(parts) == 1 and parts[0][1] == ob:
        rb = add_rigid_body(ctx, ob, parts[0][2].collision_shape, "ACTIVE")
    else:
        rb = add_rigid_body(ctx, ob, "COMPOUND", "ACTIVE")
    apply_motion(ctx, m, ob, rb, motion, lambda: _total_volume([p[2] for p in parts]), animated)
    for c, child, data in parts:
        _notes(ctx, c, data)
        if child != ob:
            child_rb = add_rigid_body(ctx, child, data.collision_shape, rb.type, rb.kinematic)
            props.apply_material(child_rb, _material_of(ctx, c))
        ctx.collider_objects.setdefault(c, []).append(child)
    materials = {id(_material_of(ctx, c)) for c, _, _ in parts}
    if len(materials) > 1:
        ctx.note(APPROXIMATED, at(ctx, m), "compound body with several physics materials: Blender uses the first one")
    props.apply_material(rb, _material_of(ctx, parts[0][0]) if parts else None)
    ctx.body_objects[m] = ob
    ctx.objects[m] = ob


_NO_COLLIDER_BOX = ResolvedGeometry(shape=Shape(type=BOX, params=BoxShape(size=(NO_COLLIDER_SIZE,) * 3)))


def _box_geometry() -> ResolvedGeometry:
    """The 10 cm box of bodies without colliders (one shared object: one shared proxy mesh per scale)."""
    return _NO_COLLIDER_BOX


def _compound_child(ctx: ImportContext, m: int, body, c: int, geo):
    """One child shape of compound body ``m``: a direct mesh child whose mesh matches, else a proxy."""
    child = ctx.objects.get(c)
    if c != m and child is not None and child.parent == body:
        data = own_shape(ctx, c, child, geo, _scale_of(ctx, c))
        if data is not None:
            return c, child, data
    matrix, scale = relative_transform(ctx, m, c)
    if c == m:
        scale = (1.0, 1.0, 1.0)
    name = (child.name if child is not None else f"Node_{c}") + ".collider"
    data = new_shape_data(ctx, name, geo, bake_scale=scale, object_scale=_scale_of(ctx, m))
    if data is None:
        return None
    proxy = new_child_object(ctx, name, data.mesh, body, matrix)
    _mark_proxy(ctx, proxy, c, False)
    if child is None:
        _store_collider(ctx, proxy, c)
        ctx.stored(proxy).role = "PROXY"
    return c, proxy, data


def _total_volume(parts: list[GeometryData]) -> float | None:
    """The summed volume of a body's colliders (None when there are none or one has no volume)."""
    volumes = [part.volume for part in parts]
    return sum(volumes) if volumes and all(v is not None for v in volumes) else None


def _detach_from_compound(ctx: ImportContext, m: int) -> None:
    """Blender merges every direct rigid-body child into a COMPOUND parent: a nested independent body is
    unparented (world transform kept, the file's parent remembered in ``gltf_parent`` for export)."""
    ob = ctx.body_objects.get(m)
    parent = ob.parent if ob is not None else None
    if parent is None or parent.rigid_body is None or parent.rigid_body.collision_shape != "COMPOUND":
        return
    world = ctx.node_world_matrix(m)
    ob.gltf_physics.gltf_parent = parent
    ob.parent = None
    ob.matrix_basis = world
    ctx.note(APPROXIMATED, ctx.node_pointer(m, "motion"), f"nested body unparented from compound body {parent.name!r}")


# --- static colliders --------------------------------------------------------------------------------------------


def _static_collider(ctx: ImportContext, c: int) -> None:
    geo = _prepare_collider(ctx, c)
    if geo is None:
        return
    ptr = ctx.node_pointer(c, "collider")
    ob = ctx.objects.get(c)
    if ob is None:
        ctx.warn(SKIPPED, ptr, "collider on a node without a Blender object (bone or not in the scene): skipped")
        return
    scale = _scale_of(ctx, c)
    data = own_shape(ctx, c, ob, geo, scale)
    body = ob
    if data is None:
        data = new_shape_data(ctx, ob.name + ".collider", geo, object_scale=scale)
        if data is None:
            ctx.warn(SKIPPED, ptr, "no geometry could be built for this collider")
            return
        if holds_no_mesh(ctx, ob):
            body = replace_with_mesh_object(ctx, c, data.mesh)
            _mark_proxy(ctx, body, c, True)
            ctx.stored(body).generated_mesh = True
            ctx.objects[c] = body
        else:
            body = new_child_object(ctx, ob.name + ".collider", data.mesh, ob)
            _mark_proxy(ctx, body, c, False)
    _notes(ctx, c, data)
    rb = add_rigid_body(ctx, body, data.collision_shape, "PASSIVE", ctx.animated_at_or_above(c))
    props.apply_material(rb, _material_of(ctx, c))
    ctx.body_objects[c] = body
    ctx.collider_objects.setdefault(c, []).append(body)
