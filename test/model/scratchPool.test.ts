/**
 * The model packs its constraints' scratch (joint kinematics, frames, Jacobian blocks) back to back
 * in one array (Model constructor, Joint.adoptScratch): values survive the move and results are
 * the same as with the joints' own arrays.
 */
import { describe, it, expect } from 'vitest';
import { Model } from '../../src/model/model.js';
import { chainOfBodies } from '../../examples/scenes.js';
import { Joint } from '../../src/constraints/joint.js';
import { Simulation } from '../../src/simulation.js';

describe('constraint scratch pool', () => {
  it('puts every joint of a model in one buffer, in model order, frames unchanged', () => {
    const model = chainOfBodies(5, { integrator: 'implicit-euler', step: 1 / 240 });
    const joints = model.constraints as Joint[];
    const buffer = joints[0]!.frameA.p.buffer;
    let last = -1;
    for (const j of joints) {
      expect(j.frameA.p.buffer).toBe(buffer);
      expect(j.frameB.q.buffer).toBe(buffer);
      expect(j.frameA.p.byteOffset).toBeGreaterThan(last);
      last = j.frameA.p.byteOffset;
      // unit quaternions survived the move
      expect(Math.hypot(...j.frameB.q)).toBeCloseTo(1, 14);
    }
  });

  it('keeps the frames\' values when the joint moves into the pool (the frames live in its kinematics buffer)', () => {
    const model = chainOfBodies(3, { integrator: 'implicit-euler', step: 1 / 240 });
    const q0 = model.initialQ;
    // positions off the constraints (g ≠ 0), quaternions kept unit
    const q = Float64Array.from(q0, (x, i) => x + 0.01 * Math.sin(i));
    for (let b = 0; b < 3; b++) { const o = 7 * b + 3, n = Math.hypot(q[o]!, q[o + 1]!, q[o + 2]!, q[o + 3]!); for (let k = 0; k < 4; k++) q[o + k] = q[o + k]! / n; }
    for (const j of model.constraints as Joint[]) {
      // the same joint built again, never packed
      const fresh = new Joint('copy', j.bodyA, j.bodyB, [...j.frameA.p] as [number, number, number], [...j.frameA.q] as [number, number, number, number],
        [...j.frameB.p] as [number, number, number], [...j.frameB.q] as [number, number, number, number], { type: 'ball' }, q0);
      const pool = new Float64Array(fresh.scratchSize + 7).fill(NaN);
      const before = [...fresh.frameA.p, ...fresh.frameA.q, ...fresh.frameB.p, ...fresh.frameB.q];
      fresh.adoptScratch(pool.subarray(7));
      expect(fresh.frameA.p.buffer).toBe(pool.buffer);
      expect([...fresh.frameA.p, ...fresh.frameA.q, ...fresh.frameB.p, ...fresh.frameB.q]).toEqual(before);
      // and the moved joint evaluates as the packed one
      const ctx = new Simulation(model).ws.fs.bind(q, model.initialU);
      const g1 = new Float64Array(3), g2 = new Float64Array(3);
      j.violation(ctx, g1, 0);
      fresh.violation(ctx, g2, 0);
      expect(Math.max(...g1.map(Math.abs))).toBeGreaterThan(1e-4);
      expect(Array.from(g2)).toEqual(Array.from(g1));
    }
  });

  it('steps bit for bit like a model whose joints were packed a second time elsewhere', () => {
    const a = chainOfBodies(6, { integrator: 'trapezoidal', step: 1 / 240 });
    // a second model over the same joints moves their scratch into its own pool
    const b = new Model({ components: [...a.components], markers: [...a.markers], forces: [...a.forces], settings: a.settings,
      nq: a.nq, nu: a.nu, q0: a.initialQ, u0: a.initialU, constraints: [...a.constraints] });
    const s1 = new Simulation(a), s2 = new Simulation(b);
    s1.steps(50);
    s2.steps(50);
    expect(Array.from(s2.state.q)).toEqual(Array.from(s1.state.q));
    expect(Array.from(s2.state.u)).toEqual(Array.from(s1.state.u));
  });
});
