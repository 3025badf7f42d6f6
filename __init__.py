"""glTF Physics: KHR/OMI physics extensions for Blender's glTF importer and exporter.

The root stays free of side effects and of ``bpy`` at import time: io_scene_gltf2 finds the hook classes through
``hasattr`` on this module, and the PEP 562 ``__getattr__`` below imports them only when asked.
"""

from __future__ import annotations

import pathlib
import tomllib

_HOOKS = {
    "glTF2ExportUserExtension": "GltfPhysicsExport",
    "glTF2ImportUserExtension": "GltfPhysicsImport",
}


def _manifest_version() -> str:
    """The version lives in one place: ``blender_manifest.toml`` (shipped inside the zip)."""
    path = pathlib.Path(__file__).with_name("blender_manifest.toml")
    with path.open("rb") as handle:
        return tomllib.load(handle)["version"]


__version__ = _manifest_version()


def __getattr__(name: str):
    if name in _HOOKS:
        from .io import hooks

        return getattr(hooks, _HOOKS[name])
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def draw_import(context, layout) -> None:
    """Options panel in File > Import > glTF 2.0 (auto-discovered by io_scene_gltf2)."""
    from .ui.scene import gltf_dialogs

    gltf_dialogs.draw_import(context, layout)


def draw_export(context, layout) -> None:
    """Options panel in File > Export > glTF 2.0 (registered explicitly on 4.5+)."""
    from .ui.scene import gltf_dialogs

    gltf_dialogs.draw_export(context, layout)


def convert_worker(answers, enable) -> int:
    """Entry of a worker process of ``convert`` and ``check`` (``io/convert/bootstrap.py``, extension enabled)."""
    from .io.check import job
    from .io.convert import worker

    return worker.serve(answers, enable, handlers={"check": job.check_file})


def register() -> None:
    from . import ui
    from .io import gltf_addon
    from .io.convert import command

    ui.register()
    gltf_addon.register_export_draw(__package__, draw_export)
    command.register()  # blender --command gltf_physics convert …


def unregister() -> None:
    from . import ui
    from .io import gltf_addon
    from .io.convert import command

    command.unregister()
    gltf_addon.register_export_draw(__package__, None)

    ui.unregister()
