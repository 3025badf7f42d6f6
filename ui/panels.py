"""Properties ▸ Physics ▸ glTF Physics: the parent panel (role, operators) and the "Source & Simulation" note.

Sub-panels live in ``panels_body.py`` (Body, Collider & Material, Trigger) and ``panels_joint.py`` (Joint). Texts
built at draw time go through ``iface_`` (then ``translate=False``); literal labels are translated by Blender.
"""

from __future__ import annotations

import bpy
from bpy.app.translations import pgettext_iface as iface_

PARENT_ID = "GLTF_PHYSICS_PT_main"
CLOSED = {"DEFAULT_CLOSED"}


class PhysicsPanel:
    """Common settings of every glTF Physics panel (Properties editor, Physics tab)."""

    bl_space_type = "PROPERTIES"
    bl_region_type = "WINDOW"
    bl_context = "physics"


def enum_label(data, prop: str) -> str:
    """The translated UI name of an enum property's current value."""
    value = getattr(data, prop)
    item = data.bl_rna.properties[prop].enum_items.get(value)
    return iface_(item.name) if item is not None else str(value)


def label(layout, template: str, *args, icon: str = "NONE") -> None:
    """A label from a translatable ``str.format`` template."""
    layout.label(text=iface_(template).format(*args), icon=icon, translate=False)


def optional_prop(layout, data, flag: str, prop: str) -> None:
    """A value with its "present in the file" checkbox; the value greys out when absent."""
    row = layout.row(align=True)
    row.prop(data, flag, text="")
    sub = row.row(align=True)
    sub.active = getattr(data, flag)
    sub.prop(data, prop)


def stored_only_items(ob: bpy.types.Object) -> list[str]:
    """What this object keeps for export that Blender does not simulate (untranslated msgids)."""
    pg = ob.gltf_physics
    items: list[str] = []
    motion = pg.motion
    if motion.has_motion:
        if motion.has_center_of_mass and any(motion.center_of_mass):
            items.append("centre of mass (Blender: the object origin)")
        if motion.has_inertia_diagonal or motion.has_inertia_orientation:
            items.append("inertia (Blender derives it from the shape)")
        if any(motion.linear_velocity) or any(motion.angular_velocity):
            items.append("initial velocities")
        if motion.gravity_factor != 1.0:
            items.append("gravity factor")
        if motion.mass_mode == "INFINITE":
            items.append("infinite mass (an animated passive body in Blender)")
    collider = pg.collider
    if collider.has_collider:
        material = collider.material
        if material.has_material and material.static_friction != material.dynamic_friction:
            items.append("static friction (Blender uses the dynamic friction)")
        if material.has_material and "multiply" not in {material.friction_combine, material.restitution_combine}:
            items.append("combine modes (Blender multiplies)")
        if collider.filter.has_filter:
            items.append("collision filter (Blender: collision collections)")
    if pg.trigger.has_trigger:
        items.append("trigger (Blender has no sensors)")
    joint = pg.joint
    if joint.role == "JOINT":
        if any(limit.has_stiffness for limit in joint.limits):
            items.append("soft limits")
        if any(d.has_position_target or d.mode == "acceleration" for d in joint.drives):
            items.append("drive position targets and acceleration mode")
        if joint.approximated:
            items.append("joint limits (approximated by the Blender constraint)")
    return items


class GLTF_PHYSICS_PT_main(PhysicsPanel, bpy.types.Panel):
    """Parent panel: what the object is in glTF, and the scene tools."""

    bl_idname = PARENT_ID
    bl_label = "glTF Physics"

    @classmethod
    def poll(cls, context) -> bool:
        return context.object is not None and hasattr(context.object, "gltf_physics")

    def draw(self, context) -> None:
        layout = self.layout
        ob = context.object
        pg = ob.gltf_physics
        layout.use_property_split = True
        layout.use_property_decorate = False
        layout.prop(pg, "role")
        if pg.node_index >= 0:
            label(layout, "glTF node {}", pg.node_index, icon="OBJECT_DATA")
        if pg.role == "PROXY":
            label(layout, "Generated collision shape of node {} (not exported)", pg.proxy_node, icon="MOD_WIREFRAME")
        elif pg.role == "TRIGGER_PROXY":
            label(layout, "Generated trigger volume of node {} (not exported)", pg.proxy_node, icon="MOD_WIREFRAME")
        if pg.gltf_parent is not None:
            label(layout, "glTF parent: {}", pg.gltf_parent.name, icon="LINKED")
        if ob.rigid_body is not None:
            rb = ob.rigid_body
            label(layout, "Blender: {} body, {} shape", enum_label(rb, "type"), enum_label(rb, "collision_shape"))
        col = layout.column(align=True)
        row = col.row(align=True)
        row.operator("gltf_physics.compute_mass", icon="PHYSICS")
        row.operator("gltf_physics.make_trigger", icon="MESH_CUBE")
        col.operator("gltf_physics.validate_scene", icon="CHECKMARK")
        col.operator("gltf_physics.check_simulation", icon="PLAY")


class GLTF_PHYSICS_PT_notes(PhysicsPanel, bpy.types.Panel):
    """Where the data came from and which values Blender does not simulate."""

    bl_idname = "GLTF_PHYSICS_PT_notes"
    bl_label = "Source & Simulation"
    bl_parent_id = PARENT_ID
    bl_options = CLOSED
    bl_order = 100

    @classmethod
    def poll(cls, context) -> bool:
        ob = context.object
        return ob is not None and hasattr(ob, "gltf_physics")

    def draw(self, context) -> None:
        layout = self.layout
        ob = context.object
        pg = ob.gltf_physics
        source = pg.source or pg.joint.source
        if source:
            label(layout, "Read from: {}", source, icon="IMPORT")
        else:
            layout.label(text="Authored in Blender (no source file)", icon="BLENDER")
        items = stored_only_items(ob)
        box = layout.box()
        if items:
            box.label(text="Stored for export, not simulated by Blender:", icon="INFO")
            col = box.column(align=True)
            for item in items:
                col.label(text=iface_(item), translate=False)
        else:
            box.label(text="Everything stored here is simulated by Blender", icon="CHECKMARK")
        for text in (pg.collider.approximated, pg.joint.notes):
            if text:
                label(box, "Approximation: {}", text, icon="ERROR")


CLASSES = (GLTF_PHYSICS_PT_main, GLTF_PHYSICS_PT_notes)
