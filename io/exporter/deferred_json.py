"""The physics JSON written into the file after io_scene_gltf2 has written it (``post_export_hook``, 4.5+).

io_scene_gltf2 turns its plan into JSON with several pure-Python passes (``Gltf.to_dict``, ``__fix_json`` twice,
the indented encoder) whose cost grows with every value we add. ``stage`` puts a short marker object into the plan
where each node / root extension object goes and one placeholder node per added node, with the values fixed up and
encoded as io_scene_gltf2 would (``gltf.addon_fixups``, ``gltf.splice.encode``); ``finish`` replaces the markers
in the written .gltf / .glb (``gltf.splice``) and writes the file again atomically. The bytes are those of the
plain path. Whenever that cannot be guaranteed (bpy 4.2, gltfpack, a value the fix-up copies do not cover, an
extension name that only our values would declare), ``stage`` returns None and the values go through the plan.
"""

from __future__ import annotations

import json
import logging
import os
import secrets
from dataclasses import dataclass, field

from .. import gltf_addon
from ..diagnostics import Severity
from ..gltf.addon_fixups import NODE_FIELDS, UnspliceableError, checked_extension, encode_as_exported, node_to_dict
from ..gltf.safe_files import atomic_write_bytes
from ..gltf.splice import Markers, SpliceError, build_glb, encode, glb_json, replace_structurally, splice_text

log = logging.getLogger(__name__)

EXPORT_SPLICE = "GLTF_PHYSICS_EXPORT_SPLICE"  # the physics JSON could not be added to the written file (WARNING)
ENABLED = True  # False: always through io_scene_gltf2's plan (tests compare both paths)
# Fewer physics nodes than this go through the plan: re-reading, re-writing and syncing the file (≈ 0.5 ms) costs
# more than the passes it saves on a small export (`tests/bench/bench_convert.py --overhead`).
MIN_NODES = 32
_PLAIN_FIELDS = tuple(key for key in NODE_FIELDS if key != "extensions")


def node_snapshot(node) -> tuple:
    """A node's fields by value (lists as tuples, the extension objects' items): equal while nobody changed it."""
    fields = vars(node)
    exts = fields.get("extensions")
    if type(exts) is dict:
        exts = tuple((k, tuple(v.items()) if type(v) is dict else v) for k, v in exts.items())
    return (*[tuple(v) if type(v) is list else v for v in map(fields.get, _PLAIN_FIELDS)], exts)


@dataclass
class Staged:
    """Markers for one ``WriteOutput``: plan objects to put in place of the values."""

    held_nodes: dict[int, object] = field(default_factory=dict)  # node index → placeholder gltf2_io.Node
    node_values: dict[tuple[int, str], dict] = field(default_factory=dict)  # (node, extension) → marker
    root_values: dict[str, dict] = field(default_factory=dict)  # extension → marker


class DeferredJson:
    """One export's values held back from io_scene_gltf2 and added to its file afterwards."""

    def __init__(self, export_settings, report):
        self.report = report
        self.layout = gltf_addon.json_layout(export_settings)
        self.markers = Markers(secrets.token_hex(8))
        # the values fixed up and encoded with ``layout`` at depth 0, by marker index; the values themselves are not
        # kept (thousands of containers every garbage-collector pass of io_scene_gltf2's own passes would walk)
        self.texts: list[str | None] = []  # None: derived from a whole node's text (``derived``)
        self.derived: dict[int, tuple[int, str]] = {}  # extension marker → (its node's marker, extension name)
        self.parts: dict[int, list[int]] = {}  # a scene node's whole-node marker → its extension markers
        self.gltf_format = None  # io_scene_gltf2's encoding settings (gather_gltf_encoded_hook), read at the end
        self.active = False

    def _add(self, value, string: bool = False) -> dict | str:
        index, marker = self.markers.new_string() if string else self.markers.new()
        self.texts.append(encode_as_exported(value, self.layout[0] is not None))
        return marker

    def stage(self, plan, output, names: list[str], own: dict[int, object] | None = None) -> Staged | None:
        """Markers for ``output``, or None (nothing recorded) when its values must go through the plan.
        ``names`` is the document's final ``extensionsUsed``; ``own`` the plan nodes the export added itself
        (index → ``gltf2_io.Node``): written after the export too."""
        try:
            return self._stage(plan, output, names, own or {})
        except (UnspliceableError, TypeError, ValueError, OverflowError) as exc:
            log.info("physics JSON written through io_scene_gltf2's plan: %s", exc)
            self.markers.count, self.texts, self.derived, self.parts = 0, [], {}, {}
            return None

    def _stage(self, plan, output, names: list[str], own: dict[int, object]) -> Staged | None:
        if len(output.nodes) + len(output.new_nodes) + len(own) < MIN_NODES:
            return None
        base = output.node_base
        if base != len(plan.nodes) or any(isinstance((plan.extensions or {}).get(n), dict) for n in output.root):
            return None  # nodes appended by someone else first / a root extension merged with an existing one
        if any(i >= base or plan.nodes[i] is not node for i, node in own.items()):
            return None
        held = {i: gltf_addon.node_fields(node) for i, node in own.items()}  # nodes written whole, by index
        held.update((base + k, dict(node)) for k, node in enumerate(output.new_nodes))
        for parent, child in output.new_children:
            if parent in held:
                held[parent]["children"] = [*(held[parent].get("children") or []), child]
        staged = Staged()
        marked = set(output.root)  # extension names the plan still holds (as markers)
        whole = []  # scene nodes written whole after the export too (``_whole``)
        added: dict[int, list[int]] = {}  # parent → the children the output adds to it
        for parent, child in output.new_children:
            added.setdefault(parent, []).append(child)
        for index, exts in output.nodes.items():
            if index in held:
                held[index]["extensions"] = {**(held[index].get("extensions") or {}), **exts}
                continue
            found = self._whole(plan.nodes[index], index, exts, added.get(index)) if marked.issuperset(exts) else None
            if found is not None:
                whole.append(found)
                continue
            marked.update(exts)
            for name, value in exts.items():
                staged.node_values[(index, name)] = self._add(checked_extension(value))
        for name, value in output.root.items():
            staged.root_values[name] = self._add(checked_extension(value))
        markers = {i: self._add(node_to_dict(node, from_dict=i >= base), True) for i, node in sorted(held.items())}
        placeholders = gltf_addon.placeholder_nodes(list(markers.values()))
        staged.held_nodes = dict(zip(markers, placeholders, strict=True))
        # io_scene_gltf2 keeps a name of extensionsUsed only when it is a key somewhere in the JSON it sees
        text = "".join(self.texts)
        if any(f'"{name}":' in text for name in names if name not in marked):
            raise UnspliceableError("an extension name only the physics values would declare")
        if whole:
            staged.held_nodes.update(self._hold(whole))
        self.active = True
        self.report.count("json_after_export")
        return staged

    def finish(self, export_settings) -> None:
        """Replace the markers in the written file (``post_export_hook``)."""
        if not self.active:
            return
        self.active = False
        path, glb = gltf_addon.written_file(export_settings)
        path = os.path.realpath(path)
        try:
            with open(path, "rb") as handle:
                data = handle.read()
            text, rest = glb_json(data) if glb else (data.decode("utf-8"), b"")
            new = self._splice(text, export_settings, glb)
            if new is not None:
                atomic_write_bytes(path, build_glb(new, rest) if glb else new.encode("utf-8"))
        except (OSError, UnicodeDecodeError, SpliceError, ValueError) as exc:
            self._warn(f"the physics JSON could not be added to {path!r}: {type(exc).__name__}: {exc}")

    def _splice(self, text: str, export_settings, glb: bool) -> str | None:
        layout = gltf_addon.json_layout(export_settings, self.gltf_format)
        texts = _Texts(self, layout)  # a sequence: every marker counted, found in the file or not
        prefix = self.markers.prefix
        result = splice_text(text, prefix, texts)
        if not any(result.found) and not result.leftover:
            self._warn("the written file holds none of the physics markers (not written by this export?)")
            return None
        missing = [i for i in result.missing if not self._covered(i, result.found) and f'"{prefix}{i}"' not in text]
        if missing:
            self._warn(f"{len(missing)} physics values were removed from the file's JSON by another add-on")
        if result.duplicated:
            self._warn(f"{len(result.duplicated)} physics values were copied by another add-on: written each time")
        if not result.leftover:
            return result.text
        self._warn("a physics marker was changed by another add-on: the file is encoded again")
        again = replace_structurally(text, prefix, [self._fixed(i) for i in range(len(self.texts))], *layout)
        return again if glb else again + "\n"  # save_gltf ends a .gltf with a newline

    def _whole(self, node, index: int, exts: dict, children: list[int] | None) -> tuple | None:
        """(index, node, its fields with ``exts``, whole-node marker, its number) when the scene node ``node`` can be
        written whole after the export (a plain ``gltf2_io.Node`` without extensions or extras), else None (nothing
        recorded). io_scene_gltf2 then skips its passes over the node; ``_hold`` keeps it in the plan."""
        if not gltf_addon.is_plain_node(node) or node.extensions or node.extras is not None:
            return None
        fields = gltf_addon.node_fields(node)
        if children:
            fields["children"] = [*(fields["children"] or []), *children]
        fields["extensions"] = {name: checked_extension(value) for name, value in exts.items()}
        try:
            text = encode_as_exported(node_to_dict(fields, from_dict=False), self.layout[0] is not None)
        except (UnspliceableError, TypeError, ValueError, OverflowError):
            return None
        number, marker = self.markers.new_string()
        self.texts.append(text)
        return index, node, fields, marker, number

    def _hold(self, whole: list) -> dict[int, object]:
        """Turn the scene nodes of ``_whole`` into nodes written as their marker while unchanged; each still holds
        a marker per extension (its text derived from the node's), written should another add-on change it."""
        entries: dict[int, tuple[str, tuple]] = {}
        cls = gltf_addon.held_node_class(entries, node_snapshot)
        out = {}
        for index, node, fields, marker, number in whole:
            exts = {}
            for name in fields["extensions"]:
                part, exts[name] = self.markers.new()
                self.texts.append(None)
                self.derived[part] = (number, name)
                self.parts.setdefault(number, []).append(part)
            node.children, node.extensions = fields["children"], exts
            node.__class__ = cls
            entries[id(node)] = (marker, node_snapshot(node))
            out[index] = node
        return out

    def _text(self, index: int, layout) -> str:
        """Value ``index`` encoded with ``layout`` (the staged text when that is the layout it was encoded with)."""
        text = self.texts[index] if layout == self.layout else None
        return text if text is not None else encode(self._fixed(index), *layout)

    def _fixed(self, index: int):
        """Value ``index`` as ``as_exported`` gives it, read back from its text (encodes to the same JSON in any
        layout: key order, numbers and strings round-trip; tuples were written as lists)."""
        derived = self.derived.get(index)
        if derived is not None:
            return json.loads(self.texts[derived[0]])["extensions"][derived[1]]
        return json.loads(self.texts[index])

    def _covered(self, index: int, found: list[int]) -> bool:
        """A missing marker whose value is in the file all the same: an extension of a node written whole, or a
        whole node whose extension markers were written (the node was changed after the export marked it)."""
        derived = self.derived.get(index)
        if derived is not None:
            return found[derived[0]] > 0
        return any(found[part] > 0 for part in self.parts.get(index, ()))

    def _warn(self, message: str) -> None:
        log.warning("%s", message)
        self.report.add(Severity.WARNING, EXPORT_SPLICE, "", message)


class _Texts:
    """``DeferredJson``'s values by marker index encoded with ``layout``, each when asked for."""

    def __init__(self, deferred: DeferredJson, layout):
        self.deferred, self.layout = deferred, layout

    def __len__(self) -> int:
        return len(self.deferred.texts)

    def __getitem__(self, index: int) -> str:
        return self.deferred._text(index, self.layout)
