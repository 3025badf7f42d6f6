"""Imports whose scene is only exported again (``convert`` to a glTF file): what only Blender itself uses is left out.

Inside ``exporting_only()`` the import builds no shape for a collider or trigger with an implicit shape on a node's own
object, nor the small box of a body without colliders (no proxy mesh, no own-mesh check, no volume or mass:
``bodies._stored_only``; the body keeps a rigid body with its type and Animated flag, which joints connect and an
export's animation sampling simulates), no collision collections for the file's filters (``filters``), no panel rows of
the filter lists (``stored.store_filter``, rebuilt from their text when a panel draws), no motor constraints of joint
drives (``joints``: the joint keeps its stored drives) and does not check whether a convex-hull collider is exactly a
box (``geometry``). An export inside the same block trusts the stored values: nothing was edited in between
(``ExportSession.trusted``: no comparison with Blender's settings, no look for the object realising a shape). The file
it writes is the same as after a full import and an ordinary export
(``tests/blender/convert/test_convert_export_only.py``). ``.blend`` outputs and ``check`` import everything; an
export-only import exported outside the block is read as edited.
"""

from __future__ import annotations

from ..mapping.sync_gate import Depth

_INSIDE = Depth()  # imports run on Blender's main thread


def exporting_only():
    """Imports inside this block (a context manager) are only exported again."""
    return _INSIDE.inside()


def active() -> bool:
    return _INSIDE.value > 0
