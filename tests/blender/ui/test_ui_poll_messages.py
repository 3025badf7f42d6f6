"""Operators that cannot run say why (issue 34, item 7): from a script, *Adopt Physics Settings* and *Remove
Reproduction Helpers* fail with their own sentence (``poll_message_set``), not Blender's "context is incorrect"."""

from __future__ import annotations

import bpy
import pytest


@pytest.mark.parametrize(
    ("operator", "said"),
    [
        ("adopt_settings", "nothing to adopt"),
        ("remove_reproduction_helpers", "no reproduction helpers"),
    ],
)
def test_an_operator_that_cannot_run_says_why(clean, operator, said):
    with pytest.raises(RuntimeError) as failed:
        getattr(bpy.ops.gltf_physics, operator)()
    text = str(failed.value)
    assert said in text and "context is incorrect" not in text, text
