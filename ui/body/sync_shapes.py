"""Implicit-shape parameters edited in the panels → the generated proxy mesh that Blender simulates.

The parameters are properties with ``get`` / ``set`` on ``GLTF_PHYSICS_PG_geometry`` (``ui/body/properties.py``): they
read and write the stored ``shape_json`` text itself (glTF frame, the keys of KHR_implicit_shapes; other keys are
kept), so there is one source of truth. A write then rebuilds the mesh of the object realising the shape — a
generated proxy (``role`` PROXY / TRIGGER_PROXY for this node, or the node's own mesh when the import generated it)
— with ``mapping.shapes_to_blender.implicit_mesh``, the importer's builder, keeping the scale the import baked into
the old mesh; the Blender collision shape follows, and a *Computed* mass is recomputed. The exporter then derives
the new primitive from the rebuilt mesh, finds it equal to the stored shape and writes the edited value.

A shape realised by the node's own render mesh is not rebuilt (the mesh is the artist's): the first edit moves the
shape onto a generated proxy child (``to_proxy``), as the importer does for a shape that differs from the render
mesh, and the body becomes COMPOUND; later edits rebuild that proxy. Where that is not possible (a compound's shape,
a trigger), the parameters stay stored only.
"""

from __future__ import annotations

import json

import bpy
import numpy as np

from ...io.gltf.numbers import r7
from ...io.mapping import mesh_points, sync_gate
from ...io.mapping.mass_to_gltf import in_compound
from ...io.mapping.shapes_to_blender import implicit_mesh
from ...io.mapping.values_to_gltf import shape_from_json
from ..adopt.adopt_steps import proxy_object, shape_proxy
from .sync_body import SIMULATED, STORED, apply_mass

# property → (KHR_implicit_shapes key, shape types it applies to)
KEYS = {
    "shape_size": ("size", ("box",)),
    "shape_radius": ("radius", ("sphere",)),
    "shape_height": ("height", ("capsule", "cylinder")),
    "shape_radius_top": ("radiusTop", ("capsule", "cylinder")),
    "shape_radius_bottom": ("radiusBottom", ("capsule", "cylinder")),
    "shape_size_x": ("sizeX", ("plane",)),
    "shape_size_z": ("sizeZ", ("plane",)),
    "shape_double_sided": ("doubleSided", ("plane",)),
}
DEFAULTS = {"shape_size": (1.0, 1.0, 1.0), "shape_radius": 0.5, "shape_height": 0.5, "shape_double_sided": False}
PLANE_SIZES = ("shape_size_x", "shape_size_z")  # 0 in the panel = absent in the file = infinite


def _data(pgeo) -> dict | None:
    if pgeo.kind != "SHAPE" or not pgeo.shape_json:
        return None
    try:
        data = json.loads(pgeo.shape_json)
    except ValueError:
        return None
    return data if isinstance(data, dict) and isinstance(data.get(data.get("type")), dict) else None


def editable(pgeo) -> list[str]:
    """The parameter properties of the stored shape's type (none for unreadable or non-implicit shapes)."""
    data = _data(pgeo)
    kind = data.get("type") if data is not None else None
    return [name for name, (_key, kinds) in KEYS.items() if kind in kinds]


def _getter(name: str):
    key = KEYS[name][0]

    def get(pgeo):
        data = _data(pgeo)
        value = None if data is None else data[data["type"]].get(key)
        if value is None:
            return 0.0 if name in PLANE_SIZES else DEFAULTS.get(name, 0.25)
        if name == "shape_double_sided":
            return bool(value)
        return tuple(float(v) for v in value) if name == "shape_size" else float(value)

    return get


def _setter(name: str):
    key = KEYS[name][0]

    def set_(pgeo, value) -> None:
        data = _data(pgeo)
        if data is None or data["type"] not in KEYS[name][1]:
            return
        old = shape_from_json(json.loads(pgeo.shape_json))
        params = data[data["type"]]
        if name in PLANE_SIZES and value <= 0.0:
            params.pop(key, None)  # infinite
        elif name == "shape_double_sided":
            params[key] = bool(value)
        else:  # RNA hands over the typed value as a 32-bit float: stored as typed (0.1, not 0.10000000149011612)
            params[key] = [r7(float(v)) for v in value] if name == "shape_size" else r7(float(value))
        pgeo.shape_json = json.dumps(data)
        if sync_gate.active() and old is not None and old.params is not None:
            with sync_gate.paused():
                if holders(pgeo):
                    rebuild(pgeo, old)
                else:
                    to_proxy(pgeo)

    return set_


GET = {name: _getter(name) for name in KEYS}
SET = {name: _setter(name) for name in KEYS}


def param(name: str, label: str, description: str):
    """The ``bpy.props`` definition of shape parameter ``name`` (a length in metres; ``shape_size`` a vector)."""
    if name == "shape_double_sided":
        return bpy.props.BoolProperty(name=label, description=description, get=GET[name], set=SET[name])
    options = {"name": label, "min": 0.0, "unit": "LENGTH", "description": description}
    if name == "shape_size":
        return bpy.props.FloatVectorProperty(size=3, get=GET[name], set=SET[name], **options)
    return bpy.props.FloatProperty(get=GET[name], set=SET[name], **options)


def holders(pgeo) -> list:
    """Generated objects realising this geometry: proxies of the node (PROXY for a collider, TRIGGER_PROXY for a
    trigger) or the node's own generated mesh."""
    ob = pgeo.id_data
    pg = ob.gltf_physics
    trigger = pgeo == pg.trigger.geometry
    if pg.generated_mesh or (pg.role == "PROXY" and not trigger):
        return [ob]
    role = "TRIGGER_PROXY" if trigger else "PROXY"
    owners = [ob, *([ob.parent] if ob.parent is not None else [])]
    while owners[-1].rigid_body is None and owners[-1].parent is not None and len(owners) < 64:
        owners.append(owners[-1].parent)  # up to the body: a compound child's proxy is parented to the body
    return [
        child
        for owner in owners
        for child in owner.children
        if child.gltf_physics.role == role and child.gltf_physics.proxy_node == pg.node_index and child is not ob
    ]


def status(pgeo) -> str:
    return SIMULATED if holders(pgeo) else STORED


def convertible(pgeo) -> bool:
    """A collider shape realised by the node's own render mesh that an edit moves onto a generated proxy: the
    object is a rigid body of its own (not a compound's shape, not already COMPOUND) in a rigid-body world."""
    ob = pgeo.id_data
    rb = ob.rigid_body
    if pgeo != ob.gltf_physics.collider.geometry or rb is None or rb.collision_shape == "COMPOUND" or holders(pgeo):
        return False
    if ob.parent is not None and ob.parent.rigid_body is not None and not in_compound(ob):
        return False
    scene = bpy.context.scene
    return scene is not None and scene.rigidbody_world is not None


def _sibling_proxy(ob, shape, world) -> str | None:
    """A compound's shape carried by its render mesh: the edited shape goes onto a generated proxy beside it (a
    direct child of the body at its transform: only direct children are compound shapes); returns its name."""
    proxy = proxy_object(ob, shape, world)
    if proxy is None:
        return None
    proxy.parent = ob.parent
    proxy.matrix_world = ob.matrix_world.copy()
    return proxy.name


def to_proxy(pgeo) -> str | None:
    """An edited shape of a render-mesh collider goes onto a generated proxy child ``<name>.collider``, as the
    importer does for a shape that differs from the render mesh (the render mesh is left alone; the body becomes
    COMPOUND; a *Computed* mass follows). Returns the proxy's name (None: not convertible)."""
    if not convertible(pgeo):
        return None
    ob = pgeo.id_data
    shape = shape_from_json(json.loads(pgeo.shape_json))
    world = bpy.context.scene.rigidbody_world
    sibling = in_compound(ob)
    make = _sibling_proxy if sibling else shape_proxy
    name = make(ob, shape, world) if shape is not None else None
    if name is None:
        return None
    rb, prb = ob.rigid_body, bpy.data.objects[name].rigid_body
    prb.friction, prb.restitution = rb.friction, rb.restitution  # the material rule, as the importer's proxies
    prb.collision_collections = tuple(rb.collision_collections)
    if sibling:  # the render mesh no longer collides: the proxy is the compound's shape now
        with bpy.context.temp_override(object=ob, active_object=ob, selected_objects=[ob]):
            bpy.ops.rigidbody.object_remove()  # unlinking from the world's collection leaves ``rigid_body`` set
    if ob.gltf_physics.motion.has_motion:
        apply_mass(ob, ob.gltf_physics.motion, bpy.context)
    return name


def _extent(vertices) -> np.ndarray:
    low, high = mesh_points.bounds_of(vertices)
    return high - low


def rebuild(pgeo, old) -> int:
    """Rebuild the mesh of every generated holder from the stored shape, keeping the scale the import baked into
    the mesh of ``old`` (the shape before the edit); returns how many holders were rebuilt."""
    shape = shape_from_json(json.loads(pgeo.shape_json)) if pgeo.shape_json else None
    reference = implicit_mesh(old)
    if shape is None or shape.params is None or reference is None:
        return 0
    done = 0
    for holder in holders(pgeo):
        if holder.type != "MESH" or holder.data is None or not len(holder.data.vertices):
            continue
        current = np.empty(len(holder.data.vertices) * 3)
        holder.data.vertices.foreach_get("co", current)
        bake = _bake_scale(_extent(current), _extent(reference.vertices))
        made = implicit_mesh(shape, bake, tuple(abs(s) for s in holder.matrix_world.to_scale()))
        if made is None:
            continue
        mesh = bpy.data.meshes.new(holder.data.name)
        mesh.from_pydata(made.vertices, [], made.faces)
        mesh.update()
        previous, holder.data = holder.data, mesh
        if previous.users == 0:
            bpy.data.meshes.remove(previous)
        if holder.rigid_body is not None and holder.rigid_body.collision_shape != made.collision_shape:
            holder.rigid_body.collision_shape = made.collision_shape
        done += 1
    ob = pgeo.id_data
    body = ob if ob.rigid_body is not None and ob.gltf_physics.motion.has_motion else ob.parent
    if done and body is not None and body.rigid_body is not None and body.gltf_physics.motion.has_motion:
        apply_mass(body, body.gltf_physics.motion, bpy.context)
    return done


def _bake_scale(current: np.ndarray, reference: np.ndarray) -> tuple[float, float, float]:
    """Per-axis scale baked into a proxy mesh: its extent against the unscaled mesh of the same shape (1 on an
    axis without extent)."""
    return tuple(float(c / r) if r > 1e-12 else 1.0 for c, r in zip(current, reference, strict=True))
