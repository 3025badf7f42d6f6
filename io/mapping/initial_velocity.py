"""Initial ``linearVelocity`` / ``angularVelocity`` as a kinematic pre-roll (bpy-free rules).

Blender has no velocity property. A body is given its velocity by moving it kinematically along the path the file
means for the first frames of the simulation (Bullet derives a kinematic body's velocity from its motion), then
switching ``rigid_body.kinematic`` off at frame ``start + RELEASE`` with a driver (``release_expression``; Blender
carries the kinematic velocity over at that switch, on bpy 4.5 and 5.3 as through RNA). The motion comes from drivers
on the body's delta transforms; all are simple expressions that need no Python (no "Auto Run Scripts") and no frame
handler, so a ``.blend`` plays them without the extension: driver variables ``s`` (the rigid-body cache's start
frame), ``fps`` and ``fpsb`` (the scene's frame rate and base), ``ts`` (the world's time scale).

Joints: Blender rebuilds the rigid-body world on the frame after the cache's start and builds every joint from its
bodies' poses then, read before or after that frame's drivers (the depsgraph orders nothing between the two: a race,
most runs after). A driven body that a joint holds therefore has its drivers' clock started ``DELAY`` (1) frame
late: it holds the file's pose on frames ``s`` and ``s + 1``, either read gives that pose, and the joint is built
where the file put it. The price is a body one frame (1/fps s) late on its path; measured, catching up instead
(``2·v`` on the step ``s + 1 → s + 2``) makes Bullet's later contacts bouncy (the conformance scene
RigidBodies_MotionProperties_06: colliding boxes parted at 2 and 3 m/s instead of going on together at 2.5), so
bodies no joint holds keep the undelayed path.

Measured with bpy 5.0 (``tests/blender/importer/test_import_reproduce_velocity.py``): the path has to go on through the
release step (``HOLD`` > ``RELEASE``) and the first simulated step after a rebuild may give no velocity (the rebuild may
read the moved pose, above), so the release comes on the third frame. The pre-roll follows the ballistic path under the
world's gravity, so the body is where a free body would be at every frame. A kinematic or infinite-mass body keeps its
velocity for ever (KHR): its drivers are not windowed and it stays Animated (``constant_expressions``).
"""

from __future__ import annotations

import math

import numpy as np

RELEASE = 3  # kinematic while frame < start + delay + RELEASE
HOLD = RELEASE + 1  # the pre-roll path stops at start + delay + HOLD
DELAY = 1  # the delay of a body a joint holds (module docstring)
VARIABLES = {  # driver variable → RNA path on the scene
    "s": "rigidbody_world.point_cache.frame_start",
    "fps": "render.fps",
    "fpsb": "render.fps_base",
    "ts": "rigidbody_world.time_scale",
}


def _zero(delay: int) -> str:
    """The frame the drivers' clock starts at."""
    return f"(s + {delay})" if delay else "s"


def _clock(delay: int) -> str:
    """Simulated seconds on the pre-roll's path: from ``delay`` frames after the cache's start, held at its end."""
    return f"((min(max(frame, {_zero(delay)}), s + {delay + HOLD}) - {_zero(delay)}) * ts * fpsb / fps)"


def _endless(delay: int) -> str:
    """Seconds on a kinematic body's path, unclamped."""
    return f"((max(frame, {_zero(delay)}) - {_zero(delay)}) * ts * fpsb / fps)"


def _window(delay: int) -> str:
    """The condition that holds during the pre-roll (frames ``s`` to ``s + delay + HOLD``)."""
    return f"s <= frame <= s + {delay + HOLD}"


def _windowed(expression: str, delay: int) -> str:
    """Non-zero only during the pre-roll: before the start and after it the body has no delta transform."""
    return f"({expression}) if {_window(delay)} else 0.0"


def kinematic_at(frame: int, start: int, delay: int = 0) -> bool:
    """Is a pre-rolled body kinematic at ``frame`` (cache start ``start``)? What ``release_expression`` gives."""
    return frame < start + delay + RELEASE


def release_expression(delay: int = 0) -> str:
    """The driver expression of ``rigid_body.kinematic`` (variable ``s``): on before ``s + delay + RELEASE``."""
    return f"frame < s + {delay + RELEASE}"


#: The largest magnitude Blender stores in an object's transform and Bullet in a velocity (single precision).
FLOAT32_MAX = 3.4028234663852886e38


def unrepresentable(velocity) -> bool:
    """True when a velocity (its components, already in Blender's world axes) is not a finite single-precision
    vector: ``1e308`` m/s becomes ``inf`` in a ``mathutils.Vector`` and ``nan`` after a rotation, and a pre-roll
    driver with ``nan`` in its expression is one Blender's restricted evaluation rejects. Such a velocity is not
    reproduced (a WARNING names it), never clamped: a clamped speed would be a different motion."""
    return any(not math.isfinite(v) or abs(v) > FLOAT32_MAX for v in velocity)


def _num(v: float) -> str:
    return repr(float(v))


def location_expressions(velocity, gravity, delay: int = 0) -> list[str]:
    """Delta location x, y, z (parent axes) at the driver's time: ``v·t + ½·g·t²``."""
    time, out = _clock(delay), []
    for v, g in zip(velocity, gravity, strict=True):
        terms = []
        if v:
            terms.append(f"{_num(v)} * {time}")
        if g:
            terms.append(f"{_num(0.5 * g)} * {time} * {time}")
        out.append(_windowed(" + ".join(terms), delay) if terms else "0.0")
    return out


def rotation_expressions(angular_velocity, delay: int = 0) -> list[str]:
    """Delta rotation quaternion w, x, y, z (parent axes) of a constant angular velocity (rad/s) at the driver's
    time: the axis ``ω/|ω|``, the angle ``|ω|·t``."""
    speed = math.sqrt(sum(w * w for w in angular_velocity))
    if speed == 0.0:
        return ["1.0", "0.0", "0.0", "0.0"]
    half = f"({_num(0.5 * speed)} * {_clock(delay)})"
    out = [f"(cos{half}) if {_window(delay)} else 1.0"]  # identity outside the pre-roll
    for w in angular_velocity:
        out.append(_windowed(f"{_num(w / speed)} * sin{half}", delay) if w else "0.0")
    return out


def delayed(expression: str) -> str:
    """An undelayed expression of this module (pre-roll or constant velocity) as built with ``DELAY``; other text is
    returned unchanged."""
    for before, after in (
        (_clock(0), _clock(DELAY)),
        (_endless(0), _endless(DELAY)),
        (f"{_window(0)} else", f"{_window(DELAY)} else"),
    ):
        expression = expression.replace(before, after)
    return expression


def is_preroll_driver(data_path: str, expression: str) -> bool:
    """Is this driver one of the pre-roll's (the exporter expects such a body to be kinematic early on)?"""
    return data_path in ("delta_location", "delta_rotation_quaternion") and "fpsb / fps" in expression


def preroll_driven(ob) -> bool:
    """Does ``ob`` (a Blender object, duck-typed) carry the pre-roll drivers?"""
    data = getattr(ob, "animation_data", None)
    drivers = getattr(data, "drivers", None) or ()
    return any(is_preroll_driver(fc.data_path, fc.driver.expression) for fc in drivers)


def constant_expressions(velocity, delay: int = 0) -> list[str]:
    """Delta location of a kinematic (or infinite-mass) body that keeps its initial velocity for ever: ``v·t``."""
    return [f"{_num(v)} * {_endless(delay)}" if v else "0.0" for v in velocity]


def constant_rotation_expressions(angular_velocity, delay: int = 0) -> list[str]:
    """Delta rotation quaternion w, x, y, z of a constant spin, for ever."""
    speed = math.sqrt(sum(w * w for w in angular_velocity))
    if speed == 0.0:
        return ["1.0", "0.0", "0.0", "0.0"]
    half = f"({_num(0.5 * speed)} * {_endless(delay)})"
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
