"""Loading and saving glTF containers without touching non-physics content (bpy-free).

* ``.gltf``: JSON; buffers/images referenced by relative URI are copied next to the output when it goes to another
  folder; data URIs stay inline.
* ``.glb``: the JSON chunk is rewritten, the BIN chunk and any other chunk are kept byte for byte (external URIs,
  if any, are handled as for ``.gltf``).

Resource URIs go through ``safe_files.safe_resource`` and every file is written with ``atomic.atomic_write*``: reuse
them in any command that writes glTF files or copies their resources.

Errors (unreadable file, bad GLB header, invalid JSON, JSON beyond ``MAX_JSON_DEPTH`` levels or with an integer
longer than Python reads: ``FILE_JSON_LIMIT``) raise ``PhysicsDataError`` carrying a diagnostic at pointer "".
"""

from __future__ import annotations

import json
import pathlib
import struct
import urllib.parse
from dataclasses import dataclass, field

from ..diagnostics import Diagnostic, PhysicsDataError, Severity, pointer
from .atomic import atomic_write_bytes
from .safe_files import (
    BLOCKING,
    NOT_COPIED,
    ResourceReadError,
    copy_resource,
    is_embedded,
    read_regular,
    safe_resource,
)

GLB_MAGIC = 0x46546C67  # "glTF"
CHUNK_JSON = 0x4E4F534A
CHUNK_BIN = 0x004E4942


@dataclass
class GltfFile:
    """A loaded glTF: its JSON, where it came from, and (GLB) the other chunks as (type, bytes)."""

    json: object
    path: pathlib.Path
    is_glb: bool = False
    chunks: list[tuple[int, bytes]] = field(default_factory=list)
    indent: int | None = 2


def _error(code: str, path: pathlib.Path, message: str) -> PhysicsDataError:
    return PhysicsDataError(Diagnostic(Severity.ERROR, code, "", f"{path}: {message}"))


#: Deepest JSON nesting read (glTF documents nest < 20 levels). Python's own reader fails near 1,000 levels and
#: deep copies and writers near 500; refusing here keeps every later step (migrate, save) inside the limits.
MAX_JSON_DEPTH = 400


def json_depth_exceeds(value: object, limit: int = MAX_JSON_DEPTH) -> bool:
    """True when ``value`` nests objects/arrays deeper than ``limit`` levels. Iterative, one level at a time (any
    depth is safe); its cost: docs/diagnostics.md."""
    level = [value] if type(value) is dict or type(value) is list else []
    depth = 0
    while level:
        depth += 1
        if depth > limit:
            return True
        deeper: list = []
        for item in level:
            children = item.values() if type(item) is dict else item
            deeper += [child for child in children if type(child) is dict or type(child) is list]
        level = deeper
    return False


def _decode_json(data: bytes, path: pathlib.Path) -> object:
    try:
        document = json.loads(data.decode("utf-8-sig"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise _error("FILE_INVALID_JSON", path, f"invalid JSON: {exc}") from exc
    except RecursionError as exc:  # nesting beyond Python's reader
        raise _error("FILE_JSON_LIMIT", path, f"JSON nested deeper than {MAX_JSON_DEPTH} levels") from exc
    except ValueError as exc:  # an integer longer than sys.get_int_max_str_digits() (4,300 digits)
        raise _error("FILE_JSON_LIMIT", path, f"JSON value not readable: {exc}") from exc
    if json_depth_exceeds(document):
        raise _error("FILE_JSON_LIMIT", path, f"JSON nested deeper than {MAX_JSON_DEPTH} levels")
    return document


def load(path: str | pathlib.Path) -> GltfFile:
    """Read a ``.gltf`` or ``.glb`` file (decided by the content's magic, not the name)."""
    path = pathlib.Path(path)
    try:
        data = read_regular(path)  # a FIFO or /dev/zero named *.gltf is refused, never read
    except ResourceReadError as exc:
        raise _error("FILE_UNREADABLE", path, str(exc)) from exc
    if len(data) >= 12 and struct.unpack_from("<I", data, 0)[0] == GLB_MAGIC:
        return _load_glb(data, path)
    text_json = _decode_json(data, path)
    return GltfFile(json=text_json, path=path, indent=2 if b"\n" in data.strip() else None)


def _load_glb(data: bytes, path: pathlib.Path) -> GltfFile:
    _magic, version, length = struct.unpack_from("<III", data, 0)
    if version != 2 or length > len(data):
        raise _error("GLB_INVALID_HEADER", path, f"unsupported GLB version {version} or truncated file")
    offset, document, chunks = 12, None, []
    while offset + 8 <= length:
        chunk_length, chunk_type = struct.unpack_from("<II", data, offset)
        body = data[offset + 8 : offset + 8 + chunk_length]
        if len(body) != chunk_length:
            raise _error("GLB_INVALID_CHUNK", path, "truncated chunk")
        if chunk_type == CHUNK_JSON and document is None:
            document = _decode_json(body, path)
        else:
            chunks.append((chunk_type, body))
        offset += 8 + chunk_length
    if document is None:
        raise _error("GLB_INVALID_CHUNK", path, "no JSON chunk")
    return GltfFile(json=document, path=path, is_glb=True, chunks=chunks, indent=None)


def _pad(data: bytes, fill: bytes) -> bytes:
    return data + fill * ((4 - len(data) % 4) % 4)


def _json_bytes(document: object, indent: int | None, separators: tuple[str, str] | None) -> bytes:
    """UTF-8 JSON; a lone UTF-16 surrogate (valid in JSON text, not encodable in UTF-8) is written as its
    ``\\uXXXX`` escape, so the file is valid UTF-8 and reads back to the same string."""
    text = json.dumps(document, ensure_ascii=False, indent=indent, separators=separators)
    return text.encode("utf-8", "backslashreplace")


def gltf_json_bytes(document: object) -> bytes:
    """A ``.gltf`` file's bytes: compact UTF-8 JSON and a newline (lone surrogates escaped)."""
    return _json_bytes(document, None, None) + b"\n"


def encode_glb(document: object, chunks: list[tuple[int, bytes]]) -> bytes:
    """A GLB byte string: the JSON chunk (space padded) followed by ``chunks`` (zero padded)."""
    body = _pad(_json_bytes(document, None, (",", ":")), b" ")
    parts = [struct.pack("<II", len(body), CHUNK_JSON), body]
    for chunk_type, chunk in chunks:
        padded = _pad(chunk, b"\0")
        parts += [struct.pack("<II", len(padded), chunk_type), padded]
    payload = b"".join(parts)
    return struct.pack("<III", GLB_MAGIC, 2, 12 + len(payload)) + payload


def resource_uris(document: object) -> list[tuple[str, str]]:
    """(JSON pointer, URI) of every URI of buffers and images that Blender opens as a file: all but the embedded
    ``data:…;base64,`` ones (``safe_files.is_embedded``). A URL or ``data:../x`` is listed: io_scene_gltf2 reads
    it as a path, so the path rule applies to it."""
    out = []
    if not isinstance(document, dict):
        return out
    for key in ("buffers", "images"):
        items = document.get(key)
        for index, item in enumerate(items if isinstance(items, list) else []):
            uri = item.get("uri") if isinstance(item, dict) else None
            if isinstance(uri, str) and not is_embedded(uri):
                out.append((pointer(key, index, "uri"), uri))
    return out


def relative_uris(document: object) -> list[str]:
    """URIs of buffers and images that name files (``resource_uris``)."""
    return [uri for _, uri in resource_uris(document)]


def resource_limit(document: object, where: str) -> int | None:
    """The most bytes the resource at ``where`` may have: a buffer's ``byteLength`` padded to 4 bytes (GLB and
    most writers pad); ``None`` for an image or a buffer without a usable ``byteLength`` (the validator's case)."""
    parts = where.split("/")
    if len(parts) != 4 or parts[1] != "buffers" or not isinstance(document, dict):
        return None
    buffers = document.get("buffers")
    index = int(parts[2])
    buffer = buffers[index] if isinstance(buffers, list) and index < len(buffers) else None
    length = buffer.get("byteLength") if isinstance(buffer, dict) else None
    if type(length) is not int or length < 0:
        return None
    return length + (-length) % 4


def _checked_resources(gltf_file: GltfFile, document: object, out_path: pathlib.Path):
    """(path, uri, pointer) of every usable resource and the ERROR diagnostics of the refused ones."""
    usable, refused = [], []
    for where, uri in resource_uris(document):
        found = safe_resource(gltf_file.path.parent, uri, where, max_bytes=resource_limit(document, where))
        if isinstance(found, Diagnostic):
            refused.append(found)
        elif (out_path.parent / urllib.parse.unquote(uri)).resolve() == out_path.resolve():
            refused.append(Diagnostic(Severity.ERROR, NOT_COPIED, where, f"resource {uri!r} would overwrite OUT"))
        else:
            usable.append((found, uri, where))
    return usable, refused


def save(gltf_file: GltfFile, document: object, out_path: str | pathlib.Path) -> list[Diagnostic]:
    """Write ``document`` in the container type of ``gltf_file`` to ``out_path``, atomically.

    Every resource URI is checked first with ``safe_resource`` (also when the folder does not change); if any is
    refused (outside the input's folder, not a regular file) nothing at all is written. Otherwise the resources
    are copied next to ``out_path`` when the folder changes (``copy_resource``: a differing stale file is replaced
    with a WARNING; a failed copy writes no output), then ``out_path`` is written last. A missing resource is an
    ERROR but does not stop the write. Returns the diagnostics (``safe_files.BLOCKING`` codes: nothing written);
    raises ``PhysicsDataError`` (``FILE_UNWRITABLE``) when the output cannot be encoded or written, leaving any
    previous ``out_path`` untouched."""
    out_path = pathlib.Path(out_path)
    try:
        if gltf_file.is_glb:
            data = encode_glb(document, gltf_file.chunks)
        else:
            data = _json_bytes(document, gltf_file.indent, None) + b"\n"
    except (TypeError, ValueError, RecursionError) as exc:
        raise _error("FILE_UNWRITABLE", out_path, f"cannot encode the document as JSON: {exc}") from exc
    usable, diags = _checked_resources(gltf_file, document, out_path)
    if any(d.code in BLOCKING for d in diags):
        return diags
    try:
        out_path.parent.mkdir(parents=True, exist_ok=True)
        dst_dir = out_path.parent
        if gltf_file.path.parent.resolve() != dst_dir.resolve():
            for source, uri, where in usable:
                diag = copy_resource(source, dst_dir, uri, where)
                diags += [diag] if diag else []
            if any(d.code in BLOCKING for d in diags):
                return diags
        atomic_write_bytes(out_path, data)
    except OSError as exc:
        raise _error("FILE_UNWRITABLE", out_path, str(exc)) from exc
    return diags
