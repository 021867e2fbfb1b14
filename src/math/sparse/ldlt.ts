/**
 * Sparse LDLᵀ factorization without pivoting, for symmetric quasi-definite
 * matrices K = [[H, Gᵀ], [G, −R]] (H SPD, R ≥ 0), the KKT systems of the engine.
 *
 * Algorithms:
 * - quasi-definite matrices with H and R positive definite are strongly
 *   factorizable: P K Pᵀ = L D Lᵀ exists for every permutation P, with n_H positive
 *   and n_R negative pivots (R. J. Vanderbei, "Symmetric quasidefinite matrices",
 *   SIAM J. Optim. 5(1), 1995). With R singular this no longer holds for every P;
 *   `delayed` (below) restores it when G has full row rank;
 * - the symbolic and numeric phases are the up-looking (row-by-row) method of
 *   T. A. Davis, "Algorithm 849: a concise sparse Cholesky factorization package",
 *   ACM TOMS 31(4), 2005: row k of L is the solution of a sparse triangular system
 *   whose pattern is the union of paths from the nonzeros of column k of the upper
 *   triangle up the elimination tree. The symbolic phase walks those paths to get
 *   the elimination tree and the column counts of L, then once more for the row
 *   indices of L (which the supernodal factor of ./supernodal.ts uses), and, on request
 *   of the up-looking numeric factor, to record each row's pattern in topological order
 *   with the slot of L each entry lands in, so its factorizations do no graph traversal;
 * - the fill-reducing ordering is AMD (./amd.ts).
 *
 * `LdltSymbolic` is built once per sparsity pattern; `LdltNumeric` preallocates all
 * buffers from it, so `factor` and `solve` never allocate.
 */
import { amdOrder } from './amd.js';

export type LdltOrdering = 'amd' | 'natural' | Int32Array;

export interface LdltSymbolicOptions {
  /** fill-reducing ordering: AMD (default), identity, or an explicit perm (perm[k] = old index of pivot k) */
  ordering?: LdltOrdering;
  /**
   * n flags: a flagged node (e.g. a constraint row of a KKT matrix whose R may be 0)
   * is moved after all of its unflagged neighbours in the ordering. Then every
   * leading block of P K Pᵀ is a KKT matrix whose G block holds whole rows of G,
   * so all pivots are nonzero whenever H is SPD and G has full row rank, even with R = 0.
   */
  delayed?: Uint8Array;
}

/** outcome of a numeric factorization; owned by the factor and overwritten by the next `factor` */
export interface LdltResult {
  /** false on an exactly zero or non-finite pivot */
  ok: boolean;
  /** number of positive pivots (those computed before a failure) */
  positive: number;
  /** number of negative pivots (those computed before a failure) */
  negative: number;
  /** original index of the failed pivot, -1 when ok */
  zeroAt: number;
}

/** a cheap hash of a CSC pattern, `n:nnz:fnv1a`; equal patterns give equal signatures */
export function patternSignature(n: number, colPtr: Int32Array, rowIdx: Int32Array): string {
  const nnz = colPtr[n];
  // 32-bit FNV-1a over the column pointers and row indices
  let h = 0x811c9dc5;
  const mix = (v: number): void => {
    h = Math.imul(h ^ (v & 0xffff), 0x01000193);
    h = Math.imul(h ^ (v >>> 16), 0x01000193);
  };
  for (let j = 0; j <= n; j++) mix(colPtr[j]);
  for (let k = 0; k < nnz; k++) mix(rowIdx[k]);
  return `${n}:${nnz}:${(h >>> 0).toString(16)}`;
}

/** the symbolic analysis of one structurally symmetric pattern (full pattern, both triangles) */
export class LdltSymbolic {
  readonly n: number;
  /** nnz of the input pattern */
  readonly nnzA: number;
  /** pattern signature (ordering options are not part of it) */
  readonly signature: string;
  /** n: perm[k] = original index of pivot k */
  readonly perm: Int32Array;
  /** n: pinv[perm[k]] = k */
  readonly pinv: Int32Array;
  /** n+1: column pointers of C = upper triangle of P A Pᵀ (diagonal included) */
  readonly Cp: Int32Array;
  /** nnzC: row indices of C (unsorted within a column) */
  readonly Ci: Int32Array;
  /** nnzC: for each slot of C, the input entry it reads */
  readonly Csrc: Int32Array;
  /** n: elimination tree of P A Pᵀ, -1 at roots */
  readonly parent: Int32Array;
  /** n: number of off-diagonal entries in each column of L */
  readonly Lnz: Int32Array;
  /** n+1: column pointers of L (strictly lower part) */
  readonly Lp: Int32Array;
  /** entries of L below the diagonal */
  readonly nnzL: number;
  /** nnzL: row indices of L, column by column (rows increasing within a column) */
  readonly Li: Int32Array;
  /** (n + 1), (nnzA): copies of the input pattern (samePattern; the supernodal multiply) */
  readonly colPtr: Int32Array;
  readonly rowIdx: Int32Array;

  constructor(n: number, colPtr: Int32Array, rowIdx: Int32Array, opts: LdltSymbolicOptions = {}) {
    checkPattern(n, colPtr, rowIdx);
    this.n = n;
    this.nnzA = colPtr[n];
    this.colPtr = colPtr.slice(0, n + 1);
    this.rowIdx = rowIdx.slice(0, this.nnzA);
    this.signature = patternSignature(n, colPtr, rowIdx);

    // ordering and its inverse
    const ordering = opts.ordering ?? 'amd';
    let perm: Int32Array;
    if (ordering === 'amd') perm = amdOrder(n, colPtr, rowIdx);
    else if (ordering === 'natural') perm = Int32Array.from({ length: n }, (_, i) => i);
    else perm = Int32Array.from(ordering);
    if (opts.delayed) perm = delayFlagged(perm, opts.delayed, n, colPtr, rowIdx);
    this.perm = perm;
    this.pinv = invertPerm(perm, n);
    const pinv = this.pinv;

    // C = upper triangle of P A Pᵀ: count, then place, with the input→slot map
    const Cp = new Int32Array(n + 1);
    for (let j = 0; j < n; j++) {
      for (let k = colPtr[j]; k < colPtr[j + 1]; k++) {
        const pi = pinv[rowIdx[k]], pj = pinv[j];
        if (pi <= pj) Cp[pj + 1]++;
      }
    }
    for (let j = 0; j < n; j++) Cp[j + 1] += Cp[j];
    const nnzC = Cp[n];
    const Ci = new Int32Array(nnzC);
    const Csrc = new Int32Array(nnzC);
    const fill = Cp.slice(0, n);
    for (let j = 0; j < n; j++) {
      for (let k = colPtr[j]; k < colPtr[j + 1]; k++) {
        const pi = pinv[rowIdx[k]], pj = pinv[j];
        if (pi > pj) continue;
        const s = fill[pj]++;
        Ci[s] = pi;
        Csrc[s] = k;
      }
    }
    this.Cp = Cp;
    this.Ci = Ci;
    this.Csrc = Csrc;

    // elimination tree and column counts: walk from each i of row k up the tree until a node already flagged in this row
    const parent = new Int32Array(n);
    const Lnz = new Int32Array(n);
    const flag = new Int32Array(n);
    for (let k = 0; k < n; k++) {
      parent[k] = -1;
      flag[k] = k;
      for (let s = Cp[k]; s < Cp[k + 1]; s++) {
        let i = Ci[s];
        if (i >= k) continue;
        for (; flag[i] !== k; i = parent[i]) {
          if (parent[i] === -1) parent[i] = k;
          Lnz[i]++;
          flag[i] = k;
        }
      }
    }
    this.parent = parent;
    this.Lnz = Lnz;

    // column pointers of L
    const Lp = new Int32Array(n + 1);
    for (let k = 0; k < n; k++) Lp[k + 1] = Lp[k] + Lnz[k];
    this.Lp = Lp;
    this.nnzL = Lp[n];

    // row indices of L: walk the row patterns once more (columns fill in row order)
    this.Li = new Int32Array(this.nnzL);
    this.walkRows(null);
  }

  /**
   * Row patterns of L in topological (solve) order with the slot of L each entry lands in, for the
   * up-looking numeric factor: computed on first use (the supernodal factor needs only Li)
   */
  rowPatterns(): { Rp: Int32Array; Ri: Int32Array; Rslot: Int32Array } {
    if (!this.rows) {
      const rows = { Rp: new Int32Array(this.n + 1), Ri: new Int32Array(this.nnzL), Rslot: new Int32Array(this.nnzL) };
      this.walkRows(rows);
      this.rows = rows;
    }
    return this.rows;
  }
  private rows: { Rp: Int32Array; Ri: Int32Array; Rslot: Int32Array } | null = null;

  /** walks each row k of L up the elimination tree: fills Li, and the row patterns when asked */
  private walkRows(out: { Rp: Int32Array; Ri: Int32Array; Rslot: Int32Array } | null): void {
    const { n, Cp, Ci, parent, Lp, Li } = this;
    const fillL = Lp.slice(0, n), stack = new Int32Array(n), flag = new Int32Array(n).fill(-1);
    let t = 0;
    for (let k = 0; k < n; k++) {
      flag[k] = k;
      let top = n;
      for (let s = Cp[k]; s < Cp[k + 1]; s++) {
        let i = Ci[s], len = 0;
        for (; flag[i] !== k; i = parent[i]) {
          stack[len++] = i;
          flag[i] = k;
        }
        while (len > 0) stack[--top] = stack[--len];
      }
      for (; top < n; top++) {
        const i = stack[top], slot = fillL[i]++;
        Li[slot] = k;
        if (out) { out.Ri[t] = i; out.Rslot[t++] = slot; }
      }
      if (out) out.Rp[k + 1] = t;
    }
  }

  /** true if (n, colPtr, rowIdx) is exactly the pattern this analysis was built for */
  samePattern(n: number, colPtr: Int32Array, rowIdx: Int32Array): boolean {
    if (n !== this.n || colPtr[n] !== this.nnzA) return false;
    for (let j = 0; j <= n; j++) if (colPtr[j] !== this.colPtr[j]) return false;
    for (let k = 0; k < this.nnzA; k++) if (rowIdx[k] !== this.rowIdx[k]) return false;
    return true;
  }
}

/** numeric LDLᵀ factor on a fixed symbolic analysis; factor and solve do not allocate */
export class LdltNumeric {
  readonly symbolic: LdltSymbolic;
  /** nnzL: row indices of L, column by column (rows increasing within a column; the symbolic's) */
  readonly Li: Int32Array;
  /** nnzL: values of L below its unit diagonal */
  readonly Lx: Float64Array;
  /** n: pivots, in permuted order */
  readonly D: Float64Array;
  /** the last factorization outcome (this object is reused) */
  readonly result: LdltResult = { ok: false, positive: 0, negative: 0, zeroAt: -1 };
  // workspaces (n each): dense row accumulator, solve vector
  private readonly y: Float64Array;
  private readonly w: Float64Array;
  // the row patterns of L (symbolic.rowPatterns): pointers per row (n+1), the columns of each
  // row's entries in topological order (nnzL), and the slot of L each lands in (nnzL)
  private readonly Rp: Int32Array;
  private readonly Ri: Int32Array;
  private readonly Rslot: Int32Array;

  constructor(symbolic: LdltSymbolic) {
    const n = symbolic.n;
    this.symbolic = symbolic;
    this.Li = symbolic.Li;
    ({ Rp: this.Rp, Ri: this.Ri, Rslot: this.Rslot } = symbolic.rowPatterns());
    this.Lx = new Float64Array(symbolic.nnzL);
    this.D = new Float64Array(n);
    this.y = new Float64Array(n);
    this.w = new Float64Array(n);
  }

  /**
   * Factors P A Pᵀ = L D Lᵀ from the values (nnzA, parallel to the input rowIdx) of
   * the full input matrix, reading only the entries mapped to the upper triangle.
   */
  factor(values: Float64Array): LdltResult {
    const { n, Cp, Ci, Csrc, Lp, Li, perm } = this.symbolic;
    const { Rp, Ri, Rslot } = this;
    const { Lx, D, y } = this;
    const res = this.result;
    if (values.length < this.symbolic.nnzA) throw new Error('LdltNumeric.factor: values shorter than the pattern');
    res.ok = false;
    res.positive = 0;
    res.negative = 0;
    res.zeroAt = -1;
    // y is zero between rows (each row clears what it touched)
    y.fill(0);
    for (let k = 0; k < n; k++) {
      // scatter column k of C into y
      for (let s = Cp[k]; s < Cp[k + 1]; s++) y[Ci[s]] += values[Csrc[s]];
      // sparse triangular solve for row k of L along its precomputed pattern, and the pivot d_k
      let d = y[k];
      y[k] = 0;
      for (let t = Rp[k]; t < Rp[k + 1]; t++) {
        const i = Ri[t], slot = Rslot[t];
        const yi = y[i];
        y[i] = 0;
        for (let p = Lp[i]; p < slot; p++) y[Li[p]] -= Lx[p] * yi;
        const lki = yi / D[i];
        d -= lki * yi;
        Lx[slot] = lki;
      }
      // pivot check and inertia count
      if (d === 0 || !Number.isFinite(d)) {
        res.zeroAt = perm[k];
        return res;
      }
      D[k] = d;
      if (d > 0) res.positive++; else res.negative++;
    }
    res.ok = true;
    return res;
  }

  /** x ← A⁻¹ x in place (x: n), using the last successful factorization */
  solve(x: Float64Array): Float64Array {
    if (!this.result.ok) throw new Error('LdltNumeric.solve: no successful factorization');
    const { n, perm, Lp } = this.symbolic;
    const { Li, Lx, D, w } = this;
    // w = P x
    for (let k = 0; k < n; k++) w[k] = x[perm[k]];
    // L z = w (column oriented)
    for (let j = 0; j < n; j++) {
      const wj = w[j];
      if (wj === 0) continue;
      const end = Lp[j + 1];
      for (let p = Lp[j]; p < end; p++) w[Li[p]] -= Lx[p] * wj;
    }
    // D, then Lᵀ v = z (row oriented on the columns of L)
    for (let j = n - 1; j >= 0; j--) {
      let s = w[j] / D[j];
      const end = Lp[j + 1];
      for (let p = Lp[j]; p < end; p++) s -= Lx[p] * w[Li[p]];
      w[j] = s;
    }
    // x = Pᵀ v
    for (let k = 0; k < n; k++) x[perm[k]] = w[k];
    return x;
  }
}

/** a message when the factorization failed or its pivot signs differ from the expected inertia, else null */
export function checkInertia(result: LdltResult, expectedPositive: number, expectedNegative: number): string | null {
  if (!result.ok) {
    return `LDLᵀ failed: zero or non-finite pivot at original index ${result.zeroAt} `
      + `(after ${result.positive} positive and ${result.negative} negative pivots)`;
  }
  if (result.positive !== expectedPositive || result.negative !== expectedNegative) {
    return `LDLᵀ inertia is (${result.positive} positive, ${result.negative} negative), `
      + `expected (${expectedPositive}, ${expectedNegative}): the matrix is not quasi-definite`;
  }
  return null;
}

/** throws unless the pattern is a valid structurally symmetric CSC pattern without duplicates */
function checkPattern(n: number, colPtr: Int32Array, rowIdx: Int32Array): void {
  if (!(n >= 0) || colPtr.length < n + 1 || colPtr[0] !== 0) throw new Error('LdltSymbolic: colPtr must have n+1 entries starting at 0');
  for (let j = 0; j < n; j++) if (colPtr[j + 1] < colPtr[j]) throw new Error(`LdltSymbolic: colPtr decreases at column ${j}`);
  const nnz = colPtr[n];
  if (rowIdx.length < nnz) throw new Error('LdltSymbolic: rowIdx shorter than colPtr[n]');
  // counts per row must match counts per column, then each column's set must match the transposed one
  const tp = new Int32Array(n + 1);
  for (let k = 0; k < nnz; k++) {
    const i = rowIdx[k];
    if (i < 0 || i >= n) throw new Error(`LdltSymbolic: row index ${i} out of range`);
    tp[i + 1]++;
  }
  for (let i = 0; i < n; i++) tp[i + 1] += tp[i];
  const ti = new Int32Array(nnz);
  const pos = tp.slice(0, n);
  for (let j = 0; j < n; j++) for (let k = colPtr[j]; k < colPtr[j + 1]; k++) ti[pos[rowIdx[k]]++] = j;
  const mark = new Int32Array(n).fill(-1);
  for (let j = 0; j < n; j++) {
    for (let k = colPtr[j]; k < colPtr[j + 1]; k++) {
      if (mark[rowIdx[k]] === j) throw new Error(`LdltSymbolic: duplicate entry (${rowIdx[k]}, ${j})`);
      mark[rowIdx[k]] = j;
    }
    const ok = tp[j + 1] - tp[j] === colPtr[j + 1] - colPtr[j];
    for (let t = tp[j]; ok && t < tp[j + 1]; t++) {
      if (mark[ti[t]] !== j) throw new Error(`LdltSymbolic: pattern not structurally symmetric at (${j}, ${ti[t]})`);
    }
    if (!ok) throw new Error(`LdltSymbolic: pattern not structurally symmetric in column ${j}`);
  }
}

/** the inverse of a permutation of 0..n-1; throws if perm is not one */
function invertPerm(perm: Int32Array, n: number): Int32Array {
  if (perm.length !== n) throw new Error(`LdltSymbolic: ordering has length ${perm.length}, expected ${n}`);
  const pinv = new Int32Array(n).fill(-1);
  for (let k = 0; k < n; k++) {
    const i = perm[k];
    if (i < 0 || i >= n || pinv[i] !== -1) throw new Error('LdltSymbolic: ordering is not a permutation');
    pinv[i] = k;
  }
  return pinv;
}

/** perm with each flagged node moved right after the last of its unflagged neighbours (stable otherwise) */
function delayFlagged(perm: Int32Array, flagged: Uint8Array, n: number, colPtr: Int32Array, rowIdx: Int32Array): Int32Array {
  if (flagged.length !== n) throw new Error(`LdltSymbolic: delayed has length ${flagged.length}, expected ${n}`);
  const pos = invertPerm(perm, n);
  // sort key: unflagged node at 2·pos, flagged node at 2·(last unflagged neighbour position, or its own) + 1
  const key = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    if (!flagged[i]) { key[i] = 2 * pos[i]; continue; }
    let last = pos[i];
    for (let k = colPtr[i]; k < colPtr[i + 1]; k++) {
      const j = rowIdx[k];
      if (!flagged[j] && pos[j] > last) last = pos[j];
    }
    key[i] = 2 * last + 1;
  }
  // ties (flagged nodes behind the same neighbour) keep their original order
  const order = Array.from(perm);
  order.sort((a, b) => key[a] - key[b] || pos[a] - pos[b]);
  return Int32Array.from(order);
}
