"""``io.report`` (bpy-free) is the chokepoint of Blender's operator reports and the log (issue 11, items 5 and 9):
every line it hands over is one visible UTF-8 line, whatever the file's strings hold."""

from __future__ import annotations

import logging

from testkit import submodule

report = submodule("io.report")
diagnostics = submodule("io.diagnostics")

HOSTILE = "a\ud800\nERROR forged\x1b[31m"


def test_operator_lines_are_printable_single_lines():
    run = report.RunReport("import")
    run.add(diagnostics.Severity.WARNING, "CODE", "/nodes/0/" + HOSTILE, "value " + HOSTILE)
    lines = report.operator_lines(run, "glTF Physics: " + HOSTILE, shown=True)
    assert len(lines) == 2
    for _level, text in lines:
        text.encode("utf-8")  # a lone surrogate would raise here (and in Blender's report())
        assert "\n" not in text and "\x1b" not in text
    assert "\\ud800\\nERROR forged\\x1b[31m" in lines[1][1]
    assert run.diagnostics[0].pointer == "/nodes/0/" + HOSTILE  # the data keeps the original


def test_logged_diagnostics_are_printable(caplog):
    run = report.RunReport("import")
    with caplog.at_level(logging.INFO):
        run.add(diagnostics.Severity.ERROR, "CODE", "", HOSTILE)
    message = caplog.records[-1].getMessage()
    message.encode("utf-8")
    assert "\n" not in message and "\\ud800" in message
