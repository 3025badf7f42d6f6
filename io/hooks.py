"""The hook classes io_scene_gltf2 instantiates once per import / export (exposed on the root package): the entry
points only. The phases live in ``importer/pipeline.py`` (``ImportRun``) and ``exporter/pipeline.py``
(``ExportRun``).

Every hook body is wrapped: an exception in an import hook would abort the user's whole glTF import, and one in an
export hook would be swallowed silently. Problems become messages in the run's :class:`RunReport`.
"""

from __future__ import annotations

import logging

from . import gltf_addon
from .diagnostics import Severity, internal_failure
from .exporter.pipeline import ExportRun
from .gltf.validate.codes import INTERNAL_ERROR
from .importer.pipeline import ImportRun
from .report import RunReport

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
            except Exception:
                log.exception("%s hook %s failed", kind, name)
                self.report.add(Severity.ERROR, INTERNAL_ERROR, "", internal_failure(f"the {kind} step {name}"))
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
        self.run = ImportRun(self.report)
        LAST_REPORTS["import"] = self.report
        try:  # io_scene_gltf2 creates the hooks outside any guard of ours: nothing here may reach it
            self.extensions = gltf_addon.handled_extensions()
        except Exception:
            log.exception("import hook set-up failed")
            self.report.add(Severity.ERROR, INTERNAL_ERROR, "", internal_failure("setting up the physics import"))

    @_guarded("import")
    def gather_import_gltf_before_hook(self, gltf):
        """JSON parsed, no Blender objects yet: read our data into the model."""
        self.run.read(gltf)

    def gather_import_node_before_hook(self, vnode, gltf_node, gltf):
        """Before each object is created (not recorded in ``hooks_called``: once per node; never raises)."""
        self.run.before_node(vnode, gltf_node, gltf)

    def gather_import_node_after_hook(self, vnode, gltf_node, blender_object, gltf):
        """After each object is created (once per node, not recorded; never raises)."""
        self.run.after_node(vnode, gltf_node, blender_object, gltf)

    @_guarded("import")
    def gather_import_scene_after_nodes_hook(self, gltf_scene, blender_scene, gltf):
        """All objects exist: build the physics."""
        self.run.after_nodes(blender_scene, gltf)

    @_guarded("import")
    def gather_import_scene_after_animation_hook(self, gltf_scene, blender_scene, gltf):
        """Last hook of an import: summary for the operator's report."""
        self.run.finish(gltf)


class GltfPhysicsExport:
    """``glTF2ExportUserExtension``: writes Blender rigid bodies, constraints and imported glTF physics as the
    revision chosen in the export dialog (``Scene.gltf_physics.export_revision``). Results stay in
    ``last_report("export")``."""

    def __init__(self):
        self.Extension, self.ChildOfRootExtension = gltf_addon.extension_classes()
        self.report = RunReport("export")
        self.run = ExportRun(self.report)
        LAST_REPORTS["export"] = self.report

    @_guarded("export")
    def gather_tree_filter_tag_hook(self, vtree, export_settings):
        """Import helpers (constraint Empties, world anchor, implicit-shape proxies) are not glTF nodes."""
        self.run.filter_tree(vtree, export_settings)

    @_guarded("export")
    def gather_scene_hook(self, gltf2_scene, blender_scene, export_settings):
        """Nested bodies back under their parent (``node_order``)."""
        self.run.scene(gltf2_scene, blender_scene)

    @_guarded("export")
    def gather_node_mesh_hook(self, gltf_hook_node_mesh, blender_object, export_settings):
        """Generated collision geometry is not exported as a render mesh."""
        self.run.node_mesh(gltf_hook_node_mesh, blender_object, export_settings)

    @_guarded("export")
    def gather_node_hook(self, gltf2_node, blender_object, export_settings):
        """One glTF node was gathered: remember which object it is."""
        self.run.node(gltf2_node, blender_object, export_settings)

    @_guarded("export")
    def gather_joint_hook(self, gltf2_node, blender_bone, export_settings):
        """A bone's glTF node was gathered: remember it for the physics of the bone's stand-ins."""
        self.run.joint(gltf2_node, blender_bone, export_settings)

    @_guarded("export")
    def gather_gltf_extensions_hook(self, gltf2_plan, export_settings):
        """Everything gathered and flattened: build and write the physics."""
        self.run.extensions(gltf2_plan, export_settings)

    @_guarded("export")
    def passthrough_extension_data(self, passthrough_extensions, gltf2_plan, export_settings):
        """io_scene_gltf2 5.2+: our extensions' values go into the file as written (``ExportRun``)."""
        self.run.passthrough_extension_data(passthrough_extensions)
