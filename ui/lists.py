"""UI lists of a stored glTF joint's limits and drives (``Object.gltf_physics.joint.limits`` / ``.drives``) and of
the collision-filter system names.

The collision-filter lists are drawn by ``ui/filters/filter_lists.py`` (their rows are a view of the stored JSON text).
"""

from __future__ import annotations

import math

import bpy
from bpy.app.translations import pgettext_iface as iface_

AXIS_NAMES = "XYZ"


def limit_summary(limit) -> str:
    """``Angular X: −0.5 … 0.5 rad, soft`` (glTF axes of frame A)."""
    axes = "".join(name for name, on in zip(AXIS_NAMES, limit.axes, strict=True) if on) or "–"
    unit = " m" if limit.kind == "LINEAR" else " rad"
    low = f"{limit.min:.4g}{unit}" if limit.has_min else "−∞"
    high = f"{limit.max:.4g}{unit}" if limit.has_max else "∞"
    kind = iface_("Linear") if limit.kind == "LINEAR" else iface_("Angular")
    soft = iface_(", soft") if limit.has_stiffness else ""
    return f"{kind} {axes}: {low} … {high}{soft}"


def drive_summary(drive) -> str:
    """``Angular X force: → 1.57, v → 0`` (absent targets are left out)."""
    kind = iface_("Linear") if drive.type == "linear" else iface_("Angular")
    targets = []
    if drive.has_position_target:
        targets.append(f"x → {drive.position_target:.4g}")
    if drive.has_velocity_target:
        targets.append(f"v → {drive.velocity_target:.4g}")
    limit = f", ≤ {drive.max_force:.4g}" if drive.has_max_force and math.isfinite(drive.max_force) else ""
    mode = iface_("force") if drive.mode == "force" else iface_("acceleration")
    return f"{kind} {AXIS_NAMES[drive.axis]} {mode}: {', '.join(targets) or iface_('no target')}{limit}"


class GLTF_PHYSICS_UL_joint_limits(bpy.types.UIList):
    """One row per stored joint limit."""

    def draw_item(self, context, layout, data, item, icon, active_data, active_propname, index=0, flt_flag=0):
        icon = "CON_LOCLIMIT" if item.kind == "LINEAR" else "CON_ROTLIMIT"
        layout.label(text=limit_summary(item), icon=icon, translate=False)


class GLTF_PHYSICS_UL_joint_drives(bpy.types.UIList):
    """One row per stored joint drive."""

    def draw_item(self, context, layout, data, item, icon, active_data, active_propname, index=0, flt_flag=0):
        layout.label(text=drive_summary(item), icon="AUTO", translate=False)


class GLTF_PHYSICS_UL_filter_systems(bpy.types.UIList):
    """One row per system name of a collision-filter list (rows rebuilt from the stored JSON text)."""

    def draw_item(self, context, layout, data, item, icon, active_data, active_propname, index=0, flt_flag=0):
        layout.label(text=item.name, icon="DOT", translate=False)


CLASSES = (GLTF_PHYSICS_UL_joint_limits, GLTF_PHYSICS_UL_joint_drives, GLTF_PHYSICS_UL_filter_systems)
