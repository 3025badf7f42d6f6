"""The empty scene a conversion worker starts each glTF input from (Blender side).

``wm.read_homefile(use_factory_startup=True, use_empty=True)`` gives it, enabled extensions kept, but it
reloads the whole startup file for every file: more than importing and exporting a small glTF. Once the
worker has such a home file, the next reset only swaps in a fresh scene and removes every other data-block
(``bpy.data.batch_remove``, far cheaper; docs/perf-history.md). Screens, workspaces and the window manager are
kept: they are the home file's own. After a ``.blend`` input (``open_mainfile`` replaced everything) or without a
window the next reset is a full ``read_homefile`` again.

What differs from ``read_homefile``: only settings a new scene has other defaults for than the startup file's
scene (display shading, Cycles / EEVEE / ffmpeg render options, tool settings); scene units, gravity, frame range
and rate, and the rigid-body world (none) are the same. ``tests/blender/convert/test_scene_reset.py`` checks that
the converted outputs are byte for byte those of a full reset.
"""

from __future__ import annotations

KEPT_TYPES = ("WindowManager", "Screen", "WorkSpace")  # the home file's own user interface: never removed


class SceneReset:
    """``reset(enable)`` before each glTF input; ``opened_blend()`` when a ``.blend`` input replaced the main file.
    ``enable()`` re-enables the extension (a no-op while it is enabled)."""

    def __init__(self):
        self.home = False  # the main file is a home file (plus what imports added), so a wipe is enough

    def opened_blend(self) -> None:
        self.home = False

    def reset(self, enable) -> None:
        import bpy

        if not (self.home and wipe(bpy)):
            bpy.ops.wm.read_homefile(use_factory_startup=True, use_empty=True)  # keeps enabled extensions
            self.home = True
        enable()


def doomed_ids(bpy, keep) -> list:
    """Every data-block of ``bpy.data`` but the kept ones, each once: the window manager, screens, workspaces
    (``KEPT_TYPES``) and ``keep``. The reset is written by what it keeps, not by a list of what it removes: a
    release that adds a collection to ``bpy.data`` (5.2 added ``all_ids``, which also lists the window manager and
    the new scene) changes nothing here. Embedded data-blocks (a scene's master collection, a material's node tree)
    go with their owner."""
    kept_types = tuple(getattr(bpy.types, name) for name in KEPT_TYPES)
    keep_pointers = {item.as_pointer() for item in keep}
    found: dict[int, object] = {}
    for name in dir(bpy.data):
        if name.startswith("_"):
            continue
        collection = getattr(bpy.data, name, None)
        if not isinstance(collection, bpy.types.bpy_prop_collection):
            continue
        for item in collection:
            if not isinstance(item, bpy.types.ID) or isinstance(item, kept_types) or item.is_embedded_data:
                continue
            pointer = item.as_pointer()
            if pointer not in keep_pointers:
                found.setdefault(pointer, item)
    return list(found.values())


def wipe(bpy) -> bool:
    """A fresh scene named "Scene" in the window and no other data-block; False when there is no window (then
    nothing changed). Also the Blender test tier's reset between tests (``tests/blender/blenderkit.empty_scene``)."""
    manager = bpy.context.window_manager
    windows = manager.windows if manager is not None else ()
    if len(windows) != 1:
        return False
    scene = bpy.data.scenes.new("Scene")
    windows[0].scene = scene
    bpy.data.batch_remove(doomed_ids(bpy, [scene]))
    scene.name = "Scene"
    return True
