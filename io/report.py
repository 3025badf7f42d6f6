"""One report for import and export runs: what a run did, its diagnostics, the steps' warn / note / guarded helpers
and the summary lines shown by the glTF operators. bpy-free (imports ``diagnostics`` only)."""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .diagnostics import Diagnostic, Severity, internal_failure, printable

log = logging.getLogger(__name__)

MAX_REPORTED = 8  # warnings listed one by one in the operator's report; the rest are counted


@dataclass
class RunReport:
    """What one import or export run did; the last one of each kind is kept for scripts and tests."""

    kind: str
    diagnostics: list[Diagnostic] = field(default_factory=list)
    hooks_called: list[str] = field(default_factory=list)
    counts: dict[str, int] = field(default_factory=dict)

    def add(self, severity: Severity, code: str, pointer: str, message: str) -> None:
        diag = Diagnostic(severity, code, pointer, message)
        self.diagnostics.append(diag)
        level = logging.ERROR if severity >= Severity.ERROR else logging.WARNING if severity == Severity.WARNING else 0
        log.log(level or logging.INFO, "%s", diag)

    def count(self, key: str, amount: int = 1) -> None:
        self.counts[key] = self.counts.get(key, 0) + amount

    def worst(self) -> Severity | None:
        return max((d.severity for d in self.diagnostics), default=None)


class Reporting:
    """Mixin of a run's step context (``ImportContext``, export ``Builder``): the class sets ``FAILED`` (the code of
    a step that raised) and the instance has ``report``."""

    report: Any
    FAILED: str

    def warn(self, code: str, ptr: str, message: str) -> None:
        self.report.add(Severity.WARNING, code, ptr, message)

    def note(self, code: str, ptr: str, message: str) -> None:
        self.report.add(Severity.INFO, code, ptr, message)

    def guarded(self, ptr: str | Callable[[], str], what: str, func: Callable, *args) -> Any:
        """Run one step/object; an exception becomes a WARNING at ``ptr`` (code ``FAILED``: one sentence, the
        exception and its traceback go to the console) and None is returned, so one bad object never aborts the
        run. ``ptr`` may be a function giving it (called only on failure)."""
        try:
            return func(*args)
        except Exception:
            self.failed(ptr() if callable(ptr) else ptr, what)
            return None

    def failed(self, where: str, what: str) -> None:
        """Report the exception being handled as ``guarded`` does (for a caller that caught it itself)."""
        log.exception("glTF Physics: %s failed at %s", what, where or "/")
        self.warn(self.FAILED, where, internal_failure(what))


def operator_lines(report: RunReport, headline: str, shown: bool) -> list[tuple[str, str]]:
    """("INFO"|"WARNING", text) lines for an operator: ``headline`` with the error, warning and note counts (each
    diagnostic at its code's one severity), then the first errors and warnings (every line through
    ``diagnostics.printable``, via ``Diagnostic.__str__``). Reported at WARNING, never ERROR: the glTF itself
    imported or exported. Empty unless ``shown`` (the run built something) or there are diagnostics."""
    if not report.diagnostics and not shown:
        return []
    warnings = [d for d in report.diagnostics if d.severity >= Severity.WARNING]
    errors = sum(d.severity >= Severity.ERROR for d in warnings)
    notes = len(report.diagnostics) - len(warnings)
    counted = f"{errors} errors, {len(warnings) - errors} warnings, {notes} notes"
    text = printable(f"{headline}; {counted} (details in the console)")
    lines = [("WARNING" if warnings else "INFO", text)]
    lines += [("WARNING", f"glTF Physics: {d}") for d in warnings[:MAX_REPORTED]]
    if len(warnings) > MAX_REPORTED:
        lines.append(("WARNING", f"glTF Physics: {len(warnings) - MAX_REPORTED} more warnings in the console"))
    return lines
