"""``gravityFactor``: Blender has one gravity for the whole rigid-body world, so the factor becomes the world's
gravity effector weight: exact when every dynamic body of the world shares the factor; mixed factors → the most
common one (ties: the one nearest 1, ``mapping.gravity_weight``), reported as not reproducible for the bodies that
do not get theirs."""

from __future__ import annotations

from ...mapping.gravity_weight import gravity_weight
from ..context import ImportContext
from .helpers import NOT_REPRODUCIBLE, REPRODUCED


def build(ctx: ImportContext, bodies: list) -> None:
    factors = {m: float(ctx.document.nodes[m].motion.gravity_factor) for m, _ in bodies}
    ours = {ob.as_pointer() for _, ob in bodies}
    others = 0  # dynamic bodies already in the world (not from this file): their factor is 1
    for ob in ctx.world.collection.objects if ctx.world.collection is not None else ():
        rb = ob.rigid_body
        child = ob.parent is not None and ob.parent.rigid_body is not None  # a compound's shape, not a body
        if ob.as_pointer() not in ours and rb is not None and rb.type == "ACTIVE" and not rb.kinematic and not child:
            others += 1
    decided = gravity_weight([*factors.values(), *([1.0] * others)])
    if decided is None:
        return
    chosen = decided.weight
    ctx.world.effector_weights.gravity = chosen
    if decided.exact:
        ptr = ctx.node_pointer(next(iter(factors)), "motion", "gravityFactor")
        ctx.note(REPRODUCED, ptr, f"gravityFactor {chosen:g} of every dynamic body: world gravity weight {chosen:g}")
        return
    for m, factor in factors.items():
        if decided.misses(factor):
            ctx.warn(
                NOT_REPRODUCIBLE,
                ctx.node_pointer(m, "motion", "gravityFactor"),
                f"not reproducible in Blender: mixed gravity factors (this body {factor:g}, world gravity weight "
                f"{chosen:g} for all bodies)",
            )
