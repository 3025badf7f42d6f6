"""The order of an import: rigid-body world → bodies and colliders → replaced Empties removed → triggers →
collision filters → joints → reproduction helpers (``reproduce``, behind the import option). Every step and every
object is isolated (``ImportContext.guarded``): an exception becomes a WARNING diagnostic with the JSON pointer of
the data, and the import goes on.
"""

from __future__ import annotations

from .. import gltf_addon
from ..mapping.sync_gate import paused as sync_paused
from . import bodies, filters, joint_empties, joints, triggers
from .context import ImportContext, gc_paused
from .proxies import remove_replaced
from .reproduce import step as reproduce
from .world import ensure_world, needs_world


def build(ctx: ImportContext) -> None:
    """Build the physics of ``ctx.document`` into ``ctx.scene``."""
    # the panels' property sync stays off while the import writes; stored values skip its update callbacks
    with gc_paused(), sync_paused():
        try:
            _build(ctx)
        finally:  # replaced Empties deleted, unused placeholders back to Empties, unused joint Empties deleted
            ctx.guarded("", "removing replaced Empties", remove_replaced, ctx)
            ctx.guarded("", "removing unused joint Empties", joint_empties.remove_unused, ctx)


def collect_objects(ctx: ImportContext) -> None:
    """``ctx.objects``: the Blender object of every node that has one."""
    for index, _ in enumerate(ctx.json_nodes):
        ob = gltf_addon.node_object(ctx.gltf, index)
        if ob is not None:
            ctx.objects[index] = ob


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
    ctx.guarded("", "bodies and colliders", bodies.build, ctx)
    ctx.guarded("", "removing replaced Empties", remove_replaced, ctx)
    ctx.guarded("", "triggers", triggers.build, ctx)
    ctx.guarded("", "collision filters", filters.apply, ctx)
    ctx.guarded("", "joints", joints.build, ctx)
    ctx.guarded("", "reproduction", reproduce.build, ctx)
    counts = ctx.report.counts
    counts["rigid_bodies"] = len(ctx.body_objects)
    counts["triggers"] = len(ctx.trigger_objects)
    if ctx.world is not None and ctx.world.constraints is not None:
        counts["constraints"] = sum(  # the file's joints: reproduction helpers are not counted
            1 for ob in ctx.world.constraints.objects if ob.rigid_body_constraint and not reproduce.is_helper(ob)
        )
