"""Put JSON values into an already written glTF in place of marker objects (bpy-free).

The export writes a short marker object ``{"<prefix><i>":0}`` where value ``i`` belongs; once the file is on disk,
``splice_text`` replaces every marker by value ``i``'s text, indented to the marker's depth, so the result is the
file the encoder would have written with the values themselves. ``splice_glb`` does the same inside a GLB's JSON
chunk (header and chunk lengths rebuilt, the BIN chunk copied unchanged). ``encode`` / ``encode_tab_indented``
write a value as ``json.dumps(value, indent=…, separators=(",", ":"), allow_nan=False)`` would (ASCII only).
"""

from __future__ import annotations

import json
import re
import struct
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

_STRING = json.encoder.encode_basestring_ascii
_COMPACT = json.JSONEncoder(separators=(",", ":"), allow_nan=False)
_INF = float("inf")
_SPACE = " \t\n\r"
_OBJECT_TAIL = re.compile(r'(\d+)"\s*:\s*0(\s*)\}')  # after '{' + whitespace + '"' + prefix
_ITEM_TAIL = re.compile(r'(\d+)"(?!\s*:)')  # a marker string that is not a key
_GLB_MAGIC = b"glTF"
_JSON_CHUNK = b"JSON"


class SpliceError(ValueError):
    """The file cannot take the values (not a glTF written with the markers, a broken GLB)."""


def compact(value) -> str:
    """``json.dumps(value, separators=(",", ":"), allow_nan=False)`` (the C encoder)."""
    return _COMPACT.encode(value)


def encode_tab_indented(value) -> str:
    """``json.dumps(value, indent="\\t", separators=(",", ":"), allow_nan=False)``, faster: flat lists of
    scalars go through the C encoder. Raises ``TypeError`` / ``ValueError`` as ``json.dumps`` would."""
    return _indented(value, "\n")


def encode_at(value, newline: str | None) -> str:
    """``value`` tab-indented as if its line starts after ``newline`` (``"\\n"`` + tabs), or compact (None)."""
    return _COMPACT.encode(value) if newline is None else _indented(value, newline)


def _indented(value, newline: str) -> str:
    if isinstance(value, str):
        return _STRING(value)
    if isinstance(value, dict):
        if not value:
            return "{}"
        inner = newline + "\t"
        items = []
        for key, item in value.items():
            if not isinstance(key, str):
                raise TypeError(f"key {key!r} is not a string")
            items.append(_STRING(key) + ":" + _indented(item, inner))
        return "{" + inner + ("," + inner).join(items) + newline + "}"
    if isinstance(value, list | tuple):
        if not value:
            return "[]"
        inner = newline + "\t"
        flat = _COMPACT.encode(value)
        if '"' not in flat and "[" not in flat[1:] and "{" not in flat:  # numbers, booleans, nulls only
            return "[" + inner + flat[1:-1].replace(",", "," + inner) + newline + "]"
        return "[" + inner + ("," + inner).join(_indented(item, inner) for item in value) + newline + "]"
    return _scalar(value)


def _scalar(value) -> str:
    if value is True:
        return "true"
    if value is False:
        return "false"
    if value is None:
        return "null"
    if isinstance(value, int):
        return int.__repr__(value)
    if isinstance(value, float):
        if value != value or value in (_INF, -_INF):
            raise ValueError(f"out of range float value: {value!r}")
        return float.__repr__(value)
    raise TypeError(f"Object of type {type(value).__name__} is not JSON serializable")


def encode(value, indent, separators: Sequence[str]) -> str:
    """The value as ``json.dumps`` writes it at depth 0 with this indent and these separators."""
    if indent == "\t" and tuple(separators) == (",", ":"):
        return encode_tab_indented(value)
    if indent is None and tuple(separators) == (",", ":"):
        return compact(value)
    return json.dumps(value, indent=indent, separators=tuple(separators), allow_nan=False)


@dataclass
class Markers:
    """Marker objects of one export: ``prefix`` is unique to the export (``nonce``)."""

    nonce: str
    count: int = 0

    @property
    def prefix(self) -> str:
        return f"gltf-physics-splice:{self.nonce}:"

    def new(self) -> tuple[int, dict]:
        """(index, marker object) for the next value."""
        index = self.count
        self.count += 1
        return index, {f"{self.prefix}{index}": 0}

    def new_string(self) -> tuple[int, str]:
        """(index, marker string) for the next value (an array item: cheaper for the exporter than an object)."""
        index = self.count
        self.count += 1
        return index, f"{self.prefix}{index}"


@dataclass
class SpliceResult:
    text: str
    found: list[int] = field(default_factory=list)  # times each marker was replaced
    leftover: bool = False  # the prefix is still in the text (a marker object was changed)

    @property
    def missing(self) -> list[int]:
        return [i for i, n in enumerate(self.found) if n == 0]

    @property
    def duplicated(self) -> list[int]:
        return [i for i, n in enumerate(self.found) if n > 1]


def splice_text(text: str, prefix: str, texts: Callable[[int], str] | Sequence[str]) -> SpliceResult:
    """Replace each marker object ``{"<prefix><i>":0}`` and each marker string ``"<prefix><i>"`` (an array item)
    of ``text`` by ``texts[i]`` (encoded at depth 0; every newline of it is followed by the marker's
    indentation)."""
    lookup = texts if callable(texts) else texts.__getitem__
    count = 0 if callable(texts) else len(texts)
    found = [0] * count
    needle = '"' + prefix
    pieces: list[str] = []
    done = 0  # text[:done] is in pieces
    start = text.find(needle)
    while start != -1:
        end = start + len(needle)
        left = start  # the whitespace before the marker string starts here
        while left > 0 and text[left - 1] in _SPACE:
            left -= 1
        obj = _OBJECT_TAIL.match(text, end) if left > 0 and text[left - 1] == "{" else None
        item = None if obj is not None else _ITEM_TAIL.match(text, end)
        if obj is not None or item is not None:
            match = obj if obj is not None else item
            index = int(match.group(1))
            if index >= len(found):
                found.extend([0] * (index + 1 - len(found)))
            found[index] += 1
            value = lookup(index)
            if obj is not None:  # the marker object {"…":0}: replaced from its "{" to its "}"
                closing = obj.group(2)  # "\n" + the marker's indentation, or "" (compact)
                pieces += [text[done : left - 1], value.replace("\n", closing) if "\n" in closing else value]
            else:  # a marker string: "\n" + its indentation before it, or nothing (compact)
                before = text[left:start]
                newline = before.rfind("\n")
                indent = before[newline:] if newline != -1 else ""
                pieces += [text[done:start], value.replace("\n", indent) if indent else value]
            done = match.end()
        start = text.find(needle, max(done, end))
    pieces.append(text[done:])
    out = "".join(pieces)
    return SpliceResult(out, found, prefix in out)


def replace_structurally(text: str, prefix: str, values: Sequence, indent, separators: Sequence[str]) -> str:
    """The slow, general path: parse ``text``, replace every marker string and every object holding a marker key by
    its value (a changed marker object included), encode
    the document again as the exporter does (``json.dumps``; same key order, numbers and escapes)."""

    def walk(item):
        if isinstance(item, str) and item.startswith(prefix):
            return values[int(item[len(prefix) :])]
        if isinstance(item, dict):
            for key in item:
                if isinstance(key, str) and key.startswith(prefix):
                    index = int(key[len(prefix) :])
                    return values[index]
            return {key: walk(sub) for key, sub in item.items()}
        if isinstance(item, list):
            return [walk(sub) for sub in item]
        return item

    document = walk(json.loads(text))
    return json.dumps(document, indent=indent, separators=tuple(separators), allow_nan=False)


def glb_json(data: bytes) -> tuple[str, bytes]:
    """(JSON text, the bytes after the JSON chunk) of a GLB; raises ``SpliceError`` when it is not one."""
    if len(data) < 20 or data[:4] != _GLB_MAGIC:
        raise SpliceError("not a GLB file")
    version, total = struct.unpack_from("<II", data, 4)
    length, kind = struct.unpack_from("<I4s", data, 12)
    if version != 2 or kind != _JSON_CHUNK or 20 + length > len(data) or total != len(data):
        raise SpliceError("GLB header or JSON chunk is not as written by the exporter")
    text = data[20 : 20 + length].decode("utf-8").rstrip(" ")
    return text, data[20 + length :]


def build_glb(text: str, rest: bytes) -> bytes:
    """A GLB from its JSON text (padded with spaces to 4 bytes) and the chunks after it, copied unchanged."""
    payload = text.encode("utf-8")
    payload += b" " * ((4 - (len(payload) & 3)) & 3)
    header = struct.pack("<4sII", _GLB_MAGIC, 2, 12 + 8 + len(payload) + len(rest))
    return header + struct.pack("<I4s", len(payload), _JSON_CHUNK) + payload + rest
