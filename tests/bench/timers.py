"""Timing wrappers shared by the benchmarks (not a test): a function or method replaced by one that adds the time of
each call to a total."""

from __future__ import annotations

import time
from collections.abc import Callable


def add_timer(
    owner,
    name: str,
    totals: dict[str, float],
    key: str,
    clock: Callable[[], float] = time.process_time,
    runner: Callable[[], object] | None = None,
) -> None:
    """Replace ``owner.name`` (a module function or a class's method) by a wrapper adding each call's ``clock()`` time
    to ``totals[key]``. ``runner()``, when it returns a ``cProfile.Profile``, runs the call under it."""
    original = getattr(owner, name)

    def timed(*args, **kwargs):
        start = clock()
        try:
            profile = runner() if runner is not None else None
            if profile is not None:
                return profile.runcall(original, *args, **kwargs)
            return original(*args, **kwargs)
        finally:
            totals[key] = totals.get(key, 0.0) + clock() - start

    timed.__name__ = name
    setattr(owner, name, timed)
