"""The Khronos glTF-Validator over every file the export and migrate tests write (issue 11 item 12).

Tests call ``check(path)`` for a written ``.gltf`` / ``.glb`` (or ``check_json(doc, base)`` for a migrated document
kept in memory); ``tests/conftest.py`` validates everything registered in one Node process when the session ends
and fails the run on any error. ``make .node/.ok`` installs the validator (npm ``gltf-validator``) into the ignored
``.node/`` folder; without Node or that folder the check is skipped with one line in the summary.
"""

from __future__ import annotations

import atexit
import itertools
import json
import os
import pathlib
import shutil
import subprocess
import tempfile
import time

from testkit import ROOT

VALIDATOR = ROOT / ".node" / "node_modules" / "gltf-validator"
SCRIPT = ROOT / "tests" / "tools" / "khronos_validate.js"

#: (test id, written file, folder its relative URIs resolve against, input it was made from or None)
PENDING: list[tuple[str, pathlib.Path, pathlib.Path, pathlib.Path | None]] = []
_SPOOL: list[pathlib.Path] = []  # the temporary folder of ``check_json`` documents (one per session)
_COUNT = itertools.count()


def available() -> str | None:
    """None when the validator can run, else why not."""
    if shutil.which("node") is None:
        return "node is not on PATH"
    if not (VALIDATOR / "package.json").is_file():
        return f"{VALIDATOR.relative_to(ROOT)} is missing (run `make .node/.ok`)"
    return None


def _current_test() -> str:
    return os.environ.get("PYTEST_CURRENT_TEST", "?").rsplit(" (", 1)[0]


def check(path: os.PathLike, base: os.PathLike | None = None, source: os.PathLike | None = None) -> None:
    """Validate ``path`` (written by the current test) when the session ends.  With ``source`` (the input it was
    migrated from) only errors the source does not have count: third-party inputs may lack their textures."""
    path = pathlib.Path(path)
    base = pathlib.Path(base) if base is not None else path.parent
    PENDING.append((_current_test(), path, base, pathlib.Path(source) if source is not None else None))


@atexit.register
def _remove_spool() -> None:
    for folder in _SPOOL:
        shutil.rmtree(folder, ignore_errors=True)


def check_json(document: dict, source: os.PathLike) -> None:
    """Validate an in-memory glTF JSON document migrated from the file ``source`` (URIs resolve beside it)."""
    if not _SPOOL:
        _SPOOL.append(pathlib.Path(tempfile.mkdtemp(prefix="gltf_physics_khronos_")))
    source = pathlib.Path(source)
    path = _SPOOL[0] / f"{next(_COUNT):05d}_{source.stem}.gltf"
    path.write_text(json.dumps(document), encoding="utf-8")
    check(path, source.parent, source)


def validate(files: list[tuple[pathlib.Path, pathlib.Path]]) -> list[dict]:
    """Run the validator once over (file, resource folder) pairs; one result per pair (``numErrors``, ``errors``)."""
    payload = json.dumps([{"file": str(path), "base": str(base)} for path, base in files])
    done = subprocess.run(
        ["node", str(SCRIPT), str(VALIDATOR)], input=payload, capture_output=True, text=True, check=False
    )
    if done.returncode != 0:
        raise RuntimeError(f"glTF-Validator failed (exit {done.returncode}): {done.stderr.strip()[-2000:]}")
    return json.loads(done.stdout)


def _keys(result: dict) -> set[tuple[str, str]]:
    return {(e["code"], e["pointer"]) for e in result["errors"]} | ({("FAILURE", "")} if "failure" in result else set())


def finish() -> tuple[list[str], bool]:
    """Validate and forget everything registered: (summary lines, True when some file has new errors)."""
    entries, PENDING[:] = list(PENDING), []
    if not entries:
        return [], False
    reason = available()
    if reason is not None:
        return [f"Khronos glTF-Validator skipped ({reason}): {len(entries)} written files not validated"], False
    start = time.perf_counter()
    written = [e for e in entries if e[1].is_file()]
    sources = sorted({e[3] for e in written if e[3] is not None})
    results = validate([(path, base) for _, path, base, _ in written] + [(src, src.parent) for src in sources])
    baseline = {src: _keys(r) for src, r in zip(sources, results[len(written) :], strict=True)}
    lines, bad = [], 0
    for (test, path, _, source), result in zip(written, results[: len(written)], strict=True):
        new = _keys(result) - baseline.get(source, set())
        if new:
            bad += 1
            lines.append(f"  {test}: {path}: {len(new)} errors {result.get('failure', '')}")
            lines.extend(f"    {e['code']} at {e['pointer']}: {e['message']}" for e in result["errors"][:5])
    lines += [f"  {e[0]}: {e[1]} was registered but not written" for e in entries if not e[1].is_file()]
    head = (
        f"Khronos glTF-Validator: {len(written)} written files, {bad} with errors ({time.perf_counter() - start:.1f} s)"
    )
    for _, path, _, _ in entries:  # spooled documents are validated once, then removed
        if _SPOOL and path.parent == _SPOOL[0]:
            path.unlink(missing_ok=True)
    return [head, *lines], len(lines) > 0
