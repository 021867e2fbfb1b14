/**
 * LCP ↔ QP (000 §0.3): a strictly convex QP with inequality constraints solved as an LCP by
 * Lemke's method, and an LCP with a symmetric positive (semi)definite matrix written as a QP.
 *
 * QP → LCP. For min ½xᵀQx + cᵀx subject to A x ≥ b, the KKT conditions are
 *   Q x + c − Aᵀy = 0,   0 ≤ y ⊥ A x − b ≥ 0.
 * Eliminating x = Q⁻¹(Aᵀy − c) gives the LCP in the multipliers y
 *   w = A x − b = (A Q⁻¹ Aᵀ) y + (−b − A Q⁻¹ c),   0 ≤ y ⊥ w ≥ 0,
 * i.e. M = A Q⁻¹ Aᵀ and q = −b − A Q⁻¹ c, as 000 §0.3 states. With Q = L Lᵀ and
 * G = L⁻¹Aᵀ, M = GᵀG is formed exactly symmetric and positive semidefinite, and
 * x = L⁻ᵀ(G y − L⁻¹c).
 * Lemke's method solves a positive semidefinite LCP whenever it is feasible; a ray termination
 * proves it infeasible, and then so is the QP (the LCP is solvable exactly when the QP has a
 * feasible point, Q being positive definite).
 *
 * LCP → QP. For symmetric positive semidefinite M, w = M z + q, 0 ≤ z ⊥ w ≥ 0 are the KKT
 * conditions of min ½zᵀMz + qᵀz subject to z ≥ 0, whose multipliers are w.
 */
import { ModelError } from '../../model/errors.js';
import { Lemke, type LemkeOptions } from './lemke.js';
import {
  activeSetQP, backSolve, checkQp, choleskyOfQ, forwardSolve, qpResidual, type QpProblem, type QpSolution,
} from './activeSetQp.js';
import { DenseLcpMatrix, type LcpReport } from './types.js';

export { activeSetQP, qpResidual, type QpProblem, type QpSolution } from './activeSetQp.js';

/** a standard LCP w = M z + q, 0 ≤ z ⊥ w ≥ 0 with M dense row-major n × n */
export interface DenseLcp {
  /** the number of unknowns */
  n: number;
  /** (n·n) the matrix, row-major */
  M: Float64Array;
  /** (n) the constant vector */
  q: Float64Array;
}

/** an LCP's solution z with its slack w = M z + q, and how the solve went */
export interface LcpSolution {
  /** (n) the solution */
  z: Float64Array;
  /** (n) the slack w = M z + q */
  w: Float64Array;
  /** the solve's report */
  report: LcpReport;
}

/** the LCP of a QP with what it takes to recover x from its solution y */
export interface QpAsLcp extends DenseLcp {
  /** G = L⁻¹Aᵀ (n × m row-major) */
  G: Float64Array;
  /** g = L⁻¹c (n) */
  g: Float64Array;
  /** the Cholesky factor of Q */
  L: Float64Array;
}

/** the LCP M = A Q⁻¹ Aᵀ, q = −b − A Q⁻¹ c of a QP (000 §0.3), in the multipliers of A x ≥ b */
export function qpAsLcp(p: QpProblem): QpAsLcp {
  checkQp(p, 'qpAsLcp');
  const { n, m, A, b, c } = p;
  const L = choleskyOfQ(p, 'qpAsLcp');
  // G column j = L⁻¹ a_j, and g = L⁻¹ c
  const G = new Float64Array(n * m), col = new Float64Array(n), g = new Float64Array(n);
  for (let j = 0; j < m; j++) {
    forwardSolve(col, L, A.subarray(j * n, j * n + n), n);
    for (let i = 0; i < n; i++) G[i * m + j] = col[i];
  }
  forwardSolve(g, L, c, n);
  // M = GᵀG, q = −b − Gᵀg
  const M = new Float64Array(m * m), q = new Float64Array(m);
  for (let i = 0; i < m; i++) {
    for (let j = 0; j <= i; j++) {
      let s = 0;
      for (let k = 0; k < n; k++) s += G[k * m + i] * G[k * m + j];
      M[i * m + j] = s; M[j * m + i] = s;
    }
    let s = 0;
    for (let k = 0; k < n; k++) s += G[k * m + i] * g[k];
    q[i] = -b[i] - s;
  }
  return { n: m, M, q, G, g, L };
}

/** out ← x = Q⁻¹(Aᵀy − c) = L⁻ᵀ(G y − g), the QP's minimizer from the LCP's solution y */
export function qpPrimal(out: Float64Array, lcp: QpAsLcp, y: Float64Array): Float64Array {
  const m = lcp.n, n = lcp.g.length, G = lcp.G;
  for (let i = 0; i < n; i++) {
    let s = -lcp.g[i];
    for (let j = 0; j < m; j++) s += G[i * m + j] * y[j];
    out[i] = s;
  }
  return backSolve(out, lcp.L, out, n);
}

/**
 * Solves min ½xᵀQx + cᵀx subject to A x ≥ b (Q symmetric positive definite) through its LCP and
 * Lemke's method. Status 'solved', 'infeasible' (Lemke's ray: no x satisfies A x ≥ b) or
 * 'iteration-limit'; iterations counts the pivots, residual is the QP's KKT residual.
 */
export function solveQP(p: QpProblem, opts?: LemkeOptions): QpSolution {
  const lcp = qpAsLcp(p);
  const y = new Float64Array(p.m), x = new Float64Array(p.n);
  const lemke = new Lemke(p.m);
  const r = lemke.solve(new DenseLcpMatrix(p.m, lcp.M), lcp.q, y, opts);
  qpPrimal(x, lcp, y);
  const status = r.status === 'ray-termination' ? 'infeasible' : r.status;
  const residual = qpResidual(p, x, y);
  const report: LcpReport = { status, iterations: r.iterations, boundIterations: 1, residual };
  return { x, y, report };
}

/**
 * The QP min ½zᵀMz + qᵀz subject to z ≥ 0 of an LCP with symmetric M (Q = M, c = q, A = I,
 * b = 0); it is convex when M is positive semidefinite, and its multipliers are w = M z + q
 */
export function lcpAsQP(lcp: DenseLcp): QpProblem {
  const { n, M, q } = lcp;
  if (M.length < n * n || q.length < n) throw new ModelError('lcpAsQP', `M or q smaller than n = ${n}`);
  // symmetry, to the rounding of the larger entry
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < i; j++) {
      const a = M[i * n + j], b = M[j * n + i];
      if (Math.abs(a - b) > 1e-14 * Math.max(Math.abs(a), Math.abs(b))) {
        const detail = `is ${a} but M[${j}, ${i}] is ${b}: M must be symmetric`;
        throw new ModelError(`lcpAsQP(M[${i}, ${j}])`, detail);
      }
    }
  }
  const A = new Float64Array(n * n);
  for (let i = 0; i < n; i++) A[i * n + i] = 1;
  return { n, m: n, Q: M.slice(0, n * n), c: q.slice(0, n), A, b: new Float64Array(n) };
}

/**
 * Solves an LCP with symmetric positive definite M as the QP of `lcpAsQP` by the dual active-set
 * method: z is the QP's minimizer and w its multipliers
 */
export function solveLcpAsQP(lcp: DenseLcp): LcpSolution {
  const { x, y, report } = activeSetQP(lcpAsQP(lcp));
  return { z: x, w: y, report };
}
