"""The phases of an import, in the order io_scene_gltf2 calls our hooks (``ImportRun``), and the order of the build:
rigid-body world → bone stand-ins → bodies and colliders → replaced Empties removed → stand-ins tied to their bones →
triggers → collision filters → joints → reproduction helpers (``reproduce``, behind the import option).

Phases: *read* (JSON parsed, no objects yet: our model of the file, the rigid-body world, the placeholders that give
an Empty with a collider a mesh object) → *per node* (each object as it is created) → *build* (every object exists,
animations not yet created) → *finish* (the summary for the import operator). Every step and every object is
isolated (``ImportContext.guarded``): an exception becomes a WARNING diagnostic with the JSON pointer of the data,
and the import goes on.
"""

from __future__ import annotations

import json

from .. import gltf_addon
from ..collector import gc_paused
from ..diagnostics import Severity, internal_failure
from ..gltf.counts import COUNT_KEYS, counts_text
from ..gltf.parse import parse_gltf
from ..mapping.sync_gate import paused as sync_paused
from ..report import RunReport, operator_lines
from . import blender_settings, bodies, bone_stand_ins, filters, joint_empties, joints, triggers
from .bodies import replacement_candidates
from .context import PLACEHOLDER_FAILED, ImportContext
from .joint_empties import JointEmpties, node_joints
from .proxies import EmptyPlaceholders, remove_replaced
from .reproduce import step as reproduce
from .reproduce.helpers import is_helper
from .scenes import mark_outside_scene
from .world import create_world_early, ensure_world, needs_world


class ImportRun:
    """What one import keeps between io_scene_gltf2's hooks (``io/hooks.py`` calls one method per hook)."""

    def __init__(self, report: RunReport) -> None:
        self.report = report
        self.document = None
        self.json = None
        self.placeholders = None  # proxies.EmptyPlaceholders when the file has physics
        self.joint_empties = None  # joint_empties.JointEmpties when the file has physics
        self.node_joints: set[int] = set()  # joint nodes whose own Empty carries the constraint (joint_empties)
        self.file_names: dict[int, str] = {}  # node index → original name Blender could not hold (escaped)

    def read(self, gltf) -> None:
        """JSON parsed, no Blender objects yet: read our data into the model (``gather_import_gltf_before_hook``)."""
        self.file_names = gltf_addon.escape_names(gltf)  # before the importer names anything
        if not import_enabled():
            self.report.counts["disabled"] = 1
            return
        with gc_paused():  # many short-lived objects: no full collector passes in between
            self.json = gltf_addon.raw_json(gltf)
            result = parse_gltf(self.json)
        for diag in result.diagnostics:  # the import goes on without the dropped data, at the code's one severity
            self.report.add(diag.severity, diag.code, diag.pointer, diag.message)
        self.document = result.document
        create_world_early(self.document, self.report)  # while the scene holds none of the file's objects
        if not self.document.is_empty():
            candidates = replacement_candidates(self.document, self.json.get("nodes") or [])
            self.placeholders = EmptyPlaceholders(candidates, gltf)
            self.node_joints = node_joints(self.document, self.json)
            joint_nodes = {i for i, n in self.document.nodes.items() if n.joint is not None} - self.node_joints
            names = {n.get("name") for n in self.json.get("nodes") or [] if isinstance(n, dict)}
            self.joint_empties = JointEmpties(joint_nodes, names)

    def before_node(self, vnode, gltf_node, gltf) -> None:
        """Before each object is created: an Empty with a collider gets a placeholder mesh."""
        if self.placeholders is None:
            return
        try:
            self.placeholders.before_node(vnode, gltf_node, gltf_addon.node_index(gltf, gltf_node))
        except Exception:  # the Empty is then replaced after the nodes: never worth more than a note
            self.report.add(Severity.INFO, PLACEHOLDER_FAILED, "", internal_failure("a mesh object for an Empty"))

    def after_node(self, vnode, gltf_node, blender_object, gltf) -> None:
        """After each object is created: the node's data back as the file has it."""
        try:
            # every import: the node objects (public-hook path) serve steps that also run for plain files
            index = gltf_addon.node_index(gltf, gltf_node)
            gltf_addon.record_node(gltf, vnode, index, blender_object)
            if self.placeholders is None:
                return
            self.placeholders.after_node(vnode, gltf_node, index)
            self.joint_empties.after_node(index, blender_object)
        except Exception:
            self.report.add(Severity.INFO, PLACEHOLDER_FAILED, "", internal_failure("restoring a node's own data"))

    def after_nodes(self, blender_scene, gltf) -> None:
        """All objects exist: keep escaped names and mark the nodes outside every scene, build the physics. The
        file's JSON and model are let go at the end: io_scene_gltf2 keeps this run (through its hook object) until
        the whole import is over, and what we no longer need would otherwise stay live through its animation and
        selection steps and their collector passes."""
        try:
            self._after_nodes(blender_scene, gltf)
        finally:
            self.json = self.document = self.placeholders = self.joint_empties = None

    def _after_nodes(self, blender_scene, gltf) -> None:
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
            build(ctx)
        finally:  # whatever failed, placeholder mesh objects go back to the file's Empties
            restore_placeholders(ctx)

    def finish(self, gltf) -> None:
        """Last hook of an import: the summary for the operator's report."""
        for level, message in summary_lines(self.report):
            gltf_addon.report_to_operator(gltf, level, message)


def import_enabled() -> bool:
    """The scene's *Import Physics* option (on when the scene has no settings)."""
    import bpy

    settings = getattr(bpy.context.scene, "gltf_physics", None)
    return settings is None or bool(settings.import_physics)


def _import_density(scene) -> float:
    settings = getattr(scene, "gltf_physics", None)
    return float(settings.import_density) if settings is not None else 1000.0


def built_counts(ctx: ImportContext, joints_built: int) -> dict[str, int]:
    """The file's bodies, colliders, joints and triggers (``gltf/counts.py``'s definition: a static collider is a
    collider, not a body) that this import built in Blender; one it could not build has its own WARNING."""
    nodes = ctx.document.nodes
    return {
        "bodies": sum(1 for i in ctx.body_objects if i in nodes and nodes[i].motion is not None),
        "colliders": sum(1 for i in ctx.collider_objects if i in nodes and nodes[i].collider is not None),
        "joints": joints_built,
        "triggers": len(ctx.trigger_objects),
    }


def summary_lines(report: RunReport) -> list[tuple[str, str]]:
    """("INFO"|"WARNING", text) lines for the import operator: one summary plus the first warnings."""
    counts = report.counts
    headline = f"glTF Physics: {counts_text(counts)}"  # the file's physics as read (gltf/counts.py)
    return operator_lines(report, headline, any(counts.get(key) for key in COUNT_KEYS))


def build(ctx: ImportContext) -> None:
    """Build the physics of ``ctx.document`` into ``ctx.scene``."""
    # the panels' property sync stays off while the import writes; stored values skip its update callbacks
    with gc_paused(), sync_paused():
        try:
            _build(ctx)
        finally:  # replaced Empties deleted, unused placeholders back to Empties, unused joint Empties deleted
            ctx.flush_stored()  # each object's stored text, once
            ctx.guarded("", "removing replaced Empties", remove_replaced, ctx)
            ctx.guarded("", "removing unused joint Empties", joint_empties.remove_unused, ctx)


def collect_objects(ctx: ImportContext) -> None:
    """``ctx.objects``: the Blender object of every node that has one."""
    ctx.objects.update(gltf_addon.node_objects(ctx.gltf, len(ctx.json_nodes)))


def restore_placeholders(ctx: ImportContext) -> None:
    """After a build that failed early: placeholder mesh objects become the file's Empties again."""
    if ctx.placeholder is not None:
        if not ctx.objects:
            collect_objects(ctx)
        remove_replaced(ctx)


def _build(ctx: ImportContext) -> None:
    collect_objects(ctx)
    if needs_world(ctx.document):
        ctx.world = ctx.guarded("", "creating the rigid-body world", ensure_world, ctx.scene)
        if ctx.world is None:
            return
    ctx.guarded("", "bone stand-ins", bone_stand_ins.build, ctx)
    ctx.guarded("", "bodies and colliders", bodies.build, ctx)
    ctx.guarded("", "removing replaced Empties", remove_replaced, ctx)
    ctx.guarded("", "bone stand-ins and their bones", bone_stand_ins.tie, ctx)
    ctx.guarded("", "triggers", triggers.build, ctx)
    ctx.guarded("", "collision filters", filters.apply, ctx)
    ctx.guarded("", "joints", joints.build, ctx)
    ctx.guarded("", "Blender-only settings", blender_settings.apply, ctx)
    ctx.guarded("", "reproduction", reproduce.build, ctx)
    counts = ctx.report.counts
    counts.update(built_counts(ctx, counts.get("joints", 0)))  # what summaries show: gltf/counts.py's definition
    counts["rigid_bodies"] = len(ctx.body_objects)
    counts["triggers"] = len(ctx.trigger_objects)
    if ctx.world is not None and ctx.world.constraints is not None:
        counts["constraints"] = sum(  # the file's joints: reproduction helpers are not counted
            1 for ob in ctx.world.constraints.objects if ob.rigid_body_constraint and not is_helper(ob)
        )
