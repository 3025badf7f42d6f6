"""Diagnostics: every problem found in physics data, with a stable code and a JSON pointer."""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass, field

from .diagnostic_codes import REGISTRY, CodeInfo, Severity, loses_physics, severity_of

__all__ = ["REGISTRY", "CodeInfo", "Severity", "loses_physics", "severity_of"]  # the registry, for every layer

#: What never reaches a console, a log, an operator report or a Blender name raw: C0/C1 control characters (a
#: newline in a key would forge a line, ESC starts terminal sequences), lone UTF-16 surrogates (valid in JSON, not
#: encodable in UTF-8), line/paragraph separators and the bidirectional overrides (text shown reordered).
_UNPRINTABLE = re.compile(r"[\x00-\x1f\x7f-\x9f\ud800-\udfff\u2028\u2029\u202a-\u202e\u2066-\u2069]")
_NAMED = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}


def _escape(match: re.Match) -> str:
    char = match.group()
    named = _NAMED.get(char)
    if named is not None:
        return named
    code = ord(char)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def printable(text: object) -> str:
    """``text`` as one visible line safe for any UTF-8 sink: every character of ``_UNPRINTABLE`` is replaced by its
    Python escape (``\\n``, ``\\x1b``, ``\\ud800``). The one sanitiser of messages, logs, CLI output and Blender
    names; the original value stays in the data (JSON output and exports keep it)."""
    text = text if type(text) is str else str(text)
    return _UNPRINTABLE.sub(_escape, text) if _UNPRINTABLE.search(text) else text


def all_printable(texts: list[str]) -> bool:
    """True when ``printable`` would leave every string of ``texts`` unchanged (one regular-expression pass)."""
    return _UNPRINTABLE.search("".join(texts)) is None


def safe_streams() -> None:
    """Make ``sys.stdout`` / ``sys.stderr`` write any text on any console encoding (``PYTHONIOENCODING=ascii``,
    ``LANG=C`` with a pipe): characters the encoding lacks become backslash escapes instead of raising."""
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            reconfigure(errors="backslashreplace")


def internal_failure(what: str) -> str:
    """The message of a step or an object that raised (a bug of ours): one sentence saying what was left out, never
    Python's exception text (the caller logs the exception and its traceback to the console)."""
    return f"{what} failed on an internal error of glTF Physics and was left out (the error is in the console)"


@dataclass(frozen=True)
class Diagnostic:
    """One problem: ``pointer`` is an RFC 6901 JSON pointer into the glTF document.

    ``severity`` is the registered one of ``code`` (``diagnostic_codes.REGISTRY``) whatever the emitter passed:
    one severity per problem in every command; only a code the registry does not know keeps the one given."""

    severity: Severity
    code: str
    pointer: str
    message: str

    def __post_init__(self) -> None:
        info = REGISTRY.get(self.code)
        if info is not None and info.severity is not self.severity:
            object.__setattr__(self, "severity", info.severity)
        if type(self.pointer) is not str:  # a lazy ``JsonPointer`` (or any path object): its text, built now
            object.__setattr__(self, "pointer", str(self.pointer))

    def to_dict(self) -> dict:
        return {"severity": self.severity.label, "code": self.code, "pointer": self.pointer, "message": self.message}

    def __str__(self) -> str:
        text = f"{self.severity.label.upper()} {self.code} at {self.pointer or '/'}: {self.message}"
        return printable(text)


class PhysicsDataError(Exception):
    """The only exception type our parsers raise for bad input; carries its diagnostic."""

    def __init__(self, diagnostic: Diagnostic):
        super().__init__(str(diagnostic))
        self.diagnostic = diagnostic


@dataclass
class DiagnosticList:
    """Collects diagnostics while walking a document."""

    items: list[Diagnostic] = field(default_factory=list)

    def add(self, severity: Severity, code: str, pointer: str, message: str) -> Diagnostic:
        diag = Diagnostic(severity, code, pointer, message)
        self.items.append(diag)
        return diag

    def error(self, code: str, pointer: str, message: str) -> Diagnostic:
        return self.add(Severity.ERROR, code, pointer, message)

    def warning(self, code: str, pointer: str, message: str) -> Diagnostic:
        return self.add(Severity.WARNING, code, pointer, message)

    def info(self, code: str, pointer: str, message: str) -> Diagnostic:
        return self.add(Severity.INFO, code, pointer, message)

    def extend(self, other: DiagnosticList | list[Diagnostic]) -> None:
        self.items.extend(other.items if isinstance(other, DiagnosticList) else other)

    def __iter__(self):
        return iter(self.items)

    def __len__(self) -> int:
        return len(self.items)


#: Escaped ``"/" + key`` of the string parts seen so far (keys repeat in every node of large files); bounded.
_SEGMENTS: dict[str, str] = {}


def _segment(part: object) -> str:
    text = part if type(part) is str else str(part)
    segment = "/" + text.replace("~", "~0").replace("/", "~1")
    if type(part) is str and len(_SEGMENTS) < 4096:
        _SEGMENTS[part] = segment
    return segment


def pointer(*parts: object) -> str:
    """Build a JSON pointer from path parts, escaping ``~`` and ``/`` (RFC 6901)."""
    out = ""
    for part in parts:  # the validator and readers call this for every value they check: kept cheap
        if type(part) is int:
            out += "/" + str(part)
        else:
            segment = _SEGMENTS.get(part) if type(part) is str else None
            out += segment if segment is not None else _segment(part)
    return out


class JsonPointer:
    """A JSON pointer built only when it is read: ``base`` (a pointer string or another ``JsonPointer``) + ``parts``.

    The validator and the readers need a pointer for every value they check but report only a few (docs/perf-history.md,
    "Lazy JSON pointers"). ``str()`` gives the same text ``base + pointer(*parts)`` would (cached); a ``Diagnostic``
    stores that text, never this object.
    """

    __slots__ = ("_base", "_parts", "_text")

    def __init__(self, base: str | JsonPointer, *parts: object):
        self._base = base
        self._parts = parts
        self._text: str | None = None

    def __str__(self) -> str:
        text = self._text
        if text is None:
            text = self._text = str(self._base) + pointer(*self._parts)
        return text

    def __repr__(self) -> str:
        return f"JsonPointer({str(self)!r})"

    def __eq__(self, other: object) -> bool:
        if isinstance(other, JsonPointer | str):
            return str(self) == str(other)
        return NotImplemented

    def __hash__(self) -> int:
        return hash(str(self))

    def __add__(self, other: str) -> str:
        return str(self) + other

    def startswith(self, prefix: str) -> bool:
        return str(self).startswith(prefix)


#: ``pointer_join(base, *parts)``: ``base`` + the escaped ``parts``, built lazily (the class itself, not a function
#: returning one: a call less on the validator's hottest path).
pointer_join = JsonPointer


#: Code of a report value that was not a finite number (``inf`` / ``nan``, e.g. Bullet overflowing float32): JSON
#: has no such numbers, so it is written as ``null`` and named in a WARNING.
NON_FINITE = "REPORT_NON_FINITE"


def finite_json(value: object, where: str = "") -> tuple[object, list[str]]:
    """A copy of ``value`` (dicts, lists, tuples, scalars of a report) with every non-finite float as ``None``, and
    the JSON pointers of those values. Every JSON file a command writes goes through it, then ``json.dumps(...,
    allow_nan=False)``: ``Infinity`` and ``NaN`` are not JSON, and other tools refuse the whole file."""
    found: list[str] = []

    def clean(item: object, at: str) -> object:
        if isinstance(item, float):
            if item != item or item in (float("inf"), float("-inf")):
                found.append(at)
                return None
            return item
        if isinstance(item, dict):
            return {key: clean(child, at + pointer(str(key))) for key, child in item.items()}
        if isinstance(item, list | tuple):
            return [clean(child, at + pointer(index)) for index, child in enumerate(item)]
        return item

    return clean(value, where), found


def strict_json_text(value: object, indent: int | None = 2) -> tuple[str, list[str]]:
    """``value`` as strict JSON text (non-finite numbers as ``null``, ``finite_json``) and their pointers."""
    import json

    cleaned, found = finite_json(value)
    return json.dumps(cleaned, indent=indent, allow_nan=False), found
