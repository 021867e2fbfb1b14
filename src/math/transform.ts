/**
 * Rigid transforms and spatial 6-vectors.
 *
 * A pose X_AB = (p_AB, q_AB) is frame B seen from frame A: B's origin p_AB in A coordinates and
 * the unit quaternion q_AB rotating B vectors into A (R_AB). Composition X_AC = X_AB X_BC,
 * inverse X_BA = X_AB⁻¹, and points: p_A = R_AB p_B + p_AB.
 *
 * Twists t = (v, ω) and wrenches w = (f, τ) are Float64Array(6) ordered (linear, angular), taken
 * at a reference point. Shifting the point by r (from the old point to the new one):
 *   twist:  v′ = v + ω × r            wrench: τ′ = τ − r × f
 * so the power t·w is independent of the point. Re-expressing with a pose X_AB (both taken at
 * the frame origins): ω_A = R ω_B, v_A = R v_B + p × ω_A;  f_A = R f_B, τ_A = R τ_B + p × f_A.
 */
import type { Vec3 } from './vec3.js';
import { type Quat, quatMul, quatConj, quatRotate } from './quat.js';

export interface Pose { readonly p: Vec3; readonly q: Quat }

/** a new pose (identity by default); set-up only */
export function pose(p: ArrayLike<number> = [0, 0, 0], q: ArrayLike<number> = [1, 0, 0, 0]): Pose {
  return { p: Float64Array.from(p), q: Float64Array.from(q) };
}

/** out = X_AB X_BC; out may alias either input */
export function poseCompose(out: Pose, ab: Pose, bc: Pose): Pose {
  const px = bc.p[0]!, py = bc.p[1]!, pz = bc.p[2]!;
  const t = out.p;
  t[0] = px; t[1] = py; t[2] = pz;
  quatRotate(t, ab.q, t);
  t[0] = t[0]! + ab.p[0]!; t[1] = t[1]! + ab.p[1]!; t[2] = t[2]! + ab.p[2]!;
  quatMul(out.q, ab.q, bc.q);
  return out;
}

/** out = X_AB⁻¹ = X_BA; out may alias ab */
export function poseInverse(out: Pose, ab: Pose): Pose {
  quatConj(out.q, ab.q);
  out.p[0] = -ab.p[0]!; out.p[1] = -ab.p[1]!; out.p[2] = -ab.p[2]!;
  quatRotate(out.p, out.q, out.p);
  return out;
}

/** out = X_AB⁻¹ X_AC = X_BC, the pose of C in B given both in A */
export function poseRelative(out: Pose, ab: Pose, ac: Pose, tmp: Pose): Pose {
  poseInverse(tmp, ab);
  return poseCompose(out, tmp, ac);
}

/** out = R_AB v_B + p_AB (a point of B in A); out may alias v */
export function poseTransformPoint(out: Vec3, ab: Pose, v: Vec3): Vec3 {
  quatRotate(out, ab.q, v);
  out[0] = out[0]! + ab.p[0]!; out[1] = out[1]! + ab.p[1]!; out[2] = out[2]! + ab.p[2]!;
  return out;
}

/** out = twist shifted to a point displaced by r: v + ω × r (out may alias t) */
export function twistShift(out: Float64Array, t: Float64Array, r: Vec3): Float64Array {
  const wx = t[3]!, wy = t[4]!, wz = t[5]!;
  out[0] = t[0]! + wy * r[2]! - wz * r[1]!;
  out[1] = t[1]! + wz * r[0]! - wx * r[2]!;
  out[2] = t[2]! + wx * r[1]! - wy * r[0]!;
  out[3] = wx; out[4] = wy; out[5] = wz;
  return out;
}

/** out = wrench shifted to a point displaced by r: τ − r × f (out may alias w) */
export function wrenchShift(out: Float64Array, w: Float64Array, r: Vec3): Float64Array {
  const fx = w[0]!, fy = w[1]!, fz = w[2]!;
  out[0] = fx; out[1] = fy; out[2] = fz;
  out[3] = w[3]! - (r[1]! * fz - r[2]! * fy);
  out[4] = w[4]! - (r[2]! * fx - r[0]! * fz);
  out[5] = w[5]! - (r[0]! * fy - r[1]! * fx);
  return out;
}

/** out = a twist given in B at B's origin, expressed in A at A's origin; out must not alias t */
export function twistToParent(out: Float64Array, ab: Pose, t: Float64Array, tmp: Vec3): Float64Array {
  tmp[0] = t[3]!; tmp[1] = t[4]!; tmp[2] = t[5]!;
  quatRotate(tmp, ab.q, tmp);
  out[3] = tmp[0]!; out[4] = tmp[1]!; out[5] = tmp[2]!;
  tmp[0] = t[0]!; tmp[1] = t[1]!; tmp[2] = t[2]!;
  quatRotate(tmp, ab.q, tmp);
  out[0] = tmp[0]!; out[1] = tmp[1]!; out[2] = tmp[2]!;
  // the origin moves from B's to A's: shift by −p_AB
  const p = ab.p;
  out[0] = out[0]! - (out[4]! * p[2]! - out[5]! * p[1]!);
  out[1] = out[1]! - (out[5]! * p[0]! - out[3]! * p[2]!);
  out[2] = out[2]! - (out[3]! * p[1]! - out[4]! * p[0]!);
  return out;
}

/** out = a wrench given in B about B's origin, expressed in A about A's origin; out must not alias w */
export function wrenchToParent(out: Float64Array, ab: Pose, w: Float64Array, tmp: Vec3): Float64Array {
  tmp[0] = w[0]!; tmp[1] = w[1]!; tmp[2] = w[2]!;
  quatRotate(tmp, ab.q, tmp);
  out[0] = tmp[0]!; out[1] = tmp[1]!; out[2] = tmp[2]!;
  tmp[0] = w[3]!; tmp[1] = w[4]!; tmp[2] = w[5]!;
  quatRotate(tmp, ab.q, tmp);
  // τ_A = R τ_B + p × f_A
  const p = ab.p;
  out[3] = tmp[0]! + p[1]! * out[2]! - p[2]! * out[1]!;
  out[4] = tmp[1]! + p[2]! * out[0]! - p[0]! * out[2]!;
  out[5] = tmp[2]! + p[0]! * out[1]! - p[1]! * out[0]!;
  return out;
}

/** the power t · w of a twist and a wrench taken at the same point */
export function power(t: Float64Array, w: Float64Array): number {
  return t[0]! * w[0]! + t[1]! * w[1]! + t[2]! * w[2]! + t[3]! * w[3]! + t[4]! * w[4]! + t[5]! * w[5]!;
}
