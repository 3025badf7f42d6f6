"""What a ``convert`` run shows on stderr (bpy-free): a progress bar on a terminal (files done / total, rate, ETA,
current file; problems printed above it), plain per-file lines otherwise; then the summary."""

from __future__ import annotations

import sys
import time
from typing import TextIO

from ..diagnostics import printable
from ..gltf.counts import counts_text
from . import protocol as p

MAX_LISTED = 5  # diagnostics printed per problem file (all of them are in --report)
#: The word of each status on a file's line.
LABELS = {
    p.CONVERTED: "ok",
    p.WARNINGS: "warnings",
    p.LOSSES: "converted with losses",
    p.FAILED: "FAILED",
    p.SKIPPED: "skipped",
}


def duration(seconds: float) -> str:
    seconds = round(seconds)
    return (
        f"{seconds // 3600}:{seconds // 60 % 60:02d}:{seconds % 60:02d}"
        if seconds >= 3600
        else (f"{seconds // 60}:{seconds % 60:02d}")
    )


class Progress:
    def __init__(self, total: int, stream: TextIO | None = None, tty: bool | None = None):
        self.stream = stream or sys.stderr
        self.tty = self.stream.isatty() if tty is None else tty
        self.total, self.done = total, 0
        self.start = time.monotonic()
        self.current = ""
        self.tally = {p.CONVERTED: 0, p.WARNINGS: 0, p.LOSSES: 0, p.FAILED: 0, p.SKIPPED: 0}

    def _write(self, text: str) -> None:
        self.stream.write(text)
        self.stream.flush()

    def _bar(self) -> None:
        elapsed = time.monotonic() - self.start
        rate = self.done / elapsed if elapsed > 0 else 0.0
        eta = duration((self.total - self.done) / rate) if rate > 0 else "?"
        filled = int(20 * self.done / self.total) if self.total else 20
        line = (
            f"[{'#' * filled}{'.' * (20 - filled)}] {self.done}/{self.total} {rate:.2f} files/s ETA {eta} "
            f"{self.current}"
        )
        self._write("\r\x1b[K" + line[:200])

    def started(self, name: str) -> None:
        self.current = printable(name)
        if self.tty:
            self._bar()

    def finished(self, name: str, result: dict) -> None:
        status = result["status"]
        self.done += 1
        self.tally[status] += 1
        label = LABELS[status]
        line = f"[{self.done}/{self.total}] {label} {printable(name)}"
        if status == p.SKIPPED:
            line += f" ({result.get('note', 'output up to date')})"
        elif status != p.FAILED:
            line += f" ({result.get('seconds', 0):.2f} s; {counts_text(result.get('counts', {}))})"
        problems = [d for d in result.get("diagnostics", []) if d["severity"] in ("warning", "error")]
        shown = [
            printable(f"    {d['severity'].upper()} {d['code']} at {d['pointer'] or '/'}: {d['message']}")
            for d in problems
        ]
        if len(shown) > MAX_LISTED:
            shown = [*shown[:MAX_LISTED], f"    … {len(shown) - MAX_LISTED} more in the report"]
        if self.tty:
            if status in (p.FAILED, p.WARNINGS, p.LOSSES):
                self._write("\r\x1b[K" + "\n".join([line, *shown]) + "\n")
            self._bar()
        else:
            self._write("\n".join([line, *shown]) + "\n")

    def summary(self) -> str:
        t = self.tally
        written = t[p.CONVERTED] + t[p.WARNINGS] + t[p.LOSSES]  # each number is a key of the report's summary
        text = (
            f"written {written} ({t[p.CONVERTED]} converted, {t[p.WARNINGS]} with warnings, {t[p.LOSSES]} with "
            f"losses), failed {t[p.FAILED]}, skipped {t[p.SKIPPED]} in {duration(time.monotonic() - self.start)}"
        )
        self._write(("\r\x1b[K" if self.tty else "") + text + "\n")
        return text
