/** The API examples of examples/api/ run, and give what mechanics says they should. */
import { describe, it, expect } from 'vitest';
import { main as pendulum } from '../../examples/api/pendulum.js';
import { main as chainForces } from '../../examples/api/chain-forces.js';
import { main as controller } from '../../examples/api/controller.js';

const quiet = () => undefined;

describe('examples/api', () => {
  it('pendulum.ts: the period of a 10° swing matches 2π√(L/g)(1 + θ₀²/16)', () => {
    const { period, exact } = pendulum(quiet);
    // the series' next term, 11θ₀⁴/3072, is 3e-5 of the period at 10°
    expect(Math.abs(period / exact - 1)).toBeLessThan(1e-4);
  });

  it('chain-forces.ts: each joint of a chain at rest carries the weight below it', () => {
    const { force, weight } = chainForces(quiet);
    for (let i = 0; i < force.length; i++) expect(force[i]! / weight[i]!).toBeCloseTo(1, 4);
  });

  it('controller.ts: the PID loop holds the arm at 45° with the torque gravity asks for', () => {
    const { angle, torque, gravityTorque } = controller(quiet);
    expect(angle).toBeCloseTo(Math.PI / 4, 4);
    expect(torque / gravityTorque).toBeCloseTo(1, 3);
  });
});
