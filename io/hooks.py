"""Hook classes io_scene_gltf2 instantiates once per import / export (exposed on the root package).

Every hook body is wrapped: an exception in an import hook would abort the user's whole glTF import, and one in an
export hook would be swallowed silently. Problems become messages in the run's :class:`RunReport`.
"""

from __future__ import annotations

import functools
import json
import logging

from . import gltf_addon
from .diagnostics import Severity, printable
from .exporter import pipeline as export_pipeline
from .exporter.collision_meshes import collision_mesh
from .exporter.context import EXPORT_APPROXIMATED, EXPORT_NOT_WRITTEN, ExportSession
from .exporter.node_order import moves_nodes
from .exporter.node_order import restore_scene as restore_node_order
from .exporter.selection import session_decision
from .gltf.parse import parse_gltf
from .gltf.validate.codes import INTERNAL_ERROR
from .importer import pipeline as import_pipeline
from .importer.bodies import replacement_candidates
from .importer.context import ImportContext, gc_paused
from .importer.joint_empties import JointEmpties, node_joints
from .importer.proxies import EmptyPlaceholders
from .importer.scenes import mark_outside_scene
from .importer.world import create_world_early
from .report import RunReport, operator_lines

log = logging.getLogger(__name__)


LAST_REPORTS: dict[str, RunReport] = {}


def last_report(kind: str) -> RunReport | None:
    """The report of the most recent ``"import"`` or ``"export"`` run in this Blender session."""
    return LAST_REPORTS.get(kind)


def _guarded(kind: str):
    """Decorate a hook method: record the call, turn any exception into an ERROR diagnostic."""

    def wrap(method):
        name = method.__name__

        def hook(self, *args):
            self.report.hooks_called.append(name)
            try:
                return method(self, *args)
            except Exception as exc:
                log.exception("%s hook %s failed", kind, name)
                self.report.add(Severity.ERROR, INTERNAL_ERROR, "", f"{name} failed: {type(exc).__name__}: {exc}")
                return None

        hook.__name__ = name
        hook.__doc__ = method.__doc__
        return hook

    return wrap


class GltfPhysicsImport:
    """``glTF2ImportUserExtension``: reads physics extensions into Blender rigid bodies.

    ``gather_import_gltf_before_hook`` parses the raw JSON into the spec model; the physics is built in
    ``gather_import_scene_after_nodes_hook`` (every object exists, animations not yet created); the last hook
    reports a summary to the import operator. Results stay in ``last_report("import")``.
    """

    def __init__(self):
        self.extensions = []
        self.report = RunReport("import")
        self.document = None
        self.json = None
        self.placeholders = None  # proxies.EmptyPlaceholders when the file has physics
        self.joint_empties = None  # joint_empties.JointEmpties when the file has physics
        self.node_joints: set[int] = set()  # joint nodes whose own Empty carries the constraint (joint_empties)
        self.file_names: dict[int, str] = {}  # node index → original name Blender could not hold (escaped)
        LAST_REPORTS["import"] = self.report
        try:  # io_scene_gltf2 creates the hooks outside any guard of ours: nothing here may reach it
            self.extensions = gltf_addon.handled_extensions()
        except Exception as exc:
            log.exception("import hook set-up failed")
            self.report.add(Severity.ERROR, INTERNAL_ERROR, "", f"set-up failed: {type(exc).__name__}: {exc}")

    @_guarded("import")
    def gather_import_gltf_before_hook(self, gltf):
        """JSON parsed, no Blender objects yet: read our data into the model."""
        self.file_names = gltf_addon.escape_names(gltf)  # before the importer names anything
        if not _import_enabled():
            self.report.counts["disabled"] = 1
            return
        with gc_paused():  # many short-lived objects: no full collector passes in between
            self.json = gltf_addon.raw_json(gltf)
            result = parse_gltf(self.json)
        for diag in result.diagnostics:  # the import goes on without the dropped data: never an ERROR here
            severity = Severity.WARNING if diag.severity >= Severity.ERROR else diag.severity
            self.report.add(severity, diag.code, diag.pointer, diag.message)
        self.document = result.document
        create_world_early(self.document, self.report)  # while the scene holds none of the file's objects
        if not self.document.is_empty():
            candidates = replacement_candidates(self.document, self.json.get("nodes") or [])
            self.placeholders = EmptyPlaceholders(candidates, gltf)
            self.node_joints = node_joints(self.document, self.json)
            joint_nodes = {i for i, n in self.document.nodes.items() if n.joint is not None} - self.node_joints
            names = {n.get("name") for n in self.json.get("nodes") or [] if isinstance(n, dict)}
            self.joint_empties = JointEmpties(joint_nodes, self.placeholders.index, names)

    def gather_import_node_before_hook(self, vnode, gltf_node, gltf):
        """Before each object is created (not recorded in ``hooks_called``: once per node)."""
        if self.placeholders is None:
            return
        try:
            self.placeholders.before_node(vnode, gltf_node)
        except Exception as exc:  # the Empty is then replaced after the nodes: never worth more than a note
            self.report.add(Severity.INFO, INTERNAL_ERROR, "", f"creating a mesh object for an Empty failed: {exc}")

    def gather_import_node_after_hook(self, vnode, gltf_node, blender_object, gltf):
        """After each object is created: the node's data back as the file has it (once per node, not recorded)."""
        try:
            # every import: the node objects (public-hook path) serve steps that also run for plain files
            gltf_addon.record_node(gltf, vnode, gltf_node, blender_object)
            if self.placeholders is None:
                return
            self.placeholders.after_node(vnode, gltf_node)
            self.joint_empties.after_node(gltf_node, blender_object)
        except Exception as exc:
            self.report.add(Severity.INFO, INTERNAL_ERROR, "", f"restoring a node after its object failed: {exc}")

    @_guarded("import")
    def gather_import_scene_after_nodes_hook(self, gltf_scene, blender_scene, gltf):
        """All objects exist: keep escaped names and mark the nodes outside every scene, build the physics."""
        if self.placeholders is not None:
            self.placeholders.finish()
        for index, name in self.file_names.items():  # kept for export (ASCII JSON text holds any string)
            ob = gltf_addon.node_object(gltf, index)
            if ob is not None:
                ob.gltf_physics.file_name = json.dumps(name)
        if self.json is not None and mark_outside_scene(gltf, self.json):
            self.report.count("outside_scene")
        if self.document is None or self.document.is_empty():
            return
        ctx = ImportContext(
            document=self.document,
            gltf=gltf,
            scene=blender_scene,
            json=self.json,
            report=self.report,
            density=_import_density(blender_scene),
            placeholder=self.placeholders.mesh if self.placeholders is not None else None,
            joint_empties=dict(self.joint_empties.empties) if self.joint_empties is not None else {},
            node_joints=self.node_joints,
        )
        try:
            import_pipeline.build(ctx)
        finally:  # whatever failed, placeholder mesh objects go back to the file's Empties
            import_pipeline.restore_placeholders(ctx)

    @_guarded("import")
    def gather_import_scene_after_animation_hook(self, gltf_scene, blender_scene, gltf):
        """Last hook of an import: summary for the operator's report."""
        for level, message in summary_lines(self.report):
            gltf_addon.report_to_operator(gltf, level, message)


def _import_enabled() -> bool:
    import bpy

    settings = getattr(bpy.context.scene, "gltf_physics", None)
    return settings is None or bool(settings.import_physics)


def _import_density(scene) -> float:
    settings = getattr(scene, "gltf_physics", None)
    return float(settings.import_density) if settings is not None else 1000.0


def summary_lines(report: RunReport) -> list[tuple[str, str]]:
    """("INFO"|"WARNING", text) lines for the import operator: one summary plus the first warnings."""
    counts = report.counts
    headline = (
        f"glTF Physics: {counts.get('rigid_bodies', 0)} rigid bodies, {counts.get('constraints', 0)} constraints, "
        f"{counts.get('triggers', 0)} triggers"
    )
    return operator_lines(report, headline, bool(counts.get("rigid_bodies") or counts.get("triggers")))


class GltfPhysicsExport:
    """``glTF2ExportUserExtension``: writes Blender rigid bodies, constraints and imported glTF physics as the
    revision chosen in the export dialog (``Scene.gltf_physics.export_revision``). Thin: the mapping lives in
    ``blender_export`` / ``export_bodies`` / ``export_joints``. Results stay in ``last_report("export")``."""

    def __init__(self):
        self.Extension, self.ChildOfRootExtension = gltf_addon.extension_classes()
        self.report = RunReport("export")
        self.session = None
        self.off = False  # physics export is off for this run (read once: every hook of every node asks)
        LAST_REPORTS["export"] = self.report

    def _session(self, export_settings):
        """The run's ExportSession, or None when physics export is off."""
        if self.session is None:
            if self.off:
                return None
            import bpy

            settings = getattr(bpy.context.scene, "gltf_physics", None)
            if settings is not None and not settings.export_physics:
                self.report.counts["disabled"] = 1
                self.off = True
                return None
            revision = settings.export_revision if settings is not None else "2026"
            mass_properties = settings.export_mass_properties if settings is not None else "BLENDER"
            yup = gltf_addon.export_yup(export_settings)
            self.session = ExportSession(self.report, revision, yup, mass_properties)
        return self.session

    @_guarded("export")
    def gather_tree_filter_tag_hook(self, vtree, export_settings):
        """Import helpers (constraint Empties, world anchor, implicit-shape proxies) are not glTF nodes."""
        if self._session(export_settings) is None:
            return
        object_type = _object_type()
        with gc_paused():
            self.session.snapshot_all()
            for vnode, ob in gltf_addon.tree_objects(vtree):
                if isinstance(ob, object_type):
                    self.session.snapshot(ob)
                    if not gltf_addon.is_kept(vnode):
                        continue
                    dropped = session_decision(self.session, ob) == "drop"
                    if dropped:
                        gltf_addon.drop(vnode)
                        self.report.count("helpers_dropped")
                    if not self.session.reorder:
                        self.session.reorder = moves_nodes(ob, vnode, dropped)

    @_guarded("export")
    def gather_scene_hook(self, gltf2_scene, blender_scene, export_settings):
        """Nested bodies back under their parent, what a dropped helper held back in place (``node_order``)."""
        session = self.session
        if session is not None and session.reorder and isinstance(getattr(gltf2_scene, "nodes", None), list):
            restore_node_order(session, gltf2_scene.nodes, blender_scene)

    @_guarded("export")
    def gather_node_mesh_hook(self, gltf_hook_node_mesh, blender_object, export_settings):
        """Generated collision geometry is not exported as a render mesh."""
        if self._session(export_settings) is None or not isinstance(blender_object, _object_type()):
            return
        decision = session_decision(self.session, blender_object)
        if decision == "no_mesh":
            gltf_hook_node_mesh.export_mesh = False
        elif decision == "collision":  # geometry only: written here, without io_scene_gltf2's normals
            session = self.session
            mesh = collision_mesh(blender_object, export_settings, session.yup, session.collision_meshes)
            if mesh is not None:
                gltf_hook_node_mesh.export_mesh = False
                session.meshes_of[blender_object.as_pointer()] = mesh

    @_guarded("export")
    def gather_node_hook(self, gltf2_node, blender_object, export_settings):
        """One glTF node was gathered: remember which object it is (indices are resolved at the end)."""
        self.report.count("nodes")
        if not isinstance(blender_object, _object_type()):
            return
        _restore_file_name(gltf2_node, blender_object)
        session = self._session(export_settings)
        if session is not None:
            mesh = session.meshes_of.get(blender_object.as_pointer())
            if mesh is not None:
                gltf2_node.mesh = mesh
            session.record_node(gltf2_node, blender_object)

    @_guarded("export")
    def gather_gltf_extensions_hook(self, gltf2_plan, export_settings):
        """Everything gathered and flattened: final node indices are known; build and write the physics."""
        session = self._session(export_settings)
        if session is None:
            return
        if not session.yup:
            self.report.add(
                Severity.WARNING,
                EXPORT_APPROXIMATED,
                "",
                "+Y Up is off: physics shapes, vectors and joint frames are written for +Y up (the glTF convention)",
            )
        try:
            with gc_paused():  # many short-lived objects: no full collector passes in between
                export_pipeline.build(session, gltf2_plan)
        finally:
            _report_export(self.report, session.revision, export_settings)


@functools.cache
def _object_type() -> type:
    """``bpy.types.Object``, looked up once (each ``bpy.types`` attribute access is an RNA look-up, ~1.5 µs)."""
    import bpy

    return bpy.types.Object


def _restore_file_name(gltf2_node, blender_object) -> None:
    """Write back the node name the import had to escape, unless the object was renamed since."""
    stored = blender_object.gltf_physics.file_name
    if stored:
        try:
            original = json.loads(stored)
        except ValueError:  # a script broke it: the object's name stays
            return
        if isinstance(original, str) and printable(original) == blender_object.name:
            gltf2_node.name = original


def export_summary_lines(report: RunReport, revision: str) -> list[tuple[str, str]]:
    """("INFO"|"WARNING", text) lines for the export operator: one summary, the first warnings, then every Blender
    setting that was not written (``GLTF_PHYSICS_EXPORT_NOT_WRITTEN``: one line per setting)."""
    counts = report.counts
    headline = (
        f"glTF Physics ({revision}): {counts.get('rigid_bodies', 0)} rigid bodies, {counts.get('colliders', 0)} "
        f"colliders, {counts.get('joints', 0)} joints, {counts.get('triggers', 0)} triggers"
    )
    lines = operator_lines(report, headline, any(counts.get(k) for k in ("rigid_bodies", "colliders", "joints")))
    unwritten = [d for d in report.diagnostics if d.code == EXPORT_NOT_WRITTEN]
    return lines + [("INFO", f"glTF Physics: {d.message}") for d in unwritten]


def _report_export(report: RunReport, revision: str, export_settings) -> None:
    """Queue the summary for the export operator."""
    for level, message in export_summary_lines(report, revision):
        gltf_addon.report_to_export_operator(export_settings, level, message)
