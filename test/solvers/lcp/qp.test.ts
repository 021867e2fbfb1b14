/**
 * LCP ↔ QP (000 §0.3): the QP solved through its LCP by Lemke against the dual active-set QP, the
 * LCP data against the formulas of the note written with an explicit inverse, and an LCP solved as
 * a QP against Lemke.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  activeSetQP, lcpAsQP, qpAsLcp, qpPrimal, solveLcpAsQP, solveQP, type QpProblem,
} from '../../../src/solvers/lcp/qp.js';
import { Lemke } from '../../../src/solvers/lcp/lemke.js';
import { DenseLcpMatrix } from '../../../src/solvers/lcp/types.js';
import { ModelError } from '../../../src/model/errors.js';
import { luDense, luSolveDense } from '../../../src/math/dense.js';
import { rng } from '../../helpers/numeric.js';
import { matVec, maxDiff, randomSpd, uniform } from '../../helpers/lcpEnumerate.js';

/** a random QP with a feasible point x₀ (b = A x₀ − s, s ≥ 0, some s zero) */
function randomQp(r: () => number, n: number, m: number): QpProblem {
  const A = uniform(r, m * n), x0 = uniform(r, n);
  const Ax = matVec(m, n, A, x0);
  const b = Float64Array.from({ length: m }, (_, i) => Ax[i]! - (r() < 0.3 ? 0 : r()));
  return { n, m, Q: randomSpd(r, n), c: uniform(r, n, -2, 2), A, b };
}

/** ½xᵀQx + cᵀx */
function objective(p: QpProblem, x: Float64Array): number {
  const Qx = matVec(p.n, p.n, p.Q, x);
  let f = 0;
  for (let i = 0; i < p.n; i++) f += 0.5 * x[i]! * Qx[i]! + p.c[i]! * x[i]!;
  return f;
}

describe('QP by hand', () => {
  it('min ½|x|² subject to x₁ + x₂ ≥ 2: x = (1, 1), y = 1, by both solvers', () => {
    const p: QpProblem = {
      n: 2, m: 1, Q: Float64Array.of(1, 0, 0, 1), c: new Float64Array(2),
      A: Float64Array.of(1, 1), b: Float64Array.of(2),
    };
    for (const s of [solveQP(p), activeSetQP(p)]) {
      expect(s.report.status).toBe('solved');
      expect(maxDiff(s.x, [1, 1])).toBeLessThan(1e-15);
      expect(s.y[0]).toBeCloseTo(1, 15);
      expect(s.report.residual).toBeLessThan(1e-15);
    }
  });

  it('an inactive constraint leaves the unconstrained minimum and a zero multiplier', () => {
    const p: QpProblem = {
      n: 2, m: 1, Q: Float64Array.of(2, 0, 0, 4), c: Float64Array.of(-2, -4),
      A: Float64Array.of(1, 0), b: Float64Array.of(-5),
    };
    for (const s of [solveQP(p), activeSetQP(p)]) {
      // exact up to the rounding of √2 in Q's Cholesky factor
      expect(maxDiff(s.x, [1, 1])).toBeLessThan(1e-15);
      expect(s.y[0]).toBe(0);
    }
  });

  it('contradictory constraints are infeasible for both solvers', () => {
    // x₁ ≥ 1 and −x₁ − x₂ ≥ 0 and x₂ ≥ 0
    const p: QpProblem = {
      n: 2, m: 3, Q: Float64Array.of(1, 0, 0, 1), c: new Float64Array(2),
      A: Float64Array.of(1, 0, -1, -1, 0, 1), b: Float64Array.of(1, 0, 0),
    };
    expect(solveQP(p).report.status).toBe('infeasible');
    expect(activeSetQP(p).report.status).toBe('infeasible');
  });

  it('rejects a Q that is not positive definite and arrays of the wrong size', () => {
    const p: QpProblem = {
      n: 2, m: 1, Q: Float64Array.of(1, 0, 0, -1), c: new Float64Array(2),
      A: Float64Array.of(1, 1), b: Float64Array.of(2),
    };
    expect(() => solveQP(p)).toThrow(/qpAsLcp\(Q\): is not symmetric positive definite/);
    expect(() => activeSetQP(p)).toThrow(ModelError);
    expect(() => solveQP({ ...p, b: new Float64Array(0) })).toThrow(/qpAsLcp\(b\)/);
  });
});

describe('QP through the LCP of 000 §0.3', () => {
  it('M and q equal A Q⁻¹ Aᵀ and −b − A Q⁻¹ c formed with an explicit inverse', () => {
    const r = rng(11), n = 5, m = 4;
    const p = randomQp(r, n, m);
    const lu = luDense(p.Q, n)!;
    // columns of Q⁻¹Aᵀ and Q⁻¹c
    const QiAt = new Float64Array(n * m), Qic = new Float64Array(n), col = new Float64Array(n);
    for (let j = 0; j < m; j++) {
      luSolveDense(col, lu, p.A.subarray(j * n, j * n + n));
      for (let i = 0; i < n; i++) QiAt[i * m + j] = col[i]!;
    }
    luSolveDense(Qic, lu, p.c);
    const lcp = qpAsLcp(p);
    for (let i = 0; i < m; i++) {
      let qi = -p.b[i]!;
      for (let k = 0; k < n; k++) qi -= p.A[i * n + k]! * Qic[k]!;
      expect(lcp.q[i]).toBeCloseTo(qi, 13);
      for (let j = 0; j < m; j++) {
        let s = 0;
        for (let k = 0; k < n; k++) s += p.A[i * n + k]! * QiAt[k * m + j]!;
        expect(lcp.M[i * m + j]).toBeCloseTo(s, 13);
      }
    }
  });

  it('random feasible QPs: Lemke through the LCP equals the dual active-set QP', () => {
    const sizes = [fc.integer({ min: 1, max: 8 }), fc.integer({ min: 0, max: 12 }), fc.integer()] as const;
    fc.assert(fc.property(...sizes, (n, m, seed) => {
      const r = rng(seed);
      const p = randomQp(r, n, m);
      const a = solveQP(p), b = activeSetQP(p);
      expect(a.report.status).toBe('solved');
      expect(b.report.status).toBe('solved');
      const scale = Math.max(1, ...Array.from(b.x, Math.abs));
      expect(maxDiff(a.x, b.x) / scale).toBeLessThan(1e-9);
      const f = objective(p, b.x);
      expect(Math.abs(objective(p, a.x) - f) / Math.max(1, Math.abs(f))).toBeLessThan(1e-12);
      expect(a.report.residual).toBeLessThan(1e-12);
      expect(b.report.residual).toBeLessThan(1e-12);
      // with at most n random constraints their normals are independent, so y is unique too
      if (m <= n) expect(maxDiff(a.y, b.y) / Math.max(1, ...Array.from(b.y, Math.abs))).toBeLessThan(1e-8);
    }), { seed: 42, numRuns: 300 });
  });

  it('repeated and scaled copies of constraints (dependent normals): the same minimizer', () => {
    fc.assert(fc.property(fc.integer({ min: 2, max: 6 }), fc.integer(), (n, seed) => {
      const r = rng(seed);
      const base = randomQp(r, n, 3);
      // each row three times: as is, doubled, and as is again
      const A = new Float64Array(9 * n), b = new Float64Array(9);
      for (let i = 0; i < 3; i++) {
        for (const [k, f] of [[0, 1], [1, 2], [2, 1]] as const) {
          for (let c = 0; c < n; c++) A[(3 * i + k) * n + c] = f * base.A[i * n + c]!;
          b[3 * i + k] = f * base.b[i]!;
        }
      }
      const p = { ...base, m: 9, A, b };
      const a = solveQP(p), ref = activeSetQP(base);
      expect(a.report.status).toBe('solved');
      expect(maxDiff(a.x, ref.x) / Math.max(1, ...Array.from(ref.x, Math.abs))).toBeLessThan(1e-9);
    }), { seed: 42, numRuns: 100 });
  });

  it('QP → LCP → QP: the active-set QP of the LCP gives the same multipliers and minimizer', () => {
    fc.assert(fc.property(fc.integer({ min: 2, max: 8 }), fc.integer(), (n, seed) => {
      const r = rng(seed);
      const m = 1 + Math.floor(r() * n);
      const p = randomQp(r, n, m);
      const lcp = qpAsLcp(p);
      const { z, report } = solveLcpAsQP(lcp);
      expect(report.status).toBe('solved');
      const x = qpPrimal(new Float64Array(n), lcp, z);
      const ref = activeSetQP(p);
      expect(maxDiff(x, ref.x) / Math.max(1, ...Array.from(ref.x, Math.abs))).toBeLessThan(1e-9);
      expect(maxDiff(z, ref.y) / Math.max(1, ...Array.from(ref.y, Math.abs))).toBeLessThan(1e-8);
    }), { seed: 42, numRuns: 100 });
  });
});

describe('LCP as a QP', () => {
  it('symmetric positive definite M: the QP minimizer is Lemke’s z and its multipliers are w', () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 10 }), fc.integer(), (n, seed) => {
      const r = rng(seed);
      const M = randomSpd(r, n), q = uniform(r, n, -2, 1);
      const { z, w, report } = solveLcpAsQP({ n, M, q });
      expect(report.status).toBe('solved');
      const zL = new Float64Array(n), wL = new Float64Array(n), lemke = new Lemke();
      lemke.solve(new DenseLcpMatrix(n, M), q, zL);
      lemke.copyW(wL, n);
      const scale = Math.max(1, ...Array.from(zL, Math.abs));
      expect(maxDiff(z, zL) / scale).toBeLessThan(1e-9);
      expect(maxDiff(w, wL) / Math.max(1, ...Array.from(wL, Math.abs))).toBeLessThan(1e-9);
    }), { seed: 42, numRuns: 200 });
  });

  it('lcpAsQP writes Q = M, c = q, A = I, b = 0 and refuses a non-symmetric M', () => {
    const qp = lcpAsQP({ n: 2, M: Float64Array.of(2, 1, 1, 3), q: Float64Array.of(-1, 1) });
    expect(Array.from(qp.Q)).toEqual([2, 1, 1, 3]);
    expect(Array.from(qp.c)).toEqual([-1, 1]);
    expect(Array.from(qp.A)).toEqual([1, 0, 0, 1]);
    expect(Array.from(qp.b)).toEqual([0, 0]);
    expect(() => lcpAsQP({ n: 2, M: Float64Array.of(2, 1, 0, 3), q: Float64Array.of(-1, 1) }))
      .toThrow(/lcpAsQP\(M\[1, 0\]\)/);
  });
});
