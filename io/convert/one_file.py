"""Convert one file inside a Blender process (bpy): reset the scene, read the input, write the output atomically.

* ``.gltf`` / ``.glb`` input: read by our loader first (a malformed file fails with our diagnostic and its JSON
  pointer), then ``import_scene.gltf`` into an empty scene (``scene_reset``: a home file once, then a wiped scene).
* ``.blend`` input: ``open_mainfile`` without running the file's scripts; Blender-authored physics is exported.
* glTF output: ``export_scene.gltf`` into the hidden folder ``publish.partial_path`` inside the output folder
  (under a name that is valid text, ``publish.text_name``; images named like paths renamed first, ``image_names``),
  validated there when asked, then published as a set (``_commit_gltf``, ``publish``): every resource checked,
  a journal written, each resource written beside the output without replacing a file (never outside the output
  folder, ``safe_files.publish_resource``), the stamp written (``state``), the ``.gltf`` / ``.glb`` renamed into
  place last, the journal settled. ``.blend`` output: saved as a hidden temporary file beside the output (relative
  paths stay right), stamped, then renamed. A failed or killed conversion leaves the previous output whole; what
  it left is settled and removed by the next conversion of the same file (and by the driver's sweep).
"""

from __future__ import annotations

import dataclasses
import logging
import os
import pathlib
import re
import urllib.parse

from ..diagnostics import Diagnostic, PhysicsDataError, Severity, internal_failure
from ..gltf.atomic import atomic_write_bytes
from ..gltf.counts import COUNT_KEYS, physics_counts
from ..gltf.extensions import PHYSICS_EXTENSIONS
from ..gltf.files import gltf_json_bytes, load, resource_limit, resource_uris
from ..gltf.parse import parse_gltf
from ..gltf.safe_files import (
    IMAGE_MISSING,
    MISSING,
    RENAMED,
    publish_resource,
    safe_resource,
)
from ..hooks import LAST_REPORTS
from . import protocol as p
from . import publish, state
from .blend_paths import LIBRARIES_UNCHECKED, blend_resource_problems, library_problems
from .image_names import rename_path_like
from .scene_reset import SceneReset

GLTF_FORMATS = {".gltf": "GLTF_SEPARATE", ".glb": "GLB"}
#: Export options of a conversion: io_scene_gltf2's defaults leave out what a glTF input carries and its import
#: keeps — ``extras`` (custom properties), cameras, KHR_lights_punctual lights, custom vertex attributes and more
#: than four skin influences per vertex — so a glTF → glTF conversion turns them on (docs/convert.md, "What a
#: conversion keeps"). Only the options the running io_scene_gltf2 has are passed.
KEEP_CONTENT = {
    "export_extras": True,
    "export_cameras": True,
    "export_lights": True,
    "export_attributes": True,
    "export_all_influences": True,
}


class _Collect(logging.Handler):
    """io_scene_gltf2 logs export-hook exceptions here instead of raising."""

    def __init__(self):
        super().__init__(level=logging.ERROR)
        self.messages: list[str] = []

    def emit(self, record):
        self.messages.append(record.getMessage())


RESET = SceneReset()  # one per worker process: it knows whether the main file is still a home file


def document_counts(document: object) -> dict:
    """Bodies, colliders, joints, triggers of a glTF's physics as our parser reads it (``gltf/counts.py``)."""
    return physics_counts(parse_gltf(document).document)


def read_input(
    src: pathlib.Path,
    out: list[dict],
    counts: dict,
    enable,
    to_blend: bool = False,
    root: pathlib.Path | None = None,
    reproduce: bool = True,
    resources: list[pathlib.Path] | None = None,
    source_json: dict | None = None,
) -> bool:
    """Load the input into Blender; False (with an ERROR in ``out``) when it cannot be read. ``counts`` gets the
    input's physics when ``to_blend`` (the output is a ``.blend``) or the import fails (a glTF output reports its
    own). A glTF's resources must be regular files inside ``root`` (the IN folder; default: the file's folder).
    ``reproduce``: a glTF is imported with Reproduce Motion (``check`` simulates it; ``convert`` only for a
    ``.blend`` output, ``_import_settings``). ``resources`` (when given) gets the resource files the glTF read, or
    every file the ``.blend`` references (libraries, images, sounds…; missing ones too: ``blend_paths``);
    ``source_json`` (when given) the glTF's top-level JSON members (read once: ``convert`` compares its extensions
    with the output's)."""
    import bpy

    if src.suffix.lower() == ".blend":
        linked = library_problems(src, root)  # open_mainfile reads the libraries: checked before it
        if any(d.severity == Severity.ERROR for d in linked):
            out += [p.staged("read", d) for d in linked]
            return False
        out += [p.staged("read", d) for d in linked if d.code == LIBRARIES_UNCHECKED]  # others: said after opening
        RESET.opened_blend()
        try:
            bpy.ops.wm.open_mainfile(filepath=str(src), load_ui=False, use_scripts=False)
        except RuntimeError as exc:
            why = f"Blender could not open it: {operator_error(str(exc))}"
            out.append(p.diag("import", Severity.ERROR, p.IMPORT_FAILED, "", why))
            return False
        problems = blend_resource_problems(src, root, resources=resources)  # before export or save reads any
        out += [p.staged("read", d) for d in problems]
        if any(d.severity == Severity.ERROR for d in problems):
            return False
        enable()
        return True
    try:
        document = load(src).json
    except PhysicsDataError as exc:
        out.append(p.staged("read", exc.diagnostic))
        return False
    if source_json is not None and isinstance(document, dict):
        source_json.update(document)
    problems = _resource_problems(document, src, root, resources)
    out += [p.staged("read", d) for d in problems]
    if any(d.severity == Severity.ERROR for d in problems):  # a local file outside IN would be copied into the output
        counts.update(document_counts(document))
        return False
    if to_blend:  # parsing costs time per file: only where these counts are reported
        counts.update(document_counts(document))
    RESET.reset(enable)
    _import_settings(reproduce)
    try:
        result = bpy.ops.import_scene.gltf(filepath=str(src))
    except RuntimeError as exc:
        result = {operator_error(str(exc))}
    if result != {"FINISHED"}:
        counts.update(document_counts(document))
        why = f"glTF import failed: {', '.join(sorted(result))}"
        out.append(p.diag("import", Severity.ERROR, p.IMPORT_FAILED, "", why))
        return False
    return True


def _resource_problems(
    document: object, src: pathlib.Path, root: pathlib.Path | None, resources: list[pathlib.Path] | None = None
) -> list[Diagnostic]:
    """What Blender must not open (ERROR): a resource outside ``root`` or not a regular file, a missing buffer
    (the import would fail without it). A missing image is a WARNING: Blender imports the file without it. The
    usable resources and the missing images go into ``resources`` (when given: what the stamp lists)."""
    problems = []
    for where, uri in resource_uris(document):
        found = safe_resource(src.parent, uri, where, root, max_bytes=resource_limit(document, where))
        if isinstance(found, pathlib.Path):
            if resources is not None:
                resources.append(found)
            continue
        if found.code == MISSING and where.startswith("/images/"):
            found = dataclasses.replace(found, code=IMAGE_MISSING, severity=Severity.WARNING)
            if resources is not None:  # stamped as missing: the image arriving later converts the file again
                resources.append(pathlib.Path(os.path.normpath(src.parent / urllib.parse.unquote(uri))))
        problems.append(found)
    return problems


def operator_error(text: str) -> str:
    """One line of a failed operator's message: the exception of a Python traceback, else its first line, without
    Blender's ``Error:`` prefix."""
    lines = [line.strip() for line in text.strip().splitlines() if line.strip()]
    if "Traceback (most recent call last)" in text:
        raised = [line for line in lines if _EXCEPTION_LINE.match(line)]
        if raised:
            return raised[-1]
    first = lines[0] if lines else "no message"
    return first.removeprefix("Error:").strip()


_EXCEPTION_LINE = re.compile(r"^[A-Za-z_][\w.]*(Error|Exception|Warning|Exit|Interrupt)\b.*")


def _import_settings(reproduce: bool) -> None:
    """Reproduce Motion only for a ``.blend`` output: its helpers (carriers, pre-rolls, split compounds) make
    Blender play the file and are dropped again on export, which writes the same file without them
    (``tests/blender/exporter/test_export_node_order.py``); building them for a glTF output is time for nothing
    (docs/perf-history.md, ``--with-reproduce``)."""
    import bpy

    settings = getattr(bpy.context.scene, "gltf_physics", None)
    if settings is not None:
        settings.import_physics = True
        settings.import_reproduce = reproduce


def _settings(to: str) -> None:
    import bpy

    settings = getattr(bpy.context.scene, "gltf_physics", None)
    if settings is not None:
        settings.export_physics = True
        settings.export_revision = to


def _export(dst: pathlib.Path, tmp: pathlib.Path, job: dict, out: list[dict]) -> pathlib.Path | None:
    """Export into ``tmp``; the written main file, or None."""
    import bpy

    _settings(job["to"])
    if GLTF_FORMATS[dst.suffix.lower()] == "GLTF_SEPARATE":
        for old, new in rename_path_like(bpy.data.images):
            why = f"image {old!r} is named like a path: its file is written as {new!r} inside the output folder"
            out.append(p.diag("export", Severity.WARNING, p.IMAGE_RENAMED, "", why))
    tmp.mkdir()
    target = tmp / publish.text_name(dst.name)
    collect = _Collect()
    logger = logging.getLogger("glTFImporter_errors")
    logger.addHandler(collect)
    known = bpy.ops.export_scene.gltf.get_rna_type().properties.keys()
    keep = {name: value for name, value in KEEP_CONTENT.items() if name in known}
    try:
        result = bpy.ops.export_scene.gltf(filepath=str(target), export_format=GLTF_FORMATS[dst.suffix.lower()], **keep)
    except RuntimeError as exc:
        result = {operator_error(str(exc))}
    finally:
        logger.removeHandler(collect)
    out += [p.diag("export", Severity.ERROR, p.GLTF_ADDON_ERROR, "", m) for m in collect.messages]
    if result != {"FINISHED"} or not target.is_file():
        why = f"glTF export failed: {', '.join(sorted(result))}"
        out.append(p.diag("export", Severity.ERROR, p.EXPORT_FAILED, "", why))
        return None
    return target


def _extensions_not_kept(used: object, written: dict, out: list[dict]) -> None:
    """One ``CONVERT_CONTENT_NOT_KEPT`` WARNING naming the input's extensions (``used``: its ``extensionsUsed``) the
    output (``written``: the staged JSON) lacks, but the physics ones the model converts — io_scene_gltf2 imports only
    the ones it knows (``GODOT_single_root``, ``KHR_xmp_json_ld``, vendor extensions, ``OMI_physics_gravity`` are
    gone): a glTF → glTF conversion never loses content without a word."""
    if not isinstance(used, list):
        return
    kept = written.get("extensionsUsed") or []
    lost = sorted({str(e) for e in used} - set(PHYSICS_EXTENSIONS) - {str(e) for e in kept})
    if lost:
        why = f"io_scene_gltf2 does not carry the extension(s) {', '.join(lost)}: the output has none of their data"
        out.append(p.diag("export", Severity.WARNING, p.CONTENT_NOT_KEPT, "/extensionsUsed", why))


def _validate(document: dict, out: list[dict]) -> None:
    out += [p.staged("validate", d) for d in parse_gltf(document).diagnostics]


def _staged_json(target: pathlib.Path | None, out: list[dict], validating: bool) -> dict | None:
    """The JSON of the staged output ``target`` (None when there is none, or with its ERROR in ``out`` when our
    loader cannot read it: nothing is published)."""
    if target is None:
        return None
    try:
        return load(target).json
    except PhysicsDataError as exc:
        out.append(p.staged("validate" if validating else "write", exc.diagnostic))
        return None


def _commit_gltf(
    target: pathlib.Path, dst: pathlib.Path, out: list[dict], stamp=None, document: dict | None = None
) -> None:
    """Publish the staged ``target`` as ``dst`` with its resources, as a set (``publish``): every resource checked
    first, the journal written, each resource published without replacing a file (a differing file of its name,
    another output's or this output's previous version, keeps its bytes and this one gets a hashed name), the
    stamp written (``stamp()``, for ``--skip-existing``), the main file renamed into place last, then the journal
    settled (what the previous output referenced and the new one does not is removed; after a failure, what this
    commit added). ``document``: the staged JSON when the caller has read it already."""
    document = load(target).json if document is None else document
    found = [(where, uri, safe_resource(target.parent, uri, where)) for where, uri in resource_uris(document)]
    refused = [problem for _, _, problem in found if not isinstance(problem, pathlib.Path)]
    if refused:
        out += [p.staged("write", problem) for problem in refused]
        return
    publish.begin(target.parent, dst, [name for _, uri, source in found for name in publish.candidates(uri, source)])
    renamed = False
    for where, uri, source in found:
        final_uri, problem, _ = publish_resource(source, dst.parent, uri, where)
        if final_uri != uri:
            _set_uri(document, where, final_uri)
            renamed = True
        if problem is not None and not (problem.code == RENAMED and where.startswith("/buffers/")):
            out.append(p.staged("write", problem))  # a buffer named after the output: its previous version
    if p.status_of(out) == p.FAILED:
        return
    if renamed:
        atomic_write_bytes(target, gltf_json_bytes(document))
    if stamp is not None:
        stamp(target, document)
    os.replace(target, dst)
    publish.settle(target.parent, dst.parent)


def _stamper(job: dict, read: list[pathlib.Path], dst: pathlib.Path):
    """``stamp(staged, document)``: write the output's stamp (``state``) before ``staged`` is renamed to ``dst``;
    the resources of a glTF output (``document``: its JSON) are in place already. A job without a stamp path
    (``check``, tests) writes none."""

    def stamp(staged: pathlib.Path, document: dict | None = None) -> None:
        if not job.get("stamp"):
            return
        outputs = {dst: staged}
        if dst.suffix.lower() == ".gltf":
            for _, uri in resource_uris(document if document is not None else load(staged).json):
                outputs[dst.parent / urllib.parse.unquote(uri)] = dst.parent / urllib.parse.unquote(uri)
        options = {"to": job.get("to"), "validate": bool(job.get("validate"))}
        state.write_stamp(pathlib.Path(job["stamp"]), options, read, outputs)

    return stamp


def _set_uri(document: dict, where: str, uri: str) -> None:
    """Set the URI at ``where`` (``/images/<i>/uri``)."""
    _, key, index, _ = where.split("/")
    document[key][int(index)]["uri"] = uri


def _counts(kind: str) -> dict:
    """The counts of the last ``kind`` run report (its summary's numbers: ``gltf/counts.py``)."""
    report = LAST_REPORTS.get(kind)
    counts = report.counts if report is not None else {}
    return {key: counts.get(key, 0) for key in COUNT_KEYS}


def _scene_counts() -> dict:
    """A ``.blend`` saved again as ``.blend``: its Blender rigid bodies as the exporter would write them (an active
    or animated body is a body with a collider, a passive one a collider), its constraints as joints."""
    import bpy

    objects = [ob for ob in bpy.data.objects if ob.rigid_body is not None]
    return {
        "bodies": sum(1 for ob in objects if ob.rigid_body.type == "ACTIVE" or ob.rigid_body.kinematic),
        "colliders": len(objects),
        "joints": sum(1 for ob in bpy.data.objects if ob.rigid_body_constraint is not None),
        "triggers": 0,
    }


def _report(kind: str, out: list[dict]) -> None:
    report = LAST_REPORTS.get(kind)
    if report is not None:
        out += [p.staged(kind, d) for d in report.diagnostics]


def convert(job: dict, enable) -> dict:
    """Convert ``job`` (``protocol``'s job dict); ``enable()`` re-enables the extension after a scene reset.
    Returns ``{"status", "counts", "diagnostics"}`` (the worker adds the time)."""
    import bpy

    src, dst = pathlib.Path(job["input"]), pathlib.Path(job["output"])
    out: list[dict] = []
    counts: dict = {}
    LAST_REPORTS.clear()  # module state survives scene resets
    tmp = publish.partial_path(dst)
    try:
        publish.remove_partial(dst)  # left by a killed run
        dst.parent.mkdir(parents=True, exist_ok=True)
        root = pathlib.Path(job["root"]) if job.get("root") else None
        to_blend = dst.suffix.lower() == ".blend"
        read: list[pathlib.Path] = [src]
        source: dict = {}
        options = {"reproduce": to_blend, "resources": read, "source_json": source}
        if not read_input(src, out, counts, enable, to_blend, root, **options):
            return {"status": p.FAILED, "counts": counts, "diagnostics": out}
        _report("import", out)
        stamp = _stamper(job, read, dst)
        p.strict_gate(out, bool(job.get("strict")))
        if p.status_of(out) == p.FAILED:  # --strict and the import already lost physics: nothing written
            pass
        elif to_blend:
            counts = counts or _scene_counts()  # a glTF input: its own physics
            bpy.ops.wm.save_as_mainfile(filepath=str(tmp), copy=True, check_existing=False)
            stamp(tmp)
            os.replace(tmp, dst)
        else:
            target = _export(dst, tmp, job, out)
            counts = _counts("export")
            _report("export", out)
            written = _staged_json(target, out, bool(job.get("validate")))  # read once for the steps below
            if written is not None and src.suffix.lower() in GLTF_FORMATS:
                _extensions_not_kept(source.get("extensionsUsed"), written, out)
            p.strict_gate(out, bool(job.get("strict")))
            if written is not None and job.get("validate"):
                _validate(written, out)
            if written is not None and p.status_of(out) != p.FAILED:
                _commit_gltf(target, dst, out, stamp, written)
    except Exception:  # one bad file never stops the worker
        logging.getLogger(__name__).exception("glTF Physics: converting %s failed", src)
        out.append(p.diag("write", Severity.ERROR, p.INTERNAL, "", internal_failure("converting this file")))
    finally:
        publish.remove_partial(dst)  # settles a failed commit
    return {"status": p.status_of(out), "counts": counts, "diagnostics": out}
