/**
 * Random quasi-definite KKT test matrices [[H, Gᵀ], [G, −R]] for the sparse factorizations.
 */
import fc from 'fast-check';
import { type Csc, cscFromDense } from '../../src/math/sparse/csc.js';
import type { LdltSymbolicOptions } from '../../src/math/sparse/ldlt.js';
import { luDense, luSolveDense, ldltDense } from '../../src/math/dense.js';

export function shuffled(n: number, rand: () => number): number[] {
  const p = Array.from({ length: n }, (_, i) => i);
  for (let i = n - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [p[i], p[j]] = [p[j]!, p[i]!];
  }
  return p;
}

export type RMode = 'positive' | 'mixed' | 'zero';

export interface Kkt {
  n: number;
  nH: number;
  m: number;
  /** n×n dense copy */
  K: Float64Array;
  csc: Csc;
  /** n flags: constraint rows with R = 0 */
  zeroR: Uint8Array;
}

/**
 * A random quasi-definite KKT matrix [[H, Gᵀ], [G, −R]] (m ≤ nH). The pattern comes
 * from patRand only, the values from valRand only. H is a strictly diagonally dominant
 * SPD matrix; each row c of G dominates in its own column σ(c), so G has full row rank
 * and K is nonsingular even where R = 0.
 */
export function makeKkt(patRand: () => number, valRand: () => number, nH: number, m: number, density: number, rMode: RMode): Kkt {
  const n = nH + m;
  const K = new Float64Array(n * n);
  const sgn = (): number => (valRand() < 0.5 ? -1 : 1);
  // H: random sparse symmetric, then a dominant positive diagonal
  for (let i = 0; i < nH; i++) {
    for (let j = i + 1; j < nH; j++) {
      if (patRand() >= density) continue;
      const v = sgn() * (0.1 + 0.4 * valRand());
      K[i * n + j] = v;
      K[j * n + i] = v;
    }
  }
  for (let i = 0; i < nH; i++) {
    let s = 0;
    for (let j = 0; j < nH; j++) s += Math.abs(K[i * n + j]!);
    K[i * n + i] = 1 + s + valRand();
  }
  // G: random sparse rows, each dominant in column σ(c)
  const sigma = shuffled(nH, patRand);
  const zeroR = new Uint8Array(n);
  for (let c = 0; c < m; c++) {
    const row = nH + c;
    let s = 0;
    for (let j = 0; j < nH; j++) {
      if (j === sigma[c] || patRand() >= density) continue;
      const v = sgn() * (0.1 + 0.9 * valRand());
      K[row * n + j] = v;
      K[j * n + row] = v;
      s += Math.abs(v);
    }
    const g = sgn() * (1 + s + valRand());
    K[row * n + sigma[c]!] = g;
    K[sigma[c]! * n + row] = g;
    // −R on the diagonal
    const r = Math.pow(10, -6 + 6 * valRand());
    const zero = rMode === 'zero' || (rMode === 'mixed' && valRand() < 0.5);
    K[row * n + row] = zero ? 0 : -r;
    zeroR[row] = zero ? 1 : 0;
  }
  return { n, nH, m, K, csc: cscFromDense(K, n, true), zeroR };
}

/** random KKT parameters: sizes, density, seeds, the R mode and the ordering */
export function kktArb(maxH: number, maxM: number, maxDensityPct: number) {
  return fc.record({
    nH: fc.integer({ min: 1, max: maxH }),
    mRaw: fc.integer({ min: 0, max: maxM }),
    densityPct: fc.integer({ min: 2, max: maxDensityPct }),
    patSeed: fc.integer(),
    valSeed: fc.integer(),
    rMode: fc.constantFrom<RMode>('positive', 'mixed', 'zero'),
    ordering: fc.constantFrom('amd', 'natural', 'random'),
  });
}

/** the symbolic options of an ordering: natural keeps H before the constraints (safe for R = 0); other orders delay R = 0 rows */
export function orderingOptions(kkt: Kkt, ordering: string, patRand: () => number): LdltSymbolicOptions {
  const opts: LdltSymbolicOptions = ordering === 'natural' ? { ordering: 'natural' }
    : { ordering: ordering === 'amd' ? 'amd' : Int32Array.from(shuffled(kkt.n, patRand)) };
  if (ordering !== 'natural' && kkt.zeroR.some((f) => f === 1)) opts.delayed = kkt.zeroR;
  return opts;
}

/**
 * max over (i, j) of |(L D Lᵀ − P A Pᵀ)_ij| / (|L| |D| |Lᵀ|)_ij, the componentwise backward error
 * of a factorization given as dense unit lower-triangular L (n × n, row-major), pivots D and perm
 */
export function backwardError(L: Float64Array, D: Float64Array, perm: Int32Array, A: Float64Array, n: number): number {
  let worst = 0;
  for (let i = 0; i < n; i++) {
    for (let j = 0; j <= i; j++) {
      let s = 0, sa = 0;
      for (let k = 0; k <= j; k++) { const t = L[i * n + k]! * D[k]! * L[j * n + k]!; s += t; sa += Math.abs(t); }
      const err = Math.abs(s - A[perm[i]! * n + perm[j]!]!);
      if (err > 0) worst = Math.max(worst, err / sa);
    }
  }
  return worst;
}

/** ‖A‖∞ (largest absolute row sum) of an n×n row-major matrix */
export function normInfDense(A: Float64Array, n: number): number {
  let worst = 0;
  for (let i = 0; i < n; i++) {
    let s = 0;
    for (let j = 0; j < n; j++) s += Math.abs(A[i * n + j]!);
    worst = Math.max(worst, s);
  }
  return worst;
}

/**
 * ρ = ‖|L||D||Lᵀ|‖∞ / ‖A‖∞, the growth of a factorization P A Pᵀ = L D Lᵀ without pivoting
 * (L dense unit lower-triangular, row-major). A solve with it is backward stable in the sense
 * (A + ΔA) x̂ = b with ‖ΔA‖∞ ≤ γ₃ₙ ρ ‖A‖∞ (N. J. Higham, "Accuracy and Stability of Numerical
 * Algorithms", 2nd ed., §9.4 and §11.1): a quasi-definite matrix factored in an order that puts
 * a row with a small R before its neighbours has ρ up to about ‖G‖²/R, and forward errors grow with it.
 */
export function ldltGrowth(L: Float64Array, D: Float64Array, A: Float64Array, n: number): number {
  let worst = 0;
  for (let i = 0; i < n; i++) {
    let row = 0;
    for (let j = 0; j < n; j++) {
      const kMax = Math.min(i, j);
      for (let k = 0; k <= kMax; k++) row += Math.abs(L[i * n + k]! * D[k]! * L[j * n + k]!);
    }
    worst = Math.max(worst, row);
  }
  return worst / normInfDense(A, n);
}

/**
 * the growth ρ of the ordering perm (perm[k] = original index of pivot k) itself, from an
 * independent dense LDLᵀ of P A Pᵀ without pivoting (math/dense.ts): a sparse factor under test
 * that computed a wrong, larger growth would otherwise loosen its own error bound. null when that
 * factorization meets a zero pivot
 */
export function orderingGrowth(A: Float64Array, n: number, perm: Int32Array): number | null {
  const PAP = new Float64Array(n * n);
  for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) PAP[i * n + j] = A[perm[i]! * n + perm[j]!]!;
  const f = ldltDense(PAP, n);
  return f ? ldltGrowth(f.L, f.D, A, n) : null;
}

/** κ∞(A) = ‖A‖∞ ‖A⁻¹‖∞, with A⁻¹ from dense LU (null when A is singular) */
export function condInfDense(A: Float64Array, n: number): number | null {
  const lu = luDense(A, n);
  if (!lu) return null;
  const e = new Float64Array(n), col = new Float64Array(n), rowSums = new Float64Array(n);
  for (let j = 0; j < n; j++) {
    e.fill(0);
    e[j] = 1;
    luSolveDense(col, lu, e);
    for (let i = 0; i < n; i++) rowSums[i] += Math.abs(col[i]!);
  }
  let inv = 0;
  for (let i = 0; i < n; i++) inv = Math.max(inv, rowSums[i]!);
  return normInfDense(A, n) * inv;
}
