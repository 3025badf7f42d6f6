"""Start-up script of a conversion worker process; not imported by the package.

Run by the driver as ``python -P bootstrap.py PACKAGE_DIR`` (a Python with the ``bpy`` module) or
``blender --background --factory-startup --python bootstrap.py -- PACKAGE_DIR``, with ``BLENDER_USER_RESOURCES``
pointing at a fresh temporary folder. It keeps a private copy of stdout for the protocol and points fd 1 at stderr
(Blender prints to stdout), links PACKAGE_DIR into a local extension repository of that folder, enables it exactly
as a user's install would be (hooks, properties), and hands over to ``worker.serve`` through the root's
``convert_worker``. It leaves with ``os._exit`` (bpy 4.2 may crash at interpreter exit after a glTF export).
"""

import contextlib
import os
import pathlib
import sys
import tomllib

REPO_MODULE = "gltf_physics_convert"
CPUS_VARIABLE = "GLTF_PHYSICS_WORKER_CPUS"  # set by pool.Worker


def _answers():
    stream = os.fdopen(os.dup(1), "w", encoding="utf-8", buffering=1)
    sys.stdout.flush()
    os.dup2(2, 1)
    return stream


def _enable(package_dir: pathlib.Path) -> str:
    # isort: off
    import bpy  # first: addon_utils is on sys.path only once bpy is imported
    import addon_utils

    # isort: on

    pkg_id = tomllib.loads((package_dir / "blender_manifest.toml").read_text(encoding="utf-8"))["id"]
    addon = f"bl_ext.{REPO_MODULE}.{pkg_id}"
    prefs = bpy.context.preferences
    if REPO_MODULE not in {r.module for r in prefs.extensions.repos}:
        repo = pathlib.Path(os.environ["BLENDER_USER_RESOURCES"]) / REPO_MODULE
        repo.mkdir(parents=True, exist_ok=True)
        link = repo / pkg_id
        if not link.exists():
            link.symlink_to(package_dir, target_is_directory=True)
        prefs.extensions.repos.new(
            name="glTF Physics convert", module=REPO_MODULE, custom_directory=str(repo), source="USER"
        )
    if addon not in prefs.addons and addon_utils.enable(addon, default_set=True, handle_error=None) is None:
        raise RuntimeError(f"could not enable {addon} from {package_dir}")
    return addon


def _pin() -> None:
    """The CPUs the driver gave this worker (``pool.worker_cpus``), before bpy starts its task scheduler."""
    cpus = os.environ.get(CPUS_VARIABLE)
    if cpus and hasattr(os, "sched_setaffinity"):
        with contextlib.suppress(OSError, ValueError):
            os.sched_setaffinity(0, {int(c) for c in cpus.split(",")})


def main() -> None:
    _pin()
    args = sys.argv[sys.argv.index("--") + 1 :] if "--" in sys.argv else sys.argv[1:]
    answers = _answers()
    package_dir = pathlib.Path(args[0]).resolve()
    addon = _enable(package_dir)
    code = sys.modules[addon].convert_worker(answers, lambda: _enable(package_dir))
    answers.flush()
    sys.stderr.flush()
    os._exit(code)


if __name__ == "__main__":
    main()
