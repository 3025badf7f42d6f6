"""The one definition of what a summary counts: **bodies, colliders, joints, triggers** of a physics document.

A body is a glTF node with a ``motion``, a collider a node with a ``collider`` (a static collider is a collider,
not a body), a joint a node with a ``joint``, a trigger a node with a ``trigger`` (simple or compound). The export
counts the document it wrote, ``convert`` the output's (the input's for a ``.blend`` output), the import the ones
of the document it read that it built in Blender (``importer.pipeline.built_counts``: one it could not build has
its own WARNING); the import and export summaries, ``convert``'s lines and its report's ``counts`` use these
definitions, so a file that loses nothing gives the same numbers everywhere.
"""

from __future__ import annotations

from typing import Any

COUNT_KEYS = ("bodies", "colliders", "joints", "triggers")
_SINGULAR = {"bodies": "body", "colliders": "collider", "joints": "joint", "triggers": "trigger"}


def physics_counts(document: Any) -> dict[str, int]:
    """``COUNT_KEYS`` → how many nodes of ``document`` (a ``PhysicsDocument``) carry each."""
    nodes = list(document.nodes.values())
    return {
        "bodies": sum(n.motion is not None for n in nodes),
        "colliders": sum(n.collider is not None for n in nodes),
        "joints": sum(n.joint is not None for n in nodes),
        "triggers": sum(n.trigger is not None for n in nodes),
    }


def counts_text(counts: dict) -> str:
    """``1 body, 2 colliders, 0 joints, 0 triggers`` (missing keys count 0)."""
    parts = []
    for key in COUNT_KEYS:
        number = int(counts.get(key, 0))
        parts.append(f"{number} {_SINGULAR[key] if number == 1 else key}")
    return ", ".join(parts)
