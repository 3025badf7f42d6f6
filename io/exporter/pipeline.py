"""The phases of an export, in the order io_scene_gltf2 calls our hooks (``ExportRun``), and the order of the build.

Phases: *tree filter* (which objects are glTF nodes: import helpers are dropped) → *scene* (nested bodies back
under their parents) → *per node* (collision geometry instead of render meshes, each node's object recorded) →
*build*, once node indices are final (``gather_gltf_extensions_hook``): every object's body / collider / trigger
(``bodies``) → collision filters of native collision collections → joints (``joints``) → nested bodies back under
their file parents → notes for Blender settings glTF cannot hold (``unwritten``) → collider-only meshes off their
nodes. The document is written with the project's writers (``gltf.write.write_target``) and merged into
io_scene_gltf2's plan as plain dicts, which io_scene_gltf2 encodes and writes once with the rest of the file.
"""

from __future__ import annotations

import functools
import json

from .. import gltf_addon
from ..collector import gc_paused
from ..diagnostics import Severity, pointer, printable
from ..gltf.counts import COUNT_KEYS, counts_text, physics_counts
from ..gltf.validate.codes import EXPORT_PLAYS_DIFFERENTLY
from ..gltf.write import write_target
from ..mapping.bone_nodes import stand_in_bone
from ..mapping.passthrough import extension_names
from ..mapping.stored_values import view_of
from ..report import MAX_REPORTED, RunReport, operator_lines
from . import blender_settings, bodies, joints, unwritten
from .collision_meshes import collision_mesh
from .context import Y_UP_OFF, Builder, ExportSession
from .node_order import moves_nodes
from .node_order import restore_scene as restore_node_order
from .selection import session_decision


class ExportRun:
    """What one export keeps between io_scene_gltf2's hooks (``io/hooks.py`` calls one method per hook)."""

    def __init__(self, report: RunReport) -> None:
        self.report = report
        self.session: ExportSession | None = None
        self.off = False  # physics export is off for this run (read once: every hook of every node asks)
        self.passthrough: list[str] = []  # extension names all of whose values we wrote (``apply_output``)

    def _session(self, export_settings) -> ExportSession | None:
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
            self.session.apply_modifiers = gltf_addon.export_apply_modifiers(export_settings)
        return self.session

    def filter_tree(self, vtree, export_settings) -> None:
        """Import helpers (constraint Empties, world anchor, implicit-shape proxies) are not glTF nodes."""
        session = self._session(export_settings)
        if session is None:
            return
        object_type = _object_type()
        with gc_paused():
            session.snapshot_all()
            for vnode, ob in gltf_addon.tree_objects(vtree):
                if isinstance(ob, object_type):
                    session.snapshot(ob)
                    if not gltf_addon.is_kept(vnode):
                        continue
                    dropped = session_decision(session, ob) == "drop"
                    if dropped:
                        gltf_addon.drop(vnode)
                        self.report.count("helpers_dropped")
                    if not session.reorder:
                        session.reorder = moves_nodes(session.pg_of(ob), vnode, dropped)

    def scene(self, gltf2_scene, blender_scene) -> None:
        """Nested bodies back under their parent, what a dropped helper held back in place (``node_order``)."""
        session = self.session
        if session is not None and session.reorder and isinstance(getattr(gltf2_scene, "nodes", None), list):
            restore_node_order(session, gltf2_scene.nodes, blender_scene)

    def node_mesh(self, gltf_hook_node_mesh, blender_object, export_settings) -> None:
        """Generated collision geometry is not exported as a render mesh."""
        session = self._session(export_settings)
        if session is None or not isinstance(blender_object, _object_type()):
            return
        decision = session_decision(session, blender_object)
        if decision == "no_mesh":
            gltf_hook_node_mesh.export_mesh = False
        elif decision == "collision":  # geometry only: written here, without io_scene_gltf2's normals
            mesh = collision_mesh(blender_object, export_settings, session.yup, session.collision_meshes)
            if mesh is not None:
                gltf_hook_node_mesh.export_mesh = False
                session.meshes_of[blender_object.as_pointer()] = mesh

    def node(self, gltf2_node, blender_object, export_settings) -> None:
        """One glTF node was gathered: remember which object it is (indices are resolved at the end)."""
        self.report.count("nodes")
        if not isinstance(blender_object, _object_type()):
            return
        session = self._session(export_settings)
        _restore_file_name(gltf2_node, blender_object, session)
        if session is not None:
            mesh = session.meshes_of.get(blender_object.as_pointer())
            if mesh is not None:
                gltf2_node.mesh = mesh
            if stand_in_bone(blender_object) is not None:  # its node holds its collision mesh; its physics goes
                session.stand_in_nodes.setdefault(blender_object.name, []).append(gltf2_node)  # onto the bone's
                return
            session.record_node(gltf2_node, blender_object)

    def joint(self, gltf2_node, blender_bone, export_settings) -> None:
        """A bone's glTF node was gathered: the physics of its stand-ins goes there (``mapping/bone_nodes.py``)."""
        session = self._session(export_settings)
        if session is not None and getattr(gltf2_node, "name", None) == getattr(blender_bone, "name", None):
            session.record_bone(gltf2_node, blender_bone)  # not a leaf bone's extra node (``_leaf``)

    def extensions(self, gltf2_plan, export_settings) -> None:
        """Everything gathered and flattened: final node indices are known; build and write the physics."""
        gltf_addon.drop_own_extras(gltf2_plan, EXTRAS_KEY)  # Blender 4.x writes our property groups as extras
        session = self._session(export_settings)
        if session is None:
            return
        if not session.yup:
            self.report.add(
                Severity.WARNING,
                Y_UP_OFF,
                "",
                "+Y Up is off: physics shapes, vectors and joint frames are written for +Y up (the glTF convention)",
            )
        revision = session.revision
        try:
            with gc_paused():  # many short-lived objects: no full collector passes in between
                self.passthrough = build(session, gltf2_plan)
                # the last hook: the session (a stored-values view, a world matrix, a decision per object) is freed
                # here, not when io_scene_gltf2 drops this hook object once the file is written: fewer live objects
                # while io_scene_gltf2 encodes the file, so fewer collector passes
                self.session = session = None
        finally:
            _report_export(self.report, revision, export_settings)

    def passthrough_extension_data(self, passthrough_extensions: list) -> None:
        """io_scene_gltf2 5.2+ asks which extensions' values go into the file as they are: ours, already in its
        written form (``apply_output``), so it does not copy and fix the physics twice more (the same file; older
        releases never ask, and fixing the written form leaves it as it is)."""
        for name in self.passthrough:
            if name not in passthrough_extensions:
                passthrough_extensions.append(name)


#: The name of our property groups (``Object.gltf_physics``, ``Scene.gltf_physics``): never written as extras.
EXTRAS_KEY = "gltf_physics"


@functools.cache
def _object_type() -> type:
    """``bpy.types.Object``, looked up once (each ``bpy.types`` attribute access is an RNA look-up)."""
    import bpy

    return bpy.types.Object


def _restore_file_name(gltf2_node, blender_object, session: ExportSession | None) -> None:
    """Write back the node name the import had to escape, unless the object was renamed since (physics export off
    too: no session, the object's stored values read once here)."""
    pg = view_of(blender_object) if session is None else session.pg_of(blender_object)
    stored = pg.file_name if pg is not None else ""
    if stored:
        try:
            original = json.loads(stored)
        except ValueError:  # a script broke it: the object's name stays
            return
        if isinstance(original, str) and printable(original) == blender_object.name:
            gltf2_node.name = original


def export_summary_lines(report: RunReport, revision: str) -> list[tuple[str, str]]:
    """("INFO"|"WARNING", text) lines for the export operator: one summary, the first warnings, then every other
    Blender setting that plays differently (``GLTF_PHYSICS_EXPORT_PLAYS_DIFFERENTLY``: one line per setting)."""
    counts = report.counts
    headline = f"glTF Physics ({revision}): {counts_text(counts)}"  # the physics written (gltf/counts.py)
    lines = operator_lines(report, headline, any(counts.get(key) for key in COUNT_KEYS))
    warnings = [d for d in report.diagnostics if d.severity >= Severity.WARNING]
    hidden = [d for d in warnings[MAX_REPORTED:] if d.code == EXPORT_PLAYS_DIFFERENTLY]
    return lines + [("WARNING", f"glTF Physics: {d}") for d in hidden]


def _report_export(report: RunReport, revision: str, export_settings) -> None:
    """Queue the summary for the export operator."""
    for level, message in export_summary_lines(report, revision):
        gltf_addon.report_to_export_operator(export_settings, level, message)


def apply_output(plan, output) -> list[str]:
    """Merge a writer's ``WriteOutput`` into the gltf2_io plan (plain dicts, in io_scene_gltf2's written form:
    ``gltf_addon.written_form``); returns the extension names whose every value in the plan is ours (node
    extensions, root extensions nobody else wrote; none when our values hold extensions of their own, whose
    declaration io_scene_gltf2 keeps only where its fix meets them): what io_scene_gltf2 5.2+ may pass through."""
    used = [name for _, exts in sorted(output.nodes.items()) for name in exts]
    used.extend(output.root)
    # extensions nested in kept extras / extensions / unknown keys
    nested = extension_names([list(output.root.values()), [list(e.values()) for e in output.nodes.values()]])
    used.extend(sorted(nested))
    names = list(plan.extensions_used or [])
    for name in used:
        if name not in names:
            names.append(name)
    for node in output.new_nodes:
        plan.nodes.append(gltf_addon.node_from_dict(node))
    for parent, child in output.new_children:
        parent_node = plan.nodes[parent]
        parent_node.children = [*(parent_node.children or []), child]
    written_form = gltf_addon.written_form
    owned = set()
    for index, exts in sorted(output.nodes.items()):
        node = plan.nodes[index]
        if node.extensions is None:
            node.extensions = {}
        for name, value in exts.items():
            node.extensions[name] = written_form(value)
            owned.add(name)
    shared = set()
    if output.root:
        if plan.extensions is None:
            plan.extensions = {}
        for name, value in output.root.items():
            existing = plan.extensions.get(name)
            if isinstance(existing, dict):
                existing.update(written_form(value))
                shared.add(name)  # another writer's members beside ours: io_scene_gltf2 fixes them as always
            else:
                plan.extensions[name] = written_form(value)
                owned.add(name)
    plan.extensions_used = names
    if nested:  # io_scene_gltf2 keeps a used extension declared only if its fix meets the name: not passed through
        return []
    return sorted(owned - shared)


def build(session: ExportSession, plan) -> list[str]:
    """Everything gathered and flattened: build the physics document and put it into ``plan``; the extensions
    io_scene_gltf2 may pass through (``apply_output``)."""
    builder = Builder(session, plan)
    nodes_ptr = pointer("nodes")
    for name, ob in list(session.objects.items()):
        builder.guarded(nodes_ptr, f"object {name!r}", bodies.add_object, builder, ob)
    builder.guarded("", "collision filters", bodies.assign_native_filters, builder)
    builder.guarded("", "compound trigger members", bodies.drop_non_trigger_members, builder)
    builder.guarded("", "joints", joints.add_joints, builder)
    builder.guarded("", "joint nodes", joints.restore_nodes, builder)
    builder.guarded("", "unused joint descriptions", joints.drop_unused_descriptions, builder)
    builder.guarded("", "restoring nested bodies", builder.restore_parents)
    builder.guarded("", "Blender-only settings", blender_settings.keep_settings, builder)
    builder.guarded("", "settings without a glTF field", unwritten.warn_unwritten, builder)
    builder.finish_nodes()
    counts = session.report.counts
    counts.update(physics_counts(builder.doc))  # one definition with the import's (gltf/counts.py)
    counts["rigid_bodies"] = counts["bodies"]
    counts["added_nodes"] = len(builder.new_nodes)
    if builder.doc.is_empty():
        return []
    output = write_target(builder.doc, session.revision, builder.context_json())
    for diag in output.diagnostics:
        session.report.add(diag.severity, diag.code, diag.pointer, diag.message)
    counts["added_nodes"] += len(output.new_nodes)
    return apply_output(plan, output)
