/**
 * Brute-force references for the complementarity solvers' tests: every complementary basis of a
 * small standard LCP  w = M z + q, 0 ≤ z ⊥ w ≥ 0  (n ≤ 10), and small dense helpers for the
 * random problems.
 *
 * For each subset α of {0 … n−1} (the rows where z may be nonzero) the basis system is
 * M_αα z_α = −q_α with z_ᾱ = 0, so w_α = 0 and w_ᾱ = M_ᾱα z_α + q_ᾱ. A basis whose M_αα is
 * nonsingular and whose z_α and w_ᾱ are nonnegative (within the tolerance) is a solution. The 2ⁿ
 * subsets include every vertex of the solution set, in particular every point Lemke's method can
 * end at (its final basis is complementary and nonsingular).
 */
import { luDense, luSolveDense } from '../../src/math/dense.js';

/** one solution of an LCP */
export interface LcpSolution {
  z: Float64Array;
  w: Float64Array;
  /** bit i set when z_i is basic */
  mask: number;
}

/**
 * All basic solutions of w = M z + q, 0 ≤ z ⊥ w ≥ 0 (M row-major n × n, n ≤ 10). A basis is
 * accepted when min(z, w) ≥ −tol·max(1, ‖q‖∞); duplicates (degenerate bases giving the same point
 * within that tolerance) are kept once.
 */
export function enumerateLcp(n: number, M: Float64Array, q: Float64Array, tol = 1e-10): LcpSolution[] {
  if (n > 10) throw new Error(`enumerateLcp: n = ${n} > 10`);
  let qmax = 1;
  for (let i = 0; i < n; i++) qmax = Math.max(qmax, Math.abs(q[i]!));
  const out: LcpSolution[] = [];
  for (let mask = 0; mask < 1 << n; mask++) {
    const sol = basisSolution(n, M, q, mask);
    if (sol === null) continue;
    let ok = true;
    for (let i = 0; i < n; i++) if (sol.z[i]! < -tol * qmax || sol.w[i]! < -tol * qmax) ok = false;
    if (!ok) continue;
    const dup = out.some((s) => maxDiff(s.z, sol.z) <= tol * qmax && maxDiff(s.w, sol.w) <= tol * qmax);
    if (!dup) out.push(sol);
  }
  return out;
}

/** the point of the complementary basis `mask` (z_i basic where bit i is set), or null if singular */
export function basisSolution(n: number, M: Float64Array, q: Float64Array, mask: number): LcpSolution | null {
  const idx: number[] = [];
  for (let i = 0; i < n; i++) if (mask & (1 << i)) idx.push(i);
  const k = idx.length;
  const z = new Float64Array(n);
  if (k > 0) {
    // M_αα z_α = −q_α
    const A = new Float64Array(k * k), rhs = new Float64Array(k), x = new Float64Array(k);
    for (let a = 0; a < k; a++) {
      rhs[a] = -q[idx[a]!]!;
      for (let b = 0; b < k; b++) A[a * k + b] = M[idx[a]! * n + idx[b]!]!;
    }
    const lu = luDense(A, k, 1e-12);
    if (lu === null) return null;
    luSolveDense(x, lu, rhs);
    for (let a = 0; a < k; a++) z[idx[a]!] = x[a]!;
  }
  const w = matVec(n, n, M, z);
  for (let i = 0; i < n; i++) w[i] = (mask & (1 << i)) ? 0 : w[i]! + q[i]!;
  return { z, w, mask };
}

/** M z (M row-major rows × cols) as a new array */
export function matVec(rows: number, cols: number, M: Float64Array, z: ArrayLike<number>): Float64Array {
  const out = new Float64Array(rows);
  for (let i = 0; i < rows; i++) {
    let s = 0;
    for (let j = 0; j < cols; j++) s += M[i * cols + j]! * z[j]!;
    out[i] = s;
  }
  return out;
}

/** B Bᵀ for B row-major rows × cols */
export function gram(rows: number, cols: number, B: ArrayLike<number>): Float64Array {
  const out = new Float64Array(rows * rows);
  for (let i = 0; i < rows; i++) {
    for (let j = 0; j < rows; j++) {
      let s = 0;
      for (let k = 0; k < cols; k++) s += B[i * cols + k]! * B[j * cols + k]!;
      out[i * rows + j] = s;
    }
  }
  return out;
}

/** len uniform entries in [lo, hi) */
export function uniform(r: () => number, len: number, lo = -1, hi = 1): Float64Array {
  return Float64Array.from({ length: len }, () => lo + (hi - lo) * r());
}

/** B Bᵀ + a positive diagonal (B uniform in [−1, 1)): symmetric positive definite, a P-matrix */
export function randomSpd(r: () => number, n: number): Float64Array {
  const M = gram(n, n, uniform(r, n * n));
  for (let i = 0; i < n; i++) M[i * n + i] += 0.1 + r();
  return M;
}

/** max |a_i − b_i| */
export function maxDiff(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let m = 0;
  for (let i = 0; i < a.length; i++) m = Math.max(m, Math.abs(a[i]! - b[i]!));
  return m;
}

/** the largest complementarity violation max(−z_i, −w_i, |z_i w_i|) */
export function complementarityViolation(z: ArrayLike<number>, w: ArrayLike<number>): number {
  let m = 0;
  for (let i = 0; i < z.length; i++) m = Math.max(m, -z[i]!, -w[i]!, Math.abs(z[i]! * w[i]!));
  return m;
}
