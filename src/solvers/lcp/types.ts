/**
 * Shared types of the complementarity solvers (theory.md, contact sections; 000 §0.3, §0.7, §0.8,
 * §0.10, §0.15, §0.16).
 *
 * Conventions: the (box) LCP is w = A z + q with, for each i,
 *   lo_i = hi_i … impossible; lo_i < hi_i, and
 *   z_i = lo_i ⇒ w_i ≥ 0,   lo_i < z_i < hi_i ⇒ w_i = 0,   z_i = hi_i ⇒ w_i ≤ 0.
 * A standard LCP is lo = 0, hi = +∞. A friction row's bounds are ±μ_i z_{normalOf[i]} and so
 * depend on the solution: solvers iterate them to a fixed point.
 */

/** an n × n matrix known by its columns, computed on demand (000 §0.8): dense, or through a factorization */
export interface LcpMatrix {
  readonly n: number;
  /** out[0 … n) ← column j */
  column(j: number, out: Float64Array): void;
  /** entry (j, j) */
  diagonal(j: number): number;
}

/**
 * a dense row-major n × n matrix as an LcpMatrix; n and a may be reset between solves (a buffer
 * reused for problems of changing size)
 */
export class DenseLcpMatrix implements LcpMatrix {
  constructor(public n: number, public a: Float64Array) {}
  column(j: number, out: Float64Array): void {
    const n = this.n, a = this.a;
    for (let i = 0; i < n; i++) out[i] = a[i * n + j]!;
  }
  diagonal(j: number): number { return this.a[j * this.n + j]!; }
}

/** how a solve ended */
export type LcpStatus = 'solved' | 'iteration-limit' | 'ray-termination' | 'singular' | 'infeasible';

/** what every complementarity solve reports */
export interface LcpReport {
  /** how the solve ended */
  status: LcpStatus;
  /** pivots (pivoting, Lemke) or sweeps (Gauss-Seidel) */
  iterations: number;
  /** fixed-point iterations of the friction bounds (1 without friction rows) */
  boundIterations: number;
  /**
   * complementarity residual, relative: max over rows of the violation of the conditions above
   * (w's sign or zero, z within bounds, z_i·w_i product measured as min(|z−bound|, |w|)), over
   * max(1, ‖z‖∞·‖A‖, ‖q‖∞)
   */
  residual: number;
}
