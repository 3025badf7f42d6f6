"""Copy model values onto ``Object.gltf_physics`` (for export) and onto Blender's rigid body (for simulation), and
read a stored joint description back.

Vectors go to Blender's frame with exact swizzles (see ``ui/body/properties.py``); shapes/filters are kept as JSON.
"""

from __future__ import annotations

import json
import math

from ..diagnostics import printable
from ..gltf.model import (
    COMBINE_MODES,
    KINEMATIC,
    CollisionFilter,
    Geometry,
    JointDescription,
    JointDrive,
    JointLimit,
    MeshShape,
    Motion,
    Passthrough,
    PhysicsDocument,
    PhysicsMaterial,
)
from ..gltf.numbers import r7
from . import passthrough
from .axes import quat_to_blender, scale_to_blender, vec_to_blender
from .shapes_to_blender import shape_to_json
from .stored_values import JOINT_DRIVES, JOINT_LIMITS, StoredRow, StoredView, written_rows

SPEC_FRICTION = 0.6  # KHR/OMI default static and dynamic friction
SPEC_RESTITUTION = 0.0


_SEQUENCES = (tuple, list)


def assign(pg, **values) -> None:
    """Set the values of ``pg``: a group or row of an object's stored values (``stored_values.StoredView`` /
    ``StoredRow``, the import's) takes them at once; a property group through RNA, skipping those equal to what it
    already reads (each RNA set of a stored property rewrites the object's text)."""
    if isinstance(pg, StoredView | StoredRow):  # one stored text: the values go into it at once
        pg.assign(values)
        return
    for name, value in values.items():
        current = getattr(pg, name)
        if isinstance(value, _SEQUENCES):
            if tuple(current) == tuple(value):
                continue
        elif current == value:
            continue
        setattr(pg, name, value)


def store_motion(pg, motion: Motion, animated: bool) -> None:
    if motion.mass is None:
        mass_mode, mass = "ABSENT", {}  # the mass the group holds is kept
    elif motion.mass == 0.0:
        mass_mode, mass = "INFINITE", {"mass": 0.0}
    else:
        mass_mode, mass = "EXPLICIT", {"mass": motion.mass}
    extra = {
        name: convert(value)
        for name, value, convert in (
            ("center_of_mass", motion.center_of_mass, vec_to_blender),
            ("inertia_diagonal", motion.inertia_diagonal, scale_to_blender),
            ("inertia_orientation", motion.inertia_orientation, quat_to_blender),
        )
        if value is not None
    }
    assign(
        pg,
        has_motion=True,
        kind=motion.kind if motion.kind in ("dynamic", "kinematic", "static") else "dynamic",
        mass_mode=mass_mode,
        **mass,
        has_center_of_mass=motion.center_of_mass is not None,
        has_inertia_diagonal=motion.inertia_diagonal is not None,
        has_inertia_orientation=motion.inertia_orientation is not None,
        linear_velocity=vec_to_blender(motion.linear_velocity),
        angular_velocity=vec_to_blender(motion.angular_velocity),
        gravity_factor=motion.gravity_factor,
        animated=animated,
        passthrough=passthrough.dumps(motion),
        **extra,
    )


def stored_only_motion_fields(motion: Motion, reproduced: frozenset[str] = frozenset()) -> list[str]:
    """Motion values Blender does not simulate (kept for export), except the ``reproduced`` ones."""
    out = []
    if motion.center_of_mass is not None and any(motion.center_of_mass):  # origin = what Blender uses
        out.append("centerOfMass")
    if motion.inertia_diagonal is not None:
        out.append("inertiaDiagonal")
    if motion.inertia_orientation is not None:
        out.append("inertiaOrientation")
    if any(motion.linear_velocity):
        out.append("linearVelocity")
    if any(motion.angular_velocity):
        out.append("angularVelocity")
    if motion.gravity_factor != 1.0:
        out.append("gravityFactor")
    return [name for name in out if name not in reproduced]


def is_kinematic(motion: Motion) -> bool:
    return motion.kind == KINEMATIC


def store_material(pg, material: PhysicsMaterial | None, index: int | None, memo: dict | None = None) -> None:
    """``memo``: a per-import dict; colliders sharing a material then share its values."""
    key = ("material", index, id(material))
    values = memo.get(key) if memo is not None else None
    if values is None:
        values = _material_values(material, index)
        if memo is not None:
            memo[key] = values
    assign(pg, **values)


def _material_values(material: PhysicsMaterial | None, index: int | None) -> dict:
    if material is None:
        return {"has_material": False, "index": -1 if index is None else index}
    return {
        "has_material": True,
        "index": -1 if index is None else index,
        "name": printable(material.name or ""),  # a Blender string cannot hold a lone surrogate
        "static_friction": material.static_friction,
        "dynamic_friction": material.dynamic_friction,
        "restitution": material.restitution,
        "friction_combine": _known_combine(material.friction_combine),
        "restitution_combine": _known_combine(material.restitution_combine),
        "passthrough": _material_passthrough(material),
    }


def _known_combine(value: str | None) -> str:
    """The enum item for a combine mode; an unknown one (the validator warned once) simulates like an absent one."""
    return value if value in COMBINE_MODES else "NONE"


def _material_passthrough(material: PhysicsMaterial) -> str:
    """The material's passthrough, plus combine modes outside the enum as unknown keys (written back on export)."""
    data = passthrough.as_dict(material)
    odd = {
        key: value
        for key, value in (
            ("frictionCombine", material.friction_combine),
            ("restitutionCombine", material.restitution_combine),
        )
        if value is not None and value not in COMBINE_MODES
    }
    if odd:
        data["unknown"] = {**data.get("unknown", {}), **odd}
    return json.dumps(data) if data else ""


def blender_coefficient(value: float, combine: str | None) -> float:
    """The single value written to Blender, which multiplies the two bodies' values.

    ``multiply``: the value itself (exact). Any other or no combine mode: its square root, so two bodies with the
    same material get exactly the file's value and two different ones get the geometric mean (between minimum and
    maximum, close to the average).
    """
    value = max(float(value), 0.0)
    return value if combine == "multiply" else math.sqrt(value)


def apply_material(rb, material: PhysicsMaterial | None) -> None:
    """Blender friction from ``dynamicFriction`` (the sliding friction Bullet applies), restitution as is."""
    friction = material.dynamic_friction if material is not None else SPEC_FRICTION
    restitution = material.restitution if material is not None else SPEC_RESTITUTION
    write_changed(rb, "friction", blender_coefficient(friction, material.friction_combine if material else None))
    write_changed(
        rb, "restitution", blender_coefficient(restitution, material.restitution_combine if material else None)
    )


_UNSET = object()  # what ``write_changed`` compares with when ``struct`` has no such attribute yet


def write_changed(struct, name: str, value) -> None:
    """``setattr`` unless ``struct`` already reads ``value``: each write of a rigid-body setting runs Blender's
    update (thousands per import); a value the setting already holds changes nothing."""
    if getattr(struct, name, _UNSET) != value:
        setattr(struct, name, value)


def _json_list(values) -> str:
    return "" if values is None else json.dumps(list(values))


def store_filter(pg, flt: CollisionFilter | None, index: int | None) -> None:
    """The filter's values; its texts' update callback builds the panel's rows of each list (ui/filter_mirror)."""
    if flt is None:
        assign(pg, has_filter=False, index=-1 if index is None else index)
        return
    assign(
        pg,
        has_filter=True,
        index=-1 if index is None else index,
        name=printable(flt.name or ""),
        passthrough=passthrough.dumps(flt),
        collision_systems=_json_list(flt.collision_systems),
        collide_with_systems=_json_list(flt.collide_with_systems),
        not_collide_with_systems=_json_list(flt.not_collide_with_systems),
    )


def store_geometry(pg, document: PhysicsDocument, geometry: Geometry | None, memo: dict | None = None) -> None:
    """``memo``: a per-import dict; colliders sharing a shape then share its JSON text."""
    if geometry is None:
        assign(pg, kind="NONE")
        return
    values = {"convex_hull": geometry.convex_hull, "passthrough": passthrough.dumps(geometry)}
    if geometry.shape is not None:
        values.update(kind="SHAPE", shape_index=geometry.shape)
        if 0 <= geometry.shape < len(document.shapes):
            params = document.shapes[geometry.shape].params  # a convex mesh shape (2024-07, OMI): the export reads
            values["convex_hull"] |= isinstance(params, MeshShape) and params.convex_hull  # it here for a BOX hull
            memo = {} if memo is None else memo
            values["shape_json"] = _shape_json(document, geometry.shape, memo)
            values["shape_passthrough"] = _shape_passthrough(document, geometry.shape, memo)
    elif geometry.mesh is not None:
        values.update(kind="MESH", mesh=geometry.mesh)
    elif geometry.node is not None:
        values.update(kind="NODE", node=geometry.node)
    assign(pg, **values)


def _shape_json(document: PhysicsDocument, index: int, memo: dict) -> str:
    key = ("shape_json", index)
    if key not in memo:
        memo[key] = json.dumps(shape_to_json(document.shapes[index]))
    return memo[key]


def _shape_passthrough(document: PhysicsDocument, index: int, memo: dict) -> str:
    key = ("shape_passthrough", index)
    if key not in memo:
        memo[key] = passthrough.shape_dumps(document.shapes[index])
    return memo[key]


def lookup(items: list, index: int | None):
    """``items[index]`` or None (absent or out of range)."""
    if index is None or not 0 <= index < len(items):
        return None
    return items[index]


# --- joints (stored on the constraint Empty) ---


def passthrough_json(item) -> str:
    """The extras / extensions / unknown keys of a model object as the JSON text a stored item keeps."""
    data = {}
    if item.extras is not None:
        data["extras"] = item.extras
    if item.extensions:
        data["extensions"] = item.extensions
    if item.unknown:
        data["unknown"] = item.unknown
    return json.dumps(data, sort_keys=True) if data else ""


def store_description(pj: StoredView, description: JointDescription, memo: dict | None = None) -> None:
    """Append the limits and drives of ``description`` to the stored joint ``pj`` (a writable view of an object's
    stored values: the import's, or ``stored_values.editing``; read back by ``stored_description``); used by the
    importer, *Add glTF Joint* and adopt. ``memo``: a per-import dict; joints sharing a description then share its
    values."""
    key = ("description", id(description))
    rows = memo.get(key) if memo is not None else None
    if rows is None:
        limits, drives = _description_values(description)
        rows = written_rows(JOINT_LIMITS, limits), written_rows(JOINT_DRIVES, drives)
        if memo is not None:
            memo[key] = rows
    pj.add_rows("limits", rows[0])
    pj.add_rows("drives", rows[1])


def _description_values(description: JointDescription) -> tuple[list[dict], list[dict]]:
    """The stored values of each limit and of each drive (a drive's type and mode only when the file's are known)."""
    limits = []
    for limit in description.limits:
        axes = limit.linear_axes if limit.linear_axes else limit.angular_axes or ()
        limits.append(
            {
                "kind": "LINEAR" if limit.linear_axes else "ANGULAR",
                "axes": [a in axes for a in range(3)],
                "has_min": limit.min is not None,
                "min": limit.min or 0.0,
                "has_max": limit.max is not None,
                "max": limit.max or 0.0,
                "has_stiffness": limit.stiffness is not None,
                "stiffness": limit.stiffness or 0.0,
                "damping": limit.damping,
                "extras_json": passthrough_json(limit),
            }
        )
    drives = []
    for drive in description.drives:
        values = {
            "axis": drive.axis if drive.axis in (0, 1, 2) else 0,
            "has_max_force": drive.max_force is not None,
            "max_force": drive.max_force or 0.0,
            "has_position_target": drive.position_target is not None,
            "position_target": drive.position_target or 0.0,
            "has_velocity_target": drive.velocity_target is not None,
            "velocity_target": drive.velocity_target or 0.0,
            "stiffness": drive.stiffness,
            "damping": drive.damping,
            "extras_json": passthrough_json(drive),
        }
        if drive.type in ("linear", "angular"):
            values["type"] = drive.type
        if drive.mode in ("force", "acceleration"):
            values["mode"] = drive.mode
        drives.append(values)
    return limits, drives


# --- joints (read back from the constraint Empty) ----------------------------------------------------------------


def joint_passthrough(obj: Passthrough, text: str) -> None:
    """Put the passthrough JSON the import kept on a joint item back onto the model object (malformed text raises)."""
    if not text:
        return
    data = json.loads(text)
    obj.extras = data.get("extras")
    obj.extensions = dict(data.get("extensions") or {})
    obj.unknown = dict(data.get("unknown") or {})


def stored_description(pj, passthrough: bool = True) -> JointDescription:
    """The joint description exactly as the import kept it on the constraint Empty (``ui/joint/joint_properties.py``);
    32-bit values back in their ``r7`` form; ``passthrough=False`` leaves out the kept extras/extensions."""
    keep = joint_passthrough if passthrough else lambda obj, text: None
    limits = []
    for item in pj.limits:
        axes = tuple(i for i in range(3) if item.axes[i])
        limit = JointLimit(
            linear_axes=axes if item.kind == "LINEAR" else None,
            angular_axes=axes if item.kind == "ANGULAR" else None,
            min=r7(item.min) if item.has_min else None,
            max=r7(item.max) if item.has_max else None,
            stiffness=r7(item.stiffness) if item.has_stiffness else None,
            damping=r7(item.damping),
        )
        keep(limit, item.extras_json)
        limits.append(limit)
    drives = []
    for item in pj.drives:
        drive = JointDrive(
            type=item.type,
            mode=item.mode,
            axis=item.axis,
            max_force=r7(item.max_force) if item.has_max_force else None,
            position_target=r7(item.position_target) if item.has_position_target else None,
            velocity_target=r7(item.velocity_target) if item.has_velocity_target else None,
            stiffness=r7(item.stiffness),
            damping=r7(item.damping),
        )
        keep(drive, item.extras_json)
        drives.append(drive)
    description = JointDescription(limits=limits, drives=drives, name=pj.joint_name or None)
    keep(description, pj.extras_json)
    return description
