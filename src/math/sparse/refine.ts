/**
 * Iterative refinement (Wilkinson; see N. J. Higham, "Accuracy and Stability of
 * Numerical Algorithms", 2nd ed., SIAM 2002, ch. 12):
 *
 *   r = b − A x,   solve M dx = r,   x ← x + dx,   repeat.
 *
 * M is an approximation of A that is cheap to solve with, typically a
 * factorization. With M = A this corrects the rounding errors of the
 * factorization; with M = (A + Aᵀ)/2, the factored symmetric part of a
 * non-symmetric A, it is the stationary iteration x ← x + M⁻¹(b − A x), which
 * converges linearly when the spectral radius of I − M⁻¹A is below 1 (a small
 * skew part). The loop stops at the tolerance, after maxIter solves, as soon as a
 * correction does not lower the residual (that correction is not kept: x is left
 * exactly as it was), or after a correction that gains less than a factor 4 (the
 * rounding level is reached). The step solver uses it for both its symmetric and
 * its non-symmetric matrices (solvers/stepSolver.ts).
 */
import { norm as norm2 } from './gmres.js';

export interface RefineOptions {
  /** maximum number of solves with M, the first one included under `fromZero` (default 10) */
  maxIter?: number;
  /** target relative residual ‖b − A x‖ / ‖b‖ (default 1e-14) */
  tol?: number;
  /** the norm of the residual: 'max' (‖·‖∞, the default) or 'euclidean' (‖·‖₂) */
  norm?: 'max' | 'euclidean';
  /** x holds no guess: it starts as M⁻¹ b (no residual of the zero vector is formed) */
  fromZero?: boolean;
}

export interface RefineResult {
  /** solves with M used, the first one under `fromZero` and a correction that was not kept included */
  iterations: number;
  /** final ‖b − A x‖ / ‖b‖ (absolute when b = 0); NaN when some entry is NaN */
  residual: number;
  /** residual ≤ tol */
  converged: boolean;
}

/**
 * Refines x (n) in place: from the guess it holds, or from M⁻¹ b under `fromZero`.
 * apply(out, x) writes out = A x; solve(x) overwrites x with M⁻¹ x.
 * r and dx (n each) are workspaces. Allocates nothing but the result, unless `out` is given.
 */
export function refineSolve(
  apply: (out: Float64Array, x: Float64Array) => void,
  solve: (x: Float64Array) => void,
  b: Float64Array,
  x: Float64Array,
  r: Float64Array,
  dx: Float64Array,
  opts: RefineOptions = {},
  out?: RefineResult,
): RefineResult {
  const maxIter = opts.maxIter ?? 10;
  const tol = opts.tol ?? 1e-14;
  const euclidean = opts.norm === 'euclidean';
  const n = x.length;
  // residual scale: ‖b‖, or 1 for b = 0
  const bnorm = euclidean ? norm2(b, n) : maxNorm(b, n);
  const scale = bnorm > 0 ? bnorm : 1;
  let it = 0;
  if (opts.fromZero) {
    for (let i = 0; i < n; i++) x[i] = b[i]!;
    // b = 0: x = 0 is the answer, with no solve
    if (bnorm > 0) { solve(x); it = 1; }
  }
  let res = residual(apply, b, x, r, n, euclidean) / scale;
  while (res > tol && it < maxIter) {
    // the candidate x + M⁻¹ r, formed in dx, so that x stays as it is if it does not help
    for (let i = 0; i < n; i++) dx[i] = r[i]!;
    solve(dx);
    for (let i = 0; i < n; i++) dx[i] = x[i]! + dx[i]!;
    it++;
    const next = residual(apply, b, dx, r, n, euclidean) / scale;
    // no progress (or NaN): stop with x as it was
    if (!(next < res)) break;
    x.set(dx);
    // a correction that gains less than a factor 4 means rounding level: stop after it
    const slow = next > 0.25 * res;
    res = next;
    if (slow) break;
  }
  const result = out ?? { iterations: 0, residual: 0, converged: false };
  result.iterations = it;
  result.residual = res;
  result.converged = res <= tol;
  return result;
}

/** ‖v‖∞ over v[0 … n) */
function maxNorm(v: Float64Array, n: number): number {
  let m = 0;
  for (let i = 0; i < n; i++) { const a = Math.abs(v[i]!); if (a > m) m = a; }
  return m;
}

/** r = b − A x; returns ‖r‖∞ or ‖r‖₂ (NaN if any component is NaN) */
function residual(
  apply: (out: Float64Array, x: Float64Array) => void,
  b: Float64Array, x: Float64Array, r: Float64Array, n: number, euclidean: boolean,
): number {
  apply(r, x);
  let m = 0, s = 0;
  let nan = false;
  for (let i = 0; i < n; i++) {
    const ri = b[i]! - r[i]!;
    r[i] = ri;
    if (euclidean) { s += ri * ri; continue; }
    const a = Math.abs(ri);
    if (a > m) m = a;
    else if (a !== a) nan = true;
  }
  if (euclidean) return Math.sqrt(s);
  return nan ? NaN : m;
}
