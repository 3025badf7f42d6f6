"""*Check Simulation*: the current scene simulated headless and measured with ``sim/`` (``io/check``, the same code
path as ``bin/gltf-physics check``). The summary goes to the Info editor and the console; the full report stays in
``LAST_CHECK["report"]`` (JSON-ready with ``io.check.evaluate.public``) for scripts and tests."""

from __future__ import annotations

import logging

import bpy
from bpy.props import IntProperty

from ...io.check.evaluate import public
from ...io.check.job import check_scene
from ...io.check.output import problems, summary_lines
from ...io.check.sample import SampleBudgetError
from ...io.diagnostics import printable

LOG = logging.getLogger(__name__)
LAST_CHECK: dict = {}
MAX_REPORTED = 8
REGISTER_ONLY = {"REGISTER"}  # changes nothing: no undo step


class GLTF_PHYSICS_OT_check_simulation(bpy.types.Operator):
    """Simulate the scene's rigid bodies from the start frame and measure them: joint limits, drives, body rest
    heights, trigger events (the scene is returned to its current frame)"""

    bl_idname = "gltf_physics.check_simulation"
    bl_label = "Check Simulation"
    bl_options = REGISTER_ONLY

    frames: IntProperty(name="Frames", default=120, min=1, max=100_000, description="Frames to simulate")

    @classmethod
    def poll(cls, context) -> bool:
        return context.scene is not None and context.scene.rigidbody_world is not None

    def execute(self, context):
        try:
            report = check_scene(context.scene, self.frames)
        except SampleBudgetError as exc:
            self.report({"ERROR"}, str(exc))
            return {"CANCELLED"}
        LAST_CHECK["report"] = public(report)
        lines = summary_lines(report)
        LAST_CHECK["summary"] = lines
        for line in lines:
            LOG.info("%s", line)
        found = problems(report)
        bodies, joints = len(report["bodies"]), len(report["joints"])
        head = f"Checked {bodies} bodies, {joints} joints over {self.frames} frames; {len(found)} problems"
        self.report({"WARNING"} if found else {"INFO"}, head)
        for text in found[:MAX_REPORTED]:
            self.report({"WARNING"}, printable(text))
        return {"FINISHED"}


CLASSES = (GLTF_PHYSICS_OT_check_simulation,)
