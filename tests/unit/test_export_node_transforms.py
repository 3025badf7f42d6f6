"""io.exporter.context.set_trs: the nodes the extension writes itself (joint nodes back at frame A, nested bodies back
under their file parent) are written as io_scene_gltf2 writes every node: values within 2·10⁻⁶ of the identity's
parts made exact, identity parts left out."""

from __future__ import annotations

import math

from testkit import submodule

context = submodule("io.exporter.context")


class _Node:
    translation = rotation = scale = matrix = "unset"


def _written(trs: tuple) -> _Node:
    node = _Node()
    context.set_trs(node, trs)
    return node


def test_float32_noise_beside_an_exact_zero_is_made_exact():
    # A collider helper under a body turned 180° about X: inverse(parent) · world of two 32-bit matrices.
    half = math.sqrt(0.5)
    node = _written(((0.0, -1.0, -1.0587911840678754e-22), (-1.0, 0.0, 1.2e-7, 4.371138828673793e-08), (1.0, 1.0, 1.0)))
    assert node.translation == [0.0, -1.0, 0.0]
    assert node.rotation == [-1.0, 0.0, 0.0, 4.371138828673793e-08]  # w is rounded towards 1 only
    assert node.scale is None and node.matrix is None
    node = _written(((0.0, 0.0, 0.0), (half, 0.0, 0.0, half), (1.0000005, 2.0, 0.9999991)))
    assert node.translation is None
    assert node.rotation == [half, 0.0, 0.0, half]
    assert node.scale == [1.0, 2.0, 1.0]


def test_values_farther_than_the_tolerance_are_kept_as_computed():
    node = _written(((3e-6, 0.0, -5.0), (0.0, 0.0, 0.0, 1.0), (1.0, 1.0, 1.0 + 3e-6)))
    assert node.translation == [3e-6, 0.0, -5.0]
    assert node.rotation is None
    assert node.scale == [1.0, 1.0, 1.0 + 3e-6]


def test_a_near_identity_rotation_is_left_out():
    node = _written(((1.0, 2.0, 3.0), (1e-7, -1e-7, 0.0, 0.9999999), (1.0, 1.0, 1.0)))
    assert node.translation == [1.0, 2.0, 3.0]
    assert node.rotation is None and node.scale is None
