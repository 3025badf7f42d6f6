"""Docstrings and comments name only modules that exist: a file path such as ``io/importer/bodies.py`` or a bare
``name.py`` in the extension's code must point at a file of this repository (paths inside io_scene_gltf2, which the
adapter cites, are exempt). Moved modules otherwise leave readers looking for code that is gone."""

from __future__ import annotations

import pathlib
import re

ROOT = pathlib.Path(__file__).resolve().parents[2]
SOURCES = [ROOT / "__init__.py", *[path for folder in ("io", "ui", "sim") for path in (ROOT / folder).rglob("*.py")]]
PATH_TOKEN = re.compile(r"(?<![\w./-])([a-z_][a-z_0-9]*(?:/[a-z_0-9]+)*\.py)\b")
# io_scene_gltf2's own layout (cited where the adapter depends on it) and stdlib / third-party modules.
FOREIGN_PREFIXES = ("blender/", "io/exp/", "io/imp/", "io/com/")
FOREIGN_NAMES = {"binary_data.py"}
FOREIGN_PATTERN = re.compile(r"^gltf2_\w+\.py$")  # io_scene_gltf2 file names before 4.3


def repository_files() -> tuple[set[str], set[str]]:
    files = {
        str(path.relative_to(ROOT))
        for path in ROOT.rglob("*.py")
        if not any(part.startswith(".") or part == "__pycache__" for part in path.relative_to(ROOT).parts)
    }
    return files, {pathlib.PurePosixPath(name).name for name in files}


def resolves(token: str, files: set[str], names: set[str]) -> bool:
    if token.startswith(FOREIGN_PREFIXES) or token in FOREIGN_NAMES or FOREIGN_PATTERN.match(token):
        return True
    if "/" not in token:
        return token in names
    return token in files or any(name.endswith("/" + token) for name in files)


def test_docstrings_name_only_existing_modules() -> None:
    files, names = repository_files()
    stale = []
    for source in SOURCES:
        for number, line in enumerate(source.read_text(encoding="utf-8").splitlines(), 1):
            for token in PATH_TOKEN.findall(line):
                if not resolves(token, files, names):
                    stale.append(f"{source.relative_to(ROOT)}:{number}: {token}")
    assert not stale, "modules that do not exist:\n" + "\n".join(stale)


MEASUREMENT = re.compile(
    r"[~≈] ?[0-9][0-9.,]* ?(ms|µs|us|s|MB|MiB|GB|GiB|%)\b|[0-9]+(\.[0-9]+)?× (slower|faster)"
    r"|[0-9]+(\.[0-9]+)? ?(ms|µs) (per|a|each|of)\b|[0-9]+-[0-9]+ ms"
)


def test_docstrings_and_comments_carry_no_measurements() -> None:
    """Timings go stale in code: they live in docs/ next to the command that measured them."""
    found = [
        f"{source.relative_to(ROOT)}:{number}: {line.strip()}"
        for source in SOURCES
        for number, line in enumerate(source.read_text(encoding="utf-8").splitlines(), 1)
        if MEASUREMENT.search(line)
    ]
    assert not found, "measurements in code:\n" + "\n".join(found)
