"""Type-defensive JSON reading shared by the KHR and OMI readers (bpy-free).

Readers see raw JSON.  Every accessor here either returns a well-typed value or raises ``DropUnitError`` after
recording a diagnostic; the reader catches ``DropUnitError`` at the enclosing droppable unit (node-level motion /
collider / trigger / joint, a document-level shape / material / filter / joint description, a limit or a drive) so
that one bad object never loses the others.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterator
from typing import Any

from ...diagnostics import Diagnostic, DiagnosticList, JsonPointer, Severity, pointer_join
from ..extensions import KHR_RIGID_BODIES, NODE_EXTENSIONS, OMI_BODY, OMI_COLLIDER, OMI_JOINT, OMI_SHAPE
from ..model import Passthrough

# Parser diagnostic codes (the validator owns the spec codes; these only describe what the parser could not read).
INVALID_TYPE = "PHYSICS_PARSE_INVALID_TYPE"
MISSING_PROPERTY = "PHYSICS_PARSE_MISSING_PROPERTY"
UNRESOLVED = "PHYSICS_PARSE_UNRESOLVED_REFERENCE"
DROPPED = "PHYSICS_PARSE_DROPPED"
DROPPED_REFERENCE = "PHYSICS_PARSE_REFERENCE_TO_DROPPED"
CONVERTED = "PHYSICS_PARSE_CONVERTED"
INTERNAL = "PHYSICS_PARSE_INTERNAL_ERROR"
IGNORED = "PHYSICS_PARSE_IGNORED"  # a value of the wrong type or an unknown kind, read without it (WARNING)
OUT_OF_RANGE = "PHYSICS_PARSE_OUT_OF_RANGE"  # a computed value glTF cannot store (WARNING; the value is not kept)

#: glTF stores physics numbers as 32-bit floats: the largest finite one and the smallest non-zero (subnormal) one.
FLOAT32_MAX = 3.4028234663852886e38
FLOAT32_TINY = 1.401298464324817e-45

_NODE_UNIT = re.compile(
    rf"^/nodes/\d+/extensions/(?:(?:{KHR_RIGID_BODIES}|{OMI_BODY})/(?:motion|collider|trigger|joint)"
    rf"|{OMI_JOINT}|{OMI_COLLIDER}|{OMI_SHAPE})(?=/|$)"
)
_SUB_UNIT = re.compile(r"^/extensions/[^/]+/physicsJoints/\d+/(?:limits|drives)/\d+(?=/|$)")
_ROOT_UNIT = re.compile(
    r"^/extensions/[^/]+/(?:shapes|physicsMaterials|collisionFilters|physicsJoints|colliders|constraints)/\d+(?=/|$)"
)


def droppable_unit(ptr: str) -> str | None:
    """The pointer of the deepest droppable unit containing ``ptr`` (None when there is none)."""
    for pattern in (_NODE_UNIT, _SUB_UNIT, _ROOT_UNIT):
        match = pattern.match(ptr)
        if match:
            return match.group(0)
    return None


_NODE_EXTENSIONS = frozenset(NODE_EXTENSIONS)  # a set: ``isdisjoint`` then walks the node's few names instead


def physics_nodes(nodes: list) -> list[tuple[int, dict]]:
    """(index, extensions object) of every node, in node order, whose ``extensions`` is a JSON object holding a
    node-level physics extension: the only nodes the validator and the readers have to visit (found in one pass per
    validation and one per read, instead of one walk of every node per check or reader)."""
    found = []
    for index, node in enumerate(nodes):
        extensions = node.get("extensions") if isinstance(node, dict) else None
        if isinstance(extensions, dict) and not extensions.keys().isdisjoint(_NODE_EXTENSIONS):
            found.append((index, extensions))
    return found


def _ancestors(ptr: str) -> Iterator[str]:
    """The proper ancestors of a JSON pointer (``"/a/b"`` -> ``""``, ``"/a"``): each prefix followed by a ``/``."""
    slash = ptr.find("/")
    while slash != -1:
        yield ptr[:slash]
        slash = ptr.find("/", slash + 1)


class DropUnitError(Exception):
    """Internal: the unit being read cannot be kept (a diagnostic was already recorded)."""


def is_number(value: Any) -> bool:
    """A finite JSON number (not a boolean); an integer beyond every float is none (``math.isfinite`` raises)."""
    kind = type(value)
    if kind is not float and kind is not int and (not isinstance(value, int | float) or isinstance(value, bool)):
        return False  # the exact types first: the usual JSON number costs two identity tests
    try:
        return math.isfinite(value)
    except OverflowError:
        return False


def fits_float32(value: float) -> bool:
    """Finite and not above ``FLOAT32_MAX`` in magnitude (a number a glTF writer may store)."""
    return math.isfinite(value) and abs(value) <= FLOAT32_MAX


def is_index(value: Any) -> bool:
    """A JSON integer ≥ 0 (not a boolean); the exact type first: the usual index costs one identity test."""
    return (type(value) is int or (isinstance(value, int) and not isinstance(value, bool))) and value >= 0


class ReadContext:
    """Per-parse state: the glTF JSON, validator diagnostics, the set of dropped units and our own diagnostics."""

    def __init__(self, gltf: dict, validator_diags: list[Diagnostic]):
        self.gltf = gltf
        self.diags = DiagnosticList()
        self.validator_diags = validator_diags
        # The validator's pointers and their ancestors: whether it reported something at or around a pointer is a
        # few set look-ups (a scan of its every diagnostic per report made files with many problems quadratic).
        self._validated: set[str] = set()
        self._validated_ancestors: set[str] = set()
        for diag in validator_diags:
            self._validated.add(diag.pointer)
            self._validated_ancestors.update(_ancestors(diag.pointer))
        self.dropped: set[str] = set()
        for diag in validator_diags:
            if diag.severity >= Severity.ERROR:
                unit = droppable_unit(diag.pointer)
                if unit is not None:
                    self.dropped.add(unit)
        nodes = gltf.get("nodes")
        meshes = gltf.get("meshes")
        self.nodes: list = nodes if isinstance(nodes, list) else []
        self.node_count = len(self.nodes)
        self._physics_nodes: list[tuple[int, dict]] | None = None
        self.mesh_count = len(meshes) if isinstance(meshes, list) else 0

    def physics_nodes(self) -> list[tuple[int, dict]]:
        """``physics_nodes(self.nodes)``, found once per parse (read by the KHR, OMI and legacy-joint readers)."""
        if self._physics_nodes is None:
            self._physics_nodes = physics_nodes(self.nodes)
        return self._physics_nodes

    # -- diagnostics ---------------------------------------------------------------------------------------------
    def report(self, severity: Severity, code: str, ptr: str | JsonPointer, message: str) -> None:
        """Record a parser diagnostic unless the validator already reported something at or around ``ptr``."""
        ptr = str(ptr)  # a lazy JsonPointer becomes its text here, when something is reported
        if severity >= Severity.ERROR or code in (INVALID_TYPE, IGNORED, MISSING_PROPERTY, UNRESOLVED):
            if ptr in self._validated or ptr in self._validated_ancestors:  # at ptr or inside it
                return
            if not self._validated.isdisjoint(_ancestors(ptr)):  # around it
                return
        self.diags.add(severity, code, ptr, message)

    def fail(self, code: str, ptr: str, message: str):
        self.report(Severity.ERROR, code, ptr, message)
        raise DropUnitError(ptr)

    def is_dropped(self, ptr: str) -> bool:
        if self.dropped and str(ptr) in self.dropped:  # no pointer text built while nothing was dropped
            self.diags.info(DROPPED, ptr, "dropped from the model because of the error(s) reported inside it")
            return True
        return False

    # -- typed accessors -------------------------------------------------------------------------------------------
    def obj(self, value: Any, ptr: str) -> dict:
        if not isinstance(value, dict):
            self.fail(INVALID_TYPE, ptr, f"expected a JSON object, got {type(value).__name__}")
        return value

    def array(self, value: Any, ptr: str) -> list:
        if not isinstance(value, list):
            self.fail(INVALID_TYPE, ptr, f"expected an array, got {type(value).__name__}")
        return value

    def number(self, d: dict, key: str, ptr: str, default: float | None = None) -> float | None:
        if key not in d:
            return default
        value = d[key]
        if not is_number(value):
            self.fail(INVALID_TYPE, pointer_join(ptr, key), f"expected a finite number, got {value!r:.40}")
        return float(value)

    def boolean(self, d: dict, key: str, ptr: str, default: bool = False) -> bool:
        if key not in d:
            return default
        if not isinstance(d[key], bool):
            self.fail(INVALID_TYPE, pointer_join(ptr, key), f"expected a boolean, got {d[key]!r:.40}")
        return d[key]

    def string(self, d: dict, key: str, ptr: str, default: str | None = None) -> str | None:
        if key not in d:
            return default
        if not isinstance(d[key], str):
            self.fail(INVALID_TYPE, pointer_join(ptr, key), f"expected a string, got {d[key]!r:.40}")
        return d[key]

    def index(self, d: dict, key: str, ptr: str, *, none_value: int | None = None) -> int | None:
        """An optional glTF id; ``none_value`` (OMI's -1) reads as absent."""
        if key not in d:
            return None
        value = d[key]
        if none_value is not None and value == none_value and not isinstance(value, bool):
            return None
        if not is_index(value):
            self.fail(INVALID_TYPE, pointer_join(ptr, key), f"expected an index (integer >= 0), got {value!r:.40}")
        return value

    def required_index(self, d: dict, key: str, ptr: str) -> int:
        if key not in d:
            self.fail(MISSING_PROPERTY, ptr, f"required property '{key}' is missing")
        return self.index(d, key, ptr)

    def vector(self, d: dict, key: str, ptr: str, size: int, default: tuple | None = None) -> tuple | None:
        if key not in d:
            return default
        value = d[key]
        if not isinstance(value, list) or len(value) != size or not all(map(is_number, value)):
            self.fail(INVALID_TYPE, pointer_join(ptr, key), f"expected an array of {size} numbers")
        return tuple(map(float, value))

    def numbers(self, d: dict, key: str, ptr: str) -> tuple[float, ...] | None:
        if key not in d:
            return None
        value = d[key]
        if not isinstance(value, list) or not all(map(is_number, value)):
            self.fail(INVALID_TYPE, pointer_join(ptr, key), "expected an array of numbers")
        return tuple(float(v) for v in value)

    def indices(self, d: dict, key: str, ptr: str) -> tuple[int, ...] | None:
        if key not in d:
            return None
        value = d[key]
        if not isinstance(value, list) or not all(map(is_index, value)):
            self.fail(INVALID_TYPE, pointer_join(ptr, key), "expected an array of indices")
        return tuple(value)

    def strings(self, d: dict, key: str, ptr: str) -> tuple[str, ...] | None:
        if key not in d:
            return None
        value = d[key]
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            self.fail(INVALID_TYPE, pointer_join(ptr, key), "expected an array of strings")
        return tuple(value)

    def name(self, d: dict, ptr: str) -> str | None:
        return self.string(d, "name", ptr)

    def passthrough(
        self, d: dict, ptr: str, known: frozenset[str] | set[str], target: Passthrough | None = None
    ) -> Passthrough:
        """Fill ``extras``/``extensions``/``unknown`` of ``target`` from ``d``; keys in ``known`` are consumed
        (a set: most readers pass a module constant, checked against every object they read)."""
        target = target if target is not None else Passthrough()
        if known.issuperset(d) and "extras" not in d and "extensions" not in d:  # the usual object: nothing to keep
            if target.unknown:
                target.unknown = {}
            return target
        if "extras" in d:
            target.extras = d["extras"]
        if "extensions" in d:
            if isinstance(d["extensions"], dict):
                target.extensions = dict(d["extensions"])
            else:  # not worth dropping the whole object (or, at the root, the document) for
                self.report(
                    Severity.WARNING, IGNORED, pointer_join(ptr, "extensions"), "expected a JSON object; ignored"
                )
        target.unknown = {k: v for k, v in d.items() if k not in known and k != "extras" and k != "extensions"}
        return target

    def check_node(self, value: int | None, ptr: str, *path: str | int) -> None:
        """``value``, read at ``ptr`` + ``path``, names an existing node (the pointer is built for a failure only)."""
        if value is not None and value >= self.node_count:
            self.fail(UNRESOLVED, pointer_join(ptr, *path), f"node {value} does not exist ({self.node_count} nodes)")

    def check_mesh(self, value: int | None, ptr: str, *path: str | int) -> None:
        """``value``, read at ``ptr`` + ``path``, names an existing mesh (the pointer is built for a failure only)."""
        if value is not None and value >= self.mesh_count:
            self.fail(UNRESOLVED, pointer_join(ptr, *path), f"mesh {value} does not exist ({self.mesh_count} meshes)")


def remap(
    ctx: ReadContext, value: int | None, mapping: dict[int, int], dropped: set[int], ptr: str, key: str, what: str
) -> int | None:
    """Translate a source index (member ``key`` of the object at ``ptr``) into the model's index; a reference to a
    dropped or missing item drops the unit (the pointer is built for that report only)."""
    if value is None:
        return None
    if value in mapping:
        return mapping[value]
    here = pointer_join(ptr, key)
    if value in dropped:
        ctx.report(Severity.WARNING, DROPPED_REFERENCE, here, f"refers to {what} {value}, which was dropped")
        raise DropUnitError(here)
    ctx.fail(UNRESOLVED, here, f"{what} {value} does not exist")
    return None
