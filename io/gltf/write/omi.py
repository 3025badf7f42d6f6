"""Writer: model -> current OMI (``OMI_physics_body`` + ``OMI_physics_shape`` + ``OMI_physics_joint``) (bpy-free).

Lossy cases are reported (``PHYSICS_WRITE_LOSSY``): plane shapes, mesh-shape skin/weights, absent mass (KHR
"computed", OMI reads absent as 1 kg), infinite mass / inertia (KHR 0, OMI 0 = automatic), computed centre of mass
(OMI absent = origin), velocities of kinematic bodies (OMI does not say they move them)."""

from __future__ import annotations

from ...diagnostics import pointer
from ..extensions import OMI_BODY as BODY
from ..extensions import OMI_JOINT as JOINT
from ..extensions import OMI_SHAPE as SHAPE
from ..model import IMPLICIT_TYPES, KINEMATIC, PLANE, Collider, Geometry, Motion, NodePhysics, PhysicsDocument, Trigger
from .common import (
    WriteContext,
    WriteOutput,
    node_ptr,
    put_passthrough,
    write_filter,
    write_joint_description,
    write_material,
    write_params,
)


class _OmiWriter:
    def __init__(self, document: PhysicsDocument, gltf: dict | None):
        self.ctx = WriteContext(document, gltf)
        self.doc = document
        self.shapes: list[dict] = []
        self.shape_map: dict[int, int] = {}
        self.mesh_shapes: dict[tuple[int, bool], int] = {}

    def write_shapes(self) -> None:
        for i, shape in enumerate(self.doc.shapes):
            ptr = pointer("extensions", SHAPE, "shapes", len(self.shapes))
            if shape.type == PLANE:
                self.ctx.lossy(ptr, "OMI_physics_shape has no plane shape: dropped")
                continue
            if shape.type not in IMPLICIT_TYPES:
                if shape.params is None:
                    self.ctx.lossy(ptr, f"shape type {shape.type!r} is not an OMI shape type: dropped")
                continue  # mesh shapes are written per geometry (convex / trimesh)
            out = {"type": shape.type, shape.type: write_params(shape.type, shape.params)}
            self.ctx.check_params(shape.type, shape.params, ptr)
            if shape.name is not None:
                out["name"] = shape.name
            self.shape_map[i] = len(self.shapes)
            self.shapes.append(put_passthrough(out, shape))

    def shape_index(self, geometry: Geometry, ptr: str) -> int | None:
        mesh_info = self.ctx.mesh_of_geometry(geometry, ptr)
        if mesh_info is not None:
            mesh, hull, params = mesh_info
            if params is not None and (
                params.skin is not None or params.weights is not None or params.use_node_weights
            ):
                self.ctx.lossy(ptr, "mesh shape skin/weights have no OMI equivalent")
            key = (mesh, hull)
            if key not in self.mesh_shapes:
                kind = "convex" if hull else "trimesh"
                self.mesh_shapes[key] = len(self.shapes)
                self.shapes.append({"type": kind, kind: {"mesh": mesh}})
            return self.mesh_shapes[key]
        if geometry.shape in self.shape_map:
            return self.shape_map[geometry.shape]
        self.ctx.lossy(ptr, "geometry could not be written: dropped")
        return None

    def motion(self, motion: Motion, ptr: str) -> dict:
        out: dict = {"type": motion.kind}
        if motion.mass is None:
            self.ctx.lossy(ptr, "mass absent (computed) has no OMI form: OMI reads it as 1 kg")
        elif motion.mass == 0.0:
            self.ctx.lossy(ptr, "mass 0 (infinite in KHR) has no OMI form: omitted")
        else:
            out["mass"] = motion.mass
        if motion.center_of_mass is None:
            self.ctx.lossy(ptr, "computed centre of mass has no OMI form: OMI reads it as the origin")
        else:
            out["centerOfMass"] = list(motion.center_of_mass)
        if motion.inertia_diagonal is not None:
            if any(v == 0.0 for v in motion.inertia_diagonal):
                self.ctx.lossy(ptr, "inertiaDiagonal 0 (infinite in KHR) means automatic in OMI: omitted")
            else:
                out["inertiaDiagonal"] = list(motion.inertia_diagonal)
                if motion.inertia_orientation is not None:
                    out["inertiaOrientation"] = list(motion.inertia_orientation)
        moving = motion.linear_velocity != (0.0, 0.0, 0.0) or motion.angular_velocity != (0.0, 0.0, 0.0)
        if moving and motion.kind == KINEMATIC:
            self.ctx.semantics(ptr, "OMI does not define that a kinematic body keeps its initial velocity")
        if motion.linear_velocity != (0.0, 0.0, 0.0):
            out["linearVelocity"] = list(motion.linear_velocity)
        if motion.angular_velocity != (0.0, 0.0, 0.0):
            out["angularVelocity"] = list(motion.angular_velocity)
        if motion.gravity_factor != 1.0:
            out["gravityFactor"] = motion.gravity_factor
        return put_passthrough(out, motion)

    def collider(self, collider: Collider, ptr: str) -> dict | None:
        out: dict = {}
        if collider.geometry is not None:
            shape = self.shape_index(collider.geometry, ptr)
            if shape is None:
                return None
            out["shape"] = shape
        if collider.material is not None:
            out["physicsMaterial"] = collider.material
        if collider.filter is not None:
            out["collisionFilter"] = collider.filter
        return put_passthrough(out, collider)

    def trigger(self, trigger: Trigger, ptr: str, owner: int) -> dict | None:
        out: dict = {}
        if trigger.geometry is not None:
            shape = self.shape_index(trigger.geometry, ptr)
            if shape is None:
                return None
            out["shape"] = shape
            if trigger.filter is not None:
                out["collisionFilter"] = trigger.filter
        elif trigger.nodes is not None:
            out["nodes"] = list(trigger.nodes)
        else:  # grouping trigger: the schema needs shape or nodes -> list the descendant simple triggers
            nodes = [
                d
                for d in self.ctx.descendants(owner)
                if d in self.doc.nodes
                and self.doc.nodes[d].trigger is not None
                and self.doc.nodes[d].trigger.geometry is not None
            ]
            if not nodes:
                self.ctx.lossy(ptr, "grouping trigger without descendant triggers: dropped")
                return None
            out["nodes"] = nodes
        return put_passthrough(out, trigger)

    def node(self, node: NodePhysics) -> None:
        index = node.node
        body: dict = {}
        makers = (
            ("motion", self.motion),
            ("collider", self.collider),
            ("trigger", lambda v, p: self.trigger(v, p, index)),
        )
        for key, make in makers:
            value = getattr(node, key)
            if value is not None:
                written = make(value, node_ptr(index, BODY, key))
                if written is not None:
                    body[key] = written
        put_passthrough(body, node)
        if body:
            self.ctx.out.nodes.setdefault(index, {})[BODY] = body
        if node.joint is not None:
            joint = node.joint
            out = {
                "connectedNode": joint.connected_node,
                "joint": joint.joint,
                "enableCollision": joint.enable_collision,
            }
            holder = index
            if joint.legacy_pivot is not None:
                made = self.ctx.pivot_nodes(joint.legacy_pivot, index)
                if made is None:
                    self.ctx.lossy(node_ptr(index, JOINT), "legacy joint frames unknown: joint dropped")
                    return
                holder, out["connectedNode"] = made
                self.ctx.converted(node_ptr(index, JOINT), "legacy joint written with attachment nodes")
            self.ctx.out.nodes.setdefault(holder, {})[JOINT] = put_passthrough(out, joint)

    def run(self) -> WriteOutput:
        self.write_shapes()
        for index in sorted(self.doc.nodes):
            self.node(self.doc.nodes[index])
        out = self.ctx.out
        if self.shapes:
            out.root[SHAPE] = {"shapes": self.shapes}
            if "shapes" in self.doc.root:
                put_passthrough(out.root[SHAPE], self.doc.root["shapes"])
        body: dict = {}
        if self.doc.materials:
            body["physicsMaterials"] = [
                write_material(self.ctx, m, pointer("extensions", BODY, "physicsMaterials", i))
                for i, m in enumerate(self.doc.materials)
            ]
        if self.doc.filters:
            body["collisionFilters"] = [write_filter(f) for f in self.doc.filters]
        if "bodies" in self.doc.root:
            put_passthrough(body, self.doc.root["bodies"])
        if body:
            out.root[BODY] = body
        if self.doc.joints:
            out.root[JOINT] = {
                "physicsJoints": [
                    write_joint_description(self.ctx, j, pointer("extensions", JOINT, "physicsJoints", i), False)
                    for i, j in enumerate(self.doc.joints)
                ]
            }
            if "joints" in self.doc.root:
                put_passthrough(out.root[JOINT], self.doc.root["joints"])
        return out


def write_omi(document: PhysicsDocument, gltf: dict | None = None) -> WriteOutput:
    """Serialize ``document`` as current OMI; ``gltf`` (read-only) supplies node/mesh context."""
    return _OmiWriter(document, gltf).run()
