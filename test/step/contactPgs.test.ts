/**
 * The block-diagonal `pgs` contact solve in the whole step (step/contactPgs.ts, solvers/lcp/
 * manifoldPgs.ts): what broke was a stack of ten boxes, which rocked and drifted by 0.1-0.2 m in
 * 5 s under point-by-point Gauss-Seidel with the penetration push-out in the velocities. Manifold
 * blocks and split impulses hold it; a box on the ground carries its weight evenly on its four
 * corners, sticks at once under a small slide and spin, and a penetration is pushed out without
 * leaving any velocity behind.
 */
import { describe, it, expect } from 'vitest';
import { parseModel } from '../../src/io/loader.js';
import { Simulation } from '../../src/simulation.js';

const g = 9.81, h = 1 / 60;

/** n unit cubes of 1 kg on a fixed ground box, `gap` apart, under `pgs` with its default settings */
function stack(n: number, gap: number, extra: Record<string, unknown> = {}, contact = {}): Simulation {
  const bodies = Array.from({ length: n }, (_, i) => ({
    name: `b${i}`, mass: 1, shape: { type: 'box', size: [1, 1, 1], friction: 0.5 },
    position: [0, 0, 0.5 + i * (1 + gap)], ...(i === 0 ? extra : {}),
  }));
  return new Simulation(parseModel({
    version: 1, step: h, gravity: [0, 0, -g], bodies, contact: { solver: 'pgs', ...contact },
    world: { shapes: [{ type: 'box', size: [4, 4, 1], position: [0, 0, -0.5], friction: 0.5 }] },
  }));
}

describe('pgs on a stack of ten boxes (it rocked apart under point-by-point sweeps)', () => {
  it('stands for 10 s with the top box moving less than 0.5 mm, in a few sweeps a step', () => {
    const sim = stack(10, 0.001), top = sim.body('b9');
    sim.run(0.5);
    const p0 = [...top.position];
    let sweeps = 0;
    for (let k = 0; k < 600; k++) { sim.step(); sweeps += sim.contactSolve!.iterations; }
    const p = top.position;
    expect(Math.hypot(p[0] - p0[0]!, p[1] - p0[1]!)).toBeLessThan(1e-4);
    expect(Math.hypot(p[0] - p0[0]!, p[1] - p0[1]!, p[2] - p0[2]!)).toBeLessThan(5e-4);
    expect(sweeps / 600).toBeLessThan(10);
    expect(sim.energy().kinetic).toBeLessThan(1e-6);
  });
});

describe('pgs on one box resting on the ground', () => {
  it('carries the weight evenly on the four corners (the least-norm impulses of the singular block)', () => {
    const sim = stack(1, 0);
    sim.step(3);
    const c = sim.contacts();
    expect(c).toHaveLength(4);
    // equal (to the solve's tolerance), their sum the weight
    for (const k of c) {
      expect(Math.abs(k.normalForce - c[0]!.normalForce)).toBeLessThan(1e-6);
      expect(Math.hypot(...k.frictionForce)).toBeLessThan(1e-9);
    }
    expect(Math.abs(4 * c[0]!.normalForce - g)).toBeLessThan(1e-6);
  });

  it('sticks in one step under a slide and a spin that friction can stop', () => {
    // μ m g h = 0.082 N s stops 0.05 m/s; the twist μ m g h r̄ (r̄ = 0.707 m) stops 0.2 rad/s (I = 1/6);
    // the normal and friction blocks see each other through the tilt, so the sweeps run to 1e-13
    const sim = stack(1, 0, { velocity: [0.05, -0.02, 0], angularVelocity: [0, 0, 0.2] },
      { iterations: 500, tolerance: 1e-13 });
    sim.step();
    const u = sim.state.u;
    for (let k = 0; k < 6; k++) expect(Math.abs(u[k]!)).toBeLessThan(1e-9);
  });

  it('pushes a penetration out by erp per step, moving the box without giving it velocity', () => {
    const sim = stack(1, 0);
    sim.state.q[2] = 0.5 - 0.01;           // 1 cm into the ground
    sim.step();
    // erp = 0.2 of the 1 cm this step, and no velocity left from it
    expect(sim.body('b0').position[2]).toBeCloseTo(0.5 - 0.008, 9);
    expect(Math.abs(sim.state.u[2]!)).toBeLessThan(1e-9);
    sim.step(60);
    expect(Math.abs(sim.body('b0').position[2] - 0.5)).toBeLessThan(1e-7);
    expect(sim.energy().kinetic).toBeLessThan(1e-12);
  });
});
