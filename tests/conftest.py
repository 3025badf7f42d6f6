"""Shared by both tiers. Its folder (tests/) goes on sys.path so that ``import testkit`` works."""

import pytest

from testkit import CORPUS, SCHEMAS


def pytest_runtest_setup(item):
    """Tests marked ``corpus`` / ``schemas`` skip cleanly when ../shared (or that part of it) is absent."""
    if item.get_closest_marker("corpus") and not CORPUS.is_dir():
        pytest.skip("../shared/corpus not found")
    if item.get_closest_marker("schemas") and not SCHEMAS.is_dir():
        pytest.skip("../shared/schemas not found")
