/**
 * Unit quaternions [w, x, y, z] (scalar first). Implements theory.md §3.
 *
 * A quaternion q of a frame B rotates body vectors to world: ᵂv = q (0, ᴮv) q⁻¹ = R_WB ᴮv.
 * Rotations are advanced only by the exponential map (theory.md §3): q ← exp(hω/2) ⋆ q for
 * world-frame ω. "Add and renormalise" is never used.
 */
import type { Vec3 } from './vec3.js';
import type { Mat3 } from './mat3.js';

export type Quat = Float64Array;

export function quat(w = 1, x = 0, y = 0, z = 0): Quat {
  const q = new Float64Array(4);
  q[0] = w; q[1] = x; q[2] = y; q[3] = z;
  return q;
}

/** reads a quaternion from arr[o..o+3] into out */
export function loadQuat(out: Quat, arr: ArrayLike<number>, o: number): Quat {
  out[0] = arr[o]!; out[1] = arr[o + 1]!; out[2] = arr[o + 2]!; out[3] = arr[o + 3]!;
  return out;
}

/** out = a ⋆ b = (a_s b_s − a_v·b_v, a_s b_v + b_s a_v + a_v × b_v); out may alias a or b */
export function quatMul(out: Quat, a: Quat, b: Quat): Quat {
  const aw = a[0]!, ax = a[1]!, ay = a[2]!, az = a[3]!;
  const bw = b[0]!, bx = b[1]!, by = b[2]!, bz = b[3]!;
  out[0] = aw * bw - ax * bx - ay * by - az * bz;
  out[1] = aw * bx + bw * ax + ay * bz - az * by;
  out[2] = aw * by + bw * ay + az * bx - ax * bz;
  out[3] = aw * bz + bw * az + ax * by - ay * bx;
  return out;
}

export function quatConj(out: Quat, a: Quat): Quat {
  out[0] = a[0]!; out[1] = -a[1]!; out[2] = -a[2]!; out[3] = -a[3]!;
  return out;
}

export function quatNorm(a: ArrayLike<number>, o = 0): number {
  const w = a[o]!, x = a[o + 1]!, y = a[o + 2]!, z = a[o + 3]!;
  return Math.sqrt(w * w + x * x + y * y + z * z);
}

export function quatNormalize(out: Quat, a: Quat): Quat {
  const n = quatNorm(a);
  out[0] = a[0]! / n; out[1] = a[1]! / n; out[2] = a[2]! / n; out[3] = a[3]! / n;
  return out;
}

/** out = q (0, v) q⁻¹ for a unit q; out may alias v */
export function quatRotate(out: Vec3, q: Quat, v: Vec3): Vec3 {
  // t = 2 q_v × v;  v' = v + w t + q_v × t
  const w = q[0]!, qx = q[1]!, qy = q[2]!, qz = q[3]!;
  const vx = v[0]!, vy = v[1]!, vz = v[2]!;
  const tx = 2 * (qy * vz - qz * vy), ty = 2 * (qz * vx - qx * vz), tz = 2 * (qx * vy - qy * vx);
  out[0] = vx + w * tx + (qy * tz - qz * ty);
  out[1] = vy + w * ty + (qz * tx - qx * tz);
  out[2] = vz + w * tz + (qx * ty - qy * tx);
  return out;
}

/** R (row-major) of a unit quaternion, such that R v = q (0,v) q⁻¹ */
export function quatToMat3(out: Mat3, q: ArrayLike<number>, o = 0): Mat3 {
  const w = q[o]!, x = q[o + 1]!, y = q[o + 2]!, z = q[o + 3]!;
  const xx = x * x, yy = y * y, zz = z * z, xy = x * y, xz = x * z, yz = y * z, wx = w * x, wy = w * y, wz = w * z;
  out[0] = 1 - 2 * (yy + zz); out[1] = 2 * (xy - wz); out[2] = 2 * (xz + wy);
  out[3] = 2 * (xy + wz); out[4] = 1 - 2 * (xx + zz); out[5] = 2 * (yz - wx);
  out[6] = 2 * (xz - wy); out[7] = 2 * (yz + wx); out[8] = 1 - 2 * (xx + yy);
  return out;
}

/** unit quaternion of a rotation matrix (Shepperd's method: branch on the largest diagonal term) */
export function quatFromMat3(out: Quat, R: Mat3): Quat {
  const m00 = R[0]!, m11 = R[4]!, m22 = R[8]!;
  const tr = m00 + m11 + m22;
  if (tr >= m00 && tr >= m11 && tr >= m22) {
    const s = 2 * Math.sqrt(1 + tr);
    out[0] = 0.25 * s; out[1] = (R[7]! - R[5]!) / s; out[2] = (R[2]! - R[6]!) / s; out[3] = (R[3]! - R[1]!) / s;
  } else if (m00 >= m11 && m00 >= m22) {
    const s = 2 * Math.sqrt(1 + m00 - m11 - m22);
    out[0] = (R[7]! - R[5]!) / s; out[1] = 0.25 * s; out[2] = (R[1]! + R[3]!) / s; out[3] = (R[2]! + R[6]!) / s;
  } else if (m11 >= m22) {
    const s = 2 * Math.sqrt(1 - m00 + m11 - m22);
    out[0] = (R[2]! - R[6]!) / s; out[1] = (R[1]! + R[3]!) / s; out[2] = 0.25 * s; out[3] = (R[5]! + R[7]!) / s;
  } else {
    const s = 2 * Math.sqrt(1 - m00 - m11 + m22);
    out[0] = (R[3]! - R[1]!) / s; out[1] = (R[2]! + R[6]!) / s; out[2] = (R[5]! + R[7]!) / s; out[3] = 0.25 * s;
  }
  if (out[0]! < 0) { out[0] = -out[0]!; out[1] = -out[1]!; out[2] = -out[2]!; out[3] = -out[3]!; }
  return out;
}

/**
 * q = (cos(θ/2), sin(θ/2) u) for an axis u (normalised here) and angle θ (theory.md §3); a zero
 * axis gives the identity
 */
export function quatFromAxisAngle(out: Quat, axis: Vec3, angle: number): Quat {
  const n = Math.hypot(axis[0]!, axis[1]!, axis[2]!);
  if (!(n > 0)) { out[0] = 1; out[1] = 0; out[2] = 0; out[3] = 0; return out; }
  const s = Math.sin(angle / 2) / n;
  out[0] = Math.cos(angle / 2); out[1] = s * axis[0]!; out[2] = s * axis[1]!; out[3] = s * axis[2]!;
  return out;
}

/**
 * Rotation vector φu of a unit quaternion (the log map), with φ ∈ [0, π]: the shortest
 * rotation, taking −q for q where w < 0. Stable near φ = 0 (atan2 form).
 */
export function quatToRotationVector(out: Vec3, q: Quat): Vec3 {
  let w = q[0]!, x = q[1]!, y = q[2]!, z = q[3]!;
  if (w < 0) { w = -w; x = -x; y = -y; z = -z; }
  const s = Math.sqrt(x * x + y * y + z * z);
  // φ = 2 atan2(s, w); φ/s → 2/w as s → 0
  const k = s > 1e-300 ? (2 * Math.atan2(s, w)) / s : 2 / w;
  out[0] = k * x; out[1] = k * y; out[2] = k * z;
  return out;
}

/** exp of a rotation vector θ (rotation by |θ| about θ/|θ|) */
export function quatFromRotationVector(out: Quat, th: Vec3): Quat {
  return quatExpHalf(out, th[0]!, th[1]!, th[2]!, 1);
}

/**
 * exp((h/2) ω) as a quaternion (theory.md §3): (cos(h|ω|/2), sin(h|ω|/2) ω/|ω|).
 * This rotates by the angle h|ω|, not (h/2)|ω|. Near |ω| = 0, sin(h|ω|/2)/|ω| → h/2 (series).
 */
export function quatExpHalf(out: Quat, wx: number, wy: number, wz: number, h: number): Quat {
  const n = Math.sqrt(wx * wx + wy * wy + wz * wz);
  const a = 0.5 * h * n;
  let s: number;
  if (a < 1e-4) {
    // sin(a)/n = (h/2) (1 − a²/6 + a⁴/120)
    const a2 = a * a;
    s = 0.5 * h * (1 - a2 / 6 + (a2 * a2) / 120);
  } else {
    s = Math.sin(a) / n;
  }
  out[0] = Math.cos(a); out[1] = s * wx; out[2] = s * wy; out[3] = s * wz;
  return out;
}

/**
 * In-place exponential-map update of the quaternion stored at q[o..o+3] by a world-frame
 * angular velocity ω over time h: q ← exp(hω/2) ⋆ q (theory.md §3). `tmp` is a 4-scratch.
 *
 * The product of two unit quaternions is unit in exact arithmetic; the final division by the
 * computed norm only removes the round-off of this step, which would otherwise random-walk |q|
 * away from 1 (≈ 3e-14 after 10^5 steps). It is not the "add and normalise" update: the update
 * itself is the exact exponential map, and the correction is O(ε).
 */
export function quatIntegrateWorld(q: Float64Array, o: number, wx: number, wy: number, wz: number, h: number, tmp: Quat): void {
  quatExpHalf(tmp, wx, wy, wz, h);
  const aw = tmp[0]!, ax = tmp[1]!, ay = tmp[2]!, az = tmp[3]!;
  const bw = q[o]!, bx = q[o + 1]!, by = q[o + 2]!, bz = q[o + 3]!;
  const w = aw * bw - ax * bx - ay * by - az * bz;
  const x = aw * bx + bw * ax + ay * bz - az * by;
  const y = aw * by + bw * ay + az * bx - ax * bz;
  const z = aw * bz + bw * az + ax * by - ay * bx;
  const n = Math.sqrt(w * w + x * x + y * y + z * z);
  q[o] = w / n; q[o + 1] = x / n; q[o + 2] = y / n; q[o + 3] = z / n;
}

/** q̇ = ½ (0, ω) ⋆ q for world-frame ω (theory.md §3, world form) */
export function quatDerivWorld(out: Quat, q: Quat, w: Vec3): Quat {
  const qw = q[0]!, qx = q[1]!, qy = q[2]!, qz = q[3]!;
  const wx = w[0]!, wy = w[1]!, wz = w[2]!;
  out[0] = 0.5 * (-wx * qx - wy * qy - wz * qz);
  out[1] = 0.5 * (wx * qw + wy * qz - wz * qy);
  out[2] = 0.5 * (wy * qw + wz * qx - wx * qz);
  out[3] = 0.5 * (wz * qw + wx * qy - wy * qx);
  return out;
}

/** q̇ = ½ q ⋆ (0, ω) for body-frame ω (theory.md §3, body form) */
export function quatDerivBody(out: Quat, q: Quat, w: Vec3): Quat {
  const qw = q[0]!, qx = q[1]!, qy = q[2]!, qz = q[3]!;
  const wx = w[0]!, wy = w[1]!, wz = w[2]!;
  out[0] = 0.5 * (-qx * wx - qy * wy - qz * wz);
  out[1] = 0.5 * (qw * wx + qy * wz - qz * wy);
  out[2] = 0.5 * (qw * wy + qz * wx - qx * wz);
  out[3] = 0.5 * (qw * wz + qx * wy - qy * wx);
  return out;
}
