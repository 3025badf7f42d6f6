"""Writers: ``write_target(document, to, gltf)`` serialises a ``PhysicsDocument`` as one of ``TARGETS`` (KHR 2026,
2024-10, 2024-07 in ``khr``; current OMI in ``omi``; shared node/list helpers in ``common``).
"""

from __future__ import annotations

from ..extensions import KHR_TARGETS, TARGETS
from .common import WriteOutput, guard_numbers
from .khr import write_khr
from .omi import write_omi

__all__ = ["KHR_TARGETS", "TARGETS", "WriteOutput", "write_khr", "write_omi", "write_target"]


def write_target(document, to: str, gltf: dict | None) -> WriteOutput:
    """Dispatch to the writer of target ``to`` (one of ``TARGETS``); no output holds a number a 32-bit float cannot."""
    if to == "omi":
        return guard_numbers(write_omi(document, gltf))
    if to in KHR_TARGETS:
        return guard_numbers(write_khr(document, to, gltf))
    raise ValueError(f"unknown target {to!r}; expected one of {TARGETS}")
