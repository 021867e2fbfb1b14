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
 * skew part). The loop stops at the tolerance, at maxIter, as soon as the
 * residual stops decreasing (the last, non-improving correction is undone), or after a
 * correction that gains less than a factor 4 (the rounding level is reached).
 */

export interface RefineOptions {
  /** maximum number of corrections (default 10) */
  maxIter?: number;
  /** target relative residual ‖b − A x‖∞ / ‖b‖∞ (default 1e-14) */
  tol?: number;
}

export interface RefineResult {
  /** number of corrections kept in x */
  iterations: number;
  /** final ‖b − A x‖∞ / ‖b‖∞ (absolute when b = 0) */
  residual: number;
  /** residual ≤ tol */
  converged: boolean;
}

/**
 * Refines x (n, the initial guess: pass zeros to start from scratch) in place.
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
  const n = x.length;
  // residual scale: ‖b‖∞, or 1 for b = 0
  let bnorm = 0;
  for (let i = 0; i < n; i++) bnorm = Math.max(bnorm, Math.abs(b[i]));
  const scale = bnorm > 0 ? bnorm : 1;

  // initial residual
  let res = residual(apply, b, x, r, n) / scale;
  let it = 0;
  while (res > tol && it < maxIter) {
    // correction dx = M⁻¹ r
    for (let i = 0; i < n; i++) dx[i] = r[i];
    solve(dx);
    for (let i = 0; i < n; i++) x[i] += dx[i];
    const next = residual(apply, b, x, r, n) / scale;
    if (!(next < res)) {
      // no progress (or NaN): undo the correction and stop
      for (let i = 0; i < n; i++) x[i] -= dx[i];
      res = residual(apply, b, x, r, n) / scale;
      break;
    }
    // a correction that gains less than a factor 4 means rounding level: stop after it
    const slow = next > 0.25 * res;
    res = next;
    it++;
    if (slow) break;
  }
  const result = out ?? { iterations: 0, residual: 0, converged: false };
  result.iterations = it;
  result.residual = res;
  result.converged = res <= tol;
  return result;
}

/** r = b − A x; returns ‖r‖∞ (NaN if any component is NaN) */
function residual(
  apply: (out: Float64Array, x: Float64Array) => void,
  b: Float64Array, x: Float64Array, r: Float64Array, n: number,
): number {
  apply(r, x);
  let m = 0;
  let nan = false;
  for (let i = 0; i < n; i++) {
    const ri = b[i] - r[i];
    r[i] = ri;
    const a = Math.abs(ri);
    if (a > m) m = a;
    else if (a !== a) nan = true;
  }
  return nan ? NaN : m;
}
