/**
 * What principal pivoting with columns on demand keeps (000 §0.8): the columns of A requested so
 * far (`ColumnCache`), and the maintained Cholesky factor of the principal submatrix A_αα of a
 * symmetric positive semidefinite A (`PrincipalFactor`: "a factorization of M_αα maintained so
 * that we can easily compute products of M_αα⁻¹").
 *
 * The free set α is kept in the order its variables entered: position k holds variable order[k].
 * - Adding a variable j borders the factor: l = L⁻¹ a_αj, d = a_jj − lᵀl, new row (lᵀ, √d); this is
 *   one step of the up-looking Cholesky factorization, so appending every variable in turn is a
 *   full factorization (m³/6 multiply-adds) and no separate "refactor" path is needed.
 * - A pivot d ≤ pivotTol·a_jj means column j lies (numerically) in the span of the columns of α:
 *   A_{α∪j} is singular. The factor is left unchanged and l is kept, so the caller can ask for
 *   the null direction (−A_αα⁻¹ a_αj, 1), along which A z does not change when A is PSD.
 * - Removing the variable at position p deletes row and column p; the trailing block then needs
 *   T' T'ᵀ = T Tᵀ + v vᵀ with v the removed column below the diagonal: a rank-one update by
 *   plane rotations, O((m − p)²) (Golub & Van Loan, "Matrix Computations", 4th ed., §6.5).
 *
 * L is stored column-major with a fixed stride (the capacity), so every kernel below walks
 * columns contiguously: the forward solve by axpys, the backward solve by dot products, the
 * update down each column. Capacity doubles when needed and never shrinks.
 */
import { NonFiniteError } from '../../model/errors.js';
import type { LcpMatrix } from './types.js';

/** the maintained Cholesky factor of A_αα, α in the order its variables entered */
export class PrincipalFactor {
  /** number of variables in the factor */
  m = 0;
  /** (capacity) variable at each position */
  order: Int32Array;
  /** (n) position of each variable, −1 outside the factor */
  pos: Int32Array;
  /** relative pivot threshold below which a column counts as dependent */
  readonly pivotTol: number;
  private cap: number;
  private L: Float64Array;
  /** l = L⁻¹ a_αj of the last append (kept when it failed, for the null direction) */
  private l: Float64Array;
  /** the column being folded into the trailing block by `remove` */
  private v: Float64Array;

  constructor(capacity: number, pivotTol = 1e-10) {
    this.cap = Math.max(4, capacity);
    this.pivotTol = pivotTol;
    this.L = new Float64Array(this.cap * this.cap);
    this.order = new Int32Array(this.cap);
    this.l = new Float64Array(this.cap);
    this.v = new Float64Array(this.cap);
    this.pos = new Int32Array(Math.max(4, capacity)).fill(-1);
  }

  /** empties the factor for a problem of n variables */
  reset(n: number): void {
    if (this.pos.length < n) this.pos = new Int32Array(Math.max(n, 2 * this.pos.length));
    this.pos.fill(-1, 0, n);
    this.m = 0;
  }

  /**
   * tries to add variable j, whose full column of A is cols[at … at + n) (entries read at the rows
   * of the free set and at j); returns false, leaving the factor unchanged, when the pivot is
   * (numerically) zero
   */
  tryAppend(j: number, cols: Float64Array, at: number): boolean {
    const m = this.m;
    if (m === this.cap) this.grow();
    const L = this.L, c = this.cap, l = this.l, order = this.order;
    // gather a_αj in factor order
    for (let k = 0; k < m; k++) l[k] = cols[at + order[k]!]!;
    // forward solve L l = a_αj, column by column
    for (let k = 0; k < m; k++) {
      const lk = l[k]! / L[k * c + k]!;
      l[k] = lk;
      if (lk === 0) continue;
      const base = k * c;
      for (let i = k + 1; i < m; i++) l[i] = l[i]! - L[base + i]! * lk;
    }
    // the Schur complement of a_jj decides dependence
    const ajj = cols[at + j]!;
    let d = ajj;
    for (let k = 0; k < m; k++) d -= l[k]! * l[k]!;
    if (!(ajj > 0) || !(d > this.pivotTol * ajj)) return false;
    // the new row m of L
    for (let k = 0; k < m; k++) L[k * c + m] = l[k]!;
    L[m * c + m] = Math.sqrt(d);
    order[m] = j;
    this.pos[j] = m;
    this.m = m + 1;
    return true;
  }

  /**
   * after a failed `tryAppend`: out[k] ← −(A_αα⁻¹ a_αj)_k for each position k, the free variables'
   * part of the null direction whose entry at j is 1
   */
  nullDirection(out: Float64Array): void {
    const m = this.m;
    for (let k = 0; k < m; k++) out[k] = this.l[k]!;
    this.backward(out);
    for (let k = 0; k < m; k++) out[k] = -out[k]!;
  }

  /** x ← A_αα⁻¹ x, x indexed by factor position */
  solve(x: Float64Array): void {
    const m = this.m, L = this.L, c = this.cap;
    // forward: L y = x
    for (let k = 0; k < m; k++) {
      const base = k * c;
      const yk = x[k]! / L[base + k]!;
      x[k] = yk;
      if (yk === 0) continue;
      for (let i = k + 1; i < m; i++) x[i] = x[i]! - L[base + i]! * yk;
    }
    this.backward(x);
  }

  /** drops the variables at positions p … m−1 (cheaper than removals when many of them leave) */
  truncate(p: number): void {
    for (let k = p; k < this.m; k++) this.pos[this.order[k]!] = -1;
    this.m = Math.min(this.m, p);
  }

  /** removes the variable at position p: deletes its row and column and updates the trailing block */
  remove(p: number): void {
    const m = this.m, L = this.L, c = this.cap, v = this.v, order = this.order;
    this.pos[order[p]!] = -1;
    // keep column p below the diagonal: the rank-one term of the trailing block
    for (let i = p + 1; i < m; i++) v[i - 1] = L[p * c + i]!;
    // columns before p lose row p
    for (let j = 0; j < p; j++) L.copyWithin(j * c + p, j * c + p + 1, j * c + m);
    // columns after p move one column left and one row up
    for (let j = p + 1; j < m; j++) L.copyWithin((j - 1) * c + (j - 1), j * c + j, j * c + m);
    // positions after p move down by one
    for (let k = p + 1; k < m; k++) {
      order[k - 1] = order[k]!;
      this.pos[order[k]!] = k - 1;
    }
    this.m = m - 1;
    this.rankOneUpdate(p);
  }

  /** L[p:, p:] becomes the Cholesky factor of L Lᵀ + v vᵀ on that block (v from position p) */
  private rankOneUpdate(p: number): void {
    const m = this.m, L = this.L, c = this.cap, v = this.v;
    for (let k = p; k < m; k++) {
      const vk = v[k]!;
      if (vk === 0) continue;
      // a rotation folds v_k into the diagonal entry
      const base = k * c;
      const lkk = L[base + k]!;
      const r = Math.hypot(lkk, vk);
      const cs = r / lkk, sn = vk / lkk;
      L[base + k] = r;
      for (let i = k + 1; i < m; i++) {
        const lik = (L[base + i]! + sn * v[i]!) / cs;
        L[base + i] = lik;
        v[i] = cs * v[i]! - sn * lik;
      }
    }
  }

  /** x ← L⁻ᵀ x: dot products down the columns of L */
  private backward(x: Float64Array): void {
    const m = this.m, L = this.L, c = this.cap;
    for (let k = m - 1; k >= 0; k--) {
      const base = k * c;
      let s = x[k]!;
      for (let i = k + 1; i < m; i++) s -= L[base + i]! * x[i]!;
      x[k] = s / L[base + k]!;
    }
  }

  /** doubles the capacity, copying the factor */
  private grow(): void {
    const old = this.cap, cap = 2 * old, L = new Float64Array(cap * cap);
    for (let j = 0; j < this.m; j++) L.set(this.L.subarray(j * old + j, j * old + this.m), j * cap + j);
    const order = new Int32Array(cap);
    order.set(this.order);
    this.L = L;
    this.order = order;
    this.l = new Float64Array(cap);
    this.v = new Float64Array(cap);
    this.cap = cap;
  }
}

/**
 * The columns of A requested in one solve, each computed once and stored back to back (000 §0.8:
 * "column j of M is computed (and stored) whenever z_j is added to the basis for the first time").
 * Storage doubles when needed and never shrinks.
 */
export class ColumnCache {
  /** the columns, n entries each; column j at `offset(j)` (re-read after a request: it may grow) */
  data: Float64Array;
  /** columns requested since `reset` */
  count = 0;
  /** the largest |a_jj| among them: max |a_ij| over their rows when A is PSD */
  diagMax = 0;
  private slot: Int32Array;
  private tmp: Float64Array;
  private n = 0;
  private A: LcpMatrix | null = null;

  constructor(capacity: number) {
    this.slot = new Int32Array(capacity);
    this.tmp = new Float64Array(capacity);
    this.data = new Float64Array(capacity * Math.min(capacity, 32));
  }

  /** forgets the columns; the next requests go to A */
  reset(A: LcpMatrix): void {
    const n = A.n;
    if (this.slot.length < n) { this.slot = new Int32Array(n); this.tmp = new Float64Array(n); }
    this.slot.fill(-1, 0, n);
    this.n = n; this.A = A; this.count = 0; this.diagMax = 0;
  }

  /** offset of column j in `data`, requesting it from A on first use */
  offset(j: number): number {
    const n = this.n;
    let s = this.slot[j]!;
    if (s < 0) {
      s = this.count++;
      if (this.count * n > this.data.length) {
        const grown = new Float64Array(Math.max(this.count * n, 2 * this.data.length));
        grown.set(this.data.subarray(0, s * n));
        this.data = grown;
      }
      const tmp = this.tmp, data = this.data, at = s * n;
      this.A!.column(j, tmp);
      // a NaN or infinity anywhere makes the sum NaN
      let finite = 0;
      for (let i = 0; i < n; i++) { data[at + i] = tmp[i]!; finite += 0 * tmp[i]!; }
      if (finite !== 0) throw new NonFiniteError('contact solver', `column ${j} of the LCP matrix is not finite`);
      this.slot[j] = s;
      this.diagMax = Math.max(this.diagMax, Math.abs(tmp[j]!));
    }
    return s * n;
  }

  /** w += v · column j */
  addTo(w: Float64Array, j: number, v: number): void {
    if (v === 0) return;
    const at = this.offset(j), n = this.n, data = this.data;
    for (let i = 0; i < n; i++) w[i] = w[i]! + data[at + i]! * v;
  }
}
