"""Blender-only rigid-body settings kept in the file's ``extras`` so that Blender → glTF → Blender loses nothing
(bpy-free).

glTF has no field for Blender's damping, deactivation, collision margin, breaking thresholds, spring type, solver
iterations or the rigid-body world's gravity and time scale; engines ignore them, but the next Blender import reads
them back. Each place has one documented key (docs/export.md, "Blender-only settings in extras"):

* ``extras.blender_rigid_body`` of a node's ``KHR_physics_rigid_bodies`` / ``OMI_physics_body`` object: the
  object's ``RigidBodyObject`` settings (``BODY``);
* ``extras.blender_rigid_body_constraint`` of a node's ``joint`` object: the ``RigidBodyConstraint`` settings
  (``CONSTRAINT``);
* ``extras.blender_rigid_body_world`` of the document-level ``KHR_physics_rigid_bodies`` / ``OMI_physics_body``
  object: the ``RigidBodyWorld`` and ``Scene`` gravity settings (``WORLD``).

Keys are Blender's RNA property names; only values that differ from what a Blender import makes without them
(``Setting.default``: Blender's defaults, damping 0 because a glTF body has none) are written, numbers as 32-bit
floats with 7 digits. The import checks every value (``read_settings``): a wrong type or an unknown name is reported
at its JSON pointer and skipped, never raised.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from ..diagnostics import pointer
from ..gltf.numbers import r7

BODY_KEY = "blender_rigid_body"
CONSTRAINT_KEY = "blender_rigid_body_constraint"
WORLD_KEY = "blender_rigid_body_world"

BOOL, FLOAT, INT, VEC3, ENUM = "bool", "float", "int", "vec3", "enum"


@dataclass(frozen=True)
class Setting:
    """One Blender property: its kind, the value the import makes without the key, the allowed words (enums) and
    the smallest allowed number (Blender's hard minimum: a value below it would be clamped by RNA anyway)."""

    kind: str
    default: Any
    words: tuple[str, ...] = ()
    minimum: float | None = None


BODY: dict[str, Setting] = {
    "linear_damping": Setting(FLOAT, 0.0, minimum=0.0),  # the import's 0: glTF bodies are not damped
    "angular_damping": Setting(FLOAT, 0.0, minimum=0.0),
    "use_margin": Setting(BOOL, False),
    "collision_margin": Setting(FLOAT, 0.04, minimum=0.0),
    "use_deactivation": Setting(BOOL, False),
    "use_start_deactivated": Setting(BOOL, False),
    "deactivate_linear_velocity": Setting(FLOAT, 0.4, minimum=0.0),
    "deactivate_angular_velocity": Setting(FLOAT, 0.5, minimum=0.0),
    "enabled": Setting(BOOL, True),
    "use_deform": Setting(BOOL, False),
    "mesh_source": Setting(ENUM, "DEFORM", words=("BASE", "DEFORM", "FINAL")),  # a new body's,
}

CHILD_SETTINGS = ("use_margin", "collision_margin", "use_deform", "mesh_source")  # of a compound's child shape

CONSTRAINT: dict[str, Setting] = {
    "use_breaking": Setting(BOOL, False),
    "breaking_threshold": Setting(FLOAT, 10.0, minimum=0.0),
    "use_override_solver_iterations": Setting(BOOL, False),
    "solver_iterations": Setting(INT, 10, minimum=1),
    "spring_type": Setting(ENUM, "SPRING2", words=("SPRING1", "SPRING2")),  # the import's SPRING2
}

WORLD: dict[str, Setting] = {
    "time_scale": Setting(FLOAT, 1.0, minimum=0.0),
    "substeps_per_frame": Setting(INT, 10, minimum=1),
    "solver_iterations": Setting(INT, 10, minimum=1),
    "use_split_impulse": Setting(BOOL, False),
    "use_gravity": Setting(BOOL, True),  # Scene.use_gravity
    "gravity": Setting(VEC3, (0.0, 0.0, -9.81)),  # Scene.gravity, Blender axes (Z up), m/s²
}

GRAVITY_SCENE_NAMES = ("use_gravity", "gravity")  # of ``WORLD``: properties of the Scene, not of the world


def _plain(setting: Setting, value: Any) -> Any:
    """``value`` as written: 7-digit floats, ints, bools, words, a 3-list."""
    if setting.kind == FLOAT:
        return r7(float(value))
    if setting.kind == INT:
        return int(value)
    if setting.kind == BOOL:
        return bool(value)
    if setting.kind == VEC3:
        return [r7(float(v)) for v in value]
    return str(value)


def _same(setting: Setting, a: Any, b: Any) -> bool:
    if setting.kind == FLOAT:
        return math.isclose(float(a), float(b), rel_tol=1e-6, abs_tol=1e-9)
    if setting.kind == VEC3:
        return all(math.isclose(float(x), float(y), rel_tol=1e-6, abs_tol=1e-9) for x, y in zip(a, b, strict=True))
    return a == b


def settings_entry(values: dict[str, Any], table: dict[str, Setting]) -> dict[str, Any]:
    """The entry to write under a key: every value of ``values`` (Blender's current settings) that differs from
    what the import makes without it, in the table's order."""
    return {
        name: _plain(setting, values[name])
        for name, setting in table.items()
        if name in values and not _same(setting, values[name], setting.default)
    }


def with_entry(extras: Any, key: str, entry: dict[str, Any]) -> tuple[Any, bool]:
    """(the ``extras`` to write, whether ``entry`` found a place): ``key`` set to ``entry`` (removed when empty),
    the other keys kept. Extras that are not an object cannot hold it: left as they are (False when ``entry`` had
    something to keep)."""
    if extras is None:
        return ({key: entry} if entry else None), True
    if not isinstance(extras, dict):
        return extras, not entry
    out = {k: v for k, v in extras.items() if k != key}
    if entry:
        out[key] = entry
    return (out or None), True


def entry_of(extras: Any, key: str) -> Any:
    """The value under ``key`` of an ``extras`` object (None: none)."""
    return extras.get(key) if isinstance(extras, dict) else None


def read_settings(entry: Any, table: dict[str, Setting], ptr: str) -> tuple[dict[str, Any], list[tuple[str, str]]]:
    """(name → value to set, [(JSON pointer, problem)]) of one entry read from a file: values of the wrong type,
    out of range or of unknown names are reported at their pointer and left out."""
    if not isinstance(entry, dict):
        return {}, [(ptr, f"must be an object of Blender settings, not {type(entry).__name__}")]
    values, problems = {}, []
    for name, value in entry.items():
        at = ptr + pointer(str(name))
        setting = table.get(name)
        if setting is None:
            problems.append((at, f"unknown Blender setting {name!r}: ignored"))
            continue
        found = _checked(setting, value)
        if found is None:
            problems.append((at, f"{name}: {_expected(setting)}, not {value!r}: ignored"))
        else:
            values[name] = found
    return values, problems


def _checked(setting: Setting, value: Any) -> Any:
    """``value`` converted to the setting's kind, or None when it is not one."""
    kind = setting.kind
    if kind == BOOL:
        return value if isinstance(value, bool) else None
    if kind == ENUM:
        return value if isinstance(value, str) and value in setting.words else None
    if kind == VEC3:
        if isinstance(value, list) and len(value) == 3 and all(_finite(v) for v in value):
            return tuple(float(v) for v in value)
        return None
    if kind == INT:
        ok = isinstance(value, int) and not isinstance(value, bool)
        ok = ok or (isinstance(value, float) and value.is_integer())
        if not ok or (setting.minimum is not None and value < setting.minimum):
            return None
        return int(value)
    if not _finite(value) or (setting.minimum is not None and value < setting.minimum):
        return None
    return float(value)


def _finite(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)


def _expected(setting: Setting) -> str:
    if setting.kind == BOOL:
        return "expected true or false"
    if setting.kind == ENUM:
        return "expected one of " + ", ".join(setting.words)
    if setting.kind == VEC3:
        return "expected 3 finite numbers"
    low = "" if setting.minimum is None else f" ≥ {setting.minimum:g}"
    return f"expected {'an integer' if setting.kind == INT else 'a finite number'}{low}"
