/**
 * The position projection's curvature term (step/stabilize.ts, constraints/
 * geometricStiffness.ts leverCurvature): the lever curvature is the Hessian of f·(exp([β]) r)
 * on the turns normal to the lever (central second differences) where that is positive, with
 * nothing about the lever itself; on a long chain under tension the step and projection together
 * need at most three factorizations per step, where the minimum-norm iteration needed 4.9.
 */
import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { leverCurvature } from '../../src/constraints/geometricStiffness.js';
import { quatFromRotationVector, quatToMat3 } from '../../src/math/quat.js';
import { eigenSymmetric3 } from '../helpers/eig3.js';
import { Simulation } from '../../src/simulation.js';
import { SupernodalLdlt } from '../../src/math/sparse/supernodal.js';
import { StepSolver } from '../../src/solvers/stepSolver.js';
import { chainOfBodies } from '../../examples/scenes.js';

/** f·(R(β) r) with R(β) = exp([β]) */
function potential(f: number[], r: number[], beta: number[]): number {
  const R = quatToMat3(new Float64Array(9), quatFromRotationVector(new Float64Array(4), Float64Array.from(beta)));
  let s = 0;
  for (let i = 0; i < 3; i++) s += f[i]! * (R[3 * i]! * r[0]! + R[3 * i + 1]! * r[1]! + R[3 * i + 2]! * r[2]!);
  return s;
}

const vec = fc.tuple(fc.double({ min: -2, max: 2, noNaN: true }), fc.double({ min: -2, max: 2, noNaN: true }), fc.double({ min: -2, max: 2, noNaN: true }))
  .filter((v) => Math.hypot(...v) > 0.05);

/** an orthonormal pair normal to r */
function normalPair(r: number[]): [number[], number[]] {
  const n = Math.hypot(...r), e = r.map((x) => x / n);
  const a = Math.abs(e[0]!) < 0.6 ? [1, 0, 0] : [0, 1, 0];
  const d = a[0]! * e[0]! + a[1]! * e[1]! + a[2]! * e[2]!;
  const t1 = a.map((x, i) => x - d * e[i]!), n1 = Math.hypot(...t1);
  const u = t1.map((x) => x / n1);
  return [u, [e[1]! * u[2]! - e[2]! * u[1]!, e[2]! * u[0]! - e[0]! * u[2]!, e[0]! * u[1]! - e[1]! * u[0]!]];
}

describe('lever curvature', () => {
  it('is the Hessian of f·(exp([β]) r) on the turns normal to r (central differences) where that is positive, else zero', () => {
    fc.assert(fc.property(vec, vec, (f, r) => {
      const P = new Float64Array(9);
      const any = leverCurvature(P, Float64Array.of(...f, ...r));
      const a = f[0] * r[0] + f[1] * r[1] + f[2] * r[2], b = Math.hypot(...f) * Math.hypot(...r);
      expect(any).toBe(a < 0);
      if (!any) return;
      const e = 1e-4, [t1, t2] = normalPair(r), t = [t1, t2];
      for (let i = 0; i < 2; i++) for (let j = 0; j < 2; j++) {
        const at = (si: number, sj: number) => potential(f, r, [0, 1, 2].map((k) => si * e * t[i]![k]! + sj * e * t[j]![k]!));
        const fd = (at(1, 1) - at(1, -1) - at(-1, 1) + at(-1, -1)) / (4 * e * e);
        let c = 0;
        for (let k = 0; k < 3; k++) for (let l = 0; l < 3; l++) c += t[i]![k]! * P[3 * k + l]! * t[j]![l]!;
        expect(Math.abs(fd - c)).toBeLessThan(1e-5 * Math.max(1, b));
      }
    }), { seed: 42, numRuns: 100 });
  });

  it('is positive semidefinite and has nothing about the lever itself (C r = 0)', () => {
    fc.assert(fc.property(vec, vec, (f, r) => {
      const P = new Float64Array(9);
      if (!leverCurvature(P, Float64Array.of(...f, ...r))) return;
      const b = Math.hypot(...f) * Math.hypot(...r);
      expect(Math.min(...eigenSymmetric3(P))).toBeGreaterThan(-1e-12 * b);
      for (let k = 0; k < 3; k++) expect(Math.abs(P[3 * k]! * r[0] + P[3 * k + 1]! * r[1] + P[3 * k + 2]! * r[2])).toBeLessThan(1e-12 * b * Math.hypot(...r));
    }), { seed: 42, numRuns: 200 });
  });

  it('is zero for a force along its lever or across it, and −(f·r) on the normal turns for a force against it', () => {
    const P = new Float64Array(9);
    expect(leverCurvature(P, Float64Array.of(2, 0, 0, 0.5, 0, 0))).toBe(false);
    expect(leverCurvature(P, Float64Array.of(0, 2, 0, 0.5, 0, 0))).toBe(false);
    expect(leverCurvature(P, Float64Array.of(-2, 0, 0, 0.5, 0, 0))).toBe(true);
    expect(Array.from(P, (x) => x + 0)).toEqual([0, 0, 0, 0, 1, 0, 0, 0, 1]);
    // a force at an angle: only its component along the lever counts
    expect(leverCurvature(P, Float64Array.of(-2, 3, 0, 0.5, 0, 0))).toBe(true);
    expect(Array.from(P, (x) => x + 0)).toEqual([0, 0, 0, 0, 1, 0, 0, 0, 1]);
  });
});

describe('projection with curvature', () => {
  // regression: the 10 000-link chain's projection contracted by about 3 per factorization
  // (4.9 factorizations per step over steps 30-40), the minimum-norm step bending straight links
  it('holds a 10 000-link chain with at most two projection factorizations per step (4.9 factorizations per step in all without the curvature)', () => {
    const sim = new Simulation(chainOfBodies(10000, { integrator: 'implicit-euler', step: 1 / 240 }));
    sim.steps(30);
    let factorizations = 0, massPasses = 0;
    const numeric = SupernodalLdlt.prototype.factor, mass = sim.ws.mass;
    SupernodalLdlt.prototype.factor = function (this: SupernodalLdlt, ...a: Parameters<typeof numeric>) { factorizations++; return numeric.apply(this, a); };
    sim.ws.mass = (...a: Parameters<typeof mass>) => { massPasses++; return mass.apply(sim.ws, a); };
    try { sim.steps(10); } finally { SupernodalLdlt.prototype.factor = numeric; }
    expect(factorizations / 10).toBeLessThanOrEqual(3);
    // the Newton refactorization after a full step renews G only: one mass pass for the step and
    // one for the projection's first factorization (three when it renewed M too)
    expect(massPasses / 10).toBe(2);
    expect(sim.diagnostics.projectionUnconverged).toBe(0);
    expect(sim.ws.cs.maxHardViolation()).toBeLessThanOrEqual(1e-12);
  }, 60_000);
});

describe('velocity projection: chord iterations or one refactorization', () => {
  /** factorizations and solves per step over `steps` steps after 30, and the worst end-of-step |G u| */
  function run(steps: number, chordOnly: boolean) {
    const sim = new Simulation(chainOfBodies(40, { integrator: 'implicit-euler', step: 1 / 240 }));
    sim.steps(30);
    const factor = SupernodalLdlt.prototype.factor, solve = SupernodalLdlt.prototype.solve;
    const cost = Object.getOwnPropertyDescriptor(StepSolver.prototype, 'factorCost')!;
    let nf = 0, ns = 0, worst = 0;
    SupernodalLdlt.prototype.factor = function (this: SupernodalLdlt, ...a: Parameters<typeof factor>) { nf++; return factor.apply(this, a); };
    SupernodalLdlt.prototype.solve = function (this: SupernodalLdlt, ...a: Parameters<typeof solve>) { ns++; return solve.apply(this, a); };
    if (chordOnly) Object.defineProperty(StepSolver.prototype, 'factorCost', { get: () => Infinity, configurable: true });
    try {
      for (let s = 0; s < steps; s++) { sim.step(); worst = Math.max(worst, sim.ws.cs.maxHardAbs(sim.ws.cs.Gu)); }
    } finally {
      SupernodalLdlt.prototype.factor = factor;
      SupernodalLdlt.prototype.solve = solve;
      Object.defineProperty(StepSolver.prototype, 'factorCost', cost);
    }
    return { factorizations: nf / steps, solves: ns / steps, worst, solver: sim.ws.solver };
  }

  it('factors G(q⁺) once when the position iterations predict more chord solves than that costs, to the same tolerance', () => {
    const refactored = run(40, false), chord = run(40, true);
    // a factorization costs about 2.2 solves on the chains' 9 × 12 panels
    expect(refactored.solver.factorCost).toBeGreaterThan(2);
    expect(refactored.solver.factorCost).toBeLessThan(2.5);
    // chord iterations alone: two factorizations and about nine solves per step
    expect(chord.factorizations).toBeCloseTo(2, 1);
    expect(chord.solves).toBeGreaterThan(8);
    // with the refactorization: one more factorization, about three solves fewer
    expect(refactored.factorizations).toBeGreaterThan(2.8);
    expect(refactored.solves).toBeLessThan(chord.solves - 2.5);
    for (const r of [refactored, chord]) expect(r.worst).toBeLessThanOrEqual(1e-13);
  });
});
