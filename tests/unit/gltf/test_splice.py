"""Marker splicing (``io.gltf.splice``) gives exactly the text ``json.dumps`` writes for the whole document, in .gltf
(tab-indented, any depth) and GLB (compact; header, chunk lengths and padding rebuilt, BIN chunk unchanged); the
fix-up copies (``io.gltf.addon_fixups``) follow io_scene_gltf2's rules (compared with the real passes in
tests/blender/exporter/test_export_splice.py)."""

from __future__ import annotations

import json
import random
import struct

import pytest

from testkit import submodule

splice = submodule("io.gltf.splice")
fixups = submodule("io.gltf.addon_fixups")

TAB = {"indent": "\t", "separators": (",", ":"), "allow_nan": False}
COMPACT = {"separators": (",", ":"), "allow_nan": False}
AWKWARD = [
    {"s": 'a{b}"c",[d]:\\e', "u": "é漢\U0001f600\ud800", "n": None, "e": {}, "l": [], "t": True},
    [[], {}, [[1, 2.5], {"x": -0.0}], 1e300, -3, 0.1],
    {"deep": {"er": {"est": [{"k": [1, [2, [3, "}"]]]}]}}},
    "plain string",
    7,
]


def _with_markers(values):
    """A document with each value somewhere else (node extension, array item, root extension, deep) and the same
    document holding marker objects (a marker string for the array item) instead; the markers."""
    markers = splice.Markers("0123abcd")
    objs = [(markers.new_string() if i == 1 else markers.new())[1] for i in range(len(values))]  # 1: array item

    def doc(v):
        return {
            "asset": {"version": "2.0"},
            "extensions": {"EXT_root": v[0]},
            "nodes": [{"name": "a"}, v[1], {"extensions": {"EXT_n": v[2], "other": {"x": 1}}}],
            "deep": {"a": {"b": {"c": [v[3], {"d": v[4]}]}}},
        }

    return doc(values), doc(objs), markers


@pytest.mark.parametrize("layout", [TAB, COMPACT, {"indent": 2, "separators": (", ", ": ")}])
def test_markers_at_any_depth_give_the_dumped_text(layout):
    values = [{"wrapped": v} if not isinstance(v, dict) else v for v in AWKWARD]
    full, marked, markers = _with_markers(values)
    text = json.dumps(marked, **layout)
    texts = [splice.encode(v, layout.get("indent"), layout["separators"]) for v in values]
    result = splice.splice_text(text, markers.prefix, texts)
    assert result.text == json.dumps(full, **layout)
    assert result.found == [1] * len(values) and not result.missing and not result.leftover


def test_tab_encoder_equals_json_dumps_on_random_values():
    rng = random.Random(3)

    def value(depth):
        pick = rng.random()
        if depth > 4 or pick < 0.4:
            return rng.choice([None, True, False, 0, -1, 2.5, 1e-7, 1.0, "x", 'q"{', [], {}, (1, 2.0)])
        if pick < 0.7:
            return [value(depth + 1) for _ in range(rng.randrange(5))]
        return {f"k{rng.randrange(9)}": value(depth + 1) for _ in range(rng.randrange(5))}

    for _ in range(2000):
        v = value(0)
        assert splice.encode_tab_indented(v) == json.dumps(v, **TAB)
        assert splice.compact(v) == json.dumps(v, **COMPACT)


def test_encoders_refuse_what_json_refuses():
    with pytest.raises(ValueError):
        splice.encode_tab_indented({"a": [float("nan")]})
    with pytest.raises(ValueError):
        splice.encode_tab_indented({"a": float("inf")})
    with pytest.raises(TypeError):
        splice.encode_tab_indented({"a": object()})
    with pytest.raises(TypeError):
        splice.encode_tab_indented({1: 2})


def test_missing_duplicated_and_changed_markers_are_reported():
    markers = splice.Markers("ff")
    m0, m1, m2 = (markers.new()[1] for _ in range(3))
    text = json.dumps({"a": m0, "b": [m0], "c": {**m2, "extra": 1}, "d": [markers.prefix + "0"]}, **TAB)
    result = splice.splice_text(text, markers.prefix, ["{}", "{}", "{}"])
    assert result.missing == [1, 2] and result.duplicated == [0] and result.leftover  # 2 was changed
    fixed = splice.replace_structurally(text, markers.prefix, [{"v": 0}, {"v": 1}, {"v": 2}], "\t", (",", ":"))
    assert fixed == json.dumps({"a": {"v": 0}, "b": [{"v": 0}], "c": {"v": 2}, "d": [{"v": 0}]}, **TAB)
    assert markers.prefix not in fixed


def _glb(text: str, binary: bytes) -> bytes:
    """What io_scene_gltf2's save_gltf writes."""
    data = text.encode()
    pad = (4 - (len(data) & 3)) & 3
    bin_pad = (4 - (len(binary) & 3)) & 3
    length = 12 + 8 + len(data) + pad + ((8 + len(binary) + bin_pad) if binary else 0)
    out = b"glTF" + struct.pack("<II", 2, length) + struct.pack("<I", len(data) + pad) + b"JSON" + data + b" " * pad
    if binary:
        out += struct.pack("<I", len(binary) + bin_pad) + b"BIN\0" + binary + b"\0" * bin_pad
    return out


@pytest.mark.parametrize("binary", [b"", b"\x01\x02\x03", b"\x00" * 8, bytes(range(7))])
@pytest.mark.parametrize("extra", ["", "a", "ab", "abc"])
def test_glb_rebuilt_with_lengths_and_padding(binary, extra):
    values = [{"name": "x" + extra, "v": [1, 2.5]}, {"q": '"}'}, 3, "s", [1]]
    full, marked, markers = _with_markers(values)
    marked_glb = _glb(json.dumps(marked, **COMPACT), binary)
    text, rest = splice.glb_json(marked_glb)
    result = splice.splice_text(text, markers.prefix, [splice.compact(v) for v in values])
    assert splice.build_glb(result.text, rest) == _glb(json.dumps(full, **COMPACT), binary)


def test_not_a_glb():
    with pytest.raises(splice.SpliceError):
        splice.glb_json(b"{}")
    good = _glb("{}", b"\x01")
    with pytest.raises(splice.SpliceError):
        splice.glb_json(good[:-1])  # total length no longer matches


def test_fused_fixup_encoder_equals_fixup_then_dumps():
    rng = random.Random(5)

    def value(depth):
        pick = rng.random()
        if depth > 4 or pick < 0.4:
            return rng.choice([None, True, 0, -1, 2.5, 1.0, -0.0, 1e20, "x", [], {}, (1.0, 2), [1.0, None, 2.5]])
        if pick < 0.7:
            return [value(depth + 1) for _ in range(rng.randrange(5))]
        keys = ["a", "b", "extras", "extensions", "c"]
        return {rng.choice(keys): value(depth + 1) for _ in range(rng.randrange(5))}

    for _ in range(3000):
        v = {"v": value(0)}
        fixed = fixups.as_exported(v)
        assert fixups.encode_as_exported(v, True) == json.dumps(fixed, **TAB)
        assert fixups.encode_as_exported(v, False) == json.dumps(fixed, **COMPACT)


def test_fixups_follow_io_scene_gltf2_rules():
    value = {"a": 1.0, "b": 2.5, "n": None, "e": {}, "l": [], "x": {"extras": None}, "extras": {"k": 1.0, "z": None}}
    assert fixups.as_exported(value) == {"a": 1, "b": 2.5, "extras": {"k": 1.0, "z": None}}
    assert fixups.as_exported({"o": {"p": {"q": None}}}) == {"o": {}}  # the second pass drops only one level
    assert fixups.as_exported([None, 1.0, {}, (1.0,)]) == [None, 1, {}, (1.0,)]  # list items kept; tuples as is
    with pytest.raises(fixups.UnspliceableError):
        fixups.as_exported({"KHR_materials_unlit": {}})  # io_scene_gltf2 keeps this one empty
    with pytest.raises(fixups.UnspliceableError):
        fixups.checked_extension({"only": None})
    node = {"translation": [1, 2.5, 0], "name": "n", "unknown": 1, "rotation": [0, 0, 0, 1], "children": [3]}
    assert list(fixups.node_as_exported(node).items()) == [
        ("children", [3]),
        ("name", "n"),
        ("rotation", [0, 0, 0, 1]),
        ("translation", [1, 2.5, 0]),
    ]
    with pytest.raises(fixups.UnspliceableError):
        fixups.node_as_exported({"translation": (1, 2, 3)})  # Node.from_dict asserts a list
