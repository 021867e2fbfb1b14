/**
 * Tests of the dense kernels (LDLᵀ, Cholesky, LU with partial pivoting):
 * reconstruction of A from the factors and residuals of random solves.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  choleskyDense, choleskySolveDense, identityDense, ldltDense, ldltSolveDense, luDense, luSolveDense,
  matMulDense, matVecDense, transposeDense,
} from '../../src/math/dense.js';
import { rng, maxAbs, maxAbsDiff } from '../helpers/numeric.js';


function randomMatrix(n: number, rand: () => number): Float64Array {
  return Float64Array.from({ length: n * n }, () => 2 * rand() - 1);
}

// random SPD: M Mᵀ + n·I
function randomSpd(n: number, rand: () => number): Float64Array {
  const M = randomMatrix(n, rand);
  const Mt = transposeDense(new Float64Array(n * n), M, n);
  const A = matMulDense(new Float64Array(n * n), M, Mt, n);
  for (let i = 0; i < n; i++) A[i * n + i] += n;
  return A;
}

// random symmetric quasi-definite [[H, Gᵀ], [G, −R]] with H, R SPD (LDLᵀ-factorizable, indefinite)
function randomQuasiDefinite(nH: number, m: number, rand: () => number): Float64Array {
  const n = nH + m;
  const H = randomSpd(nH, rand);
  const R = randomSpd(m, rand);
  const A = new Float64Array(n * n);
  for (let i = 0; i < nH; i++) for (let j = 0; j < nH; j++) A[i * n + j] = H[i * nH + j];
  for (let i = 0; i < m; i++) for (let j = 0; j < m; j++) A[(nH + i) * n + nH + j] = -R[i * m + j];
  for (let i = 0; i < m; i++) {
    for (let j = 0; j < nH; j++) {
      const g = 2 * rand() - 1;
      A[(nH + i) * n + j] = g;
      A[j * n + nH + i] = g;
    }
  }
  return A;
}


// relative residual ‖b − A x‖∞ / (‖A‖∞ ‖x‖∞ + ‖b‖∞)
function relResidual(A: Float64Array, x: Float64Array, b: Float64Array, n: number): number {
  const Ax = matVecDense(new Float64Array(n), A, x, n);
  let rowMax = 0;
  for (let i = 0; i < n; i++) {
    let s = 0;
    for (let j = 0; j < n; j++) s += Math.abs(A[i * n + j]!);
    rowMax = Math.max(rowMax, s);
  }
  return maxAbsDiff(Ax, b) / (rowMax * maxAbs(x) + maxAbs(b));
}

const sizeSeed = fc.record({ n: fc.integer({ min: 1, max: 24 }), seed: fc.integer() });

describe('dense helpers', () => {
  it('identity, transpose, matVec and matMul agree with each other', () => {
    const rand = rng(7);
    const n = 5;
    const A = randomMatrix(n, rand);
    const B = randomMatrix(n, rand);
    expect(Array.from(matMulDense(new Float64Array(n * n), A, identityDense(n), n))).toEqual(Array.from(A));
    // (A B)ᵀ = Bᵀ Aᵀ
    const AB = matMulDense(new Float64Array(n * n), A, B, n);
    const lhs = transposeDense(new Float64Array(n * n), AB, n);
    const rhs = matMulDense(new Float64Array(n * n), transposeDense(new Float64Array(n * n), B, n), transposeDense(new Float64Array(n * n), A, n), n);
    expect(maxAbsDiff(lhs, rhs)).toBeLessThan(1e-14);
    // columns of A B are A times columns of B
    const col = Float64Array.from({ length: n }, (_, i) => B[i * n + 2]!);
    const Acol = matVecDense(new Float64Array(n), A, col, n);
    for (let i = 0; i < n; i++) expect(Acol[i]).toBeCloseTo(AB[i * n + 2]!, 14);
  });
});

describe('ldltDense', () => {
  it('reconstructs L D Lᵀ and solves quasi-definite systems', () => {
    fc.assert(fc.property(sizeSeed, fc.integer({ min: 0, max: 12 }), ({ n, seed }, m) => {
      const rand = rng(seed);
      const N = n + m;
      const A = randomQuasiDefinite(n, m, rand);
      const f = ldltDense(A, N);
      expect(f).not.toBeNull();
      const { L, D } = f!;
      // L D Lᵀ = A
      const LD = new Float64Array(N * N);
      for (let i = 0; i < N; i++) for (let j = 0; j < N; j++) LD[i * N + j] = L[i * N + j]! * D[j]!;
      const rec = matMulDense(new Float64Array(N * N), LD, transposeDense(new Float64Array(N * N), L, N), N);
      expect(maxAbsDiff(rec, A)).toBeLessThanOrEqual(1e-12 * maxAbs(A));
      // n positive and m negative pivots
      expect(D.filter((d) => d > 0).length).toBe(n);
      expect(D.filter((d) => d < 0).length).toBe(m);
      // solve, with out aliasing b
      const b = Float64Array.from({ length: N }, () => 2 * rand() - 1);
      const x = ldltSolveDense(b.slice(), f!, b.slice());
      expect(relResidual(A, x, b, N)).toBeLessThanOrEqual(1e-12);
      const x2 = b.slice();
      ldltSolveDense(x2, f!, x2);
      expect(maxAbsDiff(x2, x)).toBe(0);
    }), { numRuns: 100 });
  });

  it('fails on a zero pivot', () => {
    expect(ldltDense(new Float64Array([0, 1, 1, 0]), 2)).toBeNull();
    expect(ldltDense(new Float64Array([1, 1, 1, 1]), 2)).toBeNull();
    expect(ldltDense(new Float64Array([NaN]), 1)).toBeNull();
  });
});

describe('choleskyDense', () => {
  it('reconstructs L Lᵀ and solves SPD systems', () => {
    fc.assert(fc.property(sizeSeed, ({ n, seed }) => {
      const rand = rng(seed);
      const A = randomSpd(n, rand);
      const f = choleskyDense(A, n);
      expect(f).not.toBeNull();
      const rec = matMulDense(new Float64Array(n * n), f!.L, transposeDense(new Float64Array(n * n), f!.L, n), n);
      expect(maxAbsDiff(rec, A)).toBeLessThanOrEqual(1e-12 * maxAbs(A));
      const b = Float64Array.from({ length: n }, () => 2 * rand() - 1);
      const x = choleskySolveDense(new Float64Array(n), f!, b);
      expect(relResidual(A, x, b, n)).toBeLessThanOrEqual(1e-12);
    }), { numRuns: 100 });
  });

  it('returns null for matrices that are not positive definite', () => {
    expect(choleskyDense(new Float64Array([1, 2, 2, 1]), 2)).toBeNull();
    expect(choleskyDense(new Float64Array([-1]), 1)).toBeNull();
    expect(choleskyDense(new Float64Array([1, 1, 1, 1]), 2)).toBeNull();
    expect(choleskyDense(randomQuasiDefinite(4, 2, rng(3)), 6)).toBeNull();
  });
});

describe('luDense', () => {
  it('reconstructs P A = L U and solves random systems', () => {
    fc.assert(fc.property(sizeSeed, ({ n, seed }) => {
      const rand = rng(seed);
      const A = randomMatrix(n, rand);
      const f = luDense(A, n);
      expect(f).not.toBeNull();
      const { LU, perm } = f!;
      // split the packed factors and compare L U with the row-permuted A
      const L = identityDense(n);
      const U = new Float64Array(n * n);
      for (let i = 0; i < n; i++) {
        for (let j = 0; j < n; j++) {
          if (j < i) L[i * n + j] = LU[i * n + j]!;
          else U[i * n + j] = LU[i * n + j]!;
        }
      }
      const PA = new Float64Array(n * n);
      for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) PA[i * n + j] = A[perm[i]! * n + j]!;
      const rec = matMulDense(new Float64Array(n * n), L, U, n);
      expect(maxAbsDiff(rec, PA)).toBeLessThanOrEqual(1e-12 * maxAbs(A) * n);
      // partial pivoting keeps the multipliers bounded by 1
      for (let i = 0; i < n; i++) for (let j = 0; j < i; j++) expect(Math.abs(L[i * n + j]!)).toBeLessThanOrEqual(1);
      const b = Float64Array.from({ length: n }, () => 2 * rand() - 1);
      const x = luSolveDense(new Float64Array(n), f!, b);
      expect(relResidual(A, x, b, n)).toBeLessThanOrEqual(1e-12);
    }), { numRuns: 100 });
  });

  it('pivots where no-pivoting elimination would break down', () => {
    const A = new Float64Array([0, 2, 1, 3, 1, 0, 1, 1, 1]);
    const f = luDense(A, 3);
    expect(f).not.toBeNull();
    const b = new Float64Array([1, 2, 3]);
    expect(relResidual(A, luSolveDense(new Float64Array(3), f!, b), b, 3)).toBeLessThan(1e-15);
  });

  it('returns null for singular matrices', () => {
    // duplicate row
    expect(luDense(new Float64Array([1, 2, 3, 4, 5, 6, 1, 2, 3]), 3)).toBeNull();
    // one row a combination of the others, with rounding in the elimination
    expect(luDense(new Float64Array([0.1, 0.7, 0.3, 0.9, 0.2, 0.6, 0.1 + 0.9, 0.7 + 0.2, 0.3 + 0.6]), 3)).toBeNull();
    // zero column
    expect(luDense(new Float64Array([1, 0, 2, 0]), 2)).toBeNull();
    // random rank-deficient: the last column is the sum of the others
    fc.assert(fc.property(fc.integer({ min: 2, max: 16 }), fc.integer(), (n, seed) => {
      const A = randomMatrix(n, rng(seed));
      for (let i = 0; i < n; i++) {
        let s = 0;
        for (let j = 0; j < n - 1; j++) s += A[i * n + j]!;
        A[i * n + n - 1] = s;
      }
      expect(luDense(A, n)).toBeNull();
    }), { numRuns: 100 });
  });
});
