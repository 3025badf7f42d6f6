"""Build, validate and install the extension the way users do, with Blender's own extension CLI.

``blender_ext.py`` ships inside the ``bpy`` wheel and is stdlib-only: it runs under plain Python. Used by the
Blender test tier, ``make build`` and ``make demo``. Never puts the repository root on ``sys.path``.
"""

from __future__ import annotations

import importlib.util
import os
import pathlib
import subprocess
import sys
import tomllib

ROOT = pathlib.Path(__file__).resolve().parent.parent
MANIFEST = tomllib.loads((ROOT / "blender_manifest.toml").read_text(encoding="utf-8"))
PKG_ID = MANIFEST["id"]
VERSION = MANIFEST["version"]
REPO_MODULE = "user_default"
ADDON = f"bl_ext.{REPO_MODULE}.{PKG_ID}"


def scripts_dir() -> pathlib.Path:
    """``<site-packages>/bpy/<X.Y>/scripts`` of the installed bpy wheel (found without importing bpy)."""
    spec = importlib.util.find_spec("bpy")
    if spec is None or spec.origin is None:
        raise RuntimeError("the bpy wheel is not installed in this Python")
    return next(pathlib.Path(spec.origin).parent.glob("[0-9]*.[0-9]*")) / "scripts"


def _ext_cli(*args: str) -> subprocess.CompletedProcess:
    scripts = scripts_dir()
    cli = scripts / "addons_core" / "bl_pkg" / "cli" / "blender_ext.py"
    tags = scripts / "modules" / "_bpy_internal" / "extensions" / "tags.py"
    return subprocess.run(
        [sys.executable, str(cli), args[0], "--valid-tags", str(tags), *args[1:]],
        capture_output=True,
        text=True,
        check=False,
    )


def validate(path: pathlib.Path = ROOT) -> subprocess.CompletedProcess:
    """``blender_ext.py validate`` on the source tree or a built zip."""
    return _ext_cli("validate", str(path))


def build(out_dir: pathlib.Path) -> pathlib.Path:
    """Build ``gltf_physics-<version>.zip`` into ``out_dir`` and return its path."""
    out_dir.mkdir(parents=True, exist_ok=True)
    zip_path = out_dir / f"{PKG_ID}-{VERSION}.zip"
    result = _ext_cli("build", "--source-dir", str(ROOT), "--output-filepath", str(zip_path))
    if result.returncode != 0:
        raise RuntimeError(f"extension build failed:\n{result.stdout}\n{result.stderr}")
    return zip_path


def isolate_user_resources(path: pathlib.Path) -> None:
    """Point Blender's user folders at ``path``; must run before ``import bpy``."""
    if "bpy" in sys.modules:
        raise RuntimeError("isolate_user_resources() must run before bpy is imported")
    os.environ["BLENDER_USER_RESOURCES"] = str(path)


def install_and_enable(zip_path: pathlib.Path):
    """Install the zip into the user repository and enable it; returns the extension's root module."""
    import bpy

    if ADDON not in sys.modules:
        result = bpy.ops.extensions.package_install_files(
            filepath=str(zip_path), repo=REPO_MODULE, enable_on_install=True
        )
        if result != {"FINISHED"}:
            raise RuntimeError(f"package_install_files returned {result}")
    return enable()


def enable():
    """Enable the installed extension (preferences are never loaded from disk by the bpy module)."""
    import addon_utils
    import bpy

    enabled = ADDON in bpy.context.preferences.addons
    if not enabled and addon_utils.enable(ADDON, default_set=True, handle_error=None) is None:
        raise RuntimeError(f"could not enable {ADDON}")
    return sys.modules[ADDON]


def start_installed(prefix: str = "gltf_physics_") -> tuple[object, pathlib.Path]:
    """Fresh temporary user folder, then ``import bpy``, build, install and enable; returns (addon, user folder).

    For scripts (demo, benchmarks) that run the extension as users install it; must run before ``import bpy``.
    """
    import tempfile

    user = pathlib.Path(tempfile.mkdtemp(prefix=prefix))
    isolate_user_resources(user)
    return install_and_enable(build(user / "dist")), user


if __name__ == "__main__":  # `python scripts/devkit.py build|validate`
    command = sys.argv[1] if len(sys.argv) > 1 else "build"
    if command == "validate":
        outcome = validate()
        print(outcome.stdout, outcome.stderr, end="")
        sys.exit(outcome.returncode)
    print(build(ROOT / "dist"))
