// glTF joint drives (KHR_physics_rigid_bodies) played as the spec states them, by the loader itself: before each
// step every drive pushes its two bodies apart along (or about) its axis of frame A with
//
//     f = stiffness · (positionTarget − x) + damping · (velocityTarget − v)
//
// (times the effective mass of that degree of freedom in `acceleration` mode), at most `maxForce`.  Havok's own
// spring motors do not follow this formula (their parameters are not forces per metre or per metre per second), so
// the loader does not use them.  The damper is integrated implicitly (at the velocity the end of the step will have,
// gravity's pull on the two bodies included), so a stiff velocity servo (damping 1000) stays stable at 60 Hz; the
// spring explicitly, as Havok integrates gravity (symplectic: it neither gains nor loses energy), so an undamped
// spring swings on and a spring holding a weight rests where k·x = m·g.

import { Quaternion, Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import { PhysicsMotionType } from "@babylonjs/core/Physics/v2/IPhysicsEnginePlugin.js";

const AXES = [new Vector3(1, 0, 0), new Vector3(0, 1, 0), new Vector3(0, 0, 1)];

function dynamic(body) {
    return body.getMotionType() === PhysicsMotionType.DYNAMIC;
}

function pose(body) {
    const node = body.transformNode;
    return { position: node.position.clone(), rotation: node.rotationQuaternion.clone() };
}

/** The world frame of a joint side: its body's pose times the frame in body space. */
function worldFrame(side) {
    const { position, rotation } = pose(side.body);
    return {
        origin: position.add(side.pivot.applyRotationQuaternion(rotation)),
        rotation: rotation.multiply(side.rotation),
    };
}

function pointVelocity(body, point) {
    const linear = body.getLinearVelocity();
    const angular = body.getAngularVelocity();
    return linear.add(Vector3.Cross(angular, point.subtract(body.getObjectCenterWorld())));
}

/** 1 / (the body's resistance to a unit push along `axis` at `point`, or to a unit torque about `axis`). */
function inverseMass(body, axis, point, angular) {
    if (!dynamic(body)) return 0;
    const props = body.getMassProperties();
    if (!(props.mass > 0)) return 0;
    const toPrincipal = Quaternion.Inverse(pose(body).rotation.multiply(props.inertiaOrientation));
    const inverseInertia = (w) => {
        const local = w.applyRotationQuaternion(toPrincipal);
        const i = props.inertia.scale(props.mass); // Havok keeps the inertia per unit of mass
        return (local.x * local.x) / i.x + (local.y * local.y) / i.y + (local.z * local.z) / i.z;
    };
    if (angular) return inverseInertia(axis.clone());
    const arm = Vector3.Cross(point.subtract(body.getObjectCenterWorld()), axis);
    return 1 / props.mass + inverseInertia(arm);
}

/** The signed angle of `relative` about the unit `axis` (its twist). */
function twistAngle(relative, axis) {
    const along = relative.x * axis.x + relative.y * axis.y + relative.z * axis.z;
    let angle = 2 * Math.atan2(along, relative.w);
    if (angle > Math.PI) angle -= 2 * Math.PI;
    if (angle < -Math.PI) angle += 2 * Math.PI;
    return angle;
}

/** Gravity's acceleration of a body (0 unless it is dynamic). */
function fallAcceleration(body, gravity) {
    return dynamic(body) ? gravity.scale(body.getGravityFactor()) : Vector3.Zero();
}

/** One drive between the two sides of a joint (each `{ body, pivot, rotation }` in body space). */
export function makeDrive(a, b, drive, gravity) {
    const angular = drive.type === "angular";
    const localAxis = AXES[drive.axis] ?? AXES[0];
    const k = drive.stiffness ?? 0;
    const d = drive.damping ?? 0;
    const maxForce = drive.maxForce ?? Infinity;
    return function apply(dt) {
        const fa = worldFrame(a);
        const fb = worldFrame(b);
        const axis = localAxis.applyRotationQuaternion(fa.rotation);
        let x;
        let v;
        let pull = 0; // the relative acceleration gravity adds during the step (none about an axis)
        if (angular) {
            x = twistAngle(Quaternion.Inverse(fa.rotation).multiply(fb.rotation), localAxis);
            v = Vector3.Dot(b.body.getAngularVelocity().subtract(a.body.getAngularVelocity()), axis);
        } else {
            x = Vector3.Dot(fb.origin.subtract(fa.origin), axis);
            v = Vector3.Dot(pointVelocity(b.body, fb.origin).subtract(pointVelocity(a.body, fa.origin)), axis);
            pull = Vector3.Dot(fallAcceleration(b.body, gravity).subtract(fallAcceleration(a.body, gravity)), axis);
        }
        const inverse = inverseMass(a.body, axis, fa.origin, angular) + inverseMass(b.body, axis, fb.origin, angular);
        if (inverse === 0) return;
        const effective = 1 / inverse;
        const scale = drive.mode === "acceleration" ? effective : 1;
        // the damper at the end of the step's velocity (v + dt·(spring + damper + pull)), the spring as it is now
        const ahead = v + dt * pull;
        const explicit = scale * (k * ((drive.positionTarget ?? 0) - x) + d * ((drive.velocityTarget ?? 0) - ahead));
        let force = explicit / (1 + (scale * d * dt) / effective);
        force = Math.max(-maxForce, Math.min(maxForce, force));
        const impulse = axis.scale(force * dt);
        if (angular) {
            if (dynamic(b.body)) b.body.applyAngularImpulse(impulse);
            if (dynamic(a.body)) a.body.applyAngularImpulse(impulse.negate());
        } else {
            if (dynamic(b.body)) b.body.applyImpulse(impulse, fb.origin);
            if (dynamic(a.body)) a.body.applyImpulse(impulse.negate(), fa.origin);
        }
    };
}
