/**
 * The joint batch (src/constraints/jointBatch.ts): the constraint stage evaluates the joints over
 * one flat pool with the joints' own row kernels. Its g, κ, G and projection curvature must be
 * the joints' own, bit for bit, for every preset and a custom mask on every kind of side, with
 * other constraints (a distance constraint) in between; it must follow q (its cached positions
 * invalidated by every kinematics update), and two simulations of one model, each with its own
 * batch, must step side by side exactly as each alone.
 */
import { describe, it, expect } from 'vitest';
import { ModelAssembler } from '../../src/model/assembler.js';
import type { RigidBody } from '../../src/model/model.js';
import { Joint, JOINT_PRESETS, jointLeverCurvature, type JointType } from '../../src/constraints/joint.js';
import { DistanceConstraint } from '../../src/constraints/distance.js';
import { StiffnessScratch } from '../../src/constraints/geometricStiffness.js';
import { JointBatch } from '../../src/constraints/jointBatch.js';
import { Simulation } from '../../src/simulation.js';
import { chainOfBodies } from '../../examples/scenes.js';
import { rng } from '../helpers/fd.js';
import { context, scratchOf } from '../helpers/constraints.js';
import { randomVec, randomQuat } from '../helpers/numeric.js';

/**
 * every preset and a custom mask, on body–body, world–body, body–world and static sides, with a
 * distance constraint among them; b0 is static, so block indices differ from component indices
 * and the ball joint j0 has a static side
 */
function mixedModel(seed: number) {
  const r = rng(seed);
  const b = new ModelAssembler();
  const bodies: RigidBody[] = [];
  for (let i = 0; i < 6; i++) {
    bodies.push(b.addBody({ name: `b${i}`, mass: 1 + r(), inertia: [0.3, 0.4, 0.5, 0.01, 0, 0], com: randomVec(r, 0.1),
      position: randomVec(r), orientation: randomQuat(r), dynamic: i !== 0 && i !== 5 }));
  }
  b.addParticle({ name: 'p', mass: 1, position: [0.3, 0.2, 0.1] });
  b.addMarker({ name: 'm0', body: 'b0', location: [0.1, 0, 0] });
  const q0 = b.initialQ();
  const types: (JointType | { linear: [boolean, boolean, boolean]; angular: [boolean, boolean, boolean] })[] =
    [...(Object.keys(JOINT_PRESETS) as JointType[]), { linear: [true, false, true], angular: [false, true, false] }];
  types.forEach((type, i) => {
    const A = i % 4 === 1 ? null : bodies[i % 6]!;
    let B = i % 4 === 2 ? null : bodies[(i + 1 + (i % 3)) % 6]!;
    // a joint needs one dynamic side
    if (!A?.dynamic && !B?.dynamic) B = bodies[1]!;
    const compliance = i % 5 === 3 ? 1e-3 : undefined;
    b.addConstraint(Joint.atWorldFrame(`j${i}`, A, B, q0, randomVec(r), randomQuat(r), { type, ...(compliance ? { compliance } : {}) }));
    if (i === 4) b.addConstraint(new DistanceConstraint('d', b.point('m0'), b.point('p'), q0));
  });
  const model = b.build();
  // off the constraints, with velocities
  const q = Float64Array.from(model.initialQ, (x, i) => x + 0.05 * Math.sin(3 * i + seed));
  for (const c of model.components) {
    if (c.kind !== 'body') continue;
    const o = c.qOffset + 3, n = Math.hypot(q[o]!, q[o + 1]!, q[o + 2]!, q[o + 3]!);
    for (let k = 0; k < 4; k++) q[o + k] = q[o + k]! / n;
  }
  const u = Float64Array.from({ length: model.nu }, () => 2 * r() - 1);
  return { model, q, u };
}

describe('joint batch', () => {
  it('gives every joint\'s own g, κ, G and projection curvature, bit for bit', () => {
    for (const seed of [1, 2, 3]) {
      const { model, q, u } = mixedModel(seed);
      const sim = new Simulation(model), cs = sim.ws.cs, batch = cs.joints;
      expect(batch.count).toBe(model.constraints.filter((c) => c instanceof Joint).length);
      const ctx = sim.ws.fs.bind(q, u), m = model.nRows;
      const g = new Float64Array(m).fill(NaN), kappa = new Float64Array(m).fill(NaN), G = new Float64Array(12 * m).fill(NaN);
      // the joints' offsets in G: 12 · (first row) per joint, as a stage with 6-column sides would keep them
      const keepAt = new Int32Array(2 * model.constraints.length);
      model.constraints.forEach((c, ci) => { keepAt[2 * ci] = 12 * model.rowStart[ci]!; keepAt[2 * ci + 1] = 12 * model.rowStart[ci]! + 6 * c.rows; });
      const own = new JointBatch(model.constraints, model.rowStart, keepAt);
      // a second batch whose first call is the curvature (its own positions pass)
      const curvatureFirst = new JointBatch(model.constraints, model.rowStart, keepAt);
      own.evaluate(ctx, g, kappa, G);
      // against each joint's own evaluation, in a fresh context and scratch (its own kinematics buffer)
      const c2 = context(model, q, u);
      let checked = 0;
      model.constraints.forEach((c, ci) => {
        if (!(c instanceof Joint)) { expect(g[model.rowStart[ci]!]).toBeNaN(); return; }
        const r0 = model.rowStart[ci]!, gj = new Float64Array(c.rows), kj = new Float64Array(c.rows), Gj = new Float64Array(12 * c.rows).fill(NaN);
        c.violation(c2, gj, 0, scratchOf(c));
        c.bias(c2, kj, 0, scratchOf(c));
        c.jacobianInto(c2, Gj, 0, 6 * c.rows, scratchOf(c));
        expect(Array.from(g.subarray(r0, r0 + c.rows))).toEqual(Array.from(gj));
        expect(Array.from(kappa.subarray(r0, r0 + c.rows))).toEqual(Array.from(kj));
        const nk = c.components.length;
        expect(Array.from(G.subarray(12 * r0, 12 * r0 + 6 * c.rows * nk))).toEqual(Array.from(Gj.subarray(0, 6 * c.rows * nk)));
        expect(Math.max(...gj.map(Math.abs))).toBeGreaterThan(1e-4);
        checked++;
      });
      expect(checked).toBe(batch.count);
      // the projection's curvature against the joints' own terms
      const mu = Float64Array.from({ length: m }, (_, i) => Math.cos(i + seed) * 30);
      const nBlocks = model.blockComponent.length, traces = Float64Array.from({ length: nBlocks }, (_, i) => 0.5 + 0.1 * i);
      const C1 = new Float64Array(9 * nBlocks), C2 = new Float64Array(9 * nBlocks), t = new StiffnessScratch();
      own.addCurvature(ctx, mu, C1, traces, t);
      const C3 = new Float64Array(9 * nBlocks);
      curvatureFirst.addCurvature(ctx, mu, C3, traces, t);
      expect(Array.from(C3)).toEqual(Array.from(C1));
      let terms = 0;
      // each joint's own term over its own kinematics (the joints that lock all three translations)
      model.constraints.forEach((c, ci) => {
        if (!(c instanceof Joint) || c.layout.linear.length !== 3) return;
        const k = scratchOf(c).k;
        k.positions(c2);
        jointLeverCurvature(k.b, 0, c.layout.codes, 0, mu, model.rowStart[ci]!, c.bodyA ? c.bodyA.block : -1, c.bodyB ? c.bodyB.block : -1, C2, traces, t);
        terms++;
      });
      expect(terms).toBe(batch.curved);
      expect(C1.some((x) => x !== 0)).toBe(true);
      expect(Array.from(C1)).toEqual(Array.from(C2));
    }
  });

  it('follows q: a kinematics update invalidates the positions it holds', () => {
    const { model, q, u } = mixedModel(4);
    const sim = new Simulation(model), cs = sim.ws.cs;
    cs.violation(sim.ws.fs.bind(model.initialQ, u));
    const g0 = Array.from(cs.g);
    cs.violation(sim.ws.fs.bind(q, u));
    const g1 = Array.from(cs.g);
    const own = new Float64Array(model.nRows);
    model.constraints.forEach((c, ci) => c.violation(context(model, q, u), own, model.rowStart[ci]!, scratchOf(c)));
    expect(g1).toEqual(Array.from(own));
    expect(g1).not.toEqual(g0);
  });

  it('two simulations of one joint model step side by side exactly as each alone', () => {
    const model = chainOfBodies(12, { integrator: 'trapezoidal', step: 1 / 120 });
    const aloneA = new Simulation(model), aloneB = new Simulation(model, { integrator: 'implicit-euler' });
    aloneA.steps(60);
    aloneB.steps(60);
    const a = new Simulation(model), b = new Simulation(model, { integrator: 'implicit-euler' });
    for (let i = 0; i < 60; i++) { a.step(); b.step(); }
    for (const [x, alone] of [[a, aloneA], [b, aloneB]] as const) {
      expect(Array.from(x.state.q)).toEqual(Array.from(alone.state.q));
      expect(Array.from(x.state.u)).toEqual(Array.from(alone.state.u));
      expect(Array.from(x.ws.cs.lambda)).toEqual(Array.from(alone.ws.cs.lambda));
    }
  });
});
