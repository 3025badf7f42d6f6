"""Option values of ``convert`` and ``check``, validated when the command line is parsed (bpy-free).

Each function is an ``argparse`` ``type=``: a value that is not finite, not positive or above its cap is a usage
error (exit code 2) naming the option's rule, before any worker starts. Unchecked, ``--timeout inf`` or ``1e10``
killed the pool's thread with an ``OverflowError`` and left the driver waiting forever, and ``-1`` timed every file
out at once.
"""

from __future__ import annotations

import argparse
import math
import os

#: The longest ``--timeout`` (one day): far above any file's conversion, far below what ``queue.get`` accepts.
MAX_TIMEOUT_SECONDS = 86_400.0


def positive_int(text: str) -> int:
    """An integer ≥ 1."""
    try:
        value = int(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(f"{text!r} is not an integer") from exc
    if value < 1:
        raise argparse.ArgumentTypeError("must be at least 1")
    return value


def timeout_seconds(text: str) -> float:
    """Seconds, finite, > 0 and at most ``MAX_TIMEOUT_SECONDS``."""
    try:
        value = float(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from exc
    if not math.isfinite(value) or not 0 < value <= MAX_TIMEOUT_SECONDS:
        raise argparse.ArgumentTypeError(f"must be a number of seconds above 0 and at most {MAX_TIMEOUT_SECONDS:g}")
    return value


def usable_cores() -> int:
    """The cores this process may run on (its affinity where the system tells it, else the CPU count)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


def capped_jobs(requested: int) -> tuple[int, str | None]:
    """``--jobs`` capped at the usable cores, and the warning to print when it was: every worker is a whole
    Blender, and workers beyond the cores only share the same cores, so they add memory and make the run slower."""
    cores = usable_cores()
    if requested <= cores:
        return requested, None
    return cores, f"warning: --jobs {requested} capped at {cores}, the cores this machine lets this run use"
