"""Settings of the other Blender glTF-physics add-on (the spec author's ``KHR_physics_rigid_bodies`` exporter) →
values of this extension (bpy-free; ``ui/adopt/adopt.py`` reads and writes the Blender data).

That add-on keeps its settings in two property groups, which stay in a .blend as ID properties when it is not
installed (only the values that were ever set are stored; the rest read as the defaults below):

* ``Object.khr_physics_extra_props`` (bodies): ``non_renderable``, ``is_trigger``, ``gravity_factor`` (1.0),
  ``linear_velocity`` / ``angular_velocity`` (float[3], Blender axes), ``infinite_mass``,
  ``enable_inertia_override`` + ``inertia_major_axis`` (float[3], (1, 1, 1)) + ``inertia_orientation`` (Euler XYZ,
  rad), ``enable_com_override`` + ``center_of_mass`` (float[3]), ``friction_combine`` / ``restitution_combine``
  (enum stored as its index: 0 average (the default, written as absent), 1 minimum, 2 maximum, 3 multiply),
  ``cone_capsule_override`` + ``cone_capsule_height`` / ``cone_capsule_radius_top`` / ``cone_capsule_radius_bottom``
  (1.0 each: capsule / cylinder / cone shape parameters);
* ``Object.khr_physics_extra_constraint_props`` (joints), per ``lin`` / ``ang`` and axis ``x`` / ``y`` / ``z`` of the
  constraint Empty: ``use_<t>_drive_<a>``, ``<t>_<a>_drive_mode`` (0 force, 1 acceleration), ``…_drive_pos_target``,
  ``…_drive_vel_target``, ``…_drive_force_limited`` + ``…_drive_max_force``, ``…_drive_stiffness``,
  ``…_drive_damping`` (0.0 each).

What its exporter writes for them is documented in ``docs/ui.md`` (*Adopt Physics Settings*).
"""

from __future__ import annotations

import math

from ..gltf.model import CAPSULE, CYLINDER, CapsuleShape, CylinderShape, JointDrive, Shape

BODY_PROPS = "khr_physics_extra_props"
JOINT_PROPS = "khr_physics_extra_constraint_props"
COMBINE_ITEMS = ("average", "minimum", "maximum", "multiply")
DRIVE_MODE_ITEMS = ("force", "acceleration")
BODY_DEFAULTS = {
    "non_renderable": False,
    "is_trigger": False,
    "gravity_factor": 1.0,
    "linear_velocity": (0.0, 0.0, 0.0),
    "angular_velocity": (0.0, 0.0, 0.0),
    "infinite_mass": False,
    "enable_inertia_override": False,
    "inertia_major_axis": (1.0, 1.0, 1.0),
    "inertia_orientation": (0.0, 0.0, 0.0),
    "enable_com_override": False,
    "center_of_mass": (0.0, 0.0, 0.0),
    "friction_combine": 0,
    "restitution_combine": 0,
    "cone_capsule_override": False,
    "cone_capsule_radius_bottom": 1.0,
    "cone_capsule_radius_top": 1.0,
    "cone_capsule_height": 1.0,
}


def _enum(value, items: tuple[str, ...]) -> str | None:
    """An enum read from ID properties (its index) or from RNA (its identifier); None when unknown."""
    if isinstance(value, str):
        return value.lower() if value.lower() in items else None
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < len(items):
        return items[value]
    return None


def _vector(value, default) -> tuple[float, float, float]:
    try:
        out = tuple(float(v) for v in value)
    except (TypeError, ValueError):
        return tuple(default)
    return out if len(out) == 3 and all(math.isfinite(v) for v in out) else tuple(default)


def _number(value, default: float) -> float:
    try:
        out = float(value)
    except (TypeError, ValueError):
        return default
    return out if math.isfinite(out) else default


def body_settings(stored: dict) -> tuple[dict, list[str]]:
    """The body settings with the add-on's defaults for what was never set, combine modes as names ("average" =
    the default, written as absent); and the keys that could not be read (left at their default)."""
    out, bad = {}, []
    for key, default in BODY_DEFAULTS.items():
        value = stored.get(key, default)
        if key.endswith("_combine"):
            out[key] = _enum(value, COMBINE_ITEMS)
            if out[key] is None:
                bad.append(key)
                out[key] = "average"
        elif isinstance(default, tuple):
            out[key] = _vector(value, default)
            if key in stored and out[key] != _vector(stored[key], (math.nan,) * 3):
                bad.append(key)
        elif isinstance(default, bool):
            out[key] = bool(value)
        else:
            out[key] = _number(value, default)
            if key in stored and out[key] != _number(stored[key], math.nan):
                bad.append(key)
    return out, bad


def combine_for_file(mode: str) -> str | None:
    """The combine mode the add-on writes: none for "average" (its default), the name otherwise."""
    return None if mode == "average" else mode


def euler_xyz_to_quat(euler) -> tuple[float, float, float, float]:
    """Blender's XYZ Euler (rad) as a quaternion (w, x, y, z): R = Rz · Ry · Rx."""
    hx, hy, hz = (0.5 * float(a) for a in euler)
    cx, sx, cy, sy, cz, sz = math.cos(hx), math.sin(hx), math.cos(hy), math.sin(hy), math.cos(hz), math.sin(hz)
    return (
        cz * cy * cx + sz * sy * sx,
        cz * cy * sx - sz * sy * cx,
        cz * sy * cx + sz * cy * sx,
        sz * cy * cx - cz * sy * sx,
    )


def override_shape(settings: dict, collision_shape: str) -> Shape | None:
    """The shape-parameter override (``cone_capsule_override``) as the add-on writes it: CAPSULE → capsule, CYLINDER
    and CONE → cylinder, with height / radiusTop / radiusBottom as set; None when off or for other shapes."""
    if not settings["cone_capsule_override"] or collision_shape not in ("CAPSULE", "CYLINDER", "CONE"):
        return None
    values = {
        "height": settings["cone_capsule_height"],
        "radius_top": settings["cone_capsule_radius_top"],
        "radius_bottom": settings["cone_capsule_radius_bottom"],
    }
    if collision_shape == "CAPSULE":
        return Shape(type=CAPSULE, params=CapsuleShape(**values))
    return Shape(type=CYLINDER, params=CylinderShape(**values))


def drives(stored: dict) -> tuple[list[JointDrive], list[str]]:
    """The enabled drives, in the constraint Empty's own axes (axis index 0, 1, 2 = Empty X, Y, Z; targets as
    set), and the keys that could not be read. Position and velocity targets, stiffness and damping are always
    present (the add-on writes them all); ``maxForce`` only when force-limited."""
    out, bad = [], []
    for kind, prefix in (("linear", "lin"), ("angular", "ang")):
        for axis, name in enumerate("xyz"):
            if not stored.get(f"use_{prefix}_drive_{name}", False):
                continue
            key = f"{prefix}_{name}_drive_"
            mode = _enum(stored.get(key + "mode", 0), DRIVE_MODE_ITEMS)
            if mode is None:
                bad.append(key + "mode")
                mode = "force"
            numbers = {}
            for field in ("pos_target", "vel_target", "max_force", "stiffness", "damping"):
                numbers[field] = _number(stored.get(key + field, 0.0), 0.0)
                if key + field in stored and numbers[field] != _number(stored[key + field], math.nan):
                    bad.append(key + field)
            out.append(
                JointDrive(
                    type=kind,
                    mode=mode,
                    axis=axis,
                    position_target=numbers["pos_target"],
                    velocity_target=numbers["vel_target"],
                    max_force=numbers["max_force"] if stored.get(key + "force_limited", False) else None,
                    stiffness=max(numbers["stiffness"], 0.0),
                    damping=max(numbers["damping"], 0.0),
                )
            )
    return out, bad


def filter_systems(collision_collections) -> list[str]:
    """The add-on's collision filter of a body: ``System_<i>`` for each of its collision collections, written both
    as ``collisionSystems`` and ``collideWithSystems`` (Blender's "collide if they share a collection")."""
    return [f"System_{i}" for i, on in enumerate(collision_collections) if on]
