"""The input walk of ``convert`` (bpy-free): regular files only, without recursion.

* Iterative (an explicit stack, not ``os.walk``, which recurses on Python 3.11): a tree 1,100 levels deep is walked,
  never a ``RecursionError``.
* Hidden entries (``.name``) and the output folder are skipped; sub-folders are entered in sorted order and never
  through a symlink that loops back into the walk (each folder is visited once, by its resolved path).
* A name with a convertible suffix is kept only when it is a regular file (symlinks followed); a FIFO, a device
  (a symlink to ``/dev/zero`` named ``x.gltf``) or a folder named like one is skipped with a reason, so it is never
  opened: a FIFO would block its worker until ``--timeout``, ``/dev/zero`` would be read until memory runs out.
"""

from __future__ import annotations

import os
import pathlib
import stat


def walk_regular(
    folder: pathlib.Path, skip: pathlib.Path | None, suffixes: tuple[str, ...]
) -> tuple[list[pathlib.Path], list[str]]:
    """(files under ``folder`` named ``*<suffix>``, sorted per folder, depth first; why each other such name was
    skipped). ``skip`` (a resolved folder, e.g. OUT; None for none) is never entered."""
    found: list[pathlib.Path] = []
    skipped: list[str] = []
    seen: set[pathlib.Path] = set()
    stack = [folder]
    while stack:
        here = stack.pop()
        try:
            real = here.resolve()
            if real in seen or real == skip:
                continue
            seen.add(real)
            entries = sorted(os.scandir(here), key=lambda entry: entry.name)
        except OSError as exc:
            skipped.append(f"{here}: folder not read ({exc.strerror or exc})")
            continue
        folders = []
        for entry in entries:
            if entry.name.startswith("."):
                continue
            try:
                mode = entry.stat(follow_symlinks=True).st_mode
            except OSError as exc:  # a dangling symlink, a permission problem
                if entry.name.lower().endswith(suffixes):
                    skipped.append(f"{entry.path}: not read ({exc.strerror or exc})")
                continue
            if stat.S_ISDIR(mode):
                folders.append(pathlib.Path(entry.path))
            elif entry.name.lower().endswith(suffixes):
                if stat.S_ISREG(mode):
                    found.append(pathlib.Path(entry.path))
                else:
                    skipped.append(f"{entry.path}: not a regular file (a FIFO or a device is never opened)")
        stack += reversed(folders)  # popped in sorted order
    return found, skipped
