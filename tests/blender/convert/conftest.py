"""Fixtures of the conversion tests that run in this process."""

from __future__ import annotations

import pytest

from blenderkit import submodule


@pytest.fixture
def one_file(addon):
    """``io.convert.one_file``, its scene reset starting (and left) with a full home file."""
    module = submodule(addon, "io.convert.one_file")
    module.RESET.opened_blend()  # the next reset is a full home file
    yield module
    module.RESET.opened_blend()
