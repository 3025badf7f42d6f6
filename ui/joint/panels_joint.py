"""Joint sub-panel: the stored glTF joint of a constraint Empty (frames, limits, drives) and a drive settle preview.

The preview runs ``sim.drives.settle_preview`` for the selected drive from rest at the joint's start pose (x0 = 0,
v0 = 0) with the effective mass (linear) or inertia (angular, about the drive axis) of the two Blender bodies;
passive or animated bodies count as immovable. It shows what the glTF drive means, not what Blender's MOTOR does.
"""

from __future__ import annotations

import bpy
import numpy as np
from bpy.app.translations import pgettext_iface as iface_
from mathutils import Vector

from ...io.mapping.joints_to_blender import empty_axis, plan_joint
from ...io.mapping.stored import stored_description
from ...sim import drives as sim_drives
from .. import readout
from ..body import body_shapes
from ..body.sync_body import draw_status
from ..filters import filter_mirror
from ..panels import PARENT_ID, PhysicsPanel, enum_label, label
from .sync_joint import drive_status, limit_status

PREVIEW_TOLERANCE = 1e-3


def joint_object(ob) -> bool:
    return ob is not None and (ob.rigid_body_constraint is not None or ob.gltf_physics.joint.role != "NONE")


def drive_effective_mass(ob, drive, density: float) -> float:
    """Effective mass (linear drive) or inertia about the drive's world axis (angular) of the constrained bodies."""
    rbc = ob.rigid_body_constraint
    bodies = (rbc.object1, rbc.object2) if rbc is not None else (None, None)
    if drive.type == "linear":
        return sim_drives.effective_mass(*(body_shapes.simulated_mass(b) for b in bodies))
    axis = drive_axis_world(ob, drive.axis)
    if axis.length == 0:
        return float("inf")
    inverse = [body_shapes.world_inverse_inertia(b, density) for b in bodies]
    return readout.angular_effective_inertia(np.array(axis.normalized()), inverse)


def drive_axis_world(ob, axis: int) -> Vector:
    """World direction of glTF axis ``axis`` of the stored joint's frame A: the import put the constraint Empty at
    frame A with its axes permuted as the plan of the stored description says (``joints_to_blender.empty_matrix``)."""
    pj = ob.gltf_physics.joint
    plan = plan_joint(
        stored_description(pj, passthrough=False), tuple(pj.offset_translation), tuple(pj.offset_rotation)
    )
    local = Vector((0.0, 0.0, 0.0))
    local[empty_axis(plan.perm, axis)] = 1.0
    return ob.matrix_world.to_3x3() @ local


def drive_preview(ob, drive, density: float) -> readout.DriveReadout | None:
    """Settle preview of a stored drive on joint object ``ob``."""
    return readout.drive_readout(
        drive.stiffness,
        drive.damping,
        drive.position_target if drive.has_position_target else None,
        drive.velocity_target if drive.has_velocity_target else None,
        drive.mode,
        drive_effective_mass(ob, drive, density),
        tolerance=PREVIEW_TOLERANCE,
    )


class GLTF_PHYSICS_PT_joint(PhysicsPanel, bpy.types.Panel):
    """Stored glTF joint: bodies, enableCollision, frames, limits, drives; Blender's constraint approximates it."""

    bl_idname = "GLTF_PHYSICS_PT_joint"
    bl_label = "Joint"
    bl_parent_id = PARENT_ID
    bl_order = 4

    @classmethod
    def poll(cls, context) -> bool:
        return joint_object(context.object)

    def draw(self, context) -> None:
        layout = self.layout
        layout.use_property_split = True
        layout.use_property_decorate = False
        ob = context.object
        pg = ob.gltf_physics
        joint = pg.joint
        rbc = ob.rigid_body_constraint
        col = layout.column()
        col.prop(joint, "role")
        if rbc is not None:
            names = [o.name if o is not None else iface_("none") for o in (rbc.object1, rbc.object2)]
            label(col, "Blender: {} constraint, {} – {}", enum_label(rbc, "type"), *names, icon="CONSTRAINT")
        if joint.role != "JOINT":
            col.label(text="No stored glTF joint: export derives it from the constraint", icon="INFO")
            return
        col.prop(joint, "joint_name")
        col.prop(joint, "node_a")
        col.prop(joint, "node_b")
        col.prop(joint, "enable_collision")
        if joint.approximated:
            label(col, "Approximation: {}", joint.notes or iface_("yes"), icon="ERROR")
        frames = layout.box()
        frames.label(text="Frames (glTF values, Y up)", icon="ORIENTATION_LOCAL")
        for prop in ("frame_a_translation", "frame_a_rotation", "frame_b_translation", "frame_b_rotation"):
            frames.prop(joint, prop)
        frames.prop(joint, "offset_translation")
        frames.prop(joint, "offset_rotation")
        draw_limits(layout.box(), ob)
        draw_drives(layout.box(), context, ob)


def draw_limits(box, ob) -> None:
    pg = ob.gltf_physics
    joint = pg.joint
    box.label(text="Limits", icon="CON_ROTLIMIT")
    row = box.row()
    row.template_list("GLTF_PHYSICS_UL_joint_limits", "", joint, "limits", pg, "active_limit_index", rows=2)
    if not filter_mirror.joint_rows_in_step(pg):  # a script wrote the text: the rows follow after this draw
        filter_mirror.rebuild_later()
    ops = row.column(align=True)
    ops.operator("gltf_physics.add_joint_item", icon="ADD", text="").kind = "LIMIT"
    ops.operator("gltf_physics.remove_joint_item", icon="REMOVE", text="").kind = "LIMIT"
    if not 0 <= pg.active_limit_index < len(joint.limits):
        return
    limit = joint.limits[pg.active_limit_index]
    col = box.column()
    draw_status(col.row(), limit_status(limit))
    col.prop(limit, "kind")
    col.prop(limit, "axes")
    for flag, prop in (("has_min", "min"), ("has_max", "max"), ("has_stiffness", "stiffness")):
        row = col.row(align=True)
        row.prop(limit, flag, text="")
        sub = row.row(align=True)
        sub.active = getattr(limit, flag)
        sub.prop(limit, prop)
    col.prop(limit, "damping")


def draw_drives(box, context, ob) -> None:
    pg = ob.gltf_physics
    joint = pg.joint
    box.label(text="Drives", icon="AUTO")
    row = box.row()
    row.template_list("GLTF_PHYSICS_UL_joint_drives", "", joint, "drives", pg, "active_drive_index", rows=2)
    if not filter_mirror.joint_rows_in_step(pg):  # a script wrote the text: the rows follow after this draw
        filter_mirror.rebuild_later()
    ops = row.column(align=True)
    ops.operator("gltf_physics.add_joint_item", icon="ADD", text="").kind = "DRIVE"
    ops.operator("gltf_physics.remove_joint_item", icon="REMOVE", text="").kind = "DRIVE"
    if not 0 <= pg.active_drive_index < len(joint.drives):
        return
    drive = joint.drives[pg.active_drive_index]
    col = box.column()
    draw_status(col.row(), drive_status(ob, pg.active_drive_index))
    col.prop(drive, "type")
    col.prop(drive, "mode")
    col.prop(drive, "axis")
    for flag, prop in (
        ("has_position_target", "position_target"),
        ("has_velocity_target", "velocity_target"),
        ("has_max_force", "max_force"),
    ):
        row = col.row(align=True)
        row.prop(drive, flag, text="")
        sub = row.row(align=True)
        sub.active = getattr(drive, flag)
        sub.prop(drive, prop)
    col.prop(drive, "stiffness")
    col.prop(drive, "damping")
    density = float(context.scene.gltf_physics.import_density)
    draw_preview(box.box(), drive_preview(ob, drive, density), drive)


def draw_preview(box, preview: readout.DriveReadout | None, drive) -> None:
    """Settle preview read-out (from rest at the start pose, unclamped by maxForce)."""
    box.label(text="Settle preview (from rest)", icon="TIME")
    col = box.column(align=True)
    if preview is None:
        col.label(text="No preview: both bodies are immovable", icon="INFO")
        return
    unit = iface_("m") if drive.type == "linear" else iface_("rad")
    label(col, "Regime: {}", iface_(preview.regime))
    if preview.target is None:
        col.label(text="No target: the drive applies no force")
        return
    label(col, "Target ({}): {:.4g}", iface_(preview.target_kind), preview.target)
    if preview.settle_time is None:
        col.label(text="Never settles (no damping)", icon="ERROR")
    else:
        label(col, "Time to target: {:.4g} s (within {:g} {})", preview.settle_time, PREVIEW_TOLERANCE, unit)
    if preview.overshoot_ratio is not None:
        label(col, "Overshoot: {:.4g} {} ({:.1f} %)", preview.overshoot, unit, 100.0 * preview.overshoot_ratio)
    else:
        label(col, "Overshoot: {:.4g} {}", preview.overshoot, unit)
    if drive.mode == "force":
        label(col, "Effective mass: {:.4g}", preview.effective_mass)
    if drive.has_max_force:
        col.label(text="Max force not applied in the preview", icon="INFO")


CLASSES = (GLTF_PHYSICS_PT_joint,)
