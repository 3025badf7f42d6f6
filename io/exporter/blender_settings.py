"""Blender-only settings into the written ``extras`` (``mapping.blender_settings``): each exported rigid body's
damping, deactivation, margin, Dynamic flag, collision source; each joint's breaking, solver and spring settings;
the rigid-body world's speed, steps and the scene's gravity. Engines do not read them (``unwritten`` warns about
the ones that change the motion); the next Blender import restores them, so Blender → glTF → Blender loses nothing.

The values are Blender's current ones, for stored and native bodies alike: an entry the import kept from the file
(joints keep their node's ``extras``) is replaced, so an edit made in Blender since wins.
"""

from __future__ import annotations

from ..gltf.model import NodeJoint, Passthrough
from ..mapping.blender_settings import (
    BODY,
    BODY_KEY,
    CHILD_SETTINGS,
    CONSTRAINT,
    CONSTRAINT_KEY,
    GRAVITY_SCENE_NAMES,
    WORLD,
    WORLD_KEY,
    settings_entry,
    with_entry,
)
from ..mapping.mass_to_gltf import in_compound
from .context import EXPORT_SKIPPED, Builder, exact_key


def body_values(rb, child: bool = False) -> dict:
    """The ``BODY`` settings of a rigid body, as Blender holds them; of a compound's child (``child``) only those of
    its shape (``CHILD_SETTINGS``): Bullet moves the compound with its parent's damping, deactivation, Dynamic."""
    return {name: getattr(rb, name) for name in (CHILD_SETTINGS if child else BODY)}


def constraint_values(c) -> dict:
    """The ``CONSTRAINT`` settings of a constraint (the spring type only where springs exist: GENERIC_SPRING)."""
    return {name: getattr(c, name) for name in CONSTRAINT if name != "spring_type" or c.type == "GENERIC_SPRING"}


def world_values(scene) -> dict:
    """The ``WORLD`` settings: the rigid-body world's and the scene's gravity."""
    rbw = scene.rigidbody_world
    values = {name: getattr(scene, name) for name in GRAVITY_SCENE_NAMES}
    if rbw is not None:
        values.update({name: getattr(rbw, name) for name in WORLD if name not in GRAVITY_SCENE_NAMES})
    values["gravity"] = tuple(values["gravity"])
    return values


_BODY_ENTRY = ("body settings entry",)  # ``Builder.memo`` key prefix: the bodies of a scene share few settings


def _body_entry(b: Builder, values: dict) -> dict:
    """``settings_entry(values, BODY)``, once per export for each set of values (names and exact values: a zero's
    sign is written too). Shared: copy it before it goes into a file's extras."""
    key = (*_BODY_ENTRY, *values, *exact_key(*values.values()))
    entry = b.memo.get(key)
    if entry is None:
        entry = b.memo[key] = settings_entry(values, BODY)
    return entry


WRITTEN_CONSTRAINTS = ("constraints written",)  # ``Builder.memo`` key: the Empties whose constraint became a joint


def keep_constraint(b: Builder, node_joint: NodeJoint, empty, c) -> None:
    """``extras.blender_rigid_body_constraint`` of a written joint from ``empty``'s constraint ``c`` (the Empty is
    remembered for ``unwritten``: an imported joint's Empty is not an exported object)."""
    b.memo.setdefault(WRITTEN_CONSTRAINTS, []).append(empty)
    entry = settings_entry(constraint_values(c), CONSTRAINT)
    node_joint.extras, _ = with_entry(node_joint.extras, CONSTRAINT_KEY, entry)


def keep_settings(b: Builder) -> None:
    """Every written body's settings on its node's physics object, the world's on the document's."""
    import bpy

    for ob in b.session.objects.values():
        rb = getattr(ob, "rigid_body", None)
        if rb is None:
            continue
        entry = None
        for index in b.node_indices(ob):
            physics = b.doc.nodes.get(index)
            if physics is None or (physics.motion is None and physics.collider is None):
                continue
            if entry is None:
                entry = _body_entry(b, body_values(rb, in_compound(ob)))
            physics.extras, kept = with_entry(physics.extras, BODY_KEY, dict(entry))
            if not kept:
                b.warn(EXPORT_SKIPPED, "", f"{ob.name!r}: its node's extras are not an object: Blender settings lost")
    if not b.doc.nodes:
        return
    entry = settings_entry(world_values(bpy.context.scene), WORLD)
    root = b.doc.root.get("bodies")
    extras, _ = with_entry(None if root is None else root.extras, WORLD_KEY, entry)
    if extras is not None or root is not None:
        if root is None:
            root = b.doc.root["bodies"] = Passthrough()
        root.extras = extras
