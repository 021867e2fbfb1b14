/**
 * Impacts and resting contact against exact answers: a ball dropped with restitution e rebounds
 * to e² of its height; with e = 0 it comes to rest within the penetration tolerance and without
 * jitter; a rod sliding with large μ (Painlevé) gives no NaN and a reported solver status.
 */
import { describe, it, expect } from 'vitest';
import { Simulation } from '../../src/simulation.js';
import { withContacts, plane, shapeOf, material } from '../helpers/contactModel.js';

const g = 9.81, r = 0.1;

function ball(e: number, solver: 'pivoting' | 'pgs' | 'lemke', step: number, height: number, compliance = 0) {
  return new Simulation(withContacts({
    version: 1, step, gravity: [0, 0, -g],
    bodies: [{ name: 'ball', mass: 1, shape: { type: 'sphere', radius: r }, position: [0, 0, r + height] }],
  }, { contact: { solver }, shapes: [plane([0, 0, 0], [1, 0, 0, 0], material(0.5, e, compliance)), shapeOf(0, 'sphere', [r], material(0.5, e, compliance))] }));
}

describe('a dropped ball', () => {
  for (const solver of ['pivoting', 'pgs', 'lemke'] as const) {
    it(`${solver}: with restitution e rebounds to e² of its height within 2%`, () => {
      const e = 0.6, H = 1, sim = ball(e, solver, 1e-3, H), b = sim.body('ball');
      // fall, bounce, then the top of the rebound
      while (b.velocity[2] <= 0 && sim.time < 2) sim.step();
      let top = b.position[2];
      while (b.velocity[2] > 0) { sim.step(); top = Math.max(top, b.position[2]); }
      expect(Math.abs((top - r) / (e * e * H) - 1)).toBeLessThan(0.02);
    });
    it(`${solver}: with e = 0 comes to rest: penetration below 1e-6 m, speed below 1e-5 m/s after 1 s`, () => {
      const sim = ball(0, solver, 1 / 60, 0.5), b = sim.body('ball');
      sim.run(1.5);
      let worst = 0;
      for (let i = 0; i < 60; i++) {
        sim.step();
        worst = Math.max(worst, Math.hypot(...b.velocity));
        expect(b.position[2] - r).toBeGreaterThan(-1e-6);
      }
      expect(worst).toBeLessThan(1e-5);
    });
  }
  it('a compliant contact settles at the static deflection m g α', () => {
    // α in series: each shape 1e-4 m/N, the pair 2e-4 m/N; damping makes it settle
    const alpha = 1e-4, sim = new Simulation(withContacts({
      version: 1, step: 1e-3, gravity: [0, 0, -g],
      bodies: [{ name: 'ball', mass: 1, shape: { type: 'sphere', radius: r }, position: [0, 0, r] }],
    }, { contact: { solver: 'pivoting' }, shapes: [plane([0, 0, 0], [1, 0, 0, 0], material(0.5, 0, alpha, 0.02)), shapeOf(0, 'sphere', [r], material(0.5, 0, alpha, 0.02))] }));
    sim.run(3);
    expect(Math.abs((r - sim.body('ball').position[2]) / (g * 2 * alpha) - 1)).toBeLessThan(1e-3);
  });
});

describe('a rod sliding with large μ (Painlevé)', () => {
  for (const solver of ['pivoting', 'pgs', 'lemke'] as const) {
    it(`${solver}: no NaN, and a solver status every step`, () => {
      // a capsule leaning at 30°, its lower end sliding fast towards the lean
      const th = Math.PI / 6, L = 0.5, q: [number, number, number, number] = [Math.cos(th / 2), 0, Math.sin(th / 2), 0];
      const sim = new Simulation(withContacts({
        version: 1, step: 1 / 60, gravity: [0, 0, -g],
        bodies: [{ name: 'rod', mass: 1, shape: { type: 'capsule', radius: 0.02, length: 2 * L }, orientation: q,
          position: [0, 0, L * Math.cos(th) + 0.02], velocity: [-3, 0, 0] }],
      }, { contact: { solver }, shapes: [plane([0, 0, 0], [1, 0, 0, 0], material(2)), shapeOf(0, 'capsule', [0.02, L], material(2))] }));
      for (let i = 0; i < 120; i++) {
        sim.step();
        for (const x of [...sim.state.q, ...sim.state.u]) expect(Number.isFinite(x)).toBe(true);
        const rep = sim.contactSolve;
        if (rep) expect(['solved', 'iteration-limit', 'ray-termination', 'singular', 'infeasible']).toContain(rep.status);
      }
    });
  }
});
