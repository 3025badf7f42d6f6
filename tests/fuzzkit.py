"""A seeded mutation engine for the physics JSON of glTF files (issue 11, item 11); imported like ``testkit``.

Seeds: every fixture under ``tests/fixtures/**`` that holds physics, and a deterministic sample of the corpus
(``../shared/corpus``, read in place, none when absent; external buffers/images inlined as ``data:`` URIs so a
mutated copy written anywhere still loads). ``cases(n, seed)`` yields ``Case`` objects, each one mutation (or, for
one case in four, a stack of several) applied to the physics part of one seed only: root physics extensions and
node physics extensions. The non-physics part of a case is never touched, so stripping physics from a case gives
the seed's non-physics scene.

Mutation classes (``MUTATIONS``): type swaps, out-of-range and negative indices, huge / NaN / infinite / negative
numbers, deleted keys, empty containers, duplicated list items, wrong axes, self references, long arrays, deep
extras, unicode strings (lone surrogates, control characters, bidi overrides), removed root extensions, whole
extension objects of the wrong type.

Certainly invalid (``Case.invalid``; the validator must report at least one ERROR whose pointer is the mutated
value, its container, or inside it): a single mutation of a KHR member, of one of these classes —
  * ``index_out_of_range``: an integer index member (shape, node, mesh, skin, physicsMaterial, collisionFilter,
    connectedNode, joint, trigger nodes[i]) set to 1,000,000;
  * ``negative_index``: the same members set to -7 (OMI uses -1 for "none", so OMI is not counted);
  * ``index_type_swap``: the same members given a string, an object or a boolean;
  * ``negative_size``: a member whose schema minimum is 0 (mass, friction, restitution, radius, height, size
    components) set to a negative number;
  * ``axis_out_of_range``: a drive ``axis`` or an entry of ``linearAxes`` / ``angularAxes`` set to 3 or -1;
  * ``delete_required``: a required member deleted (a shape's ``type``; a drive's ``type``, ``mode``, ``axis``; a
    node joint's ``connectedNode`` and ``joint``).
Every other class may or may not be valid; for those only "no crash, valid JSON out, scene intact" is checked.
"""

from __future__ import annotations

import base64
import dataclasses
import json
import math
import os
import pathlib
import random
import urllib.parse
from collections.abc import Iterator

from testkit import CORPUS, FIXTURES

PHYSICS = (
    "KHR_physics_rigid_bodies",
    "KHR_implicit_shapes",
    "KHR_collision_shapes",
    "OMI_physics_body",
    "OMI_physics_shape",
    "OMI_physics_joint",
    "OMI_collider",
)
INDEX_KEYS = {"shape", "node", "mesh", "skin", "physicsMaterial", "collisionFilter", "connectedNode", "joint"}
NON_NEGATIVE = {
    "mass",
    "staticFriction",
    "dynamicFriction",
    "restitution",
    "radius",
    "radiusTop",
    "radiusBottom",
    "height",
    "sizeX",
    "sizeZ",
}
REQUIRED = {  # container kind → required members (KHR)
    "shape": ("type",),
    "drive": ("type", "mode", "axis"),
    "node_joint": ("connectedNode", "joint"),
}
UNICODE = ["\ud800", "a\udfffb", "line\nbreak\r\x00", "\x1b[31mred\x1b[0m", "\u202eevil", "é\u0301😀", "\ufeff", ""]
CERTAIN = {"index_out_of_range", "negative_index", "index_type_swap", "negative_size", "axis_out_of_range"}
CERTAIN_DELETE = "delete_required"
FUZZ_SEED = int(os.environ.get("GLTF_PHYSICS_FUZZ_SEED", "0") or 0)


def budget(default: int) -> int:
    """Cases to run: GLTF_PHYSICS_FUZZ_CASES when set, else the tier's default."""
    return int(os.environ.get("GLTF_PHYSICS_FUZZ_CASES", "") or default)


CORPUS_SAMPLE = 16  # corpus seeds (deterministic sample)
INLINE_LIMIT = 1_000_000  # bytes of external resources a corpus seed may inline


@dataclasses.dataclass
class Case:
    name: str
    seed_name: str
    doc: dict
    mutations: list[str]
    pointer: str  # of the (first) mutation
    invalid: bool  # certainly invalid per the schema (see the module docstring)


def escape(token: object) -> str:
    return str(token).replace("~", "~0").replace("/", "~1")


def json_copy(value):
    """A deep copy through JSON text (copy.deepcopy recurses in Python and fails on deep extras)."""
    return json.loads(json.dumps(value))


def finite(doc: object) -> bool:
    """Whether ``doc`` is JSON (no NaN / Infinity, which io_scene_gltf2 refuses before any hook runs)."""
    try:
        json.dumps(doc, allow_nan=False)
    except ValueError:
        return False
    return True


FLOAT32_MAX = 3.4028234663852886e38


def float32_overflow(doc: object) -> bool:
    """Whether ``doc`` holds a finite number that does not fit a 32-bit float (issue 11, item 7)."""
    stack = [doc]
    while stack:
        value = stack.pop()
        if isinstance(value, float | int) and not isinstance(value, bool):
            if FLOAT32_MAX < abs(value) < math.inf:
                return True
        elif isinstance(value, dict | list):
            stack.extend(value.values() if isinstance(value, dict) else value)
    return False


def extension_objects(doc: dict) -> bool:
    """Whether every physics extension value (root and nodes) is a JSON object, which io_scene_gltf2 requires of
    every extension before any hook runs (``gltf2_io.from_extension``: "Couldn't parse glTF")."""
    holders = [doc, *[n for n in doc.get("nodes") or [] if isinstance(n, dict)]]
    for holder in holders:
        exts = holder.get("extensions")
        if isinstance(exts, dict) and any(not isinstance(exts[name], dict) for name in PHYSICS if name in exts):
            return False
    return True


def depth(doc: object) -> int:
    """Nesting depth of a JSON value (iterative)."""
    deepest, stack = 0, [(doc, 1)]
    while stack:
        value, level = stack.pop()
        deepest = max(deepest, level)
        children = value.values() if isinstance(value, dict) else value if isinstance(value, list) else ()
        stack.extend((child, level + 1) for child in children)
    return deepest


def strict_json(text: str) -> object:
    """json.loads that rejects NaN / Infinity / -Infinity (not JSON)."""

    def reject(constant: str):
        raise ValueError(f"non-JSON constant {constant}")

    return json.loads(text, parse_constant=reject)


def has_physics(doc: object) -> bool:
    if not isinstance(doc, dict):
        return False
    if any(name in (doc.get("extensions") or {}) for name in PHYSICS):
        return True
    return any(
        isinstance(n, dict) and any(k in (n.get("extensions") or {}) for k in PHYSICS) for n in doc.get("nodes", [])
    )


def strip_physics(doc: dict) -> dict:
    """A copy without any physics extension (root, nodes, extension lists): the non-physics scene of a case."""
    out = json_copy(doc)
    for holder in [out, *[n for n in out.get("nodes") or [] if isinstance(n, dict)]]:
        exts = holder.get("extensions")
        if isinstance(exts, dict):
            for name in PHYSICS:
                exts.pop(name, None)
    for key in ("extensionsUsed", "extensionsRequired"):
        if isinstance(out.get(key), list):
            out[key] = [name for name in out[key] if name not in PHYSICS]
    return out


def _inline(doc: dict, folder: pathlib.Path) -> dict | None:
    """External buffer/image URIs as data: URIs (None when missing, unsafe or too large)."""
    total = 0
    for key in ("buffers", "images"):
        for item in doc.get(key) or []:
            uri = item.get("uri") if isinstance(item, dict) else None
            if not isinstance(uri, str) or uri.startswith("data:"):
                continue
            path = (folder / urllib.parse.unquote(uri)).resolve()
            if not path.is_file() or not path.is_relative_to(folder.resolve()):
                return None
            total += path.stat().st_size
            if total > INLINE_LIMIT:
                return None
            item["uri"] = "data:application/octet-stream;base64," + base64.b64encode(path.read_bytes()).decode()
    return doc


def fixture_seeds() -> list[tuple[str, dict]]:
    out = []
    for path in sorted(FIXTURES.rglob("*.gltf")):
        try:
            doc = json.loads(path.read_text(encoding="utf-8"))
        except ValueError:  # fixtures of malformed files (e.g. check/not_json.gltf): nothing to mutate
            continue
        if isinstance(doc, dict) and has_physics(doc):
            out.append((str(path.relative_to(FIXTURES)), doc))
    return out


def corpus_seeds(count: int = CORPUS_SAMPLE) -> list[tuple[str, dict]]:
    """A deterministic sample of the corpus's .gltf files with physics; [] when the corpus is absent."""
    if not CORPUS.is_dir():
        return []
    files = sorted(CORPUS.rglob("*.gltf"))
    random.Random("fuzz-corpus").shuffle(files)
    out = []
    for path in files:
        if len(out) >= count:
            break
        try:
            doc = json.loads(path.read_text(encoding="utf-8"))
        except (ValueError, UnicodeDecodeError):
            continue
        if has_physics(doc) and _inline(doc, path.parent) is not None:
            out.append(("corpus:" + str(path.relative_to(CORPUS)), doc))
    return out


def seeds() -> list[tuple[str, dict]]:
    return fixture_seeds() + corpus_seeds()


# ------------------------------------------------------------------------------------------- physics locations


@dataclasses.dataclass
class Spot:
    """One value inside a physics extension: ``parent[key]``, its pointer, and where it sits."""

    parent: dict | list
    key: str | int
    pointer: str
    khr: bool
    kind: str  # kind of the parent container ("shape", "drive", "node_joint", "nodes", "" …)


def _walk(value, pointer: str, khr: bool, kind: str, out: list[Spot]) -> None:
    items = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
    for key, child in items:
        ptr = f"{pointer}/{escape(key)}"
        out.append(Spot(value, key, ptr, khr, kind))
        if key in ("shapes", "drives", "physicsJoints", "physicsMaterials", "collisionFilters", "limits"):
            child_kind = {"shapes": "shape", "drives": "drive"}.get(key, key)
            for i, item in enumerate(child if isinstance(child, list) else []):
                out.append(Spot(child, i, f"{ptr}/{i}", khr, key))
                _walk(item, f"{ptr}/{i}", khr, child_kind, out)
        elif key == "joint" and isinstance(child, dict) and kind == "node_ext":
            _walk(child, ptr, khr, "node_joint", out)
        elif key in ("extras", "extensions") and kind != "root":
            continue  # passthrough: anything goes
        else:
            _walk(child, ptr, khr, key if isinstance(key, str) else kind, out)


def spots(doc: dict) -> list[Spot]:
    out: list[Spot] = []
    root = doc.get("extensions") or {}
    for name in PHYSICS:
        if name in root:
            _walk(root[name], f"/extensions/{name}", name.startswith("KHR"), "root", out)
    for i, node in enumerate(doc.get("nodes") or []):
        for name in PHYSICS:
            ext = (node.get("extensions") or {}).get(name) if isinstance(node, dict) else None
            if ext is not None:
                _walk(ext, f"/nodes/{i}/extensions/{name}", name.startswith("KHR"), "node_ext", out)
    return out


def _is_index(spot: Spot) -> bool:
    value = spot.parent[spot.key]
    if isinstance(value, bool) or not isinstance(value, int):
        return False
    return spot.key in INDEX_KEYS or (spot.kind == "nodes" and isinstance(spot.parent, list))


def _node_of(pointer: str) -> int | None:
    parts = pointer.split("/")
    return int(parts[2]) if len(parts) > 2 and parts[1] == "nodes" else None


# ------------------------------------------------------------------------------------------------- mutations


def _pick(rng: random.Random, found: list[Spot], test) -> Spot | None:
    chosen = [s for s in found if test(s)]
    return rng.choice(chosen) if chosen else None


def _other_type(value: object, rng: random.Random) -> object:
    options = [None, True, 0, -1.5, "x", [], {}, [value], {"v": value}]
    return rng.choice([o for o in options if type(o) is not type(value)])


def m_type_swap(doc, rng, found):
    spot = _pick(rng, found, lambda s: True)
    if spot is None:
        return None
    spot.parent[spot.key] = _other_type(spot.parent[spot.key], rng)
    return spot.pointer, False


def m_index_out_of_range(doc, rng, found):
    spot = _pick(rng, found, _is_index)
    if spot is None:
        return None
    spot.parent[spot.key] = 1_000_000
    return spot.pointer, spot.khr


def m_negative_index(doc, rng, found):
    spot = _pick(rng, found, _is_index)
    if spot is None:
        return None
    spot.parent[spot.key] = -7
    return spot.pointer, spot.khr


def m_index_type_swap(doc, rng, found):
    spot = _pick(rng, found, _is_index)
    if spot is None:
        return None
    spot.parent[spot.key] = rng.choice(["0", {"index": 0}, True, [0]])
    return spot.pointer, spot.khr


def _numbers(s: Spot) -> bool:
    value = s.parent[s.key]
    return isinstance(value, int | float) and not isinstance(value, bool)


def m_weird_number(doc, rng, found):
    spot = _pick(rng, found, _numbers)
    if spot is None:
        return None
    spot.parent[spot.key] = rng.choice([1e308, -1e308, 1e39, 3.5e38, 1e-320, math.nan, math.inf, -math.inf, 2**70])
    return spot.pointer, False


def m_negative_size(doc, rng, found):
    spot = _pick(rng, found, lambda s: _numbers(s) and s.key in NON_NEGATIVE)
    if spot is None:
        return None
    spot.parent[spot.key] = -abs(spot.parent[spot.key]) - 0.5
    return spot.pointer, spot.khr


def m_delete(doc, rng, found):
    spot = _pick(rng, found, lambda s: isinstance(s.parent, dict))
    if spot is None:
        return None
    del spot.parent[spot.key]
    return spot.pointer, False


def m_delete_required(doc, rng, found):
    spot = _pick(rng, found, lambda s: s.key in REQUIRED.get(s.kind, ()) and isinstance(s.parent, dict))
    if spot is None:
        return None
    del spot.parent[spot.key]
    return spot.pointer.rsplit("/", 1)[0], spot.khr


def m_empty(doc, rng, found):
    spot = _pick(rng, found, lambda s: isinstance(s.parent[s.key], dict | list))
    if spot is None:
        return None
    spot.parent[spot.key] = type(spot.parent[spot.key])()
    return spot.pointer, False


def m_duplicate(doc, rng, found):
    spot = _pick(rng, found, lambda s: isinstance(s.parent[s.key], list) and s.parent[s.key])
    if spot is None:
        return None
    items = spot.parent[spot.key]
    items.insert(rng.randrange(len(items) + 1), json_copy(rng.choice(items)))
    return spot.pointer, False


def m_axis(doc, rng, found):
    spot = _pick(rng, found, lambda s: s.key == "axis" or (s.kind in ("linearAxes", "angularAxes") and _numbers(s)))
    if spot is None:
        return None
    spot.parent[spot.key] = rng.choice([3, -1])
    return spot.pointer, spot.khr


def m_self_reference(doc, rng, found):
    spot = _pick(rng, found, lambda s: _is_index(s) and (s.key in ("node", "connectedNode") or s.kind == "nodes"))
    if spot is None or _node_of(spot.pointer) is None:
        return None
    spot.parent[spot.key] = _node_of(spot.pointer)
    return spot.pointer, False


def m_long_array(doc, rng, found):
    spot = _pick(rng, found, lambda s: isinstance(s.parent[s.key], list) and s.parent[s.key])
    if spot is None:
        return None
    items = spot.parent[spot.key]
    spot.parent[spot.key] = [json_copy(items[i % len(items)]) for i in range(rng.choice([300, 2000]))]
    return spot.pointer, False


def m_deep_extras(doc, rng, found):
    spot = _pick(rng, found, lambda s: isinstance(s.parent[s.key], dict))
    if spot is None:
        return None
    deep: object = "leaf"
    for i in range(rng.choice([50, 300, 600])):  # 600: beyond the file limit (FILE_JSON_LIMIT)
        deep = {f"k{i}": deep} if i % 2 else [deep]
    spot.parent[spot.key]["extras"] = {"deep": deep}
    return spot.pointer, False


def m_unicode(doc, rng, found):
    spot = _pick(rng, found, lambda s: isinstance(s.parent[s.key], str))
    text = rng.choice(UNICODE)
    if spot is None or rng.random() < 0.3:  # a name or an unknown key with the string
        spot = _pick(rng, found, lambda s: isinstance(s.parent[s.key], dict))
        if spot is None:
            return None
        target = spot.parent[spot.key]
        target["name" if rng.random() < 0.5 else text + "key"] = text
        return spot.pointer, False
    spot.parent[spot.key] = spot.parent[spot.key] + text if rng.random() < 0.5 else text
    return spot.pointer, False


def m_remove_root_extension(doc, rng, found):
    root = doc.get("extensions") or {}
    names = [name for name in PHYSICS if name in root]
    if not names:
        return None
    name = rng.choice(names)
    del root[name]
    return f"/extensions/{name}", False


def m_extension_type_swap(doc, rng, found):
    """A whole physics extension object (root or node) replaced by a non-object."""
    holders = [("", doc)] + [(f"/nodes/{i}", n) for i, n in enumerate(doc.get("nodes") or []) if isinstance(n, dict)]
    options = [
        (f"{ptr}/extensions/{name}", holder["extensions"], name)
        for ptr, holder in holders
        if isinstance(holder.get("extensions"), dict)
        for name in PHYSICS
        if name in holder["extensions"]
    ]
    if not options:
        return None
    pointer, exts, name = rng.choice(options)
    exts[name] = rng.choice([[], "x", 0, None, [exts[name]]])
    return pointer, False


MUTATIONS = {
    "type_swap": m_type_swap,
    "index_out_of_range": m_index_out_of_range,
    "negative_index": m_negative_index,
    "index_type_swap": m_index_type_swap,
    "weird_number": m_weird_number,
    "negative_size": m_negative_size,
    "delete": m_delete,
    "delete_required": m_delete_required,
    "empty": m_empty,
    "duplicate": m_duplicate,
    "axis_out_of_range": m_axis,
    "self_reference": m_self_reference,
    "long_array": m_long_array,
    "deep_extras": m_deep_extras,
    "unicode": m_unicode,
    "remove_root_extension": m_remove_root_extension,
    "extension_type_swap": m_extension_type_swap,
}


def mutate(seed_doc: dict, rng: random.Random, classes: list[str] | None = None) -> tuple[dict, list[str], str, bool]:
    """A mutated deep copy: (doc, mutation names, pointer of the first, certainly invalid)."""
    doc = json_copy(seed_doc)
    names = classes or list(MUTATIONS)
    stack = 1 if classes or rng.random() < 0.75 else rng.randint(2, 4)
    applied: list[str] = []
    pointer, certain = "", False
    for _ in range(20):
        if len(applied) == stack:
            break
        name = rng.choice(names)
        result = MUTATIONS[name](doc, rng, spots(doc))
        if result is None:
            continue
        if not applied:
            pointer, certain = result
            certain = certain and (name in CERTAIN or name == CERTAIN_DELETE)
        applied.append(name)
    return doc, applied, pointer, certain and len(applied) == 1


def cases(count: int, seed: int = 0, seed_docs: list[tuple[str, dict]] | None = None) -> Iterator[Case]:
    """``count`` cases, deterministic for a given ``seed``; the seed documents are used round-robin."""
    docs = seed_docs if seed_docs is not None else seeds()
    for i in range(count):
        rng = random.Random(f"{seed}:{i}")
        seed_name, seed_doc = docs[i % len(docs)]
        doc, applied, pointer, invalid = mutate(seed_doc, rng)
        if not applied:
            continue
        yield Case(f"{i}:{seed_name}:{'+'.join(applied)}@{pointer}", seed_name, doc, applied, pointer, invalid)


def related(diag_pointer: str, pointer: str) -> bool:
    """A diagnostic's pointer names the mutated value, one of its containers (not the root), or something inside."""
    if not diag_pointer:
        return False
    return diag_pointer == pointer or pointer.startswith(diag_pointer + "/") or diag_pointer.startswith(pointer + "/")
