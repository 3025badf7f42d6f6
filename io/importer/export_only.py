"""Imports whose scene is only exported again (``convert`` to a glTF file): what only Blender itself uses is left out.

Inside ``exporting_only()`` the import does not build the collision collections Blender simulates the file's
filters with (``filters``), the panel rows of the filter lists (``stored.store_filter``, rebuilt from their text
when a panel draws), the motor constraints of joint drives (``joints``: the joint keeps its stored drives), the check
whether a convex-hull collider is exactly a box (``geometry``: the export writes the file's hull either way) or the
rings of round proxy meshes (a sphere's, capsule's or cylinder's proxy keeps only its two bounding corners: Blender
derives the primitive from the bounds). The export reads none of them: the file it
writes is the same (``tests/blender/convert/test_convert_export_only.py``). ``.blend`` outputs and ``check`` import
everything.
"""

from __future__ import annotations

from ..mapping.sync_gate import Depth

_INSIDE = Depth()  # imports run on Blender's main thread


def exporting_only():
    """Imports inside this block (a context manager) are only exported again."""
    return _INSIDE.inside()


def active() -> bool:
    return _INSIDE.value > 0
