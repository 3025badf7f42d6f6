"""A GENERIC_SPRING constraint's springs are written as Bullet applies them (issue 33 item 1 (a)): SPRING2 is a
spring-damper toward the rest pose, so the exported position drive (stiffness, damping, ``force`` mode), played by
the project's ``sim.drives`` with the file's values, follows the body Blender plays; SPRING1 does not (its damping
means something else), and its export warns."""

from __future__ import annotations

import bpy
import numpy as np
import pytest

from blenderkit import submodule
from export_helpers import export, last_export
from scene_helpers import constraint, rigid_body_world, rigid_box

RB = "KHR_physics_rigid_bodies"
FRAMES, FPS = 72, 24
STIFFNESS, DAMPING, GRAVITY = 40.0, 2.0, 9.81


def _hanging_spring(spring_type: str):
    """A 1 kg box hanging from a passive one on a vertical spring (Z), every other axis locked, started at rest at the
    spring's rest pose: gravity pulls it down, the spring and its damping bring it to rest m·g/k lower."""
    rbw = rigid_body_world(bpy.context.scene)
    anchor = rigid_box(rbw, "Anchor", size=(0.2, 0.2, 0.2), kind="PASSIVE")
    weight = rigid_box(rbw, "Weight", size=(0.2, 0.2, 0.2), location=(0, 0, -1))
    weight.rigid_body.linear_damping = weight.rigid_body.angular_damping = 0.0  # damping is not the subject
    c = constraint(rbw, "Spring", anchor, weight, "GENERIC_SPRING", location=(0, 0, -1))
    c.disable_collisions, c.spring_type = True, spring_type
    for axis in "xyz":
        setattr(c, f"use_limit_ang_{axis}", True)
        setattr(c, f"use_limit_lin_{axis}", axis != "z")
    c.use_spring_z, c.spring_stiffness_z, c.spring_damping_z = True, STIFFNESS, DAMPING
    return rbw, weight


def _played(rbw, weight) -> np.ndarray:
    """The weight's height below its start, frame by frame."""
    rbw.point_cache.frame_end = FRAMES + 1
    heights = []
    for frame in range(1, FRAMES + 1):
        bpy.context.scene.frame_set(frame)
        heights.append(weight.matrix_world.translation.z + 1.0)
    return np.array(heights)


def _drive(gltf: dict) -> dict:
    (holder,) = [n for n in gltf["nodes"] if "joint" in n.get("extensions", {}).get(RB, {})]
    description = gltf["extensions"][RB]["physicsJoints"][holder["extensions"][RB]["joint"]["joint"]]
    (drive,) = description["drives"]
    return drive


@pytest.mark.parametrize("spring_type, follows", [("SPRING2", True), ("SPRING1", False)])
def test_the_written_drive_plays_as_blender_plays_the_spring(clean, tmp_path, spring_type, follows):
    rbw, weight = _hanging_spring(spring_type)
    gltf = export(tmp_path / "spring.gltf", "2026")
    drive = _drive(gltf)
    assert (drive["type"], drive["mode"], drive["stiffness"], drive["damping"]) == (
        "linear",
        "force",
        STIFFNESS,
        DAMPING,
    )
    drives = submodule(clean, "sim.drives")
    times = np.arange(FRAMES) / FPS
    kwargs = drives.drive_kwargs(drive)
    kwargs["position_target"] = -GRAVITY / drive["stiffness"]  # gravity (1 kg) moves the spring's rest point
    expected, _ = drives.exact_step(0.0, 0.0, times, mass=1.0, **{k: v for k, v in kwargs.items() if k != "max_force"})
    played = _played(rbw, weight)
    error = float(np.max(np.abs(played - expected)))
    warned = [d for d in last_export(clean).diagnostics if "SPRING1" in d.message]
    if follows:  # measured: 3 mm over 3 s on bpy 5.3 and 4.5
        assert error < 0.01, error
        assert not warned
    else:
        assert error > 0.1, error
        (warning,) = warned
        assert warning.code == "GLTF_PHYSICS_EXPORT_PLAYS_DIFFERENTLY" and "'Spring'" in warning.message
