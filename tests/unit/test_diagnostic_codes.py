"""One registry of diagnostic codes, one severity each (``io/diagnostic_codes.py``, docs/diagnostics.md).

The source is walked with ``ast``: every call that reports a code with a fixed severity (``Diagnostic(Severity.X,
CODE, …)``, ``report.add(Severity.X, CODE, …)``, ``p.diag(stage, Severity.X, CODE, …)``, ``.error / .warning /
.info / .warn / .note / .fail(CODE, …)``) must ask for the registered severity of a registered code, so no code is
used at two severities; every code-like string of the source is registered; and a ``Diagnostic`` built with another
severity carries the registered one anyway.
"""

from __future__ import annotations

import ast
import collections
import re

import pytest

from testkit import ROOT, submodule

codes = submodule("io.diagnostic_codes")
diagnostics = submodule("io.diagnostics")
Severity = diagnostics.Severity

CODE = re.compile(r"^[A-Z][A-Z0-9]+(_[A-Z0-9]+)+$")
#: Code-like strings that are not diagnostic codes (environment variables).
NOT_CODES = {"GLTF_PHYSICS_PROBES_FAIL", "GLTF_PHYSICS_WORKER_CPUS"}
CODE_PREFIXES = re.compile(
    r'"((?:GLTF_PHYSICS|PHYSICS_PARSE|PHYSICS_WRITE|CONVERT|FILE|GLB|METRICS|SIM|KHR_RIGID_BODIES)_[A-Z0-9_]+)"'
)
#: Methods whose name says the severity they report at.
METHOD_SEVERITY = {
    "error": "ERROR",
    "warning": "WARNING",
    "info": "INFO",
    "warn": "WARNING",
    "note": "INFO",
    "fail": "ERROR",
    "_error": "ERROR",
    "_fail": "ERROR",
}


def _modules() -> dict[str, ast.Module]:
    out = {}
    for top in ("io", "ui", "sim", "scripts"):
        for path in sorted((ROOT / top).rglob("*.py")):
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            out[".".join(parts)] = (path, ast.parse(path.read_text(encoding="utf-8")))
    return out


MODULES = _modules()


def _constants(module: str) -> dict[str, str]:
    tree = MODULES[module][1]
    out = {}
    for node in tree.body:
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str):
            out.update({t.id: node.value.value for t in node.targets if isinstance(t, ast.Name)})
    return out


CONSTANTS = {module: _constants(module) for module in MODULES}


def _imports(module: str) -> tuple[dict[str, tuple[str, str]], dict[str, str]]:
    """(name → (module, its name there), alias → module) of the relative imports of ``module``."""
    path, tree = MODULES[module]
    package = module.split(".") if path.name == "__init__.py" else module.split(".")[:-1]
    names, aliases = {}, {}
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.level:
            base = package[: len(package) - (node.level - 1)] + (node.module.split(".") if node.module else [])
            for alias in node.names:
                target = ".".join([*base, alias.name])
                if target in MODULES:
                    aliases[alias.asname or alias.name] = target
                else:
                    names[alias.asname or alias.name] = (".".join(base), alias.name)
    return names, aliases


IMPORTS = {module: _imports(module) for module in MODULES}


def _code(module: str, node: ast.AST, depth: int = 0) -> str | None:
    """The code string ``node`` stands for in ``module`` (a literal, a constant, an imported constant)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str) and CODE.match(node.value):
        return node.value
    names, aliases = IMPORTS[module]
    if isinstance(node, ast.Name):
        value = CONSTANTS[module].get(node.id)
        if value is not None:
            return value if CODE.match(value) else None
        if node.id in names and depth < 5 and names[node.id][0] in MODULES:
            source, name = names[node.id]
            return _code(source, ast.Name(id=name), depth + 1)
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in aliases:
        return _code(aliases[node.value.id], ast.Name(id=node.attr), depth + 1)
    return None


def emissions() -> list[tuple[str, str, str]]:
    """(code, asked severity, where) of every call that reports a code at a fixed severity."""
    found = []
    for module, (_, tree) in MODULES.items():
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            args = node.args
            for i, arg in enumerate(args[:-1]):
                if isinstance(arg, ast.Attribute) and isinstance(arg.value, ast.Name) and arg.value.id == "Severity":
                    code = _code(module, args[i + 1])
                    if code is not None:
                        found.append((code, arg.attr, f"{module}:{node.lineno}"))
            func = node.func
            name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
            if name in METHOD_SEVERITY and args:
                code = _code(module, args[0])
                if code is not None:
                    found.append((code, METHOD_SEVERITY[name], f"{module}:{node.lineno}"))
    return found


EMISSIONS = emissions()


def test_the_walk_sees_the_emitters():
    seen = {code for code, _, _ in EMISSIONS}
    assert {"VALUE_NOT_IN_RANGE", "GLTF_PHYSICS_IMPORT_SKIPPED", "CONVERT_IMPORT_FAILED", "PHYSICS_WRITE_LOSSY"} <= seen
    assert len(EMISSIONS) > 200


def test_every_reported_code_is_registered():
    missing = sorted({(code, where) for code, _, where in EMISSIONS if code not in codes.REGISTRY})
    assert not missing


def test_every_code_like_string_of_the_source_is_registered():
    found = set()
    for path, _ in MODULES.values():
        found |= set(CODE_PREFIXES.findall(path.read_text(encoding="utf-8")))
    assert not sorted(found - set(codes.REGISTRY) - NOT_CODES)


def test_no_code_is_reported_at_two_severities():
    by_code = collections.defaultdict(set)
    for code, severity, where in EMISSIONS:
        by_code[code].add((severity, where))
    twice = {c: sorted(s) for c, s in by_code.items() if len({severity for severity, _ in s}) > 1}
    assert not twice


def test_every_emitter_asks_for_the_registered_severity():
    wrong = [
        (code, severity, where, codes.REGISTRY[code].severity.name)
        for code, severity, where in EMISSIONS
        if code in codes.REGISTRY and codes.REGISTRY[code].severity.name != severity
    ]
    assert not wrong


@pytest.mark.parametrize("asked", list(Severity))
def test_a_diagnostic_carries_the_registered_severity_whatever_was_asked(asked):
    diag = diagnostics.Diagnostic(asked, "VALUE_NOT_IN_RANGE", "/nodes/0", "mass -1")
    assert diag.severity is Severity.ERROR
    assert diagnostics.Diagnostic(asked, "NOT_A_REGISTERED_CODE", "", "").severity is asked


def test_every_registered_code_has_a_one_line_meaning():
    for code, info in codes.REGISTRY.items():
        assert CODE.match(code), code
        assert info.meaning.endswith(".") and "\n" not in info.meaning, code
        assert not info.loses_physics or info.severity >= Severity.WARNING, code


def test_the_validator_table_is_the_registry():
    table = submodule("io.gltf.validate.codes").CODES
    for code, info in table.items():
        assert (info.severity, info.meaning) == (codes.REGISTRY[code].severity, codes.REGISTRY[code].meaning)
