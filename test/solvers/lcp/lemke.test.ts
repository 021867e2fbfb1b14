/**
 * Lemke's method against brute-force enumeration of the complementary bases (test/helpers/
 * lcpEnumerate.ts): P-matrices (one solution), positive semidefinite matrices with a feasible point,
 * degenerate problems (zeros in q, repeated rows and columns) and a problem on which the ratio test
 * without the lexicographic rule cycles.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { Lemke } from '../../../src/solvers/lcp/lemke.js';
import { DenseLcpMatrix } from '../../../src/solvers/lcp/types.js';
import { ModelError } from '../../../src/model/errors.js';
import { rng } from '../../helpers/numeric.js';
import {
  complementarityViolation, enumerateLcp, gram, matVec, maxDiff, randomSpd, uniform,
} from '../../helpers/lcpEnumerate.js';

/** non-symmetric, strictly diagonally dominant with a positive diagonal: a P-matrix */
function randomDominant(r: () => number, n: number): Float64Array {
  const M = uniform(r, n * n);
  for (let i = 0; i < n; i++) {
    let s = 0;
    for (let j = 0; j < n; j++) if (j !== i) s += Math.abs(M[i * n + j]!);
    M[i * n + i] = s + 0.05 + r();
  }
  return M;
}

/**
 * q = w₀ − M z₀ for a complementary pair (z₀, w₀) ≥ 0, so the LCP has a solution; with `zeros`
 * the fraction of rows where both vanish (degenerate rows)
 */
function feasibleQ(r: () => number, n: number, M: Float64Array, zeros: number): Float64Array {
  const z0 = new Float64Array(n), w0 = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const u = r();
    if (u < zeros) continue;
    if (r() < 0.5) z0[i] = r() * 2; else w0[i] = r() * 2;
  }
  const Mz = matVec(n, n, M, z0);
  return Float64Array.from({ length: n }, (_, i) => w0[i]! - Mz[i]!);
}

/** a random integer in [lo, hi] */
function int(r: () => number, lo: number, hi: number): number {
  return lo + Math.floor(r() * (hi - lo + 1));
}

/**
 * B Bᵀ (plus an integer skew part when `skew`) with B's rows drawn from a few integer rows in
 * [−2, 2], so that M repeats rows and columns and the LCP is monotone
 */
function degenerateMatrix(r: () => number, n: number, skew: boolean): Float64Array {
  const k = int(r, 1, n), distinct = int(r, 1, n);
  const rows = Float64Array.from({ length: distinct * k }, () => int(r, -2, 2));
  const B = new Float64Array(n * k);
  for (let i = 0; i < n; i++) B.set(rows.subarray(int(r, 0, distinct - 1) * k).subarray(0, k), i * k);
  const M = gram(n, k, B);
  if (skew) {
    for (let i = 0; i < n; i++) for (let j = 0; j < i; j++) {
      const c = int(r, -2, 2);
      M[i * n + j] += c; M[j * n + i] -= c;
    }
  }
  return M;
}

/** q = w₀ − M z₀ with integer complementary z₀, w₀ ≥ 0, both zero in about 40% of the rows */
function integerFeasibleQ(r: () => number, n: number, M: Float64Array): Float64Array {
  const z0 = new Float64Array(n), w0 = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    if (r() < 0.4) continue;
    if (r() < 0.5) z0[i] = int(r, 1, 2); else w0[i] = int(r, 1, 2);
  }
  const Mz = matVec(n, n, M, z0);
  return Float64Array.from({ length: n }, (_, i) => w0[i]! - Mz[i]!);
}

/** runs Lemke and returns z, w and the report */
function lemke(n: number, M: Float64Array, q: Float64Array, solver = new Lemke()) {
  const z = new Float64Array(n), w = new Float64Array(n);
  const report = solver.solve(new DenseLcpMatrix(n, M), q, z);
  solver.copyW(w, n);
  return { z, w, report };
}

/** Lemke's point must be one of the enumerated basic solutions */
function expectAmongEnumerated(n: number, M: Float64Array, q: Float64Array, z: Float64Array): void {
  const sols = enumerateLcp(n, M, q, 1e-9);
  const scale = Math.max(1, ...Array.from(z, Math.abs));
  const best = Math.min(...sols.map((s) => maxDiff(s.z, z)));
  expect(best / scale).toBeLessThan(1e-8);
}

describe('Lemke: small exact cases', () => {
  it('returns z = 0 without a pivot when q ≥ 0', () => {
    const { z, report } = lemke(2, Float64Array.of(2, 1, 1, 2), Float64Array.of(0, 3));
    expect(Array.from(z)).toEqual([0, 0]);
    expect(report).toEqual({ status: 'solved', iterations: 0, boundIterations: 1, residual: 0 });
  });

  it('solves a 2 × 2 P-matrix problem exactly', () => {
    // M z = −q at z = (4/3, 7/3), w = 0
    const { z, w, report } = lemke(2, Float64Array.of(2, 1, 1, 2), Float64Array.of(-5, -6));
    expect(report.status).toBe('solved');
    expect(z[0]).toBeCloseTo(4 / 3, 14);
    expect(z[1]).toBeCloseTo(7 / 3, 14);
    expect(Math.max(Math.abs(w[0]!), Math.abs(w[1]!))).toBeLessThan(1e-14);
    expect(report.residual).toBeLessThan(1e-15);
  });

  it('ray-terminates on an infeasible positive semidefinite problem', () => {
    // w₁ + w₂ = −2 for every z: no z ≥ 0 makes both nonnegative
    const { report } = lemke(2, Float64Array.of(1, -1, -1, 1), Float64Array.of(-1, -1));
    expect(report.status).toBe('ray-termination');
  });

  it('stops at the pivot budget', () => {
    const r = rng(3);
    const n = 8, M = randomSpd(r, n), q = uniform(r, n, -2, -1);
    const z = new Float64Array(n);
    const report = new Lemke().solve(new DenseLcpMatrix(n, M), q, z, { maxPivots: 2 });
    expect(report.status).toBe('iteration-limit');
    expect(report.iterations).toBe(2);
  });

  it('rejects a covering vector that is not positive and vectors of the wrong size', () => {
    const M = new DenseLcpMatrix(2, Float64Array.of(1, 0, 0, 1));
    const z = new Float64Array(2);
    expect(() => new Lemke().solve(M, Float64Array.of(-1, 1), z, { cover: Float64Array.of(1, 0) }))
      .toThrow(ModelError);
    expect(() => new Lemke().solve(M, Float64Array.of(-1), z)).toThrow(/Lemke.solve\(q\)/);
    expect(() => new Lemke().solve(M, Float64Array.of(-1, NaN), z)).toThrow(/finite/);
  });
});

describe('Lemke against enumeration', () => {
  it('P-matrices (symmetric positive definite and diagonally dominant): the unique solution', () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 10 }), fc.integer(), fc.boolean(), (n, seed, sym) => {
      const r = rng(seed);
      const M = sym ? randomSpd(r, n) : randomDominant(r, n);
      const q = uniform(r, n, -2, 1);
      const sols = enumerateLcp(n, M, q);
      expect(sols.length).toBe(1);
      const { z, report } = lemke(n, M, q);
      expect(report.status).toBe('solved');
      const scale = Math.max(1, ...Array.from(sols[0]!.z, Math.abs));
      expect(maxDiff(z, sols[0]!.z) / scale).toBeLessThan(1e-9);
      expect(report.residual).toBeLessThan(1e-13);
    }), { seed: 42, numRuns: 200 });
  });

  it('custom covering vectors reach the same unique solution', () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 10 }), fc.integer(), (n, seed) => {
      const r = rng(seed);
      const M = randomDominant(r, n), q = uniform(r, n, -2, 1);
      const cover = uniform(r, n, 0.1, 3);
      const z = new Float64Array(n), zRef = new Float64Array(n);
      const report = new Lemke().solve(new DenseLcpMatrix(n, M), q, z, { cover });
      new Lemke().solve(new DenseLcpMatrix(n, M), q, zRef);
      expect(report.status).toBe('solved');
      expect(maxDiff(z, zRef) / Math.max(1, ...Array.from(zRef, Math.abs))).toBeLessThan(1e-12);
    }), { seed: 42, numRuns: 100 });
  });

  it('rank-deficient positive semidefinite M (symmetric, or plus a skew part), feasible: solved', () => {
    fc.assert(fc.property(fc.integer({ min: 2, max: 10 }), fc.integer(), fc.boolean(), (n, seed, skew) => {
      const r = rng(seed);
      const k = 1 + Math.floor(r() * (n - 1));
      const M = gram(n, k, uniform(r, n * k));
      const C = uniform(r, n * n);
      if (skew) {
        for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) M[i * n + j] += C[i * n + j]! - C[j * n + i]!;
      }
      const q = feasibleQ(r, n, M, 0.2);
      const { z, w, report } = lemke(n, M, q);
      expect(report.status).toBe('solved');
      expect(report.residual).toBeLessThan(1e-12);
      expect(complementarityViolation(z, w)).toBeLessThan(1e-11);
      expectAmongEnumerated(n, M, q, z);
      // a symmetric PSD LCP is a convex QP: every solution has the same M z, hence the same w
      if (skew) return;
      for (const s of enumerateLcp(n, M, q, 1e-9)) expect(maxDiff(w, s.w)).toBeLessThan(1e-8);
    }), { seed: 42, numRuns: 300 });
  });
});

describe('Lemke on degenerate problems', () => {
  it('small integers, repeated rows and columns, zeros in q: solved within 10n pivots', () => {
    // integer data make the ties exact; a cycle would exhaust the budget
    fc.assert(fc.property(fc.integer({ min: 2, max: 10 }), fc.integer(), fc.boolean(), (n, seed, skew) => {
      const r = rng(seed);
      const M = degenerateMatrix(r, n, skew);
      const q = integerFeasibleQ(r, n, M);
      const z = new Float64Array(n), w = new Float64Array(n), solver = new Lemke();
      const report = solver.solve(new DenseLcpMatrix(n, M), q, z, { maxPivots: 10 * n });
      solver.copyW(w, n);
      expect(report.status).toBe('solved');
      expect(complementarityViolation(z, w)).toBeLessThan(1e-11);
      expectAmongEnumerated(n, M, q, z);
    }), { seed: 42, numRuns: 300 });
  });

  it('all-equal q over a matrix of ones plus identity: every ratio ties', () => {
    for (let n = 1; n <= 12; n++) {
      const M = new Float64Array(n * n).fill(1);
      for (let i = 0; i < n; i++) M[i * n + i] += 1;
      const q = new Float64Array(n).fill(-1);
      const { z, report } = lemke(n, M, q);
      expect(report.status).toBe('solved');
      // the symmetric solution z_i = 1/(n+1) is the unique one (M is positive definite)
      for (let i = 0; i < n; i++) expect(z[i]).toBeCloseTo(1 / (n + 1), 14);
      expect(report.iterations).toBeLessThanOrEqual(n + 1);
    }
  });

  it('a problem on which the plain ratio test cycles is solved by the lexicographic one', () => {
    // q ties in every row; first-tied-row tie breaking cycles with period 4 (shown below)
    const n = 3, M = Float64Array.of(0, 2, 1, 2, 1, -1, -3, -1, 3), q = Float64Array.of(-2, -2, -2);
    expect(plainLemke(n, M, q)).toBe('cycle');
    const { z, w, report } = lemke(n, M, q);
    expect(report.status).toBe('solved');
    expect(report.iterations).toBe(3);
    expect(Array.from(z)).toEqual([0, 4, 2]);
    expect(Array.from(w)).toEqual([8, 0, 0]);
  });
});

describe('Lemke buffers', () => {
  it('one instance reused across sizes gives the results of fresh instances', () => {
    const shared = new Lemke(2);
    for (const [n, seed] of [[3, 1], [9, 2], [4, 3], [9, 4]] as const) {
      const r = rng(seed);
      const M = randomDominant(r, n), q = uniform(r, n, -2, 1);
      const a = lemke(n, M, q, shared), b = lemke(n, M, q, new Lemke());
      expect(Array.from(a.z)).toEqual(Array.from(b.z));
      expect(a.report).toEqual(b.report);
    }
  });
});

/**
 * Lemke's method with the plain minimum ratio test (ties go to the first tied row; z₀ first) on a
 * full tableau: returns 'cycle' when a basis repeats, else how it ended
 */
function plainLemke(n: number, M: Float64Array, q: Float64Array): string {
  const W = 2 * n + 1, T: number[][] = [], basis: number[] = [];
  for (let i = 0; i < n; i++) {
    const row = new Array<number>(W + 1).fill(0);
    row[i] = 1; row[2 * n] = -1; row[W] = q[i]!;
    for (let j = 0; j < n; j++) row[n + j] = -M[i * n + j]!;
    T.push(row); basis.push(i);
  }
  const pivot = (r: number, c: number): void => {
    const p = T[r]![c]!;
    for (let k = 0; k <= W; k++) T[r]![k]! /= p;
    for (let i = 0; i < n; i++) {
      const f = T[i]![c]!;
      if (i !== r && f !== 0) for (let k = 0; k <= W; k++) T[i]![k]! -= f * T[r]![k]!;
    }
    basis[r] = c;
  };
  // the first pivot as the lexicographic rule takes it: the last row of most negative q
  let r0 = 0;
  for (let i = 0; i < n; i++) if (q[i]! <= q[r0]!) r0 = i;
  let leaving = basis[r0]!;
  pivot(r0, 2 * n);
  const seen = new Set<string>();
  while (leaving !== 2 * n) {
    const key = basis.join(',');
    if (seen.has(key)) return 'cycle';
    seen.add(key);
    const e = leaving < n ? leaving + n : leaving - n;
    let best = -1, t = Infinity;
    for (let i = 0; i < n; i++) {
      const d = T[i]![e]!;
      if (d <= 1e-12) continue;
      const ratio = T[i]![W]! / d;
      if (ratio < t - 1e-12 || (basis[i] === 2 * n && ratio <= t + 1e-12)) { t = ratio; best = i; }
    }
    if (best < 0) return 'ray';
    leaving = basis[best]!;
    pivot(best, e);
  }
  return 'solved';
}
