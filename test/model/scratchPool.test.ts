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
