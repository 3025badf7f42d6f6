"""Joints → Blender rigid-body constraints (issue 4 part 6).

Entry point :func:`build` is called by ``io.blender_import`` after bodies and colliders exist.
"""

from __future__ import annotations


def build(ctx) -> None:
    """Create one constraint Empty per joint of ``ctx.document`` (data API, no ``bpy.ops``).

    ``ctx`` is the import's ``ImportContext``; problems are reported through ``ctx.report``, never raised.
    """
