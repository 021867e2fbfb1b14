/**
 * Projected Gauss-Seidel on a generic box LCP known by its columns (000 §0.15, §0.16 with errata
 * A.4, A.5; docs/theory.md §15): the sweep of solvers/lcp/pgs.ts for systems whose matrix comes
 * through a factorization (joints coupled to contacts), and the box rows' residual both share.
 */
import type { LcpMatrix, LcpReport, LcpStatus } from './types.js';
import type { BoxFriction } from './frictionBounds.js';

export type { BoxFriction };

/**
 * The violation of one box row's conditions (types.ts): outside [lo, hi], or w of a sign that asks
 * for a bound z is not at, measured as min(distance to that bound, |w|).
 */
export function boxRowResidual(z: number, w: number, lo: number, hi: number): number {
  const out = Math.max(lo - z, z - hi, 0);
  const c = w > 0 ? Math.min(z - lo, w) : w < 0 ? Math.min(hi - z, -w) : 0;
  return Math.max(out, c);
}

/** the settings of `boxPgs` */
export interface BoxPgsOptions {
  /** sweep cap (default 200) */
  maxIterations?: number;
  /** stop when a sweep changes no z_i by more than tolerance · ‖z‖∞ (default 1e-8) */
  tolerance?: number;
}

/**
 * Projected Gauss-Seidel on the box LCP w = A z + q of types.ts, from the z given (warm start).
 * The columns of A are fetched once into a dense cache; w is kept current by adding column i times
 * each change of z_i, so a sweep costs n² and reads contiguous columns. A friction row's bounds are
 * taken from the current normal impulse at each of its updates. Rows with A_ii ≤ 0 are left as they
 * are (status 'singular' if the solve does not converge). Allocates the n² cache per call.
 */
export function boxPgs(A: LcpMatrix, q: Float64Array, lo: Float64Array, hi: Float64Array,
  friction: BoxFriction | null, z: Float64Array, options: BoxPgsOptions = {}): LcpReport {
  const n = A.n, maxIt = options.maxIterations ?? 200, tol = options.tolerance ?? 1e-8;
  const C = new Float64Array(n * n), w = new Float64Array(n);
  for (let j = 0; j < n; j++) A.column(j, C.subarray(j * n, j * n + n));
  let singular = false;
  for (let i = 0; i < n; i++) if (!(C[i * n + i]! > 0)) singular = true;
  boxProduct(C, q, z, w, n);
  // sweeps: z_i ← clamp(z_i − w_i / A_ii) within its (friction) bounds, w += A_:i Δz_i
  let it = 0, done = false;
  while (it < maxIt && !done) {
    let change = 0, maxZ = 0;
    for (let i = 0; i < n; i++) {
      const aii = C[i * n + i]!, zi = z[i]!;
      if (aii > 0) {
        const k = friction === null ? -1 : friction.normalOf[i]!;
        const bound = k >= 0 ? friction!.mu[i]! * Math.max(z[k]!, 0) : 0;
        const l = k >= 0 ? -bound : lo[i]!, h = k >= 0 ? bound : hi[i]!;
        const zn = Math.min(h, Math.max(l, zi - w[i]! / aii)), d = zn - zi;
        if (d !== 0) {
          z[i] = zn;
          for (let r = 0, c = i * n; r < n; r++) w[r] += C[c + r]! * d;
          if (Math.abs(d) > change) change = Math.abs(d);
        }
      }
      if (Math.abs(z[i]!) > maxZ) maxZ = Math.abs(z[i]!);
    }
    it++;
    done = change <= tol * maxZ;
  }
  // the residual at the final z, from a fresh product
  boxProduct(C, q, z, w, n);
  let worst = 0, maxZ = 0, maxA = 0, maxQ = 0;
  for (let i = 0; i < n; i++) {
    const k = friction === null ? -1 : friction.normalOf[i]!;
    const bound = k >= 0 ? friction!.mu[i]! * Math.max(z[k]!, 0) : 0;
    worst = Math.max(worst, boxRowResidual(z[i]!, w[i]!, k >= 0 ? -bound : lo[i]!, k >= 0 ? bound : hi[i]!));
    maxZ = Math.max(maxZ, Math.abs(z[i]!)); maxQ = Math.max(maxQ, Math.abs(q[i]!));
  }
  for (let e = 0; e < n * n; e++) maxA = Math.max(maxA, Math.abs(C[e]!));
  const status: LcpStatus = done ? 'solved' : singular ? 'singular' : 'iteration-limit';
  return { status, iterations: it, boundIterations: friction === null ? 1 : it,
    residual: worst / Math.max(1, maxZ * maxA, maxQ) };
}

/** w ← q + A z with A column-major in C */
function boxProduct(C: Float64Array, q: Float64Array, z: Float64Array, w: Float64Array, n: number): void {
  for (let i = 0; i < n; i++) w[i] = q[i]!;
  for (let j = 0; j < n; j++) {
    const zj = z[j]!;
    if (zj !== 0) for (let i = 0, c = j * n; i < n; i++) w[i] += C[c + i]! * zj;
  }
}

