"""Validation of the document-level shape arrays: KHR_implicit_shapes, KHR_collision_shapes (2024-07),
OMI_physics_shape (current and 2023 forms) and the archived OMI_collider."""

from __future__ import annotations

from ..extensions import KHR_COLLISION_SHAPES, KHR_IMPLICIT_SHAPES, KHR_RIGID_BODIES, OMI_COLLIDER
from ..extensions import OMI_SHAPE as OMI_PHYSICS_SHAPE
from .codes import (
    COLLISION_PREFIX,
    COMPOUND_SHAPE,
    CONVEX_HULL_IGNORED,
    DEGENERATE_SHAPE,
    DUPLICATE_WEIGHTS,
    IMPLICIT_PREFIX,
    OMI_DEGENERATE_SHAPE,
    OMI_LEGACY_CAPSULE_HEIGHT,
    SHAPE_PARAMETERS_MISSING,
    SHAPE_TYPE_MISMATCH,
    SHAPE_WEIGHTS_INVALID,
    UNDEFINED_PROPERTY,
    UNKNOWN_SHAPE_TYPE,
)
from .common import (
    Ctx,
    check_index,
    check_members,
    get_bool,
    get_enum,
    get_index,
    get_number,
    get_number_array,
    get_object,
    get_object_list,
    get_string,
    pointer_join,
)

PRIMITIVES = ("sphere", "box", "capsule", "cylinder")
IMPLICIT_TYPES = (*PRIMITIVES, "plane")
COLLISION_TYPES = (*PRIMITIVES, "mesh")
OMI_TYPES = ("box", "sphere", "capsule", "cylinder", "convex", "trimesh")
OMI_COLLIDER_TYPES = ("box", "sphere", "capsule", "cylinder", "hull", "trimesh")
ROUND_MEMBERS = ("radiusBottom", "radiusTop", "height")
KHR_SUB_MEMBERS = {
    "sphere": ("radius",),
    "box": ("size",),
    "capsule": ROUND_MEMBERS,
    "cylinder": ROUND_MEMBERS,
    "plane": ("sizeX", "sizeZ", "doubleSided"),
    "mesh": ("mesh", "skin", "weights", "useNodeWeights"),
}
OMI_SUB_MEMBERS = {
    "sphere": ("radius",),
    "box": ("size",),
    "capsule": (*ROUND_MEMBERS, "radius"),
    "cylinder": (*ROUND_MEMBERS, "radius"),
    "convex": ("mesh",),
    "trimesh": ("mesh",),
}
#: Below this, height + both radii of a capsule count as a zero extent (the reference validator's threshold).
UNIT_SUM_THRESHOLD = 0.00005


def validate_shape_roots(ctx: Ctx) -> None:
    """Validate every document-level shape collection that is present."""
    for name, prefix in ((KHR_IMPLICIT_SHAPES, IMPLICIT_PREFIX), (KHR_COLLISION_SHAPES, COLLISION_PREFIX)):
        if name in ctx.root_ext:
            _khr_root(ctx, name, prefix)
    if OMI_PHYSICS_SHAPE in ctx.root_ext:
        _omi_root(ctx)
    if OMI_COLLIDER in ctx.root_ext:
        _omi_collider_root(ctx)


def _root_object(ctx: Ctx, name: str) -> tuple[dict | None, str]:
    ptr = pointer_join("/extensions", name)
    root = get_object(ctx, ctx.root_ext, name, "/extensions")
    return root, ptr


def _khr_root(ctx: Ctx, name: str, prefix: str) -> None:
    root, ptr = _root_object(ctx, name)
    if root is None:
        return
    check_members(ctx, root, ("shapes",), ptr)
    shapes = get_object_list(ctx, root, "shapes", ptr, required=True)
    for _, shape, shape_ptr in shapes or ():
        ctx.guard(shape_ptr, _khr_shape, ctx, shape, shape_ptr, prefix, name == KHR_COLLISION_SHAPES)


def _khr_shape(ctx: Ctx, shape: dict, ptr: str, prefix: str, legacy: bool) -> None:
    known = COLLISION_TYPES if legacy else IMPLICIT_TYPES
    shape_type = get_string(ctx, shape, "type", ptr, required=True)
    # An unknown type (e.g. a draft EXT_implicit_* shape) may carry its parameters under its own name: that object
    # is part of the one UNKNOWN_SHAPE_TYPE warning below, not a second, UNEXPECTED_PROPERTY one.
    custom = (shape_type,) if shape_type is not None and shape_type not in known else ()
    check_members(ctx, shape, ("type", *known, *custom), ptr, named=True)
    present = [key for key in known if key in shape]
    for key in present[1:]:
        ctx.error(prefix + COMPOUND_SHAPE, pointer_join(ptr, key), "Shape contains multiple different geometries.")
    for key in present:
        sub = get_object(ctx, shape, key, ptr)
        if sub is not None:
            _KHR_CHECKS[key](ctx, sub, pointer_join(ptr, key), prefix)
    if legacy:
        _collision_shape_extension(ctx, shape, ptr, shape_type)
    if shape_type is None:
        return
    if shape_type not in known:
        ctx.warning(UNKNOWN_SHAPE_TYPE, pointer_join(ptr, "type"), f"Unknown shape type '{shape_type}'.")
        return
    if shape_type in shape:
        return
    if present:
        ctx.error(
            SHAPE_TYPE_MISMATCH,
            pointer_join(ptr, present[0]),
            f"Shape of type '{shape_type}' carries '{present[0]}' parameters instead.",
        )
    elif shape_type == "mesh":
        ctx.error(UNDEFINED_PROPERTY, ptr, "Property 'mesh' must be defined.")
    elif legacy:
        ctx.info(SHAPE_PARAMETERS_MISSING, ptr, f"Shape lacks its '{shape_type}' object; defaults apply.")


def _collision_shape_extension(ctx: Ctx, shape: dict, ptr: str, shape_type: str | None) -> None:
    """2024-07: ``shapes[i].extensions.KHR_physics_rigid_bodies = {convexHull}``."""
    extensions = shape.get("extensions")
    if not isinstance(extensions, dict) or KHR_RIGID_BODIES not in extensions:
        return
    ext_ptr = pointer_join(ptr, "extensions")
    ext = get_object(ctx, extensions, KHR_RIGID_BODIES, ext_ptr)
    if ext is None:
        return
    here = pointer_join(ext_ptr, KHR_RIGID_BODIES)
    check_members(ctx, ext, ("convexHull",), here)
    if get_bool(ctx, ext, "convexHull", here) and shape_type in PRIMITIVES:
        ctx.info(CONVEX_HULL_IGNORED, here, "convexHull has no effect on a primitive shape.")


def _sphere(ctx: Ctx, sub: dict, ptr: str, prefix: str) -> None:
    check_members(ctx, sub, KHR_SUB_MEMBERS["sphere"], ptr)
    if get_number(ctx, sub, "radius", ptr, minimum=0) == 0:
        ctx.info(prefix + DEGENERATE_SHAPE, pointer_join(ptr, "radius"), "Shape geometry is degenerate.")


def _box(ctx: Ctx, sub: dict, ptr: str, prefix: str) -> None:
    check_members(ctx, sub, KHR_SUB_MEMBERS["box"], ptr)
    size = get_number_array(ctx, sub, "size", ptr, length=3, minimum=0)
    for i, value in enumerate(size or ()):
        if value == 0:
            ctx.info(prefix + DEGENERATE_SHAPE, pointer_join(ptr, "size", i), "Shape geometry is degenerate.")


def _round(ctx: Ctx, sub: dict, ptr: str, prefix: str, capsule: bool) -> None:
    check_members(ctx, sub, ROUND_MEMBERS, ptr)
    bottom = get_number(ctx, sub, "radiusBottom", ptr, minimum=0)
    top = get_number(ctx, sub, "radiusTop", ptr, minimum=0)
    height = get_number(ctx, sub, "height", ptr, minimum=0)
    code = prefix + DEGENERATE_SHAPE
    bottom = 0.25 if bottom is None and "radiusBottom" not in sub else bottom
    top = 0.25 if top is None and "radiusTop" not in sub else top
    height = 0.5 if height is None and "height" not in sub else height
    if bottom == 0 and top == 0:
        ctx.info(code, ptr, "Shape geometry is degenerate: both radii are zero.")
    if height == 0:
        ctx.info(code, pointer_join(ptr, "height"), "Shape geometry is degenerate: zero height.")
    if capsule and None not in (bottom, top, height) and height + bottom + top < UNIT_SUM_THRESHOLD:
        ctx.info(code, ptr, "Shape geometry is degenerate: zero extent.")


def _capsule(ctx: Ctx, sub: dict, ptr: str, prefix: str) -> None:
    _round(ctx, sub, ptr, prefix, capsule=True)


def _cylinder(ctx: Ctx, sub: dict, ptr: str, prefix: str) -> None:
    _round(ctx, sub, ptr, prefix, capsule=False)


def _plane(ctx: Ctx, sub: dict, ptr: str, prefix: str) -> None:
    check_members(ctx, sub, KHR_SUB_MEMBERS["plane"], ptr)
    for key in ("sizeX", "sizeZ"):
        if get_number(ctx, sub, key, ptr, minimum=0) == 0:
            ctx.info(prefix + DEGENERATE_SHAPE, pointer_join(ptr, key), "Shape geometry is degenerate.")
    get_bool(ctx, sub, "doubleSided", ptr)


def _mesh(ctx: Ctx, sub: dict, ptr: str, prefix: str) -> None:
    """2024-07 mesh shape ``{mesh (req), skin, weights, useNodeWeights}``."""
    check_members(ctx, sub, KHR_SUB_MEMBERS["mesh"], ptr)
    if "mesh" in sub:  # like the reference validator, an unresolved mesh names the mesh shape object
        mesh_index = check_index(ctx, sub["mesh"], ptr, len(ctx.meshes))
    else:
        mesh_index = get_index(ctx, sub, "mesh", ptr, len(ctx.meshes), required=True)
    get_index(ctx, sub, "skin", ptr, len(ctx.skins))
    weights = get_number_array(ctx, sub, "weights", ptr, min_items=1)
    use_node_weights = get_bool(ctx, sub, "useNodeWeights", ptr)
    if "weights" in sub and "useNodeWeights" in sub:
        ctx.error(prefix + DUPLICATE_WEIGHTS, ptr, 'Only one of "weights" and "useNodeWeights" should be provided.')
    elif weights is not None and mesh_index is not None:
        targets = morph_target_count(ctx.meshes[mesh_index])
        if targets != len(weights):
            ctx.error(
                SHAPE_WEIGHTS_INVALID,
                pointer_join(ptr, "weights"),
                f"The length of weights array ({len(weights)}) does not match the number of morph targets ({targets}).",
            )
    del use_node_weights


def morph_target_count(mesh: object) -> int:
    """Number of morph targets of a mesh (the first primitive's; 0 when malformed)."""
    if not isinstance(mesh, dict) or not isinstance(mesh.get("primitives"), list) or not mesh["primitives"]:
        return 0
    first = mesh["primitives"][0]
    targets = first.get("targets") if isinstance(first, dict) else None
    return len(targets) if isinstance(targets, list) else 0


_KHR_CHECKS = {
    "sphere": _sphere,
    "box": _box,
    "capsule": _capsule,
    "cylinder": _cylinder,
    "plane": _plane,
    "mesh": _mesh,
}


# ---------------------------------------------------------------------------------------------- OMI_physics_shape


def _omi_root(ctx: Ctx) -> None:
    root, ptr = _root_object(ctx, OMI_PHYSICS_SHAPE)
    if root is None:
        return
    check_members(ctx, root, ("shapes",), ptr)
    for _, shape, shape_ptr in get_object_list(ctx, root, "shapes", ptr, required=True) or ():
        ctx.guard(shape_ptr, _omi_shape, ctx, shape, shape_ptr)


def _omi_shape(ctx: Ctx, shape: dict, ptr: str) -> None:
    check_members(ctx, shape, ("type", *OMI_TYPES), ptr, named=True)
    shape_type = get_enum(ctx, shape, "type", ptr, OMI_TYPES, required=True, unusable=True)
    present = [key for key in OMI_TYPES if key in shape]
    for key in present:
        sub = get_object(ctx, shape, key, ptr)
        if sub is not None:
            _omi_parameters(ctx, key, sub, pointer_join(ptr, key))
    if shape_type is None or shape_type in shape:
        return
    if present:
        ctx.error(
            SHAPE_TYPE_MISMATCH,
            pointer_join(ptr, present[0]),
            f"Shape of type '{shape_type}' carries '{present[0]}' parameters instead.",
        )
    elif shape_type in ("convex", "trimesh"):
        ctx.error(UNDEFINED_PROPERTY, ptr, f"Property '{shape_type}' must be defined.")
    else:
        ctx.info(SHAPE_PARAMETERS_MISSING, ptr, f"Shape lacks its '{shape_type}' object; defaults apply.")


def _omi_parameters(ctx: Ctx, kind: str, sub: dict, ptr: str) -> None:
    check_members(ctx, sub, OMI_SUB_MEMBERS[kind], ptr)
    if kind in ("convex", "trimesh"):
        get_index(ctx, sub, "mesh", ptr, len(ctx.meshes), required=True)
        return
    _omi_primitive(ctx, kind, sub, ptr)


def _omi_primitive(ctx: Ctx, kind: str, params: dict, ptr: str) -> None:
    """Primitive parameters shared by OMI_physics_shape sub-objects and flat OMI_collider colliders."""
    values = {}
    keys = {"box": (), "sphere": ("radius",)}.get(kind, (*ROUND_MEMBERS, "radius"))
    for key in keys:
        values[key] = get_number(ctx, params, key, ptr, minimum=0)
        if values[key] == 0 and not (key.startswith("radius") and kind in ("capsule", "cylinder")):
            ctx.info(OMI_DEGENERATE_SHAPE, pointer_join(ptr, key), "Shape geometry is degenerate.")
    if kind == "box":
        for i, value in enumerate(get_number_array(ctx, params, "size", ptr, length=3, minimum=0) or ()):
            if value == 0:
                ctx.info(OMI_DEGENERATE_SHAPE, pointer_join(ptr, "size", i), "Shape geometry is degenerate.")
        return
    if kind in ("capsule", "cylinder"):
        radii = [values.get(k) for k in ("radius", "radiusBottom", "radiusTop") if k in params]
        if radii and all(r == 0 for r in radii):
            ctx.info(OMI_DEGENERATE_SHAPE, ptr, "Shape geometry is degenerate: zero radius.")
    radius, height = values.get("radius"), values.get("height")
    if kind == "capsule" and radius is not None and height is not None and 0 < height < 2 * radius:
        ctx.warning(
            OMI_LEGACY_CAPSULE_HEIGHT,
            pointer_join(ptr, "height"),
            f"Legacy capsule height {height} (total, tip to tip) is less than 2 × radius {radius}.",
        )


def _omi_collider_root(ctx: Ctx) -> None:
    """Archived ``OMI_collider``: root ``colliders[]`` with flat parameters."""
    root, ptr = _root_object(ctx, OMI_COLLIDER)
    if root is None:
        return
    check_members(ctx, root, ("colliders",), ptr)
    for _, collider, item_ptr in get_object_list(ctx, root, "colliders", ptr, required=True) or ():
        ctx.guard(item_ptr, _omi_collider, ctx, collider, item_ptr)


def _omi_collider(ctx: Ctx, collider: dict, ptr: str) -> None:
    check_members(ctx, collider, ("type", "isTrigger", "size", "radius", "height", "mesh"), ptr, named=True)
    kind = get_enum(ctx, collider, "type", ptr, OMI_COLLIDER_TYPES, required=True, unusable=True)
    get_bool(ctx, collider, "isTrigger", ptr)
    if kind in ("hull", "trimesh"):
        get_index(ctx, collider, "mesh", ptr, len(ctx.meshes), required=True)
    elif kind is not None:
        _omi_primitive(ctx, kind, collider, ptr)
