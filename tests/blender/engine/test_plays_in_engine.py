"""What Blender plays is what the file says (issue 33, "Done when"): native scenes play in an independent engine as
in Blender, or their export warns.

Each scene (``engine_scenes.py``) is built with Blender's own rigid-body tools only, played in Blender (the
rigid-body world stepped frame by frame, ``matrix_world`` read), exported with the extension's defaults, and played
in Babylon.js + Havok by the project's own loader (``tests/engine``, ``enginekit``). Every compared body must end
within 0.1 m and 10° of Blender's end state (its rest height only for bodies that may roll), or both must fall
through the ground — unless the export's report carries a WARNING that names the setting and the objects: then the
user was told that the file cannot play as Blender does.
"""

from __future__ import annotations

import bpy
import enginekit
import pytest
from engine_scenes import SCENES, Scene

from blenderkit import submodule
from export_helpers import export, last_export

TOLERANCE_M = 0.1
TOLERANCE_DEG = 10.0
FELL = -2.0  # a body whose end height (glTF Y) is below this fell through the ground (whose top is at 0)

_MISSING = enginekit.available()
if _MISSING:
    pytest.skip(_MISSING, allow_module_level=True)


def _blender_states(scene_spec: Scene) -> dict[str, tuple]:
    """Play the rigid-body world frame by frame; each body's start and end (position, rotation) in glTF axes."""
    scene = bpy.context.scene
    scene.frame_end = scene.rigidbody_world.point_cache.frame_end = scene_spec.frames
    scene.frame_set(1)
    start = {n: bpy.data.objects[n].matrix_world.decompose() for n in scene_spec.bodies}
    for frame in range(2, scene_spec.frames + 1):
        scene.frame_set(frame)
    end = {n: bpy.data.objects[n].matrix_world.decompose() for n in scene_spec.bodies}
    scene.frame_set(1)
    return {
        n: (
            enginekit.blender_to_gltf_position(start[n][0]),
            enginekit.blender_to_gltf_rotation(start[n][1]),
            enginekit.blender_to_gltf_position(end[n][0]),
            enginekit.blender_to_gltf_rotation(end[n][1]),
        )
        for n in scene_spec.bodies
    }


def mismatches(scene_spec: Scene, blender: dict, engine: enginekit.Run) -> list[str]:
    """Bodies whose end states differ beyond the tolerances (empty: the scene plays the same)."""
    nodes = engine.by_name()
    problems = []
    for name in scene_spec.bodies:
        b_start, b_start_rot, b_end, b_end_rot = blender[name]
        node = nodes.get(name)
        if node is None:
            problems.append(f"{name}: no node of that name in the file")
            continue
        if b_end[1] < FELL and node.position[1] < FELL:
            continue  # both fall through
        if name in scene_spec.height_only:
            gap = abs(b_end[1] - node.position[1])
            if gap > TOLERANCE_M:
                problems.append(f"{name}: rests at {b_end[1]:.3f} m in Blender, {node.position[1]:.3f} m in the engine")
            continue
        gap = enginekit.distance(b_end, node.position)
        turn = enginekit.angle_between(
            enginekit.turned(b_start_rot, b_end_rot), enginekit.turned(node.start_rotation, node.rotation)
        )
        if gap > TOLERANCE_M or turn > TOLERANCE_DEG:
            problems.append(
                f"{name}: ends at {_fmt(b_end)} in Blender, {_fmt(node.position)} in the engine "
                f"({gap:.3f} m apart, turns {turn:.1f}° apart)"
            )
    return problems


def _fmt(v) -> str:
    return "(" + ", ".join(f"{c:.3f}" for c in v) + ")"


def warning_for(report, scene_spec: Scene) -> list[str]:
    """The export's WARNING messages that name the scene's setting and every object it must name."""
    if report is None or not scene_spec.setting:
        return []
    found = []
    for diagnostic in report.diagnostics:
        if diagnostic.severity.name != "WARNING":
            continue
        text = f"{diagnostic.message} {diagnostic.pointer}".lower()
        if any(word.lower() in text for word in scene_spec.setting) and all(
            name.lower() in text for name in scene_spec.named
        ):
            found.append(diagnostic.message)
    return found


@pytest.mark.parametrize("name", list(SCENES))
def test_native_scene_plays_in_engine_as_in_blender_or_export_warns(clean, tmp_path, name):
    spec = SCENES[name]()
    blender = _blender_states(spec)
    path = tmp_path / f"{name}.gltf"
    export(path, "2026", **spec.export)
    report = last_export(clean)
    fps = bpy.context.scene.render.fps / bpy.context.scene.render.fps_base
    run = enginekit.play(path, seconds=(spec.frames - 1) / fps, hz=60)
    problems = mismatches(spec, blender, run)
    if not problems:
        return
    warned = warning_for(report, spec)
    assert warned, (
        f"{name} plays differently in the engine and its export names neither the setting "
        f"({' / '.join(spec.setting) or 'none expected'}) nor the objects {list(spec.named)} in a WARNING:\n  "
        + "\n  ".join(problems)
        + ("\n  loader notes: " + "; ".join(run.notes) if run.notes else "")
        + "\n  export diagnostics: "
        + "; ".join(f"{d.severity.name} {d.message}" for d in (report.diagnostics if report else []))
    )


def test_only_a_warning_naming_the_setting_and_every_object_excuses_a_mismatch(addon):
    report_module = submodule(addon, "io.report")
    severity = submodule(addon, "io.diagnostics").Severity
    spec = Scene(("Held",), setting=("dynamic",), named=("Held", "Other"))
    report = report_module.RunReport("export")
    report.add(severity.INFO, "X", "/nodes/0", "Dynamic off: 'Held', 'Other'")  # INFO: the motion changes unsaid
    report.add(severity.WARNING, "X", "/nodes/0", "Dynamic off: 'Held'")  # one object unnamed
    report.add(severity.WARNING, "X", "/nodes/0", "a custom margin: 'Held', 'Other'")  # another setting
    assert warning_for(report, spec) == []
    report.add(severity.WARNING, "X", "/nodes/0", "Dynamic off plays as a moving body: 'Held', 'Other'")
    assert warning_for(report, spec) == ["Dynamic off plays as a moving body: 'Held', 'Other'"]
    assert warning_for(None, spec) == []
