/**
 * ConstraintSystem.evaluate at positions it has just evaluated into the same matrix (the
 * projection's last evaluation, then the next step's) keeps the assembled G and recomputes only
 * g, κ and G u: the results must equal a full evaluation's.
 */
import { describe, it, expect } from 'vitest';
import { chainOfBodies } from '../../examples/scenes.js';
import { Simulation } from '../../src/simulation.js';
import { Workspace } from '../../src/step/workspace.js';

describe('ConstraintSystem.evaluate reuse', () => {
  it('gives the g, G, G u and κ of a full evaluation when only u changed', () => {
    const sim = new Simulation(chainOfBodies(8, { integrator: 'implicit-euler', step: 1 / 240 }));
    sim.steps(40);
    const { q } = sim.state, u1 = sim.state.u.slice(), u2 = u1.map((x, i) => x + 0.3 * Math.sin(i));
    // reference: a fresh workspace, one full evaluation at (q, u2)
    const ref = new Workspace(sim.model);
    ref.cs.evaluate(ref.fs.bind(q, u2), ref.Gm);
    // the simulation's workspace: evaluated at (q, u1), then again at the same q with u2 (reuse)
    const ws = sim.ws;
    ws.cs.evaluate(ws.fs.bind(q, u1), ws.Gm);
    const gen = ws.fs.kin.generation;
    ws.cs.evaluate(ws.fs.bind(q.slice(), u2), ws.Gm);
    expect(ws.fs.kin.generation).toBe(gen);
    // the constraint part of Gm (M shares the matrix, in the component part)
    const closeG = (a: Workspace, b: Workspace) => {
      const L = a.fs.layout, n = sim.model.nSolve;
      for (let j = 0; j < L.n; j++) {
        for (let p = j < n ? a.fs.split[j]! : L.colPtr[j]!; p < L.colPtr[j + 1]!; p++) expect(Math.abs(a.Gm.values[p]! - b.Gm.values[p]!)).toBeLessThanOrEqual(1e-13);
      }
    };
    const close = (a: Float64Array, b: Float64Array) => { for (let i = 0; i < a.length; i++) expect(Math.abs(a[i]! - b[i]!)).toBeLessThanOrEqual(1e-13 * (1 + Math.abs(b[i]!))); };
    close(ws.cs.g, ref.cs.g);
    // G u bit for bit: both paths multiply the same kept blocks in the same order (restore is exact)
    expect(Array.from(ws.cs.Gu)).toEqual(Array.from(ref.cs.Gu));
    close(ws.cs.kappa, ref.cs.kappa);
    closeG(ws, ref);
    // and a changed position takes the full path again
    const q2 = q.slice();
    q2[0] = q2[0]! + 1e-3;
    ws.cs.evaluate(ws.fs.bind(q2, u2), ws.Gm);
    ref.cs.evaluate(ref.fs.bind(q2, u2), ref.Gm);
    close(ws.cs.g, ref.cs.g);
    closeG(ws, ref);
  });
});
