"""The loop of a conversion worker process (Blender side): read jobs from stdin, answer on the protocol stream.

Started by ``bootstrap`` with the extension enabled. Each job is converted by ``one_file.convert``; an exception
becomes a failed result, never the end of the worker. The worker stops at the end of stdin (the driver closed it,
recycled the worker, or died), so an orphaned worker finishes the files already sent to it (at most
``pool.AHEAD``, each written atomically) and exits.
"""

from __future__ import annotations

import json
import sys
import time
from typing import TextIO

from ..diagnostics import Severity
from . import protocol as p
from .one_file import convert


def serve(answers: TextIO, enable, jobs: TextIO | None = None, handlers: dict | None = None) -> int:
    """Answer every job line of ``jobs`` (stdin) on ``answers``; returns the process exit code (0). A job with a
    ``kind`` listed in ``handlers`` (e.g. ``check``) goes to that function instead of ``convert``."""
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
        except Exception as exc:  # a bad job line or a bug: this file fails, the worker goes on
            result = {
                "status": p.FAILED,
                "counts": {},
                "diagnostics": [p.diag("worker", Severity.ERROR, p.INTERNAL, "", f"{type(exc).__name__}: {exc}")],
            }
        result["seconds"] = round(time.perf_counter() - start, 3)
        answers.write(p.encode(result))
        answers.flush()
    return 0
