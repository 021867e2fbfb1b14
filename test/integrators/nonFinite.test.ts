/**
 * A linear solve that produces non-finite numbers names the component or constraint whose values
 * went out of range, never just "step matrix" (a fuzzed model file found it).
 */
import { describe, it, expect } from 'vitest';
import { Simulation, parseModel } from '../../src/index.js';

const run = (fields: Record<string, unknown>) => () => new Simulation(parseModel({ version: 1, ...fields })).step(10);

describe('a solve that goes non-finite', () => {
  it('names the constraint whose rows overflow (a distance joint 1e300 m long)', () => {
    expect(run({
      particles: [{ name: 'a', mass: 1, position: [0, 0, 0] }, { name: 'b', mass: 1e-300, position: [1e300, 0, 0] }],
      joints: [{ type: 'distance', points: ['a', 'b'], length: 1 }],
    })).toThrow('diverged at step 1 (t = 0.0100000 s): constraint "distance#0": its constraint rows became non-finite');
  });

  it('names the particle whose stiffness overflows (1e200 N/m stretched 1e200 m)', () => {
    expect(run({
      particles: [{ name: 'a', mass: 1, position: [0, 0, 0] }, { name: 'b', mass: 1, position: [1e200, 0, 0] }],
      forces: [{ type: 'axial-spring', points: ['a', 'b'], stiffness: 1e200, restLength: 0 }],
    })).toThrow('diverged at step 1 (t = 0.0100000 s): particle "b": its stiffness or damping became non-finite');
  });
});
