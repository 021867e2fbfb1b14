/**
 * Frame spring (theory.md §11): exact K and D against central finite differences,
 * the small-oscillation frequencies of a body on a bushing (from the linearization), Newton's
 * third law, the energy/force consistency that the FD check cannot see, and the behaviour at
 * φ = 0 and φ = π. The small-oscillation frequencies are checked both on the linearization
 * (eigenvalues of (−K, M)) and in the time domain (RK4 through Simulation).
 */
import { describe, it, expect } from 'vitest';
import { ModelAssembler } from '../../src/model/assembler.js';
import type { Model, RigidBody, Vec3Tuple, QuatTuple } from '../../src/model/model.js';
import { FrameSpring, type FrameSpringParams } from '../../src/forces/frameSpring.js';
import { Kinematics } from '../../src/model/kinematics.js';
import { PointMap } from '../../src/forces/pointMap.js';
import type { ForceContext } from '../../src/forces/force.js';
import { ModelError } from '../../src/model/errors.js';
import { quatMul, quatConj, quatFromAxisAngle, quatToMat3 } from '../../src/math/quat.js';
import { spatialInertia, spatialInertiaFactor, spatialScratch } from '../../src/math/spatial.js';
import { checkJacobians, forceEval, retract, rng } from '../helpers/fd.js';
import { Simulation } from '../../src/simulation.js';

const TOL = 1e-6;
const PARAMS: FrameSpringParams = { translationalStiffness: 120, rotationalStiffness: 35, translationalDamping: 4, rotationalDamping: 1.5 };

import { randomVec, randomQuat } from '../helpers/numeric.js';
function tuple4(q: Float64Array): QuatTuple { return [q[0]!, q[1]!, q[2]!, q[3]!]; }

type Side = 'body' | 'world' | 'static';

/**
 * A model with bodies A and B (random poses, velocities, offset centres of mass) and a frame
 * spring whose frames have random offsets and whose relative rotation R_2W R_1Wᵀ is exactly
 * `angle` about a random axis. `sameBody` attaches both frames to A.
 */
function scene(seed: number, angle: number, a: Side, b: Side, params = PARAMS, sameBody = false) {
  const r = rng(seed);
  const builder = new ModelAssembler();
  builder.settings.gravity = [0, 0, 0];
  const bodies: Record<string, RigidBody> = {};
  for (const [name, side] of [['A', a], ['B', b]] as const) {
    bodies[name] = builder.addBody({
      name, mass: 1 + r(), inertia: [0.3 + 0.1 * r(), 0.4 + 0.1 * r(), 0.5 + 0.1 * r(), 0.02 * r(), -0.03 * r(), 0.01 * r()],
      com: randomVec(r, 0.3), position: randomVec(r), orientation: randomQuat(r),
      velocity: side === 'static' ? [0, 0, 0] : randomVec(r), angularVelocity: side === 'static' ? [0, 0, 0] : randomVec(r, 2), dynamic: side !== 'static',
    });
  }
  const bodyA = a === 'world' ? null : bodies.A!;
  const bodyB = sameBody ? bodyA : b === 'world' ? null : bodies.B!;
  const model0 = builder.build();
  const q0 = model0.initialQ;
  const bodyQuat = (body: RigidBody | null) => (body ? q0.slice(body.qOffset + 3, body.qOffset + 7) : Float64Array.of(1, 0, 0, 0));
  // frame 1 random on A; frame 2 = exp(angle n) frame 1 in world, expressed on B
  const p1 = randomVec(r, 0.4), q1A = Float64Array.from(randomQuat(r)), p2 = randomVec(r, 0.4);
  const q1W = quatMul(new Float64Array(4), bodyQuat(bodyA), q1A);
  const rel = quatFromAxisAngle(new Float64Array(4), Float64Array.from(randomVec(r)), angle);
  const q2W = quatMul(new Float64Array(4), rel, q1W);
  const q2B = quatMul(new Float64Array(4), quatConj(new Float64Array(4), bodyQuat(bodyB)), q2W);
  const spring = new FrameSpring('fs', bodyA, bodyB, p1, tuple4(q1A), p2, tuple4(q2B), params);
  builder.addForce(spring);
  const model = builder.build();
  return { model, spring };
}

/** a force context for one evaluation at (q, u) */
function context(model: Model, q: Float64Array, u: Float64Array): ForceContext {
  const kin = new Kinematics(model);
  kin.update(q);
  return { model, q, u, kin, pm: new PointMap() };
}

/** f in the velocity layout (length nu) of the given forces */
function forces(model: Model, fs: readonly FrameSpring[], q: Float64Array, u: Float64Array): Float64Array {
  const f = new Float64Array(model.nu), ctx = context(model, q, u);
  for (const fe of fs) fe.addForces(ctx, f, fe.createScratch());
  return f;
}

/** eigenvalues of a symmetric n×n matrix (cyclic Jacobi), ascending */
function symmetricEigenvalues(A0: Float64Array, n: number): number[] {
  const A = A0.slice();
  for (let sweep = 0; sweep < 100; sweep++) {
    let off = 0;
    for (let i = 0; i < n; i++) for (let j = i + 1; j < n; j++) off += A[i * n + j]! ** 2;
    if (off < 1e-30) break;
    for (let p = 0; p < n; p++) for (let q = p + 1; q < n; q++) {
      const apq = A[p * n + q]!;
      if (apq === 0) continue;
      const theta = (A[q * n + q]! - A[p * n + p]!) / (2 * apq);
      const t = Math.sign(theta || 1) / (Math.abs(theta) + Math.sqrt(theta * theta + 1));
      const c = 1 / Math.sqrt(t * t + 1), s = t * c;
      for (let k = 0; k < n; k++) {
        const akp = A[k * n + p]!, akq = A[k * n + q]!;
        A[k * n + p] = c * akp - s * akq; A[k * n + q] = s * akp + c * akq;
      }
      for (let k = 0; k < n; k++) {
        const apk = A[p * n + k]!, aqk = A[q * n + k]!;
        A[p * n + k] = c * apk - s * aqk; A[q * n + k] = s * apk + c * aqk;
      }
    }
  }
  return Array.from({ length: n }, (_, i) => A[i * n + i]!).sort((x, y) => x - y);
}

describe('frame spring Jacobians against central finite differences', () => {
  const cases: [string, Side, Side, number[]][] = [
    ['body–body', 'body', 'body', [0.3, 1.2, 2.5]],
    ['body–world', 'body', 'world', [0.7, 2.5]],
    ['world–body', 'world', 'body', [0.7, 2.5]],
    ['body–static body', 'body', 'static', [1.9]],
    ['static body–body', 'static', 'body', [1.9]],
    // near φ = 0: exactly 0, inside the series branch, across its switch at 0.02
    ['body–body near φ = 0', 'body', 'body', [0, 1e-7, 1e-3, 0.0199, 0.0201]],
  ];
  let seed = 100;
  for (const [label, a, b, angles] of cases) {
    for (const angle of angles) {
      const s = seed++;
      it(`${label}, φ = ${angle} (seed ${s})`, () => {
        const { model, spring } = scene(s, angle, a, b);
        const e = checkJacobians(model, model.initialQ, model.initialU, [spring]);
        // the scene has the intended relative rotation
        expect(spring.angle(context(model, model.initialQ, model.initialU), spring.createScratch())).toBeCloseTo(angle, 12);
        expect(e.K).toBeLessThan(TOL);
        expect(e.D).toBeLessThan(TOL);
      });
    }
  }

  it('both frames on one body: exact Jacobians, and zero net generalized force from the stiffness', () => {
    const { model, spring } = scene(7, 1.1, 'body', 'body', PARAMS, true);
    const e = checkJacobians(model, model.initialQ, model.initialU, [spring]);
    expect(e.K).toBeLessThan(TOL);
    expect(e.D).toBeLessThan(TOL);
    // d_t (ẋ_2 − ẋ_1) = d_t ω × (r_2 − r_1) leaves a net torque on a spinning body, so stiffness only
    const stiff = scene(7, 1.1, 'body', 'body', { ...PARAMS, translationalDamping: 0 }, true);
    const f = forces(stiff.model, [stiff.spring], stiff.model.initialQ, stiff.model.initialU);
    for (const x of f) expect(Math.abs(x)).toBeLessThan(1e-12 * PARAMS.translationalStiffness);
  });

  it('each stiffness and damping parameter alone has exact Jacobians', () => {
    const keys = ['translationalStiffness', 'rotationalStiffness', 'translationalDamping', 'rotationalDamping'] as const;
    for (const key of keys) {
      const params: FrameSpringParams = { translationalStiffness: 0, rotationalStiffness: 0, translationalDamping: 0, rotationalDamping: 0 };
      params[key] = PARAMS[key];
      const { model, spring } = scene(31, 1.6, 'body', 'body', params);
      const e = checkJacobians(model, model.initialQ, model.initialU, [spring]);
      expect(e.K, key).toBeLessThan(TOL);
      expect(e.D, key).toBeLessThan(TOL);
    }
  });
});

describe('frame spring forces', () => {
  it('the stiffness force is −∂V/∂(x, θ) of the potential energy (signs the FD Jacobian check cannot see)', () => {
    const stiff: FrameSpringParams = { ...PARAMS, translationalDamping: 0, rotationalDamping: 0 };
    for (const angle of [0.4, 2.2]) {
      const { model, spring } = scene(55, angle, 'body', 'body', stiff);
      const q = model.initialQ, u = model.initialU, eps = 1e-6;
      const energy = (qq: Float64Array) => spring.potentialEnergy(context(model, qq, u), spring.createScratch());
      const f = forces(model, [spring], q, u);
      const d = new Float64Array(model.nSolve);
      let maxF = 0, maxErr = 0;
      for (let b = 0; b < model.blockComponent.length; b++) {
        const c = model.components[model.blockComponent[b]!]!;
        for (let k = 0; k < 6; k++) {
          const j = model.blockStart[b]! + k;
          d.fill(0); d[j] = eps;
          const vp = energy(retract(model, q, d));
          d[j] = -eps;
          const vm = energy(retract(model, q, d));
          const fi = f[c.uOffset + k]!;
          maxF = Math.max(maxF, Math.abs(fi));
          maxErr = Math.max(maxErr, Math.abs(fi + (vp - vm) / (2 * eps)));
        }
      }
      expect(maxF).toBeGreaterThan(1);
      expect(maxErr / maxF).toBeLessThan(1e-7);
    }
  });

  it('pulls frame 1 toward frame 2: f_A = k_t (x_2 − x_1) for a pure translation offset', () => {
    const b = new ModelAssembler();
    b.settings.gravity = [0, 0, 0];
    const A = b.addBody({ name: 'A', mass: 1, inertia: [1, 1, 1, 0, 0, 0], position: [0.5, 0, 0] });
    const sp = new FrameSpring('fs', A, null, [0, 0, 0], [1, 0, 0, 0], [0, 0, 0], [1, 0, 0, 0], PARAMS);
    b.addForce(sp);
    const model = b.build();
    const f = forces(model, [sp], model.initialQ, model.initialU);
    expect(Array.from(f)).toEqual([-0.5 * PARAMS.translationalStiffness, 0, 0, 0, 0, 0]);
    expect(sp.potentialEnergy(context(model, model.initialQ, model.initialU), sp.createScratch())).toBeCloseTo(0.5 * PARAMS.translationalStiffness * 0.25, 12);
  });

  it('restores a rotation: frame 2 turned by φ about z gives the torque k_r φ z on A and −k_r φ z on B', () => {
    const b = new ModelAssembler();
    b.settings.gravity = [0, 0, 0];
    const A = b.addBody({ name: 'A', mass: 1, inertia: [1, 1, 1, 0, 0, 0] });
    const phi = 0.3;
    const B = b.addBody({ name: 'B', mass: 1, inertia: [1, 1, 1, 0, 0, 0], orientation: [Math.cos(phi / 2), 0, 0, Math.sin(phi / 2)] });
    const sp = new FrameSpring('fs', A, B, [0, 0, 0], [1, 0, 0, 0], [0, 0, 0], [1, 0, 0, 0], PARAMS);
    b.addForce(sp);
    const model = b.build();
    const f = forces(model, [sp], model.initialQ, model.initialU);
    const kr = PARAMS.rotationalStiffness;
    const expected = [0, 0, 0, 0, 0, kr * phi, 0, 0, 0, 0, 0, -kr * phi];
    for (let i = 0; i < 12; i++) expect(f[i]!).toBeCloseTo(expected[i]!, 12);
  });

  it("Newton's third law: zero total force; zero total moment about the world origin for the stiffness part", () => {
    for (let seed = 1; seed <= 5; seed++) {
      const stiff = scene(200 + seed, 0.5 * seed, 'body', 'body', { ...PARAMS, translationalDamping: 0 });
      const full = scene(200 + seed, 0.5 * seed, 'body', 'body', PARAMS);
      for (const [{ model, spring }, moment] of [[stiff, true], [full, false]] as const) {
        const q = model.initialQ, u = model.initialU;
        const f = forces(model, [spring], q, u);
        const F = [0, 0, 0], M = [0, 0, 0];
        let scale = 0;
        for (const c of model.bodies) {
          const o = c.uOffset, x = c.qOffset;
          for (let k = 0; k < 3; k++) { F[k]! += f[o + k]!; scale = Math.max(scale, Math.abs(f[o + k]!), Math.abs(f[o + 3 + k]!)); }
          // moment about the world origin: x_origin × f + τ
          M[0]! += q[x + 1]! * f[o + 2]! - q[x + 2]! * f[o + 1]! + f[o + 3]!;
          M[1]! += q[x + 2]! * f[o]! - q[x]! * f[o + 2]! + f[o + 4]!;
          M[2]! += q[x]! * f[o + 1]! - q[x + 1]! * f[o]! + f[o + 5]!;
        }
        expect(scale).toBeGreaterThan(1);
        for (let k = 0; k < 3; k++) expect(Math.abs(F[k]!)).toBeLessThan(1e-13 * scale);
        // with translational damping the pair (F, −F) acts along different lines: the moment is not zero
        const mNorm = Math.hypot(M[0]!, M[1]!, M[2]!);
        if (moment) expect(mNorm).toBeLessThan(1e-13 * scale);
        else expect(mNorm).toBeGreaterThan(1e-3);
      }
    }
  });

  it('near φ = π the log map takes the shorter way: φ stays ≤ π, energy is continuous and the torque flips', () => {
    const torqueA = (angle: number) => {
      const { model, spring } = scene(77, angle, 'body', 'world', { translationalStiffness: 0, rotationalStiffness: PARAMS.rotationalStiffness, translationalDamping: 0, rotationalDamping: 0 });
      const f = forces(model, [spring], model.initialQ, model.initialU);
      const V = spring.potentialEnergy(context(model, model.initialQ, model.initialU), spring.createScratch());
      return { tau: [f[3]!, f[4]!, f[5]!], phi: spring.angle(context(model, model.initialQ, model.initialU), spring.createScratch()), V };
    };
    const d = 1e-4, below = torqueA(Math.PI - d), above = torqueA(Math.PI + d);
    expect(below.phi).toBeCloseTo(Math.PI - d, 10);
    expect(above.phi).toBeCloseTo(Math.PI - d, 10);
    expect(above.V).toBeCloseTo(below.V, 8);
    const kr = PARAMS.rotationalStiffness;
    for (let k = 0; k < 3; k++) expect(above.tau[k]!).toBeCloseTo(-below.tau[k]!, 8);
    expect(Math.hypot(...below.tau)).toBeCloseTo(kr * (Math.PI - d), 8);
  });

  it('atWorldFrame: both frames coincide at load time, so the spring starts at rest with zero energy', () => {
    const r = rng(9);
    const b = new ModelAssembler();
    b.settings.gravity = [0, 0, 0];
    const A = b.addBody({ name: 'A', mass: 1, inertia: [1, 1, 1, 0, 0, 0], position: randomVec(r), orientation: randomQuat(r) });
    const B = b.addBody({ name: 'B', mass: 1, inertia: [1, 1, 1, 0, 0, 0], position: randomVec(r), orientation: randomQuat(r) });
    const q0 = b.build().initialQ;
    const pos = randomVec(r), ori = randomQuat(r);
    const springs = [
      FrameSpring.atWorldFrame('ab', A, B, q0, pos, ori, PARAMS),
      FrameSpring.atWorldFrame('aw', A, null, q0, pos, ori, PARAMS),
      FrameSpring.atWorldFrame('wb', null, B, q0, pos, ori, PARAMS),
    ];
    for (const s of springs) b.addForce(s);
    const model = b.build();
    const u = new Float64Array(model.nu);
    const f = forces(model, springs, model.initialQ, u);
    for (const x of f) expect(Math.abs(x)).toBeLessThan(1e-12);
    for (const s of springs) expect(s.potentialEnergy(context(model, model.initialQ, u), s.createScratch())).toBeLessThan(1e-26);
    // and it really is attached there: moving A by δ stretches 'aw' by δ
    const q = model.initialQ.slice();
    q[A.qOffset] = q[A.qOffset]! + 0.01;
    expect(springs[1]!.potentialEnergy(context(model, q, u), springs[1]!.createScratch())).toBeCloseTo(0.5 * PARAMS.translationalStiffness * 1e-4, 12);
  });

  it('rejects invalid parameters', () => {
    expect(() => new FrameSpring('w', null, null, [0, 0, 0], [1, 0, 0, 0], [0, 0, 0], [1, 0, 0, 0], PARAMS)).toThrow(ModelError);
    const b = new ModelAssembler();
    const A = b.addBody({ name: 'A', mass: 1, inertia: [1, 1, 1, 0, 0, 0] });
    expect(() => new FrameSpring('n', A, null, [0, 0, 0], [1, 0, 0, 0], [0, 0, 0], [1, 0, 0, 0], { ...PARAMS, rotationalStiffness: -1 })).toThrow(/rotationalStiffness/);
    expect(() => new FrameSpring('q', A, null, [0, 0, 0], [0, 0, 0, 0], [0, 0, 0], [1, 0, 0, 0], PARAMS)).toThrow(/q1A/);
  });
});

describe('small oscillations of a body on a frame spring to the world', () => {
  it('the generalized eigenvalues of (−K, M) at equilibrium are k_t/m (×3) and k_r/I_i', () => {
    const m = 2.5, I: Vec3Tuple = [0.3, 0.5, 0.7], com: Vec3Tuple = [0.1, -0.2, 0.15];
    const kt = PARAMS.translationalStiffness, kr = PARAMS.rotationalStiffness;
    const r = rng(4242);
    const b = new ModelAssembler();
    b.settings.gravity = [0, 0, 0];
    const body = b.addBody({ name: 'A', mass: m, inertia: [I[0], I[1], I[2], 0, 0, 0], com, position: randomVec(r), orientation: randomQuat(r) });
    const q0 = b.build().initialQ;
    // the bushing sits at the centre of mass (away from the frame origin), with a random orientation
    const R = quatToMat3(new Float64Array(9), q0, body.qOffset + 3);
    const cW = Float64Array.from([0, 1, 2], (i) => R[3 * i]! * com[0] + R[3 * i + 1]! * com[1] + R[3 * i + 2]! * com[2]);
    const at: Vec3Tuple = [q0[0]! + cW[0]!, q0[1]! + cW[1]!, q0[2]! + cW[2]!];
    const sp = FrameSpring.atWorldFrame('bushing', body, null, q0, at, randomQuat(r), PARAMS);
    b.addForce(sp);
    const model = b.build();
    const { K } = forceEval(model, [sp]).jacobians(model.initialQ, new Float64Array(model.nu));
    // mass matrix about the frame origin in world axes, M = G Gᵀ (theory.md §2)
    const JW = new Float64Array(9);
    for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) JW[3 * i + j] = R[3 * i]! * I[0] * R[3 * j]! + R[3 * i + 1]! * I[1] * R[3 * j + 1]! + R[3 * i + 2]! * I[2] * R[3 * j + 2]!;
    const sc = spatialScratch(), M = spatialInertia(new Float64Array(36), m, cW, JW, sc), G = new Float64Array(36);
    expect(spatialInertiaFactor(G, m, cW, JW, sc)).toBe(true);
    // −K is symmetric at equilibrium (a conservative linearization)
    for (let i = 0; i < 6; i++) for (let j = 0; j < 6; j++) expect(Math.abs(K[6 * i + j]! - K[6 * j + i]!)).toBeLessThan(1e-12 * kt);
    // Gi = G⁻¹ (G lower triangular), S = Gi (−K) Giᵀ
    const Gi = new Float64Array(36);
    for (let c = 0; c < 6; c++) for (let i = 0; i < 6; i++) {
      let s = i === c ? 1 : 0;
      for (let k = 0; k < i; k++) s -= G[6 * i + k]! * Gi[6 * k + c]!;
      Gi[6 * i + c] = s / G[6 * i + i]!;
    }
    // sanity: G Gᵀ = M
    for (let i = 0; i < 6; i++) for (let j = 0; j < 6; j++) {
      let s = 0;
      for (let k = 0; k < 6; k++) s += G[6 * i + k]! * G[6 * j + k]!;
      expect(s).toBeCloseTo(M[6 * i + j]!, 12);
    }
    const S = new Float64Array(36);
    for (let i = 0; i < 6; i++) for (let j = 0; j < 6; j++) {
      let s = 0;
      for (let k = 0; k < 6; k++) for (let l = 0; l < 6; l++) s -= Gi[6 * i + k]! * K[6 * k + l]! * Gi[6 * j + l]!;
      S[6 * i + j] = s;
    }
    for (let i = 0; i < 6; i++) for (let j = 0; j < i; j++) { const a = 0.5 * (S[6 * i + j]! + S[6 * j + i]!); S[6 * i + j] = a; S[6 * j + i] = a; }
    const omega = symmetricEigenvalues(S, 6).map(Math.sqrt);
    const expected = [kt / m, kt / m, kt / m, kr / I[0], kr / I[1], kr / I[2]].sort((x, y) => x - y).map(Math.sqrt);
    for (let i = 0; i < 6; i++) expect(Math.abs(omega[i]! - expected[i]!) / expected[i]!).toBeLessThan(1e-9);
  });

  /** a body of mass m, principal inertia I (body axes), offset centre of mass, on an undamped bushing at its centre of mass */
  function bushedBody(v: (R: Float64Array, cW: Float64Array) => { velocity: Vec3Tuple; angularVelocity: Vec3Tuple }) {
    const m = 2.5, I: Vec3Tuple = [0.3, 0.5, 0.7], com: Vec3Tuple = [0.1, -0.2, 0.15];
    const r = rng(99);
    const position = randomVec(r), orientation = randomQuat(r);
    const R = quatToMat3(new Float64Array(9), Float64Array.from(orientation));
    const cW = Float64Array.from([0, 1, 2], (i) => R[3 * i]! * com[0] + R[3 * i + 1]! * com[1] + R[3 * i + 2]! * com[2]);
    const b = new ModelAssembler();
    b.settings.gravity = [0, 0, 0];
    const body = b.addBody({ name: 'A', mass: m, inertia: [I[0], I[1], I[2], 0, 0, 0], com, position, orientation, ...v(R, cW) });
    const at: Vec3Tuple = [position[0] + cW[0]!, position[1] + cW[1]!, position[2] + cW[2]!];
    const params = { ...PARAMS, translationalDamping: 0, rotationalDamping: 0 };
    b.addForce(FrameSpring.atWorldFrame('bushing', body, null, b.build().initialQ, at, randomQuat(r), params));
    return { model: b.build(), m, I, R, cW };
  }

  /** the period of a signal from its zero crossings (linear interpolation; the signal is sinusoidal) */
  function periodOf(sim: Simulation, signal: (sim: Simulation) => number, steps: number): number {
    const crossings: number[] = [];
    let prev = signal(sim), tPrev = sim.state.t;
    sim.steps(steps, (s) => {
      const y = signal(s), t = s.state.t;
      if ((prev < 0 && y >= 0) || (prev > 0 && y <= 0)) crossings.push(tPrev + (t - tPrev) * prev / (prev - y));
      prev = y; tPrev = t;
    });
    expect(crossings.length).toBeGreaterThan(4);
    return (2 * (crossings[crossings.length - 1]! - crossings[0]!)) / (crossings.length - 1);
  }

  it('time domain (RK4): the centre of mass oscillates with ω = √(k_t/m)', () => {
    // the centre of mass starts at the bushing moving along e; the body does not turn
    const e = [0.6, -0.48, 0.64];
    const { model, m, cW } = bushedBody(() => ({ velocity: [0.2 * e[0]!, 0.2 * e[1]!, 0.2 * e[2]!], angularVelocity: [0, 0, 0] }));
    const sim = new Simulation(model, { integrator: 'rk4', step: 1e-3 });
    const x0 = [model.initialQ[0]! + cW[0]!, model.initialQ[1]! + cW[1]!, model.initialQ[2]! + cW[2]!];
    const T = periodOf(sim, (s) => (s.state.q[0]! + cW[0]! - x0[0]!) * e[0]! + (s.state.q[1]! + cW[1]! - x0[1]!) * e[1]! + (s.state.q[2]! + cW[2]! - x0[2]!) * e[2]!, 4000);
    const omega = Math.sqrt(PARAMS.translationalStiffness / m);
    expect(Math.abs(T - (2 * Math.PI) / omega) * omega / (2 * Math.PI)).toBeLessThan(1e-6);
    for (let k = 3; k < 6; k++) expect(Math.abs(sim.state.u[k]!)).toBeLessThan(1e-9);
  });

  for (const axis of [0, 1, 2]) {
    it(`time domain (RK4): rotation about principal axis ${'xyz'[axis]} oscillates with ω = √(k_r/I)`, () => {
      // ω₀ along the world image a of the principal axis, the centre of mass at rest
      let a: number[] = [];
      const { model, I } = bushedBody((R, cW) => {
        a = [R[axis]!, R[3 + axis]!, R[6 + axis]!];
        const w = [0.8 * a[0]!, 0.8 * a[1]!, 0.8 * a[2]!];
        // v_origin = v_com − ω × c_W with v_com = 0
        return { velocity: [-(w[1]! * cW[2]! - w[2]! * cW[1]!), -(w[2]! * cW[0]! - w[0]! * cW[2]!), -(w[0]! * cW[1]! - w[1]! * cW[0]!)], angularVelocity: w as Vec3Tuple };
      });
      const sim = new Simulation(model, { integrator: 'rk4', step: 1e-3 });
      const T = periodOf(sim, (s) => s.state.u[3]! * a[0]! + s.state.u[4]! * a[1]! + s.state.u[5]! * a[2]!, 4000);
      const omega = Math.sqrt(PARAMS.rotationalStiffness / I[axis]!);
      expect(Math.abs(T - (2 * Math.PI) / omega) * omega / (2 * Math.PI)).toBeLessThan(1e-6);
    });
  }
});
