"""Validation context: the raw document, its core arrays, node-graph queries and the diagnostics found so far."""

from __future__ import annotations

import logging
from collections.abc import Callable

from ...diagnostics import Diagnostic, DiagnosticList, Severity, internal_failure
from ..nodes import nearest_marked
from .codes import INTERNAL_ERROR


class Ctx:
    """Validation state: the raw document, its core arrays and the diagnostics found so far."""

    def __init__(self, doc: dict):
        self.doc = doc
        self.out = DiagnosticList()
        self.nodes = _list_or_empty(doc.get("nodes"))
        self.meshes = _list_or_empty(doc.get("meshes"))
        self.skins = _list_or_empty(doc.get("skins"))
        root_ext = doc.get("extensions")
        self.root_ext = root_ext if isinstance(root_ext, dict) else {}
        self._parents: dict[int, int] | None = None
        self._skin_joints: set[int] | None = None
        self._seen: set[str] = set()
        self._nearest: dict[str, dict[int, int | None]] = {}
        self._reaching_a_mesh: set[int] | None = None  # subtree_has_mesh's answers, found on the first question
        self.legacy_khr: bool | None = None  # bodies.is_legacy_khr, computed once

    def error(self, code: str, ptr: str, message: str) -> Diagnostic:
        return self.out.error(code, ptr, message)

    def mark(self) -> int:
        """A position in the diagnostics found so far, for ``errors_since``."""
        return len(self.out.items)

    def errors_since(self, mark: int) -> bool:
        """True when an ERROR was found after ``mark`` (only the newer diagnostics are read: counting every ERROR
        of the document once per object made files with many errors quadratic)."""
        return any(d.severity >= Severity.ERROR for d in self.out.items[mark:])

    def warning(self, code: str, ptr: str, message: str) -> Diagnostic:
        return self.out.warning(code, ptr, message)

    def info(self, code: str, ptr: str, message: str) -> Diagnostic:
        return self.out.info(code, ptr, message)

    def add(self, severity: Severity, code: str, ptr: str, message: str) -> Diagnostic:
        return self.out.add(severity, code, ptr, message)

    def guard(self, ptr: str, check: Callable[..., object], *args: object) -> None:
        """Run one check; a bug in it becomes an ``INTERNAL_ERROR`` diagnostic on ``ptr`` instead of an exception."""
        try:
            check(*args)
        except Exception:  # last resort: validation must never raise
            logging.getLogger(__name__).exception("glTF Physics: the validator failed at %s", ptr or "/")
            self.error(INTERNAL_ERROR, ptr, internal_failure("checking this object"))

    def once(self, key: str) -> bool:
        """True the first time ``key`` is seen (for once-per-document notes)."""
        if key in self._seen:
            return False
        self._seen.add(key)
        return True

    def root(self, name: str) -> dict | None:
        """The document-level extension object ``name`` when it is a JSON object."""
        value = self.root_ext.get(name)
        return value if isinstance(value, dict) else None

    def parents(self) -> dict[int, int]:
        """Child → parent over valid ``children`` entries (first parent wins for malformed graphs)."""
        if self._parents is None:
            self._parents = {}
            for i, node in enumerate(self.nodes):
                children = node.get("children") if isinstance(node, dict) else None
                for child in children if isinstance(children, list) else ():
                    if is_int(child) and 0 <= child < len(self.nodes) and child != i:
                        self._parents.setdefault(child, i)
        return self._parents

    def nearest(self, key: str, marked: Callable[[int, dict], bool], index: int) -> int | None:
        """The first of ``index`` and its ancestors (cycle-safe) whose node is a JSON object with ``marked(i, node)``.

        ``key`` names the marking: the answers of every node are computed together once per key (O(nodes), where a
        walk per call would cost O(depth) each: quadratic for many bodies in a deep hierarchy).
        """
        answers = self._nearest.get(key)
        if answers is None:
            chosen = {i for i, node in enumerate(self.nodes) if isinstance(node, dict) and marked(i, node)}
            # nothing marked (the usual case): every answer is None, no walk of the hierarchy
            answers = nearest_marked(self.parents(), chosen, range(len(self.nodes))) if chosen else {}
            self._nearest[key] = answers
        return answers.get(index)

    def is_descendant(self, index: int, ancestor: int) -> bool:
        """True when ``ancestor`` is a proper ancestor of ``index``."""
        parents = self.parents()
        seen: set[int] = set()
        current = parents.get(index)
        while current is not None and current not in seen:  # a set: list membership made deep chains quadratic
            if current == ancestor:
                return True
            seen.add(current)
            current = parents.get(current)
        return False

    def subtree_has_mesh(self, index: int) -> bool:
        """True when the node or one of its descendants has a ``mesh``. Every node with a mesh below it is found at
        once, on the first question (``_reaching_a_mesh``): a walk of the subtree per ``geometry.node`` reference
        made a file whose colliders all name one large subtree without a mesh quadratic."""
        if self._reaching_a_mesh is None:
            self._reaching_a_mesh = _reaching_a_mesh(self.nodes)
        return is_int(index) and index in self._reaching_a_mesh

    def skin_joints(self) -> set[int]:
        """Every node listed in some ``skins[].joints``."""
        if self._skin_joints is None:
            self._skin_joints = set()
            for skin in self.skins:
                joints = _list_or_empty(skin.get("joints")) if isinstance(skin, dict) else []
                self._skin_joints.update(j for j in joints if is_int(j))
        return self._skin_joints

    def node(self, index: object) -> dict | None:
        """Node ``index`` when it exists and is a JSON object."""
        if is_int(index) and 0 <= index < len(self.nodes) and isinstance(self.nodes[index], dict):
            return self.nodes[index]
        return None


def _reaching_a_mesh(nodes: list) -> set[int]:
    """The nodes that have a ``mesh`` or reach one through ``children`` (JSON objects only, whatever the graph's shape:
    cycles, several parents, references to nodes that do not exist): one pass over the nodes, then back from each
    mesh node to the nodes that list it, each node once."""
    listed_by: dict[int, list[int]] = {}
    reached: list[int] = []
    for i, node in enumerate(nodes):
        if not isinstance(node, dict):
            continue
        if "mesh" in node:
            reached.append(i)
        for child in _list_or_empty(node.get("children")):
            if is_int(child):
                listed_by.setdefault(child, []).append(i)
    found = set(reached)
    while reached:
        for parent in listed_by.get(reached.pop(), ()):
            if parent not in found:
                found.add(parent)
                reached.append(parent)
    return found


def _list_or_empty(value: object) -> list:
    return value if isinstance(value, list) else []


def is_int(value: object) -> bool:
    """True for JSON integers (``bool`` is not an integer here); the exact type first, the usual case."""
    return type(value) is int or (isinstance(value, int) and not isinstance(value, bool))


def is_number(value: object) -> bool:
    """True for JSON numbers (``bool`` is not a number here)."""
    return isinstance(value, int | float) and not isinstance(value, bool)


def type_name(value: object) -> str:
    """The JSON type name of a Python value parsed from JSON."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if is_number(value):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    if isinstance(value, dict):
        return "object"
    return type(value).__name__


def show(value: object) -> str:
    """A short, never-failing text for a value in a message (huge integers cannot always be printed)."""
    if is_int(value) and not -(10**30) < value < 10**30:
        return "<very large integer>"
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."
