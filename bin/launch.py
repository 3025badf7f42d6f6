"""Load the repository as the package ``gltf_physics`` (without touching sys.path) and run its CLI."""

import importlib
import importlib.util
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent


def _load(name: str = "gltf_physics"):
    spec = importlib.util.spec_from_file_location(name, ROOT / "__init__.py", submodule_search_locations=[str(ROOT)])
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


if __name__ == "__main__":
    if sys.path and pathlib.Path(sys.path[0] or ".").resolve() == ROOT:
        sys.path.pop(0)
    _load()
    sys.exit(importlib.import_module("gltf_physics.io.cli").main(sys.argv[1:]))
