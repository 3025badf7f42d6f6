"""A material edit (the ``update`` of the stored material's values) → Blender's friction / restitution.

Outside a pre-combined scene Blender gets the import's rule (``blender_coefficient``: √value, or the value for
``multiply``). In a scene whose friction / restitution Reproduce Motion pre-combined
(``importer.reproduce.combine``: each dynamic body set to the spec's combined value with the static bodies it can
touch, those to 1), an edited material redoes that plan from the stored materials of the scene's bodies
(``mapping.combine_pairs``):
every pre-combined object back to the import's default rule first, the edit applied, then the plan's values set
and marked again, so the exporter still writes the stored materials.
"""

from __future__ import annotations

import bpy

from ...io.importer.reproduce import combine
from ...io.importer.reproduce.mass import carrier_of
from ...io.mapping import stored as props
from ...io.mapping.combine_pairs import Body, plan
from ..filters.sync_filters import units
from .sync_body import expected_state, material_holders, model_material, proxy_index, synced


@synced
def material_changed(ob, pmat, context) -> None:
    if pmat != ob.gltf_physics.collider.material:
        return
    if context.scene is not None and pre_combined(context.scene):
        replan(context.scene, ob)  # Reproduce Motion's per-pair values, planned again
        return
    for holder in material_holders(ob):
        props.apply_material(holder.rigid_body, model_material(pmat))


def pre_combined(scene) -> bool:
    """Has Reproduce Motion pre-combined any friction / restitution of ``scene``?"""
    return any(ob.gltf_physics.collider.material.reproduced for ob in scene.objects)


def replan(scene, edited) -> None:
    """The pre-combine of ``scene`` planned again after ``edited``'s material changed."""
    combine.restore(scene)
    for holder in material_holders(edited):
        props.apply_material(holder.rigid_body, model_material(edited.gltf_physics.collider.material))
    proxies = proxy_index(bpy.data.objects)
    dynamic, static, realisers = [], [], {}
    for body, members in units(scene):
        first = next((m for m in members if m.gltf_physics.collider.has_collider), None)
        if first is None:
            continue
        carrier = carrier_of(body)
        material = combine.sim_material(model_material(first.gltf_physics.collider.material))
        collections = frozenset(i for i, on in enumerate(carrier.rigid_body.collision_collections) if on)
        key = len(realisers)
        realisers[key] = list(dict.fromkeys([*members, *material_holders(body, proxies)]))
        (dynamic if _dynamic(body, carrier) else static).append(Body(key, material, collections, body.name))
    result = plan(dynamic, static)
    for key, values in (result.values if result is not None else {}).items():
        for ob in realisers[key]:
            if ob.rigid_body is not None:
                combine.set_pre_combined(ob, values["friction"], values["restitution"])


def _dynamic(body, carrier) -> bool:
    """Dynamic as the import counted it: the stored motion's state (a pre-rolled body is Animated only for its first
    frames); a body authored in Blender by its rigid body."""
    pm = body.gltf_physics.motion
    if pm.has_motion:
        return expected_state(pm) == ("ACTIVE", False)
    return carrier.rigid_body.type == "ACTIVE" and not carrier.rigid_body.kinematic


CLASSES: tuple = ()
