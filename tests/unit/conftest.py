"""Pure tier: the package is loaded as ``gltf_physics`` from the checkout, no bpy."""

import sys

import pytest

from testkit import load_package


@pytest.fixture(scope="session")
def package():
    return load_package()


def pytest_configure(config):
    assert "bpy" not in sys.modules, "the pure tier must not import bpy"
