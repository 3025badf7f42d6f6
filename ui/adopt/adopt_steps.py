"""*Adopt Physics Settings*, the Blender side: one object's settings of the other glTF-physics add-on (ID properties
``khr_physics_extra_props`` / ``khr_physics_extra_constraint_props``, read through ``mapping.adopt_extra_props``)
→ ``Object.gltf_physics``, so that the next export writes what that add-on's exporter wrote for them.

The original ID properties are only read. Each step returns the lines for the report: what was converted, and what
was not (with the reason). Blender settings changed to keep Blender and the file in step are reported as converted.
"""

from __future__ import annotations

import json

import bpy
import numpy as np
from mathutils import Matrix

from ...io.gltf.model import PhysicsMaterial
from ...io.gltf.nodes import relative_offset, rigid
from ...io.mapping import adopt_extra_props as extra
from ...io.mapping import mesh_points, stored_values
from ...io.mapping.axes import AXIS_CHANGE, BLENDER_TO_GLTF
from ...io.mapping.joints_to_blender import configure_constraint, configure_motor, permutation_matrix, plan_joint
from ...io.mapping.joints_to_gltf import constraint_description
from ...io.mapping.object_tree import ObjectTree
from ...io.mapping.shapes_to_blender import implicit_mesh, shape_to_json
from ...io.mapping.stored import apply_material, assign, store_description
from ...io.mapping.values_to_gltf import BLENDER_PRIMITIVES, derive_shape, shapes_close
from ..overlay.overlay_collect import constraint_settings


def _group(ob, key: str):
    """The ID property group ``key``: a custom property (older Blender, or the add-on not installed), else Blender
    5.0's separate storage of ``bpy.props`` values (``bl_system_properties_get``, the add-on installed)."""
    raw = ob.get(key)
    system = getattr(ob, "bl_system_properties_get", None)
    if raw is None and system is not None:
        holder = system()
        raw = None if holder is None else holder.get(key)
    return raw


def stored_props(ob, key: str) -> dict | None:
    """The other add-on's settings on ``ob`` as a plain dict (only the values that were set)."""
    raw = _group(ob, key)
    if raw is None:
        return None
    return raw.to_dict() if hasattr(raw, "to_dict") else dict(raw)


def has_legacy(ob) -> bool:
    """The object has a non-empty group of the other add-on's settings (an empty one holds only defaults)."""
    return any(len(_group(ob, key) or ()) > 0 for key in (extra.BODY_PROPS, extra.JOINT_PROPS))


def adopted(ob) -> bool:
    """True once the object carries this extension's glTF data (what *Adopt* writes)."""
    pg = getattr(ob, "gltf_physics", None)
    if pg is None:
        return False
    return pg.motion.has_motion or pg.collider.has_collider or pg.trigger.has_trigger or pg.joint.role != "NONE"


def plain_body(ob) -> bool:
    """A rigid body with neither the other add-on's settings nor any glTF data (nor made by this extension)."""
    pg = getattr(ob, "gltf_physics", None)
    if ob.rigid_body is None or pg is None or has_legacy(ob) or adopted(ob):
        return False
    return pg.role == "NONE" and pg.joint.role == "NONE"


def _compound_child(ob) -> bool:
    parent = ob.parent
    while parent is not None:
        if parent.rigid_body is not None and parent.rigid_body.collision_shape == "COMPOUND":
            return True
        parent = parent.parent
    return False


def _bounds(ob):
    return mesh_points.bounds(ob.data) if ob.type == "MESH" and ob.data is not None else None


def _motion(ob, pm, s: dict, done: list[str]) -> None:
    rb = ob.rigid_body
    assign(pm, has_motion=True, kind="kinematic" if rb.kinematic else "dynamic")
    if s["infinite_mass"]:
        assign(pm, mass_mode="INFINITE", mass=0.0)
        rb.type, rb.kinematic = "PASSIVE", True  # how this extension simulates KHR mass 0
        done.append("infinite_mass → motion.mass 0 (Blender body made animated passive)")
    else:
        assign(pm, mass_mode="EXPLICIT", mass=rb.mass)
    assign(
        pm,
        gravity_factor=s["gravity_factor"],
        linear_velocity=s["linear_velocity"],
        angular_velocity=s["angular_velocity"],
    )
    done += ["gravity_factor → motion.gravityFactor", "linear/angular_velocity → motion.linear/angularVelocity"]
    if s["enable_com_override"]:
        assign(pm, has_center_of_mass=True, center_of_mass=s["center_of_mass"])
        done.append("center_of_mass → motion.centerOfMass")
    if s["enable_inertia_override"]:
        assign(pm, has_inertia_diagonal=True, inertia_diagonal=s["inertia_major_axis"])
        assign(pm, has_inertia_orientation=True, inertia_orientation=extra.euler_xyz_to_quat(s["inertia_orientation"]))
        done.append("inertia_major_axis / inertia_orientation → motion.inertiaDiagonal / inertiaOrientation")


def shape_proxy(ob, shape, world) -> str | None:
    """A shape Blender cannot simulate on the object itself goes onto a generated proxy child, as the importer does:
    the proxy mesh of the shape (``implicit_mesh``: a convex hull for tapered capsules and frustums) with its own
    rigid body, the object becomes a COMPOUND body. Returns the proxy's name (None: no mesh for the shape)."""
    proxy = proxy_object(ob, shape, world)
    if proxy is None:
        return None
    proxy.parent, proxy.matrix_parent_inverse = ob, Matrix.Identity(4)
    ob.rigid_body.collision_shape = "COMPOUND"
    return proxy.name


def proxy_object(ob, shape, world):
    """A generated proxy object ``<ob>.collider`` holding ``shape`` for ``ob``'s node (wire, not rendered, role
    PROXY, a rigid body of ``ob``'s type and the shape's collision shape), not parented yet; None: no mesh."""
    data = implicit_mesh(shape, object_scale=tuple(abs(v) for v in ob.matrix_world.to_scale()))
    if data is None or world is None or world.collection is None:
        return None
    mesh = bpy.data.meshes.new(ob.name + ".collider")
    mesh.from_pydata(data.vertices, [], data.faces)
    mesh.update()
    proxy = bpy.data.objects.new(ob.name + ".collider", mesh)
    for collection in {*ob.users_collection, world.collection}:
        collection.objects.link(proxy)  # the rigid-body world's collection gives it a rigid body
    proxy.display_type, proxy.hide_render = "WIRE", True
    assign(proxy.gltf_physics, role="PROXY", proxy_node=ob.gltf_physics.node_index)
    rb, prb = ob.rigid_body, proxy.rigid_body
    prb.type, prb.kinematic, prb.collision_shape = rb.type, rb.kinematic, data.collision_shape
    return proxy


def _geometry(ob, s: dict, pgeo, trigger: bool, done: list[str], skipped: list[str], world, made: list) -> bool:
    """Store the geometry the add-on wrote (the shape override, else Blender's primitive or mesh)."""
    kind = ob.rigid_body.collision_shape
    if kind in ("CONVEX_HULL", "MESH"):
        if trigger:
            skipped.append(f"trigger with a {kind} shape: not converted (use Make Trigger on a mesh volume)")
            return False
        assign(pgeo, kind="MESH", convex_hull=kind == "CONVEX_HULL")
        return True
    bounds = _bounds(ob)
    derived = derive_shape(kind, *bounds) if bounds is not None and kind in BLENDER_PRIMITIVES else None
    override = extra.override_shape(s, kind)
    shape = derived
    if override is not None:
        if trigger or shapes_close(override, derived):
            shape = override
            done.append("cone_capsule_* → the shape's height / radiusTop / radiusBottom")
        elif (proxy := shape_proxy(ob, override, world)) is not None:
            made.append(bpy.data.objects[proxy])
            shape = override
            done.append(f"cone_capsule_* → the shape, simulated on the generated proxy {proxy!r} (body now COMPOUND)")
        else:
            skipped.append(
                f"cone_capsule_override ({override.type}) differs from the {kind} Blender simulates and no proxy "
                "could be made: not converted (export writes Blender's shape)"
            )
    if shape is None:
        skipped.append(f"collision shape {kind}: no glTF geometry")
        return False
    assign(pgeo, kind="SHAPE", shape_json=json.dumps(shape_to_json(shape)))
    return True


def _filter(ob, pflt) -> None:
    systems = json.dumps(extra.filter_systems(ob.rigid_body.collision_collections))
    assign(pflt, has_filter=True, collision_systems=systems, collide_with_systems=systems)


def adopt_body(ob, stored: dict, world=None, tree: ObjectTree | None = None) -> tuple[list[str], list[str]]:
    """``khr_physics_extra_props`` of one object → ``Object.gltf_physics`` (motion, collider or trigger, material,
    filter); (converted, not converted). The object's stored values are written as one text
    (``stored_values.editing``); ``tree``: the run's children index (``Object.children`` scans every object)."""
    done: list[str] = []
    skipped: list[str] = []
    s, bad = extra.body_settings(stored)
    skipped += [f"{key}: unreadable value, default used" for key in bad]
    if ob.rigid_body is None:
        return done, [*skipped, "no rigid body: the other add-on writes nothing for it; not converted"]
    with stored_values.editing(ob) as pg:
        _adopt_body(ob, pg, s, world, tree, done, skipped)
    return done, skipped


def _adopt_body(ob, pg, s: dict, world, tree: ObjectTree | None, done: list[str], skipped: list[str]) -> None:
    rb = ob.rigid_body
    if pg.role == "NONE":
        pg.role = "NODE"
    if rb.enabled and rb.type == "ACTIVE" and not _compound_child(ob):
        _motion(ob, pg.motion, s, done)
    if s["non_renderable"]:
        pg.generated_mesh = True
        done.append("non_renderable → node written without its render mesh")
    if rb.collision_shape == "COMPOUND":
        return
    holder = pg.trigger if s["is_trigger"] else pg.collider
    made: list = []  # a proxy generated for the shape
    if not _geometry(ob, s, holder.geometry, s["is_trigger"], done, skipped, world, made):
        return
    _filter(ob, holder.filter)
    done.append("collision collections → filter System_<i> (collisionSystems = collideWithSystems)")
    if s["is_trigger"]:
        holder.has_trigger = True
        done.append("is_trigger → trigger (Blender still simulates the body: remove its rigid body to match)")
        return
    holder.has_collider = True
    material = PhysicsMaterial(
        static_friction=rb.friction,
        dynamic_friction=rb.friction,
        restitution=rb.restitution,
        friction_combine=extra.combine_for_file(s["friction_combine"]),
        restitution_combine=extra.combine_for_file(s["restitution_combine"]),
    )
    assign(
        holder.material,
        has_material=True,
        static_friction=material.static_friction,
        dynamic_friction=material.dynamic_friction,
        restitution=material.restitution,
        friction_combine=material.friction_combine or "NONE",
        restitution_combine=material.restitution_combine or "NONE",
    )
    children = tree.children(ob) if tree is not None else ob.children
    proxies = [c for c in children if c.gltf_physics.role == "PROXY" and c.rigid_body is not None]
    for body in dict.fromkeys((ob, *proxies, *made)):  # the body and its generated proxies
        apply_material(body.rigid_body, material)  # Blender multiplies: √value per body, the importer's rule
    done.append("friction/restitution + combine modes → physics material (Blender values set by the combine rule)")


def _gltf_world(ob) -> np.ndarray:
    return rigid(BLENDER_TO_GLTF @ np.array(ob.matrix_world) @ AXIS_CHANGE)


def _motor_empty(name: str, matrix, empty, world):
    helper = bpy.data.objects.new(name, None)
    helper.empty_display_type, helper.empty_display_size = "ARROWS", 0.2
    helper.matrix_world = Matrix(matrix.tolist())
    for collection in {*empty.users_collection, world.constraints}:
        collection.objects.link(helper)
    return helper


def adopt_joint(empty, stored: dict, world) -> tuple[list[str], list[str]]:
    """``khr_physics_extra_constraint_props`` drives of one constraint Empty → a stored glTF joint (the constraint's
    limits in the Empty's axes + the drives), the Blender constraint re-planned with the importer's joint mapping
    (MOTOR helpers for velocity drives); (converted, not converted)."""
    c = empty.rigid_body_constraint
    drives, bad = extra.drives(stored)
    skipped = [f"{key}: unreadable value, default used" for key in bad]
    if not drives:
        return [], skipped
    if c is None or c.type not in ("GENERIC", "GENERIC_SPRING"):
        kind = "no constraint" if c is None else f"a {c.type} constraint"
        return [], [*skipped, f"{len(drives)} drive(s) on {kind}: the other add-on writes drives only for GENERIC"]
    if empty.gltf_physics.joint.role != "NONE":
        return [], [*skipped, "already a glTF joint: drives not converted again"]
    if c.object1 is None or c.object2 is None or world is None or world.constraints is None:
        return [], [*skipped, "drives on a constraint without two bodies in a rigid-body world: not converted"]
    description, _notes = constraint_description(constraint_settings(c))
    description.drives = [*description.drives, *drives]
    description.name = empty.name
    plan = plan_joint(description)
    frame_blender = rigid(np.array(empty.matrix_world))  # glTF frame A = the Empty's own axes (as export writes)
    frame = BLENDER_TO_GLTF @ frame_blender
    empty.matrix_world = Matrix((frame_blender @ permutation_matrix(plan.perm)).tolist())
    enable_collision = not c.disable_collisions
    configure_constraint(c, plan, c.object1, c.object2, enable_collision)
    for n, motor in enumerate(plan.motors):
        helper = _motor_empty(f"{empty.name}.motor{n}", frame_blender @ permutation_matrix(motor.perm), empty, world)
        configure_motor(helper.rigid_body_constraint, motor, c.object1, c.object2, enable_collision)
        assign(helper.gltf_physics.joint, role="MOTOR", notes=motor.note)
    frame_a = relative_offset(_gltf_world(c.object1), frame)
    frame_b = relative_offset(_gltf_world(c.object2), frame)
    with stored_values.editing(empty) as stored:  # the joint, its limits and drives: one text write
        _store_joint(stored.joint, empty.name, enable_collision, frame_a, frame_b, plan, description)
    axes = ", ".join(f"{d.type} {'XYZ'[d.axis]}" for d in drives)
    done = [f"drives ({axes}, Empty axes) → joint drives; Blender constraint re-planned as {plan.type}"]
    return done, skipped


def _store_joint(pj, name: str, enable_collision: bool, frame_a, frame_b, plan, description) -> None:
    assign(
        pj,
        role="JOINT",
        joint_name=name,
        enable_collision=enable_collision,
        frame_a_translation=frame_a[0],
        frame_a_rotation=frame_a[1],
        frame_b_translation=frame_b[0],
        frame_b_rotation=frame_b[1],
        approximated=bool(plan.notes),
        notes="; ".join(plan.notes),
    )
    store_description(pj, description)
