"""The linked libraries a ``.blend`` names, read from its bytes without Blender (bpy-free).

``open_mainfile`` opens every library a file links while it reads the file, so a library that is a FIFO blocks it
and one outside IN is read before anything can refuse it. ``library_paths`` reads the paths first, on every
Blender release: the file is opened only when it is a regular file (``safe_files.open_regular``), then streamed
block by block; only the ``LI`` blocks (one ``Library`` each) and the ``DNA1`` block (the struct layouts that say
where a ``Library`` keeps its path) are kept, every other block is skipped unread (seeked over, or decompressed and
dropped), so memory stays bounded whatever the file's size.

The format (Blender's ``BLO_core_bhead.hh`` / ``writefile.cc``): a header (``BLENDER-v405``: ``-`` / ``_`` = 8- /
4-byte pointers, ``v`` / ``V`` = little / big endian; from Blender 5.0 ``BLENDER17-01v0500``: header size, pointer
size, file-format version, endianness, Blender version), then blocks, each a header (code, length, old pointer,
struct index, count; the 5.0 format's header has 64-bit lengths) and its bytes, up to ``ENDB``. The ``DNA1`` block
holds the names, types, type lengths and struct fields. A whole file may be compressed: zstd (Blender 3.0+, one or
more frames; the default from 5.0) or gzip (older Blender). zstd needs ``compression.zstd`` (Python 3.14+) or the
``zstandard`` module that Blender bundles and the ``bpy`` wheel requires; without either a compressed file raises
``NoDecompressorError`` and the caller guards another way (``blend_paths.library_problems``).
"""

from __future__ import annotations

import dataclasses
import gzip
import os
import struct
from typing import BinaryIO

from ..gltf.safe_files import open_regular

ZSTD_MAGIC = b"\x28\xb5\x2f\xfd"
GZIP_MAGIC = b"\x1f\x8b"
#: Bounds of what is kept: a ``Library`` is about 1.5 KB, a file's ``DNA1`` a few hundred KB.
MAX_LIBRARY_BLOCK = 1 << 20
MAX_DNA_BLOCK = 64 << 20
MAX_LIBRARIES = 10_000
_CHUNK = 1 << 20


class BlendReadError(ValueError):
    """The file is not a ``.blend`` this reader can parse (garbage, truncated, an unknown format)."""


class NoDecompressorError(BlendReadError):
    """The file is compressed with zstd and this Python has no zstd decompressor."""


@dataclasses.dataclass(frozen=True)
class Library:
    """One ``LI`` block: the path as written (``//`` = the file's folder) and whether its data is in the file."""

    path: str
    packed: bool


def _zstd_stdlib(file: BinaryIO) -> BinaryIO:
    from compression import zstd  # Python 3.14+

    return zstd.ZstdFile(file)


def _zstd_module(file: BinaryIO) -> BinaryIO:
    import zstandard  # bundled with Blender, required by the bpy wheel

    return zstandard.ZstdDecompressor().stream_reader(file, read_across_frames=True, closefd=False)


#: zstd readers tried in order; each raises ImportError when its module is missing.
ZSTD_READERS = (_zstd_stdlib, _zstd_module)


def _decompressed(file: BinaryIO, magic: bytes) -> BinaryIO | None:
    """A reader of the decompressed bytes of ``file``, or None when it is not compressed."""
    if magic.startswith(GZIP_MAGIC):
        return gzip.GzipFile(fileobj=file)
    if magic == ZSTD_MAGIC:
        for reader in ZSTD_READERS:
            try:
                return reader(file)
            except ImportError:
                continue
        raise NoDecompressorError("compressed with zstd, and this Python has no zstd decompressor")
    return None


class _Stream:
    """Exact reads and skips over a (possibly decompressing) stream."""

    def __init__(self, file: BinaryIO, seekable: bool):
        self.file, self.seekable = file, seekable

    def read(self, size: int) -> bytes:
        data = self.file.read(size)
        while len(data) < size:
            more = self.file.read(size - len(data))
            if not more:
                raise BlendReadError("truncated")
            data += more
        return data

    def skip(self, size: int) -> None:
        if self.seekable:
            self.file.seek(size, os.SEEK_CUR)
            return
        while size > 0:
            size -= len(self.read(min(size, _CHUNK)))


@dataclasses.dataclass(frozen=True)
class _Format:
    pointer: int
    endian: str
    large: bool  # the 5.0 file format: 64-bit block lengths

    def block_header(self, stream: _Stream) -> tuple[bytes, int, int]:
        """(code, struct index, length) of the next block."""
        if self.large:
            code, sdna, _, length, _ = struct.unpack(self.endian + "4siQqq", stream.read(32))
        elif self.pointer == 8:
            code, length, _, sdna, _ = struct.unpack(self.endian + "4siQii", stream.read(24))
        else:
            code, length, _, sdna, _ = struct.unpack(self.endian + "4siIii", stream.read(20))
        if length < 0:
            raise BlendReadError("a block with a negative length")
        return code, sdna, length


def _format(stream: _Stream) -> _Format:
    head = stream.read(12)
    if not head.startswith(b"BLENDER"):
        raise BlendReadError("not a .blend file")
    if head[7:9].isdigit():  # BLENDER17-01v0500
        size = int(head[7:9])
        head += stream.read(size - 12)
        if head[9:10] != b"-" or head[10:12] != b"01" or head[12:13] not in b"vV":
            raise BlendReadError(f"an unknown .blend header {head!r}")
        return _Format(8, "<" if head[12:13] == b"v" else ">", True)
    if head[7:8] not in b"-_" or head[8:9] not in b"vV":
        raise BlendReadError(f"an unknown .blend header {head!r}")
    return _Format(8 if head[7:8] == b"-" else 4, "<" if head[8:9] == b"v" else ">", False)


def _blocks(stream: _Stream) -> tuple[_Format, list[tuple[int, bytes]], bytes]:
    """The file's format, its ``LI`` blocks (struct index, bytes) and its ``DNA1`` block."""
    fmt = _format(stream)
    libraries: list[tuple[int, bytes]] = []
    dna = None
    while True:
        code, sdna, length = fmt.block_header(stream)
        if code == b"ENDB":
            break
        if code == b"LI\0\0":
            if length > MAX_LIBRARY_BLOCK or len(libraries) >= MAX_LIBRARIES:
                raise BlendReadError("a library block beyond this reader's bounds")
            libraries.append((sdna, stream.read(length)))
        elif code == b"DNA1":
            if length > MAX_DNA_BLOCK:
                raise BlendReadError("a DNA block beyond this reader's bounds")
            dna = stream.read(length)
        else:
            stream.skip(length)
    if dna is None:
        raise BlendReadError("no DNA block")
    return fmt, libraries, dna


def _strings(data: bytes, offset: int, tag: bytes, endian: str) -> tuple[list[str], int]:
    offset = (offset + 3) & ~3
    if data[offset : offset + 4] != tag:
        raise BlendReadError(f"no {tag.decode()} in the DNA block")
    (count,) = struct.unpack_from(endian + "i", data, offset + 4)
    offset += 8
    out = []
    for _ in range(count):
        end = data.index(b"\0", offset)
        out.append(data[offset:end].decode("latin-1"))
        offset = end + 1
    return out, offset


def _library_layout(dna: bytes, fmt: _Format) -> dict[int, tuple[int, int, list[int]]]:
    """Struct index of ``Library`` → (offset and length of its path, offsets of the pointers that say its data is
    in the file: ``*packedfile``, and from 5.0 ``*archive_parent_library``)."""
    if not dna.startswith(b"SDNA"):
        raise BlendReadError("no SDNA in the DNA block")
    e = fmt.endian
    names, offset = _strings(dna, 4, b"NAME", e)
    types, offset = _strings(dna, offset, b"TYPE", e)
    offset = (offset + 3) & ~3
    if dna[offset : offset + 4] != b"TLEN":
        raise BlendReadError("no TLEN in the DNA block")
    lengths = struct.unpack_from(f"{e}{len(types)}h", dna, offset + 4)
    offset = (offset + 4 + 2 * len(types) + 3) & ~3
    if dna[offset : offset + 4] != b"STRC":
        raise BlendReadError("no STRC in the DNA block")
    (count,) = struct.unpack_from(e + "i", dna, offset + 4)
    offset += 8
    layouts = {}
    for index in range(count):
        kind, fields = struct.unpack_from(e + "hh", dna, offset)
        pairs = struct.unpack_from(f"{e}{2 * fields}h", dna, offset + 4)
        offset += 4 + 4 * fields
        if types[kind] != "Library":
            continue
        position, path, packed = 0, None, []
        for field_type, field_name in zip(pairs[::2], pairs[1::2], strict=True):
            name = names[field_name]
            size = _field_size(name, lengths[field_type], fmt.pointer)
            bare = name.split("[")[0]
            if bare in ("name", "filepath") and name.endswith("]") and types[field_type] == "char":
                path = (position, size)
            elif bare in ("*packedfile", "*archive_parent_library"):
                packed.append(position)
            position += size
        if path is not None:
            layouts[index] = (*path, packed)
    return layouts


def _field_size(name: str, type_length: int, pointer: int) -> int:
    """Bytes of a struct field: a pointer (``*x``, ``(*x)()``) or its type, times its array dimensions."""
    size = pointer if name.startswith(("*", "(*")) else type_length
    for part in name.split("[")[1:]:
        size *= int(part.split("]")[0])
    return size


def library_paths(path: str | os.PathLike) -> list[Library]:
    """The libraries the ``.blend`` at ``path`` links (in file order), read without Blender.

    ``ResourceReadError`` when ``path`` is not a regular file or cannot be read, ``NoDecompressorError`` for a zstd file
    without a decompressor, ``BlendReadError`` when its bytes are not a ``.blend`` this reader parses."""
    with open_regular(path) as file:
        magic = file.read(4)
        file.seek(0)
        inner = _decompressed(file, magic)
        try:
            stream = _Stream(inner or file, seekable=inner is None)
            fmt, blocks, dna = _blocks(stream)
        except BlendReadError:
            raise
        except Exception as exc:  # a corrupt gzip or zstd stream (each module has its own error type)
            raise BlendReadError(f"unreadable ({exc})") from exc
        finally:
            if inner is not None:
                inner.close()
    try:
        layouts = _library_layout(dna, fmt)
    except (struct.error, IndexError, ValueError) as exc:
        raise BlendReadError(f"an unreadable DNA block ({exc})") from exc
    found = []
    for sdna, data in blocks:
        layout = layouts.get(sdna)
        if layout is None:
            continue
        start, size, pointers = layout
        raw = data[start : start + size].split(b"\0", 1)[0]
        packed = any(any(data[at : at + fmt.pointer]) for at in pointers)
        if raw:
            found.append(Library(os.fsdecode(raw), packed))
    return found
