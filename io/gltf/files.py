"""Loading and saving glTF containers without touching non-physics content (bpy-free).

* ``.gltf``: JSON; buffers/images referenced by relative URI are copied next to the output when it goes to another
  folder; data URIs stay inline.
* ``.glb``: the JSON chunk is rewritten, the BIN chunk and any other chunk are kept byte for byte.

Errors (unreadable file, bad GLB header, invalid JSON) raise ``PhysicsDataError`` carrying a diagnostic.
"""

from __future__ import annotations

import json
import pathlib
import shutil
import struct
import urllib.parse
from dataclasses import dataclass, field

from ..diagnostics import Diagnostic, PhysicsDataError, Severity

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


def _decode_json(data: bytes, path: pathlib.Path) -> object:
    try:
        return json.loads(data.decode("utf-8-sig"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise _error("FILE_INVALID_JSON", path, f"invalid JSON: {exc}") from exc


def load(path: str | pathlib.Path) -> GltfFile:
    """Read a ``.gltf`` or ``.glb`` file (decided by the content's magic, not the name)."""
    path = pathlib.Path(path)
    try:
        data = path.read_bytes()
    except OSError as exc:
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


def encode_glb(document: object, chunks: list[tuple[int, bytes]]) -> bytes:
    """A GLB byte string: the JSON chunk (space padded) followed by ``chunks`` (zero padded)."""
    body = _pad(json.dumps(document, ensure_ascii=False, separators=(",", ":")).encode("utf-8"), b" ")
    parts = [struct.pack("<II", len(body), CHUNK_JSON), body]
    for chunk_type, chunk in chunks:
        padded = _pad(chunk, b"\0")
        parts += [struct.pack("<II", len(padded), chunk_type), padded]
    payload = b"".join(parts)
    return struct.pack("<III", GLB_MAGIC, 2, 12 + len(payload)) + payload


def relative_uris(document: object) -> list[str]:
    """Relative (file) URIs of buffers and images; data URIs and absolute URLs are skipped."""
    out = []
    if not isinstance(document, dict):
        return out
    for key in ("buffers", "images"):
        items = document.get(key)
        for item in items if isinstance(items, list) else []:
            uri = item.get("uri") if isinstance(item, dict) else None
            if isinstance(uri, str) and not uri.startswith("data:") and "://" not in uri:
                out.append(uri)
    return out


def save(gltf_file: GltfFile, document: object, out_path: str | pathlib.Path) -> list[Diagnostic]:
    """Write ``document`` in the container type of ``gltf_file`` to ``out_path``; copies referenced files for
    ``.gltf`` when the folder changes.  Returns warnings for referenced files that could not be copied."""
    out_path = pathlib.Path(out_path)
    warnings: list[Diagnostic] = []
    try:
        out_path.parent.mkdir(parents=True, exist_ok=True)
        if gltf_file.is_glb:
            out_path.write_bytes(encode_glb(document, gltf_file.chunks))
            return warnings
        text = json.dumps(document, ensure_ascii=False, indent=gltf_file.indent)
        out_path.write_text(text + "\n", encoding="utf-8")
    except OSError as exc:
        raise _error("FILE_UNWRITABLE", out_path, str(exc)) from exc
    src_dir, dst_dir = gltf_file.path.resolve().parent, out_path.resolve().parent
    if src_dir == dst_dir:
        return warnings
    for uri in relative_uris(document):
        relative = urllib.parse.unquote(uri)
        source, target = src_dir / relative, dst_dir / relative
        if target.exists():
            continue
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(source, target)
        except OSError as exc:
            warnings.append(Diagnostic(Severity.WARNING, "FILE_RESOURCE_NOT_COPIED", "", f"{uri}: {exc}"))
    return warnings
