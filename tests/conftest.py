"""Shared by both tiers. Its folder (tests/) goes on sys.path so that ``import testkit`` works."""

import os

import khronos
import pytest

from testkit import CORPUS, SCHEMAS

_KHRONOS: dict = {}

try:  # the property tests of the pure tier
    from hypothesis import settings as hypothesis_settings
except ImportError:  # a tier without Hypothesis has no property tests
    hypothesis_settings = None
else:
    # ``make test`` runs the same examples every time: a red run can be repeated, never a coin toss (a property that
    # fails is pinned with ``@example`` once found). HYPOTHESIS_PROFILE=explore searches new examples on each run.
    hypothesis_settings.register_profile("repeatable", derandomize=True)
    hypothesis_settings.register_profile("explore", derandomize=False)
    hypothesis_settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "repeatable"))


def pytest_runtest_setup(item):
    """Tests marked ``corpus`` / ``schemas`` skip cleanly when ../shared (or that part of it) is absent."""
    if item.get_closest_marker("corpus") and not CORPUS.is_dir():
        pytest.skip("../shared/corpus not found")
    if item.get_closest_marker("schemas") and not SCHEMAS.is_dir():
        pytest.skip("../shared/schemas not found")


def pytest_sessionfinish(session, exitstatus):
    """Every file registered with ``khronos.check`` goes through the Khronos glTF-Validator: 0 errors, or the run
    fails (the lines are printed in the terminal summary)."""
    try:
        lines, failed = khronos.finish()
    except Exception as exc:  # a broken validator install must fail the run visibly, not hide the check
        lines, failed = [f"Khronos glTF-Validator could not run: {type(exc).__name__}: {exc}"], True
    _KHRONOS["lines"] = lines
    if failed and session.exitstatus == pytest.ExitCode.OK:
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


def pytest_terminal_summary(terminalreporter):
    for line in _KHRONOS.get("lines", []):
        terminalreporter.write_line(line)
