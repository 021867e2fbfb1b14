/**
 * A dense dual active-set method for the strictly convex QP
 *   min ½ xᵀQx + cᵀx   subject to   A x ≥ b        (Q symmetric positive definite)
 * after Goldfarb & Idnani (1983): the reference QP of the LCP ↔ QP utilities (000 §0.3; qp.ts),
 * independent of the pivoting solvers.
 *
 * Derivation in brief. With Q = L Lᵀ and x̃ = Lᵀx the problem is min ½‖x̃‖² + c̃ᵀx̃
 * subject to v_iᵀx̃ ≥ b_i, where c̃ = L⁻¹c and v_i = L⁻¹a_i. The method starts at the
 * unconstrained minimum x̃ = −c̃ with no active constraint (dual feasible) and adds violated
 * constraints one at a time, the most violated first. For a constraint p it moves along
 * z = (I − P)v_p, P the projector on the active normals N, while the active multipliers change by
 * −t r, r = N⁺v_p: a full step makes p active; a partial step stops where an active multiplier
 * reaches zero and drops that constraint. z = 0 with no multiplier able to decrease proves the
 * constraints infeasible. Every step increases the dual objective, so no active set repeats and
 * the method is finite.
 *
 * The active normals are orthonormalized afresh at each step (modified Gram–Schmidt, twice), an
 * O(n q²) cost that suits a reference method on small problems. Work arrays are allocated once per
 * call, never inside the iteration.
 */
import { ModelError } from '../../model/errors.js';
import { choleskyDense } from '../../math/dense.js';
import type { LcpReport, LcpStatus } from './types.js';

/** min ½ xᵀQx + cᵀx subject to A x ≥ b; matrices dense row-major */
export interface QpProblem {
  /** number of variables */
  n: number;
  /** number of inequality constraints */
  m: number;
  /** n × n, symmetric positive definite */
  Q: Float64Array;
  /** n */
  c: Float64Array;
  /** m × n */
  A: Float64Array;
  /** m */
  b: Float64Array;
}

/** a QP's primal and dual solution */
export interface QpSolution {
  /** minimizer (n) */
  x: Float64Array;
  /** multipliers of A x ≥ b (m, ≥ 0): Q x + c = Aᵀy */
  y: Float64Array;
  /** status, iterations (pivots or active-set changes) and the KKT residual `qpResidual` */
  report: LcpReport;
}

/** relative size below which a step direction or a violation counts as zero */
const QP_TOL = 1e-12;

/** throws unless the QP's arrays have the sizes n and m announce */
export function checkQp(p: QpProblem, where: string): void {
  const { n, m } = p;
  if (!Number.isInteger(n) || n < 1) {
    throw new ModelError(`${where}(n)`, `must be an integer ≥ 1, got ${n}`);
  }
  if (!Number.isInteger(m) || m < 0) {
    throw new ModelError(`${where}(m)`, `must be an integer ≥ 0, got ${m}`);
  }
  const sizes: [string, Float64Array, number][] = [
    ['Q', p.Q, n * n], ['c', p.c, n], ['A', p.A, m * n], ['b', p.b, m],
  ];
  for (const [name, a, len] of sizes) {
    if (a.length < len) throw new ModelError(`${where}(${name})`, `has ${a.length} entries, expected ${len}`);
  }
}

/** the Cholesky factor of Q (row-major lower triangle), or a ModelError */
export function choleskyOfQ(p: QpProblem, where: string): Float64Array {
  const f = choleskyDense(p.Q, p.n);
  if (f === null) throw new ModelError(`${where}(Q)`, 'is not symmetric positive definite');
  return f.L;
}

/** out ← L⁻¹ v for the lower triangular L (n × n row-major); out may alias v */
export function forwardSolve(
  out: Float64Array, L: Float64Array, v: ArrayLike<number>, n: number,
): Float64Array {
  for (let i = 0; i < n; i++) {
    let s = v[i];
    for (let k = 0; k < i; k++) s -= L[i * n + k] * out[k];
    out[i] = s / L[i * n + i];
  }
  return out;
}

/** out ← L⁻ᵀ v for the lower triangular L (n × n row-major); out may alias v */
export function backSolve(
  out: Float64Array, L: Float64Array, v: ArrayLike<number>, n: number,
): Float64Array {
  for (let i = n - 1; i >= 0; i--) {
    let s = v[i];
    for (let k = i + 1; k < n; k++) s -= L[k * n + i] * out[k];
    out[i] = s / L[i * n + i];
  }
  return out;
}

/** the dual active-set iteration in the transformed variables x̃ = Lᵀx */
class DualActiveSet {
  /** v_i = L⁻¹a_i, column i at i·n */
  readonly v: Float64Array;
  readonly x: Float64Array;
  /** multipliers of all constraints (0 when inactive) */
  readonly u: Float64Array;
  /** active constraints in order of addition */
  readonly active: Int32Array;
  /** 1 where a constraint is active */
  private readonly isActive: Uint8Array;
  count = 0;
  /** orthonormal basis of the active normals (column k at k·n) and R (q × q, row-major, m wide) */
  private readonly basis: Float64Array;
  private readonly R: Float64Array;
  private readonly z: Float64Array;
  private readonly r: Float64Array;
  private readonly norms: Float64Array;

  constructor(readonly n: number, readonly m: number, L: Float64Array, p: QpProblem) {
    this.v = new Float64Array(m * n); this.x = new Float64Array(n);
    this.u = new Float64Array(m); this.active = new Int32Array(m); this.isActive = new Uint8Array(m);
    this.basis = new Float64Array(n * Math.min(n, m)); this.R = new Float64Array(m * m);
    this.z = new Float64Array(n); this.r = new Float64Array(m); this.norms = new Float64Array(m);
    for (let i = 0; i < m; i++) {
      const vi = this.v.subarray(i * n, i * n + n);
      forwardSolve(vi, L, p.A.subarray(i * n, i * n + n), n);
      let s = 0;
      for (let k = 0; k < n; k++) s += vi[k] * vi[k];
      this.norms[i] = Math.sqrt(s);
    }
    // the unconstrained minimum x̃ = −L⁻¹c
    forwardSolve(this.x, L, p.c, n);
    for (let k = 0; k < n; k++) this.x[k] = -this.x[k];
  }

  /** slack v_iᵀx̃ − b_i */
  slack(i: number, b: Float64Array): number {
    const n = this.n, v = this.v, x = this.x;
    let s = -b[i];
    for (let k = 0; k < n; k++) s += v[i * n + k] * x[k];
    return s;
  }

  /** the most violated constraint (slack over ‖v_i‖), or −1 when all hold within the tolerance */
  mostViolated(b: Float64Array): number {
    let xnorm = 0;
    for (let k = 0; k < this.n; k++) xnorm = Math.max(xnorm, Math.abs(this.x[k]));
    let worst = -QP_TOL * Math.max(1, xnorm), p = -1;
    for (let i = 0; i < this.m; i++) {
      if (this.isActive[i]) continue;
      if (this.norms[i] === 0) { if (-b[i] < worst) { worst = -b[i]; p = i; } continue; }
      const s = this.slack(i, b) / this.norms[i];
      if (s < worst) { worst = s; p = i; }
    }
    return p;
  }

  /**
   * For constraint p: z ← (I − P) v_p and r ← N⁺ v_p over the active set; returns |z|² relative
   * to |v_p|² (0 when v_p lies in the span of the active normals)
   */
  direction(p: number): number {
    const n = this.n, q = this.count, B = this.basis, R = this.R, m = this.m, z = this.z, r = this.r;
    this.orthonormalize();
    // z = v_p − Σ_k (e_k·v_p) e_k, twice; the coefficients accumulate in r as Qᵀv_p
    z.set(this.v.subarray(p * n, p * n + n));
    for (let k = 0; k < q; k++) r[k] = 0;
    for (let pass = 0; pass < 2; pass++) {
      for (let k = 0; k < q; k++) {
        let s = 0;
        for (let i = 0; i < n; i++) s += B[k * n + i] * z[i];
        for (let i = 0; i < n; i++) z[i] -= s * B[k * n + i];
        r[k] += s;
      }
    }
    // r ← R⁻¹ (Qᵀ v_p), back substitution
    for (let k = q - 1; k >= 0; k--) {
      let s = r[k];
      for (let j = k + 1; j < q; j++) s -= R[k * m + j] * r[j];
      r[k] = s / R[k * m + k];
    }
    let zz = 0;
    for (let i = 0; i < n; i++) zz += z[i] * z[i];
    return this.norms[p] === 0 ? 0 : zz / (this.norms[p] * this.norms[p]);
  }

  /** QR of the active normals by modified Gram–Schmidt with one reorthogonalization */
  private orthonormalize(): void {
    const n = this.n, m = this.m, B = this.basis, R = this.R;
    for (let k = 0; k < this.count; k++) {
      const a = this.active[k], e = B.subarray(k * n, k * n + n);
      e.set(this.v.subarray(a * n, a * n + n));
      for (let j = 0; j < k; j++) R[j * m + k] = 0;
      for (let pass = 0; pass < 2; pass++) {
        for (let j = 0; j < k; j++) {
          let s = 0;
          for (let i = 0; i < n; i++) s += B[j * n + i] * e[i];
          for (let i = 0; i < n; i++) e[i] -= s * B[j * n + i];
          R[j * m + k] += s;
        }
      }
      let nrm = 0;
      for (let i = 0; i < n; i++) nrm += e[i] * e[i];
      nrm = Math.sqrt(nrm);
      for (let i = 0; i < n; i++) e[i] /= nrm;
      R[k * m + k] = nrm;
    }
  }

  /**
   * One Goldfarb–Idnani step towards satisfying constraint p: 'added' (p active), 'dropped' (an
   * active constraint left; try p again) or 'infeasible'
   */
  step(p: number, b: Float64Array): 'added' | 'dropped' | 'infeasible' {
    const n = this.n, q = this.count, r = this.r, u = this.u, active = this.active;
    const zRel = this.direction(p);
    // partial step: the first active multiplier that r drives to zero
    let t1 = Infinity, l = -1;
    for (let k = 0; k < q; k++) {
      if (r[k] > QP_TOL && u[active[k]] / r[k] < t1) { t1 = u[active[k]] / r[k]; l = k; }
    }
    // full step: the length that makes constraint p hold with equality
    let t2 = Infinity;
    if (zRel > QP_TOL * QP_TOL) {
      let zv = 0;
      for (let i = 0; i < n; i++) zv += this.z[i] * this.v[p * n + i];
      t2 = Math.max(0, -this.slack(p, b) / zv);
    }
    const t = Math.min(t1, t2);
    if (t === Infinity) return 'infeasible';
    // move the primal point (only when z ≠ 0) and the multipliers
    if (t2 < Infinity) for (let i = 0; i < n; i++) this.x[i] += t * this.z[i];
    for (let k = 0; k < q; k++) u[active[k]] -= t * r[k];
    u[p] += t;
    if (t2 <= t1) { active[this.count++] = p; this.isActive[p] = 1; return 'added'; }
    this.drop(l);
    return 'dropped';
  }

  /** removes the k-th active constraint, its multiplier set to zero */
  private drop(k: number): void {
    this.u[this.active[k]] = 0;
    this.isActive[this.active[k]] = 0;
    for (let j = k + 1; j < this.count; j++) this.active[j - 1] = this.active[j];
    this.count--;
  }
}

/**
 * Solves min ½xᵀQx + cᵀx subject to A x ≥ b (Q symmetric positive definite) by the dual
 * active-set method. Status 'solved', 'infeasible' (the constraints admit no x) or
 * 'iteration-limit'; iterations counts the active-set changes.
 */
export function activeSetQP(p: QpProblem, opts?: { maxIterations?: number }): QpSolution {
  checkQp(p, 'activeSetQP');
  const { n, m } = p;
  const L = choleskyOfQ(p, 'activeSetQP');
  const s = new DualActiveSet(n, m, L, p);
  const maxIterations = opts?.maxIterations ?? 50 * (n + m) + 100;
  let status: LcpStatus = 'solved', iterations = 0;
  // add the most violated constraint until none is violated
  outer: for (let pNext = s.mostViolated(p.b); pNext >= 0; pNext = s.mostViolated(p.b)) {
    for (;;) {
      if (iterations >= maxIterations) { status = 'iteration-limit'; break outer; }
      iterations++;
      const result = s.step(pNext, p.b);
      if (result === 'infeasible') { status = 'infeasible'; break outer; }
      if (result === 'added') break;
    }
  }
  // back to x = L⁻ᵀ x̃
  const x = backSolve(new Float64Array(n), L, s.x, n);
  const y = Float64Array.from(s.u);
  return { x, y, report: { status, iterations, boundIterations: 1, residual: qpResidual(p, x, y) } };
}

/**
 * KKT residual of a QP solution, relative: the largest of |Qx + c − Aᵀy|, the constraint violation
 * max(0, b − Ax), max(0, −y) and min(y_i, |a_iᵀx − b_i|), over
 * max(1, ‖Q‖‖x‖, ‖c‖, ‖A‖‖y‖, ‖A‖‖x‖, ‖b‖) (∞-norms).
 */
export function qpResidual(p: QpProblem, x: Float64Array, y: Float64Array): number {
  const { n, m, Q, c, A, b } = p;
  let worst = 0, qNorm = 0, aNorm = 0;
  // stationarity row by row, with ‖Q‖∞
  for (let i = 0; i < n; i++) {
    let g = c[i], rowSum = 0;
    for (let k = 0; k < n; k++) { g += Q[i * n + k] * x[k]; rowSum += Math.abs(Q[i * n + k]); }
    for (let j = 0; j < m; j++) g -= A[j * n + i] * y[j];
    worst = Math.max(worst, Math.abs(g));
    qNorm = Math.max(qNorm, rowSum);
  }
  // feasibility, dual sign and complementarity, with ‖A‖∞
  for (let j = 0; j < m; j++) {
    let s = -b[j], rowSum = 0;
    for (let k = 0; k < n; k++) { s += A[j * n + k] * x[k]; rowSum += Math.abs(A[j * n + k]); }
    worst = Math.max(worst, -s, -y[j], Math.min(Math.abs(y[j]), Math.abs(s)));
    aNorm = Math.max(aNorm, rowSum);
  }
  const xNorm = maxAbs(x, n);
  const scale = Math.max(1, qNorm * xNorm, maxAbs(c, n), aNorm * maxAbs(y, m), aNorm * xNorm, maxAbs(b, m));
  return worst / scale;
}

/** max |a_i| over the first len entries */
function maxAbs(a: Float64Array, len: number): number {
  let s = 0;
  for (let i = 0; i < len; i++) s = Math.max(s, Math.abs(a[i]));
  return s;
}
