"""glTF values edited in the panels → the Blender settings that simulate them (bodies and materials).

Property ``update`` callbacks of ``ui/body/properties.py``. Each one writes exactly what the importer would have written
for the edited value (``io/importer/bodies.py``), so the exporter's edit detection (``io/exporter/stored.py``) still
sees "unchanged" and writes the edited glTF value. They are cheap (a few ``setattr``), run only when
``mapping.sync_gate.active()`` (not during an import, not inside another sync) and never raise.

Per value, :func:`status` says how Blender holds it: ``SIMULATED``, ``REPRODUCED`` (an import reproduction helper,
``io/importer/reproduce/``) or ``STORED`` (kept for export only).
"""

from __future__ import annotations

import functools
import math
import traceback

import bpy
from bpy.app.translations import pgettext_iface as iface_

from ...io.gltf.model import DYNAMIC, KINEMATIC, STATIC, PhysicsMaterial
from ...io.importer.reproduce import velocity
from ...io.importer.reproduce.mass import carrier_of
from ...io.mapping import stored as props
from ...io.mapping import sync_gate
from ...io.mapping.gravity_weight import gravity_weight
from . import body_shapes

SIMULATED, REPRODUCED, STORED = "simulated", "reproduced", "stored only"
STATUS_ICONS = {SIMULATED: "PHYSICS", REPRODUCED: "CONSTRAINT", STORED: "EXPORT"}
ERRORS: list[str] = []  # the last sync failures (an update callback must not raise), for scripts and tests


def synced(function):
    """An ``update`` callback running ``function(object, owner, context)`` under the gate; errors are kept in
    ``ERRORS`` and printed, never raised (Blender would print them in the middle of a drag)."""

    @functools.wraps(function)
    def update(owner, context) -> None:
        if not sync_gate.active():  # first: the import writes with the gate closed, once per stored value
            return
        ob = owner.id_data
        if not isinstance(ob, bpy.types.Object):
            return
        with sync_gate.paused():
            try:
                function(ob, owner, context)
            except Exception:  # a panel edit must never leave a traceback in the UI
                ERRORS[:] = [*ERRORS[-9:], traceback.format_exc()]
                print("glTF Physics sync:", ERRORS[-1])

    return update


# --- motion -------------------------------------------------------------------------------------------------------


def expected_state(pm) -> tuple[str, bool]:
    """(rigid body type, kinematic) the importer gives a stored motion (``io/importer/bodies._apply_motion``)."""
    if pm.kind == STATIC:
        return "PASSIVE", bool(pm.animated)
    if pm.mass_mode == "INFINITE":
        return "PASSIVE", True
    return "ACTIVE", pm.kind == KINEMATIC or bool(pm.animated)


def _compound_children(ob) -> list:
    if ob.rigid_body is None or ob.rigid_body.collision_shape != "COMPOUND":
        return []
    return [child for child in ob.children if child.rigid_body is not None]


def _density(context) -> float:
    settings = getattr(getattr(context, "scene", None), "gltf_physics", None)
    return float(settings.import_density) if settings is not None else 1000.0


def apply_mass(ob, pm, context) -> None:
    """Explicit → the mass; Computed → density × volume of the collider shapes (as *Compute Mass*); Infinite →
    nothing (a passive body has no mass). On ``ob`` (what the exporter reads) and on a centre-of-mass carrier that
    simulates it."""
    mass = None
    if pm.mass_mode == "EXPLICIT" and pm.mass > 0.0:
        mass = pm.mass
    elif pm.mass_mode == "ABSENT":
        result, _notes = body_shapes.body_mass(ob, _density(context), body_shapes.PANEL_MAX_VERTICES)
        if result is not None and result.mass > 0.0:
            mass = result.mass
    for target in dict.fromkeys((ob, carrier_of(ob))) if mass is not None else ():
        target.rigid_body.mass = mass


@synced
def motion_state_changed(ob, _pm, context) -> None:
    """Type, mass mode, animated, "has motion": the body type and Animated flag the importer would set."""
    pm, rb = ob.gltf_physics.motion, ob.rigid_body
    if not pm.has_motion or rb is None:
        return
    kind, kinematic = expected_state(pm)
    if kind == "PASSIVE" or kinematic:  # no longer a dynamic body: Reproduce Motion's initial-velocity pre-roll goes
        velocity.drop_preroll(ob, context.scene)
    carrier = carrier_of(ob)  # a centre-of-mass helper simulates its body: the state goes there
    for target in dict.fromkeys((carrier, ob, *_compound_children(carrier))):
        if target.rigid_body.type != kind:
            target.rigid_body.type = kind
        if bool(target.rigid_body.kinematic) != kinematic:
            target.rigid_body.kinematic = kinematic
    apply_mass(ob, pm, context)


@synced
def velocity_changed(ob, _pm, context) -> None:
    """An edited initial velocity rebuilds Reproduce Motion's pre-roll (or constant velocity) of a body that has
    one (``importer.reproduce.velocity.retarget``); without one the value is kept for export only."""
    if ob.gltf_physics.motion.has_motion and context.scene is not None:
        velocity.retarget(ob, context.scene)


@synced
def motion_presence_changed(ob, pm, _context) -> None:
    """ "glTF motion present" switched on: the stored motion takes Blender's body (type, Animated, mass) instead of
    pushing the defaults onto it; switched off: nothing changes in Blender."""
    rb = ob.rigid_body
    if not pm.has_motion or rb is None:
        return
    if rb.type == "PASSIVE":
        pm.kind, pm.animated, pm.mass_mode = STATIC, bool(rb.kinematic), "EXPLICIT"
    else:
        pm.kind, pm.animated, pm.mass_mode = (KINEMATIC if rb.kinematic else "dynamic"), False, "EXPLICIT"
    pm.mass = rb.mass


@synced
def material_presence_changed(ob, pmat, _context) -> None:
    """ "Physics Material" switched on: the stored material takes Blender's friction / restitution (as ``multiply``,
    exact); switched off: Blender gets the spec's defaults, as the importer gives a collider without material."""
    if pmat != ob.gltf_physics.collider.material:
        return
    holders = material_holders(ob)
    if pmat.has_material and holders:
        rb = holders[0].rigid_body
        pmat.static_friction = pmat.dynamic_friction = rb.friction
        pmat.restitution = rb.restitution
        pmat.friction_combine = pmat.restitution_combine = "multiply"
    for holder in holders:
        props.apply_material(holder.rigid_body, model_material(pmat))


@synced
def mass_changed(ob, _pm, context) -> None:
    pm = ob.gltf_physics.motion
    if pm.has_motion and ob.rigid_body is not None:
        apply_mass(ob, pm, context)


# --- material -----------------------------------------------------------------------------------------------------


def dynamic_gravity_factors(world) -> list[float]:
    """The gravity factor of every body Blender simulates as dynamic in ``world`` (ACTIVE, not Animated, not a
    compound's shape): the stored ``gravityFactor`` of a dynamic glTF motion, else 1 — as the importer counts them."""
    out = []
    for ob in world.collection.objects if world.collection is not None else ():
        rb = ob.rigid_body
        if rb is None or rb.type != "ACTIVE" or rb.kinematic:
            continue
        if ob.parent is not None and ob.parent.rigid_body is not None:
            continue
        carried = ob.gltf_physics.joint.node_b  # a centre-of-mass helper counts with its body's factor
        if carried is not None and carrier_of(carried) == ob:
            ob = carried
        pm = ob.gltf_physics.motion
        out.append(float(pm.gravity_factor) if pm.has_motion and pm.kind == DYNAMIC else 1.0)
    return out


@synced
def gravity_changed(_ob, _pm, context) -> None:
    """An edited ``gravityFactor`` redoes the import's reproduction (``mapping.gravity_weight``: the shared factor,
    mixed → the most common one; every factor 1 → weight 1) on the world's gravity weight, when the scene's
    *Reproduce Motion* option is on (as for the import). Bodies that miss their factor are marked "stored only"."""
    scene = context.scene
    world = scene.rigidbody_world if scene is not None else None
    if world is None or not scene.gltf_physics.import_reproduce:
        return
    decided = gravity_weight(dynamic_gravity_factors(world))
    world.effector_weights.gravity = 1.0 if decided is None else decided.weight


def proxy_index(objects) -> dict[tuple[int, int], list]:
    """(parent, node index) → the import proxies among ``objects`` standing for that node (``role`` PROXY, with a
    rigid body): one pass, for callers that ask for many bodies (``Object.children`` scans every object)."""
    out: dict[tuple[int, int], list] = {}
    for child in objects:
        cpg = child.gltf_physics
        if cpg.role == "PROXY" and child.parent is not None and child.rigid_body is not None:
            out.setdefault((child.parent.as_pointer(), cpg.proxy_node), []).append(child)
    return out


def material_holders(ob, proxies: dict | None = None) -> list:
    """The rigid bodies realising this object's stored collider: its own (unless a compound parent), its
    centre-of-mass carrier and the import proxies standing for its node (``proxies``: a ``proxy_index`` of the
    scene, else the owners' children are read)."""
    pg = ob.gltf_physics
    out = []
    if ob.rigid_body is not None and ob.rigid_body.collision_shape != "COMPOUND":
        out.append(ob)
    carrier = carrier_of(ob)  # a centre-of-mass helper simulates its body: Blender uses the compound's values
    if carrier is not ob:
        out.append(carrier)
    if pg.node_index >= 0:
        owners = [ob, *([ob.parent] if ob.parent is not None else [])]
        if proxies is None:
            proxies = proxy_index(child for owner in owners for child in owner.children)
        out += [p for owner in owners for p in proxies.get((owner.as_pointer(), pg.node_index), ())]
    return out


def model_material(pmat) -> PhysicsMaterial | None:
    if not pmat.has_material:
        return None
    return PhysicsMaterial(
        static_friction=pmat.static_friction,
        dynamic_friction=pmat.dynamic_friction,
        restitution=pmat.restitution,
        friction_combine=None if pmat.friction_combine == "NONE" else pmat.friction_combine,
        restitution_combine=None if pmat.restitution_combine == "NONE" else pmat.restitution_combine,
    )


# --- status marks ---------------------------------------------------------------------------------------------


def _locked_by_helper(ob) -> bool:
    """A reproduction helper (``role`` REPRODUCTION) locks this body's rotation (infinite inertia)."""
    world = bpy.context.scene.rigidbody_world if bpy.context.scene is not None else None
    collection = world.constraints if world is not None else None
    if collection is None:
        return False
    bodies = {ob, carrier_of(ob)}  # a centre-of-mass helper carries the lock of its body
    for helper in collection.objects:
        c = helper.rigid_body_constraint
        if c is not None and helper.gltf_physics.joint.role == "REPRODUCTION" and {c.object1, c.object2} & bodies:
            return True
    return False


def motion_status(ob, name: str) -> str:
    """How Blender holds the stored motion value ``name`` of ``ob``."""
    pm, rb = ob.gltf_physics.motion, ob.rigid_body
    if rb is None:
        return STORED
    if name in ("kind", "mass_mode", "mass", "animated"):
        return SIMULATED
    if name == "gravity_factor":
        if pm.gravity_factor == 1.0:
            return SIMULATED
        world = bpy.context.scene.rigidbody_world if bpy.context.scene is not None else None
        weight = world.effector_weights.gravity if world is not None else 1.0
        return REPRODUCED if math.isclose(weight, pm.gravity_factor, rel_tol=1e-6) else STORED
    if name in ("inertia_diagonal", "inertia_orientation") and _locked_by_helper(ob):
        return REPRODUCED
    if name in ("linear_velocity", "angular_velocity") and bpy.context.scene is not None:
        return REPRODUCED if velocity.preroll_of(ob, bpy.context.scene) is not None else STORED
    return STORED


def material_status(name: str) -> str:
    """Blender simulates the dynamic friction and the restitution (through the combine rule); the static friction
    is kept for export only."""
    return STORED if name == "static_friction" else SIMULATED


def draw_status(layout, status: str) -> None:
    """The mark next to a value: *simulated* / *reproduced* / *stored only*."""
    layout.label(text=iface_(status), icon=STATUS_ICONS[status], translate=False)


def prop_with_status(layout, data, name: str, status: str, **kwargs) -> None:
    row = layout.row(align=True)
    row.prop(data, name, **kwargs)
    draw_status(row, status)


CLASSES: tuple = ()
