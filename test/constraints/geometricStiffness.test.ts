/**
 * Geometric stiffness of distance constraints and of joints' translational rows (theory.md §12): the
 * term added to K is exactly ∂(Gᵀλ)/∂q at fixed λ (finite differences of the constraint force
 * Gᵀλ over q ⊕ ε e_j) and enters the step matrix on every block it fills; with the option on, a
 * stiff particle chain at a large step keeps its constraints, and a 200-link body chain at
 * h = 1/60 holds where it tears without.
 */
import { describe, it, expect } from 'vitest';
import { ModelAssembler } from '../../src/model/assembler.js';
import { Workspace } from '../../src/step/workspace.js';
import { Simulation } from '../../src/simulation.js';
import { DistanceConstraint } from '../../src/constraints/distance.js';
import { Joint } from '../../src/constraints/joint.js';
import type { Model, RigidBody } from '../../src/model/model.js';
import { cscToDense, cscTransposeMap } from '../../src/math/sparse/csc.js';
import { retract, relErr } from '../helpers/fd.js';
import { chainOfBodies } from '../../examples/scenes.js';
import { AxialSpring } from '../../src/forces/pathSpring.js';
import { scratchOf } from '../helpers/constraints.js';
import { LinearMaterial } from '../../src/forces/materials.js';

function model(gs: boolean) {
  const b = new ModelAssembler();
  b.settings.geometricStiffness = gs;
  b.addBody({ name: 'A', mass: 1, inertia: [0.02, 0.03, 0.04, 0, 0, 0], position: [0, 0, 0], orientation: [0.9, 0.1, 0.3, -0.2], angularVelocity: [1, 2, 0] });
  b.addParticle({ name: 'p', mass: 0.5, position: [0.6, 0.2, -0.3] });
  b.addParticle({ name: 'r', mass: 0.5, position: [1.1, -0.1, -0.5] });
  b.addMarker({ name: 'm', body: 'A', location: [0.2, 0, 0.1] });
  const q0 = b.initialQ();
  b.addConstraint(new DistanceConstraint('d1', b.point('m'), b.point('p'), q0));
  b.addConstraint(new DistanceConstraint('d2', b.point('p'), b.point('r'), q0));
  return b.build();
}

/** two bodies, off-centre, turned and spinning, joined to each other and to the world by `type` joints on both sides */
function jointModel(type: 'ball' | 'slider' | 'planar' | 'point-on-line'): Model {
  const b = new ModelAssembler();
  b.settings.geometricStiffness = true;
  b.addBody({ name: 'A', mass: 1, inertia: [0.02, 0.03, 0.04, 0.001, 0, 0.002], com: [0.05, -0.02, 0.01], position: [0, 0, 0], orientation: [0.9, 0.1, 0.3, -0.2], angularVelocity: [1, 2, 0] });
  b.addBody({ name: 'B', mass: 2, inertia: [0.05, 0.02, 0.03, 0, 0, 0], position: [0.4, 0.1, -0.2], orientation: [0.7, -0.2, 0.1, 0.4] });
  const q0 = b.initialQ();
  const body = (n: string) => b.componentAt(b.componentIndex(n)!) as RigidBody;
  const spec = { type } as const;
  b.addConstraint(Joint.atWorldFrame('AB', body('A'), body('B'), q0, [0.2, 0.05, -0.1], [0.8, 0.2, -0.4, 0.4], spec));
  b.addConstraint(Joint.atWorldFrame('wA', null, body('A'), q0, [-0.1, 0.1, 0.05], [0.6, 0, 0.8, 0], spec));
  b.addConstraint(Joint.atWorldFrame('Bw', body('B'), null, q0, [0.5, 0.3, -0.2], [1, 0, 0, 0], spec));
  return b.build();
}

/** the dense K block of the solve unknowns, and the same by central differences of Gᵀλ */
function stiffnessAgainstDifferences(mdl: Model, lambda: number[]): { K: Float64Array; Kfd: Float64Array } {
  const ws = new Workspace(mdl), n = mdl.nSolve, m = mdl.nRows;
  ws.cs.lambda.set(lambda);
  const q0 = mdl.initialQ, u = mdl.initialU;
  ws.fs.jacobians(q0, u);
  ws.fs.K.zero();
  ws.addGeometricStiffness(q0, u);
  const N = n + m, Kd = cscToDense(ws.fs.K.csc());
  const K = new Float64Array(n * n);
  for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) K[i * n + j] = Kd[i * N + j]!;
  // Gᵀλ in the solve layout from the assembled G rows
  const force = (q: Float64Array) => {
    ws.constraints(q, u, 0.01, 'velocity');
    const G = cscToDense(ws.Gm.csc()), f = new Float64Array(n);
    for (let j = 0; j < n; j++) for (let i = 0; i < m; i++) f[j] += G[(n + i) * N + j]! * ws.cs.lambda[i]!;
    return f;
  };
  const eps = 1e-6, Kfd = new Float64Array(n * n), d = new Float64Array(n);
  for (let j = 0; j < n; j++) {
    d.fill(0); d[j] = eps; const fp = force(retract(mdl, q0, d));
    d[j] = -eps; const fm = force(retract(mdl, q0, d));
    for (let i = 0; i < n; i++) Kfd[i * n + j] = (fp[i]! - fm[i]!) / (2 * eps);
  }
  return { K, Kfd };
}

/**
 * Factors the implicit-Euler matrix with geometric stiffness at multipliers lambda, checks that
 * the values the solver factored are the symmetric part of M − (h D + h² K) at every entry (to
 * rounding: it forms the mean in another order), and counts the entries where K is nonzero and M
 * is not (the blocks only the geometric stiffness fills)
 */
function stepMatrixEntries(mdl: Model, lambda: number[], h = 0.02): number {
  const ws = new Workspace(mdl);
  ws.cs.lambda.set(lambda);
  const q = mdl.initialQ, u = mdl.initialU;
  ws.mass(q);
  ws.fs.jacobians(q, u);
  ws.addGeometricStiffness(q, u);
  ws.constraints(q, u, h, 'velocity');
  ws.factor(h, h * h);
  // K and D in the full layout (they hold the blocks between components only)
  const at = ws.fs.jacobianIndex, P = ws.M.values, S = ws.solver.factoredValues;
  const K = Float64Array.from(at, (e) => (e < 0 ? 0 : ws.fs.K.values[e]!)), D = Float64Array.from(at, (e) => (e < 0 ? 0 : ws.fs.D.values[e]!));
  const A = Float64Array.from(P, (p, k) => p - (h * D[k]! + h * h * K[k]!)), tmap = cscTransposeMap({ ...ws.fs.layout, values: A });
  const big = A.reduce((a, v) => Math.max(a, Math.abs(v)), 0);
  let offBlock = 0;
  for (let k = 0; k < A.length; k++) {
    expect(Math.abs(S[k]! - 0.5 * (A[k]! + A[tmap[k]!]!))).toBeLessThanOrEqual(4 * Number.EPSILON * big);
    if (K[k] !== 0 && P[k] === 0) offBlock++;
  }
  return offBlock;
}

describe('geometric stiffness of joints (translational rows)', () => {
  // per joint: its translational rows' multipliers, 0 on the lock rows (whose curvature is not included)
  const cases = [
    ['ball', [3.5, -1.25, 2, 0.5, 4, -3, -2, 1.5, 0.75]],
    ['slider', [3.5, -1.25, 0, 0, 0, 0.5, 4, 0, 0, 0, -2, 1.5, 0, 0, 0]],
    ['planar', [3.5, 0, 0, -1.25, 0, 0, 2, 0, 0]],
    ['point-on-line', [3.5, -1.25, 0.5, 4, -2, 1.5]],
  ] as const;
  for (const [type, lambda] of cases) {
    it(`equals ∂(Gᵀλ)/∂q at fixed λ: ${type}, between two bodies and with the world on either side`, () => {
      const mdl = jointModel(type);
      expect(mdl.nRows).toBe(lambda.length);
      const { K, Kfd } = stiffnessAgainstDifferences(mdl, [...lambda]);
      const e = relErr(K, Kfd);
      console.log(`${type}: geometric stiffness vs FD of Gᵀλ: rel. error ${e.toExponential(2)}`);
      expect(e).toBeLessThan(1e-6);
      // not trivially: the term is there
      expect(Math.max(...K.map(Math.abs))).toBeGreaterThan(0.1);
    });
  }
});

describe('geometric stiffness of joints in the step', () => {
  it('enters the step matrix, on the blocks between the two bodies too', () => {
    const offBlock = stepMatrixEntries(jointModel('ball'), [3.5, -1.25, 2, 0.5, 4, -3, -2, 1.5, 0.75]);
    // the A–B and B–A blocks: τ_A/∂b, τ_A/∂β, F_B/∂α, τ_B/∂α (3 × 3 each, [f] has 6 nonzeros)
    expect(offBlock).toBeGreaterThanOrEqual(24);
  });

  // the step without it leaves more drift; before the projection's curvature term (integrators/
  // stabilize.ts) the projection could not remove it and the chain tore by 1.5-9 cm (28-50
  // unconverged projections); with the term both hold
  it('keeps a 200-link ball chain at h = 1/60 on its joints, with it and without it', () => {
    for (const k of [0, 3]) {
      const results = [false, true].map((geometricStiffness) => {
        const sim = new Simulation(chainOfBodies(200, { integrator: 'implicit-euler', step: 1 / 60, geometricStiffness }));
        sim.state.q[7 * 100 + 1] = sim.state.q[7 * 100 + 1]! + k * 1e-13;
        sim.steps(120);
        // a step whose non-symmetric matrix has an indefinite symmetric part is solved and warned of
        const indefinite = sim.warningLog.filter((w) => w.kind === 'indefinite');
        expect(indefinite).toHaveLength(sim.diagnostics.inertiaWarnings > 0 ? 1 : 0);
        if (indefinite.length) expect(indefinite[0]!.message).toMatch(/^step \d+: the symmetric part of the non-symmetric step matrix is not positive definite at body "link\d+" \(LDLᵀ inertia/);
        return sim.diagnostics;
      });
      expect(results[0]!.projectionUnconverged).toBe(0);
      expect(results[0]!.worstViolation.value).toBeLessThanOrEqual(1e-12);
      expect(results[1]!.projectionUnconverged).toBe(0);
      expect(results[1]!.worstViolation.value).toBeLessThanOrEqual(1e-12);
    }
  });

  // the chain above met such steps (7 in one start) until implicit Euler froze J in the
  // gyroscopic torque (forces/inertial.ts); a thin rod turning at h|ω| = 1.7 about a transverse
  // axis meets one at every step
  it('solves a step whose non-symmetric matrix has an indefinite symmetric part, and warns of it once', () => {
    const b = new ModelAssembler();
    b.settings.gravity = [0, 0, 0];
    b.settings.integrator = 'implicit-euler';
    b.settings.step = 1 / 60;
    const It = (0.1 / 12) * (0.1 ** 2 + 0.02 ** 2);
    b.addBody({ name: 'rod', mass: 0.1, inertia: [(0.1 / 12) * 2 * 0.02 ** 2, It, It, 0, 0, 0], position: [0, 0, 0], angularVelocity: [0, 100, 0] });
    const sim = new Simulation(b.build()), E0 = sim.energy().total;
    sim.steps(10);
    expect(sim.diagnostics.inertiaWarnings).toBe(10);
    const indefinite = sim.warningLog.filter((w) => w.kind === 'indefinite');
    expect(indefinite).toHaveLength(1);
    expect(indefinite[0]!.message).toMatch(/^step 1: the symmetric part of the non-symmetric step matrix is not positive definite at body "rod" \(LDLᵀ inertia/);
    // it turns about a principal axis: the step keeps its energy
    expect(Math.abs(sim.energy().total - E0)).toBeLessThan(1e-12 * E0);
  });

  it('a 30-link ball chain under implicit Euler holds its joints with the option on', () => {
    const sim = new Simulation(chainOfBodies(30, { integrator: 'implicit-euler', geometricStiffness: true }));
    const E0 = sim.energy().total;
    sim.steps(400);
    expect(sim.diagnostics.worstViolation.value).toBeLessThan(1e-10);
    expect(sim.diagnostics.projectionUnconverged).toBe(0);
    expect(sim.energy().total).toBeLessThan(E0);
    expect(sim.warnings).toEqual([]);
  });
});

describe('geometric stiffness of distance constraints', () => {
  it('equals ∂(Gᵀλ)/∂q at fixed λ', () => {
    const { K, Kfd } = stiffnessAgainstDifferences(model(true), [3.5, -1.25]);
    const e = relErr(K, Kfd);
    console.log(`geometric stiffness vs FD of Gᵀλ: rel. error ${e.toExponential(2)}`);
    expect(e).toBeLessThan(1e-6);
  });

  it('a stiff chain under implicit Euler at h = 20 ms keeps its constraints with the option on', () => {
    const b = new ModelAssembler();
    b.settings.geometricStiffness = true;
    for (let i = 0; i < 10; i++) b.addParticle({ name: `p${i}`, mass: 0.1, position: [(i + 1) * 0.1, 0, 0] });
    const q0 = b.initialQ();
    b.addConstraint(new DistanceConstraint('c0', b.worldPoint([0, 0, 0]), b.point('p0'), q0));
    for (let i = 1; i < 10; i++) b.addConstraint(new DistanceConstraint(`c${i}`, b.point(`p${i - 1}`), b.point(`p${i}`), q0));
    const sim = new Simulation(b.build(), { integrator: 'implicit-euler', step: 0.02 });
    const E0 = sim.energy().total;
    sim.steps(250);
    expect(sim.state.q.every(Number.isFinite)).toBe(true);
    expect(sim.energy().total).toBeLessThan(E0);
    expect(sim.warnings).toEqual([]);
  });

  // regression: a compressed constraint's geometric stiffness is destabilizing (a transverse
  // stiffness −|T|/L), and at a large step it made the step matrix indefinite; the solve went on
  // with it and the 100-link chain at h = 1/30 was thrown to 1e4 m and diverged at step 59
  it('a step whose geometric stiffness makes the step matrix indefinite is taken without it', () => {
    const rope = (geometricStiffness: boolean) => {
      const b = new ModelAssembler();
      b.settings.geometricStiffness = geometricStiffness;
      for (let i = 0; i < 5; i++) b.addParticle({ name: `p${i}`, mass: 0.1, position: [(i + 1) * 0.1, 0.02 * i, 0] });
      const q0 = b.initialQ();
      b.addConstraint(new DistanceConstraint('c0', b.worldPoint([0, 0, 0]), b.point('p0'), q0));
      for (let i = 1; i < 5; i++) b.addConstraint(new DistanceConstraint(`c${i}`, b.point(`p${i - 1}`), b.point(`p${i}`), q0));
      const sim = new Simulation(b.build(), { integrator: 'implicit-euler', step: 0.02 });
      // the last step's multipliers: a compression of 1e6 N (tension −λ), h²|T|/L = 4000 ≫ m
      sim.ws.cs.lambda.fill(1e6);
      return sim;
    };
    const withGs = rope(true), plain = rope(false);
    withGs.step();
    plain.step();
    expect(withGs.diagnostics.geometricFallbacks).toBe(1);
    expect(withGs.diagnostics.inertiaWarnings).toBe(0);
    expect(withGs.warnings.some((w) => w.includes('with the geometric stiffness the step matrix was indefinite'))).toBe(true);
    // the step taken is the step without the option, bit for bit
    expect(Array.from(withGs.state.q)).toEqual(Array.from(plain.state.q));
    expect(Array.from(withGs.state.u)).toEqual(Array.from(plain.state.u));
    // with a tension instead, the option stays in
    const tense = rope(true);
    tense.ws.cs.lambda.fill(-1e6);
    tense.step();
    expect(tense.diagnostics.geometricFallbacks).toBe(0);
    expect(Array.from(tense.state.q)).not.toEqual(Array.from(plain.state.q));
  });

  // the option kept this chain finite where it went to NaN at step 59, but not bounded: its
  // energy reached 1e9 J from 0 at h = 1/30, which the energy watch reports as a blow-up (a failed
  // step that leaves the last good state), never a silent result. Since the links' spin is kept
  // (test/integrators/linkSpin.test.ts) it holds at h = 1/30 and 1/20; at h = 1/10 two of these
  // four starts blow up (steps 128 and 112)
  it('the 100-link chain at h = 1/10 with the option does not go to NaN; a blow-up is reported', () => {
    let blowUps = 0;
    for (const k of [0, 1, 2, 3]) {
      const sim = new Simulation(chainOfBodies(100, { integrator: 'implicit-euler', step: 1 / 10, geometricStiffness: true }));
      sim.state.q[7 * 50 + 1] += k * 1e-13;
      try { sim.steps(200); } catch (e) {
        expect((e as Error).message).toMatch(/^diverged at step \d+ .*: blew up: the energy grew from/);
        blowUps++;
      }
      expect(sim.state.q.every(Number.isFinite)).toBe(true);
      expect(sim.diagnostics.geometricFallbacks).toBeGreaterThan(0);
    }
    expect(blowUps).toBeGreaterThan(0);
  });

  // regression: the step matrix combined K only on blocks registered by forces, and dropped the
  // geometric stiffness between two particles that no force couples (p–r here)
  it('enters the step matrix on every block it fills, also where no force couples the components', () => {
    const offBlock = stepMatrixEntries(model(true), [3.5, -1.25]);
    expect(offBlock).toBeGreaterThan(0);
  });
});

describe('the optional terms belong to the workspace that made them', () => {
  it('each call makes a new geometric-stiffness term (one per workspace); joints without translational rows have none', () => {
    const mdl = jointModel('ball'), pattern = new Workspace(mdl).fs.pattern;
    const j = mdl.constraints[0] as Joint;
    const t1 = j.geometricStiffness(pattern, scratchOf(j)), t2 = j.geometricStiffness(pattern, scratchOf(j));
    expect(t1).not.toBeNull();
    expect(t1).not.toBe(t2);
    // a custom mask locking rotations only: no translational rows, no term
    const b = new ModelAssembler();
    b.addBody({ name: 'A', mass: 1, inertia: [0.02, 0.03, 0.04, 0, 0, 0], position: [0, 0, 0] });
    const q0 = b.initialQ();
    const rot = Joint.atWorldFrame('rot', null, b.componentAt(0) as RigidBody, q0, [0, 0, 0], [1, 0, 0, 0], { type: { linear: [false, false, false], angular: [true, true, true] } });
    expect(rot.geometricStiffness(new Workspace(b.build()).fs.pattern, scratchOf(rot))).toBeNull();
  });

  it('the projection curvature comes only from joints that lock all three translations', () => {
    const curved = (type: Parameters<typeof jointModel>[0]) => new Workspace(jointModel(type)).cs.joints.curved;
    expect(curved('ball')).toBeGreaterThan(0);
    for (const type of ['slider', 'planar', 'point-on-line'] as const) expect(curved(type)).toBe(0);
  });

  // a constraint shared by two models whose patterns differ (a force added between two builds)
  // must fill each model's own pattern slots, not those of the model made last
  it('a constraint shared by two models with different patterns steps in both as in each alone', () => {
    const b = new ModelAssembler();
    b.settings.geometricStiffness = true;
    b.addBody({ name: 'A', mass: 1, inertia: [0.02, 0.03, 0.04, 0, 0, 0], position: [0, 0, 0], orientation: [0.9, 0.1, 0.3, -0.2], angularVelocity: [1, 2, 0] });
    b.addBody({ name: 'B', mass: 2, inertia: [0.05, 0.02, 0.03, 0, 0, 0], position: [0.4, 0.1, -0.2] });
    b.addParticle({ name: 'p', mass: 0.5, position: [0.6, 0.5, -0.3] });
    b.addMarker({ name: 'ma', body: 'A', location: [0.1, 0, 0] });
    b.addMarker({ name: 'mb', body: 'B', location: [0, 0.1, 0] });
    const q0 = b.initialQ(), body = (n: string) => b.componentAt(b.componentIndex(n)!) as RigidBody;
    b.addConstraint(Joint.atWorldFrame('AB', body('A'), body('B'), q0, [0.2, 0.05, -0.1], [1, 0, 0, 0], { type: 'ball' }));
    b.addConstraint(Joint.atWorldFrame('wA', null, body('A'), q0, [-0.1, 0.1, 0.05], [1, 0, 0, 0], { type: 'ball' }));
    b.addConstraint(new DistanceConstraint('Bp', b.point('mb'), b.point('p'), q0));
    const m1 = b.build();
    // a second model: the same constraint objects, and a spring between A and p (more blocks)
    b.addForce(new AxialSpring('s', b.point('ma'), b.point('p'), new LinearMaterial(10, 0), 0.8));
    const m2 = b.build();
    const alone = new Simulation(m1);
    alone.steps(30);
    const s1 = new Simulation(m1), s2 = new Simulation(m2);
    for (let i = 0; i < 30; i++) { s1.step(); s2.step(); }
    expect(Array.from(s1.state.q)).toEqual(Array.from(alone.state.q));
  });
});
