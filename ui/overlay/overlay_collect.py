"""What the viewport overlay draws for each selected object, as world-space line segments per layer (no ``gpu``).

:func:`object_lines` reads one object (its stored glTF values on ``Object.gltf_physics``, else what export derives
from the Blender settings) and returns ``{layer: (N, 3) float32}``; :class:`LineCache` keeps the result per object,
keyed on the object's world matrix and a digest of every value the lines depend on, so a redraw without changes
costs one key computation per selected object. ``ui/overlay/overlay.py`` turns the layers into GPU batches.

Layers (colours in ``ui/overlay/overlay.py``): ``collider`` and ``trigger`` shapes, ``axis_x`` / ``axis_y`` / ``axis_z``
(glTF axes of joint frames A and B), ``limit``, ``drive``, ``mass`` (centre of mass), ``velocity``.
"""

from __future__ import annotations

import hashlib
import json

import bpy
import numpy as np

from ...io.gltf.model import JointDescription
from ...io.gltf.nodes import affine_inverse, rigid
from ...io.gltf.transforms import quat_to_matrix
from ...io.mapping import mesh_points
from ...io.mapping.axes import AXIS_CHANGE
from ...io.mapping.joints_to_blender import permutation_matrix, plan_joint
from ...io.mapping.joints_to_gltf import constraint_description
from ...io.mapping.object_tree import ObjectTree
from ...io.mapping.stored import stored_description
from ...io.mapping.stored_values import view_of
from ...io.mapping.values_to_gltf import BLENDER_PRIMITIVES, derive_shape, shape_from_json
from ..body import body_shapes
from . import overlay_geometry, overlay_marks

AXES = "xyz"
MESH_SHAPES = ("MESH", "CONVEX_HULL")
MAX_MESH_VERTICES = 50_000  # a larger collision mesh is not drawn (its hull would take seconds)


def _matrix(ob) -> np.ndarray:
    return np.array(ob.matrix_world, dtype=np.float64)


def _pg(ob):
    """The object's stored glTF values, read-only (one parse of its stored text, not a getter per value)."""
    return view_of(ob)


# --- shapes -------------------------------------------------------------------------------------------------------


def _stored_shape(pgeo):
    if pgeo.kind != "SHAPE" or not pgeo.shape_json:
        return None
    try:
        return shape_from_json(json.loads(pgeo.shape_json))
    except (ValueError, TypeError):
        return None


def _mesh_bounds(ob):
    mesh = ob.data if ob.type == "MESH" else None
    return None if mesh is None else mesh_points.bounds(mesh)


def shape_layers(ob) -> dict[str, np.ndarray]:
    """The collider / trigger shape in the object's local frame: the stored implicit shape of a glTF node (the
    file's parameters), else the primitive export derives from a Blender rigid body's mesh bounds."""
    pg = _pg(ob)
    out = {}
    if pg is not None and pg.role == "NODE":
        for layer, holder in (("collider", pg.collider), ("trigger", pg.trigger)):
            present = holder.has_collider if layer == "collider" else holder.has_trigger
            if present and not getattr(holder, "disabled", False):
                lines = overlay_geometry.shape_lines(_stored_shape(holder.geometry))
                if lines is not None:
                    out[layer] = lines
    rb = ob.rigid_body
    stored = pg is not None and pg.collider.has_collider and pg.collider.geometry.kind == "SHAPE"
    if "collider" not in out and not stored and rb is not None and rb.collision_shape in BLENDER_PRIMITIVES:
        bounds = _mesh_bounds(ob)
        lines = None if bounds is None else overlay_geometry.shape_lines(derive_shape(rb.collision_shape, *bounds))
        if lines is not None:
            out["collider"] = lines
    elif "collider" not in out and not stored and rb is not None and rb.collision_shape in MESH_SHAPES:
        lines = mesh_lines(ob, rb.collision_shape == "CONVEX_HULL", rb.mesh_source)
        if lines is not None:
            out["collider"] = lines
    trigger = None if pg is None else pg.trigger
    if trigger is not None and trigger.has_trigger and "trigger" not in out and trigger.geometry.kind == "MESH":
        lines = mesh_lines(ob, trigger.geometry.convex_hull)  # a trigger on its own mesh (Make Trigger)
        if lines is not None:
            out["trigger"] = lines
    return out


def _mesh_data(ob, source: str):
    """(vertices, edges) of the mesh Blender's collision uses: the base mesh (``BASE``), else the evaluated one
    (modifiers applied); None without a mesh."""
    if ob.type != "MESH" or ob.data is None:
        return None
    evaluated = None
    if source != "BASE":
        try:
            evaluated = ob.evaluated_get(bpy.context.evaluated_depsgraph_get())
            mesh = evaluated.to_mesh()
        except (RuntimeError, AttributeError):
            evaluated, mesh = None, ob.data
    else:
        mesh = ob.data
    try:
        if mesh is None or len(mesh.vertices) == 0:
            return None
        co = np.empty(len(mesh.vertices) * 3, dtype=np.float64)
        mesh.vertices.foreach_get("co", co)
        edges = np.empty(len(mesh.edges) * 2, dtype=np.int64)
        mesh.edges.foreach_get("vertices", edges)
        return co.reshape(-1, 3), edges.reshape(-1, 2)
    finally:
        if evaluated is not None:
            evaluated.to_mesh_clear()


def mesh_lines(ob, hull: bool, source: str = "DEFORM") -> np.ndarray | None:
    """A MESH collision shape as the mesh's edges, a CONVEX_HULL one as the hull's edges (``body_shapes`` hull,
    cached by coordinates); None without a mesh or above ``MAX_MESH_VERTICES``."""
    data = _mesh_data(ob, source)
    if data is None or len(data[0]) > MAX_MESH_VERTICES:
        return None
    vertices, edges = data
    if hull:
        if len(vertices) < 4:
            return overlay_geometry.edge_lines(vertices, edges)
        vertices, triangles = body_shapes.convex_hull(vertices)
        edges = overlay_geometry.triangle_edges(triangles)
    return overlay_geometry.edge_lines(vertices, edges)


# --- bodies -------------------------------------------------------------------------------------------------------


def body_layers(ob) -> dict[str, np.ndarray]:
    """Centre of mass (the stored one, else the origin Blender uses) and the stored initial velocities, in the
    object's local frame without scale (velocities are node-space values)."""
    pg = _pg(ob)
    pm = None if pg is None else pg.motion
    active = ob.rigid_body is not None and ob.rigid_body.type == "ACTIVE"
    if pm is None or not (pm.has_motion or active):  # a passive body without glTF motion has no mass to show
        return {}
    com = np.array(pm.center_of_mass if pm.has_center_of_mass else (0.0, 0.0, 0.0), dtype=np.float64)
    velocity = np.concatenate(
        [
            overlay_marks.arrow(com, np.array(pm.linear_velocity) * overlay_marks.VELOCITY_SECONDS),
            overlay_marks.angular_velocity_lines(com, np.array(pm.angular_velocity)),
        ]
    )
    return {"mass": overlay_marks.star(com), "velocity": velocity}


# --- joints -------------------------------------------------------------------------------------------------------


def constraint_settings(c) -> dict:
    """Blender constraint settings in the form ``joints_to_gltf.constraint_description`` reads."""
    out = {"type": c.type, "lin": [None] * 3, "ang": [None] * 3, "lin_springs": [None] * 3, "ang_springs": [None] * 3}
    for kind, infix in (("lin", ""), ("ang", "_ang")):
        for i, axis in enumerate(AXES):
            if getattr(c, f"use_limit_{kind}_{axis}", False):
                out[kind][i] = (getattr(c, f"limit_{kind}_{axis}_lower"), getattr(c, f"limit_{kind}_{axis}_upper"))
            if getattr(c, f"use_spring{infix}_{axis}", False):
                out[f"{kind}_springs"][i] = (
                    getattr(c, f"spring_stiffness{infix}_{axis}"),
                    getattr(c, f"spring_damping{infix}_{axis}"),
                )
    out["motor_lin"] = (c.motor_lin_target_velocity, c.motor_lin_max_impulse) if c.use_motor_lin else None
    out["motor_ang"] = (c.motor_ang_target_velocity, c.motor_ang_max_impulse) if c.use_motor_ang else None
    return out


def joint_frames(ob) -> tuple[JointDescription, np.ndarray, np.ndarray] | None:
    """(description, frame A, frame B): the glTF joint of a constraint Empty and the two attachment frames as 4×4
    maps from glTF frame coordinates to Blender world (as export writes them: a stored joint at the Empty's pose with
    its axis permutation and frame B at its connected node's object, else at the stored offset; a native constraint
    in the Empty's own axes)."""
    pg, c = _pg(ob), ob.rigid_body_constraint
    pj = None if pg is None else pg.joint
    if pj is not None and pj.role in ("MOTOR", "ANCHOR", "REPRODUCTION"):
        return None
    if pj is not None and pj.role == "JOINT":
        try:
            description = stored_description(pj, passthrough=False)
        except (ValueError, TypeError):
            return None
        offset_t, offset_q = tuple(pj.offset_translation), tuple(pj.offset_rotation)
        plan = plan_joint(description, offset_t, offset_q)
        frame_a = rigid(_matrix(ob)) @ permutation_matrix(plan.perm).T
        if pj.node_b is not None:  # the imported connectedNode: frame B where its object is now
            return description, frame_a, rigid(_matrix(pj.node_b)) @ AXIS_CHANGE
        offset = np.eye(4)
        offset[:3, :3] = quat_to_matrix(offset_q)
        offset[:3, 3] = offset_t
        return description, frame_a, frame_a @ offset
    if c is None:
        return None
    description, _notes = constraint_description(constraint_settings(c))
    if description is None:
        return None
    frame = rigid(_matrix(ob))
    return description, frame, frame


def joint_layers(ob) -> dict[str, np.ndarray]:
    """Frames A and B (glTF X, Y, Z axis lines; B's at 0.6 × the length), limit ranges and drive targets in frame A,
    already in world space."""
    found = joint_frames(ob)
    if found is None:
        return {}
    description, frame_a, frame_b = found
    out: dict[str, list] = {name: [] for name in ("axis_x", "axis_y", "axis_z", "limit", "drive")}
    for frame, length in ((frame_a, overlay_marks.FRAME_AXIS), (frame_b, 0.6 * overlay_marks.FRAME_AXIS)):
        for name, lines in zip(("axis_x", "axis_y", "axis_z"), overlay_marks.frame_axes(length), strict=True):
            out[name].append(overlay_marks.transformed(lines, frame))
    for limit in description.limits:
        out["limit"].append(overlay_marks.transformed(overlay_marks.limit_lines(limit), frame_a))
    for drive in description.drives:
        out["drive"].append(overlay_marks.transformed(overlay_marks.drive_lines(drive), frame_a))
    return {name: np.concatenate(parts) for name, parts in out.items() if parts}


# --- one object, cached -------------------------------------------------------------------------------------------


def compound_parts(ob, children: ObjectTree | None = None) -> list:
    """The direct rigid-body children of a COMPOUND body (Blender's compound rule); [] otherwise. ``children``: one
    redraw's ``ObjectTree`` (Blender's ``Object.children`` scans every object per call)."""
    rb = ob.rigid_body
    if rb is None or rb.collision_shape != "COMPOUND":
        return []
    found = ob.children if children is None else children.children(ob)
    return [child for child in found if child.rigid_body is not None]


def object_pieces(
    ob, show: dict[str, bool] | None = None, children: ObjectTree | None = None
) -> dict[str, dict[str, np.ndarray]]:
    """One object's segments per placement and layer: ``object`` (local, scaled: shapes; a compound body's child
    shapes relative to it), ``body`` (local without scale: centre of mass, velocities) and ``world`` (joints).
    Moving or simulating a body changes only the placement, not the pieces. ``show`` switches groups off
    (``shapes``, ``joints``, ``mass``, ``velocity``; missing = on)."""
    show = show or {}
    out: dict[str, dict[str, np.ndarray]] = {"object": {}, "body": {}, "world": {}}
    if show.get("shapes", True):
        out["object"] = dict(shape_layers(ob))
        parts = compound_parts(ob, children)
        inverse = affine_inverse(_matrix(ob)) if parts else None  # None at scale 0: no frame to put children in
        for child in parts if inverse is not None else ():  # a compound body's shapes are its rigid-body children
            for layer, lines in shape_layers(child).items():
                part = overlay_marks.transformed(lines, inverse @ _matrix(child))
                have = out["object"].get(layer)
                out["object"][layer] = part if have is None else np.concatenate([have, part])
    if show.get("mass", True) or show.get("velocity", True):
        out["body"] = {k: v for k, v in body_layers(ob).items() if show.get(k, True) and len(v)}
    if show.get("joints", True):
        out["world"] = joint_layers(ob)
    return out


def place(pieces: dict[str, dict[str, np.ndarray]], ob) -> dict[str, np.ndarray]:
    """World-space segments per layer: the pieces under the object's current world matrix."""
    world = _matrix(ob)
    frames = {"object": world, "body": rigid(world) if pieces["body"] else None, "world": None}
    out: dict[str, list] = {}
    for placement, layers in pieces.items():
        for layer, lines in layers.items():
            if len(lines):
                placed = lines if frames[placement] is None else overlay_marks.transformed(lines, frames[placement])
                out.setdefault(layer, []).append(placed)
    return {layer: parts[0] if len(parts) == 1 else np.concatenate(parts) for layer, parts in out.items()}


def object_lines(ob, show: dict[str, bool] | None = None) -> dict[str, np.ndarray]:
    """World-space segments per layer for one object (uncached)."""
    return place(object_pieces(ob, show), ob)


def _stored(ob):
    """The object's stored glTF values as plain data: the ``gltf_physics`` ID property group holds every value that
    was ever set (unset ones read as their constant defaults), so its dict is a complete and cheap key. Blender 5.0
    keeps ``bpy.props`` values apart from custom properties (``bl_system_properties_get``); older versions in
    ``ob.get``."""
    system = getattr(ob, "bl_system_properties_get", None)
    holder = system() if system is not None else ob
    group = None if holder is None else holder.get("gltf_physics")
    return None if group is None else group.to_dict()


def _flat(matrix, digits: int | None = None) -> tuple:
    values = (v for row in matrix for v in row)
    return tuple(values) if digits is None else tuple(round(float(v), digits) for v in values)


def cache_key(ob, show: dict[str, bool] | None = None, children: ObjectTree | None = None) -> bytes:
    """Digest of what an object's pieces depend on: Blender rigid-body settings and mesh dimensions, the stored glTF
    values, a compound body's children (relative placement rounded to 1e-6, shapes, values) and, for a constraint
    Empty (whose joint pieces are in world space), its matrix, settings and connected node's matrix."""
    parts: list = [sorted((show or {}).items())]
    rb, c = ob.rigid_body, ob.rigid_body_constraint
    if rb is not None:
        parts.append((rb.collision_shape, rb.mesh_source, tuple(ob.dimensions) if ob.type == "MESH" else None))
    if ob.type == "MESH" and ob.data is not None:  # mesh and hull shapes: a topology edit rebuilds
        parts.append((ob.data.as_pointer(), len(ob.data.vertices), len(ob.data.edges), tuple(ob.dimensions)))
    if c is not None:
        parts.append(_flat(ob.matrix_world))
        parts.append(tuple(sorted(constraint_settings(c).items(), key=lambda kv: kv[0])))
        node_b = getattr(getattr(_pg(ob), "joint", None), "node_b", None)
        if node_b is not None:  # frame B follows the connected node's object
            parts.append(_flat(node_b.matrix_world))
    parts.append(_stored(ob))
    parts_of = compound_parts(ob, children)
    if parts_of:
        inverse = ob.matrix_world.inverted_safe()
        for child in parts_of:
            parts.append((_flat(inverse @ child.matrix_world, 6), child.rigid_body.collision_shape))
            parts.append((tuple(child.dimensions) if child.type == "MESH" else None, _stored(child)))
    return hashlib.blake2b(repr(parts).encode(), digest_size=16).digest()


class LineCache:
    """Per-object pieces keyed on :func:`cache_key`, placed under the current world matrix on every redraw (a
    moving body is not rebuilt); entries of objects not asked for are dropped on each :meth:`collect`."""

    def __init__(self):
        self.entries: dict[int, list] = {}  # [key, pieces, matrix placed at, placed lines]
        self.merged: tuple | None = None  # (ids of the placed lines, their concatenation, the placed lines)
        self.builds = 0  # number of objects rebuilt (tests, benchmarks)

    def lines(
        self, ob, show: dict[str, bool] | None = None, children: ObjectTree | None = None
    ) -> dict[str, np.ndarray]:
        key = cache_key(ob, show, children)
        ident = ob.as_pointer()
        entry = self.entries.get(ident)
        if entry is None or entry[0] != key:
            pieces = object_pieces(ob, show, children)
            # reading a pointer property may create its (empty) ID property group: key the state after the build
            entry = [cache_key(ob, show, children), pieces, None, None]
            self.entries[ident] = entry
            self.builds += 1
        matrix = _flat(ob.matrix_world)
        if entry[2] != matrix:  # placed again only when the object moved
            entry[2], entry[3] = matrix, place(entry[1], ob)
        return entry[3]

    def collect(self, objects, show: dict[str, bool] | None = None) -> dict[str, np.ndarray]:
        """All layers of ``objects`` concatenated (one batch per layer). While no object's placed lines changed, the
        very same dict is returned again (callers may keep GPU batches made from it)."""
        wanted = {ob.as_pointer() for ob in objects}
        for ident in [i for i in self.entries if i not in wanted]:
            del self.entries[ident]
        children = ObjectTree(bpy.data.objects)  # one pass, made if a compound body asks
        placed = [self.lines(ob, show, children) for ob in objects]
        signature = tuple(id(lines) for lines in placed)
        if self.merged is not None and self.merged[0] == signature:
            return self.merged[1]
        merged: dict[str, list] = {}
        for lines in placed:
            for layer, part in lines.items():
                merged.setdefault(layer, []).append(part)
        result = {layer: np.concatenate(parts) for layer, parts in merged.items()}
        self.merged = (signature, result, placed)  # ``placed`` keeps the ids in the signature alive
        return result

    def clear(self) -> None:
        self.entries.clear()
        self.merged = None
