"""``blender --background --command gltf_physics convert …``: the Blender door of the driver (Blender side).

``register()`` (called by the root ``register``) adds the command with ``bpy.utils.register_cli_command``
(Blender 4.2+); ``unregister()`` removes it. ``execute`` runs the same ``driver.main`` as ``bin/gltf-physics``;
its workers are this Blender executable started in background mode (``bpy.app.binary_path``), or this Python
when running as the ``bpy`` module (which has no executable and cannot run registered commands itself).
"""

from __future__ import annotations

import sys

from . import driver

COMMAND = "gltf_physics"
_HANDLE: list = []


def worker_program() -> tuple[str | None, str]:
    """(Blender executable or None, Python executable) for the workers of this process."""
    import bpy

    return (bpy.app.binary_path or None), sys.executable


def execute(argv: list[str]) -> int:
    """The registered command: ``argv`` are the arguments after ``--command gltf_physics``."""
    blender, python = worker_program()
    return driver.main(argv, prog="blender --command gltf_physics", blender=blender, python=python)


def register() -> None:
    import bpy

    if not _HANDLE and hasattr(bpy.utils, "register_cli_command"):
        _HANDLE.append(bpy.utils.register_cli_command(COMMAND, execute))


def unregister() -> None:
    import bpy

    while _HANDLE:
        bpy.utils.unregister_cli_command(_HANDLE.pop())


def is_registered() -> bool:
    return bool(_HANDLE)
