/**
 * Finite-difference checks of ∂f/∂q and ∂f/∂u for every built-in force type at random
 * configurations (relative error ≤ 1e-6). Rotations are perturbed through the exponential map.
 */
import { describe, it, expect } from 'vitest';
import { ModelAssembler } from '../../src/model/assembler.js';
import { checkJacobians, forceEval, rng } from '../helpers/fd.js';
import { AxialSpring, PathSpring } from '../../src/forces/pathSpring.js';
import { LinearMaterial, QuadraticStrainMaterial, ExponentialLigament, stressStiffnessSplit, type AxialMaterial } from '../../src/forces/materials.js';
import type { Vec3Tuple } from '../../src/model/model.js';

const TOL = 1e-6;

import { randomVec, randomQuat } from '../helpers/numeric.js';

/** a builder with two random bodies (offset centres of mass unless `centred`, full inertia) and two particles */
function scene(seed: number, gravity: Vec3Tuple = [0, 0, 0], centred = false) {
  const r = rng(seed);
  const b = new ModelAssembler();
  b.settings.gravity = gravity;
  for (const name of ['A', 'B']) {
    b.addBody({
      name, mass: 1 + r(), inertia: [0.3 + r() * 0.1, 0.4 + r() * 0.1, 0.5 + r() * 0.1, 0.02 * r(), -0.03 * r(), 0.01 * r()],
      com: centred ? [0, 0, 0] : randomVec(r, 0.3), position: randomVec(r), orientation: randomQuat(r),
      velocity: randomVec(r), angularVelocity: randomVec(r, 2), linearDamping: r(), angularDamping: r(),
    });
  }
  b.addParticle({ name: 'p', mass: 0.5, position: randomVec(r, 2), velocity: randomVec(r), damping: 0.3 });
  b.addParticle({ name: 'p2', mass: 0.7, position: randomVec(r, 2), velocity: randomVec(r) });
  b.addMarker({ name: 'mA', body: 'A', location: randomVec(r, 0.5) });
  b.addMarker({ name: 'mB', body: 'B', location: randomVec(r, 0.5) });
  b.addMarker({ name: 'mB2', body: 'B', location: randomVec(r, 0.5) });
  return b;
}

describe('force Jacobians against central finite differences', () => {
  for (let seed = 1; seed <= 4; seed++) {
    it(`gravity, damping and inertial forces (seed ${seed})`, () => {
      const model = scene(seed, [0.3, -1.2, -9.81]).build();
      const e = checkJacobians(model, model.initialQ, model.initialU);
      expect(e.K).toBeLessThan(TOL);
      expect(e.D).toBeLessThan(TOL);
    });
  }

  // bodies with the origin at the centre of mass take InertialForces' shorter path (c = 0)
  for (let seed = 5; seed <= 6; seed++) {
    it(`gravity, damping and inertial forces, centred bodies (seed ${seed})`, () => {
      const model = scene(seed, [0.3, -1.2, -9.81], true).build();
      const e = checkJacobians(model, model.initialQ, model.initialU);
      expect(e.K).toBeLessThan(TOL);
      expect(e.D).toBeLessThan(TOL);
    });
  }

  const materials: [string, (r: number) => AxialMaterial][] = [
    ['linear', () => new LinearMaterial(40, 3)],
    ['quadratic strain', () => new QuadraticStrainMaterial(40, 2)],
    ['exponential ligament', () => new ExponentialLigament(50, 1.5, 0.05, 20)],
  ];
  const pairs: [string, string][] = [['p', 'p2'], ['mA', 'mB'], ['p', 'mA'], ['mB2', 'p2']];
  for (const [mname, mk] of materials) {
    for (const [a, c] of pairs) {
      it(`axial spring ${a}–${c}, ${mname}`, () => {
        const b = scene(11);
        // rest length below the current length so the ligament is taut and past its toe
        const sp = new AxialSpring('s', b.point(a), b.point(c), mk(0), 0.3);
        b.addForce(sp);
        const model = b.build();
        const e = checkJacobians(model, model.initialQ, model.initialU, [sp]);
        expect(e.K).toBeLessThan(TOL);
        expect(e.D).toBeLessThan(TOL);
      });
    }
  }

  it('a spring between two markers of one body is internal: zero net force and Jacobian', () => {
    const b = scene(3);
    const sp = new AxialSpring('s', b.point('mB'), b.point('mB2'), new QuadraticStrainMaterial(40, 2), 0.3);
    b.addForce(sp);
    const model = b.build();
    const ev = forceEval(model, [sp]);
    const f = ev.f(model.initialQ, model.initialU);
    const { K, D } = ev.jacobians(model.initialQ, model.initialU);
    // the pair terms are O(k) each; their sum cancels to rounding
    for (const x of [...f, ...K, ...D]) expect(Math.abs(x)).toBeLessThan(1e-9 * 40);
  });

  it('axial spring to a world point', () => {
    const b = scene(5);
    const sp = new AxialSpring('s', b.worldPoint([0.1, 0.2, 0.3]), b.point('mA'), new LinearMaterial(30, 2), 0.2);
    b.addForce(sp);
    const model = b.build();
    const e = checkJacobians(model, model.initialQ, model.initialU, [sp]);
    expect(e.K).toBeLessThan(TOL);
    expect(e.D).toBeLessThan(TOL);
  });

  for (const active of [undefined, [true, false, true, true], [false, true, true, false]]) {
    it(`multi-point spring through via points, active ${JSON.stringify(active ?? 'all')}`, () => {
      const b = scene(7);
      const pts = ['p', 'mA', 'mB', 'p2', 'mB2'].map((n) => b.point(n));
      const sp = new PathSpring('path', pts, new LinearMaterial(25, 1.7), 0.5, active);
      b.addForce(sp);
      const model = b.build();
      const e = checkJacobians(model, model.initialQ, model.initialU, [sp]);
      expect(e.K).toBeLessThan(TOL);
      expect(e.D).toBeLessThan(TOL);
    });
  }
});

describe('the stress form (theory.md §10) splits into material and geometric stiffness', () => {
  it('∂f₁/∂x₁ of a quadratic-strain spring = −(k/r²) Δx Δxᵀ − σ I', () => {
    const k = 80, r = 0.4;
    const b = new ModelAssembler();
    b.settings.gravity = [0, 0, 0];
    b.addParticle({ name: 'a', mass: 1, position: [0.1, -0.2, 0.05] });
    b.addParticle({ name: 'b', mass: 1, position: [0.4, 0.1, 0.3] });
    const sp = new AxialSpring('s', b.point('a'), b.point('b'), new QuadraticStrainMaterial(k), r);
    b.addForce(sp);
    const model = b.build();
    const { K } = forceEval(model, [sp]).jacobians(model.initialQ, model.initialU);
    const dx = [0.3, 0.3, 0.25], mat = new Float64Array(9), geo = new Float64Array(9);
    stressStiffnessSplit(mat, geo, k, r, dx);
    // the (a, a) block is rows 0-2, cols 0-2 of the 6×6 dense K
    for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) {
      expect(K[6 * i + j]!).toBeCloseTo(mat[3 * i + j]! + geo[3 * i + j]!, 12);
    }
    // the geometric part is −σ I with σ = k ε, ε = (l² − r²)/(2r²)
    const l2 = dx.reduce((s, x) => s + x * x, 0);
    expect(geo[0]!).toBeCloseTo(-k * (l2 - r * r) / (2 * r * r), 12);
  });
});
