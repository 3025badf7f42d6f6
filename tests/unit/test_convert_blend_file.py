"""``convert.blend_file`` without Blender: the library paths of ``.blend`` bytes written here, in each header form
and byte order, and the files it refuses (not regular, garbage, truncated, beyond its bounds, zstd without a
decompressor). The files Blender itself writes are read in
``tests/blender/convert/test_convert_blend_libraries.py``."""

from __future__ import annotations

import gzip
import os
import struct
import threading

import pytest

from testkit import submodule

blend_file = submodule("io.convert.blend_file")
ResourceReadError = submodule("io.gltf.safe_files").ResourceReadError


def _dna(endian: str, pointer: int, library_fields: list[tuple[str, str]]) -> bytes:
    """A DNA1 block: types ``char``, ``ID`` (24 bytes), ``PackedFile``, ``Library`` (with ``library_fields``)."""
    types = ["char", "ID", "PackedFile", "Library", "void"]
    lengths = [1, 24, 16, 0, 0]
    names: list[str] = []

    def name(text: str) -> int:
        if text not in names:
            names.append(text)
        return names.index(text)

    fields = [(types.index(kind), name(field)) for kind, field in library_fields]
    size = 0
    for kind, field in library_fields:
        size += blend_file._field_size(field, lengths[types.index(kind)], pointer)
    lengths[3] = size

    def strings(tag: bytes, items: list[str]) -> bytes:
        data = tag + struct.pack(endian + "i", len(items)) + b"".join(s.encode() + b"\0" for s in items)
        return data + b"\0" * (-len(data) % 4)

    out = b"SDNA" + strings(b"NAME", names) + strings(b"TYPE", types)
    tlen = b"TLEN" + struct.pack(f"{endian}{len(types)}h", *lengths)
    out += tlen + b"\0" * (-len(tlen) % 4)
    structs = struct.pack(endian + "hh", types.index("Library"), len(fields))
    structs += b"".join(struct.pack(endian + "hh", *pair) for pair in fields)
    return out + b"STRC" + struct.pack(endian + "i", 1) + structs, size


LIBRARY_FIELDS = [("ID", "id"), ("char", "name[1024]"), ("PackedFile", "*packedfile")]


def _blend(paths: list[bytes], endian: str = "<", pointer: int = 8, large: bool = False, packed=()) -> bytes:
    """A ``.blend`` with a ``REND`` block, one ``LI`` block per path, the DNA and ``ENDB``."""
    dna, size = _dna(endian, pointer, LIBRARY_FIELDS)
    order = "v" if endian == "<" else "V"
    if large:
        head = f"BLENDER17-01{order}0503".encode()
    else:
        head = f"BLENDER{'-' if pointer == 8 else '_'}{order}405".encode()

    def block(code: bytes, data: bytes, sdna: int = 0) -> bytes:
        if large:
            return struct.pack(endian + "4siQqq", code, sdna, 1, len(data), 1) + data
        ptr = "Q" if pointer == 8 else "I"
        return struct.pack(f"{endian}4si{ptr}ii", code, len(data), 1, sdna, 1) + data

    blocks = [block(b"REND", b"\x07" * 72)]
    for i, path in enumerate(paths):
        body = bytearray(size)
        body[24 : 24 + len(path)] = path
        if i in packed:
            body[24 + 1024 : 24 + 1024 + pointer] = b"\x01" * pointer
        blocks.append(block(b"LI\0\0", bytes(body)))
    blocks.append(block(b"DNA1", dna))
    blocks.append(block(b"ENDB", b""))
    return head + b"".join(blocks)


@pytest.mark.parametrize(
    ("endian", "pointer", "large"),
    [("<", 8, False), (">", 8, False), ("<", 4, False), (">", 4, False), ("<", 8, True), (">", 8, True)],
    ids=["le8", "be8", "le4", "be4", "5.0-le", "5.0-be"],
)
def test_library_paths_in_every_header_form_and_byte_order(tmp_path, endian, pointer, large):
    path = tmp_path / "scene.blend"
    path.write_bytes(_blend([b"//lib.blend", b"/abs/other.blend"], endian, pointer, large, packed={1}))
    assert blend_file.library_paths(path) == [
        blend_file.Library("//lib.blend", False),
        blend_file.Library("/abs/other.blend", True),
    ]


def test_a_gzip_blend_is_read(tmp_path):
    path = tmp_path / "old.blend"
    path.write_bytes(gzip.compress(_blend([b"//textures/../lib.blend"])))
    assert [library.path for library in blend_file.library_paths(path)] == ["//textures/../lib.blend"]


def test_a_zstd_blend_without_a_decompressor_says_so(tmp_path, monkeypatch):
    path = tmp_path / "new.blend"
    path.write_bytes(blend_file.ZSTD_MAGIC + b"\0" * 64)
    monkeypatch.setattr(blend_file, "ZSTD_READERS", ())
    with pytest.raises(blend_file.NoDecompressorError):
        blend_file.library_paths(path)


@pytest.mark.parametrize(
    "data",
    [b"", b"not a blend file at all", b"BLENDER-v405", b"BLENDER99-07v0503xxxxx", b"\x1f\x8bgarbage"],
    ids=["empty", "garbage", "no-blocks", "unknown-header", "bad-gzip"],
)
def test_bytes_that_are_not_a_blend_raise_blend_read_error(tmp_path, data):
    path = tmp_path / "x.blend"
    path.write_bytes(data)
    with pytest.raises(blend_file.BlendReadError):
        blend_file.library_paths(path)


def test_a_truncated_blend_and_one_without_dna_raise(tmp_path):
    whole = _blend([b"//lib.blend"])
    path = tmp_path / "x.blend"
    path.write_bytes(whole[: len(whole) // 2])
    with pytest.raises(blend_file.BlendReadError, match="truncated"):
        blend_file.library_paths(path)
    path.write_bytes(whole[: whole.index(b"DNA1")] + whole[-24:])  # ENDB right after the LI block
    with pytest.raises(blend_file.BlendReadError, match="no DNA"):
        blend_file.library_paths(path)


def test_a_library_block_beyond_the_bound_is_refused_unread(tmp_path):
    head = b"BLENDER-v405" + struct.pack("<4siQii", b"LI\0\0", blend_file.MAX_LIBRARY_BLOCK + 1, 1, 0, 1)
    path = tmp_path / "x.blend"
    path.write_bytes(head)  # its bytes are not even there: never read
    with pytest.raises(blend_file.BlendReadError, match="bounds"):
        blend_file.library_paths(path)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs are Unix")
def test_a_fifo_is_refused_without_blocking(tmp_path):
    fifo = tmp_path / "lib.blend"
    os.mkfifo(fifo)
    done = threading.Event()

    def unblock():  # a regression that opens the FIFO for reading fails instead of hanging
        if not done.wait(20):
            os.close(os.open(fifo, os.O_WRONLY))

    threading.Thread(target=unblock, daemon=True).start()
    try:
        with pytest.raises(ResourceReadError, match="not a regular file"):
            blend_file.library_paths(fifo)
    finally:
        done.set()
