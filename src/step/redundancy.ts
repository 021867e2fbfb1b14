/**
 * Names the whole set of constraints behind a redundancy (theory.md §6: GM⁻¹Gᵀ singular), not only
 * the rows whose pivots vanished. Once the hard rows carry the tiny regularization R, the KKT
 * system [[M̂, Gᵀ], [G, −R]] with a unit right-hand side at a redundant row r has the multipliers
 * μ = −(GM̂⁻¹Gᵀ + R)⁻¹ e_r: along the dependency y (Gᵀy = 0) the inverse is 1/R, about 1e8 times
 * the typical pivot's, elsewhere O(1). So the hard rows with a visible share of μ (above 1e-3 of
 * its largest entry) are the rows of the dependency: both hinges of a doubled hinge, every hinge
 * of a four-bar loop. The redundant rows are those whose regularized pivot is about R (a failed
 * factorization shows only the first of them); one solve weighs them all, and a pivot row it
 * leaves out gets a solve of its own. Only when redundancy is first found.
 */
import type { StepSolver } from '../solvers/stepSolver.js';

/** a row's share of the multipliers, relative to the largest, above which it is in the dependency */
const DEPENDENCY_SHARE = 1e-3;
/** regularized pivots up to this multiple of the median constraint pivot are redundant rows (R is 1e-8 of it) */
const REGULARIZED_PIVOT = 1e-6;
/** the largest multiplier times R at or above which a solve shows the 1/R of a dependency (elsewhere about 1e-8) */
const DEPENDENCY_SIGNATURE = 1e-3;

export class DependentRows {
  private b: Float64Array | null = null;   // (nKkt) the right-hand side, made at the first use
  private x: Float64Array | null = null;   // (nKkt) its solution

  constructor(private readonly n: number, private readonly m: number) {}

  /**
   * The constraint rows (0 … m) to name after a regularization R = reg: the rows of `failedOrSmall`
   * (KKT indices of the pivots that triggered it), and, when the regularized matrix was factored,
   * every hard row in a dependency with a redundant hard row. `scratch` (m) is smallPivots'.
   */
  name(solver: StepSolver, failedOrSmall: readonly number[], reg: number, hard: Uint8Array, scratch: Float64Array): Set<number> {
    const n = this.n, rows = new Set(failedOrSmall.map((k) => k - n));
    if (solver.failedAt >= 0) return rows;
    // the redundant hard rows: regularized pivots about R (the small ones, and those a failure hid)
    const pv: number[] = [];
    solver.smallPivots(n, REGULARIZED_PIVOT, pv, scratch);
    const redundant = [...new Set([...pv, ...failedOrSmall])].filter((k) => hard[k - n] === 1);
    if (redundant.length === 0) return rows;
    // one solve with distinct weights on all of them, then one for each pivot row it did not reach
    const found = new Set<number>();
    this.shares(solver, redundant, reg, hard, found);
    for (const k of redundant) if (!found.has(k - n)) this.shares(solver, [k], reg, hard, found);
    for (const i of found) rows.add(i);
    return rows;
  }

  /** found += the hard rows with a share of μ for a right-hand side on `at` (KKT indices), if the solve shows a dependency */
  private shares(solver: StepSolver, at: readonly number[], reg: number, hard: Uint8Array, found: Set<number>): void {
    const { n, m } = this;
    const b = (this.b ??= new Float64Array(n + m)), x = (this.x ??= new Float64Array(n + m));
    b.fill(0);
    for (let t = 0; t < at.length; t++) b[at[t]!] = 1 + t / at.length;
    if (!solver.solveDirect(b, x)) return;
    let big = 0;
    for (let i = 0; i < m; i++) { const a = Math.abs(x[n + i]!); if (hard[i] === 1 && a > big) big = a; }
    // no 1/R in the answer: nothing depends on these rows
    if (!(big * reg >= DEPENDENCY_SIGNATURE)) return;
    for (let i = 0; i < m; i++) if (hard[i] === 1 && Math.abs(x[n + i]!) > DEPENDENCY_SHARE * big) found.add(i);
  }
}
