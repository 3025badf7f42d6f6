"""Initial ``linearVelocity`` / ``angularVelocity`` as a kinematic pre-roll (bpy-free rules).

Blender has no velocity property. A body is given its velocity by moving it kinematically along the path the file
means for the first frames of the simulation (Bullet derives a kinematic body's velocity from its motion), then
switching ``rigid_body.kinematic`` off through RNA at frame ``start + RELEASE`` (a persistent ``frame_change_pre``
handler; a keyframed switch stops the body). The motion comes from drivers on the body's delta transforms whose
simple expressions need no Python (no "Auto Run Scripts"): driver variables ``s`` (the rigid-body cache's start
frame), ``fps`` and ``fpsb`` (the scene's frame rate and base), ``ts`` (the world's time scale).

Measured with bpy 5.0 (``tests/blender/importer/test_import_reproduce_velocity.py``): the path has to go on through
the release step (``HOLD`` > ``RELEASE``) and the first simulated step after a rebuild gives no velocity, so the
release comes on the third frame. The pre-roll follows the ballistic path under the world's gravity, so the body is
where a free body would be at every frame. A kinematic or infinite-mass body keeps its velocity for ever (KHR): its
drivers are not windowed and it stays Animated (``constant_expressions``).
"""

from __future__ import annotations

import math

import numpy as np

RELEASE = 3  # kinematic while frame < start + RELEASE
HOLD = RELEASE + 1  # the pre-roll path stops at start + HOLD
TIME = f"((min(max(frame, s), s + {HOLD}) - s) * ts * fpsb / fps)"  # simulated seconds since the start
ENDLESS = "((max(frame, s) - s) * ts * fpsb / fps)"  # a kinematic body: seconds since the start, unclamped
VARIABLES = {  # driver variable → RNA path on the scene
    "s": "rigidbody_world.point_cache.frame_start",
    "fps": "render.fps",
    "fpsb": "render.fps_base",
    "ts": "rigidbody_world.time_scale",
}


def _windowed(expression: str) -> str:
    """Non-zero only during the pre-roll: before the start and after it the body has no delta transform."""
    return f"({expression}) if s <= frame <= s + {HOLD} else 0.0"


def kinematic_at(frame: int, start: int) -> bool:
    """Is a pre-rolled body kinematic at ``frame`` (cache start ``start``)?"""
    return frame < start + RELEASE


def _num(v: float) -> str:
    return repr(float(v))


def location_expressions(velocity, gravity) -> list[str]:
    """Delta location x, y, z (parent axes) at the driver's time: ``v·t + ½·g·t²``."""
    out = []
    for v, g in zip(velocity, gravity, strict=True):
        terms = []
        if v:
            terms.append(f"{_num(v)} * {TIME}")
        if g:
            terms.append(f"{_num(0.5 * g)} * {TIME} * {TIME}")
        out.append(_windowed(" + ".join(terms)) if terms else "0.0")
    return out


def rotation_expressions(angular_velocity) -> list[str]:
    """Delta rotation quaternion w, x, y, z (parent axes) of a constant angular velocity (rad/s) at the driver's
    time: the axis ``ω/|ω|``, the angle ``|ω|·t``."""
    speed = math.sqrt(sum(w * w for w in angular_velocity))
    if speed == 0.0:
        return ["1.0", "0.0", "0.0", "0.0"]
    half = f"({_num(0.5 * speed)} * {TIME})"
    out = [f"cos{half}"]  # 1 outside the pre-roll: TIME is 0 before it, and the window below
    for w in angular_velocity:
        out.append(_windowed(f"{_num(w / speed)} * sin{half}") if w else "0.0")
    out[0] = f"(cos{half}) if s <= frame <= s + {HOLD} else 1.0"
    return out


def is_preroll_driver(data_path: str, expression: str) -> bool:
    """Is this driver one of the pre-roll's (the exporter expects such a body to be kinematic early on)?"""
    return data_path in ("delta_location", "delta_rotation_quaternion") and "fpsb / fps" in expression


def preroll_driven(ob) -> bool:
    """Does ``ob`` (a Blender object, duck-typed) carry the pre-roll drivers?"""
    data = getattr(ob, "animation_data", None)
    drivers = getattr(data, "drivers", None) or ()
    return any(is_preroll_driver(fc.data_path, fc.driver.expression) for fc in drivers)


def constant_expressions(velocity) -> list[str]:
    """Delta location of a kinematic (or infinite-mass) body that keeps its initial velocity for ever: ``v·t``."""
    return [f"{_num(v)} * {ENDLESS}" if v else "0.0" for v in velocity]


def constant_rotation_expressions(angular_velocity) -> list[str]:
    """Delta rotation quaternion w, x, y, z of a constant spin, for ever."""
    speed = math.sqrt(sum(w * w for w in angular_velocity))
    if speed == 0.0:
        return ["1.0", "0.0", "0.0", "0.0"]
    half = f"({_num(0.5 * speed)} * {ENDLESS})"
    return [f"cos{half}", *(f"{_num(w / speed)} * sin{half}" if w else "0.0" for w in angular_velocity)]


MARGIN = 0.05  # m: how far below a body's bottom a support may be (besides the pre-roll's fall)


def rests_on_something(box, others, velocity, gravity, seconds: float) -> bool:
    """Would the ballistic pre-roll push a body resting on something into it? ``box`` and ``others`` (an (N, 2, 3)
    array-like) are world axis-aligned boxes ((min x, y, z), (max x, y, z)) with gravity along −z: true when
    another box's top lies within the pre-roll's fall below the body's bottom, under its footprint, and the body
    does not rise out of reach first. Such a body pre-rolls without gravity (a kinematic body passes through
    static ones)."""
    g = -gravity[2]
    if g <= 0.0 or abs(gravity[0]) > 1e-9 or abs(gravity[1]) > 1e-9:
        return False
    fall = 0.5 * g * seconds * seconds - velocity[2] * seconds
    if fall <= 0.0:
        return False
    lo, hi = box
    boxes = np.asarray(others, dtype=float).reshape(-1, 2, 3)  # vectorised: one body against every other at once
    below, above = boxes[:, 0], boxes[:, 1]
    under = (below[:, 0] < hi[0]) & (lo[0] < above[:, 0]) & (below[:, 1] < hi[1]) & (lo[1] < above[:, 1])
    within = (above[:, 2] >= lo[2] - fall - MARGIN) & (above[:, 2] <= lo[2] + MARGIN)
    return bool(np.any(under & within))


def path_at(seconds: float, velocity, gravity) -> tuple[float, float, float]:
    """The pre-roll offset the location expressions give at ``seconds`` (for tests and checks)."""
    t = max(0.0, seconds)
    return tuple(v * t + 0.5 * g * t * t for v, g in zip(velocity, gravity, strict=True))
