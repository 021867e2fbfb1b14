/**
 * Spatial inertia of a rigid body whose centre of mass is offset from its frame origin
 * (theory.md §2), and the rotational inertia of primitive solids.
 *
 *   M = [ m I      −m[c]          ]     M⁻¹ = [ I/m − [c]J⁻¹[c]   [c]J⁻¹ ]
 *       [ m[c]     J − m[c][c]    ]           [ −J⁻¹[c]           J⁻¹    ]
 *
 * and M = G Gᵀ with G = [[√m I, 0], [√m [c], L]], J = L Lᵀ. Here c is the centre of mass
 * relative to the frame origin and J the rotational inertia about the centre of mass, both in
 * the same axes. 6×6 matrices are row-major Float64Array(36), ordered (linear, angular).
 */
import type { Vec3 } from './vec3.js';
import { type Mat3, skew, mul3, invert3, cholesky3 } from './mat3.js';

export type Mat6 = Float64Array;

/** out's 3×3 block (bi, bj) = s a (callers in the step pass s = ±1: a small integer is not boxed) */
function put3(out: Mat6, bi: number, bj: number, a: Mat3, s: number): void {
  for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) out[6 * (3 * bi + i) + 3 * bj + j] = s * a[3 * i + j]!;
}

/** scratch for the spatial-inertia helpers (one per caller; no module-level state) */
export interface SpatialScratch { C: Mat3; T: Mat3; U: Mat3; Ji: Mat3; L: Mat3; m: Float64Array; rowMajor6: Int32Array }
export function spatialScratch(): SpatialScratch {
  return {
    C: new Float64Array(9), T: new Float64Array(9), U: new Float64Array(9), Ji: new Float64Array(9), L: new Float64Array(9), m: new Float64Array(1),
    // column starts of a row-major 6×6 (entry (r, k) at k + 6r), for spatialInertiaInto
    rowMajor6: Int32Array.of(0, 1, 2, 3, 4, 5),
  };
}

/** out = M, the 6×6 spatial inertia about the frame origin (theory.md §2) */
export function spatialInertia(out: Mat6, m: number, c: Vec3, J: Mat3, s: SpatialScratch): Mat6 {
  s.m[0] = m;
  spatialInertiaInto(out, s.rowMajor6, 0, 6, s.m, 0, c, 0, J, 0);
  return out;
}

/**
 * The spatial inertia of body i written as entry (r, k) ↦ out[colBase[cb + k] + r·rowStride]
 * (a block of a column-major sparse matrix: rowStride 1), with m = masses[i], c = c[co..co+3)
 * and J = J[jo..jo+9) (row-major, symmetric): the mass stage writes M straight into the step
 * matrix. With [c][c] = c cᵀ − |c|² I the lower-right block J − m[c][c] is J − m c cᵀ + m|c|² I:
 * off the diagonal J − m c_r c_k, on it J + m(|c|² − c_r²) summed without the cancelling term.
 * Each mirror pair gets the same products, so M is exactly symmetric when J is.
 */
export function spatialInertiaInto(out: Float64Array, colBase: Int32Array, cb: number, rowStride: number,
  masses: Float64Array, i: number, c: Float64Array, co: number, J: Float64Array, jo: number): void {
  const m = masses[i]!, cx = c[co]!, cy = c[co + 1]!, cz = c[co + 2]!;
  const mx = m * cx, my = m * cy, mz = m * cz;
  const k0 = colBase[cb]!, k1 = colBase[cb + 1]!, k2 = colBase[cb + 2]!, k3 = colBase[cb + 3]!, k4 = colBase[cb + 4]!, k5 = colBase[cb + 5]!;
  const r1 = rowStride, r2 = 2 * rowStride, r3 = 3 * rowStride, r4 = 4 * rowStride, r5 = 5 * rowStride;
  // columns 0-2: m I on top, m[c] below ([c] = [[0, −cz, cy], [cz, 0, −cx], [−cy, cx, 0]])
  out[k0] = m; out[k0 + r1] = 0; out[k0 + r2] = 0; out[k0 + r3] = 0; out[k0 + r4] = mz; out[k0 + r5] = -my;
  out[k1] = 0; out[k1 + r1] = m; out[k1 + r2] = 0; out[k1 + r3] = -mz; out[k1 + r4] = 0; out[k1 + r5] = mx;
  out[k2] = 0; out[k2 + r1] = 0; out[k2 + r2] = m; out[k2 + r3] = my; out[k2 + r4] = -mx; out[k2 + r5] = 0;
  // columns 3-5: −m[c] on top, J − m c cᵀ + m|c|² I below
  const xy = mx * cy, xz = mx * cz, yz = my * cz;
  out[k3] = 0; out[k3 + r1] = -mz; out[k3 + r2] = my;
  out[k3 + r3] = J[jo]! + (my * cy + mz * cz); out[k3 + r4] = J[jo + 3]! - xy; out[k3 + r5] = J[jo + 6]! - xz;
  out[k4] = mz; out[k4 + r1] = 0; out[k4 + r2] = -mx;
  out[k4 + r3] = J[jo + 1]! - xy; out[k4 + r4] = J[jo + 4]! + (mx * cx + mz * cz); out[k4 + r5] = J[jo + 7]! - yz;
  out[k5] = -my; out[k5 + r1] = mx; out[k5 + r2] = 0;
  out[k5 + r3] = J[jo + 2]! - xz; out[k5 + r4] = J[jo + 5]! - yz; out[k5 + r5] = J[jo + 8]! + (mx * cx + my * cy);
}

/** out = M⁻¹ in closed form (theory.md §2); returns false if J is singular */
export function spatialInertiaInverse(out: Mat6, m: number, c: Vec3, J: Mat3, s: SpatialScratch): boolean {
  s.m[0] = m;
  return spatialInertiaInverseOf(out, s.m, 0, c, J, s);
}

/**
 * `spatialInertiaInverse` with the mass read from masses[i]. The step loop calls this form: it
 * passes no double, and V8 boxes a double passed to a call it does not inline (16 B per call).
 */
export function spatialInertiaInverseOf(out: Mat6, masses: Float64Array, i: number, c: Vec3, J: Mat3, s: SpatialScratch): boolean {
  const m = masses[i]!;
  if (!invert3(s.Ji, J)) return false;
  skew(s.C, c);
  // [c]J⁻¹ and J⁻¹[c]
  mul3(s.T, s.C, s.Ji);
  mul3(s.U, s.Ji, s.C);
  out.fill(0);
  put3(out, 0, 1, s.T, 1);
  put3(out, 1, 0, s.U, -1);
  put3(out, 1, 1, s.Ji, 1);
  // upper-left I/m − [c]J⁻¹[c]
  mul3(s.U, s.T, s.C);
  for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) out[6 * i + j] = (i === j ? 1 / m : 0) - s.U[3 * i + j]!;
  return true;
}

/** out = G with M = G Gᵀ (theory.md §2); returns false if J is not positive definite */
export function spatialInertiaFactor(out: Mat6, m: number, c: Vec3, J: Mat3, s: SpatialScratch): boolean {
  if (!cholesky3(s.L, J)) return false;
  skew(s.C, c);
  const r = Math.sqrt(m);
  out.fill(0);
  out[0] = r; out[7] = r; out[14] = r;
  put3(out, 1, 0, s.C, r);
  put3(out, 1, 1, s.L, 1);
  return true;
}

/** primitive solid shapes, in their own principal axes, centred on the centre of mass */
export type Shape =
  | { type: 'box'; size: [number, number, number] }
  | { type: 'sphere'; radius: number }
  | { type: 'cylinder'; radius: number; length: number }
  | { type: 'capsule'; radius: number; length: number }
  | { type: 'ellipsoid'; radii: [number, number, number] };

/** volume of a shape (m³); cylinders and capsules have their axis along z, length = cylinder part */
export function shapeVolume(s: Shape): number {
  switch (s.type) {
    case 'box': return s.size[0] * s.size[1] * s.size[2];
    case 'sphere': return (4 / 3) * Math.PI * s.radius ** 3;
    case 'cylinder': return Math.PI * s.radius ** 2 * s.length;
    case 'capsule': return Math.PI * s.radius ** 2 * s.length + (4 / 3) * Math.PI * s.radius ** 3;
    case 'ellipsoid': return (4 / 3) * Math.PI * s.radii[0] * s.radii[1] * s.radii[2];
  }
}

/**
 * Principal moments [Ixx, Iyy, Izz] about the centre of mass of a solid of mass m.
 * The capsule is a cylinder of the given length with hemispherical caps (axis z); each cap's
 * inertia about its own centroid is shifted by the parallel-axis theorem to the capsule centre.
 */
export function shapePrincipalInertia(s: Shape, m: number): [number, number, number] {
  switch (s.type) {
    case 'box': {
      const [a, b, c] = s.size;
      return [(m / 12) * (b * b + c * c), (m / 12) * (a * a + c * c), (m / 12) * (a * a + b * b)];
    }
    case 'sphere': {
      const I = 0.4 * m * s.radius ** 2;
      return [I, I, I];
    }
    case 'cylinder': {
      const r2 = s.radius ** 2, L = s.length;
      const It = (m / 12) * (3 * r2 + L * L);
      return [It, It, 0.5 * m * r2];
    }
    case 'ellipsoid': {
      const [a, b, c] = s.radii;
      return [(m / 5) * (b * b + c * c), (m / 5) * (a * a + c * c), (m / 5) * (a * a + b * b)];
    }
    case 'capsule': {
      const r = s.radius, L = s.length;
      const vc = Math.PI * r * r * L, vh = (2 / 3) * Math.PI * r ** 3; // cylinder and one hemisphere
      const rho = m / (vc + 2 * vh);
      const mc = rho * vc, mh = rho * vh;
      // hemisphere: centroid 3r/8 from its flat face; inertia about centroid (transverse) = (83/320) mh r²
      const d = L / 2 + (3 * r) / 8;
      const Itc = (mc / 12) * (3 * r * r + L * L);
      const Ith = (83 / 320) * mh * r * r + mh * d * d;
      const It = Itc + 2 * Ith;
      const Iz = 0.5 * mc * r * r + 2 * (0.4 * mh * r * r);
      return [It, It, Iz];
    }
  }
}
