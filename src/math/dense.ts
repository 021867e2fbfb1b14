/**
 * Dense kernels on square row-major `Float64Array` matrices: element (i, j) of an
 * n×n matrix is at `i*n + j`.
 *
 * The tests use them as oracles for the sparse solvers (the engine itself solves sparsely); the
 * engine uses only `flushTiny` and `TINY` from here.
 * Algorithms are the textbook ones (Golub & Van Loan, "Matrix Computations",
 * 4th ed.):
 *   - LDLᵀ without pivoting (Alg. 4.1.2): A = L D Lᵀ, L unit lower triangular;
 *   - Cholesky, the outer-product/ijk form (Alg. 4.2.1): A = L Lᵀ;
 *   - LU with partial (row) pivoting (Alg. 3.4.1): P A = L U.
 *
 * Factorizations allocate their result (set-up cost); the solves are
 * output-first, allocation-free and accept `out === b`.
 */

/** a unit lower triangular L (n×n, strict lower part used) and diagonal D (n) */
export interface LdltDense {
  n: number;
  /** n×n row-major; the diagonal holds 1, the upper triangle 0 */
  L: Float64Array;
  /** n pivots */
  D: Float64Array;
}

/** the lower Cholesky factor L (n×n row-major, upper triangle 0) */
export interface CholeskyDense {
  n: number;
  L: Float64Array;
}

/** P A = L U packed in one matrix: strict lower part is L (unit diagonal), upper part is U */
export interface LuDense {
  n: number;
  /** n×n row-major packed factors */
  LU: Float64Array;
  /** n entries: row k of P A is row perm[k] of A */
  perm: Int32Array;
}

/** a new n×n identity matrix */
export function identityDense(n: number): Float64Array {
  const out = new Float64Array(n * n);
  for (let i = 0; i < n; i++) out[i * n + i] = 1;
  return out;
}

/** out = Aᵀ; out must not alias A */
export function transposeDense(out: Float64Array, A: Float64Array, n: number): Float64Array {
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) out[j * n + i] = A[i * n + j];
  }
  return out;
}

/** out = A x (out: n, x: n); out must not alias x */
export function matVecDense(out: Float64Array, A: Float64Array, x: Float64Array, n: number): Float64Array {
  for (let i = 0; i < n; i++) {
    let s = 0;
    const row = i * n;
    for (let j = 0; j < n; j++) s += A[row + j] * x[j];
    out[i] = s;
  }
  return out;
}

/** out = A B (all n×n); out must not alias A or B */
export function matMulDense(out: Float64Array, A: Float64Array, B: Float64Array, n: number): Float64Array {
  out.fill(0, 0, n * n);
  for (let i = 0; i < n; i++) {
    for (let k = 0; k < n; k++) {
      const a = A[i * n + k];
      if (a === 0) continue;
      // out[i, :] += A[i, k] B[k, :]
      for (let j = 0; j < n; j++) out[i * n + j] += a * B[k * n + j];
    }
  }
  return out;
}

/**
 * A = L D Lᵀ without pivoting, reading only the lower triangle of A (assumed symmetric).
 * Returns null on a zero or non-finite pivot.
 */
export function ldltDense(A: Float64Array, n: number): LdltDense | null {
  const L = identityDense(n);
  const D = new Float64Array(n);
  // work row: v[k] = L[j, k] D[k] for the current row j
  const v = new Float64Array(n);
  for (let j = 0; j < n; j++) {
    // pivot d_j = a_jj - sum_k L[j,k]^2 D[k]
    let d = A[j * n + j];
    for (let k = 0; k < j; k++) {
      v[k] = L[j * n + k] * D[k];
      d -= L[j * n + k] * v[k];
    }
    if (d === 0 || !Number.isFinite(d)) return null;
    D[j] = d;
    // column j of L below the diagonal
    for (let i = j + 1; i < n; i++) {
      let s = A[i * n + j];
      for (let k = 0; k < j; k++) s -= L[i * n + k] * v[k];
      L[i * n + j] = s / d;
    }
  }
  return { n, L, D };
}

/** out = A⁻¹ b from an LDLᵀ factor; out may alias b */
export function ldltSolveDense(out: Float64Array, f: LdltDense, b: Float64Array): Float64Array {
  const { n, L, D } = f;
  if (out !== b) out.set(b.subarray(0, n));
  // forward: L y = b
  for (let i = 0; i < n; i++) {
    let s = out[i];
    for (let k = 0; k < i; k++) s -= L[i * n + k] * out[k];
    out[i] = s;
  }
  // diagonal: z = D⁻¹ y
  for (let i = 0; i < n; i++) out[i] /= D[i];
  // backward: Lᵀ x = z
  for (let i = n - 1; i >= 0; i--) {
    let s = out[i];
    for (let k = i + 1; k < n; k++) s -= L[k * n + i] * out[k];
    out[i] = s;
  }
  return out;
}

/**
 * A = L Lᵀ, reading only the lower triangle of A (assumed symmetric).
 * Returns null when A is not (numerically) symmetric positive definite.
 */
export function choleskyDense(A: Float64Array, n: number): CholeskyDense | null {
  const L = new Float64Array(n * n);
  for (let j = 0; j < n; j++) {
    // diagonal: l_jj = sqrt(a_jj - |L[j, 0:j]|^2)
    let d = A[j * n + j];
    for (let k = 0; k < j; k++) d -= L[j * n + k] * L[j * n + k];
    if (!(d > 0) || !Number.isFinite(d)) return null;
    const ljj = Math.sqrt(d);
    L[j * n + j] = ljj;
    // column j below the diagonal
    for (let i = j + 1; i < n; i++) {
      let s = A[i * n + j];
      for (let k = 0; k < j; k++) s -= L[i * n + k] * L[j * n + k];
      L[i * n + j] = s / ljj;
    }
  }
  return { n, L };
}

/** out = A⁻¹ b from a Cholesky factor; out may alias b */
export function choleskySolveDense(out: Float64Array, f: CholeskyDense, b: Float64Array): Float64Array {
  const { n, L } = f;
  if (out !== b) out.set(b.subarray(0, n));
  // forward: L y = b
  for (let i = 0; i < n; i++) {
    let s = out[i];
    for (let k = 0; k < i; k++) s -= L[i * n + k] * out[k];
    out[i] = s / L[i * n + i];
  }
  // backward: Lᵀ x = y
  for (let i = n - 1; i >= 0; i--) {
    let s = out[i];
    for (let k = i + 1; k < n; k++) s -= L[k * n + i] * out[k];
    out[i] = s / L[i * n + i];
  }
  return out;
}

/**
 * P A = L U with partial pivoting. Returns null when a pivot is at most
 * `relTol · max|A|` in magnitude (numerically singular); relTol defaults to n·ε.
 */
export function luDense(A: Float64Array, n: number, relTol = n * Number.EPSILON): LuDense | null {
  const LU = Float64Array.from(A.subarray(0, n * n));
  const perm = new Int32Array(n);
  for (let i = 0; i < n; i++) perm[i] = i;
  // singularity threshold relative to the largest entry
  let amax = 0;
  for (let k = 0; k < n * n; k++) amax = Math.max(amax, Math.abs(LU[k]));
  const tiny = relTol * amax;
  for (let k = 0; k < n; k++) {
    // pivot: largest |entry| in column k at or below row k (first one on ties)
    let p = k;
    let pmax = Math.abs(LU[k * n + k]);
    for (let i = k + 1; i < n; i++) {
      const a = Math.abs(LU[i * n + k]);
      if (a > pmax) { pmax = a; p = i; }
    }
    if (!(pmax > tiny) || !Number.isFinite(pmax)) return null;
    // swap rows k and p
    if (p !== k) {
      for (let j = 0; j < n; j++) {
        const t = LU[k * n + j]; LU[k * n + j] = LU[p * n + j]; LU[p * n + j] = t;
      }
      const t = perm[k]; perm[k] = perm[p]; perm[p] = t;
    }
    // eliminate below the pivot, storing the multipliers in place
    const piv = LU[k * n + k];
    for (let i = k + 1; i < n; i++) {
      const m = LU[i * n + k] / piv;
      LU[i * n + k] = m;
      if (m === 0) continue;
      for (let j = k + 1; j < n; j++) LU[i * n + j] -= m * LU[k * n + j];
    }
  }
  return { n, LU, perm };
}

/** out = A⁻¹ b from an LU factor; out must not alias b */
export function luSolveDense(out: Float64Array, f: LuDense, b: Float64Array): Float64Array {
  const { n, LU, perm } = f;
  if (out === b) throw new Error('luSolveDense: out must not alias b');
  // forward with the row permutation: L y = P b
  for (let i = 0; i < n; i++) {
    let s = b[perm[i]];
    for (let k = 0; k < i; k++) s -= LU[i * n + k] * out[k];
    out[i] = s;
  }
  // backward: U x = y
  for (let i = n - 1; i >= 0; i--) {
    let s = out[i];
    for (let k = i + 1; k < n; k++) s -= LU[i * n + k] * out[k];
    out[i] = s / LU[i * n + i];
  }
  return out;
}

/**
 * Magnitudes below this are stored as zero where values decay geometrically along a long chain
 * (the factor L, the projection's multipliers): far below any product that can matter, and it
 * keeps subnormal numbers, whose arithmetic takes a slow path, out of the factorization.
 */
export const TINY = 1e-200;

/** a[i] ← 0 where |a[i]| < below (keeps subnormal numbers, and their slow arithmetic, out of iterates) */
export function flushTiny(a: Float64Array, below: number): void {
  for (let i = 0; i < a.length; i++) { const x = a[i]!; if (x < below && x > -below) a[i] = 0; }
}
