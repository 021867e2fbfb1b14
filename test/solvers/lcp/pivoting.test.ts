/**
 * The `pivoting` box-LCP solver (src/solvers/lcp/pivoting.ts; 000 §0.7, §0.8, §0.10): against
 * brute-force enumeration of every (lo, free, hi) assignment on small random problems, on-demand
 * columns against a dense matrix, the friction fixed point on a particle with exact answers, and
 * the singular W of a box resting on four contacts.
 */
import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { BoxLcpPivoting, boxLcpResidual, type BoxFriction } from '../../../src/solvers/lcp/pivoting.js';
import { DenseLcpMatrix, type LcpMatrix } from '../../../src/solvers/lcp/types.js';
import { choleskyDense } from '../../../src/math/dense.js';
import { enumerateBoxLcp, boxLcpViolation, boxLcpSlack } from '../../helpers/boxLcpEnumerate.js';
import { rng, maxAbsDiff } from '../../helpers/numeric.js';

const INF = Infinity;

/** A = B Bᵀ + eps I with B n × k entries in [−1, 1] (k < n and eps = 0: singular PSD) */
function gram(r: () => number, n: number, k: number, eps: number): Float64Array {
  const B = Array.from({ length: n * k }, () => 2 * r() - 1), A = new Float64Array(n * n);
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) {
      let s = i === j ? eps : 0;
      for (let c = 0; c < k; c++) s += B[i * k + c]! * B[j * k + c]!;
      A[i * n + j] = s;
    }
  }
  return A;
}

/** bounds of a random kind per row: standard, box around 0, box off 0, bilateral, one-sided */
function randomBounds(r: () => number, n: number): { lo: Float64Array; hi: Float64Array } {
  const lo = new Float64Array(n), hi = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const kind = Math.floor(5 * r());
    if (kind === 0) { lo[i] = 0; hi[i] = INF; }
    else if (kind === 1) { lo[i] = -r(); hi[i] = r(); }
    else if (kind === 2) { lo[i] = 0.2 * r(); hi[i] = lo[i]! + 0.5 * r() + 1e-3; }
    else if (kind === 3) { lo[i] = -INF; hi[i] = INF; }
    else { lo[i] = -INF; hi[i] = r() - 0.5; }
  }
  return { lo, hi };
}

/** the solver's run on a dense matrix; z, its report and its residual checked independently */
function run(A: Float64Array, q: Float64Array, lo: Float64Array, hi: Float64Array, solver = new BoxLcpPivoting(4)) {
  const n = q.length, z = new Float64Array(n);
  const report = { ...solver.solve(new DenseLcpMatrix(n, A), q, lo, hi, null, z) };
  return { z, report, violation: boxLcpViolation(A, q, lo, hi, z) };
}

describe('BoxLcpPivoting against enumeration', () => {
  it('P-matrices with random bounds: the unique solution, to 1e-9', () => {
    const arb = fc.record({ n: fc.integer({ min: 1, max: 7 }), seed: fc.integer(), eps: fc.double({ min: 1e-3, max: 1, noNaN: true }) });
    fc.assert(fc.property(arb, ({ n, seed, eps }) => {
      const r = rng(seed), A = gram(r, n, n, eps), { lo, hi } = randomBounds(r, n);
      const q = Float64Array.from({ length: n }, () => 4 * r() - 2);
      const { z, report, violation } = run(A, q, lo, hi);
      const ref = enumerateBoxLcp(A, q, lo, hi);
      expect(ref.length).toBeGreaterThan(0);
      for (const s of ref) expect(maxAbsDiff(s.z, ref[0]!.z)).toBeLessThan(1e-9);
      expect(report.status).toBe('solved');
      expect(maxAbsDiff(z, ref[0]!.z)).toBeLessThan(1e-9);
      expect(report.residual).toBeLessThan(1e-10);
      expect(violation).toBeLessThan(1e-10);
    }), { seed: 42, numRuns: 150 });
  });

  it('standard PSD LCPs with a feasible point: solved, w equal to the enumeration\'s', () => {
    const arb = fc.record({ n: fc.integer({ min: 1, max: 8 }), k: fc.integer({ min: 1, max: 8 }), seed: fc.integer() });
    fc.assert(fc.property(arb, ({ n, k, seed }) => {
      const r = rng(seed), A = gram(r, n, Math.min(k, n), 0);
      // q = w0 − A x0 with x0, w0 ≥ 0: x0 is feasible
      const x0 = Float64Array.from({ length: n }, () => (r() < 0.5 ? 0 : r()));
      const w0 = Float64Array.from({ length: n }, () => (r() < 0.5 ? 0 : r()));
      const q = boxLcpSlack(A, w0, x0.map((x) => -x));
      const lo = new Float64Array(n), hi = new Float64Array(n).fill(INF);
      const { z, report, violation } = run(A, q, lo, hi);
      const ref = enumerateBoxLcp(A, q, lo, hi);
      expect(ref.length).toBeGreaterThan(0);
      expect(report.status).toBe('solved');
      expect(z.every(Number.isFinite)).toBe(true);
      expect(maxAbsDiff(boxLcpSlack(A, q, z), ref[0]!.w)).toBeLessThan(1e-9);
      expect(report.residual).toBeLessThan(1e-10);
      expect(violation).toBeLessThan(1e-10);
    }), { seed: 42, numRuns: 150 });
  });

  it('degenerate LCPs (duplicate rows and columns, zero q entries): no cycling, a valid solution', () => {
    const arb = fc.record({ n: fc.integer({ min: 2, max: 8 }), base: fc.integer({ min: 1, max: 4 }), seed: fc.integer(), box: fc.boolean() });
    fc.assert(fc.property(arb, ({ n, base, seed, box }) => {
      const r = rng(seed), k = Math.min(base, n), C = gram(r, k, k, 0.1 * r());
      // variable i copies base variable map[i]: A has duplicate rows and columns
      const map = Array.from({ length: n }, (_, i) => (i < k ? i : Math.floor(k * r())));
      const A = new Float64Array(n * n);
      for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) A[i * n + j] = C[map[i]! * k + map[j]!]!;
      const qb = Array.from({ length: k }, () => (r() < 0.3 ? 0 : 2 * r() - 1.5));
      const q = Float64Array.from({ length: n }, (_, i) => qb[map[i]!]!);
      const lo = new Float64Array(n), hi = new Float64Array(n).fill(INF);
      if (box) for (let i = 0; i < n; i++) { lo[i] = -r(); hi[i] = r(); }
      const { z, report, violation } = run(A, q, lo, hi);
      const ref = enumerateBoxLcp(A, q, lo, hi);
      expect(ref.length).toBeGreaterThan(0);
      expect(report.status).toBe('solved');
      expect(z.every(Number.isFinite)).toBe(true);
      expect(maxAbsDiff(boxLcpSlack(A, q, z), ref[0]!.w)).toBeLessThan(1e-9);
      expect(violation).toBeLessThan(1e-10);
    }), { seed: 42, numRuns: 150 });
  });
});
