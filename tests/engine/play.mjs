#!/usr/bin/env node
// Play glTF physics files in Babylon.js Physics V2 + Havok, headless, and print every node's end state as JSON:
//
//     node tests/engine/play.mjs file.gltf [more.gltf ...] --seconds 2 --hz 60
//
// Output (stdout): one JSON line per file, `{ file, engine, seconds, hz, steps, nodes, notes }`; each node
// `{ index, name, body, position, rotation, startPosition, startRotation }` in glTF's Y-up world (quaternions
// x, y, z, w), `body` its motion kind ("dynamic" / "kinematic" / "static") or null; `notes` what the loader
// approximated.  Each file plays in a scene of its own.  World gravity is glTF's usual (0, -9.81, 0): the file has
// no place for another.  A file it cannot read or play is a line `{ file, error }` (and one line on stderr), and the
// exit status is 2.

import fs from "node:fs";
import { createRequire } from "node:module";

import HavokPhysics from "@babylonjs/havok";
import { NullEngine } from "@babylonjs/core/Engines/nullEngine.js";
import { Matrix, Quaternion, Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import { Mesh } from "@babylonjs/core/Meshes/mesh.js";
import { VertexData } from "@babylonjs/core/Meshes/mesh.vertexData.js";
import { TransformNode } from "@babylonjs/core/Meshes/transformNode.js";
import { HavokPlugin } from "@babylonjs/core/Physics/v2/Plugins/havokPlugin.js";
import { PhysicsBody } from "@babylonjs/core/Physics/v2/physicsBody.js";
import { Physics6DoFConstraint } from "@babylonjs/core/Physics/v2/physicsConstraint.js";
import {
    PhysicsShapeBox,
    PhysicsShapeCapsule,
    PhysicsShapeContainer,
    PhysicsShapeConvexHull,
    PhysicsShapeCylinder,
    PhysicsShapeMesh,
    PhysicsShapeSphere,
} from "@babylonjs/core/Physics/v2/physicsShape.js";
import { PhysicsConstraintAxis, PhysicsMotionType } from "@babylonjs/core/Physics/v2/IPhysicsEnginePlugin.js";
import { PhysicsMaterialCombineMode } from "@babylonjs/core/Physics/v2/physicsMaterial.js";
import { Scene } from "@babylonjs/core/scene.js";
import "@babylonjs/core/Physics/joinedPhysicsEngineComponent.js";
import { Logger } from "@babylonjs/core/Misc/logger.js";

import { makeDrive } from "./drives.mjs";
import { animatedNodes, decompose, describe, readAnimations, readGltf, rigidFrame, worldAt } from "./loader.mjs";

const require = createRequire(import.meta.url);
const GRAVITY = new Vector3(0, -9.81, 0);
const UNBOUNDED = 1e4; // a limit bound the file leaves open (metres or radians, never reached)
const COMBINE = {
    average: PhysicsMaterialCombineMode.ARITHMETIC_MEAN,
    minimum: PhysicsMaterialCombineMode.MINIMUM,
    maximum: PhysicsMaterialCombineMode.MAXIMUM,
    multiply: PhysicsMaterialCombineMode.MULTIPLY,
};
const LINEAR = [PhysicsConstraintAxis.LINEAR_X, PhysicsConstraintAxis.LINEAR_Y, PhysicsConstraintAxis.LINEAR_Z];
const ANGULAR = [PhysicsConstraintAxis.ANGULAR_X, PhysicsConstraintAxis.ANGULAR_Y, PhysicsConstraintAxis.ANGULAR_Z];

function parseArgs(argv) {
    const options = { files: [], seconds: 2, hz: 60 };
    for (let i = 0; i < argv.length; i++) {
        if (argv[i] === "--seconds") options.seconds = Number(argv[++i]);
        else if (argv[i] === "--hz") options.hz = Number(argv[++i]);
        else options.files.push(argv[i]);
    }
    if (!options.files.length) throw new Error("usage: play.mjs file.gltf... [--seconds S] [--hz HZ]");
    if (!(options.seconds >= 0) || !(options.hz > 0)) throw new Error("--seconds must be >= 0 and --hz > 0");
    return options;
}

async function havok() {
    const wasm = require.resolve("@babylonjs/havok/lib/esm/HavokPhysics.wasm");
    return HavokPhysics({ wasmBinary: fs.readFileSync(wasm) });
}

/** A collision-filter bit per system name, in order of first use. */
function filterMasks(filter, bits) {
    const bit = (name) => {
        if (!bits.has(name)) bits.set(name, bits.size < 32 ? 1 << bits.size : 0);
        return bits.get(name);
    };
    const all = 0xffffffff | 0;
    if (!filter) return { membership: all, collide: all };
    const membership = (filter.collisionSystems ?? []).reduce((m, n) => m | bit(n), 0);
    let collide = all;
    if (filter.collideWithSystems) collide = filter.collideWithSystems.reduce((m, n) => m | bit(n), 0);
    else if (filter.notCollideWithSystems) collide = filter.notCollideWithSystems.reduce((m, n) => m & ~bit(n), all);
    return { membership: filter.collisionSystems ? membership : all, collide };
}

function babylonShape(shape, scene, name) {
    switch (shape.type) {
        case "box":
            return new PhysicsShapeBox(shape.center, shape.rotation, shape.extents, scene);
        case "sphere":
            return new PhysicsShapeSphere(shape.center, shape.radius, scene);
        case "capsule":
            return new PhysicsShapeCapsule(shape.pointA, shape.pointB, shape.radius, scene);
        case "cylinder":
            return new PhysicsShapeCylinder(shape.pointA, shape.pointB, shape.radius, scene);
        case "hull":
        case "mesh": {
            const mesh = new Mesh(name, scene);
            const data = new VertexData();
            data.positions = shape.points.flatMap((p) => [p.x, p.y, p.z]);
            data.indices = shape.triangles ?? [];
            data.applyToMesh(mesh);
            mesh.setEnabled(false);
            return shape.type === "hull" ? new PhysicsShapeConvexHull(mesh, scene) : new PhysicsShapeMesh(mesh, scene);
        }
        default:
            throw new Error(`unknown shape ${shape.type}`);
    }
}

function applyMaterial(physicsShape, material) {
    const out = {
        friction: material.dynamicFriction ?? 0.6,
        staticFriction: material.staticFriction ?? 0.6,
        restitution: material.restitution ?? 0,
    };
    if (material.frictionCombine) out.frictionCombine = COMBINE[material.frictionCombine];
    if (material.restitutionCombine) out.restitutionCombine = COMBINE[material.restitutionCombine];
    physicsShape.material = out;
}

function vec(a) {
    return new Vector3(a[0], a[1], a[2]);
}

/** Build every body of `described` in `scene`: body node index -> { body, node }.  A body an animation moves
 * follows it (the spec: animation takes priority over simulation), as a Havok `ANIMATED` body. */
function buildBodies(described, scene, notes, moved) {
    const bits = new Map();
    const built = new Map();
    for (const entry of described.bodies) {
        if (moved.has(entry.node)) {
            if (entry.kind === "dynamic") notes.push(`/nodes/${entry.node}: an animated dynamic body follows its animation`);
            entry.animated = true;
        }
        const { rotation, translation } = decompose(entry.frame);
        const node = new TransformNode(`body_${entry.node}`, scene);
        node.position.copyFrom(translation);
        node.rotationQuaternion = rotation.clone();
        const kinds = { dynamic: PhysicsMotionType.DYNAMIC, kinematic: PhysicsMotionType.ANIMATED, static: PhysicsMotionType.STATIC };
        const type = entry.animated ? PhysicsMotionType.ANIMATED : kinds[entry.kind];
        const body = new PhysicsBody(node, type, false, scene);
        const shapes = entry.colliders.map((collider) => {
            const shape = babylonShape(collider.shape, scene, `collider_${collider.node}`);
            applyMaterial(shape, collider.material);
            const masks = filterMasks(collider.filter, bits);
            shape.filterMembershipMask = masks.membership;
            shape.filterCollideMask = masks.collide;
            return { shape, masks, collider };
        });
        if (shapes.length === 1) {
            body.shape = shapes[0].shape;
        } else if (shapes.length > 1) {
            const container = new PhysicsShapeContainer(scene);
            for (const { shape } of shapes) container.addChild(shape);
            const own = shapes.find((s) => s.collider.node === entry.node) ?? shapes[0];
            container.filterMembershipMask = own.masks.membership;
            container.filterCollideMask = own.masks.collide;
            body.shape = container;
        } else {
            // a body without colliders (or a world anchor): a small sphere that collides with nothing
            const shape = new PhysicsShapeSphere(Vector3.Zero(), 0.05, scene);
            shape.filterMembershipMask = 0;
            shape.filterCollideMask = 0;
            body.shape = shape;
            if (entry.kind === "dynamic") notes.push(`/nodes/${entry.node}: a body without colliders`);
        }
        if (entry.motion && entry.kind === "dynamic" && !entry.animated) setMass(body, entry, notes);
        if (entry.motion) setMotion(body, entry);
        built.set(entry.node, { body, node, entry });
    }
    return built;
}

function setMass(body, entry, notes) {
    // Havok's inertia is per unit of mass (the body's moments are mass × inertia): the file's kg·m² are divided by
    // the mass, and an inertia Havok computes from the shapes needs no scaling.
    const motion = entry.motion;
    const props = {};
    const nodeToFrame = entry.world.multiply(Matrix.Invert(entry.frame)); // the file's values are in node space
    if (motion.mass !== undefined) {
        props.mass = motion.mass;
        if (motion.mass === 0) notes.push(`/nodes/${entry.node}: mass 0 (infinite) is played as Havok's mass 0`);
    }
    if (motion.centerOfMass) props.centerOfMass = Vector3.TransformCoordinates(vec(motion.centerOfMass), nodeToFrame);
    if (motion.inertiaDiagonal && props.mass) {
        props.inertia = vec(motion.inertiaDiagonal).scale(1 / props.mass);
        const { rotation } = decompose(nodeToFrame);
        const orientation = motion.inertiaOrientation ? new Quaternion(...motion.inertiaOrientation) : Quaternion.Identity();
        props.inertiaOrientation = rotation.multiply(orientation);
    }
    body.setMassProperties(props);
}

function setMotion(body, entry) {
    const motion = entry.motion;
    const { rotation } = decompose(entry.world);
    const toWorld = (a) => vec(a).applyRotationQuaternion(rotation);
    if (motion.linearVelocity) body.setLinearVelocity(toWorld(motion.linearVelocity));
    if (motion.angularVelocity) body.setAngularVelocity(toWorld(motion.angularVelocity));
    if (motion.gravityFactor !== undefined) body.setGravityFactor(motion.gravityFactor);
    body.setLinearDamping(0);
    body.setAngularDamping(0);
}

/** An anchor body for joint frames without a `motion` ancestor (pinned to the world). */
function worldAnchor(scene, cache) {
    if (!cache.anchor) {
        const node = new TransformNode("world_anchor", scene);
        node.rotationQuaternion = Quaternion.Identity();
        const body = new PhysicsBody(node, PhysicsMotionType.STATIC, false, scene);
        const shape = new PhysicsShapeSphere(Vector3.Zero(), 0.01, scene);
        shape.filterMembershipMask = 0;
        shape.filterCollideMask = 0;
        body.shape = shape;
        cache.anchor = body;
    }
    return cache.anchor;
}

function jointLimits(description, pointer, notes) {
    const limits = [];
    for (const [i, limit] of (description.limits ?? []).entries()) {
        const at = `${pointer}/limits/${i}`;
        const linear = limit.linearAxes !== undefined;
        const axes = linear ? limit.linearAxes : (limit.angularAxes ?? []);
        const min = limit.min ?? -UNBOUNDED;
        const max = limit.max ?? UNBOUNDED;
        const soft = {};
        if (limit.stiffness !== undefined) soft.stiffness = limit.stiffness;
        if (limit.damping) soft.damping = limit.damping;
        if (linear && axes.length === 3) {
            limits.push({ axis: PhysicsConstraintAxis.LINEAR_DISTANCE, minLimit: Math.max(0, limit.min ?? 0), maxLimit: max, ...soft });
            continue;
        }
        if (axes.length > 1 && !(min === 0 && max === 0)) {
            notes.push(`${at}: a ${axes.length}-axis ${linear ? "linear" : "angular"} limit played per axis`);
        }
        for (const axis of axes) limits.push({ axis: (linear ? LINEAR : ANGULAR)[axis], minLimit: min, maxLimit: max, ...soft });
    }
    return limits;
}

/** Every joint as a Havok 6-DoF constraint (its limits); its drives as functions to run before each step. */
function buildJoints(described, built, scene, notes) {
    const cache = {};
    const drives = [];
    for (const joint of described.joints) {
        const sides = [joint.a, joint.b].map((side) => {
            const body = side.owner >= 0 ? built.get(side.owner)?.body : worldAnchor(scene, cache);
            const axis = new Vector3(1, 0, 0).applyRotationQuaternion(side.rotation);
            const perp = new Vector3(0, 1, 0).applyRotationQuaternion(side.rotation);
            return { body, pivot: side.translation, rotation: side.rotation, axis, perp };
        });
        const [a, b] = sides;
        if (!a.body || !b.body || a.body === b.body) {
            notes.push(`${joint.pointer}: both frames on one body (or a missing body); skipped`);
            continue;
        }
        const constraint = new Physics6DoFConstraint(
            { pivotA: a.pivot, pivotB: b.pivot, axisA: a.axis, axisB: b.axis, perpAxisA: a.perp, perpAxisB: b.perp, collision: joint.enableCollision },
            jointLimits(joint.description, joint.pointer, notes),
            scene,
        );
        a.body.addConstraint(b.body, constraint);
        for (const drive of joint.description.drives ?? []) drives.push(makeDrive(a, b, drive, GRAVITY));
    }
    return drives;
}

function quaternion(q) {
    return [q.x, q.y, q.z, q.w];
}

/** Every node's start and end world pose; a node moves with its nearest moving body ancestor. */
function endStates(described, built) {
    const out = [];
    described.nodes.forEach((gltfNode, index) => {
        let owner = -1;
        for (let at = index; at >= 0; at = described.parent[at]) {
            if (built.has(at) && (built.get(at).entry.kind !== "static" || built.get(at).entry.animated)) {
                owner = at;
                break;
            }
        }
        let world = described.world[index];
        let kind = built.get(index)?.entry.kind ?? null;
        if (owner >= 0) {
            const { node, entry } = built.get(owner);
            node.computeWorldMatrix(true);
            const now = Matrix.Compose(new Vector3(1, 1, 1), node.rotationQuaternion, node.position);
            world = described.world[index].multiply(Matrix.Invert(entry.frame)).multiply(now);
        }
        const end = decompose(world);
        const start = decompose(described.world[index]);
        out.push({
            index,
            name: gltfNode.name ?? null,
            body: kind,
            position: end.translation.asArray(),
            rotation: quaternion(end.rotation),
            startPosition: start.translation.asArray(),
            startRotation: quaternion(start.rotation),
        });
    });
    return out;
}

/** Play one file in a scene of its own: its result object. */
function playFile(file, options, hk) {
    const gltf = readGltf(file);
    const described = describe(gltf);
    const engine = new NullEngine();
    const scene = new Scene(engine);
    scene.useRightHandedSystem = true; // glTF's handedness, numbers as the file has them
    const plugin = new HavokPlugin(true, hk);
    scene.enablePhysics(GRAVITY, plugin);
    try {
        const channels = readAnimations(gltf, described.notes);
        const moved = animatedNodes(gltf.json, described.parent, channels);
        const built = buildBodies(described, scene, described.notes, moved);
        const animated = [...built.values()].filter(({ entry }) => entry.animated);
        const drives = buildJoints(described, built, scene, described.notes);
        const dt = 1 / options.hz;
        const steps = Math.round(options.seconds * options.hz);
        const physics = scene.getPhysicsEngine();
        for (let i = 0; i < steps; i++) {
            if (animated.length) {
                const world = worldAt(gltf.json, described.parent, channels, (i + 1) * dt);
                for (const { body, entry } of animated) {
                    const { rotation, translation } = decompose(rigidFrame(world[entry.node]));
                    body.setTargetTransform(translation, rotation);
                }
            }
            for (const drive of drives) drive(dt);
            plugin.executeStep(dt, physics.getBodies());
        }
        return { file, engine: "babylonjs-havok", seconds: options.seconds, hz: options.hz, steps, nodes: endStates(described, built), notes: described.notes };
    } finally {
        scene.dispose();
        engine.dispose();
    }
}

/** Every file in turn, one JSON line each; a file that fails is a line `{ file, error }` (exit status 2). */
async function main() {
    Logger.LogLevels = Logger.ErrorLogLevel; // stdout carries the JSON only
    Logger.OnNewCacheEntry = (entry) => process.stderr.write(`${entry}\n`);
    const options = parseArgs(process.argv.slice(2));
    const hk = await havok();
    let failed = false;
    for (const file of options.files) {
        let line;
        try {
            line = playFile(file, options, hk);
        } catch (error) {
            failed = true;
            process.stderr.write(`play.mjs: ${file}: ${error.message}\n`); // one line, no stack
            line = { file, error: error.message };
        }
        process.stdout.write(JSON.stringify(line) + "\n");
    }
    if (failed) process.exit(2);
}

try {
    await main();
} catch (error) {
    process.stderr.write(`play.mjs: ${error.message}\n`);
    process.exit(2);
}
