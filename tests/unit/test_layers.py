"""The folders are the layers (docs/architecture.md, the rule in io/__init__.py), checked on the source with ``ast``.

* bpy-free modules import with ``bpy``, ``bmesh``, ``mathutils`` and ``io_scene_gltf2`` blocked (fresh interpreter)
  and name none of them anywhere, not even in a function;
* every import of our own code goes in an allowed direction, resolved from the relative import to a layer;
* no import cycle between our modules, no step importing its pipeline, no import of our code by string, no
  ``try/except ImportError`` around our own modules, no module over 400 lines.
"""

from __future__ import annotations

import ast
import pathlib
import subprocess
import sys
import textwrap

import pytest

from testkit import ROOT

BLOCKED = ("bpy", "bmesh", "mathutils", "io_scene_gltf2")

# Layer of a module (its dotted path inside the package) → the layers it may import besides its own; a dotted entry
# ("importer.reproduce", "gltf.transforms") allows that part of a layer only.
ALLOWED: dict[str, set[str]] = {
    "root": {"hooks", "gltf_addon", "ui", "convert", "check"},
    "io": set(),
    "hooks": {"importer", "exporter", "gltf", "gltf_addon", "diagnostics", "report"},
    "importer": {"mapping", "gltf", "gltf_addon", "diagnostics", "report", "collector", "sim"},
    "exporter": {"mapping", "gltf", "gltf_addon", "diagnostics", "report", "collector", "sim"},
    "mapping": {"gltf", "sim", "diagnostics"},
    "gltf": {"diagnostics"},
    "gltf_addon": {"gltf", "diagnostics"},
    "report": {"diagnostics"},
    "collector": set(),
    "diagnostics": {"diagnostic_codes"},
    "diagnostic_codes": set(),
    "cli": {"gltf", "sim", "diagnostics", "convert", "check"},
    "convert": {"hooks", "gltf", "diagnostics"},
    "sim": {"diagnostics", "gltf.transforms", "gltf.atomic"},
    "ui": {"hooks", "importer.reproduce", "gltf", "mapping", "sim", "diagnostics", "report", "check"},
    "check": {"convert", "hooks", "exporter", "mapping", "gltf", "sim", "diagnostics"},
}
BPY_FREE = (
    "io.gltf",
    "io.mapping",
    "sim",
    "io.diagnostics",
    "io.diagnostic_codes",
    "io.report",
    "io.cli",
    "ui.readout",
    "ui.overlay.overlay_geometry",
    "ui.overlay.overlay_marks",
    *(
        f"io.convert.{name}"
        for name in (
            "plan",
            "pool",
            "progress",
            "driver",
            "protocol",
            "publish",
            "state",
            "walk",
            "options",
            "output_guard",
            "blend_file",
        )
    ),
    *(f"io.check.{name}" for name in ("evaluate", "output", "plots", "driver")),
)


def bpy_free(module: str) -> bool:
    return any(module == name or module.startswith(name + ".") for name in BPY_FREE)


def _modules() -> dict[str, pathlib.Path]:
    """Dotted module path inside the package ("" = root, "io.gltf.parse", …) → file."""
    out = {"": ROOT / "__init__.py"}
    for top in ("io", "ui", "sim"):
        for path in sorted((ROOT / top).rglob("*.py")):
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            out[".".join(parts)] = path
    return out


MODULES = _modules()


def layer(module: str) -> str:
    parts = module.split(".") if module else []
    if not parts:
        return "root"
    if parts[0] in ("ui", "sim"):
        return parts[0]
    return parts[1] if len(parts) > 1 else "io"


def allowed(source_layer: str, target: str) -> bool:
    """``target`` is in a layer ``source_layer`` may import, or in an allowed part of one (``importer.reproduce``)."""
    return any(
        layer(target) == entry or target == f"io.{entry}" or target.startswith(f"io.{entry}.")
        for entry in ALLOWED[source_layer]
    )


def _is_package(module: str) -> bool:
    return MODULES[module].name == "__init__.py"


def own_imports(module: str) -> list[tuple[int, str, bool]]:
    """(line, imported module of ours, at module level) for every relative import in ``module`` (functions too)."""
    tree = ast.parse(MODULES[module].read_text(encoding="utf-8"))
    top_level = {id(node) for node in tree.body}
    out = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.ImportFrom) or node.level == 0:
            continue
        package = module.split(".") if _is_package(module) else module.split(".")[:-1]
        if module == "":
            package = []
        base = package[: len(package) - (node.level - 1)] + (node.module.split(".") if node.module else [])
        for alias in node.names:
            target = ".".join([*base, alias.name])
            found = target if target in MODULES else ".".join(base)
            out.append((node.lineno, found, id(node) in top_level))
    return out


def test_every_module_is_seen():
    assert {"io.gltf.parse", "io.mapping.stored", "io.importer.pipeline", "io.exporter.context", "sim.quat"} <= set(
        MODULES
    )
    assert all(target in MODULES for module in MODULES for _, target, _ in own_imports(module))


def test_a_dotted_entry_allows_that_part_only():
    assert allowed("sim", "io.gltf.transforms") and allowed("sim", "io.diagnostics")
    assert allowed("sim", "io.gltf.atomic") and not allowed("sim", "io.gltf.safe_files")
    assert not allowed("sim", "io.gltf.nodes") and not allowed("sim", "io.gltf")
    assert allowed("ui", "io.importer.reproduce.step") and not allowed("ui", "io.importer.context")


def test_imports_follow_the_layer_table():
    violations = []
    for module in MODULES:
        for line, target, _ in own_imports(module):
            source_layer, target_layer = layer(module), layer(target)
            if source_layer != target_layer and not allowed(source_layer, target):
                violations.append(f"{MODULES[module].relative_to(ROOT)}:{line}: {source_layer} imports {target}")
    assert not violations, "\n".join(violations)


def test_bpy_free_modules_never_name_blender_modules():
    violations = []
    for module, path in MODULES.items():
        if not bpy_free(module):
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0:
                names = [node.module or ""]
            for name in names:
                if name.split(".")[0] in BLOCKED:
                    violations.append(f"{path.relative_to(ROOT)}:{node.lineno}: imports {name}")
    assert not violations, "\n".join(violations)


def test_bpy_free_modules_import_with_blender_blocked():
    """A fresh interpreter with a meta-path finder that refuses the Blender modules imports every bpy-free module."""
    names = [m for m in MODULES if bpy_free(m)]
    script = textwrap.dedent(
        f"""
        import importlib, importlib.util, sys

        class Block:
            def find_spec(self, name, path=None, target=None):
                if name.split(".")[0] in {BLOCKED!r}:
                    raise ImportError("blocked: " + name)
                return None

        sys.meta_path.insert(0, Block())
        spec = importlib.util.spec_from_file_location(
            "gltf_physics", {str(ROOT / "__init__.py")!r}, submodule_search_locations=[{str(ROOT)!r}]
        )
        root = importlib.util.module_from_spec(spec)
        sys.modules["gltf_physics"] = root
        spec.loader.exec_module(root)
        failed = []
        for name in {names!r}:
            try:
                importlib.import_module("gltf_physics." + name)
            except Exception as exc:
                failed.append(f"{{name}}: {{type(exc).__name__}}: {{exc}}")
        print("\\n".join(failed))
        sys.exit(1 if failed else 0)
        """
    )
    result = subprocess.run([sys.executable, "-P", "-c", script], capture_output=True, text=True, cwd="/")
    assert result.returncode == 0, result.stdout + result.stderr
    assert len(names) > 40


def _cycle(edges: dict[str, set[str]]) -> list[str] | None:
    """One cycle of the directed graph (a list of modules, first == last), or None."""
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(edges.get(node, ())):
            if state.get(nxt) == 1:
                return stack[stack.index(nxt) :] + [nxt]
            if nxt not in state:
                found = visit(nxt)
                if found:
                    return found
        stack.pop()
        state[node] = 2
        return None

    for node in sorted(edges):
        if node not in state:
            found = visit(node)
            if found:
                return found
    return None


def test_no_import_cycle_between_our_modules():
    """Module-level and function-level imports alike (a lazy import only hides a cycle)."""
    edges = {m: {t for _, t, _ in own_imports(m) if t != m} for m in MODULES}
    assert _cycle(edges) is None, " -> ".join(_cycle(edges) or [])


def test_cycle_finder_finds_a_cycle():
    assert _cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert _cycle({"a": {"b"}, "b": set()}) is None


@pytest.mark.parametrize("side", ["importer", "exporter"])
def test_steps_never_import_their_pipeline(side):
    pipeline = f"io.{side}.pipeline"
    users = [m for m in MODULES if any(t == pipeline for _, t, _ in own_imports(m))]
    assert users == ["io.hooks"]


def test_pipelines_import_their_steps_at_module_level():
    for side in ("importer", "exporter"):
        module = f"io.{side}.pipeline"
        assert all(top for _, target, top in own_imports(module) if target.startswith(f"io.{side}."))


def test_no_import_of_our_code_by_string():
    violations = []
    for path in MODULES.values():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call):
                func = node.func
                name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
                if name in ("import_module", "__import__"):
                    violations.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert not violations, "\n".join(violations)


def test_no_import_error_fallback_around_our_modules():
    violations = []
    for path in MODULES.values():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Try):
                continue
            caught = {ast.unparse(h.type) for h in node.handlers if h.type is not None}
            if not any("ImportError" in c or "ModuleNotFoundError" in c for c in caught):
                continue
            for inner in node.body:
                for sub in ast.walk(inner):
                    if isinstance(sub, ast.ImportFrom) and sub.level > 0:
                        violations.append(f"{path.relative_to(ROOT)}:{sub.lineno}")
    assert not violations, "\n".join(violations)


def test_subpackage_inits_stay_light():
    """A package ``__init__`` runs on every submodule import: docstring only, or one entry point (gltf.write)."""
    for module, path in MODULES.items():
        if path.name != "__init__.py" or module in ("", "ui", "sim", "io.gltf.write"):
            continue
        body = ast.parse(path.read_text(encoding="utf-8")).body
        assert len(body) == 1 and isinstance(body[0], ast.Expr), f"{path.relative_to(ROOT)} is more than a docstring"


def test_only_the_adapter_imports_io_scene_gltf2():
    """io/gltf_addon.py is the one place that knows io_scene_gltf2's modules (and their version gates)."""
    violations = []
    for module, path in MODULES.items():
        if module == "io.gltf_addon":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else []
            if isinstance(node, ast.ImportFrom) and node.level == 0:
                names = [node.module or ""]
            violations += [f"{path.relative_to(ROOT)}:{node.lineno}" for n in names if n.startswith("io_scene_gltf2")]
    assert not violations, "\n".join(violations)
