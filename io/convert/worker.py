"""The loop of a conversion worker process (Blender side): read jobs from stdin, answer on the protocol stream.

Started by ``bootstrap`` with the extension enabled. Each job is converted by ``one_file.convert``; an exception
becomes a failed result, never the end of the worker. The worker stops at the end of stdin (the driver closed it,
recycled the worker, or died), so an orphaned worker finishes the files already sent to it (at most
``pool.AHEAD``, each written atomically) and exits.

After each file the worker checks that its Blender can go on (``blender_health``: a window manager with one
window, a scene, a readable ``bpy.data``). When it cannot, the answer says so (``broken``) and the worker exits:
the driver starts a new worker and converts the file once more there (``pool``), so one file that leaves Blender
broken never fails the files after it.
"""

from __future__ import annotations

import json
import sys
import time
import traceback
from collections.abc import Callable
from typing import TextIO

from ..diagnostics import Severity, internal_failure
from . import protocol as p
from .one_file import convert


def blender_health() -> str | None:
    """Why this process's Blender cannot convert another file, or None when it can. What the next file's scene
    reset needs: the window manager and its one window, the window's scene, ``bpy.data`` readable to the end."""
    import bpy

    try:
        manager = bpy.context.window_manager
        if manager is None or len(manager.windows) != 1:
            return "Blender has no window manager with one window"
        scene = manager.windows[0].scene
        if scene is None or scene.name not in bpy.data.scenes:
            return "the window shows no scene of bpy.data"
        for name in ("objects", "scenes", "collections", "meshes"):
            len(getattr(bpy.data, name))
    except (ReferenceError, AttributeError, RuntimeError) as exc:
        return f"{type(exc).__name__}: {exc}"
    return None


def serve(
    answers: TextIO,
    enable,
    jobs: TextIO | None = None,
    handlers: dict | None = None,
    health: Callable[[], str | None] = blender_health,
) -> int:
    """Answer every job line of ``jobs`` (stdin) on ``answers``; returns the process exit code (0). A job with a
    ``kind`` listed in ``handlers`` (e.g. ``check``) goes to that function instead of ``convert``. When ``health()``
    finds Blender broken after a file, the answer carries ``broken`` (the reason) and the worker stops."""
    jobs = jobs or sys.stdin
    handlers = handlers or {}
    answers.write(p.encode({"ready": True}))
    answers.flush()
    for line in jobs:
        if not line.strip():
            continue
        start = time.perf_counter()
        try:
            job = json.loads(line)
            result = handlers.get(job.get("kind"), convert)(job, enable)
        except Exception:  # a bad job line or a bug: this file fails, the worker goes on
            traceback.print_exc(file=sys.stderr)  # the worker's stderr: the driver quotes it when the worker dies
            why = internal_failure("converting this file")
            result = {
                "status": p.FAILED,
                "counts": {},
                "diagnostics": [p.diag("worker", Severity.ERROR, p.INTERNAL, "", why)],
            }
        result["seconds"] = round(time.perf_counter() - start, 3)
        broken = health()
        if broken is not None:
            result["broken"] = broken
        answers.write(p.encode(result))
        answers.flush()
        if broken is not None:  # a new worker takes the next files
            break
    return 0
