"""Collision filters → Blender's 20 collision collections (issue 4 part 4).

Entry point :func:`apply` is called by ``io.blender_import`` after every collider has its rigid body.
"""

from __future__ import annotations


def apply(ctx) -> None:
    """Assign ``rigid_body.collision_collections`` of every collider from the file's collision filters.

    ``ctx`` is the import's ``ImportContext``; approximations are reported through ``ctx.report``, never raised.
    """
