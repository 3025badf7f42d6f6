"""Writer: model -> ``KHR_physics_rigid_bodies`` (+ ``KHR_implicit_shapes`` or ``KHR_collision_shapes``) in
revision "2026" (geometry {shape | mesh}), "2024-10" (geometry {shape | node}) or "2024-07" (collider.shape,
mesh shapes) (bpy-free).  Every shape parameter is written explicitly; values the revision cannot hold are reported
as ``PHYSICS_WRITE_LOSSY`` diagnostics."""

from __future__ import annotations

from ...diagnostics import pointer
from ..extensions import KHR_COLLISION_SHAPES as COLLISION
from ..extensions import KHR_IMPLICIT_SHAPES as IMPLICIT
from ..extensions import KHR_RIGID_BODIES as RB
from ..extensions import KHR_TARGETS
from ..model import (
    IMPLICIT_TYPES,
    KINEMATIC,
    MESH,
    PLANE,
    STATIC,
    Collider,
    Geometry,
    MeshShape,
    Motion,
    NodeJoint,
    NodePhysics,
    PhysicsDocument,
    Trigger,
)
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


class _KhrWriter:
    def __init__(self, document: PhysicsDocument, gltf: dict | None, revision: str):
        if revision not in KHR_TARGETS:
            raise ValueError(f"unknown KHR revision {revision!r}; expected one of {KHR_TARGETS}")
        self.ctx = WriteContext(document, gltf)
        self.doc = document
        self.rev = revision
        self.shape_ext = COLLISION if revision == "2024-07" else IMPLICIT
        self.shapes: list[dict] = []
        self.shape_map: dict[int, int] = {}  # model shape index -> written shape index
        self.mesh_shapes: dict[tuple[int, bool], int] = {}

    # -- shapes ----------------------------------------------------------------------------------------------------
    def write_shapes(self) -> None:
        for i, shape in enumerate(self.doc.shapes):
            ptr = pointer("extensions", self.shape_ext, "shapes", len(self.shapes))
            if isinstance(shape.params, MeshShape):
                if self.rev != "2024-07":
                    continue  # becomes geometry.mesh / geometry.node on each collider
                out = {
                    "type": MESH,
                    MESH: put_passthrough({"mesh": shape.params.mesh, **_mesh_extras(shape.params)}, shape.params),
                }
                hull = {"convexHull": shape.params.convex_hull}
                if shape.params.hull_passthrough is not None:
                    put_passthrough(hull, shape.params.hull_passthrough)
                out["extensions"] = {**shape.extensions, RB: hull}
            elif shape.type == PLANE and self.rev == "2024-07":
                self.ctx.lossy(ptr, "KHR_collision_shapes (2024-07) has no plane shape: dropped")
                continue
            elif shape.type in IMPLICIT_TYPES:
                out = {"type": shape.type, shape.type: write_params(shape.type, shape.params)}
                self.ctx.check_params(shape.type, shape.params, ptr)
            else:
                out = {"type": shape.type}
            if shape.name is not None:
                out["name"] = shape.name
            self.shape_map[i] = len(self.shapes)
            self.shapes.append(put_passthrough(out, shape))

    def mesh_shape(self, mesh: int, hull: bool) -> int:
        """2024-07: a ``mesh`` shape for a mesh geometry (one per (mesh, convexHull))."""
        key = (mesh, hull)
        if key not in self.mesh_shapes:
            self.mesh_shapes[key] = len(self.shapes)
            self.shapes.append({"type": MESH, MESH: {"mesh": mesh}, "extensions": {RB: {"convexHull": hull}}})
        return self.mesh_shapes[key]

    # -- node objects ------------------------------------------------------------------------------------------------
    def geometry(self, geometry: Geometry, owner: int, ptr: str) -> dict | None:
        """The target form of a geometry: {"shape": i} for 2024-07, else a geometry object; None if lost."""
        if geometry.node is not None and self.rev == "2024-10":  # same form: keep the node (children, skin)
            return put_passthrough({"node": geometry.node, "convexHull": geometry.convex_hull}, geometry)
        mesh_info = self.ctx.mesh_of_geometry(geometry, ptr)
        if mesh_info is None and geometry.shape is None:
            self.ctx.lossy(ptr, "geometry node has no mesh: dropped")
            return None
        if mesh_info is not None:
            mesh, hull, shape_params = mesh_info
            if self.rev == "2024-07":
                if shape_params is not None:
                    return {"shape": self.shape_map[geometry.shape]}
                return {"shape": self.mesh_shape(mesh, hull)}
            if shape_params is not None and (
                shape_params.skin is not None or shape_params.weights is not None or shape_params.use_node_weights
            ):
                self.ctx.lossy(ptr, "mesh shape skin/weights cannot be written in this revision")
            out = {"mesh": mesh} if self.rev == "2026" else {"node": self.ctx.node_for_mesh(mesh, owner)}
            out["convexHull"] = hull
        else:
            if geometry.shape not in self.shape_map:
                self.ctx.lossy(ptr, f"shape {geometry.shape} could not be written: dropped")
                return None
            if self.rev == "2024-07":
                return {"shape": self.shape_map[geometry.shape]}
            out = {"shape": self.shape_map[geometry.shape]}
            if geometry.convex_hull:
                out["convexHull"] = True
        return put_passthrough(out, geometry)

    def _geometry_into(self, out: dict, geometry: Geometry, owner: int, ptr: str) -> bool:
        written = self.geometry(geometry, owner, ptr)
        if written is None:
            return False
        if self.rev == "2024-07":
            if geometry.extras is not None or geometry.extensions or geometry.unknown:
                self.ctx.lossy(ptr, "2024-07 has no geometry object: its extras/extensions are not kept")
            out.update({"shape": written["shape"]})
        else:
            out["geometry"] = written
        return True

    def motion(self, motion: Motion, ptr: str) -> dict | None:
        if motion.kind == STATIC:
            self.ctx.lossy(
                ptr,
                "explicit static body is not representable in KHR: motion dropped "
                "(its colliders are static when no ancestor has motion)",
            )
            return None
        out: dict = {"isKinematic": motion.kind == KINEMATIC}
        for attr, key in (
            ("mass", "mass"),
            ("center_of_mass", "centerOfMass"),
            ("inertia_diagonal", "inertiaDiagonal"),
            ("inertia_orientation", "inertiaOrientation"),
        ):
            value = getattr(motion, attr)
            if value is not None:
                out[key] = list(value) if isinstance(value, tuple) else value
        if motion.mass == 0.0 or (motion.inertia_diagonal is not None and 0.0 in motion.inertia_diagonal):
            self.ctx.invalid_value(
                ptr,
                "a mass or inertia of 0 (infinite, as the KHR_physics_rigid_bodies README allows) is written as it "
                "is, though the schema requires a value above 0",
            )
        if motion.linear_velocity != (0.0, 0.0, 0.0):
            out["linearVelocity"] = list(motion.linear_velocity)
        if motion.angular_velocity != (0.0, 0.0, 0.0):
            out["angularVelocity"] = list(motion.angular_velocity)
        if motion.gravity_factor != 1.0:
            out["gravityFactor"] = motion.gravity_factor
        return put_passthrough(out, motion)

    def collider(self, collider: Collider, owner: int, ptr: str) -> dict | None:
        if collider.geometry is None:
            self.ctx.lossy(ptr, "OMI grouping collider without shape has no KHR equivalent: dropped")
            return None
        out: dict = {}
        if not self._geometry_into(out, collider.geometry, owner, ptr):
            return None
        if collider.material is not None:
            out["physicsMaterial"] = collider.material
        if collider.filter is not None:
            out["collisionFilter"] = collider.filter
        return put_passthrough(out, collider)

    def trigger(self, trigger: Trigger, owner: int, ptr: str) -> dict | None:
        out: dict = {}
        if trigger.geometry is not None:
            if not self._geometry_into(out, trigger.geometry, owner, ptr):
                return None
            if trigger.filter is not None:
                out["collisionFilter"] = trigger.filter
        else:
            nodes = trigger.nodes
            if nodes is None:  # OMI grouping trigger -> compound of the descendant simple triggers
                nodes = tuple(d for d in self.ctx.descendants(owner) if _simple_trigger(self.doc, d))
                if not nodes:
                    self.ctx.lossy(ptr, "grouping trigger without descendant triggers: dropped")
                    return None
                self.ctx.converted(ptr, "OMI grouping trigger written as a compound trigger")
            out["nodes"] = list(nodes)
            if trigger.filter is not None:
                self.ctx.lossy(ptr, "a compound trigger cannot carry a collision filter")
        return put_passthrough(out, trigger)

    def joint(self, joint: NodeJoint, owner: int, ptr: str) -> tuple[int, dict] | None:
        """(node that holds the joint, joint object); legacy pivots get attachment nodes under both bodies."""
        out = {"connectedNode": joint.connected_node, "joint": joint.joint, "enableCollision": joint.enable_collision}
        if joint.legacy_pivot is not None:
            made = self.ctx.pivot_nodes(joint.legacy_pivot, owner)
            if made is None:
                self.ctx.lossy(ptr, "legacy joint frames unknown: joint dropped")
                return None
            owner, out["connectedNode"] = made
            self.ctx.converted(ptr, "legacy joint written with attachment nodes under both bodies")
        return owner, put_passthrough(out, joint)

    def node(self, node: NodePhysics) -> None:
        index = node.node
        body: dict = {}
        if node.motion is not None:
            written = self.motion(node.motion, node_ptr(index, RB, "motion"))
            if written is not None:
                body["motion"] = written
        if node.collider is not None:
            written = self.collider(node.collider, index, node_ptr(index, RB, "collider"))
            if written is not None:
                body["collider"] = written
        if node.trigger is not None:
            written = self.trigger(node.trigger, index, node_ptr(index, RB, "trigger"))
            if written is not None:
                body["trigger"] = written
        if node.joint is not None:
            found = self.joint(node.joint, index, node_ptr(index, RB, "joint"))
            if found is not None:
                holder, joint = found
                if holder == index:
                    body["joint"] = joint
                else:
                    self.ctx.out.nodes.setdefault(holder, {})[RB] = {"joint": joint}
        put_passthrough(body, node)
        if body:
            self.ctx.out.nodes.setdefault(index, {})[RB] = body

    # -- document -----------------------------------------------------------------------------------------------
    def run(self) -> WriteOutput:
        self.write_shapes()
        for index in sorted(self.doc.nodes):
            self.node(self.doc.nodes[index])
        if self.shapes:
            shapes_root = {"shapes": self.shapes}
            if "shapes" in self.doc.root:
                put_passthrough(shapes_root, self.doc.root["shapes"])
            self.ctx.out.root[self.shape_ext] = shapes_root
        root: dict = {}
        if self.doc.materials:
            root["physicsMaterials"] = [
                write_material(self.ctx, m, pointer("extensions", RB, "physicsMaterials", i))
                for i, m in enumerate(self.doc.materials)
            ]
        if self.doc.filters:
            root["collisionFilters"] = [write_filter(f) for f in self.doc.filters]
        if self.doc.joints:
            paired = self.rev != "2024-07"
            root["physicsJoints"] = [
                write_joint_description(self.ctx, j, pointer("extensions", RB, "physicsJoints", i), paired)
                for i, j in enumerate(self.doc.joints)
            ]
        for role in ("bodies", "joints"):
            if role in self.doc.root:
                put_passthrough(root, self.doc.root[role])
        if root:
            self.ctx.out.root[RB] = root
        return self.ctx.out


def _simple_trigger(doc: PhysicsDocument, index: int) -> bool:
    node = doc.nodes.get(index)
    return node is not None and node.trigger is not None and node.trigger.geometry is not None


def _mesh_extras(params: MeshShape) -> dict:
    out: dict = {}
    if params.skin is not None:
        out["skin"] = params.skin
    if params.weights is not None:
        out["weights"] = list(params.weights)
    if params.use_node_weights:
        out["useNodeWeights"] = True
    return out


def write_khr(document: PhysicsDocument, revision: str = "2026", gltf: dict | None = None) -> WriteOutput:
    """Serialize ``document`` as KHR ``revision``; ``gltf`` (read-only) supplies node/mesh context."""
    return _KhrWriter(document, gltf, revision).run()
