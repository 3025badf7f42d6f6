// The project's own loader for the glTF physics extensions (KHR_physics_rigid_bodies + KHR_implicit_shapes, the
// revision our exporter writes: `geometry.shape | geometry.mesh`, 2024-10 `geometry.node` read too) into
// Babylon.js Physics V2 with Havok.  Test-only: it gives the test suite an engine that is not Blender's Bullet, so an
// export is judged by how another engine plays it (docs/testing.md).
//
// Rules it follows (../shared/docs/specs.md):
// - Every node's world matrix comes from its TRS or matrix and its parent chain.  A body is a node with `motion`;
//   its colliders are its own node and the descendants that have no `motion` of their own (compound).  A collider
//   without a `motion` ancestor is a static body of its own.
// - Havok bodies are rigid frames: a body's frame is its node's world position and rotation, and every scale
//   (the body node's and its colliders') is baked into the shapes: boxes and meshes exactly, spheres, capsules and
//   cylinders by the largest of the axes that set their radius, as engines do (the file does not say more).
// - Joint frames: the joint node is frame A on its nearest `motion` ancestor, `connectedNode` frame B on its own;
//   a frame without a body ancestor is pinned to the world.  Limits and drives use Havok's per-axis 6-DoF model.
// Anything the loader must approximate is listed in `notes`, so a mismatch can be traced to it.

import fs from "node:fs";
import path from "node:path";

import { Matrix, Quaternion, Vector3 } from "@babylonjs/core/Maths/math.vector.js";

const RB = "KHR_physics_rigid_bodies";
const SHAPES = "KHR_implicit_shapes";
const COMPONENTS = { 5120: Int8Array, 5121: Uint8Array, 5122: Int16Array, 5123: Uint16Array, 5125: Uint32Array, 5126: Float32Array };
const WIDTH = { SCALAR: 1, VEC2: 2, VEC3: 3, VEC4: 4, MAT4: 16 };
const NORMALIZED_DIVISOR = { 5120: 127, 5121: 255, 5122: 32767, 5123: 65535 };

/** Read a `.gltf` (JSON + external or data-URI buffers) or `.glb` file: `{ json, buffers }`. */
export function readGltf(file) {
    const bytes = fs.readFileSync(file);
    let json;
    let glbBin = null;
    if (bytes.readUInt32LE(0) === 0x46546c67) {
        let offset = 12;
        while (offset < bytes.length) {
            const length = bytes.readUInt32LE(offset);
            const type = bytes.readUInt32LE(offset + 4);
            const chunk = bytes.subarray(offset + 8, offset + 8 + length);
            if (type === 0x4e4f534a) json = JSON.parse(chunk.toString("utf8"));
            else if (type === 0x004e4942) glbBin = chunk;
            offset += 8 + length;
        }
    } else {
        json = JSON.parse(bytes.toString("utf8"));
    }
    const buffers = (json.buffers ?? []).map((buffer, index) => {
        if (buffer.uri === undefined) {
            if (index === 0 && glbBin) return glbBin;
            throw new Error(`/buffers/${index}: no uri and no GLB binary chunk`);
        }
        if (buffer.uri.startsWith("data:")) return Buffer.from(buffer.uri.split(",", 2)[1], "base64");
        return fs.readFileSync(path.join(path.dirname(file), decodeURIComponent(buffer.uri)));
    });
    return { json, buffers };
}

/** The elements of accessor `index` as arrays of numbers (sparse accessors included). */
export function readAccessor(gltf, index) {
    const accessor = gltf.json.accessors[index];
    const width = WIDTH[accessor.type];
    const Component = COMPONENTS[accessor.componentType];
    const out = new Float64Array(accessor.count * width);
    if (accessor.bufferView !== undefined) {
        const view = gltf.json.bufferViews[accessor.bufferView];
        const buffer = gltf.buffers[view.buffer];
        const size = Component.BYTES_PER_ELEMENT;
        const stride = view.byteStride ?? width * size;
        const base = buffer.byteOffset + (view.byteOffset ?? 0) + (accessor.byteOffset ?? 0);
        const data = new DataView(buffer.buffer);
        const read = {
            5120: (o) => data.getInt8(o),
            5121: (o) => data.getUint8(o),
            5122: (o) => data.getInt16(o, true),
            5123: (o) => data.getUint16(o, true),
            5125: (o) => data.getUint32(o, true),
            5126: (o) => data.getFloat32(o, true),
        }[accessor.componentType];
        for (let i = 0; i < accessor.count; i++) {
            for (let c = 0; c < width; c++) out[i * width + c] = read(base + i * stride + c * size);
        }
    }
    if (accessor.sparse) {
        const sparse = accessor.sparse;
        const indices = readView(gltf, sparse.indices.bufferView, sparse.indices.byteOffset, sparse.indices.componentType, sparse.count);
        const values = readView(gltf, sparse.values.bufferView, sparse.values.byteOffset, accessor.componentType, sparse.count * width);
        indices.forEach((target, i) => {
            for (let c = 0; c < width; c++) out[target * width + c] = values[i * width + c];
        });
    }
    if (accessor.normalized && NORMALIZED_DIVISOR[accessor.componentType]) {
        const divisor = NORMALIZED_DIVISOR[accessor.componentType];
        for (let i = 0; i < out.length; i++) out[i] = Math.max(out[i] / divisor, -1);
    }
    return out;
}

function readView(gltf, viewIndex, byteOffset, componentType, count) {
    const view = gltf.json.bufferViews[viewIndex];
    const buffer = gltf.buffers[view.buffer];
    const Component = COMPONENTS[componentType];
    const start = buffer.byteOffset + (view.byteOffset ?? 0) + (byteOffset ?? 0);
    return new Component(buffer.buffer.slice(start, start + count * Component.BYTES_PER_ELEMENT));
}

/** The local matrix of a node (`matrix`, else translation · rotation · scale). */
export function localMatrix(node) {
    if (node.matrix) return Matrix.FromArray(node.matrix);
    const t = node.translation ?? [0, 0, 0];
    const r = node.rotation ?? [0, 0, 0, 1];
    const s = node.scale ?? [1, 1, 1];
    return Matrix.Compose(new Vector3(...s), new Quaternion(...r), new Vector3(...t));
}

/** Parent index per node and world matrices (Babylon row-vector order: world = local · parentWorld). */
export function nodeTree(json) {
    const nodes = json.nodes ?? [];
    const parent = new Array(nodes.length).fill(-1);
    nodes.forEach((node, index) => (node.children ?? []).forEach((child) => (parent[child] = index)));
    const world = new Array(nodes.length);
    const visit = (index) => {
        if (world[index]) return world[index];
        const local = localMatrix(nodes[index]);
        world[index] = parent[index] < 0 ? local : local.multiply(visit(parent[index]));
        return world[index];
    };
    nodes.forEach((_, index) => visit(index));
    return { parent, world };
}

/** A matrix's (scale, rotation, translation); the scale keeps a mirror as a negative component. */
export function decompose(matrix) {
    const scale = new Vector3();
    const rotation = new Quaternion();
    const translation = new Vector3();
    matrix.decompose(scale, rotation, translation);
    return { scale, rotation, translation };
}

/** The rigid frame (rotation + translation, no scale) of a world matrix. */
export function rigidFrame(matrix) {
    const { rotation, translation } = decompose(matrix);
    return Matrix.Compose(new Vector3(1, 1, 1), rotation, translation);
}

function ext(node) {
    return (node.extensions ?? {})[RB];
}

/** The nearest node at or above `index` that has `motion` (-1: none). */
export function motionOwner(json, parent, index) {
    for (let at = index; at >= 0; at = parent[at]) {
        if (ext(json.nodes[at])?.motion) return at;
    }
    return -1;
}

/** Positions (and triangle indices) of a glTF mesh, transformed by `transform`: `{ points, triangles }`. */
export function meshGeometry(gltf, meshIndex, transform, notes, pointer) {
    const mesh = gltf.json.meshes?.[meshIndex];
    if (!mesh) throw new Error(`${pointer}: mesh ${meshIndex} does not exist`);
    const points = [];
    const triangles = [];
    for (const primitive of mesh.primitives) {
        const mode = primitive.mode ?? 4;
        if (primitive.attributes.POSITION === undefined) continue;
        const positions = readAccessor(gltf, primitive.attributes.POSITION);
        const base = points.length;
        for (let i = 0; i < positions.length; i += 3) {
            points.push(Vector3.TransformCoordinates(new Vector3(positions[i], positions[i + 1], positions[i + 2]), transform));
        }
        const count = positions.length / 3;
        const indices = primitive.indices !== undefined ? readAccessor(gltf, primitive.indices) : Array.from({ length: count }, (_, i) => i);
        if (mode === 4) {
            for (let i = 0; i + 2 < indices.length; i += 3) triangles.push(base + indices[i], base + indices[i + 1], base + indices[i + 2]);
        } else {
            notes.push(`${pointer}: primitive mode ${mode} is used as points only (a convex hull)`);
        }
    }
    if (transform.determinant() < 0) {
        for (let i = 0; i < triangles.length; i += 3) [triangles[i + 1], triangles[i + 2]] = [triangles[i + 2], triangles[i + 1]];
    }
    return { points, triangles };
}

/** Points of a (tapered) cylinder along local Y for a convex hull: rings of `segments` at both ends. */
export function cylinderPoints(height, radiusTop, radiusBottom, segments = 48) {
    const points = [];
    for (const [y, r] of [
        [height / 2, radiusTop],
        [-height / 2, radiusBottom],
    ]) {
        if (r <= 0) {
            points.push(new Vector3(0, y, 0));
            continue;
        }
        for (let i = 0; i < segments; i++) {
            const a = (2 * Math.PI * i) / segments;
            points.push(new Vector3(r * Math.cos(a), y, r * Math.sin(a)));
        }
    }
    return points;
}

/** Points of a tapered capsule along local Y (two hemispheres of different radii) for a convex hull. */
export function capsulePoints(height, radiusTop, radiusBottom, segments = 24) {
    const points = [];
    for (const [cy, r, sign] of [
        [height / 2, radiusTop, 1],
        [-height / 2, radiusBottom, -1],
    ]) {
        for (let j = 0; j <= segments / 2; j++) {
            const polar = (Math.PI / 2) * (j / (segments / 2));
            for (let i = 0; i < segments; i++) {
                const a = (2 * Math.PI * i) / segments;
                points.push(new Vector3(r * Math.cos(polar) * Math.cos(a), cy + sign * r * Math.sin(polar), r * Math.cos(polar) * Math.sin(a)));
            }
        }
    }
    return points;
}

/**
 * The physics of a document in body frames, engine-neutral:
 * `{ bodies: [{ node, kind, frame, colliders: [{ node, shape, material, filter }], motion }], joints, notes }`.
 * Shapes are `{ type: "box" | "sphere" | "capsule" | "cylinder" | "hull" | "mesh", ... }` in the body frame.
 */
export function describe(gltf) {
    const json = gltf.json;
    const nodes = json.nodes ?? [];
    const notes = [];
    const { parent, world } = nodeTree(json);
    const shapes = json.extensions?.[SHAPES]?.shapes ?? [];
    const root = json.extensions?.[RB] ?? {};
    const materials = root.physicsMaterials ?? [];
    const filters = root.collisionFilters ?? [];
    const descriptions = root.physicsJoints ?? [];
    const bodies = new Map(); // owner node (motion node, or the static collider itself) -> body
    const bodyOf = (owner, kind) => {
        if (!bodies.has(owner)) {
            const frame = rigidFrame(world[owner]);
            bodies.set(owner, { node: owner, kind, frame, world: world[owner], colliders: [], motion: null });
        }
        return bodies.get(owner);
    };
    nodes.forEach((node, index) => {
        const physics = ext(node);
        if (!physics) return;
        if (physics.motion) {
            const body = bodyOf(index, physics.motion.isKinematic ? "kinematic" : "dynamic");
            body.motion = physics.motion;
        }
        if (physics.trigger) notes.push(`/nodes/${index}: trigger is not simulated (no contact response)`);
        if (!physics.collider) return;
        const owner = motionOwner(json, parent, index);
        const body = owner >= 0 ? bodyOf(owner, ext(nodes[owner]).motion.isKinematic ? "kinematic" : "dynamic") : bodyOf(index, "static");
        const pointer = `/nodes/${index}/extensions/${RB}/collider`;
        const relative = world[index].multiply(Matrix.Invert(body.frame)); // collider space -> body frame
        const shape = colliderShape(gltf, physics.collider.geometry ?? {}, relative, shapes, notes, pointer);
        if (!shape) return;
        const material = materials[physics.collider.physicsMaterial] ?? {};
        const filter = filters[physics.collider.collisionFilter] ?? null;
        body.colliders.push({ node: index, shape, material, filter });
    });
    const joints = [];
    nodes.forEach((node, index) => {
        const joint = ext(node)?.joint;
        if (!joint) return;
        const pointer = `/nodes/${index}/extensions/${RB}/joint`;
        const description = descriptions[joint.joint];
        if (!description || nodes[joint.connectedNode] === undefined) {
            notes.push(`${pointer}: joint or connectedNode does not exist; skipped`);
            return;
        }
        const side = (frameNode) => {
            const owner = motionOwner(json, parent, frameNode);
            const frameInBody = owner >= 0 ? world[frameNode].multiply(Matrix.Invert(rigidFrame(world[owner]))) : world[frameNode];
            const { rotation, translation } = decompose(frameInBody);
            return { owner, frameNode, rotation, translation };
        };
        joints.push({ node: index, a: side(index), b: side(joint.connectedNode), description, enableCollision: !!joint.enableCollision, pointer });
    });
    return { nodes, parent, world, bodies: [...bodies.values()], joints, notes };
}

function colliderShape(gltf, geometry, relative, shapes, notes, pointer) {
    const { scale, rotation, translation } = decompose(relative);
    const s = [Math.abs(scale.x), Math.abs(scale.y), Math.abs(scale.z)];
    if (geometry.shape !== undefined) {
        const shape = shapes[geometry.shape];
        if (!shape) {
            notes.push(`${pointer}/geometry/shape: shape ${geometry.shape} does not exist; skipped`);
            return null;
        }
        const p = shape[shape.type] ?? {};
        const hull = (points) => ({ type: "hull", points: points.map((v) => Vector3.TransformCoordinates(v, relative)) });
        switch (shape.type) {
            case "box": {
                const size = p.size ?? [1, 1, 1];
                return { type: "box", center: translation, rotation, extents: new Vector3(size[0] * s[0], size[1] * s[1], size[2] * s[2]) };
            }
            case "sphere": {
                if (Math.abs(s[0] - s[1]) > 1e-6 || Math.abs(s[1] - s[2]) > 1e-6) notes.push(`${pointer}: sphere under non-uniform scale ${s}: radius from the largest axis`);
                return { type: "sphere", center: translation, radius: (p.radius ?? 0.5) * Math.max(...s) };
            }
            case "capsule":
            case "cylinder": {
                const height = p.height ?? 0.5;
                const top = p.radiusTop ?? 0.25;
                const bottom = p.radiusBottom ?? 0.25;
                if (Math.abs(s[0] - s[2]) > 1e-6) notes.push(`${pointer}: ${shape.type} under non-uniform scale ${s}: radius from the larger of X and Z`);
                if (Math.abs(top - bottom) > 1e-9) {
                    notes.push(`${pointer}: tapered ${shape.type} as a convex hull`);
                    const points = shape.type === "capsule" ? capsulePoints(height, top, bottom) : cylinderPoints(height, top, bottom);
                    return hull(points);
                }
                const axis = new Vector3(0, (height / 2) * s[1], 0).applyRotationQuaternion(rotation);
                return { type: shape.type, pointA: translation.subtract(axis), pointB: translation.add(axis), radius: top * Math.max(s[0], s[2]) };
            }
            default:
                notes.push(`${pointer}/geometry/shape: shape type ${JSON.stringify(shape.type)} is not simulated; skipped`);
                return null;
        }
    }
    let meshIndex = geometry.mesh;
    if (meshIndex === undefined && geometry.node !== undefined) {
        // 2024-10..2025-10: that node's mesh, placed in the collider's space (as `geometry.mesh` is)
        meshIndex = gltf.json.nodes?.[geometry.node]?.mesh;
    }
    if (meshIndex === undefined) {
        notes.push(`${pointer}/geometry: neither shape nor mesh; skipped`);
        return null;
    }
    const { points, triangles } = meshGeometry(gltf, meshIndex, relative, notes, `${pointer}/geometry`);
    if (!points.length) {
        notes.push(`${pointer}/geometry: mesh ${meshIndex} has no positions; skipped`);
        return null;
    }
    return geometry.convexHull || triangles.length === 0 ? { type: "hull", points } : { type: "mesh", points, triangles };
}

/**
 * The document's animation channels on node TRS (`translation` / `rotation` / `scale`), every animation at once:
 * `[{ node, path, times, values, width, interpolation }]` (CUBICSPLINE keeps its values, not its tangents).
 */
export function readAnimations(gltf, notes) {
    const channels = [];
    for (const [a, animation] of (gltf.json.animations ?? []).entries()) {
        for (const [c, channel] of (animation.channels ?? []).entries()) {
            const target = channel.target ?? {};
            if (target.node === undefined || !["translation", "rotation", "scale"].includes(target.path)) continue;
            const sampler = animation.samplers?.[channel.sampler];
            if (!sampler) {
                notes.push(`/animations/${a}/channels/${c}: no sampler; skipped`);
                continue;
            }
            const width = target.path === "rotation" ? 4 : 3;
            const times = readAccessor(gltf, sampler.input);
            let values = readAccessor(gltf, sampler.output);
            const interpolation = sampler.interpolation ?? "LINEAR";
            if (interpolation === "CUBICSPLINE") {
                values = values.filter((_, i) => Math.floor(i / width) % 3 === 1);
                notes.push(`/animations/${a}/samplers/${channel.sampler}: CUBICSPLINE played as LINEAR between its keys`);
            }
            channels.push({ node: target.node, path: target.path, times, values, width, interpolation });
        }
    }
    return channels;
}

function sample(channel, t) {
    const { times, values, width } = channel;
    const at = (k) => Array.from(values.subarray(k * width, k * width + width));
    if (t <= times[0]) return at(0);
    const last = times.length - 1;
    if (t >= times[last]) return at(last);
    let k = 0;
    while (times[k + 1] < t) k++;
    if (channel.interpolation === "STEP") return at(k);
    const u = (t - times[k]) / (times[k + 1] - times[k]);
    if (channel.path === "rotation") {
        const q = Quaternion.Slerp(new Quaternion(...at(k)), new Quaternion(...at(k + 1)), u);
        return [q.x, q.y, q.z, q.w];
    }
    const a = at(k);
    const b = at(k + 1);
    return a.map((v, i) => v + (b[i] - v) * u);
}

/** Every node's world matrix at time `t` of the animations (nodes without channels keep their own transform). */
export function worldAt(json, parent, channels, t) {
    const nodes = json.nodes ?? [];
    const overrides = new Map();
    for (const channel of channels) {
        if (!overrides.has(channel.node)) overrides.set(channel.node, {});
        overrides.get(channel.node)[channel.path] = sample(channel, t);
    }
    const world = new Array(nodes.length);
    const visit = (index) => {
        if (world[index]) return world[index];
        const node = nodes[index];
        const animated = overrides.get(index);
        const local = animated && !node.matrix ? localMatrix({ ...node, ...animated }) : localMatrix(node);
        world[index] = parent[index] < 0 ? local : local.multiply(visit(parent[index]));
        return world[index];
    };
    nodes.forEach((_, index) => visit(index));
    return world;
}

/** Nodes whose world transform an animation moves: the animated nodes and all their descendants. */
export function animatedNodes(json, parent, channels) {
    const direct = new Set(channels.map((c) => c.node));
    const moved = new Set();
    (json.nodes ?? []).forEach((_, index) => {
        for (let at = index; at >= 0; at = parent[at]) {
            if (direct.has(at)) {
                moved.add(index);
                break;
            }
        }
    });
    return moved;
}
