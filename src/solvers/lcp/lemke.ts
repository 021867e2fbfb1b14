/**
 * Lemke's complementary pivoting method for the standard LCP
 *   w = M z + q,   z ≥ 0,   w ≥ 0,   zᵀw = 0
 * (the solver of the Anitescu–Stewart system of 000 §0.10; theory.md §14).
 *
 * Derivation in brief. An artificial variable z₀ and a covering vector d > 0 (all ones by default)
 * extend the system to  w − M z − d z₀ = q. The start w = q + d z₀, z = 0, with z₀ the smallest
 * value that makes w ≥ 0, is almost complementary: one w_r is zero and leaves the basis. From there
 * each pivot brings in the complement of the variable that just left, and the minimum ratio test
 * picks the basic variable that blocks it. The path ends when z₀ leaves (a solution) or when
 * nothing blocks the entering variable (ray termination: for copositive-plus M, such as positive
 * semidefinite ones, that proves the LCP infeasible).
 *
 * Degeneracy. Ties in the ratio test are broken lexicographically on the rows of [B⁻¹q, B⁻¹]
 * divided by the entering column. These rows start lexicographically positive (the first pivot
 * takes the last of the tied rows) and stay so; as no two rows of B⁻¹ are proportional the choice
 * is unique, no basis repeats, and the method cannot cycle. When z₀ is among the tied rows it leaves
 * at once, which ends the path.
 *
 * Storage. The revised dense tableau: M by columns (n²), the basis inverse B⁻¹ row-major (n²),
 * the basic values B⁻¹q and the basis bookkeeping, all preallocated and grown only when n exceeds
 * the capacity. Each pivot costs O(n²). The final basis gets one step of iterative refinement
 * against the stored M before z and w are read out.
 */
import { ModelError } from '../../model/errors.js';
import type { LcpMatrix, LcpReport, LcpStatus } from './types.js';

/** options of one Lemke solve */
export interface LemkeOptions {
  /** pivot budget; default 50·n + 100 */
  maxPivots?: number;
  /** covering vector d (n entries, each > 0); default all ones */
  cover?: Float64Array;
}

/** relative size below which an entry of the entering column is not a pivot */
const PIVOT_TOL = 1e-11;
/** relative distance within which two ratios (or lexicographic entries) tie */
const TIE_TOL = 1e-11;

/**
 * Lemke's method with a lexicographic ratio test on a dense tableau. One instance serves many
 * solves; its buffers grow to the largest n seen and are reused.
 */
export class Lemke {
  private cap = 0;
  /** M by columns: entry (i, j) at j·n + i */
  private mc = new Float64Array(0);
  /** B⁻¹, row-major n × n */
  private binv = new Float64Array(0);
  /** basic values B⁻¹q (the current w, z, z₀ of the basic variables) */
  private xb = new Float64Array(0);
  /** the variable basic in each row: w_i = i, z_j = n + j, z₀ = 2n */
  private basis = new Int32Array(0);
  /** the entering column in tableau form, B⁻¹ a */
  private dir = new Float64Array(0);
  /** rows still tied in the ratio test */
  private cand = new Int32Array(0);
  /** the covering vector in use */
  private cov = new Float64Array(0);
  /** w = M z + q of the last solve */
  private wv = new Float64Array(0);
  /** refinement residual */
  private res = new Float64Array(0);
  /** ‖M‖∞ of the last solve */
  private mNorm = 0;
  /** the last solve's report (the same object every solve) */
  readonly report: LcpReport = { status: 'solved', iterations: 0, boundIterations: 1, residual: 0 };

  constructor(capacity = 0) { this.reserve(capacity); }

  /** w = M z + q of the last solve (n entries) into out */
  copyW(out: Float64Array, n: number): void { for (let i = 0; i < n; i++) out[i] = this.wv[i]; }

  /** makes room for problems of size n (no-op when they fit) */
  reserve(n: number): void {
    if (n <= this.cap) return;
    const cap = Math.max(n, 2 * this.cap);
    this.mc = new Float64Array(cap * cap); this.binv = new Float64Array(cap * cap);
    this.xb = new Float64Array(cap); this.basis = new Int32Array(cap);
    this.dir = new Float64Array(cap); this.cand = new Int32Array(cap);
    this.cov = new Float64Array(cap); this.wv = new Float64Array(cap);
    this.res = new Float64Array(cap);
    this.cap = cap;
  }

  /**
   * Solves w = M z + q, 0 ≤ z ⊥ w ≥ 0, writing z (n entries). Status 'solved', 'ray-termination'
   * (no solution reached; for positive semidefinite M the LCP is infeasible) or 'iteration-limit'.
   * On failure z holds the last basis's z part, for diagnosis. The returned report is this
   * solver's own object, overwritten by the next solve.
   */
  solve(M: LcpMatrix, q: Float64Array, z: Float64Array, opts?: LemkeOptions): LcpReport {
    const n = M.n;
    this.check(n, q, z, opts);
    this.reserve(n);
    this.load(M);
    // trivial solution z = 0 when q is already feasible
    let trivial = true;
    for (let i = 0; i < n; i++) if (q[i] < 0) { trivial = false; break; }
    if (trivial) {
      z.fill(0, 0, n);
      return this.finish(n, q, z, 'solved', 0);
    }
    const maxPivots = opts?.maxPivots ?? 50 * n + 100;
    const cover = opts?.cover;
    for (let i = 0; i < n; i++) this.cov[i] = cover === undefined ? 1 : cover[i];
    const status = this.path(n, q, maxPivots);
    if (status === 'solved') this.refine(n, q);
    this.readZ(n, z);
    return this.finish(n, q, z, status, this.report.iterations);
  }

  /** throws on inputs of the wrong size or a covering vector that is not positive */
  private check(n: number, q: Float64Array, z: Float64Array, opts?: LemkeOptions): void {
    if (q.length < n) throw new ModelError('Lemke.solve(q)', `has ${q.length} entries, the matrix ${n}`);
    if (z.length < n) throw new ModelError('Lemke.solve(z)', `has ${z.length} entries, the matrix ${n}`);
    for (let i = 0; i < n; i++) {
      if (!Number.isFinite(q[i])) throw new ModelError(`Lemke.solve(q[${i}])`, `must be finite, got ${q[i]}`);
    }
    const cover = opts?.cover;
    if (cover === undefined) return;
    if (cover.length < n) {
      throw new ModelError('Lemke.solve(cover)', `has ${cover.length} entries, the matrix ${n}`);
    }
    for (let i = 0; i < n; i++) {
      if (!(cover[i] > 0)) throw new ModelError(`Lemke.solve(cover[${i}])`, `must be > 0, got ${cover[i]}`);
    }
  }

  /** copies M by columns and measures ‖M‖∞ */
  private load(M: LcpMatrix): void {
    const n = M.n, mc = this.mc, rowSum = this.res, col = this.dir;
    rowSum.fill(0, 0, n);
    for (let j = 0; j < n; j++) {
      M.column(j, col);
      for (let i = 0; i < n; i++) { mc[j * n + i] = col[i]; rowSum[i] += Math.abs(col[i]); }
    }
    let norm = 0;
    for (let i = 0; i < n; i++) norm = Math.max(norm, rowSum[i]);
    this.mNorm = norm;
  }

  /** runs the complementary pivoting path from the all-w basis; returns how it ended */
  private path(n: number, q: Float64Array, maxPivots: number): LcpStatus {
    const report = this.report;
    const binv = this.binv, xb = this.xb, basis = this.basis, dir = this.dir;
    // start: all w basic, B = I
    binv.fill(0, 0, n * n);
    for (let i = 0; i < n; i++) { binv[i * n + i] = 1; xb[i] = q[i]; basis[i] = i; }
    // first pivot: z₀ enters with column −d and replaces the most violated w
    for (let i = 0; i < n; i++) dir[i] = -this.cov[i];
    let row = this.firstRow(n);
    let leaving = basis[row];
    this.pivot(n, row, 2 * n);
    report.iterations = 1;
    // then the complement of whatever left enters, until z₀ leaves
    while (leaving !== 2 * n) {
      if (report.iterations >= maxPivots) return 'iteration-limit';
      const entering = leaving < n ? leaving + n : leaving - n;
      this.column(n, entering);
      row = this.ratioTest(n);
      if (row < 0) return 'ray-termination';
      leaving = basis[row];
      this.pivot(n, row, entering);
      report.iterations++;
    }
    return 'solved';
  }

  /** the row z₀ replaces first: the largest −q_i/d_i, the last such row on ties (lexicographic) */
  private firstRow(n: number): number {
    const xb = this.xb, cov = this.cov;
    let t = 0, scale = 0;
    for (let i = 0; i < n; i++) {
      t = Math.max(t, -xb[i] / cov[i]);
      scale = Math.max(scale, Math.abs(xb[i]));
    }
    const tol = TIE_TOL * scale;
    let row = -1;
    for (let i = 0; i < n; i++) if (xb[i] + t * cov[i] <= tol) row = i;
    return row;
  }

  /** dir ← B⁻¹ a for the entering variable's column a (e_i for w_i, −M_j for z_j) */
  private column(n: number, entering: number): void {
    const binv = this.binv, dir = this.dir;
    if (entering < n) {
      for (let i = 0; i < n; i++) dir[i] = binv[i * n + entering];
      return;
    }
    const mc = this.mc, off = (entering - n) * n;
    for (let i = 0; i < n; i++) {
      let s = 0;
      const r = i * n;
      for (let k = 0; k < n; k++) s += binv[r + k] * mc[off + k];
      dir[i] = -s;
    }
  }

  /**
   * Lexicographic minimum ratio test: the blocking row for the entering column `dir`, or −1 when
   * nothing blocks (a ray). z₀'s row wins any tie it is part of.
   */
  private ratioTest(n: number): number {
    const xb = this.xb, dir = this.dir, cand = this.cand, basis = this.basis;
    // the pivot threshold and the scale of the basic values
    let dmax = 0, xmax = 0;
    for (let i = 0; i < n; i++) {
      dmax = Math.max(dmax, Math.abs(dir[i]));
      xmax = Math.max(xmax, Math.abs(xb[i]));
    }
    const ptol = PIVOT_TOL * dmax;
    // smallest ratio x_i / d_i over the rows that block
    let t = Infinity;
    for (let i = 0; i < n; i++) if (dir[i] > ptol) t = Math.min(t, Math.max(0, xb[i]) / dir[i]);
    if (t === Infinity) return -1;
    // rows that reach zero together within the tolerance
    const tol = TIE_TOL * xmax;
    let nc = 0;
    for (let i = 0; i < n; i++) {
      if (dir[i] > ptol && xb[i] - t * dir[i] <= tol) {
        if (basis[i] === 2 * n) return i;
        cand[nc++] = i;
      }
    }
    return nc === 1 ? cand[0] : this.breakTie(n, nc);
  }

  /** narrows the tied rows column by column of B⁻¹ (entry / d_i, smallest kept) until one remains */
  private breakTie(n: number, count: number): number {
    const binv = this.binv, dir = this.dir, cand = this.cand;
    let nc = count;
    for (let k = 0; k < n && nc > 1; k++) {
      // smallest ratio in column k and the scale of the column's entries
      let t = Infinity, scale = 0;
      for (let c = 0; c < nc; c++) {
        const i = cand[c], v = binv[i * n + k];
        t = Math.min(t, v / dir[i]);
        scale = Math.max(scale, Math.abs(v));
      }
      // keep the rows whose entry vanishes with it
      const tol = TIE_TOL * scale;
      let kept = 0;
      for (let c = 0; c < nc; c++) {
        const i = cand[c];
        if (binv[i * n + k] - t * dir[i] <= tol) cand[kept++] = i;
      }
      nc = kept;
    }
    return cand[0];
  }

  /** exchanges the basic variable of `row` for `entering`, updating B⁻¹ and B⁻¹q */
  private pivot(n: number, row: number, entering: number): void {
    const binv = this.binv, xb = this.xb, dir = this.dir;
    // the pivot row, divided by the pivot
    const inv = 1 / dir[row];
    const r0 = row * n;
    for (let k = 0; k < n; k++) binv[r0 + k] *= inv;
    xb[row] *= inv;
    // eliminate the entering column from the other rows
    for (let i = 0; i < n; i++) {
      const f = dir[i];
      if (i === row || f === 0) continue;
      const ri = i * n;
      for (let k = 0; k < n; k++) binv[ri + k] -= f * binv[r0 + k];
      xb[i] -= f * xb[row];
    }
    this.basis[row] = entering;
  }

  /** one step of iterative refinement of the basic values: x_B += B⁻¹(q − B x_B) */
  private refine(n: number, q: Float64Array): void {
    const xb = this.xb, basis = this.basis, mc = this.mc, res = this.res, binv = this.binv;
    // res = q − B x_B, with B's columns e_i (w_i) and −M_j (z_j)
    for (let i = 0; i < n; i++) res[i] = q[i];
    for (let r = 0; r < n; r++) {
      const v = basis[r], x = xb[r];
      if (v < n) { res[v] -= x; continue; }
      const off = (v - n) * n;
      for (let i = 0; i < n; i++) res[i] += mc[off + i] * x;
    }
    // x_B += B⁻¹ res
    for (let r = 0; r < n; r++) {
      let s = 0;
      const ri = r * n;
      for (let k = 0; k < n; k++) s += binv[ri + k] * res[k];
      xb[r] += s;
    }
  }

  /** z from the basis: basic z_j take their (nonnegative) value, the others are 0 */
  private readZ(n: number, z: Float64Array): void {
    const basis = this.basis, xb = this.xb;
    z.fill(0, 0, n);
    for (let r = 0; r < n; r++) {
      const v = basis[r];
      if (v >= n && v < 2 * n) z[v - n] = Math.max(0, xb[r]);
    }
  }

  /** w = M z + q from the stored M, and the report with its residual */
  private finish(n: number, q: Float64Array, z: Float64Array, status: LcpStatus, pivots: number): LcpReport {
    const w = this.wv, mc = this.mc;
    for (let i = 0; i < n; i++) w[i] = q[i];
    for (let j = 0; j < n; j++) {
      const zj = z[j];
      if (zj === 0) continue;
      const off = j * n;
      for (let i = 0; i < n; i++) w[i] += mc[off + i] * zj;
    }
    const report = this.report;
    report.status = status;
    report.iterations = pivots;
    report.boundIterations = 1;
    report.residual = lcpResidual(n, z, w, q, this.mNorm);
    return report;
  }
}

/**
 * The complementarity residual of types.ts's LcpReport for a standard LCP: the largest violation
 * max(−w_i, −z_i, min(|z_i|, |w_i|)) over max(1, ‖z‖∞‖M‖∞, ‖q‖∞).
 */
export function lcpResidual(
  n: number, z: Float64Array, w: Float64Array, q: Float64Array, mNorm: number,
): number {
  let worst = 0, zmax = 0, qmax = 0;
  for (let i = 0; i < n; i++) {
    const zi = z[i], wi = w[i];
    worst = Math.max(worst, -wi, -zi, Math.min(Math.abs(zi), Math.abs(wi)));
    zmax = Math.max(zmax, Math.abs(zi));
    qmax = Math.max(qmax, Math.abs(q[i]));
  }
  return worst / Math.max(1, zmax * mNorm, qmax);
}
