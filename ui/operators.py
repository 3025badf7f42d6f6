"""Operators of the glTF Physics panels (data API only, no ``bpy.ops`` inside).

Each operator reports one summary line with a count of warnings, then the first warnings one by one; the full list
goes to the console (logger of this module) and stays in ``LAST_MESSAGES[<operator>]`` for scripts and tests.
"""

from __future__ import annotations

import json
import logging

import bpy
import numpy as np
from bpy.props import BoolProperty, EnumProperty, FloatProperty

from ..io.diagnostics import Severity, printable
from ..io.mapping import mesh_points, stored_values
from ..io.mapping.shapes_to_blender import shape_to_json
from ..io.mapping.values_to_gltf import derive_shape
from .body import body_shapes
from .joint import sync_joint
from .scene import export_check, scene_checks

LOG = logging.getLogger(__name__)
UNDOABLE = {"REGISTER", "UNDO"}  # module constants: ruff's RUF012 flags mutable literals on classes
REGISTER_ONLY = {"REGISTER"}
MAX_REPORTED = 8
LAST_MESSAGES: dict[str, list[str]] = {}
TRIGGER_SHAPES = (
    ("BOX", "Box", "Implicit box from the mesh bounds (centred on the origin)"),
    ("SPHERE", "Sphere", "Implicit sphere enclosing the mesh bounds (centred on the origin)"),
    ("CONVEX_HULL", "Convex Hull", "The object's mesh as a convex hull"),
    ("MESH", "Mesh", "The object's mesh as a triangle mesh"),
)


def _finish(operator, key: str, summary: str, warnings: list[str]) -> set[str]:
    """One INFO/WARNING summary with the warning count, the first warnings, the full list in the log."""
    LAST_MESSAGES[key] = list(warnings)
    for text in warnings:
        LOG.warning("%s: %s", key, text)
    count = len(warnings)
    operator.report({"WARNING"} if count else {"INFO"}, f"{summary}; {count} warning{'s' * (count != 1)}")
    for text in warnings[:MAX_REPORTED]:
        operator.report({"WARNING"}, printable(text))  # a newline or ESC in a name stays on one visible line
    if count > MAX_REPORTED:
        operator.report({"WARNING"}, f"… and {count - MAX_REPORTED} more (see the console)")
    return {"FINISHED"}


def _scene_density(context) -> float:
    settings = getattr(context.scene, "gltf_physics", None)
    return float(settings.import_density) if settings is not None else 1000.0


class GLTF_PHYSICS_OT_compute_mass(bpy.types.Operator):
    """Set the rigid-body mass of the selected bodies from their collider volume (sim.mass) and a density"""

    bl_idname = "gltf_physics.compute_mass"
    bl_label = "Compute Mass"
    bl_options = UNDOABLE

    density: FloatProperty(
        name="Density",
        default=1000.0,
        min=1e-6,
        description="kg/m³; when not set, the scene's glTF import density",
    )
    mark_computed: BoolProperty(
        name="Export Without Mass",
        default=False,
        description="Mark the glTF mass as absent: export writes no mass and readers compute it from the volume",
    )

    @classmethod
    def poll(cls, context) -> bool:
        return any(ob.rigid_body is not None for ob in context.selected_objects)

    def execute(self, context):
        density = self.density if self.properties.is_property_set("density") else _scene_density(context)
        warnings: list[str] = []
        done = 0
        for ob in sorted(context.selected_objects, key=lambda o: o.name):
            if ob.rigid_body is None:
                continue
            parent = ob.parent
            if parent is not None and parent.rigid_body is not None and parent.rigid_body.collision_shape == "COMPOUND":
                warnings.append(f"{ob.name}: part of compound body {parent.name!r}; select the parent")
                continue
            motion = ob.gltf_physics.motion
            if motion.has_motion and motion.mass_mode == "INFINITE":
                warnings.append(f"{ob.name}: infinite mass (glTF mass 0) kept")
                continue
            result, notes = body_shapes.body_mass(ob, density)
            warnings.extend(notes)
            if result is None or not result.mass > 0:
                warnings.append(f"{ob.name}: no volume to compute a mass from")
                continue
            ob.rigid_body.mass = result.mass
            if motion.has_motion:
                if self.mark_computed:
                    motion.mass_mode = "ABSENT"
                elif motion.mass_mode == "EXPLICIT":
                    motion.mass = result.mass
            done += 1
        return _finish(self, "compute_mass", f"Mass of {done} bodies set at {density:g} kg/m³", warnings)


def _mesh_bounds(ob) -> tuple[np.ndarray, np.ndarray] | None:
    return None if ob.data is None else mesh_points.bounds(ob.data)


def trigger_geometry(ob, shape: str) -> tuple[str, str | None]:
    """(geometry kind, shape JSON or None) for a trigger made from ``ob``'s mesh; the shape is in glTF axes."""
    if shape in ("CONVEX_HULL", "MESH"):
        return "MESH", None
    derived = derive_shape(shape, *_mesh_bounds(ob), rnd=float)  # BOX or SPHERE, from the bounds like Blender
    return "SHAPE", json.dumps(shape_to_json(derived))


class GLTF_PHYSICS_OT_make_trigger(bpy.types.Operator):
    """Turn the selected mesh objects into glTF trigger volumes (wire display, not rendered, no rigid body)"""

    bl_idname = "gltf_physics.make_trigger"
    bl_label = "Make Trigger"
    bl_options = UNDOABLE

    shape: EnumProperty(name="Shape", items=TRIGGER_SHAPES, default="CONVEX_HULL")

    @classmethod
    def poll(cls, context) -> bool:
        return any(ob.type == "MESH" for ob in context.selected_objects)

    def execute(self, context):
        warnings: list[str] = []
        done = 0
        for ob in sorted(context.selected_objects, key=lambda o: o.name):
            if ob.type != "MESH":
                warnings.append(f"{ob.name}: not a mesh object")
                continue
            if ob.rigid_body is not None or ob.gltf_physics.motion.has_motion:
                warnings.append(f"{ob.name}: a rigid body; parent a separate mesh to it and make that the trigger")
                continue
            if _mesh_bounds(ob) is None:
                warnings.append(f"{ob.name}: empty mesh")
                continue
            pg = ob.gltf_physics
            if pg.collider.has_collider:
                pg.collider.has_collider = False
                warnings.append(f"{ob.name}: its stored collider was turned off")
            kind, shape_json = trigger_geometry(ob, self.shape)
            lo, hi = _mesh_bounds(ob)
            if kind == "SHAPE" and np.max(np.abs(lo + hi)) > 1e-4 * max(float(np.max(hi - lo)), 1e-6):
                warnings.append(f"{ob.name}: mesh not centred on the origin; the {self.shape.lower()} is")
            if pg.role == "NONE":
                pg.role = "NODE"
            trigger = pg.trigger
            trigger.has_trigger = True
            trigger.nodes = ""
            trigger.geometry.kind = kind
            trigger.geometry.shape_index = -1
            trigger.geometry.mesh = -1
            trigger.geometry.node = -1
            trigger.geometry.shape_json = shape_json or ""
            trigger.geometry.convex_hull = self.shape == "CONVEX_HULL"
            ob.display_type = "BOUNDS" if self.shape == "BOX" else "WIRE"
            ob.hide_render = True
            done += 1
        return _finish(self, "make_trigger", f"Made {done} triggers", warnings)


class GLTF_PHYSICS_OT_validate_scene(bpy.types.Operator):
    """Check the glTF physics stored on the scene's objects, and validate what export writes for this scene"""

    bl_idname = "gltf_physics.validate_scene"
    bl_label = "Validate Scene"
    bl_options = REGISTER_ONLY  # changes nothing: no undo step

    check_export: BoolProperty(
        name="Check Export",
        default=True,
        description="Also export the scene to a temporary glTF file and run the validator on what export writes",
    )

    @classmethod
    def poll(cls, context) -> bool:
        return context.scene is not None

    def execute(self, context):
        found, checked = scene_checks.check_scene(context.scene)
        texts = [str(d) for d in found]
        if self.check_export:
            exported, _gltf = export_check.export_and_validate()
            found = [*found, *exported]
            texts += [f"export: {d}" for d in exported]
        LAST_MESSAGES["validate_scene_diagnostics"] = texts
        problems = [t for d, t in zip(found, texts, strict=True) if d.severity >= Severity.WARNING]
        for d, t in zip(found, texts, strict=True):
            if d.severity < Severity.WARNING:
                LOG.info("%s", t)
        errors = sum(d.severity >= Severity.ERROR for d in found)
        where = "stored data and export" if self.check_export else "stored data"
        summary = f"{checked} objects checked ({where}), {errors} errors"
        return _finish(self, "validate_scene", summary, problems)


def _joint_collection(context, kind: str):
    ob = context.object
    if ob is None or ob.gltf_physics.joint.role != "JOINT":
        return None, None
    pg = ob.gltf_physics
    if kind == "LIMIT":
        return pg.joint.limits, "active_limit_index"
    return pg.joint.drives, "active_drive_index"


def _edit_rows(ob, kind: str, change) -> None:
    """``change(values, path)`` on the stored rows of the joint's limits or drives, written back as one text; the
    collection's rows follow (they are views of the stored rows by position, ``stored_values.match_rows``)."""
    pg = ob.gltf_physics
    original = pg.values_json
    values = stored_values.private_copy(original)
    change(values, ("joint", "limits" if kind == "LIMIT" else "drives"))
    stored_values.write_text(pg, values, original)


JOINT_ITEMS = (("LIMIT", "Limit", "A joint limit"), ("DRIVE", "Drive", "A joint drive"))


class GLTF_PHYSICS_OT_add_joint_item(bpy.types.Operator):
    """Add a limit or drive to the active object's stored glTF joint (export writes it; Blender does not simulate it)"""

    bl_idname = "gltf_physics.add_joint_item"
    bl_label = "Add Joint Limit or Drive"
    bl_options = UNDOABLE

    kind: EnumProperty(name="Kind", items=JOINT_ITEMS, default="LIMIT")

    @classmethod
    def poll(cls, context) -> bool:
        return _joint_collection(context, "LIMIT")[0] is not None

    def execute(self, context):
        items, index_prop = _joint_collection(context, self.kind)
        first = {"axes": (True, False, False), "has_min": True, "has_max": True} if self.kind == "LIMIT" else {}
        _edit_rows(
            context.object,
            self.kind,
            lambda values, path: stored_values.write_row(values, path, len(stored_values.rows_of(values, path)), first),
        )
        setattr(context.object.gltf_physics, index_prop, len(items) - 1)
        sync_joint.replan_now(context.object)  # a new drive's defaults fire no property update
        return _finish(self, "add_joint_item", f"Added a joint {self.kind.lower()}", [])


class GLTF_PHYSICS_OT_remove_joint_item(bpy.types.Operator):
    """Remove the selected limit or drive from the active object's stored glTF joint"""

    bl_idname = "gltf_physics.remove_joint_item"
    bl_label = "Remove Joint Limit or Drive"
    bl_options = UNDOABLE

    kind: EnumProperty(name="Kind", items=JOINT_ITEMS, default="LIMIT")

    @classmethod
    def poll(cls, context) -> bool:
        items, _ = _joint_collection(context, "LIMIT")
        drives, _ = _joint_collection(context, "DRIVE")
        return items is not None and (len(items) > 0 or len(drives) > 0)

    def execute(self, context):
        items, index_prop = _joint_collection(context, self.kind)
        pg = context.object.gltf_physics
        index = getattr(pg, index_prop)
        if not 0 <= index < len(items):
            self.report({"WARNING"}, f"No {self.kind.lower()} selected")
            return {"CANCELLED"}
        _edit_rows(context.object, self.kind, lambda values, path: stored_values.remove_row(values, path, index))
        setattr(pg, index_prop, max(0, min(index, len(items) - 1)))
        sync_joint.replan_now(context.object)  # removing an item fires no property update
        return _finish(self, "remove_joint_item", f"Removed joint {self.kind.lower()} {index}", [])


CLASSES = (
    GLTF_PHYSICS_OT_compute_mass,
    GLTF_PHYSICS_OT_make_trigger,
    GLTF_PHYSICS_OT_validate_scene,
    GLTF_PHYSICS_OT_add_joint_item,
    GLTF_PHYSICS_OT_remove_joint_item,
)
