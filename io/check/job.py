"""One check inside Blender (bpy): a file imported into an empty scene, or the current scene, simulated and sampled.

* ``check_file(job, enable)`` is the worker job of ``bin/gltf-physics check`` (``{"kind": "check", "input",
  "frames"}``): the file is read by our loader (a malformed file fails with our diagnostic and its JSON pointer)
  and imported exactly as ``convert`` does (``convert.one_file.read_input``), then ``sample.sample_scene`` runs.
  The answer is ``{"status", "diagnostics", "samples"}``; the driver evaluates it (bpy-free).
* ``check_scene(scene, frames)`` is the operator's and scripts' entry: the same sampling and ``evaluate`` on a scene
  built in Blender (no file involved); ``check_path(path, frames, enable)`` the in-process form of ``check_file``.
"""

from __future__ import annotations

import pathlib

from ..convert import protocol as p
from ..convert.one_file import read_input
from ..diagnostics import Severity
from ..hooks import LAST_REPORTS
from .evaluate import finish
from .sample import TOO_LARGE, SampleBudgetError, sample_scene


def check_file(job: dict, enable) -> dict:
    """Import ``job["input"]`` into an empty scene and sample ``job["frames"]`` frames."""
    import bpy

    out: list[dict] = []
    LAST_REPORTS.clear()
    if not read_input(pathlib.Path(job["input"]), out, {}, enable):
        return {"status": p.FAILED, "diagnostics": out, "samples": None}
    report = LAST_REPORTS.get("import")
    if report is not None:
        out += [p.staged("import", d) for d in report.diagnostics]
    try:
        samples = sample_scene(bpy.context.scene, int(job.get("frames", 120)))
    except SampleBudgetError as exc:
        out.append(p.diag("check", Severity.ERROR, TOO_LARGE, "", str(exc)))
        return {"status": p.FAILED, "diagnostics": out, "samples": None}
    return {"status": p.status_of(out), "diagnostics": out, "samples": samples}


def check_path(path: pathlib.Path, frames: int, enable) -> dict:
    """``check_file`` in this process, evaluated: ``{"status", "diagnostics", "report"}``."""
    result = check_file({"input": str(path), "frames": frames}, enable)
    return {**result, "report": finish(result.pop("samples"), result["diagnostics"], str(path))}


def check_scene(scene, frames: int = 120) -> dict:
    """The report of ``scene`` as it is (no import); the scene's current frame is kept."""
    return finish(sample_scene(scene, frames), [], scene.name)
