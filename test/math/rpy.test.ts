/**
 * Tests of the roll-pitch-yaw kernels (src/math/rpy.ts) against docs/theory.md §9.
 *
 * - The orientation: a rotation θ about z, then φ about the new y′, then ψ about the final x″, i.e.
 *   R = Rz(θ) Ry(φ) Rx(ψ); checked against elementary rotations and against the moving-axes
 *   description itself (Rodrigues about z, y′ = Rz e_y and x″ = Rz Ry e_x).
 * - The rate map ω = z θ̇ + y′ φ̇ + x″ ψ̇ = A(θ, φ) (θ̇, φ̇, ψ̇): checked against finite differences of
 *   R(θ(t), φ(t), ψ(t)), where ω is the axial vector of Ṙ Rᵀ (to 3e-10).
 * - Its inverse A⁻¹ (to 4e-16), singular at cos φ = 0, and the time derivatives of the rows of A⁻¹
 *   (the joint-limit wrenches), checked against central differences of A⁻¹(θ(t), φ(t)) (relative
 *   4e-9).
 * - Behaviour at the singularity: no Infinity/NaN is ever written, `false` is returned instead.
 *
 * Random angles come from fast-check with fixed seeds, or a seeded mulberry32, so runs are identical.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  RPY_SINGULAR_TOL, rpyRateToOmega, rpyIsSingular, omegaToRpyRate, rpyRateMapDerivative, rpyToMat3, mat3ToRpy,
} from '../../src/math/rpy.js';
import { rng, maxAbsDiff, maxAbs, matMul3 as matMul } from '../helpers/numeric.js';

type M3 = number[]; // row-major 3×3



function matVec(a: ArrayLike<number>, v: ArrayLike<number>): number[] {
  return [0, 1, 2].map((i) => a[3 * i]! * v[0]! + a[3 * i + 1]! * v[1]! + a[3 * i + 2]! * v[2]!);
}

function transpose(a: ArrayLike<number>): M3 {
  return [a[0]!, a[3]!, a[6]!, a[1]!, a[4]!, a[7]!, a[2]!, a[5]!, a[8]!];
}



const I3 = [1, 0, 0, 0, 1, 0, 0, 0, 1];
const Rz = (t: number): M3 => [Math.cos(t), -Math.sin(t), 0, Math.sin(t), Math.cos(t), 0, 0, 0, 1];
const Ry = (t: number): M3 => [Math.cos(t), 0, Math.sin(t), 0, 1, 0, -Math.sin(t), 0, Math.cos(t)];
const Rx = (t: number): M3 => [1, 0, 0, 0, Math.cos(t), -Math.sin(t), 0, Math.sin(t), Math.cos(t)];

/** rotation by th about the unit axis u (Rodrigues) */
function rodrigues(u: ArrayLike<number>, th: number): M3 {
  const x = u[0]!, y = u[1]!, z = u[2]!, s = Math.sin(th), c1 = 1 - Math.cos(th);
  const K = [0, -z, y, z, 0, -x, -y, x, 0];
  const K2 = matMul(K, K);
  return K.map((k, i) => I3[i]! + s * k + c1 * K2[i]!);
}

const R = (th: number, ph: number, ps: number): Float64Array => rpyToMat3(new Float64Array(9), th, ph, ps);
const A = (th: number, ph: number): Float64Array => rpyRateToOmega(new Float64Array(9), th, ph);
function Ainv(th: number, ph: number): Float64Array {
  const out = new Float64Array(9);
  expect(omegaToRpyRate(out, th, ph)).toBe(true);
  return out;
}

// arbitraries: any angle, and a pitch kept |cos φ| ≥ cmin away from the singularity
const angle = fc.double({ min: -Math.PI, max: Math.PI, noNaN: true });
const rate = fc.double({ min: -5, max: 5, noNaN: true });
const pitch = (cmin: number): fc.Arbitrary<number> => {
  const lim = Math.acos(cmin);
  return fc.double({ min: -lim, max: lim, noNaN: true });
};
const SEED = 4242;

describe('rpyToMat3 (theory.md §9: θ about z, φ about y′, ψ about x″)', () => {
  it('equals Rz(θ) Ry(φ) Rx(ψ)', () => {
    fc.assert(fc.property(angle, fc.double({ min: -4, max: 4, noNaN: true }), angle, (th, ph, ps) => {
      expect(maxAbsDiff(R(th, ph, ps), matMul(matMul(Rz(th), Ry(ph)), Rx(ps)))).toBeLessThanOrEqual(1e-15);
    }), { seed: SEED, numRuns: 500 });
  });

  it('equals the moving-axes composition Rot(x″, ψ) Rot(y′, φ) Rot(z, θ), and is a proper rotation', () => {
    fc.assert(fc.property(angle, angle, angle, (th, ph, ps) => {
      const yp = matVec(Rz(th), [0, 1, 0]);
      const xpp = matVec(matMul(Rz(th), Ry(ph)), [1, 0, 0]);
      const moving = matMul(rodrigues(xpp, ps), matMul(rodrigues(yp, ph), rodrigues([0, 0, 1], th)));
      const Rm = R(th, ph, ps);
      expect(maxAbsDiff(Rm, moving)).toBeLessThanOrEqual(1e-14);
      expect(maxAbsDiff(matMul(transpose(Rm), Rm), I3)).toBeLessThanOrEqual(2e-15);
    }), { seed: SEED + 1, numRuns: 300 });
  });
});

describe('mat3ToRpy', () => {
  it('round trip (θ, φ, ψ) → R → (θ, φ, ψ) away from the singularity (|cos φ| ≥ 1e-3)', () => {
    fc.assert(fc.property(angle, pitch(1e-3), angle, (th, ph, ps) => {
      const [t2, p2, s2] = mat3ToRpy(R(th, ph, ps));
      // atan2 returns (−π, π]: compare angles modulo 2π; the error grows like ε / cos φ
      const tol = 1e-15 / Math.cos(ph) + 1e-15;
      const wrap = (d: number): number => Math.abs(Math.atan2(Math.sin(d), Math.cos(d)));
      expect(wrap(t2 - th)).toBeLessThanOrEqual(4 * tol);
      expect(Math.abs(p2 - ph)).toBeLessThanOrEqual(4 * tol);
      expect(wrap(s2 - ps)).toBeLessThanOrEqual(4 * tol);
      expect(maxAbsDiff(R(t2, p2, s2), R(th, ph, ps))).toBeLessThanOrEqual(4e-15 + tol);
    }), { seed: SEED + 2, numRuns: 1000 });
  });

  it('returns φ ∈ [−π/2, π/2] and reproduces R for any angles (φ outside that range maps to an equivalent triple)', () => {
    fc.assert(fc.property(angle, angle, angle, (th, ph, ps) => {
      fc.pre(Math.abs(Math.cos(ph)) >= 1e-3);
      const Rm = R(th, ph, ps);
      const [t2, p2, s2] = mat3ToRpy(Rm);
      expect(Math.abs(p2)).toBeLessThanOrEqual(Math.PI / 2);
      expect(maxAbsDiff(R(t2, p2, s2), Rm)).toBeLessThanOrEqual(4e-15 + 1e-15 / Math.abs(Math.cos(ph)));
    }), { seed: SEED + 3, numRuns: 500 });
  });

  it('at the singularity φ = ±π/2 returns ψ = 0 and a θ that reproduces R (only θ ∓ ψ is determined)', () => {
    const r = rng(1);
    for (let k = 0; k < 200; k++) {
      const th = (2 * r() - 1) * Math.PI, ps = (2 * r() - 1) * Math.PI, ph = k % 2 ? Math.PI / 2 : -Math.PI / 2;
      const Rm = R(th, ph, ps);
      const out = mat3ToRpy(Rm);
      for (const x of out) expect(Number.isFinite(x)).toBe(true);
      expect(out[2]).toBe(0);
      expect(Math.abs(out[1] - ph)).toBeLessThanOrEqual(1e-7); // asin near ±1 is √ε-conditioned
      expect(maxAbsDiff(R(...out), Rm)).toBeLessThanOrEqual(1e-7);
      // θ' = θ − ψ at +π/2 and θ + ψ at −π/2 (mod 2π)
      const d = out[0] - (ph > 0 ? th - ps : th + ps);
      expect(Math.abs(Math.atan2(Math.sin(d), Math.cos(d)))).toBeLessThanOrEqual(1e-14);
    }
  });
});

describe('the rate map A(θ, φ) and its inverse', () => {
  it('columns are z, y′ = Rz(θ) e_y and x″ = Rz(θ) Ry(φ) e_x (A is defined everywhere, also at cos φ = 0)', () => {
    fc.assert(fc.property(angle, fc.double({ min: -4, max: 4, noNaN: true }), (th, ph) => {
      const a = A(th, ph);
      const col = (j: number): number[] => [a[j]!, a[3 + j]!, a[6 + j]!];
      expect(col(0)).toEqual([0, 0, 1]);
      expect(maxAbsDiff(col(1), matVec(Rz(th), [0, 1, 0]))).toBeLessThanOrEqual(1e-16);
      expect(maxAbsDiff(col(2), matVec(matMul(Rz(th), Ry(ph)), [1, 0, 0]))).toBeLessThanOrEqual(2e-16);
    }), { seed: SEED + 4, numRuns: 300 });
    for (const a of A(0.3, Math.PI / 2)) expect(Number.isFinite(a)).toBe(true);
  });

  it('ω from finite differences (axial vector of Ṙ Rᵀ) of R(θ(t), φ(t), ψ(t)) equals A(θ, φ)(θ̇, φ̇, ψ̇)', () => {
    // h = 1e-6: truncation h²|ω|³/6 ≤ 6e-10 for |rates| ≤ 5, round-off ε/h ≈ 1e-10
    const h = 1e-6;
    fc.assert(fc.property(angle, fc.double({ min: -4, max: 4, noNaN: true }), angle, rate, rate, rate, (th, ph, ps, dth, dph, dps) => {
      const Rp = R(th + h * dth, ph + h * dph, ps + h * dps), Rm = R(th - h * dth, ph - h * dph, ps - h * dps);
      const Rdot = Array.from(Rp, (x, i) => (x - Rm[i]!) / (2 * h));
      const W = matMul(Rdot, transpose(R(th, ph, ps)));
      // Ṙ Rᵀ is skew: its symmetric part vanishes
      for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) expect(Math.abs(W[3 * i + j]! + W[3 * j + i]!)).toBeLessThanOrEqual(3e-9);
      const omegaFd = [(W[7]! - W[5]!) / 2, (W[2]! - W[6]!) / 2, (W[3]! - W[1]!) / 2];
      const omega = matVec(A(th, ph), [dth, dph, dps]);
      expect(maxAbsDiff(omegaFd, omega)).toBeLessThanOrEqual(3e-9);
    }), { seed: SEED + 5, numRuns: 500 });
  });

  it('omegaToRpyRate is the inverse: A A⁻¹ = A⁻¹ A = I to 1e-14 (|cos φ| ≥ 0.1), and matches the A⁻¹ of theory.md §9 entry by entry', () => {
    fc.assert(fc.property(angle, pitch(0.1), (th, ph) => {
      const a = A(th, ph), ai = Ainv(th, ph);
      expect(maxAbsDiff(matMul(a, ai), I3)).toBeLessThanOrEqual(1e-14);
      expect(maxAbsDiff(matMul(ai, a), I3)).toBeLessThanOrEqual(1e-14);
      const st = Math.sin(th), ct = Math.cos(th), sp = Math.sin(ph), cp = Math.cos(ph);
      const eq02 = [sp * ct / cp, sp * st / cp, 1, -st, ct, 0, ct / cp, st / cp, 0];
      expect(maxAbsDiff(ai, eq02)).toBeLessThanOrEqual(1e-15 / cp);
    }), { seed: SEED + 6, numRuns: 1000 });
  });

  it('angle rates from ω: omegaToRpyRate(ω) integrated reproduces the orientation (FD: R(angles + h·rates) ≈ exp(h[ω]) R)', () => {
    fc.assert(fc.property(angle, pitch(0.2), angle, rate, rate, rate, (th, ph, ps, wx, wy, wz) => {
      const rates = matVec(Ainv(th, ph), [wx, wy, wz]);
      const h = 1e-6;
      const Rnext = R(th + h * rates[0]!, ph + h * rates[1]!, ps + h * rates[2]!);
      const n = Math.hypot(wx, wy, wz);
      const exp = n > 0 ? rodrigues([wx / n, wy / n, wz / n], h * n) : I3;
      const pred = matMul(exp, R(th, ph, ps));
      // first-order agreement: O(h²) error
      expect(maxAbsDiff(Rnext, pred)).toBeLessThanOrEqual(1e-9);
    }), { seed: SEED + 7, numRuns: 300 });
  });
});

describe('rpyRateMapDerivative: time derivatives of the rows of A⁻¹', () => {
  it('matches central finite differences of A⁻¹(θ(t), φ(t)) to relative 1e-7', () => {
    const h = 1e-6;
    fc.assert(fc.property(angle, pitch(0.1), rate, rate, (th, ph, dth, dph) => {
      const d = new Float64Array(9);
      expect(rpyRateMapDerivative(d, th, ph, dth, dph)).toBe(true);
      const n = Math.hypot(dth, dph);
      // (sub)normal-tiny rates: D is linear with coefficients ≤ 2/cos²φ ≤ 200
      if (n < 1e-150) { expect(maxAbs(d)).toBeLessThanOrEqual(200 * n); return; }
      // D is linear in the rates: difference along the unit direction, then scale by n
      const ut = dth / n, up = dph / n;
      const Ap = Ainv(th + h * ut, ph + h * up), Am = Ainv(th - h * ut, ph - h * up);
      const fd = Array.from(Ap, (x, i) => (n * (x - Am[i]!)) / (2 * h));
      expect(maxAbsDiff(d, fd) / maxAbs(fd)).toBeLessThanOrEqual(1e-7);
      // the third column is constant (1, 0, 0): its derivative is exactly 0
      expect([d[2], d[5], d[8]]).toEqual([0, 0, 0]);
    }), { seed: SEED + 8, numRuns: 1000 });
  });

  it('is linear in (θ̇, φ̇): D(θ̇, φ̇) = θ̇ D(1, 0) + φ̇ D(0, 1)', () => {
    fc.assert(fc.property(angle, pitch(0.05), rate, rate, (th, ph, dth, dph) => {
      const d = new Float64Array(9), d1 = new Float64Array(9), d2 = new Float64Array(9);
      rpyRateMapDerivative(d, th, ph, dth, dph);
      rpyRateMapDerivative(d1, th, ph, 1, 0);
      rpyRateMapDerivative(d2, th, ph, 0, 1);
      const lin = Array.from(d1, (x, i) => dth * x + dph * d2[i]!);
      expect(maxAbsDiff(d, lin)).toBeLessThanOrEqual(1e-13 * Math.max(1, maxAbs(d)));
    }), { seed: SEED + 9, numRuns: 300 });
  });
});

describe('the singularity cos φ = 0', () => {
  it('rpyIsSingular is true at ±π/2 and ±3π/2 (and within the tolerance), false elsewhere', () => {
    for (const ph of [Math.PI / 2, -Math.PI / 2, 3 * Math.PI / 2, -3 * Math.PI / 2, Math.PI / 2 + 1e-12, Math.PI / 2 - 5e-10]) {
      expect(rpyIsSingular(ph)).toBe(true);
    }
    for (const ph of [0, 1, -1, Math.PI, Math.PI / 2 - 1e-6, Math.PI / 2 + 1e-6, Math.PI / 2 - 2e-9]) {
      expect(rpyIsSingular(ph)).toBe(false);
    }
    expect(rpyIsSingular(1.2, 0.5)).toBe(true); // cos 1.2 ≈ 0.36 < 0.5
    expect(rpyIsSingular(1.0, 0.5)).toBe(false); // cos 1.0 ≈ 0.54
    expect(RPY_SINGULAR_TOL).toBeGreaterThan(0);
  });

  it('at φ = ±π/2 omegaToRpyRate and rpyRateMapDerivative return false and leave out untouched', () => {
    for (const ph of [Math.PI / 2, -Math.PI / 2, 3 * Math.PI / 2]) for (const th of [0, 0.7, -2.5]) {
      const out = new Float64Array(9).fill(7);
      expect(omegaToRpyRate(out, th, ph)).toBe(false);
      expect(Array.from(out)).toEqual(new Array(9).fill(7));
      expect(rpyRateMapDerivative(out, th, ph, 0.3, -1.1)).toBe(false);
      expect(Array.from(out)).toEqual(new Array(9).fill(7));
    }
  });

  it('property: for any finite angles (dense near ±π/2), the result is false with out untouched iff rpyIsSingular, else all entries finite', () => {
    const near = fc.tuple(fc.constantFrom(Math.PI / 2, -Math.PI / 2, 3 * Math.PI / 2), fc.double({ min: -1e-6, max: 1e-6, noNaN: true }))
      .map(([c, d]) => c + d);
    const ulps = fc.tuple(fc.constantFrom(Math.PI / 2, -Math.PI / 2), fc.integer({ min: -1000, max: 1000 }))
      .map(([c, k]) => c + k * 2 ** -52);
    const anyPhi = fc.oneof(near, ulps, fc.double({ min: -10, max: 10, noNaN: true }));
    fc.assert(fc.property(fc.double({ min: -10, max: 10, noNaN: true }), anyPhi, rate, rate, (th, ph, dth, dph) => {
      const sing = rpyIsSingular(ph);
      const a = new Float64Array(9).fill(-3), d = new Float64Array(9).fill(-3);
      const okA = omegaToRpyRate(a, th, ph), okD = rpyRateMapDerivative(d, th, ph, dth, dph);
      expect(okA).toBe(!sing);
      expect(okD).toBe(!sing);
      for (const x of [...a, ...d]) expect(Number.isFinite(x)).toBe(true);
      if (sing) {
        expect(Array.from(a)).toEqual(new Array(9).fill(-3));
        expect(Array.from(d)).toEqual(new Array(9).fill(-3));
      } else {
        expect(Math.abs(Math.cos(ph))).toBeGreaterThanOrEqual(RPY_SINGULAR_TOL);
      }
      // R and A stay finite at and near the singularity; mat3ToRpy gives finite angles reproducing R up to √ε
      for (const x of A(th, ph)) expect(Number.isFinite(x)).toBe(true);
      const Rm = R(th, ph, 0.4);
      const back = mat3ToRpy(Rm);
      for (const x of back) expect(Number.isFinite(x)).toBe(true);
      expect(maxAbsDiff(R(...back), Rm)).toBeLessThanOrEqual(1e-6);
    }), { seed: SEED + 10, numRuns: 2000 });
  });

  it('near (not at) the singularity the inverse is large but finite and still inverts A', () => {
    for (const c of [1e-3, 1e-6, 2e-9]) {
      const ph = Math.acos(c), th = 0.3;
      const ai = Ainv(th, ph);
      for (const x of ai) expect(Number.isFinite(x)).toBe(true);
      expect(maxAbs(ai)).toBeGreaterThan(0.5 / c);
      // A A⁻¹ = I up to ε / cos φ
      expect(maxAbsDiff(matMul(A(th, ph), ai), I3)).toBeLessThanOrEqual(1e-15 / c);
    }
  });
});

describe('regression: a NaN pitch counted as regular and wrote NaN', () => {
  it('rpyIsSingular(NaN) is true and the inverse maps refuse it', () => {
    const out = new Float64Array(9).fill(7);
    expect(rpyIsSingular(NaN)).toBe(true);
    expect(omegaToRpyRate(out, 0.3, NaN)).toBe(false);
    expect(rpyRateMapDerivative(out, 0.3, NaN, 1, 1)).toBe(false);
    expect(Array.from(out).every((x) => x === 7)).toBe(true);
  });
});
