/**
 * Square sparse matrices in compressed sparse column (CSC) form, the layout of
 * Davis, "Direct Methods for Sparse Linear Systems" (SIAM, 2006), ch. 2.
 *
 * Column j holds the entries `colPtr[j] .. colPtr[j+1]-1`; entry k is at row
 * `rowIdx[k]` with value `values[k]`. Row indices are sorted within each column
 * and there are no duplicates. The solvers of this engine store the FULL pattern
 * of a symmetric (or structurally symmetric) matrix, i.e. both triangles.
 */

export interface Csc {
  /** number of rows = number of columns */
  n: number;
  /** n+1 column starts, colPtr[0] = 0, colPtr[n] = nnz */
  colPtr: Int32Array;
  /** nnz row indices, sorted within each column */
  rowIdx: Int32Array;
  /** nnz values, parallel to rowIdx */
  values: Float64Array;
}

/**
 * A CSC copy of the row-major n×n matrix A.
 * With `dropZeros`, entry (i, j) is stored only if A[i,j] or A[j,i] is nonzero or
 * i = j: the pattern stays structurally symmetric and always keeps the diagonal,
 * so a later refactorization may fill in values there. Without it every entry is stored.
 */
export function cscFromDense(A: Float64Array, n: number, dropZeros = true): Csc {
  // count the stored entries of each column
  const keep = (i: number, j: number): boolean =>
    !dropZeros || i === j || A[i * n + j] !== 0 || A[j * n + i] !== 0;
  const colPtr = new Int32Array(n + 1);
  for (let j = 0; j < n; j++) {
    let c = 0;
    for (let i = 0; i < n; i++) if (keep(i, j)) c++;
    colPtr[j + 1] = colPtr[j] + c;
  }
  // fill rows in increasing order
  const nnz = colPtr[n];
  const rowIdx = new Int32Array(nnz);
  const values = new Float64Array(nnz);
  let k = 0;
  for (let j = 0; j < n; j++) {
    for (let i = 0; i < n; i++) {
      if (!keep(i, j)) continue;
      rowIdx[k] = i;
      values[k] = A[i * n + j];
      k++;
    }
  }
  return { n, colPtr, rowIdx, values };
}

/** a new row-major n×n dense copy of A (duplicates, if any, are summed) */
export function cscToDense(A: Csc): Float64Array {
  const n = A.n;
  const out = new Float64Array(n * n);
  for (let j = 0; j < n; j++) {
    for (let k = A.colPtr[j]; k < A.colPtr[j + 1]; k++) out[A.rowIdx[k] * n + j] += A.values[k];
  }
  return out;
}

/** out = A x (out, x: n); no allocation; out must not alias x */
export function cscMatVec(out: Float64Array, A: Csc, x: Float64Array): Float64Array {
  const { n, colPtr, rowIdx, values } = A;
  out.fill(0, 0, n);
  for (let j = 0; j < n; j++) {
    const xj = x[j];
    if (xj === 0) continue;
    for (let k = colPtr[j]; k < colPtr[j + 1]; k++) out[rowIdx[k]] += values[k] * xj;
  }
  return out;
}

/**
 * For each stored entry k = (i, j) the index of the stored entry (j, i): nnz entries.
 * Requires sorted rows and a structurally symmetric pattern; throws otherwise.
 */
export function cscTransposeMap(A: Csc): Int32Array {
  const { n, colPtr, rowIdx } = A;
  const tmap = new Int32Array(colPtr[n]);
  for (let j = 0; j < n; j++) {
    for (let k = colPtr[j]; k < colPtr[j + 1]; k++) {
      const i = rowIdx[k];
      // binary search for row j in column i
      let lo = colPtr[i];
      let hi = colPtr[i + 1] - 1;
      let found = -1;
      while (lo <= hi) {
        const mid = (lo + hi) >> 1;
        const r = rowIdx[mid];
        if (r === j) { found = mid; break; }
        if (r < j) lo = mid + 1; else hi = mid - 1;
      }
      if (found < 0) {
        throw new Error(`cscTransposeMap: entry (${i}, ${j}) has no mirror (${j}, ${i}); pattern is not structurally symmetric`);
      }
      tmap[k] = found;
    }
  }
  return tmap;
}

/**
 * out = values of (A + Aᵀ)/2 on the pattern of A, using `tmap = cscTransposeMap(A)`.
 * out (nnz) may alias A.values.
 */
export function cscSymmetrizeValues(out: Float64Array, A: Csc, tmap: Int32Array): Float64Array {
  const v = A.values;
  const nnz = A.colPtr[A.n];
  // visit each mirror pair once, from its lower-index member
  for (let k = 0; k < nnz; k++) {
    const t = tmap[k];
    if (t < k) continue;
    const avg = 0.5 * (v[k] + v[t]);
    out[k] = avg;
    out[t] = avg;
  }
  return out;
}
