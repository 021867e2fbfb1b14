/**
 * Restarted, right-preconditioned GMRES with a stored preconditioned basis (src/math/sparse/gmres.ts):
 * against dense LU on random non-symmetric systems A = S + N (S symmetric positive definite,
 * N small and skew), with and without the cheap operator A z = v + N z for z = S⁻¹ v.
 */
import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { Gmres } from '../../../src/math/sparse/gmres.js';
import { matVecDense, luDense, luSolveDense, choleskyDense, choleskySolveDense } from '../../../src/math/dense.js';
import { rng } from '../../helpers/fd.js';

/** S SPD, N skew with ‖N‖ about `skew` × ‖S‖, both dense n × n row-major */
function system(n: number, seed: number, skew: number) {
  const r = rng(seed);
  const B = Float64Array.from({ length: n * n }, () => r() - 0.5);
  const S = new Float64Array(n * n), N = new Float64Array(n * n);
  for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) {
    let s = 0;
    for (let k = 0; k < n; k++) s += B[i * n + k]! * B[j * n + k]!;
    S[i * n + j] = s + (i === j ? 1 : 0);
  }
  for (let i = 0; i < n; i++) for (let j = 0; j < i; j++) { const v = skew * (r() - 0.5) * n / 4; N[i * n + j] = v; N[j * n + i] = -v; }
  const A = S.map((s, k) => s + N[k]!);
  const b = Float64Array.from({ length: n }, () => r() - 0.5);
  return { S, N, A, b };
}

function solveBoth(n: number, seed: number, skew: number, perturb: number) {
  const { S, N, A, b } = system(n, seed, skew);
  // the preconditioner: S itself, or S with a symmetric perturbation (an inexact factorization)
  const P = S.map((s, k) => s + (Math.floor(k / n) === k % n ? perturb * s : 0));
  const chol = choleskyDense(P, n)!;
  const tmp = new Float64Array(n);
  const precond = (x: Float64Array): void => { choleskySolveDense(tmp, chol, x); x.set(tmp); };
  const apply = (out: Float64Array, x: Float64Array): void => { matVecDense(out, A, x, n); };
  const nz = new Float64Array(n);
  const cheap = (out: Float64Array, v: Float64Array, z: Float64Array): void => {
    matVecDense(nz, N, z, n);
    for (let i = 0; i < n; i++) out[i] = v[i]! + nz[i]!;
  };
  const exact = luSolveDense(new Float64Array(n), luDense(A, n)!, b);
  const g = new Gmres(n, 10);
  const x1 = new Float64Array(n), x2 = new Float64Array(n);
  const r1 = { ...g.solve(apply, precond, b, x1, 1e-13, 20) };
  const r2 = { ...g.solve(apply, precond, b, x2, 1e-13, 20, cheap) };
  const err = (x: Float64Array): number => { let e = 0, s = 0; for (let i = 0; i < n; i++) { e = Math.max(e, Math.abs(x[i]! - exact[i]!)); s = Math.max(s, Math.abs(exact[i]!)); } return e / s; };
  return { r1, r2, e1: err(x1), e2: err(x2) };
}

describe('GMRES', () => {
  it('matches dense LU with the full operator and with the cheap preconditioned operator', () => {
    fc.assert(fc.property(fc.integer({ min: 2, max: 30 }), fc.integer(), fc.double({ min: 0, max: 0.3, noNaN: true }), (n, seed, skew) => {
      const { r1, r2, e1, e2 } = solveBoth(n, seed, skew, 0);
      expect(r1.converged).toBe(true);
      expect(r2.converged).toBe(true);
      expect(e1).toBeLessThan(1e-10);
      expect(e2).toBeLessThan(1e-10);
    }), { numRuns: 80 });
  });

  it('the cheap operator with an inexact preconditioner still converges to A⁻¹b (the true residual decides)', () => {
    // A z = v + N z is wrong when P ≠ S: the cycle's true residual must catch that and restart
    for (const seed of [1, 2, 3, 4]) {
      const { r2, e2 } = solveBoth(20, seed, 0.05, 1e-3);
      expect(r2.converged).toBe(true);
      expect(r2.residual).toBeLessThanOrEqual(1e-13);
      expect(e2).toBeLessThan(1e-10);
    }
  });

  it('reports the true residual of a solve stopped by its cycle limit', () => {
    const { A, b } = system(25, 9, 0.5);
    const n = 25, g = new Gmres(n, 2), x = new Float64Array(n);
    const res = g.solve((o, v) => { matVecDense(o, A, v, n); }, () => {}, b, x, 1e-14, 1);
    const r = new Float64Array(n);
    matVecDense(r, A, x, n);
    let rn = 0, bn = 0;
    for (let i = 0; i < n; i++) { rn += (b[i]! - r[i]!) ** 2; bn += b[i]! ** 2; }
    expect(res.converged).toBe(false);
    expect(res.residual).toBeCloseTo(Math.sqrt(rn / bn), 12);
  });
});
