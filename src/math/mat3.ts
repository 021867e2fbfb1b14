/**
 * 3×3 matrices as row-major `Float64Array(9)`: element (i, j) is at `3*i + j`.
 * Output-first helpers; `out` must not alias an input unless said otherwise.
 */
import type { Vec3 } from './vec3.js';

export type Mat3 = Float64Array;

/** a new 3×3 zero matrix; set-up only */
export function mat3(): Mat3 {
  return new Float64Array(9);
}

export function identity3(out: Mat3, s = 1): Mat3 {
  out.fill(0);
  out[0] = s; out[4] = s; out[8] = s;
  return out;
}

export function copyMat3(out: Mat3, a: Mat3): Mat3 {
  out.set(a);
  return out;
}

/** out = [a], the cross-product matrix: [a] b = a × b */
export function skew(out: Mat3, a: Vec3): Mat3 {
  const x = a[0]!, y = a[1]!, z = a[2]!;
  out[0] = 0; out[1] = -z; out[2] = y;
  out[3] = z; out[4] = 0; out[5] = -x;
  out[6] = -y; out[7] = x; out[8] = 0;
  return out;
}

/** out = a b */
export function mul3(out: Mat3, a: Mat3, b: Mat3): Mat3 {
  for (let i = 0; i < 3; i++) {
    const a0 = a[3 * i]!, a1 = a[3 * i + 1]!, a2 = a[3 * i + 2]!;
    out[3 * i] = a0 * b[0]! + a1 * b[3]! + a2 * b[6]!;
    out[3 * i + 1] = a0 * b[1]! + a1 * b[4]! + a2 * b[7]!;
    out[3 * i + 2] = a0 * b[2]! + a1 * b[5]! + a2 * b[8]!;
  }
  return out;
}

/** out = a bᵀ */
export function mulABt3(out: Mat3, a: Mat3, b: Mat3): Mat3 {
  for (let i = 0; i < 3; i++) {
    for (let j = 0; j < 3; j++) {
      out[3 * i + j] = a[3 * i]! * b[3 * j]! + a[3 * i + 1]! * b[3 * j + 1]! + a[3 * i + 2]! * b[3 * j + 2]!;
    }
  }
  return out;
}

/** out = aᵀ b */
export function mulAtB3(out: Mat3, a: Mat3, b: Mat3): Mat3 {
  for (let i = 0; i < 3; i++) {
    for (let j = 0; j < 3; j++) {
      out[3 * i + j] = a[i]! * b[j]! + a[3 + i]! * b[3 + j]! + a[6 + i]! * b[6 + j]!;
    }
  }
  return out;
}

export function transpose3(out: Mat3, a: Mat3): Mat3 {
  const a1 = a[1]!, a2 = a[2]!, a5 = a[5]!;
  out[0] = a[0]!; out[4] = a[4]!; out[8] = a[8]!;
  out[1] = a[3]!; out[3] = a1;
  out[2] = a[6]!; out[6] = a2;
  out[5] = a[7]!; out[7] = a5;
  return out;
}

/** out = a v; out must not alias v */
export function mulVec3(out: Vec3, a: Mat3, v: Vec3): Vec3 {
  const x = v[0]!, y = v[1]!, z = v[2]!;
  out[0] = a[0]! * x + a[1]! * y + a[2]! * z;
  out[1] = a[3]! * x + a[4]! * y + a[5]! * z;
  out[2] = a[6]! * x + a[7]! * y + a[8]! * z;
  return out;
}

/** out = aᵀ v */
export function mulTVec3(out: Vec3, a: Mat3, v: Vec3): Vec3 {
  const x = v[0]!, y = v[1]!, z = v[2]!;
  out[0] = a[0]! * x + a[3]! * y + a[6]! * z;
  out[1] = a[1]! * x + a[4]! * y + a[7]! * z;
  out[2] = a[2]! * x + a[5]! * y + a[8]! * z;
  return out;
}

/** out = a + s b (out may alias a) */
export function axpyMat3(out: Mat3, a: Mat3, s: number, b: Mat3): Mat3 {
  for (let k = 0; k < 9; k++) out[k] = a[k]! + s * b[k]!;
  return out;
}

export function scaleMat3(out: Mat3, a: Mat3, s: number): Mat3 {
  for (let k = 0; k < 9; k++) out[k] = a[k]! * s;
  return out;
}

/** out = s a bᵀ (outer product) */
export function outer3(out: Mat3, a: Vec3, b: Vec3, s = 1): Mat3 {
  for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) out[3 * i + j] = s * a[i]! * b[j]!;
  return out;
}

export function det3(a: Mat3): number {
  return a[0]! * (a[4]! * a[8]! - a[5]! * a[7]!)
    - a[1]! * (a[3]! * a[8]! - a[5]! * a[6]!)
    + a[2]! * (a[3]! * a[7]! - a[4]! * a[6]!);
}

/** out = a⁻¹ (general); returns false when |det| underflows */
export function invert3(out: Mat3, a: Mat3): boolean {
  const a0 = a[0]!, a1 = a[1]!, a2 = a[2]!, a3 = a[3]!, a4 = a[4]!, a5 = a[5]!, a6 = a[6]!, a7 = a[7]!, a8 = a[8]!;
  // the first column of the adjugate gives the determinant (det3's expansion, here without a
  // call: a double returned by a call that V8 does not inline is boxed, an allocation per body)
  const c0 = a4 * a8 - a5 * a7, c3 = a5 * a6 - a3 * a8, c6 = a3 * a7 - a4 * a6;
  const d = a0 * c0 + a1 * c3 + a2 * c6;
  if (!(Math.abs(d) > 0) || !Number.isFinite(d)) return false;
  const id = 1 / d;
  out[0] = c0 * id;
  out[1] = (a2 * a7 - a1 * a8) * id;
  out[2] = (a1 * a5 - a2 * a4) * id;
  out[3] = c3 * id;
  out[4] = (a0 * a8 - a2 * a6) * id;
  out[5] = (a2 * a3 - a0 * a5) * id;
  out[6] = c6 * id;
  out[7] = (a1 * a6 - a0 * a7) * id;
  out[8] = (a0 * a4 - a1 * a3) * id;
  return true;
}

/** out = R J Rᵀ (rotate a symmetric tensor from body to world); tmp is scratch */
export function rotateTensor3(out: Mat3, R: Mat3, J: Mat3, tmp: Mat3): Mat3 {
  mul3(tmp, R, J);
  return mulABt3(out, tmp, R);
}

/** lower Cholesky factor L of a symmetric 3×3, J = L Lᵀ; returns false if not positive definite */
export function cholesky3(out: Mat3, J: Mat3): boolean {
  const l00sq = J[0]!;
  if (!(l00sq > 0)) return false;
  const l00 = Math.sqrt(l00sq);
  const l10 = J[3]! / l00, l20 = J[6]! / l00;
  const l11sq = J[4]! - l10 * l10;
  if (!(l11sq > 0)) return false;
  const l11 = Math.sqrt(l11sq);
  const l21 = (J[7]! - l20 * l10) / l11;
  const l22sq = J[8]! - l20 * l20 - l21 * l21;
  if (!(l22sq > 0)) return false;
  out.fill(0);
  out[0] = l00; out[3] = l10; out[4] = l11; out[6] = l20; out[7] = l21; out[8] = Math.sqrt(l22sq);
  return true;
}

/**
 * Eigenvalues of a symmetric 3×3 matrix, ascending, by the trigonometric solution of the
 * characteristic cubic (exact for diagonal input).
 */
export function symmetricEigenvalues3(a: Mat3): [number, number, number] {
  const p1 = a[1]! * a[1]! + a[2]! * a[2]! + a[5]! * a[5]!;
  if (p1 === 0) {
    const d = [a[0]!, a[4]!, a[8]!].sort((x, y) => x - y);
    return [d[0]!, d[1]!, d[2]!];
  }
  const q = (a[0]! + a[4]! + a[8]!) / 3;
  const p2 = (a[0]! - q) ** 2 + (a[4]! - q) ** 2 + (a[8]! - q) ** 2 + 2 * p1;
  const p = Math.sqrt(p2 / 6);
  // B = (A − qI)/p, r = det(B)/2 ∈ [−1, 1]
  const B = new Float64Array(9);
  for (let k = 0; k < 9; k++) B[k] = (a[k]! - (k % 4 === 0 ? q : 0)) / p;
  const r = Math.max(-1, Math.min(1, det3(B) / 2));
  const phi = Math.acos(r) / 3;
  const e3 = q + 2 * p * Math.cos(phi), e1 = q + 2 * p * Math.cos(phi + (2 * Math.PI) / 3);
  return [e1, 3 * q - e1 - e3, e3];
}
