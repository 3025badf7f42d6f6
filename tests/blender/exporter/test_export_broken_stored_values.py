"""Exports of imported scenes whose stored ``Object.gltf_physics`` values a script (or an old file) broke.

The import keeps the file's physics as property values and JSON texts on each object. Nothing in the UI writes
broken ones, but a script can, and a ``.blend`` keeps them. A sweep that set random stored texts to malformed JSON
and floats to NaN / ±inf / beyond float32 found two ways one object took down more than itself (an unreadable
``file_name`` lost the object's physics; a shape size that was not numbers stopped the whole physics export). This
keeps that sweep: for every import fixture and revision, six random stored values per object are broken; the export
must never fail a step (no ``GLTF_PHYSICS_INTERNAL_ERROR`` / ``_EXPORT_FAILED``: a broken value is skipped or
written from Blender, with a warning), must write strict JSON and a file our validator finds no error in.

``GLTF_PHYSICS_FUZZ_SEED`` changes the sequence (as for ``test_import_fuzz.py``; seeds 0 to 6 pass). 30 fixtures ×
4 revisions: 2.8 s on bpy 5.0 (``pytest … test_export_broken_stored_values.py``).
"""

from __future__ import annotations

import math
import random

import bpy
import fuzzkit
import pytest

from blenderkit import submodule
from export_helpers import REVISIONS, import_edit_export
from testkit import import_fixtures

TEXTS = ["{", "[", "null", "5", '"x"', "[1, 2]", '{"type": 7}', '["a", 5]', '{"extras": {"x": 1e400}}', "[[[]]]"]
NUMBERS = [math.nan, math.inf, -math.inf, 1e39, -1e39]


def _stored_fields(group, path=()) -> list[tuple[tuple[str, ...], str, int]]:
    """(path, STRING / FLOAT, array length) of every writable string and float below ``group``."""
    found = []
    for prop in group.bl_rna.properties:
        name = prop.identifier
        if name == "rna_type" or prop.is_readonly:
            continue
        value = getattr(group, name)
        if prop.type == "POINTER" and isinstance(value, bpy.types.PropertyGroup):
            found.extend(_stored_fields(value, (*path, name)))
        elif prop.type in ("STRING", "FLOAT"):
            found.append(((*path, name), prop.type, getattr(prop, "array_length", 0)))
    return found


def _break_values(rng: random.Random) -> list[str]:
    """Six random stored values of every object broken; what was set, for the failure message."""
    changed = []
    for ob in bpy.context.scene.objects:
        fields = _stored_fields(ob.gltf_physics)
        for path, kind, length in rng.sample(fields, min(6, len(fields))):
            holder = ob.gltf_physics
            for part in path[:-1]:
                holder = getattr(holder, part)
            value = rng.choice(TEXTS) if kind == "STRING" else rng.choice(NUMBERS)
            try:
                setattr(holder, path[-1], [value] * length if length else value)
            except (TypeError, ValueError):  # a value RNA refuses (an enum-backed text, a clamped range)
                continue
            changed.append(f"{ob.name}.{'.'.join(path)} = {value!r}")
    return changed


@pytest.mark.parametrize("path", import_fixtures(), ids=lambda p: p.name)
def test_broken_stored_values_never_fail_the_export(clean, tmp_path, path):
    validate = submodule(clean, "io.gltf.validate.document").validate_gltf
    rng = random.Random(f"{fuzzkit.FUZZ_SEED}:{path.name}")
    for revision in REVISIONS:
        out = tmp_path / f"{revision}.gltf"
        written, reported, changed = import_edit_export(clean, path, lambda: _break_values(rng), out, revision)
        failed = [str(d) for d in reported if d.code in ("GLTF_PHYSICS_INTERNAL_ERROR", "GLTF_PHYSICS_EXPORT_FAILED")]
        assert not failed, (revision, failed, changed)
        errors = [str(d) for d in validate(written) if d.severity.name == "ERROR"]
        assert not errors, (revision, errors, changed)
