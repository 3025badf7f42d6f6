"""The rule for the report files a command writes beside its outputs (bpy-free): never over an input, a resource
or an output.

``convert --report``, ``check --json`` and ``metrics -o`` write one JSON file, last, atomically. Before anything
runs, ``refuse_report`` checks its path and says why it may not be written (a usage error, exit code 2):

* inside OUT it must be named ``*.json``: every file a conversion writes there is a ``.gltf``, ``.glb``,
  ``.blend``, ``.bin`` or an image, so a ``.json`` report can never replace one (``--report OUT/door.bin`` could);
* an existing file is replaced only when it is a regular file holding a report (a JSON object with a ``files`` or
  ``joints`` list): anything else (an input's buffer ``IN/door.bin``, an image, a glTF, a FIFO) is never
  overwritten.

Inputs and outputs themselves are checked by the callers (``plan.check_report``), by resolved path.
"""

from __future__ import annotations

import json
import pathlib

from ..gltf.safe_files import ResourceReadError, read_regular

#: Keys of which one holds a list in every report these commands write (convert / check: ``files``; metrics:
#: ``joints``).
REPORT_KEYS = ("files", "joints")


def is_report(path: pathlib.Path) -> bool:
    """True when ``path`` is a regular file holding a JSON object with a report's list (``REPORT_KEYS``)."""
    try:
        document = json.loads(read_regular(path))
    except (ResourceReadError, ValueError, RecursionError):
        return False
    return isinstance(document, dict) and any(isinstance(document.get(key), list) for key in REPORT_KEYS)


def refuse_report(option: str, text: str, out: str | pathlib.Path | None = None) -> str | None:
    """Why the report ``text`` (given as ``option``) may not be written, or None. ``out``: the command's output
    folder, if it has one."""
    target = pathlib.Path(text).absolute()
    resolved = target.resolve()
    if out is not None and resolved.is_relative_to(pathlib.Path(out).resolve()) and target.suffix.lower() != ".json":
        return f"{option} {text!r} is inside OUT but not a .json file: it could replace an output's file"
    if target.is_symlink() or target.exists():
        if resolved.is_dir():
            return f"{option} {text!r} is a folder"
        if not is_report(target):
            return f"{option} {text!r} exists and is not a report: not overwritten (an input's or an output's file?)"
    return None
