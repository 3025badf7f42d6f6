"""Body, Collider & Material and Trigger sub-panels of Properties ▸ Physics ▸ glTF Physics.

Values Blender does not simulate by itself are grouped under "Stored for export (Reproduce Motion simulates those
marked)"; read-outs come from ``sim`` (``sim.mass`` through ``body_shapes``, ``sim.pairs`` through ``readout``).
"""

from __future__ import annotations

import json

import bpy
from bpy.app.translations import pgettext_iface as iface_

from .. import readout
from ..filters import filter_lists
from ..panels import PARENT_ID, PhysicsPanel, enum_label, label, optional_prop
from . import body_shapes, sync_shapes
from .sync_body import STORED, material_status, motion_status, prop_with_status


def _yes_no(value: bool) -> str:
    return iface_("yes") if value else iface_("no")


def _density(context) -> float:
    settings = getattr(context.scene, "gltf_physics", None)
    return float(settings.import_density) if settings is not None else 1000.0


def draw_geometry(layout, geometry) -> None:
    """Read-out of a stored collider/trigger geometry."""
    kind = geometry.kind
    if kind == "SHAPE":
        shape = readout.shape_from_json(geometry.shape_json) if geometry.shape_json else None
        text = readout.describe_shape(shape) if shape is not None else iface_("unreadable shape")
        label(layout, "Shape {}: {}", geometry.shape_index, text, icon="MESH_CUBE")
        status = sync_shapes.status(geometry)
        for name in sync_shapes.editable(geometry):
            prop_with_status(layout, geometry, name, status)
        if sync_shapes.editable(geometry) and sync_shapes.convertible(geometry):
            layout.label(
                text="The render mesh carries this shape: an edit moves it onto a generated proxy", icon="INFO"
            )
    elif kind == "MESH":
        if geometry.mesh >= 0:
            label(layout, "glTF mesh {}", geometry.mesh, icon="MESH_DATA")
        else:
            layout.label(text="This object's mesh", icon="MESH_DATA")
    elif kind == "NODE":
        label(layout, "Mesh of glTF node {}", geometry.node, icon="MESH_DATA")
    else:
        layout.label(text="No geometry (grouping)", icon="OUTLINER_OB_EMPTY")
    if kind in ("MESH", "NODE"):
        layout.prop(geometry, "convex_hull")


def draw_filter(layout, flt, ob=None, target: str = "COLLIDER") -> None:
    """The stored collision filter as lists (``filter_lists``) with a parsed read-out (sim.pairs); a collider also
    gets "collides with", its simulation status and the scene buttons."""
    header = layout.row()
    header.prop(flt, "has_filter", text=iface_("Collision Filter"), translate=False)
    if ob is not None and target == "COLLIDER":
        filter_lists.draw_scene_buttons(layout)
    if ob is not None:
        filter_lists.draw_collides_with(layout, ob, target)
    if not flt.has_filter:
        return
    col = layout.column()
    col.prop(flt, "name")
    if ob is not None:
        filter_lists.draw_filter_lists(col, ob, flt, target)
    try:
        parsed = readout.filter_from_texts(
            flt.collision_systems, flt.collide_with_systems, flt.not_collide_with_systems
        )
    except ValueError as error:  # json.JSONDecodeError is a ValueError
        row = col.row()
        row.alert = True
        label(row, "Not a JSON list of names: {}", error, icon="ERROR")
        return
    if parsed.collide_with_systems is not None and parsed.not_collide_with_systems is not None:
        row = col.row()
        row.alert = True
        row.label(text="The schema forbids both Collide With and Not Collide With", icon="ERROR")
    summary = readout.filter_summary(parsed)
    label(col, "Collides with its own kind: {}", _yes_no(summary["self"]), icon="INFO")
    label(col, "Collides with unfiltered colliders: {}", _yes_no(summary["unfiltered"]), icon="INFO")


class GLTF_PHYSICS_PT_body(PhysicsPanel, bpy.types.Panel):
    """``motion``: type, mass, and the values Blender keeps only for export."""

    bl_idname = "GLTF_PHYSICS_PT_body"
    bl_label = "Body"
    bl_parent_id = PARENT_ID
    bl_order = 1

    @classmethod
    def poll(cls, context) -> bool:
        ob = context.object
        return ob is not None and (ob.gltf_physics.motion.has_motion or ob.rigid_body is not None)

    def draw_header(self, context) -> None:
        self.layout.prop(context.object.gltf_physics.motion, "has_motion", text="")

    def draw(self, context) -> None:
        layout = self.layout
        layout.use_property_split = True
        layout.use_property_decorate = False
        ob = context.object
        motion = ob.gltf_physics.motion
        col = layout.column()
        col.active = motion.has_motion
        if not motion.has_motion:
            col.label(text="No glTF motion: export derives it from the rigid body", icon="INFO")
        prop_with_status(col, motion, "kind", motion_status(ob, "kind"))
        col.row().prop(motion, "mass_mode", expand=True)
        if motion.mass_mode == "EXPLICIT":
            prop_with_status(col, motion, "mass", motion_status(ob, "mass"))
        if ob.rigid_body is not None:
            label(col, "Blender mass: {:.4g} kg", ob.rigid_body.mass, icon="PHYSICS")
        draw_computed_mass(layout, context, ob, motion)
        box = layout.box()
        box.active = motion.has_motion
        box.label(text="Stored for export (Reproduce Motion simulates those marked)", icon="INFO")
        optional_prop(box, motion, "has_center_of_mass", "center_of_mass")
        optional_prop(box, motion, "has_inertia_diagonal", "inertia_diagonal")
        optional_prop(box, motion, "has_inertia_orientation", "inertia_orientation")
        prop_with_status(box, motion, "linear_velocity", motion_status(ob, "linear_velocity"))
        prop_with_status(box, motion, "angular_velocity", motion_status(ob, "angular_velocity"))
        prop_with_status(box, motion, "gravity_factor", motion_status(ob, "gravity_factor"))
        prop_with_status(box, motion, "animated", motion_status(ob, "animated"))
        inertia = motion_status(ob, "inertia_diagonal")
        if inertia != STORED:
            label(box, "Inertia: {}", iface_(inertia), icon="CONSTRAINT")


def draw_computed_mass(layout, context, ob, motion) -> None:
    box = layout.box()
    box.label(text="Computed from the collider shapes", icon="MOD_PHYSICS")
    box.prop(context.scene.gltf_physics, "import_density")
    result, notes = body_shapes.body_mass(ob, _density(context), body_shapes.PANEL_MAX_VERTICES)
    col = box.column(align=True)
    if result is not None:
        label(col, "Volume {:.4g} m³, mass {:.4g} kg ({} parts)", result.volume, result.mass, result.parts)
        com = body_shapes.local_center_of_mass(ob, result)
        label(col, "Centre of mass {:.4g}, {:.4g}, {:.4g}", *com)
        label(col, "Inertia diagonal {:.4g}, {:.4g}, {:.4g} kg·m²", *result.inertia_diagonal)
        label(col, "Inertia orientation (w, x, y, z) {:.3f}, {:.3f}, {:.3f}, {:.3f}", *result.orientation)
        rb = ob.rigid_body
        if motion.mass_mode == "ABSENT" and rb is not None and abs(rb.mass - result.mass) > 1e-3 * result.mass:
            col.label(text="Blender mass differs from the computed mass: use Compute Mass", icon="ERROR")
    else:
        col.label(text="No volume to compute from", icon="INFO")
    for note in notes[:4]:
        col.label(text=note, icon="ERROR", translate=False)


class GLTF_PHYSICS_PT_collider(PhysicsPanel, bpy.types.Panel):
    """``collider``: geometry read-out, physics material (both frictions, combine modes) and collision filter."""

    bl_idname = "GLTF_PHYSICS_PT_collider"
    bl_label = "Collider & Material"
    bl_parent_id = PARENT_ID
    bl_order = 2

    @classmethod
    def poll(cls, context) -> bool:
        ob = context.object
        return ob is not None and (ob.gltf_physics.collider.has_collider or ob.rigid_body is not None)

    def draw_header(self, context) -> None:
        self.layout.prop(context.object.gltf_physics.collider, "has_collider", text="")

    def draw(self, context) -> None:
        layout = self.layout
        layout.use_property_split = True
        layout.use_property_decorate = False
        ob = context.object
        collider = ob.gltf_physics.collider
        col = layout.column()
        col.active = collider.has_collider
        draw_geometry(col, collider.geometry)
        if ob.rigid_body is not None:
            label(col, "Blender shape: {}", enum_label(ob.rigid_body, "collision_shape"), icon="PHYSICS")
        if collider.disabled:
            col.label(text="Node scale is zero: collider disabled", icon="ERROR")
        if collider.approximated:
            label(col, "Approximation: {}", collider.approximated, icon="ERROR")
        draw_material(layout.box(), ob, collider.material)
        draw_filter(layout.box(), collider.filter, ob, "COLLIDER")


def draw_material(box, ob, material) -> None:
    box.prop(material, "has_material", text=iface_("Physics Material"), translate=False)
    col = box.column()
    col.active = material.has_material
    col.prop(material, "name")
    simulated = ob.rigid_body is not None
    for name in ("static_friction", "dynamic_friction", "restitution", "friction_combine", "restitution_combine"):
        prop_with_status(col, material, name, material_status(name) if simulated else STORED)
    values = readout.material_from_values(
        material.static_friction,
        material.dynamic_friction,
        material.restitution,
        material.friction_combine,
        material.restitution_combine,
    )
    out = col.column(align=True)
    same = readout.combined_with(values, values)
    default = readout.combined_with(values, None)
    label(out, "With itself: friction {:.3g}, restitution {:.3g}", same["dynamicFriction"], same["restitution"])
    label(
        out,
        "With the default material: friction {:.3g}, restitution {:.3g}",
        default["dynamicFriction"],
        default["restitution"],
    )
    if ob.rigid_body is not None:
        rb = ob.rigid_body
        label(out, "Blender (multiplies): friction {:.3g}, restitution {:.3g}", rb.friction, rb.restitution)


class GLTF_PHYSICS_PT_trigger(PhysicsPanel, bpy.types.Panel):
    """``trigger``: geometry or compound node list, filter. Blender has no sensors: nothing here is simulated."""

    bl_idname = "GLTF_PHYSICS_PT_trigger"
    bl_label = "Trigger"
    bl_parent_id = PARENT_ID
    bl_order = 3

    @classmethod
    def poll(cls, context) -> bool:
        ob = context.object
        return ob is not None and (ob.gltf_physics.trigger.has_trigger or ob.gltf_physics.role == "TRIGGER_PROXY")

    def draw_header(self, context) -> None:
        self.layout.prop(context.object.gltf_physics.trigger, "has_trigger", text="")

    def draw(self, context) -> None:
        layout = self.layout
        layout.use_property_split = True
        layout.use_property_decorate = False
        pg = context.object.gltf_physics
        if pg.role == "TRIGGER_PROXY":
            label(layout, "Volume of the trigger on glTF node {}", pg.proxy_node, icon="MOD_WIREFRAME")
            if not pg.trigger.has_trigger:
                return
        trigger = pg.trigger
        layout.label(text="Stored for export, not simulated (Blender has no sensors)", icon="INFO")
        col = layout.column()
        col.active = trigger.has_trigger
        if trigger.nodes:
            try:
                nodes = json.loads(trigger.nodes)
                label(col, "Compound trigger of nodes {}", ", ".join(str(n) for n in nodes), icon="OUTLINER")
            except ValueError:
                col.label(text="Unreadable node list", icon="ERROR")
        else:
            draw_geometry(col, trigger.geometry)
            draw_filter(layout.box(), trigger.filter, context.object, "TRIGGER")


CLASSES = (GLTF_PHYSICS_PT_body, GLTF_PHYSICS_PT_collider, GLTF_PHYSICS_PT_trigger)
