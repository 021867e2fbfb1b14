/**
 * Names the whole set of constraints behind a redundancy (000 §0.6: GM⁻¹Gᵀ singular), not only
 * the row whose pivot vanished. Once the hard rows carry the tiny regularization R, the KKT
 * system [[M̂, Gᵀ], [G, −R]] with a unit right-hand side at a redundant row r has the multipliers
 * μ = −(GM̂⁻¹Gᵀ + R)⁻¹ e_r: along the dependency y (Gᵀy = 0) the inverse is 1/R, about 1e8 times
 * the typical pivot's, elsewhere O(1). So the rows with a visible share of μ (above 1e-3 of its
 * largest entry) are the rows of the dependency: both hinges of a doubled hinge, every hinge of
 * a four-bar loop. One solve per redundant row found, only when redundancy is first found.
 */
import type { StepSolver } from '../solvers/stepSolver.js';

/** a row's share of the multipliers, relative to the largest, above which it is in the dependency */
export const DEPENDENCY_SHARE = 1e-3;

export class DependentRows {
  private readonly b: Float64Array;   // (nKkt) the unit right-hand side
  private readonly x: Float64Array;   // (nKkt) its solution

  constructor(private readonly n: number, private readonly m: number) {
    this.b = new Float64Array(n + m);
    this.x = new Float64Array(n + m);
  }

  /**
   * out ← the constraint rows (0 … m) in a dependency with any of `rows` (KKT indices of the
   * redundant rows), among the rows with hard[i] = 1, from the last (regularized) factorization;
   * a solve that is not finite adds nothing
   */
  find(solver: StepSolver, rows: readonly number[], hard: Uint8Array, out: Set<number>): void {
    const { n, m, b, x } = this;
    for (const r of rows) {
      b.fill(0);
      b[r] = 1;
      if (!solver.solveDirect(b, x)) continue;
      // the dependency dominates μ: every hard row with a share of it
      let big = 0;
      for (let i = 0; i < m; i++) { const a = Math.abs(x[n + i]!); if (hard[i] === 1 && a > big) big = a; }
      for (let i = 0; i < m; i++) if (hard[i] === 1 && Math.abs(x[n + i]!) > DEPENDENCY_SHARE * big) out.add(i);
    }
  }
}
