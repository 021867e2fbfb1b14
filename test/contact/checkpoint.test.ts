/**
 * Contacts and the simulation's guarantees: a checkpoint carries the contacts' warm starts, so a
 * restored run repeats bit for bit; two simulations of one model step side by side without seeing
 * each other; under rk4 a contact fails the step, naming the shapes.
 */
import { describe, it, expect } from 'vitest';
import { Simulation } from '../../src/simulation.js';
import { parseModel } from '../../src/io/loader.js';
import { ModelError } from '../../src/model/errors.js';

/** three boxes and a ball tumbling onto a floor and a slope */
function scene(solver: string) {
  return parseModel({
    version: 1, step: 1 / 60, contact: { solver },
    world: { shapes: [{ type: 'plane', friction: 0.6 }, { type: 'plane', normal: [0.3, 0, 1], position: [1, 0, 0] }] },
    bodies: [
      ...[0, 1, 2].map((i) => ({ name: `box${i}`, mass: 1, shape: { type: 'box', size: [0.2, 0.3, 0.1] }, position: [0.3 * i, 0.05 * i, 0.2 + 0.25 * i],
        orientation: [1, 0.1 * i, 0.2, 0.05], angularVelocity: [1, -i, 0.5] })),
      { name: 'ball', mass: 0.5, shape: { type: 'sphere', radius: 0.1, restitution: 0.4 }, position: [1.1, 0, 0.6], velocity: [-1, 0, 0] },
    ],
  });
}

describe('contacts and checkpoints', () => {
  for (const solver of ['pivoting', 'pgs', 'lemke']) {
    it(`${solver}: restore repeats the run bit for bit`, () => {
      const sim = new Simulation(scene(solver));
      sim.step(40);
      const cp = sim.checkpoint();
      sim.step(40);
      const want = [...sim.state.q, ...sim.state.u];
      expect(sim.contacts().length).toBeGreaterThan(0);
      sim.restore(cp);
      sim.step(40);
      expect([...sim.state.q, ...sim.state.u]).toEqual(want);
      // a new simulation restored from the checkpoint too
      const other = new Simulation(scene(solver));
      other.restore(cp);
      other.step(40);
      expect([...other.state.q, ...other.state.u]).toEqual(want);
    });
  }
  it('two simulations of one model step side by side as each alone', () => {
    const model = scene('pgs'), a = new Simulation(model), b = new Simulation(model), alone = new Simulation(model);
    for (let i = 0; i < 60; i++) { a.step(); b.step(); }
    alone.step(60);
    expect([...a.state.q]).toEqual([...alone.state.q]);
    expect([...b.state.u]).toEqual([...alone.state.u]);
  });
  it('rk4 fails the step where a contact first comes within the margin, naming the shapes', () => {
    const sim = new Simulation(scene('pivoting'), { integrator: 'rk4' });
    expect(() => sim.step(100)).toThrow(ModelError);
    expect(() => sim.step()).toThrow(/^integrator: rk4 cannot take contacts: \S+ and \S+ come within the contact margin/);
  });
});
