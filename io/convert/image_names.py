"""Image names that are paths, made file names before a ``.gltf`` export (bpy).

io_scene_gltf2 4.5 and 5.0 write a ``.gltf``'s image files at ``<output folder>/<image name>.<ext>`` without
cleaning the name (4.2 did), so an image named ``../../x`` or ``/abs/x`` by a hostile file would be written outside
the output folder. ``convert`` renames such images in its throwaway scene first: every ``/``, ``\\`` and ``:``
becomes ``_``.
"""

from __future__ import annotations

import re

_PATH_PARTS = re.compile(r"[\\/:]")


def file_name(name: str) -> str:
    """``name`` with the characters that make it a path (``/``, ``\\``, ``:``) replaced by ``_``."""
    return _PATH_PARTS.sub("_", name)


def rename_path_like(images) -> list[tuple[str, str]]:
    """Rename every image of ``images`` (``bpy.data.images``) whose name is a path; (old, new name) of each."""
    renamed = []
    for image in list(images):
        old = image.name
        if _PATH_PARTS.search(old):
            image.name = file_name(old)
            renamed.append((old, image.name))
    return renamed
