/**
 * Contact and friction against exact answers (issue: contact and friction, tests): a box on an
 * incline below and above tan θ = μ, the stick/slip threshold, a box sliding to rest, a sphere
 * rolling without slipping and slipping. Under implicit Euler a constant acceleration gives
 * v_n = a n h exactly, so the velocities are compared with a·t.
 */
import { describe, it, expect } from 'vitest';
import { Simulation } from '../../src/simulation.js';
import { withContacts, plane, shapeOf, material } from '../helpers/contactModel.js';

const g = 9.81;
type Solver = 'pivoting' | 'pgs' | 'lemke';

/** a unit box (half size 0.1 m, 1 kg) resting on a plane tilted by θ about y (downhill along +x′) */
function boxOnIncline(theta: number, mu: number, solver: Solver, step = 0.01) {
  const q: [number, number, number, number] = [Math.cos(theta / 2), 0, Math.sin(theta / 2), 0];
  const n = [Math.sin(theta), 0, Math.cos(theta)];
  const model = withContacts({
    version: 1, step, gravity: [0, 0, -g],
    bodies: [{ name: 'box', mass: 1, shape: { type: 'box', size: [0.2, 0.2, 0.2] }, position: [0.1 * n[0]!, 0, 0.1 * n[2]!], orientation: q }],
  }, { contact: { solver, friction: 'coulomb' }, shapes: [plane([0, 0, 0], q, material(mu)), shapeOf(0, 'box', [0.1, 0.1, 0.1], material(mu))] });
  return { sim: new Simulation(model), down: [Math.cos(theta), 0, -Math.sin(theta)] };
}

/** velocity of the box along the downhill direction after t seconds */
function downhillSpeed(theta: number, mu: number, solver: Solver, t: number): number {
  const { sim, down } = boxOnIncline(theta, mu, solver);
  sim.step(Math.round(t / sim.h));
  const v = sim.body('box').velocity;
  return v[0] * down[0]! + v[1] * down[1]! + v[2] * down[2]!;
}

describe('a box on an incline', () => {
  const mu = 0.5, t = 0.5;
  for (const solver of ['pivoting', 'pgs', 'lemke'] as const) {
    it(`${solver}: stays put below tan θ = μ`, () => {
      expect(Math.abs(downhillSpeed(Math.atan(mu) - 0.05, mu, solver, t))).toBeLessThan(1e-6);
    });
    it(`${solver}: slides above it with a = g(sin θ − μ cos θ) within 0.5%`, () => {
      const theta = 0.7, a = g * (Math.sin(theta) - mu * Math.cos(theta));
      expect(Math.abs(downhillSpeed(theta, mu, solver, t) / (a * t) - 1)).toBeLessThan(5e-3);
    });
  }
  it('pivoting: the threshold is found within 0.1°', () => {
    const crit = Math.atan(mu), d = (0.1 * Math.PI) / 180;
    expect(Math.abs(downhillSpeed(crit - d, mu, 'pivoting', 1))).toBeLessThan(1e-6);
    const a = g * (Math.sin(crit + d) - mu * Math.cos(crit + d));
    expect(downhillSpeed(crit + d, mu, 'pivoting', 1) / a - 1).toBeLessThan(5e-3);
  });
});

describe('a box sliding on a plane', () => {
  for (const solver of ['pivoting', 'pgs', 'lemke'] as const) {
    it(`${solver}: stops after v₀²/(2μg) within 1%`, () => {
      const mu = 0.4, v0 = 2, model = withContacts({
        version: 1, step: 1e-3, gravity: [0, 0, -g],
        bodies: [{ name: 'box', mass: 1, shape: { type: 'box', size: [0.2, 0.2, 0.2] }, position: [0, 0, 0.1], velocity: [v0, 0, 0] }],
      }, { contact: { solver, friction: 'coulomb' }, shapes: [plane([0, 0, 0], [1, 0, 0, 0], material(mu)), shapeOf(0, 'box', [0.1, 0.1, 0.1], material(mu))] });
      const sim = new Simulation(model), box = sim.body('box');
      while (box.velocity[0] > 1e-9 && sim.time < 2) sim.step();
      expect(Math.abs(box.position[0] / (v0 * v0 / (2 * mu * g)) - 1)).toBeLessThan(1e-2);
      expect(Math.abs(box.position[1])).toBeLessThan(1e-9);
    });
  }
});

describe('a sphere on an incline', () => {
  const theta = 0.35, r = 0.1;
  function rollSpeed(mu: number, solver: Solver, t: number): number {
    const q: [number, number, number, number] = [Math.cos(theta / 2), 0, Math.sin(theta / 2), 0];
    const n = [Math.sin(theta), 0, Math.cos(theta)], down = [Math.cos(theta), 0, -Math.sin(theta)];
    const model = withContacts({
      version: 1, step: 0.01, gravity: [0, 0, -g],
      bodies: [{ name: 'ball', mass: 1, shape: { type: 'sphere', radius: r }, position: [r * n[0]!, 0, r * n[2]!] }],
    }, { contact: { solver, friction: 'coulomb' }, shapes: [plane([0, 0, 0], q, material(mu)), shapeOf(0, 'sphere', [r], material(mu))] });
    const sim = new Simulation(model);
    sim.step(Math.round(t / sim.h));
    const v = sim.body('ball').velocity;
    return v[0] * down[0]! + v[2] * down[2]!;
  }
  for (const solver of ['pivoting', 'pgs', 'lemke'] as const) {
    it(`${solver}: rolls without slipping at a = (5/7) g sin θ within 0.5%`, () => {
      expect(Math.abs(rollSpeed(0.8, solver, 0.5) / ((5 / 7) * g * Math.sin(theta) * 0.5) - 1)).toBeLessThan(5e-3);
    });
    it(`${solver}: with small μ slips at a = g(sin θ − μ cos θ)`, () => {
      const mu = 0.05, a = g * (Math.sin(theta) - mu * Math.cos(theta));
      expect(Math.abs(rollSpeed(mu, solver, 0.5) / (a * 0.5) - 1)).toBeLessThan(5e-3);
    });
  }
});
